#!/usr/bin/env python3
"""DET of the second kind (MPISIM_DET_PROFILE): a run without the file records it; runs with it
complete wildcard receives whose tag has one source without a time bound, on 1, 2 and 4 host
processes, with output and every rank's clock identical to the run without a profile, and fewer
protocol rounds; a profile whose promise the program breaks ends the run naming the profile, the
channel and both sources; a profile for another rank count is refused with its file and line.

usage: det_profile.py MPISIMRUN RANKS PROGRAM ARGS...
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def run(mpisimrun, ranks, program, args, hosts, profile=None, expect=0):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        cmd = [mpisimrun, "-np", str(ranks), "-hosts", str(hosts), "--cpu", "off", "--det", "1",
               "--report", report]
        if profile:
            cmd += ["--det-profile", profile]
        cmd += [program] + args
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != expect:
            sys.exit(f"FAIL: exit {p.returncode}, expected {expect}: {' '.join(cmd)}\n"
                     f"{p.stdout[-1500:]}\n{p.stderr[-3000:]}")
        if expect:
            return p
        r = json.load(open(report))
        clocks = [x["time_ps"] for x in sorted(r["ranks"], key=lambda x: x["rank"])]
        rounds = sum(h["protocol_rounds"] for h in r["hosts"])
        by_profile = sum(h["det_profile_receives"] for h in r["hosts"])
        return p.stdout, clocks, rounds, by_profile


def main():
    mpisimrun, ranks, program, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        profile = os.path.join(tmp, "det.profile")
        ref_out, ref_clocks, _, _ = run(mpisimrun, ranks, program, args, 1)
        out, clocks, _, by = run(mpisimrun, ranks, program, args, 2, profile)
        if (out, clocks) != (ref_out, ref_clocks) or by != 0:
            sys.exit("FAIL: recording the profile changed the run")
        lines = [l.split() for l in open(profile) if l[0].isdigit()]
        single = [l for l in lines if len(l) == 4]
        if not single:
            sys.exit(f"FAIL: the profile has no channel with a single source:\n{open(profile).read()}")
        for hosts in (1, 2, 4):
            _, _, plain_rounds, _ = run(mpisimrun, ranks, program, args, hosts)
            out, clocks, rounds, by = run(mpisimrun, ranks, program, args, hosts, profile)
            if out != ref_out or clocks != ref_clocks:
                sys.exit(f"FAIL: {hosts} hosts: the prediction with the profile differs")
            if by == 0:
                sys.exit(f"FAIL: {hosts} hosts: no receive was completed by the profile")
            if hosts > 1 and rounds >= plain_rounds:
                sys.exit(f"FAIL: {hosts} hosts: {rounds} protocol rounds with the profile, "
                         f"{plain_rounds} without")
            print(f"{hosts} hosts: {by} receives by the profile, rounds {plain_rounds} -> {rounds}")
        # A broken promise: the channel now claims another source.
        context, dst, tag, src = single[0]
        other = str((int(src) + 1) % ranks)
        if other == dst:
            other = str((int(other) + 1) % ranks)
        text = open(profile).read().replace(f"\n{context} {dst} {tag} {src}\n",
                                            f"\n{context} {dst} {tag} {other}\n")
        broken = os.path.join(tmp, "broken.profile")
        open(broken, "w").write(text)
        for hosts in (1, 2):
            p = run(mpisimrun, ranks, program, args, hosts, broken, expect=1)
            want = (f"rank {src} sent to rank {dst} with tag {tag} on communicator context "
                    f"{context}, which the DET profile {broken} promised only rank {other} uses")
            if want not in p.stderr:
                sys.exit(f"FAIL: {hosts} hosts: no message naming the broken promise:\n{p.stderr[-2000:]}")
        # A profile of another run size.
        bad = os.path.join(tmp, "bad.profile")
        open(bad, "w").write(text.replace(f" ranks {ranks}\n", f" ranks {ranks + 1}\n", 1))
        p = run(mpisimrun, ranks, program, args, 1, bad, expect=2)
        if not re.search(re.escape(bad) + r":1: a DET profile recorded with \d+ ranks", p.stderr):
            sys.exit(f"FAIL: no file:line error for a profile of another size:\n{p.stderr}")
    print("DET profile: identical predictions, fewer rounds, broken promises named")


if __name__ == "__main__":
    main()
