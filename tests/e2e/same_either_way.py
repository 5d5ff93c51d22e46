#!/usr/bin/env python3
"""A stacks' mode changes nothing a program sees: with VARIABLE=ON and VARIABLE=OFF (stack
copying, MPISIM_STACK_COPY; where ranks' state lives, MPISIM_RANK_STATE) a program prints the
same output and predicts bit-identical times (the predicted time and every rank's final clock),
on 1 and on 2 host processes; the report's setting KEY says which mode ran.

usage: same_either_way.py VARIABLE ON OFF KEY MPISIMRUN RANKS PROGRAM [ARGS...]
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from predicted import prediction, report_of  # noqa: E402


def main():
    variable, on, off, key, mpisimrun, ranks, program = sys.argv[1:8]
    args = sys.argv[8:]
    os.environ.update(MPISIM_CPU="off", MPISIM_PROGRESS="off")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        for hosts in ("1", "2"):
            seen = {}
            for mode in (on, off):
                os.environ[variable] = mode
                out = os.path.join(tmp, f"out-{mode}")
                cmd = ["sh", "-c", '"$@" > "$0"', out, mpisimrun, "-np", ranks, "-hosts", hosts,
                       "--report", report, program, *args]
                r, _ = report_of(cmd, report)
                if r["settings"][key] != (mode == on):
                    sys.exit(f"FAIL: {variable}={mode} but the report says {key} "
                             f"{r['settings'][key]}")
                seen[mode] = (open(out).read(), prediction(r))
            if seen[on] != seen[off]:
                sys.exit(f"FAIL: {hosts} host(s): with {variable}={on} {seen[on]}, "
                         f"with {variable}={off} {seen[off]}")
            if seen[on][1][0] == 0:
                sys.exit("FAIL: predicted time 0")
    output = seen[on][0].strip().splitlines()
    print(f"same with {variable}={on} and {off}: {seen[on][1][0]} ps on 1 and 2 host "
          f"processes; {output[-1] if output else 'no output'}")


if __name__ == "__main__":
    main()
