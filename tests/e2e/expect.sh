#!/usr/bin/env bash
# Runs a command and checks its exit code and output (stdout and stderr together).
# usage: expect.sh EXIT_CODE [-m REGEX]... [-x REGEX]... -- command args...
#   -m REGEX  the output must match (grep -E)
#   -x REGEX  the output must not match
set -uo pipefail
want="$1"
shift
must=() mustnot=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
  -m) must+=("$2"); shift 2 ;;
  -x) mustnot+=("$2"); shift 2 ;;
  *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shift
out="$(timeout 300 "$@" 2>&1)"
got=$?
status=0
if [ "$got" != "$want" ]; then
  echo "FAIL: exit code $got, expected $want"
  status=1
fi
for re in "${must[@]}"; do
  grep -Eq -- "$re" <<<"$out" || { echo "FAIL: output does not match: $re"; status=1; }
done
for re in "${mustnot[@]}"; do
  grep -Eq -- "$re" <<<"$out" && { echo "FAIL: output matches: $re"; status=1; }
done
[ $status -eq 0 ] || { echo "---- output of: $* ----"; echo "$out" | tail -40; }
exit $status
