#!/usr/bin/env bash
# A new engine with a setting of its own, end to end: `nqueens-toy` is the program with the toy
# engine of tests/run/toy_engine added the way an engine is added (src/run/ADDING_AN_ENGINE.md). Its
# setting, --first-rows, must reach the help, the JSON and CSV records, the journal and the shard
# files from its declaration alone, be checked against a journal and resume.
#   tests/run/toy_engine/toy_engine_test.sh path/to/nqueens-toy src/run/registry.cpp build/.../toy/registry.cpp
set -euo pipefail

binary=$(realpath "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-toy.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAILED: $*" >&2; exit 1; }

# The registry took two lines: the description's declaration and its entry.
added=$(diff "$2" "$3" | grep -c '^>' || true)
removed=$(diff "$2" "$3" | grep -c '^<' || true)
[[ $added -eq 2 && $removed -eq 0 ]] || fail "the registry changed by +$added -$removed lines, not +2"

"$binary" count --help >help.txt
grep -q -- '--first-rows' help.txt || fail "count --help has no --first-rows: $(cat help.txt)"
grep -q 'Rows a toy unit fixes' help.txt || fail "count --help lacks the setting's help"
grep -q 'toy' help.txt || fail "count --help does not list the toy engine"

"$binary" count -n 8 --engine toy --first-rows 2 --format json >out.json
grep -q '"type":"result"' out.json || grep -q '"total"' out.json || fail "no result record: $(cat out.json)"
grep -q '"first_rows":2' out.json || fail "the JSON record has no first_rows 2: $(cat out.json)"
grep -q '"total":92' out.json || fail "the toy engine did not count 92 at N=8: $(cat out.json)"
"$binary" count -n 8 --engine toy --first-rows 2 --format csv >out.csv
head -1 out.csv | grep -q 'first_rows' || fail "the CSV header has no first_rows column: $(head -1 out.csv)"

# A bad value is refused by the declared range, in one line, with exit 2.
status=0
"$binary" count -n 8 --engine toy --first-rows 3 >/dev/null 2>err.txt || status=$?
[[ $status -eq 2 ]] || fail "--first-rows 3 exited $status, not 2: $(cat err.txt)"

# Journal: the setting is a word of its header; half the units, then the rest resumed.
"$binary" count -n 8 --engine toy --first-rows 2 --units 0-19 --checkpoint j.journal >/dev/null 2>err.txt ||
  fail "the first half exited non-zero: $(cat err.txt)"
head -1 j.journal | grep -q 'first_rows=2' || fail "the journal's header lacks first_rows=2: $(head -1 j.journal)"
[[ $(wc -l <j.journal) -eq 21 ]] || fail "the first count's journal holds $(wc -l <j.journal) lines, not 21"
status=0
"$binary" count -n 8 --engine toy --first-rows 1 --checkpoint j.journal >/dev/null 2>err.txt || status=$?
[[ $status -ne 0 ]] || fail "a journal of --first-rows 2 was resumed with --first-rows 1"
grep -q 'first-rows' err.txt || fail "the refusal does not name the setting: $(cat err.txt)"
"$binary" count -n 8 --engine toy --first-rows 2 --checkpoint j.journal --format json >resumed.json 2>err.txt ||
  fail "the resume exited non-zero: $(cat err.txt)"
grep -q '"total":92' resumed.json || fail "the resumed count is not 92: $(cat resumed.json)"
# Resumed, not counted again: the 20 units of the first count, then only the other 22.
[[ $(wc -l <j.journal) -eq 43 ]] || fail "the journal holds $(wc -l <j.journal) lines, not a header and 42 units"

# Shards: the setting is in each file, and merge gives the whole count.
for i in 1 2; do
  "$binary" count -n 8 --engine toy --first-rows 2 --shard "$i/2" --output "s$i.json" >/dev/null 2>err.txt ||
    fail "shard $i exited non-zero: $(cat err.txt)"
done
grep -q '"settings":{"first_rows":"2"}' s1.json || fail "shard 1's file has no first-rows setting: $(cat s1.json)"
"$binary" merge s1.json s2.json --format json >merged.json 2>err.txt || fail "merge exited non-zero: $(cat err.txt)"
grep -q '"total":92' merged.json || fail "the merged count is not 92: $(cat merged.json)"
grep -q '"first_rows":2' merged.json || fail "the merged record has no first_rows 2: $(cat merged.json)"
echo "toy engine: --first-rows in help, JSON, CSV, journal, shard files, merge and resume"
