"""Runs a simulation that writes its JSON report and reads the prediction from it: the
predicted time and every rank's final clock (in ps), for tests that compare predictions."""
import json
import subprocess
import sys


def report_of(cmd, report):
    """Runs `cmd` (which writes its report to `report`); its report and stderr. Ends the test if
    it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit code {p.returncode}: {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return json.load(open(report)), p.stderr


def prediction(r):
    """The predicted time and every rank's final clock of report `r`."""
    return r["predicted_time_ps"], [x["time_ps"] for x in sorted(r["ranks"], key=lambda x: x["rank"])]


def predict(cmd, report):
    """Runs `cmd` (which writes its report to `report`); ends the test if it fails."""
    return prediction(report_of(cmd, report)[0])
