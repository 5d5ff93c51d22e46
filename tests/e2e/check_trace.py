#!/usr/bin/env python3
"""MPISIM_TRACE: the trace file parses, its events are well formed, every message's send and
receive are present and paired, and no two intervals of one rank overlap; on 1 and 2 host
processes (the two traces hold the same messages and intervals).

usage: check_trace.py MPISIMRUN PROGRAM RANKS ARGS...
"""
import json
import os
import subprocess
import sys
import tempfile


def ps(us):
    return round(us * 1e6)


def check(path, ranks):
    events = json.load(open(path))["traceEvents"]
    sends, receives, intervals, names = {}, {}, {}, set()
    for e in events:
        ph = e["ph"]
        assert ph in ("X", "s", "f", "M"), e
        if ph == "M":
            if e["name"] == "thread_name":
                names.add(e["tid"])
            continue
        assert 0 <= e["tid"] < ranks, e
        if ph == "X":
            assert e["dur"] >= 0 and e["name"], e
            if e["cat"] == "mpi":
                assert e["name"].startswith("MPI_"), e
                for key in ("bytes_sent", "bytes_received", "wait_ps"):
                    assert key in e["args"], e
            intervals.setdefault(e["tid"], []).append((ps(e["ts"]), ps(e["ts"]) + ps(e["dur"]), e["name"]))
            continue
        key = (e["args"]["src"], e["args"]["seq"])
        side = sends if ph == "s" else receives
        assert key not in side, f"message {key} twice"
        side[key] = e
    assert names == set(range(ranks)), f"named tracks {sorted(names)}"
    assert sends, "no messages in the trace"
    missing = set(sends) ^ set(receives)
    assert not missing, f"unpaired messages: {sorted(missing)[:5]}"
    for key, s in sends.items():
        f = receives[key]
        assert s["id"] == f["id"] and s["tid"] == key[0] and f["tid"] == s["args"]["dst"], (s, f)
        assert ps(s["ts"]) <= ps(f["ts"]), (s, f)
    for rank, spans in intervals.items():
        spans.sort()
        for a, b in zip(spans, spans[1:]):
            assert a[1] <= b[0], f"rank {rank}: {a} overlaps {b}"
    return sorted(sends), {r: sorted(v) for r, v in intervals.items()}


def main():
    mpisimrun, program, ranks, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for hosts in (1, 2):
            trace = os.path.join(tmp, f"trace{hosts}.json")
            cmd = [mpisimrun, "-np", str(ranks), "-hosts", str(hosts), "--cpu", "off", "--trace", trace, program] + args
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                sys.exit(f"FAIL: exit code {p.returncode}: {' '.join(cmd)}\n{p.stderr[-3000:]}")
            try:
                results.append(check(trace, ranks))
            except AssertionError as e:
                sys.exit(f"FAIL ({hosts} host(s)): {e}")
    if results[0] != results[1]:
        sys.exit("FAIL: the traces of 1 and 2 host processes differ")
    print(f"trace ok: {len(results[0][0])} messages paired, intervals disjoint, same on 1 and 2 hosts")


if __name__ == "__main__":
    main()
