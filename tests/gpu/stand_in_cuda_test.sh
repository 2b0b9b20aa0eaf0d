#!/usr/bin/env bash
# The gpu engine's device path (device_matcher.cpp: slices and recipes sent, halves built and
# sorted by the build kernel, matched; buffers, batches, launches, errors) through the tests'
# stand-in CUDA driver (tests/support/stand_in_cuda), which runs the kernels' host form:
# counts verified against the OEIS, two devices, the device plan, the quarter table out of device
# memory (left to each thread's room), out of memory at each other allocation, a launch
# failure, a SIGTERM in the middle of a batch, then resumed, and a gpu shard merged with a join one.
#   tests/gpu/stand_in_cuda_test.sh path/to/nqueens path/to/folder/of/libcuda.so.1
set -euo pipefail

binary=$1
export LD_LIBRARY_PATH="$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-stand-in.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAILED: $*" >&2; exit 1; }

"$binary" version | grep -q "gpu devices:  Stand-in GPU 0, .*compute capability 9.0.*runs the kernels. host form" ||
  fail "version does not see the stand-in device: $("$binary" version | grep 'gpu devices')"

NQUEENS_STAND_IN_LAUNCHES="$work/launches" "$binary" count -n 4-16 --engine gpu --verify --threads 2 \
  >"$work/out" 2>"$work/err" || fail "count -n 4-16 --engine gpu --verify exited $?: $(tail -3 "$work/err")"
grep -q '14772512' "$work/out" || fail "no count of N=16 in: $(cat "$work/out")"
# The device built the halves it matched: each batch a count pass and a write pass of the build
# kernel before its matching.
sorts=$(grep -c '^nq_sort_sides$' "$work/launches" || true)
matches=$(grep -c '^nq_match$' "$work/launches" || true)
[[ $matches -gt 0 && $sorts -ge $((2 * matches)) ]] ||
  fail "$sorts build kernel launches for $matches matching ones: the halves were not built on the device"
# The device holds the quarter table's group index and makes each batch's pairings from the
# sides' descriptions: a pairings launch before each count pass (each batch's first build launch).
pairings=$(grep -c '^nq_make_pairings$' "$work/launches" || true)
[[ $pairings -gt 0 && $pairings -le $sorts && $sorts -le $((2 * pairings)) ]] ||
  fail "$pairings pairings kernel launches for $sorts build kernel launches: the pairings were sent"
# The device chooses each batch's splits from samples of its sides before the count pass: a
# choosing launch per pairings launch (a batch whose row sets are all too small for a split
# still launches it, and each of its threads returns at once).
chosen=$(grep -c '^nq_choose_splits$' "$work/launches" || true)
[[ $chosen -eq $pairings ]] || fail "$chosen split-choosing launches for $pairings pairings launches"
# The device cuts each batch's tiles from its jobs: a tiles launch before each matching launch.
tile_cuts=$(grep -c '^nq_make_tiles$' "$work/launches" || true)
[[ $tile_cuts -eq $matches ]] || fail "$tile_cuts tiles kernel launches for $matches matching ones: the tiles were sent"
# The device plans each batch from its counters (batch_plan.hpp): a plan, a placing and a sum
# launch per matching one at least (a batch without tiles is planned but not matched), and back
# over the bus only each plan's totals (24 bytes) and each row set's pairs and halves (16 bytes
# each), never the counters.
for kernel in nq_plan_row_sets nq_place_row_sets nq_write_plans nq_sum_row_sets; do
  launched=$(grep -c "^$kernel\$" "$work/launches" || true)
  [[ $launched -ge $matches ]] || fail "$launched $kernel launches for $matches matching ones"
done
placed=$(grep -c '^nq_place_row_sets$' "$work/launches" || true)
totals=$(grep -c '^back 24$' "$work/launches" || true)
[[ $totals -eq $placed ]] || fail "$totals plan totals back for $placed plans"
odd=$(awk '$1 == "back" && $2 != 24 && $2 % 16 != 0' "$work/launches" | head -1)
[[ -z $odd ]] || fail "a copy back that is neither a plan's totals nor row sets' results: $odd"
# What goes over the bus for N = 16 is a fraction of its halves' keys (5,627,030 halves, 45 MB of
# keys): slices, recipes and row sets.
NQUEENS_STAND_IN_LAUNCHES="$work/n16" "$binary" count -n 16 --engine gpu --threads 1 >/dev/null 2>"$work/err" ||
  fail "count -n 16 --engine gpu exited $?: $(tail -3 "$work/err")"
sent=$(awk '$1 == "copy" { bytes += $2 } END { print bytes + 0 }' "$work/n16")
[[ $sent -gt 0 && $sent -lt $((5627030 * 8 / 4)) ]] || fail "$sent bytes sent to the device for N = 16"
# The device holds the quarter table once for its matchers: three counting threads send what one
# sends (the same batches' recipes, and each slice once), where a slice per thread would add
# each thread's copy.
NQUEENS_STAND_IN_LAUNCHES="$work/n16t3" "$binary" count -n 16 --engine gpu --threads 3 >/dev/null 2>"$work/err" ||
  fail "count -n 16 --engine gpu --threads 3 exited $?: $(tail -3 "$work/err")"
sent3=$(awk '$1 == "copy" { bytes += $2 } END { print bytes + 0 }' "$work/n16t3")
[[ $sent3 -eq $sent ]] || fail "$sent3 bytes sent to the device by three threads, $sent by one"

NQUEENS_STAND_IN_DEVICES=2 "$binary" count -n 13-14 --engine gpu --verify --threads 3 >/dev/null 2>"$work/err" ||
  fail "two devices, three threads: exited $?: $(tail -3 "$work/err")"

# The device plan counts the quarter table once per device, not a slice room per thread: sixteen
# threads fit the stand-in's 16 GiB (a 512 MiB room each would need 8.4 GiB, over half of it).
"$binary" count -n 12 --engine gpu --threads 16 --verify --log-level info >/dev/null 2>"$work/err" ||
  fail "sixteen threads on one device exited $?: $(tail -3 "$work/err")"
grep -q "on each device up to .*the quarter table's entries once" "$work/err" || fail "the device plan: $(cat "$work/err")"
grep -q 'device 0: the quarter table held once on the device' "$work/err" || fail "where the table lies: $(cat "$work/err")"

# A device that cannot allocate the quarter table (the run's first device allocation) leaves it to
# the threads' own rooms, says so, and counts the same: three threads each send the slices they
# read, more than the one shared table took.
NQUEENS_STAND_IN_FAIL=alloc:1 NQUEENS_STAND_IN_LAUNCHES="$work/n16oom" "$binary" count -n 16 --engine gpu \
  --threads 3 --verify --log-level info >"$work/out" 2>"$work/err" ||
  fail "the quarter table out of device memory: exited $?: $(tail -3 "$work/err")"
grep -q '14772512' "$work/out" || fail "no count of N=16 in: $(cat "$work/out")"
grep -q 'device 0: the quarter table not allocated (out of device memory): each thread keeps its own slices' \
  "$work/err" || fail "the fallback is not logged: $(cat "$work/err")"
sent_oom=$(awk '$1 == "copy" { bytes += $2 } END { print bytes + 0 }' "$work/n16oom")
[[ $sent_oom -gt $sent ]] || fail "$sent_oom bytes sent by three threads' own rooms, $sent by one shared table"
# Without the shared table there is no group index on the device: the pairings are sent.
! grep -q '^nq_make_pairings$' "$work/n16oom" || fail "pairings made on the device without its group index"

# Each allocation in turn fails, device and pinned: a one-line error naming it, exit 3; the
# allocations run out before the count does, and then it succeeds. The first two device
# allocations, the quarter table's entries and group index, fall back (above).
for what in alloc pinned; do
  failed=0
  first=1
  [[ $what == alloc ]] && first=3
  for call in $(seq "$first" 12); do
    status=0
    NQUEENS_STAND_IN_FAIL=$what:$call "$binary" count -n 12 --engine gpu --threads 1 >/dev/null 2>"$work/err" ||
      status=$?
    [[ $status -eq 0 ]] && break
    [[ $status -eq 3 ]] || fail "$what:$call exited $status, not 3: $(cat "$work/err")"
    grep -q 'out of memory' "$work/err" || fail "$what:$call does not say out of memory: $(cat "$work/err")"
    [[ $(grep -c . "$work/err") -le 2 ]] || fail "$what:$call: more than a line or two: $(cat "$work/err")"
    failed=$((failed + 1))
  done
  [[ $status -eq 0 ]] || fail "$what: every one of 12 allocations failed the run"
  [[ $failed -ge 2 ]] || fail "$what: only $failed allocations could fail a run"
done

status=0
NQUEENS_STAND_IN_FAIL=launch:2 "$binary" count -n 12 --engine gpu >/dev/null 2>"$work/err" || status=$?
[[ $status -eq 3 ]] || fail "a launch failure exited $status, not 3: $(cat "$work/err")"
grep -q 'launch' "$work/err" || fail "a launch failure is not named: $(cat "$work/err")"

# SIGTERM while a batch is being counted: the run stops with 143 and a journal, and resumes to
# the verified total.
status=0
NQUEENS_STAND_IN_SIGTERM_AT=3 "$binary" count -n 15 --engine gpu --threads 1 --checkpoint "$work/n15.journal" \
  >/dev/null 2>"$work/err" || status=$?
[[ $status -eq 143 ]] || fail "SIGTERM in a batch exited $status, not 143: $(cat "$work/err")"
[[ -s "$work/n15.journal" ]] || fail "no journal after SIGTERM"
"$binary" count -n 15 --engine gpu --threads 1 --checkpoint "$work/n15.journal" --verify >"$work/out" 2>"$work/err" ||
  fail "the resumed run exited $?: $(tail -3 "$work/err")"
grep -q '2279184' "$work/out" || fail "the resumed run's total: $(cat "$work/out")"

# A campaign of two engines that share units: shard 1/2 of N = 13 counted by the join, 2/2 by the
# gpu engine through the driver. merge takes them as one run, verifies it, says which engine
# counted how many units, and writes the subtotals a run of the join alone writes, byte for byte.
# Without a driver, check reads the gpu shard with the join's units and recounts it by the
# independent path.
"$binary" count -n 13 --engine join --shard 1/2 --output "$work/join-1.json" 2>/dev/null
"$binary" count -n 13 --engine join --shard 2/2 --output "$work/join-2.json" 2>/dev/null
"$binary" count -n 13 --engine gpu --shard 2/2 --threads 2 --output "$work/gpu-2.json" 2>"$work/err" ||
  fail "the gpu shard exited $?: $(tail -3 "$work/err")"
grep -q '"engine":"gpu"' "$work/gpu-2.json" || fail "the gpu shard's header: $(head -c 200 "$work/gpu-2.json")"
"$binary" merge "$work/join-1.json" "$work/gpu-2.json" --verify --format json --subtotals "$work/mixed.subtotals" \
  >"$work/out" 2>"$work/err" || fail "merge of join and gpu shards exited $?: $(tail -3 "$work/err")"
grep -q '"verified":true' "$work/out" || fail "the mixed merge is not verified: $(cat "$work/out")"
join_units=$(grep -c '"id":' "$work/join-1.json")
gpu_units=$(grep -c '"id":' "$work/gpu-2.json")
grep -q "\"units_by_engine\":{\"gpu\":$gpu_units,\"join\":$join_units}" "$work/out" ||
  fail "the mixed merge does not say which engine counted what: $(cat "$work/out")"
"$binary" merge "$work/join-1.json" "$work/join-2.json" --subtotals "$work/join.subtotals" >/dev/null 2>&1
cmp -s "$work/mixed.subtotals" "$work/join.subtotals" || fail "a gpu shard changes the subtotals file"
LD_LIBRARY_PATH= "$binary" check --recount 1000 --by independent "$work/gpu-2.json" >"$work/out" 2>"$work/err" ||
  fail "check --by independent of the gpu shard without a driver exited $?: $(cat "$work/out" "$work/err")"
grep -q "recount: $gpu_units of $gpu_units units recounted .*: all equal" "$work/out" || fail "the recount: $(cat "$work/out")"
echo ok
