#!/usr/bin/env python3
"""MPISIM_RECORD and mpisim-replay: replaying a record predicts exactly what the live run predicted
(the predicted time and every rank's final clock), recorded and replayed on 1 and 2 host
processes, and finds every wildcard match and test outcome as recorded (no warning, the report's
replay.diverged false, none left unchecked); replayed on another machine preset it differs, and
equals the live run on that preset; recorded on that preset, it replays on it without --machine.
OTHER_MACHINE "-" skips the last check, for programs whose operations depend on simulated time
(polling loops, replies to whoever came first), which a record fixes as they happened.
--record-on-one-host records on 1 host process only, for programs whose live run needs all ranks
in one (MPI-IO's independent shared file pointer calls); the record still replays on 2.

usage: replay_equals_live.py [--record-on-one-host] MPISIMRUN MPISIM-REPLAY OTHER_MACHINE PROGRAM
                             RANKS ARGS...
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import predict as run, prediction, report_of  # noqa: E402


def replay_as_recorded(cmd, report):
    """Runs a replay that must find every outcome as recorded; its prediction."""
    r, stderr = report_of(cmd, report)
    checks = r["replay"]
    # The note on clock reads is the program's (jacobi1d times itself), not the replay's.
    notes = [line for line in stderr.splitlines()
             if "note:" in line and "read the clock" not in line]
    if "warning" in stderr or notes or checks["diverged"] or checks["unchecked"]:
        sys.exit(f"FAIL: {' '.join(cmd)} did not find the recorded outcomes: {checks}\n{stderr[-3000:]}")
    return prediction(r)


def main():
    argv = sys.argv[1:]
    one_host = argv[0] == "--record-on-one-host"
    argv = argv[1:] if one_host else argv
    mpisimrun, replay, other, program, ranks, args = (argv[0], argv[1], argv[2], argv[3], int(argv[4]),
                                                      argv[5:])
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        live_other = None if other == "-" else run([mpisimrun, "-np", str(ranks), "--cpu", "off", "--machine", other, "--report", report,
                          program] + args, report)
        for hosts in (1,) if one_host else (1, 2):
            record = os.path.join(tmp, f"record{hosts}")
            live = run([mpisimrun, "-np", str(ranks), "-hosts", str(hosts), "--cpu", "off", "--record", record,
                        "--report", report, program] + args, report)
            for replay_hosts in (1, 2):
                replayed = replay_as_recorded([replay, record, "-hosts", str(replay_hosts), "--report", report],
                                              report)
                if replayed != live:
                    sys.exit(f"FAIL: recorded on {hosts} host(s), replayed on {replay_hosts}: "
                             f"{replayed} != live {live}")
                checked += 1
            if other == "-":
                continue
            on_other = run([replay, record, "--machine", other, "--report", report], report)
            if on_other != live_other:
                sys.exit(f"FAIL: replay on {other}: {on_other} != live on {other}: {live_other}")
            if on_other[0] == live[0]:
                sys.exit(f"FAIL: replay on {other} predicts the same time as on the default machine")
        if live_other:
            # A record replays on the machine it was made on when no --machine is given.
            record = os.path.join(tmp, "record-other")
            run([mpisimrun, "-np", str(ranks), "--cpu", "off", "--machine", other, "--record", record,
                 "--report", report, program] + args, report)
            as_recorded = replay_as_recorded([replay, record, "--report", report], report)
            if as_recorded != live_other:
                sys.exit(f"FAIL: recorded on {other}, replayed without --machine: {as_recorded} "
                         f"!= live on {other}: {live_other}")
            checked += 1
    print(f"replay equals live: {checked} replays, predicted {live[0]} ps"
          + (f"; on {other}: {live_other[0]} ps" if live_other else ""))


if __name__ == "__main__":
    main()
