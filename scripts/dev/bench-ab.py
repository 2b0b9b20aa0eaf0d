#!/usr/bin/env python3
"""Compares two builds of nqueens on a noisy machine: runs their `bench` in turn, round after round.

    scripts/dev/bench-ab.py OLD/nqueens NEW/nqueens                      # N = 16,17, 1 and 2 threads
    scripts/dev/bench-ab.py OLD/nqueens NEW/nqueens --rounds 8 -- -n 18 -t 1,2 -r 3 --engines join

Each round runs the first build's bench, then the second's, with the same arguments (the ones
after --; `--no-baseline --format csv` are added). Alternating puts both builds under the same
background load, so the comparison survives a machine whose speed drifts. For each build, N,
engine and thread count it prints the median over the rounds of bench's median time, and for
each build the median over the rounds of the one-thread time over each other thread count's
(speedup), with its range. Needs only python3.
"""
import argparse
import collections
import csv
import io
import statistics
import subprocess
import sys

DEFAULT_BENCH = ["-n", "16,17", "-t", "1,2", "-r", "7", "--engines", "join"]


def bench(binary, args):
    """One bench run: {(n, engine, threads): median seconds}."""
    out = subprocess.run([binary, "bench", *args, "--no-baseline", "--format", "csv"],
                         check=True, capture_output=True, text=True).stdout
    return {(int(row["n"]), row["engine"], int(row["threads"])): float(row["median_seconds"])
            for row in csv.DictReader(io.StringIO(out))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--rounds", type=int, default=6)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    options = parser.parse_args(argv[:split])
    args = argv[split + 1:] or DEFAULT_BENCH
    times = collections.defaultdict(list)     # (build, n, engine, threads) -> medians
    speedups = collections.defaultdict(list)  # (build, n, engine, threads) -> t1 / t
    for round_number in range(1, options.rounds + 1):
        for build in (options.first, options.second):
            medians = bench(build, args)
            for (n, engine, threads), seconds in medians.items():
                times[(build, n, engine, threads)].append(seconds)
                one = medians.get((n, engine, 1))
                if one is not None and threads != 1:
                    speedups[(build, n, engine, threads)].append(one / seconds)
        print(f"round {round_number} of {options.rounds} done", file=sys.stderr)
    print("build,n,engine,threads,median_seconds,speedup_median,speedup_min,speedup_max")
    for key in sorted(times):
        build, n, engine, threads = key
        ratios = speedups.get(key, [])
        spread = (f"{statistics.median(ratios):.3f},{min(ratios):.3f},{max(ratios):.3f}" if ratios else ",,")
        print(f"{build},{n},{engine},{threads},{statistics.median(times[key]):.4f},{spread}")


if __name__ == "__main__":
    main()
