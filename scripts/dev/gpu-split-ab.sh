#!/usr/bin/env bash
# The gpu engine's slot split against none, same build, same machine, one invocation: counts of
# N = 20 and shards of N = 21 and 22 with NQUEENS_GPU_SPLIT_BITS=0 (no split) and the default,
# the CPU join beside them, then whole counts of N = 21 and 22 with the default.
#
#   scripts/dev/gpu-split-ab.sh [--build DIR] [--out DIR] [--threads T]
#
# A summary line per command in <out>/summary.txt, its output in <out>/<name>.log.
set -uo pipefail
cd "$(dirname "$0")/../.."

build=build/release
out="gpu-split-ab-$(date +%Y%m%d-%H%M%S)"
threads=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "gpu-split-ab.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
nq="$build/nqueens"
[ -x "$nq" ] || { echo "gpu-split-ab.sh: no $nq: build first (cmake --preset release)" >&2; exit 2; }
mkdir -p "$out"
failed=0

# timed NAME COMMAND...: runs the command, its output in NAME.log and a line in summary.txt.
timed() {
  local name="$1" start rc
  shift
  start=$(date +%s.%N)
  "$@" >"$out/$name.log" 2>&1
  rc=$?
  printf '%-28s rc=%-3s %8.2f s\n' "$name" "$rc" "$(awk "BEGIN { print $(date +%s.%N) - $start }")" |
    tee -a "$out/summary.txt"
  [ "$rc" -eq 0 ] || failed=1
}

timed unit "$build/tests/nqueens_tests" --gtest_filter='Gpu*'
timed verify-4-20 "$nq" count -n 4-20 --engine gpu --verify -t "$threads"
for bits in 0 8; do
  export NQUEENS_GPU_SPLIT_BITS=$bits
  timed "n20-bits$bits" "$nq" count -n 20 --engine gpu --verify -t "$threads" --format csv
  timed "n21-shard1of8-bits$bits" "$nq" count -n 21 --engine gpu -t "$threads" --shard 1/8 \
    --output "$out/n21-shard1of8-bits$bits.json"
  timed "n22-shard1of16-bits$bits" "$nq" count -n 22 --engine gpu -t "$threads" --shard 1/16 \
    --output "$out/n22-shard1of16-bits$bits.json"
done
unset NQUEENS_GPU_SPLIT_BITS
timed n20-join "$nq" count -n 20 --engine join --verify -t "$threads" --format csv
timed n21-shard1of8-join "$nq" count -n 21 --engine join -t "$threads" --shard 1/8 \
  --output "$out/n21-shard1of8-join.json"
timed n21 "$nq" count -n 21 --engine gpu --verify -t "$threads" --format csv
timed n22 "$nq" count -n 22 --engine gpu --verify -t "$threads" --format csv
exit "$failed"
