#!/usr/bin/env bash
# Batch example: count a range of board sizes, verify each against OEIS, keep the CSV.
#   scripts/count-range.sh 1-17 results.csv [extra nqueens options...]
# Exits non-zero, loudly, if any count disagrees with the published value or the run fails.
set -euo pipefail
cd "$(dirname "$0")/.."

spec=${1:?usage: count-range.sh SPEC OUTPUT.csv [options]}
output=${2:?usage: count-range.sh SPEC OUTPUT.csv [options]}
shift 2
binary=${NQUEENS:-build/release/nqueens}
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
