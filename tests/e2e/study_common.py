"""What the mpisim-study tests share: running a study and running one of its commands alone."""
import json
import os
import shlex
import shutil
import subprocess
import sys


def fail(what, output=""):
    sys.exit(f"FAIL: {what}\n{output[-3000:]}")


def run_study(tool, study, out, args):
    """Runs `mpisim-study STUDY -o OUT ARGS` afresh; its rows (from results.json) and process."""
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([tool, study, "-o", out] + args, capture_output=True, text=True,
                       timeout=300)
    if p.returncode != 0:
        fail(f"mpisim-study exit code {p.returncode}", p.stdout + p.stderr)
    return json.load(open(os.path.join(out, "results.json")))["rows"], p


def predicted_alone(argv, report):
    """The predicted time (ps) of a command run by itself, --report inserted after argv[0]."""
    p = subprocess.run(argv[:1] + ["--report", report] + argv[1:], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}: {shlex.join(argv)}", p.stderr)
    return json.load(open(report))["predicted_time_ps"]
