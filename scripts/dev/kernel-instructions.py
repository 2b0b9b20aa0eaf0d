#!/usr/bin/env python3
"""Instructions per pass of the gpu engine's kernels, read from the built cubin.

For each kernel nq_match_w<W>_c<C> (or those given) of one architecture, disassembles it with
`cuobjdump -sass` (the CUDA toolkit's, with nvdisasm beside it), finds its loops (a branch back to
an earlier address), and takes the query loop: the innermost loop with shared-memory loads (LDS),
C of them per query. It prints the loop's instructions, its LDS, and the instructions per query
(the loop's count over the queries an iteration answers): the `pass_instructions` that
src/gpu/device_model.cpp prices a query's pass over a tile at.

For the build kernel nq_sort_sides it takes the candidate loops: the innermost loops with an
atomic add (a half's place in its bucket). Each candidate's half is a block the loop branches
over when the candidate is not disjoint; the rest of the loop is the test every candidate pays.
A loop that stores (STG) is the write pass, one that does not the count pass. It prints, per
pass, the instructions of a candidate's test and of a half: what device_model.hpp's
kCountStepInstructions and kWriteStepInstructions price a warp's step at.

Any other kernel (nq_make_pairings, nq_make_tiles, the plan's nq_plan_row_sets (a block per
row set), nq_place_row_sets (one block), nq_write_plans and nq_sum_row_sets: a thread per side,
job or row set) is recorded by its size: its instructions in all, up to its last EXIT, and those
of its longest innermost loop (none where it has no loop), which the model prices the plan's
kernels by. nq_choose_splits (a thread a row set) also has its sampling loop's instructions, a
candidate's test: its longest loop that holds only innermost ones.

--csv FILE writes every figure of the architectures given (--arch, several allowed) as
arch,kernel,pass,instructions,per: the data docs/data/kernel-instructions.csv keeps, which the
tests hold the model's constants to (GpuModel.ItsInstructionCountsAreTheCubinsData).

  scripts/dev/kernel-instructions.py build/release/generated/match_kernel.fatbin [--arch sm_90 ...]
                                     [--kernel nq_match_w7_c6 ...] [--csv FILE]
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


def build_passes(code):
    """{'count'|'write': (test instructions per candidate, instructions per half)} of nq_sort_sides."""
    found = {}
    all_loops = loops(code)
    for start, end in sorted(all_loops, key=lambda loop: loop[1] - loop[0]):
        if any(start <= s and e <= end and (s, e) != (start, end) for s, e in all_loops):
            continue  # not innermost
        body = [(address, text) for address, text in code if start <= address <= end]
        halves = []
        for address, text in body:
            m = BRANCH.search(text)
            if not (m and text.startswith("@")):
                continue
            target = int(m.group(1), 16)
            if not address < target <= end:
                continue
            block = [t for a, t in body if address < a < target]
            if any("ATOM" in t or "RED" in t for t in block):
                halves.append(block)
        if not halves:
            continue
        half_instructions = sum(len(block) for block in halves)
        kind = "write" if any("STG" in t for block in halves for t in block) else "count"
        if kind not in found:
            found[kind] = ((len(body) - half_instructions) / len(halves), half_instructions / len(halves))
    return found


def sample_loop(code):
    """Instructions of nq_choose_splits' sampling loop: its longest loop that holds only innermost
    loops (a candidate's test, the counting of a kept half's bits inside it)."""
    all_loops = loops(code)

    def inside(outer):
        return [(s, e) for s, e in all_loops if outer[0] <= s and e <= outer[1] and (s, e) != outer]

    def innermost(loop):
        return not inside(loop)

    second = [loop for loop in all_loops if inside(loop) and all(innermost(inner) for inner in inside(loop))]
    return max((sum(1 for a, _ in code if s <= a <= e) for s, e in second), default=0)


def whole_kernel(code):
    """(instructions up to the last EXIT, instructions of the longest innermost loop or 0)."""
    exits = [i for i, (_, text) in enumerate(code) if re.search(r"\bEXIT\b", text)]
    size = exits[-1] + 1 if exits else len(code)
    all_loops = loops(code)
    innermost = [(s, e) for s, e in all_loops
                 if not any(s <= s2 and e2 <= e and (s2, e2) != (s, e) for s2, e2 in all_loops)]
    longest = max((sum(1 for a, _ in code if s <= a <= e) for s, e in innermost), default=0)
    return size, longest


OTHER_KERNELS = ["nq_make_pairings", "nq_choose_splits", "nq_make_tiles", "nq_plan_row_sets", "nq_place_row_sets",
                 "nq_write_plans", "nq_sum_row_sets"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fatbin")
    parser.add_argument("--arch", nargs="*", default=["sm_90"])
    parser.add_argument("--kernel", nargs="*")
    parser.add_argument("--csv")
    parser.add_argument("--cuobjdump", default=shutil.which("cuobjdump") or "cuobjdump")
    args = parser.parse_args()
    kernels = args.kernel or ([f"nq_match_w6_c{c}" for c in range(1, 12)] +
                              [f"nq_match_w7_c{c}" for c in range(1, 10)] + ["nq_sort_sides"] + OTHER_KERNELS)
    rows = []
    for arch in args.arch:
        print(f"{arch}: {'kernel':18} {'loop':>5} {'LDS':>4} {'queries':>7} {'per query':>9}")
        for kernel in kernels:
            code = disassemble(args.cuobjdump, args.fatbin, arch, kernel)
            if not (kernel == "nq_sort_sides" or kernel.startswith("nq_match_")):
                size, loop = whole_kernel(code)
                print(f"{arch}: {kernel:18} {size} instructions, its longest innermost loop {loop}")
                rows += [(arch, kernel, "whole", size, "kernel"), (arch, kernel, "loop", loop, "innermost loop")]
                if kernel == "nq_choose_splits":
                    sample = sample_loop(code)
                    print(f"{arch}: {kernel:18} {sample} instructions a sampled candidate")
                    rows.append((arch, kernel, "sample", sample, "candidate"))
                continue
            if kernel == "nq_sort_sides":
                passes = build_passes(code)
                if not passes:
                    print(f"{kernel:18} no candidate loop found", file=sys.stderr)
                for kind, (test, half) in sorted(passes.items()):
                    print(f"{arch}: {kernel:18} {kind} pass: {test:.1f} a candidate's test, {half:.1f} a half")
                    rows += [(arch, kernel, kind, test, "candidate"), (arch, kernel, kind, half, "half")]
                continue
            chunks = int(kernel.rsplit("_c", 1)[1])
            loop = query_loop(code, chunks)
            if loop is None:
                print(f"{kernel:18} no query loop found", file=sys.stderr)
                continue
            _, _, length, shared_loads = loop
            queries = shared_loads // chunks
            print(f"{arch}: {kernel:18} {length:5} {shared_loads:4} {queries:7} {length / queries:9.1f}")
            rows.append((arch, kernel, "query", length / queries, "query pass over a tile"))
    if args.csv:
        with open(args.csv, "w", encoding="utf-8") as out:
            out.write("arch,kernel,pass,instructions,per\n")
            for arch, kernel, kind, instructions, per in rows:
                out.write(f"{arch},{kernel},{kind},{instructions:.2f},{per}\n")


if __name__ == "__main__":
    main()
