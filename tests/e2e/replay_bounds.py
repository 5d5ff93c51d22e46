#!/usr/bin/env python3
"""The two bounds of a what-if study (docs/observing.md, "Two bounds"), on a program whose ranks
do uneven work at every step (programs/imbalanced_steps.c, 8 ranks, `--cpu off`):
- `--network ideal` costs nothing but the compute: each step takes its slowest rank's work, the
  live run and the replay alike, to the picosecond;
- `mpisim-replay --ideal-balance` predicts exactly what a live run of the program made balanced
  (every rank computing the step's mean) predicts, on the default network and the ideal one;
- the ideal network on several host processes is refused, naming the fix.

usage: replay_bounds.py MPISIMRUN MPISIM-REPLAY PROGRAM
"""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import predict  # noqa: E402

RANKS, STEPS, US = 8, 5, 1_000_000


def expect(what, got, want):
    if got != want:
        sys.exit(f"FAIL: {what}: {got} ps, expected {want} ps")
    print(f"ok: {what}: {got} ps")


def main():
    mpisimrun, replay, program = sys.argv[1:4]
    steps = sum(s + 1 for s in range(STEPS))
    slowest = RANKS * steps * US                      # rank 7's work: 8 us * (s + 1) per step
    mean = (RANKS + 1) * steps * US // 2              # 4.5 us * (s + 1) per step
    with tempfile.TemporaryDirectory() as tmp:
        report, record = os.path.join(tmp, "r.json"), os.path.join(tmp, "rec")
        live = [mpisimrun, "-np", str(RANKS), "--cpu", "off", "--report", report]
        uneven, even = [program, str(STEPS)], [program, str(STEPS), "balanced"]
        baseline = predict(live + ["--record", record] + uneven, report)
        ideal = ["--network", "ideal"]
        expect("live, ideal network", predict(live + ideal + uneven, report)[0], slowest)
        expect("replay, ideal network", predict([replay, record, "--report", report] + ideal, report)[0],
               slowest)
        balanced_live = predict(live + even, report)
        balanced = predict([replay, record, "--ideal-balance", "--report", report], report)
        if balanced != balanced_live:
            sys.exit(f"FAIL: replay --ideal-balance {balanced} differs from the balanced program's live run "
                     f"{balanced_live}")
        print(f"ok: replay --ideal-balance equals the balanced program's live run: {balanced[0]} ps")
        if not balanced[0] < baseline[0]:
            sys.exit(f"FAIL: the balanced bound {balanced[0]} is not below the baseline {baseline[0]}")
        expect("replay, ideal network and balance",
               predict([replay, record, "--ideal-balance", "--report", report] + ideal, report)[0], mean)
        p = subprocess.run(live + ideal + ["-hosts", "2"] + uneven, capture_output=True, text=True,
                           timeout=60)
        if p.returncode == 0 or "MPISIM_NETWORK=ideal is only exact on one host process" not in p.stderr:
            sys.exit(f"FAIL: the ideal network on 2 host processes was not refused: {p.returncode}\n{p.stderr}")
        print("ok: the ideal network on 2 host processes is refused")


main()
