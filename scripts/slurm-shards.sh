#!/usr/bin/env bash
# Slurm: one board size counted as a job array of K shards, then merged by a second job that
# starts only when every shard has succeeded (and is cancelled if one fails for good). Run it
# plainly, not through sbatch: it submits both; a re-run while the merge is still queued for the
# same OUT_DIR submits the shards only.
#
#   N=21 K=32 scripts/slurm-shards.sh                    # all 32 shards, then the merge
#   N=21 K=32 ARRAY=5,9 scripts/slurm-shards.sh          # only shards 5 and 9 again, then the merge
#   N=21 K=32 scripts/slurm-shards.sh --engine dfs       # further arguments: count options for every shard
#
# Settings (environment): N (board size), K (number of shards: fixed for the whole run, so that
# re-running some of them gives the same shards), ARRAY (the array tasks = shard numbers to run,
# default 1-K), CPUS (cores per shard, default 16), TIME (limit per task, default 04:00:00),
# GRACE (seconds between the warning signal and the limit, default 300), NQUEENS (the program;
# by default the one installed with this script, else the one on the PATH, else the checkout's
# build/release/nqueens), OUT_DIR (shard files, journals and logs; created), MEMORY (each shard's count --memory) and
# MEM (sbatch --mem, the memory of a task's node, which holds that one shard). Where MEMORY or
# MEM is not given, the script runs `nqueens plan -n N -t CPUS --format json` once before it
# submits (under --memory MEMORY when that is given; else the default budget of the machine it
# runs on) and takes the figures plan asks for: count_memory for MEMORY, slurm_mem for MEM (the
# process's memory plus 10 % and 64 MiB; docs/cluster.md, "Sizing a run"). Other sbatch options
# (partition, account) go in SBATCH_* variables or #SBATCH lines, which sbatch reads as usual.
#
# The time limit: Slurm sends SIGTERM to the counting step GRACE seconds before the limit
# (--signal=TERM@GRACE); nqueens saves its finished units to the shard's journal and exits 143;
# this script then requeues the task (scontrol requeue), and the requeued task resumes from
# the journal. A task that failed otherwise is not requeued: its log ends with the command that
# runs it again (ARRAY=i and every setting of the run). Logs are appended across requeues
# (--open-mode=append), one per shard.
#
#SBATCH --job-name=nqueens-shard
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

N=${N:-21}
K=${K:-32}
dir=${OUT_DIR:-$PWD/shards-n$N-k$K}
[[ $dir == /* ]] || dir=$PWD/$dir  # the tasks and the merge may start elsewhere

# The program: $NQUEENS when set; else the nqueens of the installation this script belongs to
# (PREFIX/bin/nqueens for PREFIX/share/nqueens/scripts, or one in the script's own folder); else
# the one on the PATH; else the release build of the checkout this script is in. Found at the
# submission (a task runs a copy of this script in Slurm's spool), by an absolute path.
find_nqueens() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  if [[ -n "${NQUEENS:-}" ]]; then
    binary=$NQUEENS
  elif [[ $here == */share/nqueens/scripts && -x ${here%/share/nqueens/scripts}/bin/nqueens ]]; then
    binary=${here%/share/nqueens/scripts}/bin/nqueens
  elif [[ -x $here/nqueens ]]; then
    binary=$here/nqueens
  elif ! binary=$(command -v nqueens); then
    binary="$(dirname "$here")/build/release/nqueens"
  fi
  if [[ ! -x "$binary" ]]; then
    echo "slurm-shards: no nqueens beside this script or on the PATH, and $binary is not built; set NQUEENS=path/to/nqueens" >&2
    exit 2
  fi
  [[ $binary == /* ]] || binary=$PWD/$binary
}

# The command that submits shards again (ARRAY=...), with every setting of this run and the
# count options, ready to paste.
rerun_command() {  # rerun_command ARRAY COUNT-OPTIONS...
  local array=$1
  shift
  printf 'ARRAY=%q N=%q K=%q CPUS=%q TIME=%q GRACE=%q MEM=%q MEMORY=%q OUT_DIR=%q NQUEENS=%q ' \
    "$array" "$N" "$K" "$cpus" "$time" "$grace" "$mem" "$memory" "$dir" "$binary"
  printf '%q ' "$script" "$@"
  echo
}

submit() {
  local array=${ARRAY:-1-$K} cpus=${CPUS:-16} grace=${GRACE:-300} time=${TIME:-04:00:00} script
  find_nqueens
  script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
  mkdir -p "$dir"
  # One merge job per output directory, named after it: job names are the user's, and two runs
  # with different OUT_DIRs must not see each other's merge.
  local merge_name merging
  merge_name="nqueens-merge-$(printf '%s' "$dir" | cksum | cut -d' ' -f1)"
  # A merge still queued for this directory (a re-run while the first run's shards are pending
  # or running) is kept, not doubled: two merges would write result.jsonl twice. Asked of Slurm
  # (squeue), not of a marker file: a marker outlives a merge that was cancelled (by
  # --kill-on-invalid-dep or scancel) or has ended, and would then keep the re-run from
  # submitting the merge it needs. Asked before anything is submitted, so that a squeue that
  # fails (controller unreachable) stops the script with nothing half submitted.
  merging=$(squeue --me -h --name="$merge_name" -o %i)
  # The memory: asked of plan once (its engine's memory plan needs no sample), before anything
  # is submitted, so that a plan that fails stops the script with nothing half submitted.
  local memory=${MEMORY:-} mem=${MEM:-} plan
  if [[ -z "$memory" || -z "$mem" ]]; then
    plan=$("$binary" plan -n "$N" -t "$cpus" --sample-seconds 0.001 ${memory:+--memory "$memory"} --format json)
    [[ -n "$memory" ]] || memory=$(sed -n 's/.*"count_memory":"\([0-9]*M\)".*/\1/p' <<<"$plan")
    [[ -n "$mem" ]] || mem=$(sed -n 's/.*"slurm_mem":"\([0-9]*M\)".*/\1/p' <<<"$plan")
    if [[ -z "$memory" || -z "$mem" ]]; then
      echo "slurm-shards: nqueens plan did not say the memory to ask for; set MEMORY and MEM" >&2
      exit 3
    fi
  fi
  local job
  # The shard count travels as K: SLURM_ARRAY_TASK_COUNT counts only the tasks of this array
  # (2 for --array=5,9), which would make other shards than the first run did.
  # The count options go as the script's arguments, which sbatch gives the tasks; the settings as
  # variables, with the script's own path for the re-run command a failed task prints.
  job=$(sbatch --parsable --array="$array" --cpus-per-task="$cpus" --mem="$mem" --time="$time" \
    --signal=TERM@"$grace" --output="$dir/shard-%a.log" \
    --export=ALL,N="$N",K="$K",NQUEENS="$binary",OUT_DIR="$dir",MEMORY="$memory",MEM="$mem",TIME="$time",GRACE="$grace",SHARDS_SCRIPT="$script" \
    "$0" "$@")
  job=${job%%;*}  # --parsable prints "id" or "id;cluster"
  echo "submitted shards $array of $K as job $job (--mem=$mem a task, count --memory $memory); the merged result will be in $dir/result.jsonl"
  echo "to run shards again (those that failed for good), give their numbers as ARRAY:"
  echo "  $(rerun_command I "$@")"
  if [[ -n "$merging" ]]; then
    echo "kept the merge job already queued for $dir (job ${merging//$'\n'/, }): it merges when the shards it waits for succeed; if one fails it is cancelled and the next re-run submits a new merge"
    return
  fi
  # --kill-on-invalid-dep: a shard that fails for good makes afterok impossible; without it the
  # merge would stay pending (DependencyNeverSatisfied) forever instead of being cancelled.
  local merge
  merge=$(sbatch --parsable --dependency=afterok:"$job" --kill-on-invalid-dep=yes --job-name="$merge_name" \
    --output="$dir/merge.log" \
    --wrap "'$binary' merge --verify --format json '$dir'/shard-*.json > '$dir/result.jsonl'")
  echo "submitted the merge as job ${merge%%;*}: it starts when every shard has succeeded"
}

count_shard() {
  local i=$SLURM_ARRAY_TASK_ID cpus=${SLURM_CPUS_PER_TASK:-1} binary=${NQUEENS:?} script=${SHARDS_SCRIPT:-$0}
  local time=${TIME:-} grace=${GRACE:-} mem=${MEM:-} memory=${MEMORY:-}
  if ((i < 1 || i > K)); then
    echo "slurm-shards: array task $i is not a shard of 1..$K" >&2
    exit 2
  fi
  mkdir -p "$dir"  # the journal's directory, even if it went away since the submission
  echo "[$(date -u +%FT%TZ)] shard $i/$K of N=$N on $(hostname), start ${SLURM_RESTART_COUNT:-0}" >&2
  # srun starts the counting step, which gets the time-limit signal. Since Slurm 22.05 a step no
  # longer inherits the job's --cpus-per-task: pass it, or the step may run on one core.
  local status=0
  srun --ntasks=1 --cpus-per-task="$cpus" "$binary" count -n "$N" -t "$cpus" ${MEMORY:+--memory "$MEMORY"} --shard "$i/$K" \
    --checkpoint "$dir/shard-$i.journal" --output "$dir/shard-$i.json" --progress-interval 300 "$@" || status=$?
  if ((status == 143)); then
    # Stopped by the time-limit signal with its units saved: run again from the journal.
    echo "[$(date -u +%FT%TZ)] shard $i/$K saved at the time limit; requeueing" >&2
    scontrol requeue "${SLURM_ARRAY_JOB_ID}_$i"
  elif ((status != 0)); then
    echo "[$(date -u +%FT%TZ)] shard $i/$K failed (exit $status); once its cause is fixed, run it again with:" >&2
    echo "  $(rerun_command "$i" "$@")" >&2
  fi
  exit "$status"
}

if [[ -z "${SLURM_ARRAY_TASK_ID:-}" ]]; then
  submit "$@"
else
  count_shard "$@"
fi
