#!/usr/bin/python3
"""mpisim-study refuses bad input before running anything, with a message naming the problem and
exit code 2: an unknown study, a malformed --vary, a factor on a key that takes values, a missing
program, an unknown machine, a bad option value, an empty or repeated rank count or machine, an
-o that is a file, a --report or --record of the user's (the study sets them itself, and
MPISIM_RECORD in its environment), a -np other than the --from recording's, a --vary value
mpisimrun refuses for the what-if's rank count.

usage: study_bad_input.py MPISIM-STUDY PROGRAM DIR
"""
import os
import subprocess
import sys

tool, program, out = sys.argv[1:4]
# What some cases need: a file where a folder is wanted, a (fake: read before anything runs)
# recording of 2 ranks.
scratch = out.rstrip("/") + ".inputs"
os.makedirs(os.path.join(scratch, "rec2"), exist_ok=True)
a_file = os.path.join(scratch, "a-file")
open(a_file, "w").close()
with open(os.path.join(scratch, "rec2", "meta.json"), "w") as f:
    f.write('{"mpisim_record": 5, "ranks": 2, "cpu": "off", "outcome": "finished"}\n')
rec2 = os.path.join(scratch, "rec2")
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
    (["whatif", "-np", "4", "--vary", "latency=1e999x", "-o", out, program], "factor is too large"),
    (["whatif", "--from", "/nonexistent", "--vary", "latency=2x", "-o", out], "no recording there"),
    (["whatif", "-np", "4", "-o", out, program], "at least one --vary"),
    (["scaling", "-np", "", "-o", out, program], "-np '' has an empty rank count"),
    (["scaling", "-np", "2,,4", "-o", out, program], "-np '2,,4' has an empty rank count"),
    (["scaling", "-np", "2,2", "-o", out, program], "-np '2,2' names 2 more than once"),
    (["scaling", "-np", "2,02", "-o", out, program], "gives a rank count more than once"),
    (["scaling", "-np", "2", "--machine", "cluster,", "-o", out, program],
     "--machine 'cluster,' has an empty machine"),
    (["scaling", "-np", "2", "--machine", "sp2,sp2", "-o", out, program],
     "names sp2 more than once"),
    (["scaling", "-np", "2", "-o", a_file, program], f"-o {a_file}: that is a file, not a folder"),
    (["scaling", "-np", "2", "--report", "x.json", "-o", out, program],
     "--report is set by mpisim-study itself"),
    (["whatif", "-np", "2", "--record=r", "--vary", "latency=2x", "-o", out, program],
     "--record is set by mpisim-study itself"),
    (["scaling", "-np", "2", "-o", out, program], "MPISIM_RECORD is set in the environment",
     {"MPISIM_RECORD": os.path.join(scratch, "r")}),
    (["whatif", "--from", rec2, "-np", "3", "--vary", "latency=2x", "-o", out, program],
     f"-np 3 contradicts --from {rec2}, recorded with 2 ranks"),
    (["whatif", "-np", "4", "--vary", "topology=torus:1x2", "-o", out, program],
     "--vary topology=torus:1x2: mpisimrun: "),
]
for argv, message, *env in cases:
    p = subprocess.run([tool] + argv, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, **env[0]) if env else None)
    if p.returncode != 2 or message not in p.stderr:
        sys.exit(f"FAIL: mpisim-study {' '.join(argv)}: exit code {p.returncode}, wanted 2 and "
                 f"{message!r}\n{p.stderr}")
    if os.path.exists(os.path.join(out, "results.csv")):
        sys.exit(f"FAIL: mpisim-study {' '.join(argv)} wrote results")
print(f"{len(cases)} bad inputs refused")
