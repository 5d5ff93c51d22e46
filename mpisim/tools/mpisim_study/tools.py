"""The simulator's tools beside mpisim-study, what this build of them offers, and the checks of a
study's settings that they make (a machine or option they refuse stops the study, exit code 2)."""
import os
import re
import subprocess

from .cli import UsageError


class Tools:
    def __init__(self, bindir):
        self.mpisimrun = os.path.join(bindir, "mpisimrun")
        self.replay = os.path.join(bindir, "mpisim-replay")
        for tool in (self.mpisimrun, self.replay):
            if not os.access(tool, os.X_OK):
                raise UsageError(f"{tool} not found: mpisim-study runs the tools beside it "
                                 "(build them with scripts/build)")
        run_help = self.help(self.mpisimrun)
        replay_help = self.help(self.replay)
        # What other parts of the simulator add; a study says so when this build lacks one.
        self.critical_path = "--critical-path" in run_help
        self.ideal_network = re.search(r"\bideal: ", run_help) is not None
        self.ideal_balance = "--ideal-balance" in replay_help

    @staticmethod
    def help(tool):
        return subprocess.run([tool, "--help"], capture_output=True, text=True,
                              timeout=60).stdout

    def check_settings(self, options, what, ranks=1):
        """Lets mpisimrun validate a machine and options for `ranks` ranks (--show-machine runs
        nothing)."""
        p = subprocess.run([self.mpisimrun, "-np", str(ranks)] + options + ["--show-machine"],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            lines = [line for line in p.stderr.splitlines() if line.strip()]
            raise UsageError(f"{what}: {lines[0] if lines else 'refused by mpisimrun'}")
