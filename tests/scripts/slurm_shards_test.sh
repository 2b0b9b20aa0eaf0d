#!/usr/bin/env bash
# scripts/slurm-shards.sh against a fake Slurm (tests/scripts/fake_slurm: sbatch, srun, scontrol and
# squeue that record their arguments) and the variables Slurm sets in an array task: the submission,
# a merge cancelled if a shard fails for good, a re-run of some shards with --array that keeps a
# merge still queued and submits one otherwise, the tasks themselves, the time limit (SIGTERM to the step,
# then requeue and resume) and a failure that must not be requeued.
#   tests/slurm_shards_test.sh path/to/nqueens path/to/slurm-shards.sh
set -euo pipefail

binary=$(realpath "$1")
script=$(realpath "$2")
fakes=$(cd "$(dirname "$0")/fake_slurm" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-slurm.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PATH="$fakes:$PATH" FAKE_SLURM_LOG="$work/slurm.log"
cd "$work"

fail() {
  echo "FAILED: $*" >&2
  echo "--- slurm.log:" >&2
  cat "$FAKE_SLURM_LOG" >&2 || true
  exit 1
}
expect_line() {  # expect_line FILE PATTERN: some line of FILE matches the extended regex
  grep -Eq -- "$2" "$1" || fail "no line of $1 matches '$2'"
}

# ---- submitting: K explicit, the array, the time-limit signal, logs and the merge ----------------
out="$work/runs/n10"
N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$out" bash "$script" >submit.txt
[[ -d "$out" ]] || fail "the submission did not create $out"
expect_line submit.txt "shards 1-3 of 3 as job 1001"
expect_line slurm.log "^sbatch --parsable --array=1-3 --cpus-per-task=2 .*--signal=TERM@300 --output=$out/shard-%a.log .*K=3.*$script$"
expect_line slurm.log "^sbatch --parsable --dependency=afterok:1001 --kill-on-invalid-dep=yes --job-name=nqueens-merge-[0-9]+ --output=$out/merge.log --wrap .* merge --verify"
merge_name=$(grep -Eo -- "--job-name=nqueens-merge-[0-9]+" slurm.log | head -1)
merge_name=${merge_name#--job-name=}
expect_line slurm.log "^squeue --me -h --name=$merge_name -o %i$"
# The shards' sbatch line asks for about `want` (MiB) a node and exports MEMORY=`memory`: plan's
# --mem holds the program's own resident memory, which differs by a MiB or two between runs.
expect_mem_near() {
  local want=${1%M} memory=$2 line got
  line=$(grep -E -- "^sbatch --parsable --array=1-3 --cpus-per-task=2 --mem=[0-9]+M .*,MEMORY=$memory," slurm.log | head -1)
  [[ -n "$line" ]] || fail "no sbatch line asks for --mem with MEMORY=$memory: $(cat slurm.log)"
  got=$(grep -Eo -- "--mem=[0-9]+M" <<<"$line")
  got=${got#--mem=}
  got=${got%M}
  ((got >= want - 8 && got <= want + 8)) || fail "sbatch asks for --mem=${got}M, plan says ${want}M"
}
# The memory, by default from `nqueens plan` once: sbatch's --mem is plan's slurm_mem, each
# shard's count --memory (exported to the tasks as MEMORY) plan's count_memory.
plan=$("$binary" plan -n 10 -t 2 --sample-seconds 0.001 --format json)
plan_mem=$(sed -n 's/.*"slurm_mem":"\([0-9]*M\)".*/\1/p' <<<"$plan")
plan_memory=$(sed -n 's/.*"count_memory":"\([0-9]*M\)".*/\1/p' <<<"$plan")
[[ -n "$plan_mem" && -n "$plan_memory" ]] || fail "plan does not say slurm_mem and count_memory: $plan"
expect_mem_near "$plan_mem" "$plan_memory"
expect_line submit.txt "--mem=[0-9]+M a task, count --memory $plan_memory"
expect_line "$script" "^#SBATCH --requeue$"
expect_line "$script" "^#SBATCH --open-mode=append$"

# The submission prints the command that runs shards again, every setting given.
expect_line submit.txt "^  ARRAY=I N=10 K=3 CPUS=2 TIME=04:00:00 GRACE=300 MEM=[0-9]+M MEMORY=$plan_memory OUT_DIR=$out NQUEENS=$binary $script $"

# Shards 2 and 3 again while the first merge (1002) is still queued: it is kept, not doubled.
: >slurm.log
ARRAY=2,3 N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$out" bash "$script" >rerun.txt
expect_line slurm.log "^sbatch --parsable --array=2,3 .*K=3"
if grep -q -- "--dependency" slurm.log; then fail "a second merge job was submitted for $out"; fi
expect_line rerun.txt "kept the merge job already queued for $out \(job 1002\)"

# Another OUT_DIR has its own merge, whatever is queued for the first one.
: >slurm.log
N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$work/runs/other" bash "$script" >/dev/null
expect_line slurm.log "^sbatch --parsable --dependency=afterok:1004 .*--output=$work/runs/other/merge.log"

# Once the merge has left the queue (a shard failed and --kill-on-invalid-dep cancelled it), the
# re-run of shards 2 and 3 (the array names them, K still says how many there are) submits a new one.
: >"$FAKE_SLURM_LOG.queue"
: >slurm.log
ARRAY=2,3 N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$out" bash "$script" >/dev/null
expect_line slurm.log "^sbatch --parsable --array=2,3 .*K=3"
expect_line slurm.log "afterok:1006 --kill-on-invalid-dep=yes --job-name=$merge_name "

# A squeue that fails stops the script before it submits anything.
: >slurm.log
status=0
FAKE_SQUEUE_FAIL=1 N=10 K=3 NQUEENS="$binary" OUT_DIR="$out" bash "$script" >/dev/null 2>&1 || status=$?
[[ $status -ne 0 ]] || fail "the script went on after squeue failed"
if grep -q "^sbatch" slurm.log; then fail "jobs were submitted although squeue failed"; fi

# MEM and MEMORY given: taken as they are. MEMORY alone: --mem is plan's under that budget.
: >slurm.log
MEM=5G MEMORY=3G N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$work/runs/mem" bash "$script" >/dev/null
expect_line slurm.log "^sbatch --parsable --array=1-3 --cpus-per-task=2 --mem=5G .*,MEMORY=3G,"
plan=$("$binary" plan -n 10 -t 2 --sample-seconds 0.001 --memory 1M --format json)
plan_mem=$(sed -n 's/.*"slurm_mem":"\([0-9]*M\)".*/\1/p' <<<"$plan")
: >slurm.log
MEMORY=1M N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$work/runs/mem" bash "$script" >/dev/null
expect_mem_near "$plan_mem" 1M
# A plan that fails stops the script before it submits anything.
: >slurm.log
status=0
N=10 K=3 NQUEENS=/bin/false OUT_DIR="$work/runs/mem" bash "$script" >/dev/null 2>&1 || status=$?
[[ $status -ne 0 ]] || fail "the script went on after plan failed"
if grep -q "^sbatch" slurm.log; then fail "jobs were submitted although plan failed"; fi

# Further arguments are count options: they reach sbatch after the script (Slurm gives them to
# every task) and the re-run command.
: >slurm.log
MEM=1G MEMORY=64M N=10 K=3 CPUS=2 NQUEENS="$binary" OUT_DIR="$work/runs/extra" bash "$script" --engine dfs \
  --progress-interval 5 >extra.txt
expect_line slurm.log "^sbatch --parsable --array=1-3 .*,SHARDS_SCRIPT=$script $script --engine dfs --progress-interval 5$"
expect_line extra.txt "NQUEENS=$binary $script --engine dfs --progress-interval 5 $"

# Without NQUEENS: installed as PREFIX/share/nqueens/scripts/slurm-shards.sh, it runs
# PREFIX/bin/nqueens, before one on the PATH; run from a relative OUT_DIR, the tasks get it whole.
mkdir -p "$work/prefix/bin" "$work/prefix/share/nqueens/scripts" "$work/wrong"
ln -s "$binary" "$work/prefix/bin/nqueens"
cp "$script" "$work/prefix/share/nqueens/scripts/"
printf '#!/bin/sh\nexit 99\n' >"$work/wrong/nqueens"
chmod +x "$work/wrong/nqueens"
: >slurm.log
env -u NQUEENS PATH="$work/wrong:$PATH" MEM=1G MEMORY=64M N=10 K=3 OUT_DIR=runs/relative \
  "$work/prefix/share/nqueens/scripts/slurm-shards.sh" >installed.txt || fail "the installed script exited $?"
expect_line slurm.log "^sbatch --parsable --array=1-3 .*,NQUEENS=$work/prefix/bin/nqueens,OUT_DIR=$work/runs/relative,"
# A copy with no nqueens beside it, on the PATH or in a build tree: one line, exit 2, nothing submitted.
mkdir -p "$work/lone/scripts"
cp "$script" "$work/lone/scripts/"
: >slurm.log
status=0
env -u NQUEENS PATH="$fakes:/usr/bin:/bin" N=10 K=3 OUT_DIR=runs/none bash "$work/lone/scripts/slurm-shards.sh" \
  >/dev/null 2>none.txt || status=$?
((status == 2)) || fail "with no nqueens to run, the script exited $status, not 2"
expect_line none.txt "^slurm-shards: no nqueens beside this script or on the PATH, and $work/lone/build/release/nqueens is not built"
if grep -q "^sbatch" slurm.log; then fail "jobs were submitted with no nqueens to run"; fi

# ---- array tasks: what Slurm sets, a rerun's task count included ---------------------------------
task() {  # task I [VAR=VALUE...]: array task I of the rerun of job 1001, 2 CPUs, N=10 in 3 shards
  local i=$1
  shift
  env SLURM_JOB_ID=$((2000 + i)) SLURM_ARRAY_JOB_ID=1001 SLURM_ARRAY_TASK_ID="$i" SLURM_ARRAY_TASK_COUNT=1 \
    SLURM_CPUS_PER_TASK=2 N=10 K=3 NQUEENS="$binary" OUT_DIR="$out" "$@" bash "$script"
}
rm -rf "$work/runs"  # the journal's directory must be created by the task itself
: >slurm.log
for i in 3 1 2; do
  task "$i" >>"task-$i.log" 2>&1 || fail "array task $i exited $?: $(cat "task-$i.log")"
done
expect_line slurm.log "^srun --ntasks=1 --cpus-per-task=2 $binary count -n 10 -t 2 --shard 2/3 --checkpoint $out/shard-2.journal"
# The budget the submission exported reaches count.
: >slurm.log
task 2 MEMORY=64M >>task-2.log 2>&1 || fail "array task 2 under MEMORY=64M exited $?: $(cat task-2.log)"
expect_line slurm.log "^srun --ntasks=1 --cpus-per-task=2 $binary count -n 10 -t 2 --memory 64M --shard 2/3 "
"$binary" merge --verify --format json "$out"/shard-*.json >merged.jsonl || fail "merge exited $?"
expect_line merged.jsonl '"total":724[,}]'

task 4 >task-4.log 2>&1 && fail "array task 4 of K=3 was accepted"
expect_line task-4.log "array task 4 is not a shard of 1..3"

# ---- the time limit: SIGTERM to the step, the task requeues itself, the rerun finishes ----------
out="$work/runs/n18"
: >slurm.log
rm -f "$FAKE_SLURM_LOG.step"
task 1 N=18 K=2 SLURM_CPUS_PER_TASK=1 OUT_DIR="$out" >>limit.log 2>&1 &
runner=$!
for _ in $(seq 200); do [[ -s "$FAKE_SLURM_LOG.step" ]] && break; sleep 0.05; done
[[ -s "$FAKE_SLURM_LOG.step" ]] || fail "the step never started"
# Signalled once it counts (its journal exists): a fixed delay let a quick machine finish first.
for _ in $(seq 400); do [[ -s "$out/shard-1.journal" ]] && break; sleep 0.01; done
kill -TERM "$(cat "$FAKE_SLURM_LOG.step")"
status=0
wait "$runner" || status=$?
[[ $status -eq 143 ]] || fail "the task stopped at the time limit exited $status, not 143: $(cat limit.log)"
expect_line slurm.log "^scontrol requeue 1001_1$"
[[ ! -e "$out/shard-1.json" ]] || fail "a shard file was written by the interrupted task"
[[ -f "$out/shard-1.journal" ]] || fail "no journal was kept in $out"

# The requeued task: the same variables, one more start; it resumes and finishes.
task 1 N=18 K=2 SLURM_CPUS_PER_TASK=1 SLURM_RESTART_COUNT=1 OUT_DIR="$out" >>limit.log 2>&1 ||
  fail "the requeued task exited $?: $(cat limit.log)"
expect_line limit.log "shard 1/2 of N=18 .*start 0"
expect_line limit.log "shard 1/2 of N=18 .*start 1"
task 2 N=18 K=2 SLURM_CPUS_PER_TASK=1 OUT_DIR="$out" >>limit.log 2>&1 || fail "shard 2/2 exited $?"
"$binary" merge --verify --format json "$out"/shard-*.json >merged18.jsonl || fail "merge of N=18 exited $?"
expect_line merged18.jsonl '"total":666090624[,}]'

# ---- a failure that is not the time limit is not requeued ----------------------------------------
: >slurm.log
status=0
task 3 NQUEENS=/bin/false MEM=1G MEMORY=64M OUT_DIR="$work/runs/false" >false.log 2>&1 || status=$?
[[ $status -eq 1 ]] || fail "a failing task exited $status, not 1"
if grep -q "^scontrol" slurm.log; then fail "a failed task was requeued"; fi
# Its log ends with the command that runs it again; pasted, it submits that shard with the same settings.
rerun=$(grep -A1 "run it again with:" false.log | tail -1)
[[ -n "$rerun" ]] || fail "the failed task printed no command to run it again: $(cat false.log)"
: >slurm.log
(cd / && bash -c "$rerun") >/dev/null || fail "the pasted re-run command exited $?: $rerun"
expect_line slurm.log "^sbatch --parsable --array=3 --cpus-per-task=2 --mem=1G .*NQUEENS=/bin/false,OUT_DIR=$work/runs/false,MEMORY=64M,"

echo "slurm-shards.sh: submission, one merge per directory, --array reruns, tasks, time limit and requeue all behave"
