"""A study's rows: one per configuration, flat columns (numbers as numbers, None when not
applicable), the same in the terminal, results.csv, results.json and report.html."""
import os
import re

from . import report_figures
from .runner import median_run, shell_line

COLUMNS = (["id", "study", "machine", "ranks", "variant", "mode", "status", "error", "note",
            "predicted_time_ps", "predicted_time_s", "predicted_min_s", "predicted_max_s",
            "repeats", "speedup", "efficiency", "vs_baseline", "compute_share", "comm_share",
            "wait_share", "finished_share", "messages", "bytes", "wall_s", "peak_memory_kib",
            "replay_time_ps"]
           + [f"cp_{p}_ps" for p in report_figures.CRITICAL_PARTS]
           + ["cp_top", "cp_top_ranks", "command", "report"])

TOOL_LINE = re.compile(r"^(mpisim[a-z-]*|mpisimrun|[^ :]+): ")


def error_line(run):
    """The first line that says what went wrong."""
    if run.timed_out:
        return f"timed out after {run.wall_s:.0f} s"
    if run.report and run.report.get("message"):
        return run.report["message"].splitlines()[0]
    lines = [line.strip() for line in run.stderr.splitlines() if line.strip()]
    named = [line for line in lines if line.startswith("mpisim") or "rror" in line]
    first = (named or lines or [""])[0]
    return f"exit code {run.exit_code}: {first}"[:300]


def environment():
    """The MPISIM_* variables of the study's environment: every run has them."""
    return sorted((k, v) for k, v in os.environ.items() if k.startswith("MPISIM_"))


def command_line(command):
    """The command that reproduces a run on its own: with the study's MPISIM_* variables."""
    env = environment()
    return shell_line((["env"] + [f"{k}={v}" for k, v in env] if env else []) + command)


def row_of(config, study):
    """The row of a configuration that ran (its fields set beforehand: machine, ranks, ...)."""
    row = dict.fromkeys(COLUMNS)
    row.update(id=config.id, study=study, command=command_line(config.command),
               report=os.path.relpath(config.report_path, os.path.dirname(
                   os.path.dirname(config.report_path))))
    row.update(config.fields)
    runs = config.runs
    if not runs:
        row.setdefault("status", "not run")
        return row
    run = median_run(runs)
    row["wall_s"] = round(sorted(r.wall_s for r in runs)[len(runs) // 2], 3)
    row["peak_memory_kib"] = max(r.peak_memory_kib for r in runs)
    row["repeats"] = len(runs)
    if run.exit_code != 0 or run.report is None or run.report.get("outcome") != "finished":
        row["status"] = "timed out" if run.timed_out else "failed"
        row["error"] = error_line(run)
        return row
    row["status"] = "ok"
    row.update(report_figures.figures(run.report))
    settings = run.report.get("settings") or {}
    if row["machine"] is None and settings.get("machine"):
        row["machine"] = settings["machine"]["name"]
    if row["ranks"] is None:
        row["ranks"] = settings.get("ranks")
    times = [r.report["predicted_time_ps"] for r in runs
             if r.exit_code == 0 and r.report is not None]
    row["predicted_min_s"] = min(times) / 1e12
    row["predicted_max_s"] = max(times) / 1e12
    if run is not runs[0]:
        index = runs.index(run)
        row["report"] = row["report"].replace(".json", f".{index + 1}.json")
    return row


def ok(row):
    return row["status"] == "ok"
