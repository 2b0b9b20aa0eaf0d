#!/usr/bin/env bash
# Thread-scaling sweep: writes a CSV of `nqueens bench` and, where gnuplot is installed, a
# speedup plot next to it.
#   scripts/scaling.sh [SPEC] [OUT_PREFIX]     e.g. scripts/scaling.sh 16,17 scaling
# Threads swept: 1, 2, 4, ... up to the number of hardware threads (and that number itself).
set -euo pipefail
cd "$(dirname "$0")/.."

spec=${1:-16,17}
prefix=${2:-scaling}
binary=${NQUEENS:-build/release/nqueens}
[ -x "$binary" ] || { echo "scaling: $binary not built; run cmake --build --preset release" >&2; exit 2; }

cores=$(nproc)
threads=1
for ((t = 2; t < cores; t *= 2)); do threads+=",$t"; done
[ "$cores" -gt 1 ] && threads+=",$cores"

"$binary" bench -n "$spec" -t "$threads" --repeats "${REPEATS:-3}" --no-baseline --format csv >"$prefix.csv"
echo "scaling: wrote $prefix.csv (threads $threads)" >&2

if ! command -v gnuplot >/dev/null; then
  echo "scaling: gnuplot not installed (apt-get install gnuplot-nox) - no plot" >&2
  exit 0
fi
# Columns by name, so the plot survives new fields in the CSV.
header=$(head -1 "$prefix.csv" | tr ',' '\n')
col() { echo "$header" | grep -nx "$1" | cut -d: -f1; }
n_col=$(col n) t_col=$(col threads) s_col=$(col speedup_vs_1_thread)
gnuplot <<PLOT
set terminal pngcairo size 800,560
set output "$prefix.png"
set datafile separator ","
set title "nqueens: speedup over 1 thread"
set xlabel "threads"; set ylabel "speedup"
set key left top; set grid
plot for [n in "$(tail -n +2 "$prefix.csv" | cut -d, -f"$n_col" | sort -un | tr '\n' ' ')"] \
  "$prefix.csv" using (column($n_col) == n ? column($t_col) : 1/0):(column($s_col)) \
  with linespoints title "N = ".n, x with lines dashtype 2 title "ideal"
PLOT
echo "scaling: wrote $prefix.png" >&2
