#!/usr/bin/env python3
"""A polling program predicts the same on 1, 2 and 3 host processes, polling with MPI_Improbe and
MPI_Mrecv as with MPI_Iprobe and MPI_Recv: the predicted time, every rank's final clock and every
rank's output (its poll count and end time) are equal in all six runs (programs/matched_probe_poll.c,
5 ranks, `--cpu off`, the default network).

usage: poll_invariant.py MPISIMRUN PROGRAM
"""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import prediction, report_of  # noqa: E402


def main():
    mpisimrun, program = sys.argv[1:3]
    seen = {}
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        for mode in ("iprobe", "improbe"):
            for hosts in ("1", "2", "3"):
                cmd = [mpisimrun, "-np", "5", "-hosts", hosts, "--cpu", "off", "--report", report,
                       program, mode]
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
                r, _ = report_of(cmd, report)
                seen[(mode, hosts)] = (prediction(r), sorted(out.splitlines()))
    first = next(iter(seen.values()))
    for key, got in seen.items():
        if got != first:
            sys.exit(f"FAIL: {key} predicts {got}, iprobe on 1 host process {first}")
    print(f"same prediction in all six runs: {first[0][0]} ps; {first[1]}")


main()
