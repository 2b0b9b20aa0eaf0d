#!/usr/bin/env bash
# Compares two directories of journals (count -n A-B --checkpoint DIR/) unit by unit: for each
# nN.journal in the first, every unit's id, total, orbit counts and nodes must equal the second's
# (the time and the checksum are left out). Exit 1 on any difference.
#
#   old/nqueens count -n 4-19 -t 2 --engine join --checkpoint before/
#   build/release/nqueens count -n 4-19 -t 2 --engine join --checkpoint after/
#   scripts/dev/compare-journals.sh before after
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 BEFORE_DIR AFTER_DIR" >&2; exit 2; }
unit_counts() { awk '$1 == "U" { $NF = ""; $(NF - 1) = ""; print }' "$1" | sort -n -k2; }
status=0
for before in "$1"/n*.journal; do
  name=$(basename "$before")
  after="$2/$name"
  if [[ ! -f $after ]]; then
    echo "$name: missing in $2"; status=1
  elif cmp -s <(unit_counts "$before") <(unit_counts "$after"); then
    echo "$name: every unit equal ($(unit_counts "$after" | wc -l) units)"
  else
    echo "$name: DIFFERENT"; status=1
  fi
done
exit $status
