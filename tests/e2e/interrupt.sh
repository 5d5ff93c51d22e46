#!/usr/bin/env bash
# Runs a command, sends it SIG after SECONDS (time enough to start and install its handlers),
# and exits with the command's exit code.
# usage: interrupt.sh SIG SECONDS command args...
sig="$1" after="$2"
shift 2
"$@" &
pid=$!
sleep "$after"
kill -"$sig" "$pid"
wait "$pid"
