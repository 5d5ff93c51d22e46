#!/usr/bin/python3
"""mpisim-study refuses bad input before running anything, with a message naming the problem and
exit code 2: an unknown study, a malformed --vary, a factor on a key that takes values, a missing
program, an unknown machine, a bad option value.

usage: study_bad_input.py MPISIM-STUDY PROGRAM DIR
"""
import os
import subprocess
import sys

tool, program, out = sys.argv[1:4]
cases = [
    (["bogus"], "unknown study 'bogus'"),
    (["scaling", "-np", "4", "-o", out], "no program to run"),
    (["scaling", "-np", "4", "-o", out, "./no-such-program"], "program './no-such-program' not found"),
    (["scaling", "-np", "4,x", "-o", out, program], "-np 'x' is not a positive integer"),
    (["scaling", "-np", "4", "--machine", "nosuch", "-o", out, program],
     "--machine nosuch: mpisimrun: MPISIM_MACHINE=nosuch is not valid"),
    (["whatif", "-np", "4", "--vary", "latency", "-o", out, program], "--vary 'latency' is not KEY=V1,V2"),
    (["whatif", "-np", "4", "--vary", "machine=2x", "-o", out, program], "a factor applies to"),
    (["whatif", "-np", "4", "--vary", "latency=2y", "-o", out, program], "unknown unit 'y'"),
    (["whatif", "-np", "4", "--vary", "latency=0x", "-o", out, program], "must be greater than 0"),
    (["whatif", "--from", "/nonexistent", "--vary", "latency=2x", "-o", out], "no recording there"),
    (["whatif", "-np", "4", "-o", out, program], "at least one --vary"),
]
for argv, message in cases:
    p = subprocess.run([tool] + argv, capture_output=True, text=True, timeout=60)
    if p.returncode != 2 or message not in p.stderr:
        sys.exit(f"FAIL: mpisim-study {' '.join(argv)}: exit code {p.returncode}, wanted 2 and "
                 f"{message!r}\n{p.stderr}")
    if os.path.exists(os.path.join(out, "results.csv")):
        sys.exit(f"FAIL: mpisim-study {' '.join(argv)} wrote results")
print(f"{len(cases)} bad inputs refused")
