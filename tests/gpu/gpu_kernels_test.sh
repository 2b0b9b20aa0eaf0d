#!/usr/bin/env bash
# The kernels `version` says the build holds are those in the fat binary it embeds, read from its
# headers: machine code per architecture and the PTX, with no device needed.
#   tests/gpu/gpu_kernels_test.sh path/to/nqueens path/to/python3 path/to/match_kernel.fatbin
set -euo pipefail

binary=$1
python=$2
fatbin=$3
here=$(dirname "$0")

fail() { echo "FAILED: $*" >&2; exit 1; }

line=$("$binary" version | grep '^gpu devices:') || fail "version has no 'gpu devices:' line"
said=$(sed -n 's/.*; kernels: \(.*\) (on this machine)$/\1/p' <<<"$line")
[[ -n "$said" ]] || fail "the gpu devices line names no kernels: $line"

held=$("$python" "$here/fatbin_architectures.py" "$fatbin") || fail "cannot read $fatbin"
machine=$(grep '^sm_' <<<"$held" | sort -t_ -k2 -n -u | tr '\n' ' ' | sed 's/ $//')
ptx=$(grep '^compute_' <<<"$held" | sort -u)
[[ -n "$machine" ]] || fail "no machine code in $fatbin"
[[ $(wc -l <<<"$ptx") -eq 1 && -n "$ptx" ]] || fail "the fat binary holds PTX for '$ptx', not one architecture"
expected="$machine machine code, PTX $ptx"
[[ "$said" == "$expected" ]] || fail "version says '$said'; the fat binary holds '$expected'"

# Every card from compute capability 7.5 up has a kernel: the oldest machine code is sm_75, and
# the PTX is at least as new as the newest machine code (later cards compile it at load).
[[ "$machine" == sm_75* ]] || fail "no sm_75 machine code: $machine"
newest=$(awk '{print $NF}' <<<"$machine" | tr -dc 0-9)
[[ ${ptx#compute_} -ge $newest ]] || fail "PTX $ptx is older than the newest machine code sm_$newest"
echo "ok: $said"
