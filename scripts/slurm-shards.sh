#!/usr/bin/env bash
# Slurm example: one board size counted as a job array of shards, then merged by a second job
# that starts only when every shard has succeeded.
#
#   N=21 scripts/slurm-shards.sh     # run it plainly, not through sbatch: it submits both jobs
#
# Each array task counts `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` on the cores
# Slurm gave it and writes its shard file. It also keeps a checkpoint journal: when a task is
# preempted or hits its time limit, Slurm sends SIGTERM, nqueens saves the finished units and
# exits 143, and the requeued task resumes where it stopped. Adjust the #SBATCH lines (array
# size, cores, time, partition) to your cluster; the shards are balanced by estimated work.
#
#SBATCH --job-name=nqueens-shard
#SBATCH --array=1-32
#SBATCH --cpus-per-task=16
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=nqueens-shard-%A_%a.log
set -euo pipefail

N=${N:-21}
binary=${NQUEENS:-$PWD/build/release/nqueens}
dir=${OUT_DIR:-$PWD/shards-n$N}

if [[ -z "${SLURM_ARRAY_TASK_ID:-}" ]]; then
  # Outside Slurm: submit this script as the array, then the merge that waits for all of it.
  mkdir -p "$dir"
  array=$(sbatch --parsable --export=ALL,N="$N",NQUEENS="$binary",OUT_DIR="$dir" "$0")
  sbatch --dependency=afterok:"$array" --job-name=nqueens-merge --output="$dir/merge.log" \
    --wrap "'$binary' merge --verify --format json '$dir'/shard-*.json > '$dir/result.jsonl'"
  echo "submitted shards as job $array; the merged result will be in $dir/result.jsonl"
  exit 0
fi

# Inside an array task. exec: the signals Slurm sends reach nqueens itself.
i=$SLURM_ARRAY_TASK_ID
k=$SLURM_ARRAY_TASK_COUNT
exec "$binary" count -n "$N" -t "${SLURM_CPUS_PER_TASK:-1}" --shard "$i/$k" \
  --checkpoint "$dir/shard-$i.journal" --output "$dir/shard-$i.json" --progress-interval 300
