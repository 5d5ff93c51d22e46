#!/bin/sh
# same_output.sh PATTERN COMMAND1 COMMAND2: runs both commands (with sh -c) and succeeds when
# each prints at least one line matching PATTERN (grep -E) and those lines are identical.
pattern=$1
a=$(sh -c "$2" 2>&1) || { echo "failed: $2"; echo "$a"; exit 1; }
b=$(sh -c "$3" 2>&1) || { echo "failed: $3"; echo "$b"; exit 1; }
la=$(echo "$a" | grep -E "$pattern")
lb=$(echo "$b" | grep -E "$pattern")
echo "first:  $la"
echo "second: $lb"
[ -n "$la" ] && [ "$la" = "$lb" ]
