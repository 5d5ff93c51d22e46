"""Runs a study's configurations side by side: each one a child process with its wall time, peak
memory (from os.wait4) and timeout; a failure or a timeout is a result, never an exception."""
import os
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from .report_figures import load_report


@dataclass
class Run:
    """One execution of a command: how it ended and the JSON report it wrote (None if none)."""
    exit_code: int
    timed_out: bool
    wall_s: float
    peak_memory_kib: int
    report: dict | None
    stderr: str


@dataclass
class Config:
    """One configuration of a study: the command (without its --report) and where its report
    goes. `after` may replace the result by running another command (a diverged replay)."""
    id: str
    label: str
    command: list[str]
    report_path: str
    log_path: str
    fields: dict = field(default_factory=dict)
    overrides: list = field(default_factory=list)  # a what-if variant's options
    runs: list[Run] = field(default_factory=list)


def with_report(command, report_path):
    """The command with --report inserted right after the executable (and a replay's record)."""
    at = 2 if os.path.basename(command[0]) == "mpisim-replay" else 1
    return command[:at] + ["--report", report_path] + command[at:]


def run_once(command, report_path, log_path, timeout_s):
    """Runs `command` writing its report to report_path, its output to log_path."""
    if os.path.exists(report_path):
        os.remove(report_path)
    start = time.monotonic()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(with_report(command, report_path), stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        expired = threading.Event()

        def kill_group():
            expired.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout_s, kill_group) if timeout_s else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    with open(log_path, errors="replace") as log:
        output = log.read()
    return Run(exit_code=proc.returncode, timed_out=expired.is_set(), wall_s=wall,
               peak_memory_kib=int(usage.ru_maxrss), report=load_report(report_path),
               stderr=output)


def run_config(config, repeat, timeout_s):
    """Runs one configuration `repeat` times (reports of repeats 2.. beside the first)."""
    for k in range(repeat):
        suffix = "" if k == 0 else f".{k + 1}"
        report = config.report_path.replace(".json", f"{suffix}.json")
        log = config.log_path.replace(".log", f"{suffix}.log")
        config.runs.append(run_once(config.command, report, log, timeout_s))
        if config.runs[-1].exit_code != 0 and config.runs[-1].report is None:
            break  # it cannot run at all: repeating it would only fail again
    return config


def run_all(configs, jobs, repeat, timeout_s, describe):
    """Runs every configuration, `jobs` at a time, printing one progress line per finished one
    (`describe(config)` says how it ended). Returns them in their given order."""
    total = len(configs)
    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_config, c, repeat, timeout_s) for c in configs]
        for future in as_completed(futures):
            config = future.result()
            done += 1
            print(f"[{done}/{total}] {config.label}: {describe(config)}", file=sys.stderr,
                  flush=True)
    return configs


def median_run(runs):
    """The run whose prediction is the (lower) median, so that its report is a real one."""
    finished = [r for r in runs if r.exit_code == 0 and r.report is not None]
    if not finished:
        return runs[-1] if runs else None
    times = [r.report["predicted_time_ps"] for r in finished]
    middle = statistics.median_low(times)
    return next(r for r in finished if r.report["predicted_time_ps"] == middle)


def shell_line(command):
    return shlex.join(command)
