#!/usr/bin/env python3
"""The same machine in both simulators (mpisim-to-simgrid): a ping-pong from 0 B to 4 MiB on the
cluster preset, CPU off, predicts the same one-way time under SimGrid SMPI and mpisim at every
size: above the eager limit mpisim-to-simgrid's latency factor carries mpisim's rendezvous
handshake, which SMPI does not send (docs/machines.md, "The same model in SimGrid").

usage: same_model_in_simgrid.py MPISIM_TO_SIMGRID MPISIMRUN PROGRAM_MPISIM PROGRAM_SMPI
"""
import re
import subprocess
import sys
import tempfile

TOLERANCE_US = 0.005  # SMPI adds about 2 ns to every message


def one_way(out):
    times = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"size (\d+) one-way ([0-9.]+) us", out)}
    if len(times) != 13:
        sys.exit(f"FAIL: expected 13 sizes, got {len(times)}:\n{out}")
    return times


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit {p.returncode}: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.stdout


def main():
    to_simgrid, mpisimrun, prog_sim, prog_smpi = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        run([to_simgrid, "cluster", "-o", tmp, "-np", "2", "--cpu", "off"])
        args = open(f"{tmp}/smpirun.args").read().split()
        smpi = one_way(run(["smpirun", *args, "--log=root.thres:critical", prog_smpi]))
    sim = one_way(run([mpisimrun, "-np", "2", "--cpu", "off", "--machine", "cluster", prog_sim]))
    failures = []
    for size in sorted(sim):
        line = f"{size:>8} B: mpisim {sim[size]:.6f} us, SMPI {smpi[size]:.6f} us"
        print(line)
        if abs(sim[size] - smpi[size]) > TOLERANCE_US:
            failures.append(line)
    if failures:
        sys.exit("FAIL: the two simulators disagree by more than 5 ns:\n" + "\n".join(failures))
    print("same model: every size agrees within 5 ns")


if __name__ == "__main__":
    main()
