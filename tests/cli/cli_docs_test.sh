#!/usr/bin/env bash
# The program's own documentation: every subcommand's --help ends with examples, the man page
# made by help2man holds every subcommand and renders, and the bash completion completes
# commands, options, option values and file names. The zsh and fish completions parse (where
# those shells are installed) and name every subcommand.
#   tests/cli_docs_test.sh path/to/nqueens path/to/completions/{nqueens,_nqueens,nqueens.fish}
#                          [path/to/nqueens.1]
set -euo pipefail
binary=$1
completion=$2
zsh_completion=$3
fish_completion=$4
man_page=${5:-}

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
  # help2man puts --version's lines after the first at the end of the last section before SEE
  # ALSO (EXAMPLES); the page carries the version line only.
  examples=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$man_page")
  if grep -qE 'commit:|compiler:|oneTBB' <<<"$examples"; then fail "the version text is in EXAMPLES"; fi
  # Every environment variable the program reads is in ENVIRONMENT (src/ read with getenv).
  environment=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$man_page")
  [[ -n $environment ]] || fail "the man page has no ENVIRONMENT section"
  if grep -qE 'commit:|compiler:|oneTBB' <<<"$environment"; then fail "the version text is in ENVIRONMENT"; fi
  sources=$(dirname "$0")/../../src
  mapfile -t variables < <(grep -rhoE 'getenv\("[A-Z_]+"\)' "$sources" | sed 's/.*"\(.*\)".*/\1/' | sort -u)
  [[ ${#variables[@]} -ge 2 ]] || fail "found only ${#variables[@]} getenv calls under $sources"
  for variable in "${variables[@]}"; do
    grep -qF -- "$variable" <<<"$environment" || fail "ENVIRONMENT does not name $variable, which the program reads"
  done
  see_also=$(sed -n '/^\.SH "SEE ALSO"/,/^\.SH /p' "$man_page")
  [[ -n $see_also ]] || fail "the man page has no SEE ALSO"
  # The installed docs folder (share/doc/nqueens/docs) is fine; the source tree's docs/ is not.
  if grep -qE 'source tree|(^|[^/a-z])docs/' <<<"$see_also"; then
    fail "SEE ALSO points into the source tree: $see_also"
  fi
  grep -q 'share/doc/nqueens' <<<"$see_also" || fail "SEE ALSO does not name the installed documentation"
fi

# Every completion exists, parses, and offers every subcommand.
bash -n "$completion" || fail "bash cannot parse $completion"
for file in "$completion" "$zsh_completion" "$fish_completion"; do
  [[ -s $file ]] || fail "no completion at $file"
  for command in "${commands[@]}"; do
    grep -qw -- "$command" "$file" || fail "$file does not name the subcommand $command"
  done
done
if command -v zsh >/dev/null; then zsh -n "$zsh_completion" || fail "zsh cannot parse $zsh_completion"; fi
if command -v fish >/dev/null; then
  fish --no-execute "$fish_completion" || fail "fish cannot parse $fish_completion"
fi
# The file kinds the zsh and fish completions offer: journals and shard files for check, shard
# files for merge, journals for --checkpoint.
grep -q "check) _arguments.*'\*:file:_nqueens_files journal json'" "$zsh_completion" ||
  fail "zsh does not complete journals and shard files for check"
grep -q "'--checkpoint:file:_nqueens_files journal'" "$zsh_completion" || fail "zsh: --checkpoint takes no journal"
grep -q "from merge' -a '(__fish_nqueens_files json)'" "$fish_completion" ||
  fail "fish does not complete shard files for merge"
grep -q "from count' -l units -x -a '(__fish_nqueens_at_file)'" "$fish_completion" ||
  fail "fish does not complete --units @FILE"

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
# File names: only the kinds each argument reads, and directories, which may hold them.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/runs"
touch "$scratch/n18.journal" "$scratch/shard-1.json" "$scratch/notes.txt"
cd "$scratch"
completes n18.journal check ""
completes shard-1.json check ""
completes runs check ""
completes shard-1.json merge ""
completes n18.journal count -n 18 --checkpoint ""
completes runs count -n 18 --checkpoint ""
completes notes.txt count -n 20 --units 3 --output ""
completes @notes.txt count -n 20 --units @
lacks() {  # lacks UNEXPECTED WORD...: completing the last WORD does not offer UNEXPECTED
  local unexpected=$1
  shift
  COMP_WORDS=(nqueens "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _nqueens
  [[ " ${COMPREPLY[*]} " != *" $unexpected "* ]] || fail "completing 'nqueens $*' offered $unexpected"
}
lacks notes.txt check ""
lacks n18.journal merge ""
lacks shard-1.json count -n 18 --checkpoint ""
cd - >/dev/null
echo "cli docs: examples in every --help, the man page and the completion all check out"
