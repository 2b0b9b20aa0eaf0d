#!/usr/bin/env bash
# Checks the packages `cpack` wrote in a build of the package preset (scripts/test.sh package):
# which .deb packages there are, what each holds (dpkg-deb -c) and depends on (dpkg-deb -f),
# that together they hold what the .tar.gz holds, then installs them in dependency order and
# uses each: as root with CI set, on this system (and removes them again); otherwise with dpkg
# into a scratch root whose package database is a copy of this system's, so that dependencies
# are checked as `dpkg -i` checks them (unpacked with dpkg-deb where dpkg refuses a non-root).
#   tests/package/check_packages.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: check_packages.sh BUILD_DIR}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "check_packages: $*" >&2; exit 1; }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
mpi=$(sed -n 's/^NQUEENS_MPI:BOOL=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || fail "$build is not a configured build tree"
arch=$(dpkg --print-architecture)

# The packages, in dependency order: nqueens-mpi needs nqueens.
expected=(nqueens)
[ "$mpi" = ON ] && expected+=(nqueens-mpi)
expected+=(libnqueens-dev)
declare -A deb
for name in "${expected[@]}"; do
  deb[$name]="$build/${name}_${version}_${arch}.deb"
  [ -f "${deb[$name]}" ] || fail "cpack wrote no ${deb[$name]}"
done
# No other package: a file installed without a component would land in one of its own.
for file in "$build"/*.deb; do
  name=$(dpkg-deb --field "$file" Package)
  [[ " ${expected[*]} " == *" $name "* ]] || fail "unexpected package $name ($file): every install() needs a COMPONENT"
done

contents() { dpkg-deb --contents "$1" | awk '{print $6}' | sed 's|^\./||'; }
field() { dpkg-deb --field "$1" "$2"; }
holds() { grep -qx "$2" <<<"$(contents "${deb[$1]}")" || fail "$1 does not hold $2"; }
lacks() { ! grep -q "$2" <<<"$(contents "${deb[$1]}")" || fail "$1 holds $(grep "$2" <<<"$(contents "${deb[$1]}")" | head -1)"; }
depends() { grep -Eq "$2" <<<"$(field "${deb[$1]}" Depends)" || fail "$1 does not depend on $2: $(field "${deb[$1]}" Depends)"; }

for name in "${expected[@]}"; do
  field "${deb[$name]}" Maintainer | grep -Eq '^[^<]+ <[^@ ]+@[^@ ]+\.[a-z]+>$' ||
    fail "$name has no maintainer of the form 'Name <address>': $(field "${deb[$name]}" Maintainer)"
done

# nqueens: the program and its documentation; it runs without Open MPI and builds nothing.
holds nqueens usr/bin/nqueens
holds nqueens usr/share/bash-completion/completions/nqueens
holds nqueens usr/share/doc/nqueens/README.md
holds nqueens usr/share/doc/nqueens/LICENSE
holds nqueens usr/share/doc/nqueens/docs/usage.md
holds nqueens usr/share/nqueens/scripts/slurm-shards.sh
holds nqueens usr/share/nqueens/scripts/xargs-shards.sh
if grep -q '^NQUEENS_MAN:BOOL=ON' "$build/CMakeCache.txt"; then holds nqueens usr/share/man/man1/nqueens.1; fi
lacks nqueens '^usr/include/'
lacks nqueens '\.a$'
lacks nqueens '^usr/bin/nqueens-mpi$'
depends nqueens 'libtbb'
! field "${deb[nqueens]}" Depends | grep -Eqi 'mpi' || fail "nqueens depends on MPI: $(field "${deb[nqueens]}" Depends)"
field "${deb[nqueens]}" Recommends | grep -q bash-completion || fail "nqueens does not recommend bash-completion"

# nqueens-mpi: the MPI program alone, on nqueens (same version) and Open MPI's library.
if [ "$mpi" = ON ]; then
  holds nqueens-mpi usr/bin/nqueens-mpi
  lacks nqueens-mpi '^usr/bin/nqueens$'
  lacks nqueens-mpi '^usr/include/'
  depends nqueens-mpi "(^|, )nqueens \\(= $version\\)"
  depends nqueens-mpi 'libopenmpi'
fi

# libnqueens-dev: what a project builds with; no program.
for file in usr/include/nqueens/nqueens.hpp usr/include/nqueens/version.hpp usr/include/nqueens/export.hpp \
            "usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libnqueens.a"; do
  holds libnqueens-dev "$file"
done
for file in nqueensConfig.cmake nqueensConfigVersion.cmake nqueensTargets.cmake; do
  grep -q "^usr/lib/.*/cmake/nqueens/$file$" <<<"$(contents "${deb[libnqueens-dev]}")" ||
    fail "libnqueens-dev does not hold the CMake package's $file"
done
grep -q '^usr/lib/.*/pkgconfig/nqueens.pc$' <<<"$(contents "${deb[libnqueens-dev]}")" ||
  fail "libnqueens-dev does not hold nqueens.pc"
lacks libnqueens-dev '^usr/bin/'
depends libnqueens-dev 'libtbb-dev'

# Together the packages hold what the archive holds (the same install, one tree), each file once.
archive=$(echo "$build"/nqueens-"$version"-*.tar.gz)
[ -f "$archive" ] || fail "cpack wrote no .tar.gz"
in_debs=$(for name in "${expected[@]}"; do contents "${deb[$name]}"; done | grep -v '/$' | sed 's|^usr/||' | sort)
in_archive=$(tar -tzf "$archive" | grep -v '/$' | sed 's|^[^/]*/||' | sort)
dups=$(uniq -d <<<"$in_debs")
[ -z "$dups" ] || fail "files in two packages: $dups"
diff <(echo "$in_archive") <(echo "$in_debs") >&2 || fail "the packages and the archive hold different files (< archive, > packages)"

# Installed in dependency order, each used, then removed in the reverse order.
consumer() {  # builds and runs tests/package/consumer against the installed library
  local work
  work=$(mktemp -d)
  cmake -S "$source_dir/tests/package/consumer" -B "$work" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$work" >/dev/null
  "$work/nqueens_consumer" >/dev/null
  rm -rf "$work"
}
if [ -n "${CI:-}" ] && [ "$(id -u)" -eq 0 ]; then
  for name in "${expected[@]}"; do dpkg -i "${deb[$name]}"; done
  nqueens count -n 12 --verify --format csv >/dev/null
  [ "$mpi" = ON ] && command -v nqueens-mpi >/dev/null
  consumer
  for ((i = ${#expected[@]} - 1; i >= 0; i--)); do dpkg -r "${expected[$i]}"; done
  where="installed on this system and removed"
else
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root/admin/info" "$root/admin/updates" "$root/admin/triggers" "$root/fs"
  cp /var/lib/dpkg/status "$root/admin/status"
  force=()
  [ "$(id -u)" -eq 0 ] || force=(--force-not-root)
  dpkg_scratch=(dpkg --admindir="$root/admin" --instdir="$root/fs" "${force[@]}")
  if "${dpkg_scratch[@]}" -i "${deb[nqueens]}" >"$root/log" 2>&1; then
    # An MPI program before nqueens, or the library without oneTBB's, is refused as on a system.
    for name in "${expected[@]:1}"; do "${dpkg_scratch[@]}" -i "${deb[$name]}" >>"$root/log" 2>&1 ||
      { cat "$root/log" >&2; fail "dpkg -i $name (into a scratch root) failed"; }; done
    where="installed in order with dpkg into a scratch root"
  else
    grep -qi 'root' "$root/log" || { cat "$root/log" >&2; fail "dpkg -i nqueens (into a scratch root) failed"; }
    for name in "${expected[@]}"; do dpkg-deb -x "${deb[$name]}" "$root/fs"; done
    where="unpacked (dpkg needs root here)"
  fi
  "$root/fs/usr/bin/nqueens" count -n 12 --verify --format csv >/dev/null
  consumer -DCMAKE_PREFIX_PATH="$root/fs/usr"
fi
echo "packages: ${expected[*]} ($version) hold and depend on what they should; $where; the program counts and the library builds"
