#!/usr/bin/env bash
# MPISIM_REPORT writes the report as JSON: it parses, and its predicted time is the analytic one
# (a 4-rank ring, 3 rounds, cluster preset: 12 hops of 1 900 334 ps).
set -euo pipefail
run="$1" prog="$2" dir="$3"
json="$dir/ring_report.json"
rm -f "$json"
MPISIM_CPU=off MPISIM_REPORT="$json" "$run" -np 4 "$prog" 3 >/dev/null 2>&1
python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["outcome"] == "finished", r["outcome"]
assert r["predicted_time_ps"] == 12 * 1900334, r["predicted_time_ps"]
assert len(r["ranks"]) == 4
assert sum(x["msgs_sent"] for x in r["ranks"]) == 12
assert r["settings"]["variables"]["MPISIM_CPU"] == "off"
print("json report ok")
PY
