"""The scaling study: one configuration per (machine, rank count); speedup and parallel
efficiency against the smallest rank count of the same machine."""
import os
import re

from . import cli
from . import rows as rowlib
from .runner import Config, run_all


def options_of(run_options):
    out = []
    for name, value in run_options:
        out += [name] if value is None else [name, value]
    return out


def with_np(arguments, np):
    return [a.replace("{np}", str(np)) for a in arguments]


def machine_ids(machines):
    """A file name for each machine: a preset's name, a machine file's base name without
    .machine (never its path: the run's files stay in DIR/runs), made unique."""
    ids = {}
    for machine in machines:
        base = os.path.basename(machine.rstrip("/")) if machine else "default"
        if base.endswith(".machine") and len(base) > len(".machine"):
            base = base[:-len(".machine")]
        base = re.sub(r"[^A-Za-z0-9_.+-]", "_", base).lstrip(".") or "machine"
        name, k = base, 1
        while name in ids.values():
            k += 1
            name = f"{base}-{k}"
        ids[machine] = name
    return ids


def configs(args, tools, out):
    machines = args.machines or [None]
    ids = machine_ids(machines)
    result = []
    extra = ["--critical-path"] if tools.critical_path and not any(
        name == "--critical-path" for name, _ in args.run_options) else []
    for machine in machines:
        for np in args.np:
            name = f"{ids[machine]}-np{np}"
            command = [tools.mpisimrun, "-np", str(np)]
            command += ["--machine", machine] if machine else []
            command += options_of(args.run_options) + extra + with_np(args.program, np)
            result.append(Config(
                id=name, label=f"{machine or 'default machine'}, {np} ranks", command=command,
                report_path=os.path.join(out, "runs", f"{name}.json"),
                log_path=os.path.join(out, "runs", f"{name}.log"),
                fields={"machine": machine or "default", "ranks": np}))
    return result


def add_scaling(rows, weak):
    """Speedup and efficiency per machine against its smallest rank count. Strong scaling:
    speedup T(n0)/T(n), efficiency speedup*n0/n. Weak ({np} in the arguments): efficiency
    T(n0)/T(n), speedup (scaled) efficiency*n/n0."""
    for machine in dict.fromkeys(r["machine"] for r in rows):
        mine = [r for r in rows if r["machine"] == machine and rowlib.ok(r)]
        if not mine:
            continue
        base = min(mine, key=lambda r: r["ranks"])
        for r in mine:
            if r["predicted_time_ps"] <= 0:
                continue
            ratio = base["predicted_time_ps"] / r["predicted_time_ps"]
            if weak:
                r["efficiency"] = ratio
                r["speedup"] = ratio * r["ranks"] / base["ranks"]
            else:
                r["speedup"] = ratio
                r["efficiency"] = ratio * base["ranks"] / r["ranks"]


def describe(config):
    run = config.runs[-1]
    if run.exit_code == 0 and run.report:
        return f"{run.report['predicted_time_ps'] / 1e12:.6g} s predicted (wall {run.wall_s:.2f} s)"
    return "timed out" if run.timed_out else f"failed (exit code {run.exit_code})"


def run(args, tools, out):
    for machine in args.machines:
        tools.check_settings(["--machine", machine] + options_of(args.run_options),
                             f"--machine {machine}")
    if not args.machines:
        tools.check_settings(options_of(args.run_options), "the mpisimrun options")
    cs = run_all(configs(args, tools, out), args.jobs, args.repeat, args.timeout, describe)
    rows = [rowlib.row_of(c, "scaling") for c in cs]
    add_scaling(rows, weak=cli.weak_scaling(args))
    return rows
