#!/usr/bin/python3
"""mpisim-study: answers "how does my program scale" and "which machine or network would help"
in one command each (docs/studies.md). Installed as bin/mpisim-study beside mpisimrun and
mpisim-replay, which it runs."""
import os
import shlex
import sys

here = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [here, os.path.join(here, "..", "lib")]
sys.dont_write_bytecode = True

from mpisim_study import cli  # noqa: E402


def main(argv):
    try:
        args = cli.parse(argv)
        from mpisim_study import outputs, scaling, tools, whatif
        runner_tools = tools.Tools(here)
    except cli.UsageError as e:
        print(f"mpisim-study: {e}\n{cli.USAGE}", file=sys.stderr)
        return 2
    out = args.output
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    study = scaling if args.study == "scaling" else whatif
    try:
        rows = study.run(args, runner_tools, out)
    except cli.UsageError as e:
        print(f"mpisim-study: {e}", file=sys.stderr)
        return 2
    settings = {"study": args.study, "argv": ["mpisim-study"] + argv, "np": args.np,
                "machines": args.machines, "varies": args.varies, "record": args.record,
                "repeat": args.repeat, "jobs": args.jobs, "timeout_s": args.timeout,
                "program": args.program,
                "run_options_given": [x for pair in args.run_options for x in pair if x],
                "weak_scaling": cli.weak_scaling(args),
                "critical_path": runner_tools.critical_path,
                "environment": {k: v for k, v in os.environ.items() if k.startswith("MPISIM_")}}
    print(outputs.terminal_table(rows))
    outputs.write_csv(rows, os.path.join(out, "results.csv"))
    outputs.write_json(rows, settings, os.path.join(out, "results.json"))
    from mpisim_study import html_report  # matplotlib: loaded only once there is a table
    html_report.write(rows, settings, os.path.join(out, "report.html"))
    print(f"\nmpisim-study: {sum(r['status'] == 'ok' for r in rows)} of {len(rows)} "
          f"configurations finished; results in {shlex.quote(out)}/results.csv, results.json, "
          f"report.html", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
