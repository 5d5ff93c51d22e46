"""The what-if study: the program runs once with --record (or a recording is given), every
variant and the two bounds are replayed from it; a replay whose outcomes diverged from the
record's, or that mpisim-replay refused (exit code 2: a setting the recording cannot be replayed
on), is re-run live when the program is at hand; otherwise a diverged one is marked approximate
and a refused one stays failed. A replayed row of a program that read the clock says so."""
import os
import sys

from . import report_figures
from . import rows as rowlib
from .runner import Config, run_all, run_config, median_run
from .scaling import options_of
from .variants import absolute, parse_vary

REFUSED = "is not recorded by MPISIM_RECORD"
REPLAY_REFUSAL = "mpisim-replay:"  # the start of mpisim-replay's own error lines
REPLAY_REFUSED_CODE = 2
IDEAL_NETWORK = "bound: ideal network"
IDEAL_BALANCE = "bound: ideal balance"
DEFAULT_TIMEOUT_S = 60  # a variant's timeout without --timeout: this, or 20 baselines' wall time
TIMEOUT_FACTOR = 20


def merged(run_options, overrides):
    """The run options with the variant's replacing those of the same name."""
    names = {name for name, _ in overrides}
    return options_of([o for o in run_options if o[0] not in names] + overrides)


class Study:
    def __init__(self, args, tools, out):
        self.args, self.tools, self.out = args, tools, out
        self.variants = [v for spec in args.varies for v in parse_vary(spec)]
        self.extra = [["--critical-path", None]] if tools.critical_path and not any(
            name == "--critical-path" for name, _ in args.run_options) else []
        self.recording = args.record or os.path.abspath(os.path.join(out, "record"))
        self.np = args.np[0]  # with --from, the recording's (cli.recorded_ranks)
        # A live run of a recording's program (--from with the program) computes as the
        # recording did: a recording made with --cpu off runs live with --cpu off.
        self.live_extra = [["--cpu", "off"]] if (
            args.record_meta.get("cpu") == "off" and "MPISIM_CPU" not in os.environ
            and not any(name == "--cpu" for name, _ in args.run_options)) else []

    def config(self, id, label, command, overrides, fields):
        return Config(id=id, label=label, command=command, overrides=overrides,
                      report_path=os.path.join(self.out, "runs", f"{id}.json"),
                      log_path=os.path.join(self.out, "runs", f"{id}.log"), fields=fields)

    def live_command(self, overrides):
        options = merged(self.live_extra + self.args.run_options + self.extra, overrides)
        return [self.tools.mpisimrun, "-np", str(self.np)] + options + self.args.program

    def replay_command(self, overrides):
        options = merged(self.args.run_options + self.extra, overrides)
        return [self.tools.replay, self.recording] + options

    def baseline(self):
        """Runs the baseline (recording it); returns its config and whether variants replay."""
        if self.args.record:
            c = self.config("baseline", "baseline (replayed)", self.replay_command([]), [],
                            {"variant": "baseline", "mode": "replayed"})
            return run_config(c, 1, self.args.timeout), True
        c = self.config("baseline", "baseline (live, recording)",
                        self.live_command([["--record", self.recording]]), [],
                        {"variant": "baseline", "mode": "live (recorded)"})
        run_config(c, 1, self.args.timeout)
        if c.runs[-1].exit_code == 0:
            return c, True
        if REFUSED in c.runs[-1].stderr:
            refused = next(line for line in c.runs[-1].stderr.splitlines() if REFUSED in line)
            c = self.config("baseline", "baseline (live)", self.live_command([]), [],
                            {"variant": "baseline", "mode": "live: recording refused",
                             "error": refused.strip()[:300]})
            run_config(c, self.args.repeat, self.args.timeout)
        return c, False

    def variant_configs(self, machine, replayed):
        mode = "replayed" if replayed else "live: recording refused"
        command = self.replay_command if replayed else self.live_command
        configs, rows = [], []
        for k, v in enumerate(self.variants):
            fields = {"variant": v.label, "mode": mode}
            try:
                value = absolute(v, machine)
            except ValueError as e:
                rows.append(dict(fields, id=f"v{k + 1}", status="not run", error=str(e)))
                continue
            if v.factor is not None:
                fields["variant"] = f"{v.label} ({v.option} {value})"
            overrides = [[v.option, value]]
            configs.append(self.config(f"v{k + 1}", v.label, command(overrides), overrides,
                                       fields))
        if self.tools.ideal_network:
            # The ideal network has no lookahead, so it runs on one host process (same answer).
            ideal = [["--network", "ideal"]] + [[n, "1"] for n, _ in self.args.run_options
                                                if n in ("-hosts", "--hosts")]
            configs.append(self.config("ideal-network", IDEAL_NETWORK, command(ideal), ideal,
                                       {"variant": IDEAL_NETWORK, "mode": mode}))
        else:
            rows.append({"id": "ideal-network", "variant": IDEAL_NETWORK, "status": "unavailable",
                         "error": "this build has no --network ideal"})
        if not replayed:
            rows.append({"id": "ideal-balance", "variant": IDEAL_BALANCE, "status": "unavailable",
                         "error": "needs a recording (mpisim-replay --ideal-balance), and the "
                                  "recording was refused"})
        elif self.tools.ideal_balance:
            configs.append(self.config("ideal-balance", IDEAL_BALANCE,
                                       command([["--ideal-balance", None]]),
                                       [["--ideal-balance", None]],
                                       {"variant": IDEAL_BALANCE, "mode": mode}))
        else:
            rows.append({"id": "ideal-balance", "variant": IDEAL_BALANCE, "status": "unavailable",
                         "error": "this build's mpisim-replay has no --ideal-balance"})
        return configs, rows

    def refusal(self, config):
        """mpisim-replay's first error line when it refused to replay (exit code 2), else None."""
        run = config.runs[0] if config.runs else None
        if (not run or config.command[0] != self.tools.replay or run.timed_out
                or run.exit_code != REPLAY_REFUSED_CODE):
            return None
        return next((line.strip() for line in run.stderr.splitlines()
                     if line.startswith(REPLAY_REFUSAL) and not line[len(REPLAY_REFUSAL):]
                     .lstrip().startswith(("note:", "warning:"))), None)

    def rerun_live(self, configs):
        """Replays whose outcomes diverged, or that mpisim-replay refused: live runs when the
        program is at hand (the ideal balance has no live run)."""
        live = []
        for c in configs:
            refused = self.refusal(c)
            diverged = c.runs and report_figures.diverged(c.runs[0].report)
            if not refused and not diverged:
                continue
            at_hand = self.args.program and c.id != "ideal-balance"
            if refused:
                if not at_hand:
                    continue  # the row stays failed, with the refusal as its error
                mode, fields = "live: replay refused", {"note": refused[:500]}
            else:
                replayed_ps = c.runs[0].report["predicted_time_ps"]
                if not at_hand:
                    c.fields.update(mode="approximate", replay_time_ps=replayed_ps)
                    continue
                mode, fields = "live: replay diverged", {"replay_time_ps": replayed_ps}
            lc = self.config(c.id, f"{c.label} ({mode})", self.live_command(c.overrides),
                             c.overrides, dict(c.fields, mode=mode, **fields))
            lc.report_path = lc.report_path.replace(".json", ".live.json")
            lc.log_path = lc.log_path.replace(".log", ".live.log")
            live.append(lc)
        if live:
            run_all(live, self.args.jobs, self.args.repeat, self.args.timeout, describe)
        by_id = {c.id: c for c in live}
        return [by_id.get(c.id, c) for c in configs]

    def clock_note(self, config):
        """A replayed row's note when the recorded program read the clock (the replay report's
        replay.clock_reads; absent in older builds: none)."""
        run = median_run(config.runs)
        replay = run.report.get("replay") if run and run.report else None
        reads = replay.get("clock_reads") if isinstance(replay, dict) else None
        if not isinstance(reads, int) or isinstance(reads, bool) or reads <= 0:
            return None
        note = (f"the program read the clock {reads} time{'s' if reads != 1 else ''}: "
                "replayed exactly only if what it does does not depend on the time it read (a "
                "loop that runs until a time budget is used up does); ")
        if config.id == "ideal-balance":
            return note + "a balance bound has no live run to check it with"
        if not self.args.program:
            return note + "a live run of the program with the row's options checks it"
        return note + "the row's live command checks it: " + rowlib.command_line(
            self.live_command(config.overrides))

    def run(self):
        machine_options = options_of(self.args.run_options)
        if self.args.machines:
            self.args.run_options.insert(0, ["--machine", self.args.machines[0]])
            machine_options = options_of(self.args.run_options)
        self.tools.check_settings(machine_options, "the mpisimrun options", self.np)
        for v in self.variants:
            if v.factor is None:
                self.tools.check_settings(merged(self.args.run_options, [[v.option, v.value]]),
                                          f"--vary {v.label}", self.np)
        base, replayed = self.baseline()
        print(f"[baseline] {base.label}: {describe(base)}", flush=True, file=sys.stderr)
        base_row = rowlib.row_of(base, "whatif")
        if not rowlib.ok(base_row):
            rows = [dict(dict.fromkeys(rowlib.COLUMNS), study="whatif", id=f"v{k + 1}",
                         variant=v.label, status="not run", error="the baseline run failed")
                    for k, v in enumerate(self.variants)]
            return [base_row] + rows
        machine = base.runs[-1].report["settings"]["machine"]
        configs, skipped = self.variant_configs(machine, replayed)
        # A variant costs about what the baseline cost: one far slower is stuck (a model
        # without lookahead on a program with wildcard receives), not worth waiting for.
        if self.args.timeout is None:
            self.args.timeout = max(DEFAULT_TIMEOUT_S, TIMEOUT_FACTOR * base.runs[-1].wall_s)
        run_all(configs, self.args.jobs, self.args.repeat if not replayed else 1,
                self.args.timeout, describe)
        configs = self.rerun_live(configs)
        rows = [base_row] + [rowlib.row_of(c, "whatif") for c in configs]
        for r, c in zip(rows, [base] + configs):
            note = self.clock_note(c) if rowlib.ok(r) else None
            if note:
                r["note"] = f"{r['note']}; {note}" if r["note"] else note
        for s in skipped:
            rows.append(dict(dict.fromkeys(rowlib.COLUMNS), study="whatif", **s))
        ranks = base.runs[-1].report["settings"]["ranks"]
        for r in rows:
            r["ranks"] = r["ranks"] or ranks
            r["machine"] = r["machine"] or machine["name"]
            if rowlib.ok(r) and base_row["predicted_time_ps"]:
                r["vs_baseline"] = r["predicted_time_ps"] / base_row["predicted_time_ps"]
        return rows


def describe(config):
    run = config.runs[-1]
    if run.exit_code == 0 and run.report:
        note = " (replay diverged)" if report_figures.diverged(run.report) else ""
        return f"{run.report['predicted_time_ps'] / 1e12:.6g} s predicted{note}"
    if run.timed_out:
        return "timed out"
    if run.exit_code == REPLAY_REFUSED_CODE and any(
            line.startswith(REPLAY_REFUSAL) for line in run.stderr.splitlines()):
        return "refused by mpisim-replay"
    return f"failed (exit code {run.exit_code})"


def run(args, tools, out):
    return Study(args, tools, out).run()
