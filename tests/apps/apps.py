#!/usr/bin/env python3
"""The application corpus: real MPI codes (NPB 3.4, LULESH 2.0, HPCG 3.1, the Intel MPI
Benchmarks), built unmodified with mpisim's wrappers and with MPICH's, run under both, and their
own verification output compared.

The corpus is test data outside the project: $MPISIM_APPS, or ../shared/apps beside the source
tree. Each application is copied into the work directory and built there as its own build files
say, with only the compilers changed; nothing of it enters the repository.

  apps.py build APP --flavour mpisim|mpich --bin BIN --work DIR
  apps.py reference CASE --work DIR            MPICH's run: writes CASE's answer
  apps.py check CASE --hosts H --bin BIN --work DIR [--machine M]
                                               mpisim's run, compared with MPICH's answer
  apps.py replay CASE --bin BIN --work DIR     records CASE (--cpu off) and replays the record
                                               on 1 and 2 host processes: every clock as live
  apps.py list                                 the applications and cases

Exit 77 (CTest's skip) when the corpus is absent. A case's answer is what the application itself
prints to say that it computed right (NPB's verification, LULESH's final origin energy and
symmetry, HPCG's residuals and validity, the benchmarks IMB ran, their message sizes and the
defects IMB's own check found); lines that hold times or rates are left out, since they are what
a prediction changes.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77
NPB_BENCHMARKS = ["bt", "cg", "dt", "ep", "ft", "is", "lu", "mg", "sp"]
REPORT = "==== mpisim report ===="


def corpus():
    """The corpus folder, or None."""
    path = os.environ.get("MPISIM_APPS") or os.path.join(os.path.dirname(ROOT), "shared", "apps")
    return path if os.path.isdir(os.path.join(path, "npb-3.4-mpi")) else None


def require_corpus():
    path = corpus()
    if path is None:
        print("the application corpus is absent (set MPISIM_APPS to its folder, or place it at "
              f"{os.path.join(os.path.dirname(ROOT), 'shared', 'apps')}): skipped")
        sys.exit(SKIP)
    return path


def require_plain_build(bin_dir):
    """The sanitized build compiles the applications with the sanitizers too, and their own
    undefined behaviour (LULESH indexes an array with -2) then ends the run: the label runs on
    the plain build, as its issue allows."""
    cache = os.path.join(os.path.dirname(bin_dir), "CMakeCache.txt")
    if os.path.exists(cache) and "MPISIM_SANITIZE:BOOL=ON" in open(cache).read():
        print("the application corpus runs on the plain build (scripts/build), not the sanitized "
              "one, whose wrappers would instrument the applications' own code: skipped")
        sys.exit(SKIP)


def sh(cmd, cwd, env=None, log=None, timeout=1800):
    p = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True,
                       text=True, timeout=timeout, shell=isinstance(cmd, str))
    if log:
        with open(log, "a") as f:
            f.write(f"$ {cmd}\n{p.stdout}{p.stderr}")
    if p.returncode:
        sys.exit(f"apps: failed ({p.returncode}) in {cwd}: {cmd}\n{p.stdout[-3000:]}\n"
                 f"{p.stderr[-3000:]}")
    return p.stdout


# --- answers: the lines each application prints to say it computed right ---------------------

def npb_answer(out):
    """Everything up to the summary (NPB prints its verification values there) and the summary's
    class, size, iterations and verdict. Left out: times (initialization, EP's CPU time, BT-IO's
    I/O time and rate), and DT's graph id, read from memory DT never initializes."""
    lines = []
    for line in out.splitlines():
        if "Benchmark Completed" in line:
            break
        if line.strip() and not re.search(
                r"(?i)\btime\b|\.DT_..\.\w: \(\d+,\d+\)$|I/O (timing|data rate)", line):
            lines.append(line.rstrip())
    lines += [line.rstrip() for line in out.splitlines()
              if re.match(r"\s*(Class|Size|Iterations|Verification)\s*=", line)]
    return lines


def lulesh_answer(out):
    keep = ("Problem size", "MPI tasks", "Iteration count", "Final Origin Energy",
            "Testing Plane", "MaxAbsDiff", "TotalAbsDiff", "MaxRelDiff")
    return [line.strip() for line in out.splitlines() if line.strip().startswith(keep)]


def hpcg_answer(out):
    """HPCG writes its results to HPCG-Benchmark_*.txt in the working directory."""
    keep = ("Final Summary::HPCG result is", "Spectral Convergence Tests::Result",
            "Departure from Symmetry |x'Ay-y'Ax|/(2*||x||*||A||*||y||)/epsilon::Result",
            "Iteration Count Information::Result", "Reproducibility Information::Result",
            "Reproducibility Information::Scaled residual mean",
            "Iteration Count Information::Total number of reference iterations",
            "Iteration Count Information::Total number of optimized iterations",
            "Global Problem Dimensions::")
    # The rating after "VALID" is a time, which the prediction changes.
    return [line.strip().partition(" with a GFLOP/s rating")[0] for line in out.splitlines()
            if line.startswith(keep)]


def imb_answer(out):
    """The benchmarks IMB ran, each with its rank counts and message sizes, and what its own check
    of the received data found (built with -DCHECK: the defects column, and the rank, benchmark,
    size and sample of each failure it reports, all of them sorted at the end: ranks print them
    at once, and under mpiexec one rank's report can land inside another's line, or after rank
    0's next benchmark header when the machine is loaded); repetition counts and times depend on
    the time IMB sees and are left out."""
    lines, errors, defects = [], [], None
    for line in out.splitlines():
        errors += re.findall(r"\d+: Error \S+,size = \d+,sample #\d+", line)
        if line.startswith(("# Benchmarking", "# #processes", "# All processes entering", "#---")):
            defects = None
            if line.startswith("# "):
                lines.append(line.strip())
        elif re.match(r"\s*#bytes", line):
            defects = line.split().index("defects") if "defects" in line else -1
        elif defects is not None and re.match(r"\s+\d+\s+\d+", line):
            cols = line.split()
            lines.append("bytes " + cols[0] + (f" defects {cols[defects]}" if defects >= 0 else ""))
    return lines + sorted(errors)


# --- the applications ---------------------------------------------------------------------------

class App:
    """One application of the corpus: how it is built, and its cases (one program run each)."""

    def __init__(self, name, folder, answer, output_file=None):
        self.name, self.folder, self.answer, self.output_file = name, folder, answer, output_file

    def tree(self, work, flavour):
        return os.path.join(work, f"{self.name}-{flavour}")

    def copy(self, work, flavour, stamp=""):
        """The application's tree for `flavour`, copied afresh when the compilers that built it
        (`stamp`) changed: make knows nothing of the simulator the wrappers link in."""
        dst = self.tree(work, flavour)
        stamp_file = os.path.join(dst, ".mpisim-apps-stamp")
        if os.path.isdir(dst) and (not os.path.exists(stamp_file)
                                   or open(stamp_file).read() != stamp):
            shutil.rmtree(dst)
        if not os.path.isdir(dst):
            shutil.copytree(os.path.join(require_corpus(), self.folder), dst + ".tmp", symlinks=True)
            with open(os.path.join(dst + ".tmp", ".mpisim-apps-stamp"), "w") as f:
                f.write(stamp)
            os.rename(dst + ".tmp", dst)
        return dst


def compilers(flavour, bin_dir):
    if flavour == "mpich":
        return {"CC": "mpicc", "CXX": "mpicxx", "FC": "mpif90"}
    return {"CC": f"{bin_dir}/mpisimcc", "CXX": f"{bin_dir}/mpisimcxx", "FC": f"{bin_dir}/mpisimfort"}


def toolchain_stamp(flavour, bin_dir):
    """What identifies the build's compilers: for mpisim, its wrappers and runtime libraries."""
    if flavour == "mpich":
        return "mpich"
    files = [os.path.join(bin_dir, w) for w in ("mpisimcc", "mpisimcxx", "mpisimfort", "mpisim-privatize")]
    files += sorted(glob.glob(os.path.join(os.path.dirname(bin_dir), "lib", "*.a")))
    return "\n".join(f"{f} {os.stat(f).st_mtime_ns}" for f in files if os.path.exists(f))


def build_npb(app, work, flavour, bin_dir, log):
    tree = app.copy(work, flavour, toolchain_stamp(flavour, bin_dir))
    c = compilers(flavour, bin_dir)
    template = open(os.path.join(tree, "config", "make.def.template")).read()
    make_def = re.sub(r"^MPIFC\s*=.*$", f"MPIFC = {c['FC']}", template, flags=re.M)
    make_def = re.sub(r"^MPICC\s*=.*$", f"MPICC = {c['CC']}", make_def, flags=re.M)
    with open(os.path.join(tree, "config", "make.def"), "w") as f:
        f.write(make_def)
    os.makedirs(os.path.join(tree, "bin"), exist_ok=True)
    for program in sorted({c.program for c in CASES.values() if c.app == "npb"}):
        if not os.path.exists(os.path.join(tree, program)):
            benchmark, size, subtype = re.fullmatch(r"bin/(\w+)\.(\w)\.x(?:\.mpi_io_(\w+))?",
                                                    program).groups()
            sh(["make", benchmark, f"CLASS={size}"] + ([f"SUBTYPE={subtype}"] if subtype else []),
               tree, log=log)


def build_lulesh(app, work, flavour, bin_dir, log):
    tree = app.copy(work, flavour, toolchain_stamp(flavour, bin_dir))
    sh(["make", "-j2", f"CXX={compilers(flavour, bin_dir)['CXX']} -DUSE_MPI=1"], tree, log=log)


def build_hpcg(app, work, flavour, bin_dir, log):
    tree = app.copy(work, flavour, toolchain_stamp(flavour, bin_dir))
    build = os.path.join(tree, "build")
    os.makedirs(build, exist_ok=True)
    if not os.path.exists(os.path.join(build, "Makefile")):
        sh(["../configure", "MPI_GCC_OMP"], build, log=log)
    sh(["make", "-j2", f"CXX={compilers(flavour, bin_dir)['CXX']}"], build, log=log)


IMB_SUITES = {"imb": "IMB-MPI1", "imb.nbc": "IMB-NBC", "imb.rma": "IMB-RMA", "imb.ext": "IMB-EXT",
              "imb.p2p": "IMB-P2P", "imb.io": "IMB-IO"}
# IMB-IO built with -DCHECK fails under MPICH too in its read benchmarks (rank 0 reports its first
# read invalid and exits) and crashes in P_Write_Shared: its writes, independent, private,
# collective and non-blocking, and Open_Close run.
IMB_IO_BENCHMARKS = ["S_Write_Indv", "S_IWrite_Indv", "S_Write_Expl", "S_IWrite_Expl", "P_Write_Indv",
                     "P_IWrite_Indv", "P_Write_Priv", "P_IWrite_Priv", "P_Write_Expl", "P_IWrite_Expl",
                     "C_Write_Indv", "C_IWrite_Indv", "C_Write_Expl", "C_IWrite_Expl", "Open_Close"]


def build_imb(app, work, flavour, bin_dir, log):
    """Each suite as IMB's Makefile builds it, with -DCHECK: IMB then checks every buffer it
    received and reports the defects it found, which the answer compares."""
    tree = app.copy(work, flavour, toolchain_stamp(flavour, bin_dir))
    c = compilers(flavour, bin_dir)
    for target in IMB_SUITES.values():
        sh(["make", target, "CPPFLAGS=-DCHECK", f"CC={c['CC']}", f"CXX={c['CXX']}"], tree, log=log)


BUILDERS = {"npb": build_npb, "lulesh": build_lulesh, "hpcg": build_hpcg, "imb": build_imb}
APPS = {
    "npb": App("npb", "npb-3.4-mpi", npb_answer),
    "lulesh": App("lulesh", "lulesh-2.0", lulesh_answer),
    "hpcg": App("hpcg", "hpcg-3.1", hpcg_answer, output_file="HPCG-Benchmark_*.txt"),
    "imb": App("imb", "imb", imb_answer),
}


class Case:
    """One run: the program (relative to the application's tree), its rank count and arguments."""

    def __init__(self, name, app, program, ranks, args=(), unrecorded=None):
        self.name, self.app, self.program, self.ranks, self.args = name, app, program, ranks, list(args)
        # The first call of the program that MPISIM_RECORD refuses (docs/observing.md), if any.
        self.unrecorded = unrecorded


IMB_ARGS = ["-npmin", "4", "-msglog", "0:6", "-iter", "5", "-iter_policy", "off"]
CASES = {c.name: c for c in
         [Case(f"npb.{b}", "npb", f"bin/{b}.S.x", 5 if b == "dt" else 4, ["BH"] if b == "dt" else [])
          for b in NPB_BENCHMARKS]
         # BT with its MPI-IO output (SUBTYPE=full): collective writes through a view of each
         # rank's cells, every 5 steps, read back and checked at the end.
         + [Case("npb.btio", "npb", "bin/bt.S.x.mpi_io_full", 4)]
         + [Case("lulesh", "lulesh", "lulesh2.0", 8, ["-s", "8", "-i", "20"]),
            Case("hpcg", "hpcg", "build/bin/xhpcg", 4, ["--nx=16", "--ny=16", "--nz=16", "--rt=0"]),
            *[Case(name, "imb", target, 4, (IMB_IO_BENCHMARKS if name == "imb.io" else []) + IMB_ARGS)
              for name, target in IMB_SUITES.items()]]}

# The corpus's default builds use OpenMP; one thread per rank keeps MPICH's run and ours alike.
RUN_ENV = {"OMP_NUM_THREADS": "1"}


def run_dir(work, case, who):
    d = os.path.join(work, "runs", f"{case.name}.{who}")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def program_output(case, out, cwd):
    """What the run printed, or the file it wrote its results to."""
    pattern = APPS[case.app].output_file
    files = sorted(glob.glob(os.path.join(cwd, pattern))) if pattern else []
    return open(files[-1]).read() if files else out


def program_path(work, case, flavour):
    return os.path.join(APPS[case.app].tree(work, flavour), case.program)


def run_mpich(case, work):
    """MPICH's run: {"output", "wall"}; its output is kept whole, so that the answer is read from
    it when compared."""
    cwd = run_dir(work, case, "mpich")
    cmd = ["mpiexec", "-n", str(case.ranks), program_path(work, case, "mpich")] + case.args
    t = time.monotonic()
    out = program_output(case, sh(cmd, cwd, env=RUN_ENV, timeout=3600), cwd)
    return {"command": " ".join(cmd), "output": out, "wall": time.monotonic() - t}


def run_mpisim(case, work, bin_dir, hosts, options=()):
    """mpisim's run on `hosts` host processes: {"returncode", "output", "answer", "predicted",
    "wall", "peak_mib", "command"}."""
    cwd = run_dir(work, case, f"hosts{hosts}")
    cmd = [f"{bin_dir}/mpisimrun", "-np", str(case.ranks), "-hosts", str(hosts), *options,
           program_path(work, case, "mpisim"), *case.args]
    # In the sanitized build the wrappers compile the applications with the sanitizers too: their
    # own leaks at exit and their own undefined behaviour (LULESH indexes an array with -2) are
    # not the simulator's to report. UBSan's reports go to files in the run's folder, away from
    # the output compared.
    env = {**RUN_ENV, "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0",
           "UBSAN_OPTIONS": f"halt_on_error=0:print_stacktrace=0:log_path={cwd}/ubsan"}
    t = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True,
                       timeout=3600)
    wall = time.monotonic() - t
    # DT writes its answer to stderr, where the report also goes; MPICH's mpiexec merges the two.
    err, _, report = p.stderr.partition(REPORT)
    predicted = re.search(r"predicted time: (\S+) s", report)
    peak = re.search(r"peak memory ([0-9.]+) MiB", report)
    return {"command": " ".join(cmd), "returncode": p.returncode,
            "output": p.stdout[-4000:] + p.stderr[-4000:],
            "answer": APPS[case.app].answer(program_output(case, p.stdout + err, cwd)),
            "predicted": float(predicted.group(1)) if predicted else None, "wall": wall,
            "peak_mib": float(peak.group(1)) if peak else None}


def mpich_answer(case, work):
    ref_file = os.path.join(work, "runs", f"{case.name}.mpich.json")
    if not os.path.exists(ref_file):
        sys.exit(f"apps: no MPICH run of {case.name}: run `apps.py reference {case.name}` first")
    return APPS[case.app].answer(json.load(open(ref_file))["output"])


def reference(case, work):
    run = run_mpich(case, work)
    answer = APPS[case.app].answer(run["output"])
    if not answer:
        sys.exit(f"apps: MPICH's run of {case.name} printed no answer:\n{run['output'][-3000:]}")
    with open(os.path.join(work, "runs", f"{case.name}.mpich.json"), "w") as f:
        json.dump(run, f, indent=1)
    print("\n".join(answer))


def check(case, work, bin_dir, hosts, options):
    expected = mpich_answer(case, work)
    run = run_mpisim(case, work, bin_dir, hosts, options)
    got = run["answer"]
    print(f"$ {run['command']}   (exit {run['returncode']}; predicted {run['predicted']} s)")
    if run["returncode"] or got != expected:
        print(run["output"])
        print("MPICH's answer:\n  " + "\n  ".join(expected))
        print("mpisim's answer:\n  " + "\n  ".join(got or ["(none)"]))
        for a, b in zip(expected, got or []):
            if a != b:
                print(f"first difference:\n  MPICH:  {a}\n  mpisim: {b}")
                break
        sys.exit(1)
    print(f"{case.name}: MPICH's answer on {hosts} host process(es) ({len(got)} lines):\n  "
          + "\n  ".join(got))


def prediction(report_file):
    """The predicted time and every rank's final clock (ps) of a JSON report."""
    r = json.load(open(report_file))
    return r["predicted_time_ps"], [x["time_ps"] for x in sorted(r["ranks"], key=lambda x: x["rank"])]


def replay_ranks(case):
    """The ranks a case is recorded on: NPB's class S at 16 (every benchmark but DT, whose graph
    fixes its count, runs there), the others at their own count."""
    return 16 if case.app == "npb" and case.name != "npb.dt" else case.ranks


def replay(case, work, bin_dir):
    """Records the case with --cpu off and replays the record on 1 and 2 host processes: each
    replay must predict every rank's final clock exactly as the live run did, and find every
    wildcard match and test outcome as recorded."""
    cwd = run_dir(work, case, "replay")
    record, live_report = os.path.join(cwd, "record"), os.path.join(cwd, "live.json")
    ranks = replay_ranks(case)
    cmd = [f"{bin_dir}/mpisimrun", "-np", str(ranks), "--cpu", "off", "--record", record,
           "--report", live_report, program_path(work, case, "mpisim"), *case.args]
    if case.unrecorded:
        # Refused at that call, with the way out named, not recorded wrong.
        p = subprocess.run(cmd, cwd=cwd, env={**os.environ, **RUN_ENV}, capture_output=True,
                           text=True, timeout=900)
        refusal = f"{case.unrecorded} is not recorded by MPISIM_RECORD"
        if p.returncode == 0 or refusal not in p.stderr or "runs each variant" not in p.stderr:
            sys.exit(f"apps: recording {case.name} should stop at {case.unrecorded} with "
                     f"'{refusal}' (exit {p.returncode}):\n{p.stderr[-3000:]}")
        print(f"{case.name}: its recording stops at {case.unrecorded}, as docs/observing.md says "
              f"(exit {p.returncode})")
        return
    sh(cmd, cwd, env=RUN_ENV, timeout=900)
    live = prediction(live_report)
    for hosts in (1, 2):
        report = os.path.join(cwd, f"replay{hosts}.json")
        p = subprocess.run([f"{bin_dir}/mpisim-replay", record, "-hosts", str(hosts), "--strict",
                            "--report", report], cwd=cwd, capture_output=True, text=True,
                           timeout=900)
        if p.returncode:
            sys.exit(f"apps: the replay of {case.name} on {hosts} host process(es) failed "
                     f"({p.returncode}):\n{p.stderr[-3000:]}")
        got = prediction(report)
        if got != live:
            sys.exit(f"apps: {case.name} replayed on {hosts} host process(es) predicts {got[0]} ps, "
                     f"the live run {live[0]} ps (clocks {got[1]} != {live[1]})")
    print(f"{case.name}: recorded and replayed on 1 and 2 host processes, each {live[0]} ps "
          f"({ranks} ranks, every clock equal)")


def build(name, work, flavour, bin_dir):
    app = APPS[name]
    log = os.path.join(work, f"{app.name}-{flavour}.log")
    BUILDERS[name](app, work, flavour, bin_dir, log)
    return app.tree(work, flavour)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("what", choices=["build", "reference", "check", "replay", "list"])
    ap.add_argument("name", nargs="?")
    ap.add_argument("--flavour", choices=["mpisim", "mpich"], default="mpisim")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "apps"))
    ap.add_argument("--hosts", type=int, default=1)
    ap.add_argument("--machine")
    a = ap.parse_args()
    if a.what == "list":
        print(" ".join(APPS), "\n" + " ".join(CASES))
        return
    require_corpus()
    require_plain_build(a.bin)
    os.makedirs(os.path.join(a.work, "runs"), exist_ok=True)
    if a.what == "build":
        tree = build(a.name, a.work, a.flavour, a.bin)
        print(f"built {a.name} with {a.flavour}'s compilers in {tree}")
    elif a.what == "reference":
        reference(CASES[a.name], a.work)
    elif a.what == "replay":
        replay(CASES[a.name], a.work, a.bin)
    else:
        check(CASES[a.name], a.work, a.bin, a.hosts, ["--machine", a.machine] if a.machine else [])


if __name__ == "__main__":
    main()
