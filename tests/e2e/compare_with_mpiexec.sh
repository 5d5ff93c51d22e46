#!/usr/bin/env bash
# A program simulated on 1 and on 2 host processes prints exactly the lines (sorted: ranks
# print in another order) that MPICH's mpicc + mpiexec print for the same source.
# usage: compare_with_mpiexec.sh <build/bin> <ranks> <simulated program> <source> [args...]
# NATIVE_FLAGS: more compiler options for the native build (the simulated one was built so).
# STDIN: the file every run reads as its standard input (default: none, /dev/null).
set -euo pipefail
bin=$1 np=$2 prog=$3 src=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=mpicc
[[ "$src" == *.cpp ]] && cc=mpicxx
[[ "$src" == *.f90 ]] && cc=mpif90
"$cc" -O1 ${NATIVE_FLAGS:-} "$src" -o "$work/native" -lm
in=${STDIN:-/dev/null}
native=$(mpiexec -n "$np" "$work/native" "$@" <"$in" | sort)
one=$(MPISIM_CPU=off "$bin/mpisimrun" -np "$np" "$prog" "$@" 2>/dev/null <"$in" | sort)
two=$(MPISIM_CPU=off "$bin/mpisimrun" -np "$np" -hosts 2 "$prog" "$@" 2>/dev/null <"$in" | sort)
echo "---- mpiexec -n $np:"
echo "$native"
echo "---- simulated, 1 host process:"
echo "$one"
echo "---- simulated, 2 host processes:"
echo "$two"
[[ -n "$native" && "$one" == "$native" && "$two" == "$native" ]] && echo "all three agree"
