#!/usr/bin/env bash
# The program's own documentation: every subcommand's --help ends with examples, the man page
# made by help2man holds every subcommand and renders, and the bash completion completes
# commands, options and option values.
#   tests/cli_docs_test.sh path/to/nqueens path/to/completions/nqueens [path/to/nqueens.1]
set -euo pipefail
binary=$1
completion=$2
man_page=${3:-}

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

mapfile -t commands < <("$binary" --help | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[[ ${#commands[@]} -ge 5 ]] || fail "found only ${#commands[@]} subcommands in nqueens --help"
"$binary" --help | grep -q '^Examples:' || fail "nqueens --help has no examples"
for command in "${commands[@]}"; do
  "$binary" "$command" --help | grep -q '^Examples:' || fail "nqueens $command --help has no examples"
  "$binary" "$command" --help | grep -q "^  nqueens $command " || fail "the examples of $command do not run $command"
done

if [[ -n $man_page ]]; then
  [[ -s $man_page ]] || fail "no man page at $man_page"
  grep -q '^\.SH COMMANDS' "$man_page" || fail "the man page has no COMMANDS section"
  grep -q '^\.SH "EXIT STATUS"' "$man_page" || fail "the man page has no EXIT STATUS section"
  for command in "${commands[@]}"; do
    grep -q "^\.SS \"nqueens $command\"" "$man_page" || fail "the man page has no section for $command"
  done
  if command -v man >/dev/null; then
    rendered=$(MANWIDTH=100 man -l "$man_page" 2>&1) || fail "man -l failed: $rendered"
    grep -q "nqueens count -n 18 --checkpoint n18.journal" <<<"$rendered" || fail "the rendered page lacks the examples"
    if grep -q "warning" <<<"$rendered"; then fail "man -l warned: $(grep warning <<<"$rendered")"; fi
  fi
fi

# shellcheck source=/dev/null
source "$completion"
completes() {  # completes EXPECTED WORD...: completing the last WORD offers EXPECTED (among others)
  local expected=$1
  shift
  COMP_WORDS=(nqueens "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _nqueens
  [[ " ${COMPREPLY[*]} " == *" $expected "* ]] ||
    fail "completing 'nqueens $*' gave '${COMPREPLY[*]}', not $expected"
}
completes count co
completes merge me
completes --engine count --eng
completes --checkpoint count -n 18 --check
completes join count --engine ""
completes mirror count --symmetry m
completes perm solve --format p
completes --verify merge --ver
echo "cli docs: examples in every --help, the man page and the completion all check out"
