#!/usr/bin/env python3
"""Two modes of one program predict the same time: the predicted time and every rank's final
clock are equal (and not zero), on 1 and on 2 host processes.

usage: same_prediction.py MPISIMRUN PROGRAM RANKS MODE_A MODE_B
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import predict  # noqa: E402


def main():
    mpisimrun, program, ranks, modes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:6]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        for hosts in ("1", "2"):
            got = [predict([mpisimrun, "-np", ranks, "-hosts", hosts, "--cpu", "off", "--report", report,
                            program, mode], report) for mode in modes]
            if got[0] != got[1] or got[0][0] == 0:
                sys.exit(f"FAIL: {hosts} host(s): {modes[0]} predicts {got[0]}, {modes[1]} {got[1]}")
    print(f"same prediction: {modes[0]} and {modes[1]}, {got[0][0]} ps on 1 and 2 host processes")


if __name__ == "__main__":
    main()
