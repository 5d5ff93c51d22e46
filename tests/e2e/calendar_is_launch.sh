#!/usr/bin/env bash
# MPISIM_EPOCH=auto with measured CPU: the ranks' real-time clocks start at the launch, one
# instant for every host process, and the report's settings line names it.
# usage: calendar_is_launch.sh <mpisimrun> <libc_time program>
set -euo pipefail
before=$(date -u +%s)
out=$("$1" -np 4 -hosts 2 "$2" 0 0 0 2>&1)
after=$(date -u +%s)
echo "$out"
start=$(sed -n 's/^libc_time: every rank started at \(.*\)$/\1/p' <<<"$out")
setting=$(sed -n 's/.*calendar from \([^ ]*\) (launch).*/\1/p' <<<"$out")
if [[ -z "$start" || "$start" != "$setting" ]]; then
  echo "the ranks' start '$start' is not the settings line's launch '$setting'"
  exit 1
fi
t=$(date -u -d "$start" +%s)
if ((t < before || t > after)); then
  echo "the calendar starts at $t, outside the run [$before, $after]"
  exit 1
fi
echo "the calendar starts at the launch"
