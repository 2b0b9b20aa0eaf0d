#!/usr/bin/env bash
# The README's test command, and CI's (.ci/run): sets up, then runs every check in turn and stops
# at the first failure with a non-zero exit. docs/development.md explains each step.
#
#   scripts/test.sh            every step (what CI runs)
#   scripts/test.sh --quick    format + release: a minute or two once built
#   scripts/test.sh STEP...    only these steps, e.g. scripts/test.sh tidy asan
#
# Steps: format   clang-format: no tracked C++ file may differ from its formatted self
#        release  Release build, warnings as errors; the fast test suite
#        tidy     clang-tidy over src/ (.clang-tidy), every finding an error
#        asan     AddressSanitizer + UndefinedBehaviorSanitizer build; the fast test suite
#        tsan     ThreadSanitizer build; the tests labelled `threads`
#        fuzz     the libFuzzer targets, 10 seconds each on their committed corpus
#        package  the portable .deb packages and .tar.gz (cpack), each installed and used
set -euo pipefail
cd "$(dirname "$0")/.."

all_steps=(format release tidy asan tsan fuzz package)
steps=()
for arg in "$@"; do
  case "$arg" in
    --quick) steps+=(format release) ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    format|release|tidy|asan|tsan|fuzz|package) steps+=("$arg") ;;
    *) echo "test.sh: unknown step '$arg' (steps: ${all_steps[*]}, or --quick)" >&2; exit 2 ;;
  esac
done
[ ${#steps[@]} -gt 0 ] || steps=("${all_steps[@]}")

jobs="$(nproc)"
timings=()
banner() { printf '\n======== %s ========\n' "$*"; }

step_format() {
  local files
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
  # --dry-run -Werror: any file that would change is an error, shown as file:line diagnostics.
  clang-format-14 --dry-run -Werror "${files[@]}"
  echo "format: ${#files[@]} files match .clang-format"
}

step_release() {
  cmake --preset release
  cmake --build --preset release -j "$jobs"
  ctest --preset release -j "$jobs"
}

step_tidy() {
  # The release build's compile_commands.json names the files and flags (configured by `release`).
  [ -f build/release/compile_commands.json ] || cmake --preset release >/dev/null
  # Only the findings are shown: the counts of warnings suppressed in library headers are noise.
  run-clang-tidy-14 -p build/release -j "$jobs" -quiet "$PWD/src/" 2>&1 |
    { grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter|^Running clang-tidy' || true; }
  echo "tidy: src/ is clean"
}

step_asan() {
  cmake --preset asan
  cmake --build --preset asan -j "$jobs"
  ctest --preset asan -j "$jobs"
}

step_tsan() {
  cmake --preset tsan
  cmake --build --preset tsan -j "$jobs"
  ctest --preset tsan -j "$jobs"
}

step_fuzz() {
  cmake --preset fuzz
  cmake --build --preset fuzz -j "$jobs"
  scripts/dev/fuzz.sh -t 10 -j "$jobs"
}

step_package() {
  cmake --preset package
  cmake --build --preset package -j "$jobs"
  rm -f build/package/*.deb build/package/nqueens-*.tar.gz
  (cd build/package && cpack)
  local archive root
  archive=$(echo build/package/nqueens-*.tar.gz)
  root=$(mktemp -d)
  # The archive unpacks anywhere: its program counts, and is the portable build.
  tar -xzf "$archive" -C "$root"
  "$root"/nqueens-*/bin/nqueens count -n 1-12 --verify --format csv >/dev/null
  "$root"/nqueens-*/bin/nqueens version | grep -q '^target: *portable'
  rm -rf "$root"
  # The .deb packages: what each holds and depends on; installed in dependency order and used.
  tests/package/check_packages.sh build/package
  echo "package: $(cd build/package && echo *.deb) and $(basename "$archive") install and count"
}

# A failing command ends the script (set -e); this names the step it failed in.
current=""
trap 'status=$?; [ "$status" -eq 0 ] || [ -z "$current" ] ||
      printf "\n======== FAILED: %s (exit %d after %ds) ========\n" "$current" "$status" $((SECONDS - start)) >&2' EXIT

banner "setup"
# What only the checks need: zsh and fish parse their completions in cli_docs; dpkg-dev
# (dpkg-shlibdeps) and file let the package step read the .deb's dependencies off its binaries.
scripts/setup.sh zsh fish dpkg-dev file

total_start=$SECONDS
for step in "${steps[@]}"; do
  banner "$step"
  current="$step"
  start=$SECONDS
  "step_$step"
  timings+=("$(printf '%-8s %4ds' "$step" $((SECONDS - start)))")
done
current=""

banner "all passed in $((SECONDS - total_start))s"
printf '  %s\n' "${timings[@]}"
