#!/usr/bin/env python3
"""An NPB-style program verifies its result ("Verification = SUCCESSFUL") on one host process
and on several; with --invariant, its output and every rank's final clock are also identical
for 1 and HOSTS host processes under every protocol setting (DESIGN.md's central invariant;
CPU time off so that time comes from messages only).

usage: npb_check.py [--invariant] [--hosts H] MPISIMRUN RANKS PROGRAM ARGS...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from invariant import SETTINGS  # noqa: E402  (the protocol settings of the invariant tests)


def run(mpisimrun, ranks, program, args, hosts, protocol="nmp+cep", det="1"):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [mpisimrun, "-np", str(ranks), "-hosts", str(hosts), "--protocol", protocol, "--det", det,
               "--cpu", "off", "--report", report, program] + args
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            sys.exit(f"FAIL: exit code {p.returncode}: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")
        if "Verification    =               SUCCESSFUL" not in p.stdout:
            sys.exit(f"FAIL: not verified: {' '.join(cmd)}\n{p.stdout[-3000:]}")
        r = json.load(open(report))
        clocks = [x["time_ps"] for x in sorted(r["ranks"], key=lambda x: x["rank"])]
        return p.stdout, clocks, cmd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--invariant", action="store_true")
    ap.add_argument("--hosts", type=int, default=2)
    ap.add_argument("mpisimrun")
    ap.add_argument("ranks", type=int)
    ap.add_argument("program")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    ref_out, ref_clocks, _ = run(a.mpisimrun, a.ranks, a.program, a.args, 1)
    settings = SETTINGS if a.invariant else [("nmp+cep", "1")]
    for protocol, det in settings:
        out, clocks, cmd = run(a.mpisimrun, a.ranks, a.program, a.args, a.hosts, protocol, det)
        if a.invariant and (out != ref_out or clocks != ref_clocks):
            diff = [f"  1 host: {x}\n  now:    {y}" for x, y in zip(ref_out.splitlines(), out.splitlines()) if x != y][:5]
            cdiff = [f"  rank {i}: {x} vs {y} ps" for i, (x, y) in enumerate(zip(ref_clocks, clocks)) if x != y][:5]
            sys.exit("FAIL: differs from the one-host run: " + " ".join(cmd) + "\n" + "\n".join(diff + cdiff))
    what = f"identical on 1 and {a.hosts} hosts under {len(settings)} protocol settings" if a.invariant \
        else f"on 1 and {a.hosts} hosts"
    print(f"verified {what} (predicted {max(ref_clocks)} ps): {os.path.basename(a.program)} {' '.join(a.args)}")


if __name__ == "__main__":
    main()
