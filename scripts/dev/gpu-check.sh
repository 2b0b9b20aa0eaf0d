#!/usr/bin/env bash
# The gpu engine's device check, on a machine with an NVIDIA GPU: every result goes to one folder.
#
#   scripts/dev/gpu-check.sh [--build DIR] [--out DIR] [--gpu-upto N] [--cpu-upto N] [--threads T]
#                            [--sample-upto N] [--cpu-sample-upto N] [--shards K]
#
#   --build DIR     where nqueens and tests/nqueens_tests are (default build/release)
#   --out DIR       the results folder (default gpu-check-<date>)
#   --gpu-upto N    the largest N timed on the GPU (default 23)
#   --cpu-upto N    the largest N timed on the CPU join for comparison (default 21; N = 22 takes
#                   minutes even on 16 cores)
#   --threads T     host threads for both engines (default: every core, nproc)
#   --sample-upto N past --cpu-upto, up to N: one shard of --shards timed on the GPU, for an
#                   estimate of the whole (shards carry about equal estimated work; default none)
#   --cpu-sample-upto N  the same shard on the CPU join, past --cpu-upto up to N (default none)
#   --shards K      the shards of a sampled N (default 16)
#   --card NAME     the device model's card to price each timed N on (bench/gpu_model --card;
#                   default: the first of the model's cards whose name the device's contains)
#
# Steps (each one logged to <out>/<step>.log, a summary line per step in <out>/summary.txt):
#   facts      nvidia-smi, `nqueens version`
#   unit       the device tests of the unit suite (every unit of N = 4..16 against the join)
#   verify     count -n 4-21 --engine gpu --verify
#   units      every unit of N = 16..19, on the GPU and on the CPU join, compared from journals
#   interrupt  SIGTERM 3 s into a GPU count of N = 21 with a journal: exit 143 within 2 s, then
#              the same command resumes and --verify agrees
#   timing     N = 20.. on both engines, the CPU up to --cpu-upto, the GPU up to --gpu-upto;
#              shard 1 of K of each larger N up to --sample-upto on the GPU (--cpu-sample-upto
#              on the join); beside each GPU timing, the device model's prediction
#              (bench/gpu_model N --seconds 20 --device-built: a sample of the engine's batches,
#              halves built on the device, replayed on one host thread; a model, not a measurement)
#   sanitizer  compute-sanitizer (memcheck) on N = 12
# The folder ends as <out>.tar.gz beside it too.
set -uo pipefail
cd "$(dirname "$0")/../.."

build=build/release
out="gpu-check-$(date +%Y%m%d-%H%M%S)"
gpu_upto=23
cpu_upto=21
threads=$(nproc)
sample_upto=0
cpu_sample_upto=0
shards=16
card=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --gpu-upto) gpu_upto="$2"; shift 2 ;;
    --cpu-upto) cpu_upto="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --sample-upto) sample_upto="$2"; shift 2 ;;
    --cpu-sample-upto) cpu_sample_upto="$2"; shift 2 ;;
    --shards) shards="$2"; shift 2 ;;
    --card) card="$2"; shift 2 ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    *) echo "gpu-check.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
nq="$build/nqueens"
[ -x "$nq" ] || { echo "gpu-check.sh: no $nq: build first (cmake --preset release)" >&2; exit 2; }
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
failed=0

# step NAME SECONDS COMMAND...: runs the command under a time limit, its output in NAME.log.
step() {
  local name="$1" limit="$2"; shift 2
  local start end rc
  start=$(date +%s.%N)
  if [ "$(type -t "$1")" = function ]; then
    "$@" >"$out/$name.log" 2>&1
  else
    timeout --signal=INT --kill-after=10 "$limit" "$@" >"$out/$name.log" 2>&1
  fi
  rc=$?
  end=$(date +%s.%N)
  printf '%-28s rc=%-3s %8.1f s\n' "$name" "$rc" "$(awk "BEGIN { print $end - $start }")" | tee -a "$summary"
  [ "$rc" -eq 0 ] || failed=1
  return "$rc"
}

# The per-unit records of a journal without their times and checksums, by unit id.
unit_counts() { awk '$1 == "U" { $NF = ""; $(NF - 1) = ""; print }' "$1" | sort -n -k2; }

step facts-nvidia-smi 30 nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap,clocks.max.sm \
  --format=csv
step facts-version 30 "$nq" version
step unit 180 "$build/tests/nqueens_tests" --gtest_filter='Gpu*'
step verify 240 "$nq" count -n 4-21 --engine gpu --verify -t "$threads"

# A stop request ends a GPU run between batches, with every finished unit in the journal.
interrupt() {
  local journal="$out/interrupt.journal" pid start rc
  rm -f "$journal"
  "$nq" count -n 21 --engine gpu -t "$threads" --checkpoint "$journal" &
  pid=$!
  sleep 3
  start=$(date +%s.%N)
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  echo "exit $rc, $(awk "BEGIN { print $(date +%s.%N) - $start }") s after SIGTERM;" \
    "$(grep -c '^U' "$journal") units saved"
  [ "$rc" -eq 143 ] || return 1
  "$nq" count -n 21 --engine gpu -t "$threads" --checkpoint "$journal" --verify
}
step interrupt 240 interrupt

for n in 16 17 18 19; do
  rm -f "$out/gpu-$n.journal" "$out/join-$n.journal"
  step "units-gpu-$n" 300 "$nq" count -n "$n" --engine gpu -t "$threads" --checkpoint "$out/gpu-$n.journal"
  step "units-join-$n" 300 "$nq" count -n "$n" --engine join -t "$threads" --checkpoint "$out/join-$n.journal"
  if cmp -s <(unit_counts "$out/gpu-$n.journal") <(unit_counts "$out/join-$n.journal"); then
    echo "units-compare-$n             every unit equal ($(unit_counts "$out/gpu-$n.journal" | wc -l) units)" | tee -a "$summary"
  else
    echo "units-compare-$n             UNITS DIFFER" | tee -a "$summary"
    failed=1
  fi
  rm -f "$out/gpu-$n.journal" "$out/join-$n.journal"
done

model="$build/bench/gpu_model"
if [ -z "$card" ] && command -v nvidia-smi >/dev/null; then
  device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  for known in H200 H100 A100 L40S "RTX 4090" "RTX 5090" B200; do
    case "$device" in *"$known"*) card="$known"; break ;; esac
  done
fi

for n in $(seq 20 "$gpu_upto"); do
  step "timing-gpu-$n" 900 "$nq" count -n "$n" --engine gpu --verify -t "$threads" --format csv
  if [ -x "$model" ] && [ -n "$card" ]; then
    "$model" "$n" --card "$card" --seconds 20 --device-built >"$out/model-$n.log" 2>&1
    echo "model-$n                      $(grep '^predicted:' "$out/model-$n.log")" | tee -a "$summary"
  fi
  if [ "$n" -le "$cpu_upto" ]; then
    step "timing-join-$n" 900 "$nq" count -n "$n" --engine join --verify -t "$threads" --format csv
  fi
done

for n in $(seq $((cpu_upto + 1)) "$(( sample_upto > cpu_sample_upto ? sample_upto : cpu_sample_upto ))"); do
  for engine in gpu join; do
    [ "$engine" = gpu ] && [ "$n" -gt "$sample_upto" ] && continue
    [ "$engine" = join ] && [ "$n" -gt "$cpu_sample_upto" ] && continue
    step "sample-$engine-$n-shard-1-of-$shards" 900 "$nq" count -n "$n" --engine "$engine" -t "$threads" \
      --shard "1/$shards" --output "$out/$engine-$n-shard-1-of-$shards.json"
  done
done

if command -v compute-sanitizer >/dev/null; then
  step sanitizer 300 compute-sanitizer --tool memcheck --error-exitcode 86 "$nq" count -n 12 --engine gpu -t 2
else
  echo "sanitizer                    skipped: compute-sanitizer is not on the PATH" | tee -a "$summary"
fi

echo "results in $out" | tee -a "$summary"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
exit "$failed"
