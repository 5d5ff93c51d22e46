#!/usr/bin/python3
"""mpisim-study scaling (docs/studies.md): -np 4,8,16 on two machines gives 6 rows, each equal to
the picosecond to mpisimrun run alone with the command the row prints; results.csv loads with
the csv module into the same numbers as results.json; speedup and efficiency follow from the
predictions, and with {np} in the arguments (weak scaling) from T(n0) / T(n). A configuration
whose program fails, or runs past --timeout, is a row that says so, and the study still writes
its files and exits 0. With measured CPU, --repeat 3 gives the median run's prediction and
report, and the range.

usage: study_scaling.py MPISIM-STUDY HALO-PROGRAM FAILING-PROGRAM DIR
"""
import csv
import json
import os
import shlex
import sys

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from study_common import fail, predicted_alone, run_study  # noqa: E402

CRITICAL_PARTS = ["compute", "send_overhead", "recv_overhead", "latency", "transfer",
                  "contention", "wait"]


def study(tool, out, args):
    return run_study(tool, "scaling", out, args)


def alone(command, report):
    return predicted_alone(shlex.split(command), report)


def check_rows_equal_alone(tool, halo, out):
    rows, p = study(tool, out, ["-np", "4,8,16", "--machine", "cluster,sp2", "--cpu", "off",
                                halo, "200", "30"])
    if len(rows) != 6 or [(r["machine"], r["ranks"]) for r in rows] != [
            (m, n) for m in ("cluster", "sp2") for n in (4, 8, 16)]:
        fail(f"rows {[(r['machine'], r['ranks']) for r in rows]}")
    for r in rows:
        if r["status"] != "ok":
            fail(f"row {r['id']}: {r['status']} {r['error']}")
        got = alone(r["command"], os.path.join(out, f"alone-{r['id']}.json"))
        if got != r["predicted_time_ps"]:
            fail(f"row {r['id']}: {r['predicted_time_ps']} ps, alone {got} ps: {r['command']}")
        base = next(b for b in rows if b["machine"] == r["machine"] and b["ranks"] == 4)
        speedup = base["predicted_time_ps"] / r["predicted_time_ps"]
        if r["speedup"] != speedup or r["efficiency"] != speedup * 4 / r["ranks"]:
            fail(f"row {r['id']}: speedup {r['speedup']} efficiency {r['efficiency']}")
        report = json.load(open(os.path.join(out, r["report"])))
        if report["messages"]["count"] != r["messages"] or report["messages"]["bytes"] != r["bytes"]:
            fail(f"row {r['id']}: messages and bytes differ from its report")
        parts = [r[f"cp_{p}_ps"] for p in CRITICAL_PARTS]
        if report.get("critical_path") and sum(parts) != r["predicted_time_ps"]:
            fail(f"row {r['id']}: critical-path parts {parts} do not add up to the prediction")
        shares = r["compute_share"] + r["comm_share"] + r["wait_share"] + r["finished_share"]
        if abs(shares - 1) > 1e-9:
            fail(f"row {r['id']}: shares add up to {shares}")
    with open(os.path.join(out, "results.csv"), newline="") as f:
        table = list(csv.DictReader(f))
    if len(table) != 6:
        fail(f"results.csv has {len(table)} rows")
    for line, r in zip(table, rows):
        for col in ("predicted_time_ps", "ranks", "messages", "bytes"):
            if int(line[col]) != r[col]:
                fail(f"results.csv {r['id']} {col}: {line[col]} != {r[col]}")
        for col in ("predicted_time_s", "speedup", "efficiency", "compute_share", "wall_s"):
            if float(line[col]) != r[col]:
                fail(f"results.csv {r['id']} {col}: {line[col]} != {r[col]}")
    for name in ("report.html", "results.csv"):
        if not os.path.isfile(os.path.join(out, name)):
            fail(f"no {name}")
    if p.stderr.count("] ") < 6:
        fail("not one progress line per configuration", p.stderr)


def check_failing_row(tool, failing, out):
    rows, p = study(tool, out, ["-np", "2,4,8", "--cpu", "off", failing, "4"])
    status = {r["ranks"]: r["status"] for r in rows}
    if status != {2: "ok", 4: "failed", 8: "ok"}:
        fail(f"statuses {status}", p.stdout)
    bad = next(r for r in rows if r["ranks"] == 4)
    if "MPI_Abort" not in (bad["error"] or "") or "FAILED" not in p.stdout:
        fail(f"the failed row says {bad['error']!r}", p.stdout)
    if bad["predicted_time_ps"] is not None:
        fail("a failed row has a prediction")


def check_timed_out_row(tool, failing, out):
    rows, p = study(tool, out, ["-np", "2,3", "--cpu", "off", "--timeout", "6", failing, "3",
                                "spin"])
    status = {r["ranks"]: (r["status"], r["error"]) for r in rows}
    if status != {2: ("ok", None), 3: ("timed out", "timed out after 6 s")}:
        fail(f"statuses {status}", p.stdout)


def check_repeat(tool, halo, out):
    """--repeat 3 with measured CPU: the row is the median of its three reports, with their range."""
    rows, p = study(tool, out, ["-np", "2,4", "--repeat", "3", halo, "200", "30"])
    for r in rows:
        base = os.path.join(out, "runs", r["id"])
        times = sorted(json.load(open(f"{base}{suffix}.json"))["predicted_time_ps"]
                       for suffix in ("", ".2", ".3"))
        if r["repeats"] != 3 or r["predicted_time_ps"] != times[1]:
            fail(f"row {r['id']}: {r['repeats']} repeats, {r['predicted_time_ps']} ps; reports {times}")
        if (r["predicted_min_s"], r["predicted_max_s"]) != (times[0] / 1e12, times[2] / 1e12):
            fail(f"row {r['id']}: range {r['predicted_min_s']}-{r['predicted_max_s']}, reports {times}")
        if json.load(open(os.path.join(out, r["report"])))["predicted_time_ps"] != times[1]:
            fail(f"row {r['id']}: its report {r['report']} is not the median run's")


def check_weak(tool, halo, out):
    """{np} in the arguments, or --weak: weak scaling, efficiency T(n0)/T(n), scaled speedup."""
    rows, p = study(tool, out, ["-np", "2,8", "--cpu", "off", halo, "{np}0", "10"])
    small, large = rows
    if not shlex.split(large["command"])[-2:] == ["80", "10"]:
        fail(f"{{np}} not replaced: {large['command']}")
    efficiency = small["predicted_time_ps"] / large["predicted_time_ps"]
    if large["efficiency"] != efficiency or large["speedup"] != efficiency * 8 / 2:
        fail(f"weak scaling: efficiency {large['efficiency']}, speedup {large['speedup']}")
    if not json.load(open(os.path.join(out, "results.json")))["settings"]["weak_scaling"]:
        fail("results.json does not say the study is weak scaling")
    # --weak: a program whose arguments already fix each rank's share (jacobi1d's cells per rank).
    rows, p = study(tool, out + "-flag", ["-np", "2,8", "--weak", "--cpu", "off", halo, "20", "10"])
    small, large = rows
    efficiency = small["predicted_time_ps"] / large["predicted_time_ps"]
    if large["efficiency"] != efficiency or large["speedup"] != efficiency * 8 / 2:
        fail(f"--weak: efficiency {large['efficiency']}, speedup {large['speedup']}")
    if "--weak" in shlex.split(large["command"]):
        fail(f"--weak was passed on to mpisimrun: {large['command']}")


def main():
    tool, halo, failing, out = sys.argv[1:5]
    check_rows_equal_alone(tool, halo, os.path.join(out, "scaling"))
    check_failing_row(tool, failing, os.path.join(out, "failing"))
    check_timed_out_row(tool, failing, os.path.join(out, "timeout"))
    check_repeat(tool, halo, os.path.join(out, "repeat"))
    check_weak(tool, halo, os.path.join(out, "weak"))
    print("scaling study ok")


main()
