"""The command line of mpisim-study: the study's own options, the mpisimrun options passed on to
every run, and the program with its arguments. Bad input raises UsageError (exit code 2)."""
import json
import os
import shutil

USAGE = """usage:
  mpisim-study scaling -np 16,64,256 [--machine cluster,sp2,file.machine] [study options]
                       [--weak] [mpisimrun options] -o DIR ./prog args...
                       ({np} in args: the rank count; with it, or --weak, the work grows with the
                       ranks: weak scaling)
  mpisim-study whatif  [--from RECORDING [./prog args...] | -np N ./prog args...]
                       --vary KEY=V1,V2 ...
                       [study options] [mpisimrun options] -o DIR
study options: --jobs J (default: the host's cores), --timeout S (per run), --repeat N
--vary keys: latency, bandwidth, cpu, send-overhead, recv-overhead, io-latency, io-bandwidth,
io-shared-bandwidth (a factor such as 0.5x, or a value in the option's units), machine,
topology, network, or any other mpisimrun option name
(values as that option takes them). docs/studies.md has examples."""

# mpisimrun and mpisim-replay options that take no value; every other option takes one.
RUN_FLAGS = {"--strict", "--critical-path", "--ideal-balance"}
# The study's own options that take no value.
STUDY_FLAGS = {"--weak"}
STUDY_OPTIONS = {"-o", "--output", "--jobs", "--timeout", "--repeat", "-np", "-n", "--machine",
                 "--vary", "--from"}
# mpisimrun options the study sets itself on every run: a user's would take its place.
OWN_OPTIONS = {
    "--report": "every run's report is DIR/runs/ID.json (the row's `report`)",
    "--record": "a what-if records its baseline in DIR/record (to study an existing recording, "
                "give whatif --from RECORDING)",
}


class UsageError(Exception):
    """Bad input: the message names the problem and the fix."""


class Arguments:
    def __init__(self):
        self.study = None
        self.output = None
        self.jobs = os.cpu_count() or 1
        self.timeout = None
        self.repeat = 1
        self.np = []
        self.machines = []
        self.varies = []
        self.record = None
        self.record_meta = {}  # --from: the recording's meta.json
        self.run_options = []  # [name, value or None] pairs for mpisimrun / mpisim-replay
        self.program = []
        self.weak = False  # --weak: each rank's work stays the same as the ranks grow


def positive_int(text, what):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise UsageError(f"{what} {text!r} is not a positive integer")
    return value


def positive_number(text, what):
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0:
        raise UsageError(f"{what} {text!r} is not a number > 0 (seconds)")
    return value


def take(args, study_value):
    """Stores one study option's value."""
    name, value = study_value
    if name in ("-o", "--output"):
        args.output = value
    elif name == "--jobs":
        args.jobs = positive_int(value, "--jobs")
    elif name == "--timeout":
        args.timeout = positive_number(value, "--timeout")
    elif name == "--repeat":
        args.repeat = positive_int(value, "--repeat")
    elif name in ("-np", "-n"):
        counts = [positive_int(n, "-np") for n in items(value, "-np", "rank count")]
        if len(set(counts)) != len(counts):
            raise UsageError(f"-np {value!r} gives a rank count more than once")
        args.np = counts
    elif name == "--machine":
        args.machines = items(value, "--machine", "machine")
    elif name == "--vary":
        args.varies.append(value)
    elif name == "--from":
        args.record = value


def items(value, option, what):
    """The comma-separated items of a list option: none empty, none twice (each one is a row)."""
    values = value.split(",")
    if any(not v.strip() for v in values):
        raise UsageError(f"{option} {value!r} has an empty {what}: give them separated by commas, "
                         f"e.g. {option} {'4,16' if option == '-np' else 'cluster,sp2'}")
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        raise UsageError(f"{option} {value!r} names {', '.join(twice)} more than once")
    return values


def parse(argv):
    """Arguments from argv (without the program name)."""
    if not argv or argv[0] in ("-h", "--help"):
        raise UsageError("a study is needed: scaling or whatif")
    args = Arguments()
    args.study = argv[0]
    if args.study not in ("scaling", "whatif"):
        raise UsageError(f"unknown study {args.study!r}: use scaling or whatif")
    i = 1
    while i < len(argv):
        token = argv[i]
        if token == "--":
            args.program = argv[i + 1:]
            break
        if not token.startswith("-"):
            args.program = argv[i:]
            break
        name, value = token.split("=", 1) if token.startswith("--") and "=" in token else (
            token, None)
        if name in RUN_FLAGS:
            args.run_options.append([name, None])
            i += 1
            continue
        if name in STUDY_FLAGS:
            args.weak = True
            i += 1
            continue
        if value is None:
            if i + 1 >= len(argv):
                raise UsageError(f"{name} needs a value")
            value = argv[i + 1]
            i += 1
        i += 1
        if name in OWN_OPTIONS:
            raise UsageError(f"{name} is set by mpisim-study itself: {OWN_OPTIONS[name]}; "
                             f"leave {name} out")
        if name in STUDY_OPTIONS:
            take(args, (name, value))
        else:
            args.run_options.append([name, value])
    check(args)
    return args


def weak_scaling(args):
    """Whether the program's work grows with the ranks: {np} in its arguments, or --weak."""
    return args.weak or any("{np}" in a for a in args.program)


def check(args):
    if not args.output:
        raise UsageError("-o DIR is needed: the folder the study writes its results to")
    if os.environ.get("MPISIM_RECORD"):
        raise UsageError("MPISIM_RECORD is set in the environment: every run would record into "
                         f"{os.environ['MPISIM_RECORD']}; unset it (a what-if records its "
                         "baseline in DIR/record itself)")
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise UsageError(f"-o {args.output}: that is a file, not a folder; give the folder the "
                         "study writes its results to (created if missing)")
    if args.study == "scaling":
        if not args.np:
            raise UsageError("-np is needed: the rank counts, e.g. -np 16,64,256")
        if args.varies or args.record:
            raise UsageError("--vary and --from belong to the whatif study")
    else:
        if not args.varies:
            raise UsageError("whatif needs at least one --vary KEY=V1,V2 "
                             "(e.g. --vary latency=0.5x)")
        if len(args.np) > 1:
            raise UsageError("whatif takes one rank count (-np N); scaling takes several")
        if len(args.machines) > 1:
            raise UsageError("whatif takes one baseline --machine; vary it with --vary machine=A,B")
        if args.record:
            recorded_ranks(args)
        if not args.record and not args.np:
            raise UsageError("whatif of a program needs -np N (or --from RECORDING)")
    from .variants import parse_vary  # the vary syntax, checked before anything runs
    for spec in args.varies:
        parse_vary(spec)
    if not args.program and not args.record:
        raise UsageError("no program to run: give ./prog args... after the options")
    if args.program:
        check_program(args.program[0])
    try:
        os.makedirs(os.path.join(args.output, "runs"), exist_ok=True)
    except OSError as e:
        raise UsageError(f"-o {args.output}: cannot create the folder ({e.strerror})")


def record_meta(record):
    """The recording's meta.json (mpisimrun --record DIR), or a usage error."""
    path = os.path.join(record, "meta.json")
    if not os.path.isfile(path):
        raise UsageError(f"--from {record}: no recording there (no meta.json); record "
                         "one with mpisimrun --record DIR")
    try:
        with open(path) as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"--from {record}: its meta.json cannot be read ({e})")
    if not isinstance(meta, dict):
        raise UsageError(f"--from {record}: its meta.json is not a recording's")
    return meta


def recorded_ranks(args):
    """--from: the rank count is the recording's; a different -np is a contradiction."""
    args.record_meta = record_meta(args.record)
    ranks = args.record_meta.get("ranks")
    if not isinstance(ranks, int) or isinstance(ranks, bool) or ranks <= 0:
        raise UsageError(f"--from {args.record}: its meta.json has no rank count")
    if args.np and args.np != [ranks]:
        raise UsageError(f"-np {args.np[0]} contradicts --from {args.record}, recorded with "
                         f"{ranks} ranks: leave -np out (the recording's count is used)")
    args.np = [ranks]


def check_program(program):
    path = program if "/" in program else shutil.which(program)
    if not path or not os.path.isfile(path):
        raise UsageError(f"program {program!r} not found (build it with mpisimcc; give its path, "
                         "e.g. ./prog)")
    if not os.access(path, os.X_OK):
        raise UsageError(f"program {program!r} is not executable")
