#!/usr/bin/env bash
# Shards on one machine (or as a template for a pool of them): count N in K shards, P at a
# time, with xargs -P, then merge the shard files and verify the total against the OEIS.
#   scripts/xargs-shards.sh N K [P] [extra count options...]
#   scripts/xargs-shards.sh 17 8 2 --symmetry mirror
# Shard files and journals go to $OUT_DIR (default shards-nN-kK). Every shard keeps a
# checkpoint journal, so running the script again after a crash or Ctrl-C resumes the
# unfinished shards and answers the finished ones from their journals at once. Interrupted, it
# stops its shards, prints that hint and exits 130 (SIGINT) or 143 (SIGTERM).
set -euo pipefail

usage="usage: xargs-shards.sh N K [P] [count options...]"
n=${1:?$usage}
k=${2:?$usage}
p=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
# The program: $NQUEENS when set; else the nqueens of the installation this script belongs to
# (PREFIX/bin/nqueens for PREFIX/share/nqueens/scripts, or one in the script's own folder); else
# the one on the PATH; else the release build of the checkout this script is in. Wherever the
# script is run from.
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
[ -x "$binary" ] || {
  echo "xargs-shards: no nqueens beside this script or on the PATH, and $binary is not built; set NQUEENS=path/to/nqueens" >&2
  exit 2
}
[[ $binary == /* ]] || binary=$PWD/$binary
dir=${OUT_DIR:-shards-n$n-k$k}
mkdir -p "$dir"

# P shards share the machine: give each its share of the cores rather than all of them.
threads=$(( $(nproc) / p > 0 ? $(nproc) / p : 1 ))

# ... and of the memory: count's default budget is half of what the machine allows one process,
# so P of them would ask for P halves. Each gets --memory of half the machine's memory (the
# least of its physical memory and its control group's limit) divided by P, unless the extra
# options give --memory themselves; where the system says neither, count's default stands.
memory_share() {
  local kib limit group
  kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null || true)
  [[ -n "$kib" ]] || return 0
  group=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null || true)
  limit=$(cat "/sys/fs/cgroup${group%/}/memory.max" 2>/dev/null || true)
  if [[ "$limit" =~ ^[0-9]+$ ]] && ((limit / 1024 < kib)); then kib=$((limit / 1024)); fi
  echo "$((kib / 2 / p > 0 ? kib / 2 / p : 1))K"
}
memory=()
case " $* " in
  *" --memory "* | *" --memory="*) ;;
  *) share=$(memory_share); [[ -z "$share" ]] || memory=(--memory "$share") ;;
esac

# xargs runs in the background so that a signal to this script is handled at once, not after
# the shards end. On SIGINT or SIGTERM: stop xargs first (or it would start the next shards), then
# send SIGTERM to the running shards, which save their journals and stop; exit 130 or 143 as an
# interrupted command should (xargs' own 123 would read as a failed shard). SIGTERM and not the
# signal received: a background command of a script starts with SIGINT ignored.
xargs_pid=""
interrupted() {  # interrupted STATUS ARGS...: ARGS are the extra count options, for the hint
  trap '' INT TERM
  local shards=""
  if [[ -n "$xargs_pid" ]]; then
    # Stopped while its shards are listed and signalled: Ctrl-C reaches the shards too, and
    # xargs would start the next ones as they exit.
    kill -STOP "$xargs_pid" 2>/dev/null || true
    shards=$(pgrep -P "$xargs_pid" || true)
    # shellcheck disable=SC2086  # one pid a word
    [[ -z "$shards" ]] || kill -TERM $shards 2>/dev/null || true
    kill -TERM "$xargs_pid" 2>/dev/null || true
    kill -CONT "$xargs_pid" 2>/dev/null || true
    for pid in $shards; do while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; done
  fi
  echo "xargs-shards: interrupted; the finished units are in the journals in $dir." >&2
  # The command as it can be pasted: the settings that chose the folder and the program, the
  # script by absolute paths, the arguments quoted (the status is not one of them).
  local status=$1 settings=""
  shift
  settings+="OUT_DIR=$(printf '%q' "$(cd "$dir" && pwd)") "
  [[ -z "${NQUEENS:-}" ]] || settings+="NQUEENS=$(printf '%q' "$binary") "
  echo "xargs-shards: to resume, run this script again with the same arguments:" >&2
  echo "  $settings$(printf '%q ' "$here/$(basename "${BASH_SOURCE[0]}")" "$n" "$k" "$p" "$@")" >&2
  exit "$status"
}
args=("$@")
trap 'interrupted 130 "${args[@]}"' INT
trap 'interrupted 143 "${args[@]}"' TERM

seq 1 "$k" | xargs -P "$p" -I{} \
  "$binary" count -n "$n" -t "$threads" "${memory[@]}" --shard "{}/$k" \
    --checkpoint "$dir/shard-{}.journal" --output "$dir/shard-{}.json" "$@" &
xargs_pid=$!
# xargs exits 123 if any shard failed: stop here, before the merge.
status=0
wait "$xargs_pid" || status=$?
((status == 0)) || { echo "xargs-shards: a shard failed (xargs exited $status)" >&2; exit "$status"; }

# merge refuses (exit 1, no total) unless the files hold every unit exactly once.
files=()
for i in $(seq 1 "$k"); do files+=("$dir/shard-$i.json"); done
"$binary" merge --verify "${files[@]}"
