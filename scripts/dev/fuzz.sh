#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ for a bounded time each, on their committed seed corpus
# (fuzz/corpus/<target>/) and regression inputs (fuzz/regressions/<target>/). Fails if any target
# crashes, trips a sanitizer, leaks, runs out of memory or hangs. docs/development.md says more.
#
#   scripts/dev/fuzz.sh [-t SECONDS] [-j JOBS] [--merge] [TARGET...]
#
#   -t SECONDS  time per target (default 10: the CI run; 600 for a real session)
#   -j JOBS     targets run at once (default 1)
#   --merge     afterwards, minimise the corpus plus what this run found back into fuzz/corpus/
#   TARGET      fuzz_n_spec, fuzz_shard_spec, fuzz_journal, fuzz_shard_file (default: all)
#
# Needs the fuzz build: cmake --preset fuzz && cmake --build --preset fuzz. New inputs go to
# build/fuzz/work/<target>/, logs to build/fuzz/logs/, a failing input to build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=10
jobs=1
merge=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -t) seconds="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    --merge) merge=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_n_spec fuzz_shard_spec fuzz_journal fuzz_shard_file)

bin=build/fuzz/fuzz
mkdir -p build/fuzz/work build/fuzz/logs build/fuzz/artifacts

run_one() {
  local target="$1" log="build/fuzz/logs/$1.log"
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="build/fuzz/artifacts/$target-")
  [ -f "fuzz/$target.dict" ] && args+=(-dict="fuzz/$target.dict")
  local dirs=("build/fuzz/work/$target" "fuzz/corpus/$target")
  [ -d "fuzz/regressions/$target" ] && dirs+=("fuzz/regressions/$target")
  mkdir -p "build/fuzz/work/$target"
  # The first directory takes what the run finds; the committed ones are only read.
  "$bin/$target" "${args[@]}" "${dirs[@]}" >"$log" 2>&1
}

summary() {
  local target="$1" rc="$2" log="build/fuzz/logs/$1.log"
  local done_line execs
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log" | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz: $target ok: ${execs:-?} runs in ${seconds}s; ${done_line#*DONE }"
  else
    echo "fuzz: $target FAILED (exit $rc); the end of $log:"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written|Base64' "$log" | head -n 20 || true
    tail -n 30 "$log"
  fi
}

for target in "${targets[@]}"; do
  [ -x "$bin/$target" ] || { echo "fuzz.sh: $bin/$target is not built (cmake --build --preset fuzz)" >&2; exit 2; }
done

failed=0
pending=("${targets[@]}")
while [ ${#pending[@]} -gt 0 ]; do
  batch=("${pending[@]:0:$jobs}")
  pending=("${pending[@]:$jobs}")
  pids=()
  for target in "${batch[@]}"; do
    run_one "$target" &
    pids+=($!)
  done
  for i in "${!batch[@]}"; do
    rc=0
    wait "${pids[$i]}" || rc=$?
    summary "${batch[$i]}" "$rc"
    [ "$rc" -eq 0 ] || failed=1
  done
done

if [ "$merge" -eq 1 ] && [ "$failed" -eq 0 ]; then
  for target in "${targets[@]}"; do
    fresh="build/fuzz/merged/$target"
    rm -rf "$fresh" && mkdir -p "$fresh"
    "$bin/$target" -merge=1 "$fresh" "fuzz/corpus/$target" "build/fuzz/work/$target" \
      >"build/fuzz/logs/$target.merge.log" 2>&1
    rm -rf "fuzz/corpus/$target" && mv "$fresh" "fuzz/corpus/$target"
    echo "fuzz: $target corpus: $(find "fuzz/corpus/$target" -type f | wc -l) files," \
         "$(du -sk "fuzz/corpus/$target" | cut -f1) KiB"
  done
fi
exit "$failed"
