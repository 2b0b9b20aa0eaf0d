#!/usr/bin/env bash
# Thread-scaling sweep: writes a CSV of `nqueens bench` and, where python3 has matplotlib, its
# figures next to it, drawn by scripts/dev/plot-bench.py (time against N, speedup against threads).
#   scripts/dev/scaling.sh [SPEC] [OUT_PREFIX]     e.g. scripts/dev/scaling.sh 16,17 scaling
# Threads swept: 1, 2, 4, ... up to the number of hardware threads (and that number itself).
# Paths are relative to the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."

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

if ! python3 -c 'import matplotlib' 2>/dev/null; then
  echo "scaling: no plots: python3 has no matplotlib (apt-get install python3-matplotlib);" \
       "scripts/dev/plot-bench.py $prefix.csv draws them later" >&2
  exit 0
fi
python3 scripts/dev/plot-bench.py "$prefix.csv" --out "$(dirname "$prefix")" --name "$(basename "$prefix")" \
  --title "$(nproc) hardware threads"
