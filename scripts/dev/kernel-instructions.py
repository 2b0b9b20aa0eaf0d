#!/usr/bin/env python3
"""Instructions per query of the gpu engine's matching kernels, read from the built cubin.

For each kernel nq_match_w<W>_c<C> (or those given) of one architecture, disassembles it with
`cuobjdump -sass` (the CUDA toolkit's, with nvdisasm beside it), finds its loops (a branch back to
an earlier address), and takes the query loop: the innermost loop with shared-memory loads (LDS),
C of them per query. It prints the loop's instructions, its LDS, and the instructions per query
(the loop's count over the queries an iteration answers): the `pass_instructions` that
src/gpu/device_model.cpp prices a query's pass over a tile at.

  scripts/dev/kernel-instructions.py build/release/generated/match_kernel.fatbin [--arch sm_90]
                                     [--kernel nq_match_w7_c6 ...]
"""
import argparse
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
BRANCH = re.compile(r"\bBRA\b.*?(0x[0-9a-f]+)")


def disassemble(cuobjdump, fatbin, arch, kernel):
    out = subprocess.run([cuobjdump, "-sass", "-arch", arch, "-fun", kernel, fatbin],
                         check=True, capture_output=True, text=True).stdout
    return [(int(m.group(1), 16), m.group(2)) for m in LINE.finditer(out)]


def loops(code):
    """(start, end) address of every loop: a branch at `end` back to `start`."""
    found = []
    for address, text in code:
        m = BRANCH.search(text)
        if m and int(m.group(1), 16) <= address:
            found.append((int(m.group(1), 16), address))
    return found


def query_loop(code, chunks):
    best = None
    for start, end in loops(code):
        body = [text for address, text in code if start <= address <= end]
        shared_loads = sum(1 for text in body if re.search(r"\bLDS\b", text))
        if shared_loads < chunks or shared_loads % chunks:
            continue
        if best is None or end - start < best[1] - best[0]:
            best = (start, end, len(body), shared_loads)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fatbin")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--kernel", nargs="*")
    parser.add_argument("--cuobjdump", default=shutil.which("cuobjdump") or "cuobjdump")
    args = parser.parse_args()
    kernels = args.kernel or [f"nq_match_w6_c{c}" for c in range(1, 12)] + [f"nq_match_w7_c{c}" for c in range(1, 10)]
    print(f"{'kernel':18} {'loop':>5} {'LDS':>4} {'queries':>7} {'per query':>9}")
    for kernel in kernels:
        chunks = int(kernel.rsplit("_c", 1)[1])
        loop = query_loop(disassemble(args.cuobjdump, args.fatbin, args.arch, kernel), chunks)
        if loop is None:
            print(f"{kernel:18} no query loop found", file=sys.stderr)
            continue
        _, _, length, shared_loads = loop
        queries = shared_loads // chunks
        print(f"{kernel:18} {length:5} {shared_loads:4} {queries:7} {length / queries:9.1f}")


if __name__ == "__main__":
    main()
