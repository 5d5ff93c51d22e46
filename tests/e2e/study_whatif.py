#!/usr/bin/python3
"""mpisim-study whatif (docs/studies.md): on a halo program, every variant replayed from the one
recording equals a live mpisimrun given the same absolute options, to the picosecond, and the
ideal-network bound, when this build has it, is the smallest row. On a program whose
MPI_ANY_SOURCE matches change with the bandwidth (first_come_reply.c), the diverged variant is
re-run live and equals plain mpisimrun; from the recording alone it is marked approximate. A
program whose recording is refused (MPI_Cancel) runs every variant live, and the table says so.

usage: study_whatif.py MPISIM-STUDY MPISIMRUN HALO-PROGRAM FIRST-COME-PROGRAM UNRECORDABLE DIR
"""
import os
import shlex
import sys

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
from study_common import fail, predicted_alone, run_study  # noqa: E402


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


def check_halo(tool, mpisimrun, halo, out):
    program = [halo, "200", "30"]
    rows, p = study(tool, out, ["-np", "16", "--vary", "bandwidth=2x", "--vary", "latency=0.5x",
                                "--cpu", "off"] + program)
    if rows["baseline"]["mode"] != "live (recorded)" or rows["baseline"]["status"] != "ok":
        fail(f"baseline {rows['baseline']}")
    expected = {"v1": "bandwidth=2x (--bandwidth 24000000000B/s)",
                "v2": "latency=0.5x (--latency 750000ps)"}
    for id, variant in expected.items():
        r = rows[id]
        if r["variant"] != variant or r["mode"] != "replayed" or r["status"] != "ok":
            fail(f"row {id}: {r['variant']} {r['mode']} {r['status']} {r['error']}")
        got = live(mpisimrun, 16, replay_options(r), program, os.path.join(out, f"live-{id}.json"))
        if got != r["predicted_time_ps"]:
            fail(f"row {id}: replayed {r['predicted_time_ps']} ps, live {got} ps")
        if r["vs_baseline"] != r["predicted_time_ps"] / rows["baseline"]["predicted_time_ps"]:
            fail(f"row {id}: vs_baseline {r['vs_baseline']}")
    ideal = rows["ideal-network"]
    if ideal["status"] == "ok":
        smallest = min(r["predicted_time_ps"] for r in rows.values() if r["status"] == "ok")
        if ideal["predicted_time_ps"] != smallest:
            fail(f"the ideal network {ideal['predicted_time_ps']} ps is not the smallest {smallest}")
    elif ideal["status"] != "unavailable" or "--network ideal" not in ideal["error"]:
        fail(f"ideal network row: {ideal['status']} {ideal['error']}")
    if rows["ideal-balance"]["status"] not in ("ok", "unavailable"):
        fail(f"ideal balance row: {rows['ideal-balance']}")


def check_divergence(tool, mpisimrun, first_come, out):
    slow = ["--bandwidth", "1200000000B/s"]
    # --timeout: a wrong model that never ends must be a row, not a stuck test.
    rows, p = study(tool, os.path.join(out, "live"), ["-np", "3", "--vary", "bandwidth=0.1x",
                                                      "--cpu", "off", "--timeout", "8",
                                                      first_come])
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
                                                      "bandwidth=0.1x", "--timeout", "8"])
    r = rows["v1"]
    if r["mode"] != "approximate" or r["replay_time_ps"] != r["predicted_time_ps"]:
        fail(f"from the recording alone: {r['mode']} {r['predicted_time_ps']}", p.stdout)
    if rows["baseline"]["mode"] != "replayed" or "approximate" not in p.stdout:
        fail("the table does not say approximate", p.stdout)


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


def main():
    tool, mpisimrun, halo, first_come, unrecordable, out = sys.argv[1:7]
    check_halo(tool, mpisimrun, halo, os.path.join(out, "halo"))
    check_divergence(tool, mpisimrun, first_come, os.path.join(out, "divergence"))
    check_refused(tool, mpisimrun, unrecordable, os.path.join(out, "refused"))
    print("what-if study ok")


main()
