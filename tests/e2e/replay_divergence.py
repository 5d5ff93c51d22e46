#!/usr/bin/env python3
"""mpisim-replay on a program whose MPI_ANY_SOURCE arrivals reverse order on a 10x slower network
(tests/e2e/programs/first_come_reply.c): its record, made at 12 GB/s, replays exactly on the
recording model with every outcome as recorded; replayed at 1.2 GB/s, where rank 0's receives match
the other rank first, it warns once naming rank 0's first receive, and the JSON report marks the
replay diverged with both differing receives counted; with --strict it exits with code 4. The same
on 1 and 2 host processes. A record without outcomes (format 1) replays with a note that they
could not be checked, and no warning.

usage: replay_divergence.py MPISIMRUN MPISIM-REPLAY PROGRAM
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import prediction, report_of  # noqa: E402

SLOW = ["--bandwidth", "1.2GB/s"]
FIRST = ("rank 0's 1st MPI_Recv from MPI_ANY_SOURCE (rank-0.ops:4) matched rank 1 in the replay, "
         "rank 2 in the recorded run")
CHECKED = 4  # rank 0's two receives from MPI_ANY_SOURCE, the workers' receives with MPI_ANY_TAG
DIVERGED_EXIT = 4


def fail(what, stderr=""):
    sys.exit(f"FAIL: {what}\n{stderr[-3000:]}")


def live(mpisimrun, program, extra, report, record=None):
    """Runs the program; its report and which rank rank 0 heard from first."""
    cmd = [mpisimrun, "-np", "3", "--cpu", "off", "--report", report] + extra
    if record:
        cmd += ["--record", record]
    p = subprocess.run(cmd + [program], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}: {' '.join(cmd)}", p.stderr)
    first = re.search(r"first came rank (\d)", p.stdout)
    if not first:
        fail(f"no 'first came' line from {' '.join(cmd)}", p.stdout)
    return json.load(open(report)), int(first.group(1))


def check_as_recorded(replay, record, hosts, live_report, report):
    r, stderr = report_of([replay, record, "-hosts", str(hosts), "--report", report], report)
    if prediction(r) != prediction(live_report):
        fail(f"on the recording model, on {hosts} host(s): {prediction(r)} != live {prediction(live_report)}")
    want = {"diverged": False, "checked": CHECKED, "differing": 0, "unchecked": 0,
            "clock_reads": 0, "first_difference": None}
    if r["replay"] != want or "warning" in stderr:
        fail(f"on the recording model, on {hosts} host(s): replay {r['replay']} != {want}", stderr)
    if f"replay: {CHECKED} wildcard matches, test outcomes and nodes as recorded" not in stderr:
        fail("the text report does not say the outcomes were as recorded", stderr)


def check_diverged(replay, record, hosts, report):
    cmd = [replay, record, "-hosts", str(hosts), "--report", report] + SLOW
    r, stderr = report_of(cmd, report)
    checks = r["replay"]
    if not checks["diverged"] or checks["differing"] != 2 or checks["checked"] != CHECKED:
        fail(f"at 1.2 GB/s on {hosts} host(s): {checks}", stderr)
    first = checks["first_difference"]
    if first["rank"] != 0 or first["operation"] != FIRST:
        fail(f"first difference {first}, expected rank 0: {FIRST}", stderr)
    if stderr.count("warning:") != 1 or f"warning: 2 of the replay's {CHECKED} wildcard matches" not in stderr \
            or FIRST not in stderr or "the prediction is approximate" not in stderr.lower():
        fail(f"at 1.2 GB/s on {hosts} host(s): not one warning naming {FIRST}", stderr)
    if f"replay: DIVERGED: 2 of {CHECKED} wildcard matches" not in stderr:
        fail("the text report does not say the replay diverged", stderr)
    p = subprocess.run(cmd + ["--strict"], capture_output=True, text=True, timeout=120)
    if p.returncode != DIVERGED_EXIT or FIRST not in p.stderr:
        fail(f"--strict on {hosts} host(s): exit {p.returncode}, expected {DIVERGED_EXIT}", p.stderr)
    return prediction(r)


def check_old_format(replay, record, report):
    """The record as the first format had it: no outcome lines, version 1."""
    for name in os.listdir(record):
        path = os.path.join(record, name)
        if name.endswith(".ops"):
            lines = open(path).read().split("\n")
            open(path, "w").write("\n".join(x for x in lines if not x.startswith("outcome ")))
    meta = json.load(open(os.path.join(record, "meta.json")))
    meta["mpisim_record"] = 1
    json.dump(meta, open(os.path.join(record, "meta.json"), "w"))
    r, stderr = report_of([replay, record, "--report", report] + SLOW, report)
    if r["replay"]["unchecked"] != CHECKED or r["replay"]["diverged"] or "warning" in stderr \
            or f"note: the record holds no outcome for {CHECKED} wildcard matches" not in stderr:
        fail(f"format 1: {r['replay']}", stderr)


def main():
    mpisimrun, replay, program = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        record = os.path.join(tmp, "record")
        recorded, first = live(mpisimrun, program, [], report, record)
        slow, slow_first = live(mpisimrun, program, SLOW, report)
        if (first, slow_first) != (2, 1):
            fail(f"rank 0 heard first from rank {first} at 12 GB/s and {slow_first} at 1.2 GB/s, "
                 "expected 2 and 1: the test no longer reverses the order")
        predicted = []
        for hosts in (1, 2):
            check_as_recorded(replay, record, hosts, recorded, report)
            predicted.append(check_diverged(replay, record, hosts, report))
        if predicted[0] != predicted[1]:
            fail(f"the diverged replay predicts {predicted[0]} on 1 host, {predicted[1]} on 2")
        check_old_format(replay, record, report)
    print(f"replay divergence: live at 1.2 GB/s {prediction(slow)[0]} ps, replay of the 12 GB/s "
          f"record there {predicted[0][0]} ps, with the warning")


if __name__ == "__main__":
    main()
