#!/usr/bin/env python3
"""The central invariant: a program's output (every rank's digest of what it received) and every
rank's final clock are identical for 1, 2, 3 and 4 host processes, under every registered protocol with DET off and on (eight
settings), against one host process with the defaults; the block and cyclic rank maps alternate
over those 32 pairs. One host process runs every setting too: with DET off its receives wait for
time bounds that the protocol's choice must not change (a change that no longer woke a rank
blocked in MPI_Recv when its non-blocking collective's steps completed ended the `overlap` pattern
in a false deadlock there).

usage: invariant.py [--map block|cyclic] [--ranks-per-node K] [--network NAME] [--clocks-only]
       [--hosts N,N...] MPISIMRUN PROGRAM RANKS ARGS...
(--map: that rank map only, for programs whose runs are long enough to count; --ranks-per-node:
K ranks share a node, so that host pairs whose nodes are whole have a longer lookahead than
ranks of one node; --network: that network model in every run; --clocks-only: for programs that
print no digest per rank; --hosts: those host counts only, 1,2,3,4 by default)
"""
import json
import os
import subprocess
import sys
import tempfile

SETTINGS = []  # every registered protocol (mpisimrun's MPISIM_PROTOCOL row) x DET off and on


def registered_protocols(mpisimrun):
    """The protocol names mpisimrun allows: the registry's, as --variables-markdown prints them."""
    out = subprocess.run([mpisimrun, "--variables-markdown"], capture_output=True, text=True,
                         check=True).stdout
    row = next(l for l in out.splitlines() if l.startswith("| `MPISIM_PROTOCOL`"))
    return [name.strip() for name in row.rstrip(" |").split("|")[-1].split(",")]


NODE = []  # --ranks-per-node K and --network NAME, for every run


def run(mpisimrun, program, ranks, args, hosts, protocol="nmp+cep", det="1", rank_map="block"):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [mpisimrun, "-np", str(ranks), "-hosts", str(hosts), "--protocol", protocol, "--det", det,
               "--map", rank_map, "--cpu", "off", "--report", report, *NODE, program] + args
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.exit(f"FAIL: exit code {p.returncode}: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")
        lines = sorted(l for l in p.stdout.splitlines() if l.startswith("rank "))
        r = json.load(open(report))
        clocks = [x["time_ps"] for x in sorted(r["ranks"], key=lambda x: x["rank"])]
        rounds = sum(h["protocol_rounds"] for h in r["hosts"])
        if r["settings"]["protocol"] != protocol:
            sys.exit(f"FAIL: the report names protocol {r['settings']['protocol']}: {' '.join(cmd)}")
        return lines, clocks, rounds, cmd


def main():
    argv = sys.argv[1:]
    maps = ("block", "cyclic")
    digests = True
    if argv[0] == "--map":
        maps, argv = (argv[1],), argv[2:]
    while argv[0] in ("--ranks-per-node", "--network"):
        NODE.extend(argv[:2])
        argv = argv[2:]
    if argv[0] == "--clocks-only":
        digests, argv = False, argv[1:]
    host_counts = (1, 2, 3, 4)
    if argv[0] == "--hosts":
        host_counts, argv = tuple(int(h) for h in argv[1].split(",")), argv[2:]
    mpisimrun, program, ranks, args = argv[0], argv[1], int(argv[2]), argv[3:]
    # The program (built by mpisimcc) must know every protocol mpisimrun's registry lists.
    SETTINGS.extend((protocol, det) for protocol in registered_protocols(mpisimrun)
                    for det in ("0", "1"))
    if len(SETTINGS) < 8:
        sys.exit(f"FAIL: mpisimrun lists too few protocols: {SETTINGS}")
    ref_lines, ref_clocks, _, _ = run(mpisimrun, program, ranks, args, 1)
    if digests and len(ref_lines) != ranks:
        sys.exit(f"FAIL: expected {ranks} digest lines from the one-host run, got {len(ref_lines)}")
    runs = 0
    # Every host count meets every setting; the two rank maps alternate over those pairs (block on
    # one, cyclic on the next), so each map meets every host count and every protocol at half the cost.
    for hosts in host_counts:
        for i, (protocol, det) in enumerate(SETTINGS):
            for rank_map in maps if len(maps) == 1 else (maps[(i + hosts) % 2],):
                lines, clocks, rounds, cmd = run(mpisimrun, program, ranks, args, hosts, protocol, det, rank_map)
                runs += 1
                if lines != ref_lines or clocks != ref_clocks:
                    diff = [f"  1 host: {a}\n  now:    {b}" for a, b in zip(ref_lines, lines) if a != b][:5]
                    cdiff = [f"  rank {i}: {a} vs {b} ps" for i, (a, b) in enumerate(zip(ref_clocks, clocks)) if a != b][:5]
                    sys.exit("FAIL: differs from the one-host run: " + " ".join(cmd) + "\n" + "\n".join(diff + cdiff))
    print(f"invariant holds: {runs} runs identical to the one-host run "
          f"(predicted {max(ref_clocks)} ps, {ranks} ranks, {' '.join(args)})")


if __name__ == "__main__":
    main()
