#!/usr/bin/env bash
# Shards on one machine (or as a template for a pool of them): count N in K shards, P at a
# time, with xargs -P, then merge the shard files and verify the total against the OEIS.
#   scripts/xargs-shards.sh N K [P] [extra count options...]
#   scripts/xargs-shards.sh 17 8 2 --symmetry mirror
# Shard files and journals go to $OUT_DIR (default shards-nN-kK). Every shard keeps a
# checkpoint journal, so running the script again after a crash or Ctrl-C resumes the
# unfinished shards and answers the finished ones from their journals at once.
set -euo pipefail

usage="usage: xargs-shards.sh N K [P] [count options...]"
n=${1:?$usage}
k=${2:?$usage}
p=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
binary=${NQUEENS:-build/release/nqueens}
[ -x "$binary" ] || { echo "xargs-shards: $binary not built; set NQUEENS=path/to/nqueens" >&2; exit 2; }
dir=${OUT_DIR:-shards-n$n-k$k}
mkdir -p "$dir"

# P shards share the machine: give each its share of the cores rather than all of them.
threads=$(( $(nproc) / p > 0 ? $(nproc) / p : 1 ))

# xargs exits 123 if any shard failed; set -e then stops before the merge.
seq 1 "$k" | xargs -P "$p" -I{} \
  "$binary" count -n "$n" -t "$threads" --shard "{}/$k" \
    --checkpoint "$dir/shard-{}.journal" --output "$dir/shard-{}.json" "$@"

# merge refuses (exit 1, no total) unless the files hold every unit exactly once.
files=()
for i in $(seq 1 "$k"); do files+=("$dir/shard-$i.json"); done
"$binary" merge --verify "${files[@]}"
