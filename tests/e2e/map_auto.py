#!/usr/bin/env python3
"""MPISIM_MAP=auto: a program whose ranks talk only within their residue class mod the host count,
run on 2 (and 4) host processes with the block map while recording its communication matrix, then
with --map auto:FILE: the output and every rank's clock are identical (to the picosecond) and no
message crosses between host processes, where block sent many. Plain --map auto records the matrix
on its first run and maps from it on the next. Host processes that compute different maps stop
the run. A matrix of another rank count, or a malformed one,
stops the run with exit code 2 and the file named.

usage: map_auto.py MPISIMRUN PROGRAM   (PROGRAM: benchmarks/kernels/patterns.c built by mpisimcc)
"""
import json
import os
import subprocess
import sys
import tempfile

RANKS = 16


def run(mpisimrun, program, hosts, args, expect=0, ranks=RANKS, stride=None):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        cmd = [mpisimrun, "-np", str(ranks), "-hosts", str(hosts), "--cpu", "off", "--report", report,
               *args, program, "residues", str(stride or hosts), "4"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != expect:
            sys.exit(f"FAIL: exit {p.returncode}, expected {expect}: {' '.join(cmd)}\n"
                     f"{p.stdout[-1500:]}\n{p.stderr[-3000:]}")
        if expect:
            return p.stderr
        r = json.load(open(report))
        return {"out": sorted(p.stdout.splitlines()), "predicted": r["predicted_time_ps"],
                "clocks": [x["time_ps"] for x in sorted(r["ranks"], key=lambda x: x["rank"])],
                "remote": r["messages"]["remote"], "count": r["messages"]["count"],
                "map": r["settings"]["map_used"], "text": p.stderr}


def same_prediction(a, b, what):
    if (a["out"], a["predicted"], a["clocks"]) != (b["out"], b["predicted"], b["clocks"]):
        sys.exit(f"FAIL: {what}: the prediction differs: {a['predicted']} ps vs {b['predicted']} ps")


def main():
    mpisimrun, program = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        for hosts in (2, 4):
            matrix = os.path.join(tmp, f"m{hosts}.csv")
            one = run(mpisimrun, program, 1, [], stride=hosts)
            block = run(mpisimrun, program, hosts, ["--map", "block", "--comm-matrix", matrix])
            auto = run(mpisimrun, program, hosts, ["--map", f"auto:{matrix}"])
            same_prediction(one, block, f"{hosts} hosts, block")
            same_prediction(one, auto, f"{hosts} hosts, auto")
            # 16 ranks in classes of 16/H: 4 sweeps of 16/H - 1 exchanges, each rank sends one
            # message per exchange; block splits every class, auto none.
            sent = RANKS * 4 * (RANKS // hosts - 1)
            if block["count"] != sent or auto["count"] != sent:
                sys.exit(f"FAIL: {hosts} hosts: {block['count']} and {auto['count']} messages, "
                         f"expected {sent}")
            between = 4 * sum(1 for r in range(RANKS) for k in range(1, RANKS // hosts)
                              if r * hosts // RANKS != (r + k * hosts) % RANKS * hosts // RANKS)
            if block["remote"] != between or auto["remote"] != 0:
                sys.exit(f"FAIL: {hosts} hosts: {block['remote']} messages between host processes "
                         f"with block, {auto['remote']} with auto (expected {between} and 0)")
            want = f"auto from {matrix}: 0 of its {sent} messages between host processes (block: "
            if not auto["map"].startswith(want) or f"map: {want}" not in auto["text"]:
                sys.exit(f"FAIL: {hosts} hosts: the report says map {auto['map']!r}")
            print(f"{hosts} hosts: {block['remote']} messages between host processes with block, "
                  f"{auto['remote']} with auto; predicted {auto['predicted']} ps on both")

        # Plain auto: records the matrix MPISIM_COMM_MATRIX names, then maps from it.
        matrix = os.path.join(tmp, "plain.csv")
        first = run(mpisimrun, program, 2, ["--map", "auto", "--comm-matrix", matrix])
        second = run(mpisimrun, program, 2, ["--map", "auto", "--comm-matrix", matrix])
        same_prediction(first, second, "plain auto")
        if not first["map"].startswith("block (MPISIM_MAP=auto: no communication matrix") or \
                first["remote"] == 0 or second["remote"] != 0:
            sys.exit(f"FAIL: plain auto: {first['map']!r} ({first['remote']} remote), then "
                     f"{second['map']!r} ({second['remote']} remote)")

        # A matrix of another rank count, a malformed one, and none at all.
        err = run(mpisimrun, program, 2, ["--map", f"auto:{matrix}"], expect=2, ranks=8)
        want = f"the communication matrix {matrix} was recorded on 16 ranks but this run has 8"
        if want not in err:
            sys.exit(f"FAIL: no message naming the rank count:\n{err}")
        bad = os.path.join(tmp, "bad.csv")
        with open(bad, "w") as f:
            f.write("src,dst,messages,bytes\n0,1,2\n15,15,0,0\n")
        err = run(mpisimrun, program, 2, ["--map", f"auto:{bad}"], expect=2)
        if f"{bad}:2: \"0,1,2\" is not a line of a communication matrix" not in err:
            sys.exit(f"FAIL: no message naming the malformed line:\n{err}")
        err = run(mpisimrun, program, 2, ["--map", "auto"], expect=2)
        if "MPISIM_MAP=auto maps from the communication matrix MPISIM_COMM_MATRIX names" not in err:
            sys.exit(f"FAIL: plain auto without a matrix:\n{err}")
        # Host processes that read different files (here: other working folders, one with the
        # matrix, one without) compute different maps; the run stops instead of mixing them.
        folders = [os.path.join(tmp, "with"), os.path.join(tmp, "without")]
        for folder in folders:
            os.mkdir(folder)
        with open(matrix) as src, open(os.path.join(folders[0], "m.csv"), "w") as dst:
            dst.write(src.read())
        env = dict(os.environ, MPISIM_RANKS=str(RANKS), MPISIM_MAP="auto", MPISIM_CPU="off",
                   MPISIM_COMM_MATRIX="m.csv")
        part = [os.path.abspath(program), "residues", "2", "4"]
        cmd = ["mpiexec", "-n", "1", "-wdir", folders[0], *part, ":", "-n", "1", "-wdir",
               folders[1], *part]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        if p.returncode != 2 or "the host processes computed different rank maps" not in p.stderr:
            sys.exit(f"FAIL: different maps on the hosts: exit {p.returncode}\n{p.stderr[-2000:]}")
    print("PASS")


main()
