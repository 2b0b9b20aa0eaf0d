#!/usr/bin/env bash
# scripts/xargs-shards.sh: a small run sharded and merged, each shard with its share of the memory; a run interrupted by SIGTERM (to the
# script) or SIGINT (to its process group, as Ctrl-C does) exits 143 or 130, not xargs' 123, leaves
# no shard running, and prints a resume command that, pasted in another directory, resumes from the
# journals and finishes; nqueens is found on the PATH; extra count options reach every shard.
#   tests/scripts/xargs_shards_test.sh path/to/nqueens path/to/xargs-shards.sh
set -euo pipefail
set -m  # background jobs keep SIGINT (a script's background job starts with it ignored)

binary=$(realpath "$1")
script=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-xargs.XXXXXX")
cd "$work"
export NQUEENS="$binary"

fail() { echo "FAILED: $*" >&2; exit 1; }

bash "$script" 10 3 2 >small.txt 2>&1 || fail "N=10 in 3 shards exited $?: $(cat small.txt)"
grep -q 724 small.txt || fail "no total 724: $(cat small.txt)"
[[ -f shards-n10-k3/shard-3.json ]] || fail "no shard files in shards-n10-k3"

# Each of the P shards gets --memory of half the machine's memory over P (or the control
# group's limit, where that is less), not count's default half each; an extra --memory wins.
printf '#!/usr/bin/env bash\necho "$*" >>"%s/args.log"\nexec "%s" "$@"\n' "$work" "$binary" >logged.sh
chmod +x logged.sh
kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
group=$(sed -n 's/^0:://p' /proc/self/cgroup)
limit=$(cat "/sys/fs/cgroup${group%/}/memory.max" 2>/dev/null || true)
if [[ "$limit" =~ ^[0-9]+$ ]] && ((limit / 1024 < kib)); then kib=$((limit / 1024)); fi
NQUEENS="$work/logged.sh" OUT_DIR=shared bash "$script" 9 3 3 >shared.txt 2>&1 || fail "N=9 in 3 shards exited $?"
[[ $(grep -c -- "count -n 9 -t [0-9]* --memory $((kib / 2 / 3))K --shard" args.log) -eq 3 ]] ||
  fail "the 3 shards were not each given --memory $((kib / 2 / 3))K: $(cat args.log)"
: >args.log
NQUEENS="$work/logged.sh" OUT_DIR=given bash "$script" 9 2 2 --memory 50M >given.txt 2>&1 || fail "--memory 50M exited $?"
[[ $(grep -c -- "--memory 50M" args.log) -eq 2 && $(grep -Ec -- "--memory [0-9]+K" args.log) -eq 0 ]] ||
  fail "the extra --memory 50M was not the shards' only one: $(cat args.log)"

# Without $NQUEENS, the nqueens on the PATH, run from a directory outside the checkout.
mkdir -p bin && ln -s "$binary" bin/nqueens
env -u NQUEENS PATH="$work/bin:$PATH" OUT_DIR=on-path bash "$script" 9 2 1 >path.txt 2>&1 ||
  fail "N=9 with nqueens on the PATH exited $?: $(cat path.txt)"
grep -q 352 path.txt || fail "no total 352 with nqueens on the PATH: $(cat path.txt)"

# Installed as PREFIX/share/nqueens/scripts/xargs-shards.sh: PREFIX/bin/nqueens, before one on the
# PATH (here one that fails).
mkdir -p prefix/bin prefix/share/nqueens/scripts wrong
ln -s "$binary" prefix/bin/nqueens
cp "$script" prefix/share/nqueens/scripts/
printf '#!/bin/sh\nexit 99\n' >wrong/nqueens
chmod +x wrong/nqueens
env -u NQUEENS PATH="$work/wrong:$PATH" OUT_DIR=installed prefix/share/nqueens/scripts/xargs-shards.sh 9 2 1 \
  >installed.txt 2>&1 || fail "the installed script exited $?: $(cat installed.txt)"
grep -q 352 installed.txt || fail "no total 352 from the installed script: $(cat installed.txt)"

runner=""
cleanup() {  # a failed check must not leave the run and its shards behind
  if [[ -n "$runner" ]]; then kill -KILL -- "-$runner" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

interrupt() {  # interrupt SIGNAL STATUS TARGET: N=18 in 4 shards, 2 at a time, stopped once journals exist
  local out="$work/n18-$1" status=0
  OUT_DIR="$out" bash "$script" 18 4 2 --progress-interval 60 >"$1.txt" 2>&1 &
  runner=$!
  for _ in $(seq 200); do [[ -s "$out/shard-1.journal" ]] && break; sleep 0.05; done
  [[ -s "$out/shard-1.journal" ]] || fail "no journal in $out: $(cat "$1.txt")"
  sleep 0.2  # early: the first two shards of N = 18 take about a second each on two cores
  # TARGET: the script alone (kill PID), or its whole process group as Ctrl-C in a terminal does.
  if [[ $3 == group ]]; then kill -"$1" -- "-$runner"; else kill -"$1" "$runner"; fi
  wait "$runner" || status=$?
  runner=""
  [[ $status -eq $2 ]] || fail "interrupted by SIG$1, it exited $status, not $2: $(cat "$1.txt")"
  grep -q "run this script again with the same arguments" "$1.txt" || fail "no resume hint: $(cat "$1.txt")"
  grep -Fxq "  OUT_DIR=$out NQUEENS=$binary $script 18 4 2 --progress-interval 60 " "$1.txt" ||
    fail "the hint is not the command with its settings and arguments: $(cat "$1.txt")"
  if pgrep -f -- "--checkpoint $out/" >/dev/null; then fail "shards still run after SIG$1"; fi
  [[ ! -e "$out/shard-4.json" ]] || fail "shard 4 was started after SIG$1"
}
interrupt TERM 143 script
interrupt INT 130 group

# The hint pasted as it is, from another directory: resumes from the journals and merges the
# right total.
hint=$(grep -A1 "run this script again" INT.txt | tail -1)
mkdir -p elsewhere
(cd elsewhere && env -u OUT_DIR -u NQUEENS bash -c "$hint") >resume.txt 2>&1 || fail "the pasted hint exited $?: $(cat resume.txt)"
grep -q 666090624 resume.txt || fail "the resumed run's total is not 666090624: $(cat resume.txt)"

echo "xargs-shards.sh: shards merged; SIGTERM and SIGINT exit 143 and 130 with a resume hint"
