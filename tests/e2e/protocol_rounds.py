#!/usr/bin/env python3
"""DET: a program whose receives all name their source (the ring) needs no protocol round at all
with MPISIM_DET=1, on 2, 3 and 4 host processes; without DET the same program needs rounds.

usage: protocol_rounds.py MPISIMRUN INVARIANT_PROGRAM
"""
import json
import os
import subprocess
import sys
import tempfile


def rounds(mpisimrun, program, hosts, det):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        cmd = [mpisimrun, "-np", "12", "-hosts", str(hosts), "--det", det, "--cpu", "off",
               "--report", report, program, "ring"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stderr[-2000:]}")
        r = json.load(open(report))
        return sum(h["protocol_rounds"] for h in r["hosts"]), len(r["hosts"])


mpisimrun, program = sys.argv[1], sys.argv[2]
for hosts in (2, 3, 4):
    det_rounds, n = rounds(mpisimrun, program, hosts, "1")
    nondet_rounds, _ = rounds(mpisimrun, program, hosts, "0")
    if n != hosts:
        sys.exit(f"FAIL: the report lists {n} hosts, expected {hosts}")
    if det_rounds != 0:
        sys.exit(f"FAIL: {hosts} hosts, DET=1: {det_rounds} protocol rounds, expected 0")
    if nondet_rounds == 0:
        sys.exit(f"FAIL: {hosts} hosts, DET=0: no protocol round, but every receive needs a bound")
    print(f"{hosts} hosts: DET=1 0 rounds, DET=0 {nondet_rounds} rounds")
