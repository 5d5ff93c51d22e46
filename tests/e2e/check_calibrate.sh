#!/bin/sh
# mpisim-calibrate on this machine, then the same ping-pong simulated with the machine file it
# wrote: the simulation must agree with the calibrator's fitted curve to 0.1 % (mpisim implements
# the model the calibrator fitted), and so reproduce every measured point within the fit's own
# largest residual (at most 5 %) plus 0.2 %.
# usage: check_calibrate.sh MPIEXEC CALIBRATE MPISIMRUN PINGPONG WORKDIR
# Exit 77 (skipped) when the machine is too busy to measure: three calibrations in a row whose
# own fit misses a measured point by more than 5 %.
set -u
mpiexec=$1 calibrate=$2 run=$3 pingpong=$4 dir=$5
sizes=0,16,64,256,1KiB,4KiB,8KiB,16KiB,64KiB,128KiB,256KiB,1MiB
mkdir -p "$dir"
fit_ok=no
for attempt in 1 2 3; do
  # Four segments of lines for twelve sizes: the fit has to follow the curve, not interpolate.
  if ! "$mpiexec" -n 2 "$calibrate" --sizes "$sizes" --samples 9 --segments 4 \
      --output "$dir/test.machine" \
      --points "$dir/points.csv" > "$dir/calibrate.log" 2>&1; then
    cat "$dir/calibrate.log"
    echo "FAIL: mpisim-calibrate failed"
    exit 1
  fi
  max=$(sed -n 's/^residual error: rms .*, max \([0-9.]*\)%$/\1/p' "$dir/calibrate.log")
  if awk -v m="$max" 'BEGIN { exit !(m <= 5) }'; then
    fit_ok=yes
    break
  fi
  echo "attempt $attempt: the fit misses a measured point by $max% (a busy machine)"
done
cat "$dir/calibrate.log"
if [ "$fit_ok" != yes ]; then
  echo "SKIP: this machine is too busy for ping-pong times to follow any model within 5%"
  exit 77
fi

bytes=$(tail -n +2 "$dir/points.csv" | cut -d, -f1 | tr '\n' ' ')
# shellcheck disable=SC2086
if ! MPISIM_CPU=off "$run" -np 2 --machine "$dir/test.machine" "$pingpong" $bytes \
    > "$dir/simulated.txt" 2> "$dir/simulated.log"; then
  cat "$dir/simulated.log"
  echo "FAIL: the simulation failed"
  exit 1
fi
echo "bytes measured fitted simulated"
awk -F'[, ]' -v tol="$max" '
  BEGIN { tol = tol / 100 + 0.002 }
  NR == FNR { if (FNR > 1) { measured[$1] = $2; fitted[$1] = $3 } next }
  {
    m = measured[$1]; f = fitted[$1]; s = $2
    printf "%s %s %s %s\n", $1, m, f, s
    if (m == "") { print "FAIL: no measurement for " $1 " bytes"; bad = 1; next }
    if ((s - m) / m > tol || (m - s) / m > tol) {
      printf "FAIL: %s bytes: simulated %g s, measured %g s\n", $1, s, m; bad = 1
    }
    if ((s - f) / f > 0.001 || (f - s) / f > 0.001) {
      printf "FAIL: %s bytes: simulated %g s, fitted %g s\n", $1, s, f; bad = 1
    }
    n++
  }
  END { if (n != 12) { print "FAIL: " n " simulated sizes, expected 12"; bad = 1 } exit bad }
' "$dir/points.csv" "$dir/simulated.txt"
