#!/usr/bin/env bash
# scripts/slurm-shards.sh on a real Slurm: a one-node cluster of Debian's slurmctld, slurmd and
# munged started in a temporary folder (tests/scripts/one_node_slurm.sh), N = 17 in 4 shards of
# the dfs engine (count options given through the script), one core each:
#   - shard 3 fails for good (a journal of another run is in its place): it is not requeued, the
#     merge job is cancelled, and its log ends with the command that runs it again;
#   - shard 1 is held mid-count, its time limit is shortened so that Slurm's warning signal
#     (--signal=TERM@GRACE) is due, and the SIGTERM Slurm sends reaches it: it saves its units,
#     exits 143, requeues itself and the requeued task resumes from its journal;
#   - the cause of shard 3's failure removed, the command from its log, pasted, runs it again and
#     submits a new merge, which merges the four shard files with --verify: 95815104.
# Every daemon it started is stopped by its pid at the end. Exits 77 (skipped) with the reason
# where the daemons cannot start (no Slurm installed, not root).
#   tests/scripts/slurm_cluster_test.sh path/to/nqueens path/to/slurm-shards.sh [TRANSCRIPT]
# TRANSCRIPT: where to write what a user of the script sees (docs/cluster.md quotes it).
set -euo pipefail

binary=$(realpath "$1")
script=$(realpath "$2")
transcript_out=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=one_node_slurm.sh
source "$here/one_node_slurm.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-slurm-cluster.XXXXXX")
trap 'stop_slurm; rm -rf "$work"' EXIT
cd "$work"

fail() {
  echo "FAILED: $*" >&2
  for log in run/*.log cluster/slurmctld.log; do
    [[ -f "$log" ]] && { echo "--- $log:" >&2; tail -n 30 "$log" >&2; }
  done
  exit 1
}
expect_line() {  # expect_line FILE PATTERN: some line of FILE matches the extended regex
  grep -Eq -- "$2" "$1" || fail "no line of $1 matches '$2': $(cat "$1")"
}
wait_until() {  # wait_until SECONDS WHAT COMMAND...: polls COMMAND every 0.1 s
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq $((seconds * 10))); do
    "$@" && return 0
    sleep 0.1
  done
  fail "after $seconds s, still not $what"
}
# What a user sees, for the transcript: "$ command" lines and what they print.
shown() {
  echo "\$ $1" >>transcript.txt
  shift
  "$@" 2>&1 | tee -a transcript.txt
}

status=0
start_slurm "$work/cluster" 2 >start.txt 2>&1 || status=$?
if ((status == 77)); then
  echo "SKIPPED: no one-node Slurm cluster here: $(cat start.txt)"
  exit 77
fi
((status == 0)) || fail "the cluster did not start: $(cat start.txt)"
start_seconds=$SECONDS

# Shard 3 will find a journal of another run (N = 8) where its own should be, and stop with exit 2.
mkdir -p run
"$binary" count -n 8 --checkpoint run/shard-3.journal >/dev/null

shown "N=17 K=4 CPUS=1 TIME=10 GRACE=60 MEMORY=256M OUT_DIR=run slurm-shards.sh --engine dfs --log-level info" \
  env N=17 K=4 CPUS=1 TIME=10 GRACE=60 MEMORY=256M OUT_DIR=run NQUEENS="$binary" "$script" --engine dfs \
  --log-level info >submit.txt
job=$(sed -n 's/^submitted shards 1-4 of 4 as job \([0-9]*\) .*/\1/p' submit.txt)
merge=$(sed -n 's/^submitted the merge as job \([0-9]*\):.*/\1/p' submit.txt)
[[ -n "$job" && -n "$merge" ]] || fail "the submission did not name its jobs: $(cat submit.txt)"

# ---- shard 1: held mid-count, then Slurm's time-limit signal -----------------------------------
# Held (SIGSTOP) once its journal holds finished units, so that the signal finds it counting however
# fast this machine is; the time limit cut to 1 minute makes the warning 60 s before it due at once,
# and slurmctld sends it at its next time-limit check (every 30 s). slurmstepd sends SIGCONT with
# the signal, so the held count wakes to its SIGTERM, saves its units and exits 143.
journal_has_units() { [[ $({ wc -l <run/shard-1.journal; } 2>/dev/null || echo 0) -ge 3 ]]; }
wait_until 60 "counting shard 1" journal_has_units
count_pid=$(pgrep -f -- "^$binary count -n 17 .*--checkpoint $work/run/shard-1.journal" || true)
[[ -n "$count_pid" ]] || fail "shard 1 finished before it could be held: no count process"
kill -STOP "$count_pid"
scontrol update JobId="${job}_1" TimeLimit=1
count_ended() { ! kill -0 "$count_pid" 2>/dev/null; }
wait_until 45 "shard 1 stopped by the SIGTERM of its time limit" count_ended
# The requeued task gets its 10 minutes again.
scontrol update JobId="${job}_1" TimeLimit=10

# ---- everything but shard 3 finishes; the merge is cancelled ------------------------------------
merge_state() { scontrol show job "$merge" 2>/dev/null | grep -Eo 'JobState=[A-Z_]+' | cut -d= -f2; }
shards_done() { [[ -f run/shard-1.json && -f run/shard-2.json && -f run/shard-4.json ]]; }
wait_until 120 "shards 1, 2 and 4 finished" shards_done
expect_line run/shard-1.log "shard 1/4 of N=17 .*start 0$"
expect_line run/shard-1.log "interrupted by SIGTERM"
expect_line run/shard-1.log "shard 1/4 saved at the time limit; requeueing$"
expect_line run/shard-1.log "shard 1/4 of N=17 .*start 1$"
expect_line run/shard-1.log "shard-1.journal: resuming, [1-9][0-9]* units already counted"
expect_line run/shard-3.log "shard 3/4 failed \(exit 2\); once its cause is fixed, run it again with:"
if grep -q "shard 3/4 saved at the time limit" run/shard-3.log; then fail "the failed shard 3 was requeued"; fi
merge_cancelled() { [[ $(merge_state) == CANCELLED ]]; }
wait_until 30 "the merge cancelled after shard 3 failed" merge_cancelled
[[ ! -e run/result.jsonl ]] || fail "a merge ran although shard 3 failed"
{
  echo "\$ squeue; ls run   # later: shard 3 failed for good, the merge was cancelled"
  squeue
  (cd run && ls)
  echo "\$ cat run/shard-1.log"
  cat run/shard-1.log
  echo "\$ tail -n 3 run/shard-3.log"
  tail -n 3 run/shard-3.log
} >>transcript.txt

# ---- shard 3 again, by the command its log gives, once the cause is gone --------------------------
rm run/shard-3.journal
rerun=$(grep -A1 "run it again with:" run/shard-3.log | tail -1)
[[ $rerun == *"ARRAY=3 "* && $rerun == *" --engine dfs --log-level info "* ]] ||
  fail "the command in shard 3's log does not run shard 3 with the count options: $rerun"
echo "\$ rm run/shard-3.journal   # the cause of the failure" >>transcript.txt
shown "${rerun#  }" bash -c "$rerun" >rerun.txt
merge=$(sed -n 's/^submitted the merge as job \([0-9]*\):.*/\1/p' rerun.txt)
[[ -n "$merge" ]] || fail "the re-run submitted no new merge: $(cat rerun.txt)"
merge_ended() { [[ $(merge_state) =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY)$ ]]; }
wait_until 120 "the new merge ended" merge_ended
[[ $(merge_state) == COMPLETED ]] || fail "the merge ended $(merge_state): $(cat run/merge.log)"
expect_line run/result.jsonl '"total":"?95815104"?[,}]'
expect_line run/result.jsonl '"verified":true'
echo "\$ cat run/result.jsonl" >>transcript.txt
cat run/result.jsonl >>transcript.txt

[[ -z "$transcript_out" ]] || sed -e "s|$work/||g; s|$binary|nqueens|g; s|$script|slurm-shards.sh|g" transcript.txt >"$transcript_out"
echo "slurm-shards.sh on a one-node Slurm: shards, a time-limit SIGTERM requeued and resumed, a failed shard" \
  "re-run by its log's command, the merge verified; $((SECONDS - start_seconds)) s"
