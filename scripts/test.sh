#!/usr/bin/env bash
# Sets up, builds (Release, warnings as errors) and runs the whole default test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
ctest --preset release -j "$(nproc)"
