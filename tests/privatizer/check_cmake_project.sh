#!/usr/bin/env bash
# A CMake project configured with mpisimcc as its compiler builds and simulates.
# usage: check_cmake_project.sh <build/bin> <project dir>
set -euo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$src" -B "$work" -DCMAKE_C_COMPILER="$bin/mpisimcc" >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
MPISIM_CPU=off "$bin/mpisimrun" -np 5 "$work/counter_ring"
