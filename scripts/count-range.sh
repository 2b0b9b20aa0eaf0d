#!/usr/bin/env bash
# Batch example: count a range of board sizes, verify each against OEIS, keep the CSV.
#   scripts/count-range.sh 1-17 results.csv [extra nqueens options...]
# Exits non-zero, loudly, if any count disagrees with the published value or the run fails.
# OUTPUT.csv and any paths in the options are taken from where you run it, as with any command;
# the program is $NQUEENS, or build/release/nqueens in the repository this script is in.
set -euo pipefail

spec=${1:?usage: count-range.sh SPEC OUTPUT.csv [options]}
output=${2:?usage: count-range.sh SPEC OUTPUT.csv [options]}
shift 2
# Found next to the script, without a cd: a cd would move the output and relative options too.
binary=${NQUEENS:-$(dirname "$0")/../build/release/nqueens}
[ -x "$binary" ] || { echo "count-range: $binary not built; run cmake --build --preset release" >&2; exit 2; }

status=0
"$binary" count -n "$spec" --verify --format csv "$@" >"$output.partial" || status=$?
case $status in
  0) mv "$output.partial" "$output"; echo "count-range: all of $spec verified; results in $output" >&2 ;;
  1) mv "$output.partial" "$output"
     echo "count-range: MISMATCH against OEIS; see the rows with verified=false in $output" >&2
     exit 1 ;;
  *) echo "count-range: nqueens failed with exit code $status; partial results in $output.partial" >&2
     exit "$status" ;;
esac
