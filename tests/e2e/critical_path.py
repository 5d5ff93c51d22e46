#!/usr/bin/env python3
"""The critical path of a real program (`mpisimrun --critical-path`): its parts sum to the
predicted time to the picosecond under the NIC and the contention models; it is the same on 1 and
2 host processes (HOSTS) and in a replay of the run's record; the option changes no prediction,
and without it the report's key is null.

usage: critical_path.py [--hosts HOSTS] MPISIMRUN MPISIM_REPLAY RANKS PROGRAM ARGS...
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import prediction, report_of  # noqa: E402

PARTS = ["compute", "send_overhead", "recv_overhead", "latency", "transfer", "contention", "wait"]


def check_path(r, what):
    c = r["critical_path"]
    if c is None:
        sys.exit(f"FAIL: {what}: no critical_path in the report")
    if sorted(c["parts_ps"]) != sorted(PARTS):
        sys.exit(f"FAIL: {what}: parts {sorted(c['parts_ps'])}")
    total = sum(c["parts_ps"][p] for p in PARTS)
    if total != c["total_ps"] or total != r["predicted_time_ps"]:
        sys.exit(f"FAIL: {what}: parts sum to {total}, total_ps {c['total_ps']}, "
                 f"predicted {r['predicted_time_ps']}")
    for key in ("top", "ranks", "calls"):
        if not c[key] or len(c[key]) > 10:
            sys.exit(f"FAIL: {what}: {key} {c[key]}")
    ps = [e["ps"] for e in c["top"]]
    if ps != sorted(ps, reverse=True) or sum(ps) > total:
        sys.exit(f"FAIL: {what}: top not largest first, or more than the total: {ps}")
    return c


def main():
    args = sys.argv[1:]
    hosts = "2"
    if args[0] == "--hosts":
        hosts, args = args[1], args[2:]
    mpisimrun, replay, ranks, program = args[0], args[1], args[2], args[3:]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")

        def run(*options):
            cmd = [mpisimrun, "-np", ranks, "--cpu", "off", "--report", report, *options, *program]
            return report_of(cmd, report)

        off, _ = run()
        if off["critical_path"] is not None:
            sys.exit(f"FAIL: critical_path is {off['critical_path']} without the option")
        one, text = run("--critical-path")
        path = check_path(one, "1 host")
        if prediction(one) != prediction(off):
            sys.exit("FAIL: the option changed the prediction")
        if "critical path: " not in text or "  largest" not in text or "  calls" not in text:
            sys.exit(f"FAIL: no critical path section in the text report:\n{text[-2000:]}")
        record = os.path.join(tmp, "record")
        two, _ = run("--critical-path", "-hosts", hosts, "--record", record)
        if two["critical_path"] != path or prediction(two) != prediction(one):
            sys.exit(f"FAIL: {hosts} hosts: {two['critical_path']}\n1 host: {path}")
        replayed, _ = report_of([replay, record, "--critical-path", "--report", report], report)
        if replayed["critical_path"] != path:
            sys.exit(f"FAIL: the replay's path {replayed['critical_path']}\nthe live run's: {path}")
        contention, _ = run("--critical-path", "--network", "contention")
        check_path(contention, "--network contention")
    largest = max(PARTS, key=lambda p: path["parts_ps"][p])
    print(f"critical path {path['total_ps']} ps, largest part {largest} "
          f"({path['parts_ps'][largest]} ps), top {path['top'][0]}; same on {hosts} hosts and replayed; "
          f"contention model: {contention['critical_path']['parts_ps']}")


if __name__ == "__main__":
    main()
