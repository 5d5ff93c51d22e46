#!/usr/bin/env bash
# The three-file C program of the privatization matrix, built from its plain Makefile with
# MPICC = mpisimcc and simulated with 64 ranks; then built with MPICH's mpicc and run under
# mpiexec with 4 processes: the 4-rank simulation prints exactly what the real run prints.
# usage: check_makefile.sh <build/bin> <source dir>
set -euo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.c "$src"/*.h "$src"/Makefile "$work"
cd "$work"
PATH="$bin:$PATH" make -s
sim64=$(MPISIM_CPU=off "$bin/mpisimrun" -np 64 ./c_matrix 2>/dev/null)
echo "simulated, 64 ranks: $sim64"
grep -qx "c_matrix: 64 ranks, 21 checks per rank, 0 failures" <<<"$sim64"
sim4=$(MPISIM_CPU=off "$bin/mpisimrun" -np 4 ./c_matrix 2>/dev/null)
make -s clean
make -s MPICC=mpicc
native=$(mpiexec -n 4 ./c_matrix)
echo "simulated, 4 ranks:  $sim4"
echo "mpiexec -n 4:        $native"
[[ "$sim4" == "$native" ]]
grep -qx "c_matrix: 4 ranks, 21 checks per rank, 0 failures" <<<"$native"
