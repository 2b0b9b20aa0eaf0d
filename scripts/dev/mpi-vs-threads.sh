#!/usr/bin/env bash
# Two ranks of one thread against one process of two threads, the same count in the same round,
# compared by each run's own `seconds` (mpirun's start-up left out): docs/cluster.md, "Measured
# on this machine".
#   scripts/dev/mpi-vs-threads.sh ROUNDS N:ENGINE...     e.g. scripts/dev/mpi-vs-threads.sh 3 17:dfs 19:join
# NQUEENS_MPI_LATENCY_US, when set, is passed to every rank (the emulated network); the
# one-process run has no network to emulate. Prints one CSV line per run: n,engine,how,seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
nqueens=${NQUEENS:-build/release/nqueens}
nqueens_mpi=${NQUEENS_MPI:-build/release/nqueens-mpi}
rounds=$1
shift
mpirun=(mpirun -q --oversubscribe --bind-to none)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
[ -n "${NQUEENS_MPI_LATENCY_US:-}" ] && mpirun+=(-x "NQUEENS_MPI_LATENCY_US=$NQUEENS_MPI_LATENCY_US")

seconds_of() { python3 -c 'import json,sys; print([r for r in map(json.loads, sys.stdin) if r.get("type") == "result"][-1]["seconds"])'; }

echo "n,engine,how,seconds"
for ((round = 1; round <= rounds; round++)); do
  for size in "$@"; do
    n=${size%%:*}
    engine=${size#*:}
    threads=$("$nqueens" count -n "$n" --engine "$engine" -t 2 --format json | seconds_of)
    echo "$n,$engine,1x2 threads,$threads"
    ranks=$("${mpirun[@]}" -np 2 "$nqueens_mpi" count -n "$n" --engine "$engine" -t 1 --format json | seconds_of)
    echo "$n,$engine,2 ranks x 1${NQUEENS_MPI_LATENCY_US:+ (latency ${NQUEENS_MPI_LATENCY_US} us)},$ranks"
  done
done
