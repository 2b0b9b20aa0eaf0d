#!/usr/bin/env bash
# The measurements of docs/performance.md, all at one commit, in about a quarter of an hour on
# two quiet cores: every command of the page's tables in the page's order, each one's raw output
# in OUT (default docs/data/figures). Run it on a quiet machine; it refuses a dirty tree, whose
# commit would not name what was measured.
#
#   scripts/dev/performance-figures.sh [--build DIR] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."

build=build/release
out=docs/data/figures
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "performance-figures.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
nq=$build/nqueens
[ -x "$nq" ] || { echo "performance-figures.sh: no $nq: build the release preset first" >&2; exit 2; }
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "performance-figures.sh: the tree has changes: commit them, so that the figures name a commit" >&2
  exit 2
fi
mkdir -p "$out"
time_fields='%e %U %S %M'   # wall s, user s, system s, peak KiB

# The line of `/usr/bin/time -f "$time_fields"` for one command, whose own output is dropped.
timed() {
  local line
  line=$(mktemp)
  /usr/bin/time -f "$time_fields" -o "$line" "$@" >/dev/null
  cat "$line"
  rm -f "$line"
}

step() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

step "conditions"
{
  echo "commit $(git rev-parse --short HEAD)"
  echo "date $(date -u +%F)"
  echo "nproc $(nproc)"
  lscpu | grep 'Model name' || true
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$nq" version
} >"$out/conditions.txt"

step "time per N: bench, dfs and join, 1 and 2 threads"
{
  for n in 12 13 14 15 16 17; do
    "$nq" bench -n $n -t 1,2 --engines dfs,join --no-baseline -r 5 --format csv
  done
  "$nq" bench -n 18 -t 1,2 --engines dfs,join --no-baseline -r 3 --format csv
  "$nq" bench -n 19 -t 1,2 --engines join --no-baseline -r 3 --format csv
} | awk 'NR == 1 || !/^n,/' >"$out/bench.csv"

step "CPU time: three rounds of counts under /usr/bin/time"
{
  echo "round n engine threads wall_s user_s system_s peak_kib"
  for round in 1 2 3; do
    for n in 16 17 18; do for engine in dfs join; do for t in 1 2; do
      printf '%s %s %s %s ' $round $n $engine $t
      timed "$nq" count -n $n --engine $engine -t $t --no-progress
    done; done; done
  done
} >"$out/cpu.txt"

step "the engine choice: N = 8 to 17, one thread, 11 runs"
"$nq" bench -n 8-17 -t 1 --engines dfs,join --no-baseline -r 11 --format csv >"$out/bench-choice.csv"

step "the textbook baseline and the dfs engine's symmetry modes"
"$nq" bench -n 15,16 -t 1 --engines dfs,join -r 3 --format csv >"$out/bench-baseline.csv"
{
  for s in none mirror full; do
    "$nq" bench -n 16 -t 1 --engine dfs --symmetry $s --no-baseline -r 3 --format csv
  done
} | awk 'NR == 1 || !/^n,/' >"$out/bench-symmetry.csv"
for s in none mirror full; do
  "$nq" count -n 16 --engine dfs --symmetry $s -t 1 --format json --no-progress
done >"$out/symmetry-counts.jsonl"

step "N = 19 and 20: counts with their CPU time and peak memory"
{
  echo "n threads wall_s user_s system_s peak_kib"
  for n in 19 20; do for t in 2 1; do
    printf '%s %s ' $n $t
    timed "$nq" count -n $n --engine join -t $t --verify --no-progress
  done; done
} >"$out/counts.txt"

step "a range of N as batch scripts count it: count -n 1-18 -t 2, five runs"
{
  echo "run wall_s user_s system_s peak_kib"
  for i in 1 2 3 4 5; do
    printf '%s ' $i
    timed "$nq" count -n 1-18 -t 2 --no-progress
  done
} >"$out/range.txt"

step "where the join's time goes"
if [ -x "$build/bench/join_bench" ]; then
  "$build/bench/join_bench" 17 18 --no-dfs >"$out/join-bench.txt"
else
  echo "no $build/bench/join_bench: skipped" >&2
fi

step "plans of N = 17 to 20"
for n in 17 18 19 20; do
  /usr/bin/time -f "$time_fields" -o "$out/plan-$n.time" "$nq" plan -n $n --engine join -t 2 --format json >"$out/plan-$n.json"
done
for n in 16 17; do
  "$nq" plan -n $n --engine dfs -t 2 --format json >"$out/plan-dfs-$n.json"
done

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/conditions.txt"
step "done: $out"
