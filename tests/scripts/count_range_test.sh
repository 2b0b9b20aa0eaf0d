#!/usr/bin/env bash
# scripts/count-range.sh run from a directory other than the repository: the CSV and a relative
# --checkpoint land where it was run, not in the repository; the program is found through NQUEENS.
#   tests/scripts/count_range_test.sh path/to/nqueens path/to/count-range.sh
set -euo pipefail

binary=$(realpath "$1")
script=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-count-range.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/caller/runs"
cd "$work/caller"

fail() { echo "FAILED: $*" >&2; exit 1; }

NQUEENS="$binary" bash "$script" 4-8 out.csv --checkpoint runs/ 2>err.txt ||
  fail "count-range exited $?: $(cat err.txt)"
[[ -f out.csv ]] || fail "out.csv is not in the directory it was run from: $(cat err.txt)"
[[ ! -e "$(dirname "$script")/../out.csv" ]] || fail "out.csv was written next to the repository"
grep -q '^8,92,' out.csv || fail "out.csv holds no verified row for N=8: $(cat out.csv)"
[[ -f runs/n8.journal ]] || fail "the relative --checkpoint runs/ was not taken from the caller's directory"
grep -q "results in out.csv" err.txt || fail "no summary line: $(cat err.txt)"

# Without NQUEENS it looks beside itself, not in the caller's directory: a missing build says so.
copy="$work/repo/scripts"
mkdir -p "$copy"
cp "$script" "$copy/"
status=0
env -u NQUEENS bash "$copy/count-range.sh" 4 x.csv 2>err.txt || status=$?
[[ $status -eq 2 ]] || fail "a missing build exited $status, not 2"
grep -q "$copy/../build/release/nqueens not built" err.txt || fail "unexpected message: $(cat err.txt)"
mkdir -p "$work/repo/build/release"
ln -s "$binary" "$work/repo/build/release/nqueens"
env -u NQUEENS bash "$copy/count-range.sh" 6 six.csv 2>err.txt || fail "the repository's build was not used: $(cat err.txt)"
grep -q '^6,4,' six.csv || fail "six.csv: $(cat six.csv)"

echo "count-range.sh: output and options relative to the caller, program found beside the script"
