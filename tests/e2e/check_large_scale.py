#!/usr/bin/env python3
"""Runs one large-scale scenario on 1 and 2 host processes and checks its JSON reports: the same
predicted time on both, and limits on what the report says (peak memory, folded blocks, sampled
sites).
usage: check_large_scale.py RUN DIR NAME [--max-peak-mib N] [--predicted PS] [--folded-blocks N]
                            [--site-samples N] [--site-skipped N] -- ENV=VALUE... -- ARGS..."""
import json
import os
import subprocess
import sys


def main():
    run, out_dir, name = sys.argv[1:4]
    rest = sys.argv[4:]
    opts = {}
    while rest and rest[0] != "--":
        opts[rest[0]] = int(rest[1])
        rest = rest[2:]
    split = rest.index("--", 1)
    env_items, args = rest[1:split], rest[split + 1:]
    env = dict(os.environ, MPISIM_CPU="off", MPISIM_PROGRESS="off")
    env.update(item.split("=", 1) for item in env_items)
    reports = {}
    for hosts in (1, 2):
        path = os.path.join(out_dir, f"{name}.hosts{hosts}.json")
        if os.path.exists(path):
            os.remove(path)
        p = subprocess.run([run, "-hosts", str(hosts), "--report", path] + args, env=env,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            sys.exit(f"FAIL: {name} on {hosts} host(s) exited {p.returncode}:\n{p.stdout}{p.stderr[-3000:]}")
        r = json.load(open(path))
        reports[hosts] = r
        peak = r["simulator"]["peak_memory_kib"] / 1024
        print(f"{name}: {hosts} host(s): predicted {r['predicted_time_ps']} ps, peak {peak:.1f} MiB, "
              f"wall {r['simulator']['wall_time_s']:.1f} s")
        if "--max-peak-mib" in opts and not peak < opts["--max-peak-mib"]:
            sys.exit(f"FAIL: peak memory {peak:.1f} MiB on {hosts} host(s), limit {opts['--max-peak-mib']}")
        for h in r["hosts"]:
            if "--max-peak-mib" in opts and not h["peak_memory_kib"] / 1024 < opts["--max-peak-mib"]:
                sys.exit(f"FAIL: host {h['host']} peaked at {h['peak_memory_kib'] / 1024:.1f} MiB")
        if "--folded-blocks" in opts:
            blocks = sum(h["folded_blocks"] for h in r["hosts"])
            if blocks != opts["--folded-blocks"]:
                sys.exit(f"FAIL: {blocks} folded blocks, expected {opts['--folded-blocks']}")
        if "--predicted" in opts and r["predicted_time_ps"] != opts["--predicted"]:
            sys.exit(f"FAIL: predicted {r['predicted_time_ps']} ps, expected {opts['--predicted']}")
        for key, field in (("--site-samples", "samples"), ("--site-skipped", "skipped")):
            if key in opts and hosts == 1:
                got = [s[field] for s in r["sampling"]]
                if got != [opts[key]]:
                    sys.exit(f"FAIL: sampled site {field} {got}, expected [{opts[key]}]")
    if reports[1]["predicted_time_ps"] != reports[2]["predicted_time_ps"]:
        sys.exit("FAIL: the prediction depends on the host count: "
                 f"{reports[1]['predicted_time_ps']} != {reports[2]['predicted_time_ps']}")
    print(f"{name}: ok")


main()
