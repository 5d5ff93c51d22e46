#!/usr/bin/env python3
"""mpisim-replay on damaged records. Records real runs (patterns of PROGRAM on 4 ranks), checks
that a few chosen damages give their exact file:line error, then replays COUNT mutants made with a
fixed seed: each must end within a timeout with exit 0 or a clean error exit (1 or 2), never by a
signal, never by a hang, and never with a sanitizer's report (a leak report also exits 1).

usage: replay_fuzz.py MPISIMRUN MPISIM-REPLAY PROGRAM COUNT [MORE_PROGRAM PATTERN...]...
Each MORE_PROGRAM's patterns add records with the operations of later record formats (topologies,
persistent requests, non-blocking collectives, one-sided communication, MPI-IO, ...), mutated like the
others; an argument with a / in it names the next program.
"""
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

PATTERNS = ["collectives", "waitany", "subcomm", "halo2d"]
RANKS = 4
SEED = 13
TIMEOUT = 30
WORDS = ["-1", "-5", "0", "1", "3", "2147483647", "2147483648", "-2147483649",
         "9223372036854775807", "-9223372036854775808", "99999999999999999999", "x", "", "1.5",
         "d1:2:3", "d2147483648:0:1", "d-1:0:1", "d8:1275070475:1x", "u0", "u1", "1e308",
         # target datatypes of one-sided operations: cut short, not hex, odd, too many nodes
         "L", "L00", "Lzz", "L0", "L" + "ff" * 96, "L" + "00" * 24 + "ffffffff" + "00" * 68]
META = [("mpisim_record", 2), ("mpisim_record", None), ("mpisim_record", "1"), ("ranks", 2000000000),
        ("ranks", -1), ("ranks", "4"), ("ranks", 0), ("ranks", 3), ("ranks", 1e300),
        ("cpu_scale", 0), ("cpu_scale", -1), ("cpu_scale", 1e308), ("cpu_scale", 1e-308),
        ("cpu_scale", "x"), ("outcome", "deadlock"), ("machine", 5), ("outcome", None),
        ("peak_memory_kib", -1), ("peak_memory_kib", 2**62), ("peak_memory_kib", 1), ("hosts", 0),
        ("hosts", None)]


def replay(tool, d):
    """(exit code, output) of replaying d; exits on a signal or a hang."""
    try:
        p = subprocess.run([tool, d], capture_output=True, text=True, timeout=TIMEOUT,
                           env=dict(os.environ, MPISIM_PROGRESS="off"))
    except subprocess.TimeoutExpired:
        return None, f"no end within {TIMEOUT} s"
    return p.returncode, p.stdout + p.stderr


def lines_of(path):
    with open(path) as f:
        return f.read().split("\n")


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines))


def set_meta(d, key, value):
    path = os.path.join(d, "meta.json")
    meta = json.load(open(path))
    if value is None:
        meta.pop(key, None)
    else:
        meta[key] = value
    json.dump(meta, open(path, "w"))


def mutate(rng, d):
    """Damages the record in d in one random way; returns what was done."""
    if rng.random() < 0.12:
        key, value = rng.choice(META)
        set_meta(d, key, value)
        return f"meta.json {key}={value}"
    files = sorted(f for f in os.listdir(d) if f.endswith(".ops"))
    name = rng.choice(files)
    path = os.path.join(d, name)
    lines = lines_of(path)
    layouts = [k for k, line in enumerate(lines) if " L" in line]
    if layouts and rng.random() < 0.5:  # bytes of a one-sided operation's target layout changed
        i = rng.choice(layouts)
        words = lines[i].split(" ")
        j = next(k for k, w in enumerate(words) if w.startswith("L"))
        layout = bytearray.fromhex(words[j][1:])
        for _ in range(rng.randint(1, 3)):
            layout[rng.randrange(len(layout))] = rng.choice([0, 0x7f, 0x80, 0xff, rng.randrange(256)])
        words[j] = "L" + layout.hex()
        lines[i] = " ".join(words)
        write(path, lines)
        return f"{name}:{i + 1} layout: {lines[i]}"
    i = rng.randrange(len(lines))
    kind = rng.randrange(10)
    if kind < 4:  # one word replaced by a chosen one
        words = lines[i].split(" ")
        j = rng.randrange(len(words))
        words[j] = rng.choice(WORDS)
        lines[i] = " ".join(words)
    elif kind < 6:  # one number scaled or shifted
        words = lines[i].split(" ")
        numbers = [j for j, w in enumerate(words) if w.lstrip("-").isdigit()]
        if numbers:
            j = rng.choice(numbers)
            v = int(words[j])
            words[j] = str(rng.choice([v + 1, v - 1, -v, v * 1000, v * 10**9, v + 2**31, v - 2**32]))
            lines[i] = " ".join(words)
    elif kind == 6:
        del lines[i]
    elif kind == 7:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 8:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        text = "\n".join(lines)
        write(path, [text[:rng.randrange(len(text) + 1)]])
        return f"{name} truncated"
    write(path, lines)
    return f"{name}:{i + 1} kind {kind}: {lines[i] if i < len(lines) else ''}"


def check_exact(tool, base, damage, code, pattern):
    """A chosen damage must end with `code` and print `pattern` (DIR: the damaged record, LINE:
    the line number `damage` returns)."""
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "rec")
        shutil.copytree(base, d)
        line = damage(d)
        pattern = pattern.replace("DIR", d).replace("LINE", str(line))
        got, out = replay(tool, d)
        if got != code or pattern not in out:
            sys.exit(f"FAIL: expected exit {code} and '{pattern}', got {got}:\n{out[-2000:]}")


def damage_first(d, op, field, value):
    """Sets word `field` of the first `op` line of rank 0 to `value`; returns its line number."""
    path = os.path.join(d, "rank-0.ops")
    lines = lines_of(path)
    i = next(k for k, line in enumerate(lines) if line.split(" ")[0] == op)
    words = lines[i].split(" ")
    words[field] = value
    lines[i] = " ".join(words)
    write(path, lines)
    return i + 1


def main():
    mpisimrun, tool, program, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    runs = [(program, p) for p in PATTERNS]
    more = None
    for arg in sys.argv[5:]:
        if os.sep in arg:
            more = arg
        else:
            runs.append((more, arg))
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as tmp:
        records = []
        for n, (prog, pattern) in enumerate(runs):
            d = os.path.join(tmp, f"{n}-{pattern}")
            subprocess.run([mpisimrun, "-np", str(RANKS), "--record", d, prog, pattern],
                           check=True, capture_output=True, timeout=120,
                           env=dict(os.environ, MPISIM_CPU="off"))
            records.append(d)
        base = records[0]
        code, out = replay(tool, base)
        if code != 0:
            sys.exit(f"FAIL: the undamaged record does not replay ({code}):\n{out[-2000:]}")

        check_exact(tool, base, lambda d: set_meta(d, "mpisim_record", 8), 2,
                    "format version 8 (this mpisim-replay reads versions 1 to 7)")
        # A record of the operations format 3 had is still read as one.
        check_exact(tool, base, lambda d: set_meta(d, "mpisim_record", 3), 0, "predicted time")
        # An outcome other than the replay's (MPI_Waitany completing another request) is warned
        # about, not an error; one after an operation that has none is an error of the record.
        check_exact(tool, records[1], lambda d: damage_first(d, "outcome", 3, "2"), 0,
                    "warning: 1 of the replay's")
        check_exact(tool, records[1], lambda d: damage_first(d, "init", 0, "outcome 1 0 0"), 2,
                    "rank-0.ops:LINE: an outcome line follows no operation that has one")
        check_exact(tool, base, lambda d: set_meta(d, "ranks", 2000000000), 2,
                    "it says 2000000000 ranks, but DIR holds 4 rank-*.ops files")
        check_exact(tool, base, lambda d: set_meta(d, "cpu_scale", 0), 2,
                    "cpu_scale must be a number > 0")
        check_exact(tool, base, lambda d: damage_first(d, "compute", 1, "9223372036854775807"), 2,
                    "rank-0.ops:LINE: time 9223372036854775807 ps is out of range")
        check_exact(tool, base, lambda d: damage_first(d, "bcast", 1, "-5"), 2,
                    "rank-0.ops:LINE: count -5 is out of range (0 to 2147483647)")

        # Made one after the other from the seed, replayed two at a time (CI has 2 cores).
        mutants = []
        for n in range(count):
            d = os.path.join(tmp, f"mutant{n}")
            shutil.copytree(records[n % len(records)], d)
            mutants.append((n, d, mutate(rng, d)))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda m: replay(tool, m[1]), mutants))
        failures = []
        outcomes = {}
        for (n, _, what), (code, out) in zip(mutants, results):
            outcomes[code] = outcomes.get(code, 0) + 1
            if code not in (0, 1, 2) or "Sanitizer" in out:
                failures.append(f"mutant {n} ({what}): exit {code}\n{out[-1500:]}")
        print(f"{count} mutants: exit codes {outcomes}")
        if failures:
            sys.exit("FAIL:\n" + "\n".join(failures))
    print("replay_fuzz: ok")


if __name__ == "__main__":
    main()
