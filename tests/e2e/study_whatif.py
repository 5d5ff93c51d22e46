#!/usr/bin/python3
"""mpisim-study whatif (docs/studies.md): on a halo program, every variant replayed from the one
recording equals a live mpisimrun given the same absolute options, to the picosecond, and the
ideal-network bound, when this build has it, is the smallest row; a replayed row whose report
counts clock reads (replay.clock_reads) says so in its note, the terminal table and report.html.
On a program whose MPI_ANY_SOURCE matches change with the bandwidth (first_come_reply.c), the
diverged variant is re-run live and equals plain mpisimrun; from the recording alone it is marked
approximate; from the recording with the program at hand it is re-run live with the recording's
rank count and CPU mode. A program whose recording is refused (a dynamic window) runs every variant
live, and the table says so. An OpenMP program's --vary cores-per-rank and fork-join, which
mpisim-replay refuses (exit code 2), run live (`live: replay refused`, the refusal in the note),
and stay failed with the refusal from the recording alone; so do --node-speed and --libc-time
when this build's mpisim-replay refuses them. Machine files given by a path (in a sub-folder,
or absolute) name rows by their base name and keep every run's files under -o; the study's
MPISIM_* variables are part of every row's command, which reproduces the row in a clean
environment.

usage: study_whatif.py MPISIM-STUDY MPISIMRUN HALO-PROGRAM FIRST-COME-PROGRAM UNRECORDABLE DIR
                       [OPENMP-PROGRAM]
(OPENMP-PROGRAM: by default openmp_hybrid beside HALO-PROGRAM, tests/e2e/programs/openmp_hybrid.c;
file_io beside it is the MPI-IO program whose file system's figures are varied)
"""
import csv
import html
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from study_common import fail, predicted_alone, run_study  # noqa: E402

CLOCK_NOTE = "the program read the clock"


def study(tool, out, args):
    rows, p = run_study(tool, "whatif", out, args)
    return {r["id"]: r for r in rows}, p


def live(mpisimrun, ranks, options, program, report):
    return predicted_alone([mpisimrun, "-np", str(ranks)] + options + program, report)


def replay_options(row):
    """The options after the recording in a replayed row's command."""
    argv = shlex.split(row["command"])
    if os.path.basename(argv[0]) != "mpisim-replay":
        fail(f"row {row['id']} was not replayed: {row['command']}")
    return argv[2:]


def check_replayed(tool, mpisimrun, program, ranks, expected, out):
    """A study with --vary of each variant of `expected` (row id: the row's variant as shown):
    the baseline recorded, each row replayed and equal to a live run with its options. The
    rows and the study's output."""
    varies = [arg for v in expected.values() for arg in ("--vary", v.split(" ")[0])]
    rows, p = study(tool, out, ["-np", str(ranks)] + varies + ["--cpu", "off"] +
                    program)
    if rows["baseline"]["mode"] != "live (recorded)" or rows["baseline"]["status"] != "ok":
        fail(f"baseline {rows['baseline']}")
    for id, variant in expected.items():
        r = rows[id]
        if r["variant"] != variant or r["mode"] != "replayed" or r["status"] != "ok":
            fail(f"row {id}: {r['variant']} {r['mode']} {r['status']} {r['error']}")
        got = live(mpisimrun, ranks, replay_options(r), program,
                   os.path.join(out, f"live-{id}.json"))
        if got != r["predicted_time_ps"]:
            fail(f"row {id}: replayed {r['predicted_time_ps']} ps, live {got} ps")
        if r["vs_baseline"] != r["predicted_time_ps"] / rows["baseline"]["predicted_time_ps"]:
            fail(f"row {id}: vs_baseline {r['vs_baseline']}")
    return rows, p


def check_halo(tool, mpisimrun, halo, out):
    rows, p = check_replayed(tool, mpisimrun, [halo, "200", "30"], 16, {
        "v1": "bandwidth=2x (--bandwidth 24000000000B/s)",
        "v2": "latency=5e-1x (--latency 750000ps)"}, out)  # a factor may have an exponent
    ideal = rows["ideal-network"]
    if ideal["status"] == "ok":
        smallest = min(r["predicted_time_ps"] for r in rows.values() if r["status"] == "ok")
        if ideal["predicted_time_ps"] != smallest:
            fail(f"the ideal network {ideal['predicted_time_ps']} ps is not the smallest {smallest}")
    elif ideal["status"] != "unavailable" or "--network ideal" not in ideal["error"]:
        fail(f"ideal network row: {ideal['status']} {ideal['error']}")
    if rows["ideal-balance"]["status"] not in ("ok", "unavailable"):
        fail(f"ideal balance row: {rows['ideal-balance']}")
    check_clock_notes(rows, p, out)


def check_file_io(tool, mpisimrun, file_io, out):
    """MPI-IO is recorded: a what-if of the file system's figures replays, each row as live."""
    os.makedirs(out, exist_ok=True)
    program = [file_io, os.path.join(out, "data"), "time", "1048576"]
    rows, _ = check_replayed(tool, mpisimrun, program, 4, {
        "v1": "io-bandwidth=2x (--io-bandwidth 4000000000B/s)",
        "v2": "io-latency=0.5x (--io-latency 25000000ps)",
        "v3": "io-shared-bandwidth=0.1x (--io-shared-bandwidth 2000000000B/s)"}, out)
    times = {rows[id]["predicted_time_ps"] for id in ("baseline", "v1", "v2", "v3")}
    if len(times) != 4:
        fail(f"the file system's figures do not change the prediction: {times}")


def check_clock_notes(rows, p, out):
    """A row whose report counts the recorded program's clock reads (jacobi1d reads MPI_Wtime)
    says so in the row, the terminal table and report.html; the others say nothing of it (an
    older mpisim-replay has no clock_reads: no note)."""
    page = open(os.path.join(out, "report.html")).read()
    for r in rows.values():
        if r["status"] != "ok":
            continue
        report = json.load(open(os.path.join(out, r["report"])))
        reads = (report.get("replay") or {}).get("clock_reads", 0)
        note = r["note"] or ""
        if reads > 0:
            said = f"{CLOCK_NOTE} {reads} time"
            if said not in note or note not in p.stdout or html.escape(note) not in page:
                fail(f"row {r['id']}: {reads} clock reads, note {note!r}", p.stdout)
        elif CLOCK_NOTE in note:
            fail(f"row {r['id']} ({r['mode']}, clock_reads {reads}): note {note!r}")


# A wrong model that never ends must be a row, not a stuck test; 30 s, since a sanitized run on
# a loaded machine is many times slower than the 0.1 s it takes alone.
DIVERGENCE_TIMEOUT = ["--timeout", "30"]


def check_divergence(tool, mpisimrun, first_come, out):
    slow = ["--bandwidth", "1200000000B/s"]
    rows, p = study(tool, os.path.join(out, "live"), ["-np", "3", "--vary", "bandwidth=0.1x",
                                                      "--cpu", "off"] + DIVERGENCE_TIMEOUT +
                      [first_come])
    r = rows["v1"]
    if r["mode"] != "live: replay diverged" or r["status"] != "ok":
        fail(f"diverged row: {r['mode']} {r['status']} {r['error']}", p.stdout)
    plain = live(mpisimrun, 3, ["--cpu", "off"] + slow, [first_come],
                 os.path.join(out, "plain.json"))
    if r["predicted_time_ps"] != plain or r["replay_time_ps"] == plain:
        fail(f"live {r['predicted_time_ps']} ps, replay {r['replay_time_ps']}, plain {plain}")
    if shlex.split(r["command"])[0] != mpisimrun or "live: replay diverged" not in p.stdout:
        fail(f"the row does not show the live run: {r['command']}", p.stdout)
    record = os.path.join(out, "live", "record")
    rows, p = study(tool, os.path.join(out, "from"), ["--from", record, "--vary",
                                                      "bandwidth=0.1x"] + DIVERGENCE_TIMEOUT)
    r = rows["v1"]
    if r["mode"] != "approximate" or r["replay_time_ps"] != r["predicted_time_ps"]:
        fail(f"from the recording alone: {r['mode']} {r['predicted_time_ps']}", p.stdout)
    if rows["baseline"]["mode"] != "replayed" or "approximate" not in p.stdout:
        fail("the table does not say approximate", p.stdout)
    # With the program at hand (no -np, no --cpu: both are the recording's).
    rows, p = study(tool, os.path.join(out, "from-program"), ["--from", record, "--vary",
                                                              "bandwidth=0.1x"] +
                      DIVERGENCE_TIMEOUT + [first_come])
    r = rows["v1"]
    argv = shlex.split(r["command"])
    if r["mode"] != "live: replay diverged" or r["status"] != "ok" or argv[:3] != [
            mpisimrun, "-np", "3"] or "--cpu" not in argv or r["predicted_time_ps"] != plain:
        fail(f"from the recording with the program: {r['mode']} {r['status']} {r['error']} "
             f"{r['predicted_time_ps']} (plain {plain}): {r['command']}", p.stdout)


def check_refused(tool, mpisimrun, unrecordable, out):
    """A program the recorder refuses: the baseline and the variants run live, and say so."""
    rows, p = study(tool, out, ["-np", "3", "--vary", "latency=2x", "--cpu", "off", unrecordable])
    for id in ("baseline", "v1"):
        r = rows[id]
        if r["mode"] != "live: recording refused" or r["status"] != "ok":
            fail(f"row {id}: {r['mode']} {r['status']} {r['error']}", p.stdout)
        argv = shlex.split(r["command"])
        if argv[0] != mpisimrun or "--record" in argv:
            fail(f"row {id} is not a plain live run: {r['command']}")
        if predicted_alone(argv, os.path.join(out, f"alone-{id}.json")) != r["predicted_time_ps"]:
            fail(f"row {id} differs from its command run alone")
    if "is not recorded by MPISIM_RECORD" not in rows["baseline"]["error"]:
        fail(f"the baseline does not say why: {rows['baseline']['error']}")
    if rows["ideal-balance"]["status"] != "unavailable":
        fail(f"ideal balance without a recording: {rows['ideal-balance']}")


def replay_refuses(mpisimrun, record, option, value):
    """Whether this build's mpisim-replay (beside mpisimrun) refuses the option on the record."""
    replay = os.path.join(os.path.dirname(mpisimrun), "mpisim-replay")
    p = subprocess.run([replay, record, option, value], capture_output=True, text=True,
                       timeout=120)
    return p.returncode == 2 and any(line.startswith("mpisim-replay:")
                                     for line in p.stderr.splitlines())


def check_replay_refused(tool, mpisimrun, openmp, out):
    """Variants mpisim-replay refuses (exit code 2) run live with the program at hand, the
    refusal in the row's note; from the recording alone they stay failed with it."""
    varies = {"cores-per-rank=2": ["--cores-per-rank", "2"],
              "fork-join=10us": ["--fork-join", "10us"],
              "node-speed=0:2": ["--node-speed", "0:2"],
              "libc-time=host": ["--libc-time", "host"]}
    args = ["-np", "2", "--cpu", "off"] + [a for v in varies for a in ("--vary", v)]
    rows, p = study(tool, os.path.join(out, "live"), args + [openmp])
    record = os.path.join(out, "live", "record")
    # The OpenMP settings are refused by every build; the others once mpisim-replay refuses
    # settings other than the recording's.
    refused = {v for v, option in varies.items()
               if v in ("cores-per-rank=2", "fork-join=10us") or replay_refuses(mpisimrun, record,
                                                                              *option)}
    by_variant = {r["variant"]: r for r in rows.values()}
    for v in varies:
        r = by_variant[v]
        if v not in refused:
            if r["mode"] != "replayed" or r["status"] != "ok":
                fail(f"{v}: {r['mode']} {r['status']} {r['error']}", p.stdout)
            continue
        if (r["mode"] != "live: replay refused" or r["status"] != "ok"
                or not (r["note"] or "").startswith("mpisim-replay: ")):
            fail(f"{v}: {r['mode']} {r['status']} {r['error']} {r['note']}", p.stdout)
        argv = shlex.split(r["command"])
        if argv[:3] != [mpisimrun, "-np", "2"] or argv[-1] != openmp or varies[v][0] not in argv:
            fail(f"{v} is not a live run of the variant: {r['command']}")
        if predicted_alone(argv, os.path.join(out, f"alone-{r['id']}.json")) != r[
                "predicted_time_ps"]:
            fail(f"{v} differs from its command run alone")
        if "live: replay refused" not in p.stdout or r["note"] not in p.stdout:
            fail(f"the table does not say why {v} ran live", p.stdout)
    csv_rows = {r["id"]: r for r in csv.DictReader(open(os.path.join(out, "live", "results.csv"),
                                                         newline=""))}
    if any(csv_rows[r["id"]]["note"] != (r["note"] or "") for r in rows.values()):
        fail("results.csv's notes differ from results.json's")
    rows, p = study(tool, os.path.join(out, "from"), ["--from", record, "--vary",
                                                      "cores-per-rank=2"])
    r = rows["v1"]
    if r["status"] != "failed" or "mpisim-replay: " not in r["error"]:
        fail(f"refused replay from the recording alone: {r['mode']} {r['status']} {r['error']}",
             p.stdout)


def check_machine_paths(tool, halo, out):
    """--machine sub/x.machine (relative) and an absolute path: rows named x-npN and y-npN, all
    of their files under -o, none beside the machine files."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "machines"), exist_ok=True)
    for name in ("x", "y"):
        with open(os.path.join(out, "machines", f"{name}.machine"), "w") as f:
            f.write('base = "sp2"\nlatency = "1us"\n')
    machines = f"machines/x.machine,{os.path.abspath(os.path.join(out, 'machines', 'y.machine'))}"
    for study_kind, args in (("scaling", ["-np", "2", "--machine", machines]),
                             ("whatif", ["-np", "2", "--machine", "machines/x.machine",
                                         "--vary", "machine=machines/y.machine"])):
        result = os.path.join(out, study_kind)
        p = subprocess.run([os.path.abspath(tool), study_kind, "-o", study_kind, "--jobs", "1",
                            "--cpu", "off"] + args + [os.path.abspath(halo), "100", "5"],
                           cwd=out, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            fail(f"{study_kind} with machine files: exit code {p.returncode}", p.stdout + p.stderr)
        rows = json.load(open(os.path.join(result, "results.json")))["rows"]
        for r in rows:
            if r["status"] not in ("ok", "unavailable") or (
                    r["report"] and not os.path.isfile(os.path.join(result, r["report"]))):
                fail(f"{study_kind} row {r['id']}: {r['status']} {r['error']} {r['report']}")
        if study_kind == "scaling" and [r["id"] for r in rows] != ["x-np2", "y-np2"]:
            fail(f"scaling rows {[r['id'] for r in rows]}")
    left = sorted(os.listdir(os.path.join(out, "machines")))
    if left != ["x.machine", "y.machine"]:
        fail(f"runs wrote beside the machine files: {left}")


def check_environment(tool, halo, out):
    """The study's MPISIM_* variables are in every row's command, which run in an environment
    without them gives the row's prediction."""
    env = dict(os.environ, MPISIM_RECV_OVERHEAD="1us")
    result = os.path.join(out, "env")
    shutil.rmtree(result, ignore_errors=True)
    p = subprocess.run([tool, "whatif", "-o", result, "-np", "2", "--jobs", "1", "--cpu", "off",
                        "--vary", "latency=2x", halo, "100", "5"], env=env, capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        fail(f"mpisim-study exit code {p.returncode}", p.stdout + p.stderr)
    rows = json.load(open(os.path.join(result, "results.json")))["rows"]
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MPISIM_")}
    for r in rows:
        if r["status"] != "ok":
            continue
        argv = shlex.split(r["command"])
        at = next(k for k, a in enumerate(argv) if os.path.basename(a) in (
            "mpisimrun", "mpisim-replay"))
        if argv[0] != "env" or "MPISIM_RECV_OVERHEAD=1us" not in argv[1:at]:
            fail(f"row {r['id']}: the command lacks the study's variables: {r['command']}")
        at += 2 if os.path.basename(argv[at]) == "mpisim-replay" else 1
        report = os.path.join(out, f"env-{r['id']}.json")
        q = subprocess.run(argv[:at] + ["--report", report] + argv[at:], env=clean,
                           capture_output=True, text=True, timeout=120)
        if q.returncode != 0 or json.load(open(report))["predicted_time_ps"] != r[
                "predicted_time_ps"]:
            fail(f"row {r['id']}: its command alone differs (exit code {q.returncode})", q.stderr)


def main():
    tool, mpisimrun, halo, first_come, unrecordable, out = sys.argv[1:7]
    openmp = sys.argv[7] if len(sys.argv) > 7 else os.path.join(os.path.dirname(halo),
                                                                "openmp_hybrid")
    check_halo(tool, mpisimrun, halo, os.path.join(out, "halo"))
    check_file_io(tool, mpisimrun, os.path.join(os.path.dirname(halo), "file_io"),
                  os.path.join(out, "file-io"))
    check_divergence(tool, mpisimrun, first_come, os.path.join(out, "divergence"))
    check_refused(tool, mpisimrun, unrecordable, os.path.join(out, "refused"))
    check_replay_refused(tool, mpisimrun, openmp, os.path.join(out, "replay-refused"))
    check_machine_paths(tool, halo, os.path.join(out, "machines"))
    check_environment(tool, halo, out)
    print("what-if study ok")


main()
