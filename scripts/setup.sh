#!/usr/bin/env bash
# Installs the Debian packages nqueens needs, only those missing (safe to run again).
set -euo pipefail

packages=(g++ cmake make libtbb-dev libcli11-dev libspdlog-dev libgtest-dev nlohmann-json3-dev)
# scripts/test.sh's checks: clang for the fuzzers (libFuzzer lives in libclang-rt-14-dev, which
# clang-14 only recommends), clang-tidy and clang-format pinned to 14 so that CI and desktops agree.
packages+=(clang-14 libclang-rt-14-dev clang-tidy-14 clang-format-14)
# nqueens-mpi (docs/cluster.md): Open MPI's headers and libraries, and mpirun for its tests.
packages+=(libopenmpi-dev openmpi-bin)
# The nqueens(1) man page, made at build time from the program's --help (cmake/cli_docs.cmake).
packages+=(help2man)
# The .deb packages' dependencies, read from their binaries by dpkg-shlibdeps (cmake/packaging.cmake).
packages+=(dpkg-dev)
# The API reference from the public headers (cmake/api_reference.cmake, the api_reference test).
packages+=(doxygen)
# The docs_transcripts test (scripts/docs-transcripts.py: the examples in README.md and docs/usage.md).
packages+=(python3)
# The slurm_cluster test: a one-node Slurm (Slurm 22.05 on Debian 12) with its own munge key.
packages+=(slurmctld slurmd slurm-client munge)
packages+=("$@")  # extras, e.g. scripts/setup.sh libbenchmark-dev python3-matplotlib (scripts/dev/plot-bench.py)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# Slurm's and munge's daemons are installed for the tests, which start their own: the system's
# are not started (slurmctld without a slurm.conf fails, and its package's install with it).
# policy-rc.d is Debian's switch for that, in place only while this script installs.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  trap '$sudo rm -f "$policy"' EXIT
fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
