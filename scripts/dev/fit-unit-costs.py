#!/usr/bin/env python3
"""Fits the join's cost model (src/join/unit_cost.hpp) to units timed whole, and prices every N.

  scripts/dev/fit-unit-costs.py [--build build/release] [--work DIR] [--data docs/data]

For N = 16 to 24 it times a sample of units by their thread's CPU clock (join_bench --unit-times:
every unit up to N = 18, then every s-th), reads each unit's work as the model sees it (join_bench
--unit-work: row sets, halves, the matcher's price), and fits the three constants of each parity
of N by a grid search that minimises the squared logs of measured over predicted time: of each
N's whole sample (weight 4) and of its eight bands of work (weight 1 each), so that neither the
totals nor the shape of a run are given up for the other. It writes

  DATA/join-unit-fit.csv   per N: units timed, their CPU seconds, the model's, the ratio, and the
                           least and greatest ratio of its eight bands
  DATA/join-run-costs.csv  per N = 16 to 28: units, the model's thread-seconds for the whole run,
                           and its largest unit

and prints the constants to put in unit_cost.cpp (unit_cost_constants) and the thread-seconds for
the join's rough costs (join_engine.cpp). WORK keeps the raw files (unit-work and unit-times per
N); given an existing WORK, files already there are reused. Takes about an hour on two cores
(N = 27 and 28's unit lists take minutes to price).
"""
import argparse
import math
import pathlib
import subprocess
import sys
import tempfile

TIMED = {16: (1, 0), 17: (1, 0), 18: (1, 0), 19: (4, 1), 20: (16, 3), 21: (64, 5), 22: (256, 7), 23: (2048, 11),
         24: (8192, 13)}
PRICED = range(16, 29)
GRID_ROW_SET = [0, 250, 500, 1000, 2000, 4000, 8000]
GRID_HALF = [0, 0.5, 1, 1.5, 2, 3, 4, 6]
GRID_MATCHER = [x / 100 for x in range(5, 60)]


def run_to(path, command):
    if path.exists() and path.stat().st_size > 0:
        return
    with open(path, 'w') as out:
        subprocess.run(command, stdout=out, check=True)


def read_work(path):
    work = {}
    for line in path.read_text().splitlines()[1:]:
        unit, row_sets, halves, matcher_ns, _ = line.split()
        work[int(unit)] = (float(row_sets), float(halves), float(matcher_ns))
    return work


def read_times(path):
    times = {}
    for line in path.read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) == 4 and float(fields[1]) > 0:
            times[int(fields[0])] = float(fields[1]) * 1e9
    return times


def bands(work, times):
    """Eight bands of the timed units by their work, each as summed (row sets, halves, matcher ns, ns)."""
    ids = sorted(times, key=lambda unit: work[unit][1] + work[unit][2])
    size = max(1, len(ids) // 8)
    result = []
    for band in range(8):
        part = ids[band * size:(band + 1) * size] if band < 7 else ids[7 * size:]
        if part:
            result.append(tuple(sum(work[u][i] for u in part) for i in range(3)) + (sum(times[u] for u in part),))
    return result


def predicted(constants, item):
    return constants[0] * item[0] + constants[1] * item[1] + constants[2] * item[2]


def loss(constants, samples):
    total = 0
    for parts in samples.values():
        whole = sum(predicted(constants, p) for p in parts)
        total += 4 * math.log(sum(p[3] for p in parts) / whole) ** 2
        total += sum(math.log(p[3] / predicted(constants, p)) ** 2 for p in parts) / len(parts)
    return total


def fit(samples):
    return min(((r, h, m) for r in GRID_ROW_SET for h in GRID_HALF for m in GRID_MATCHER),
               key=lambda c: loss(c, samples))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--build', default='build/release')
    parser.add_argument('--work', default=None)
    parser.add_argument('--data', default='docs/data')
    args = parser.parse_args()
    bench = pathlib.Path(args.build) / 'bench' / 'join_bench'
    work_dir = pathlib.Path(args.work or tempfile.mkdtemp(prefix='unit-costs-'))
    work_dir.mkdir(parents=True, exist_ok=True)
    for n in PRICED:
        run_to(work_dir / f'work{n}.txt', [str(bench), '--unit-work', str(n)])
    for n, (stride, first) in TIMED.items():
        run_to(work_dir / f't{n}.txt', [str(bench), '--unit-times', str(n), str(stride), str(first)])

    samples = {n: bands(read_work(work_dir / f'work{n}.txt'), read_times(work_dir / f't{n}.txt')) for n in TIMED}
    constants = {parity: fit({n: s for n, s in samples.items() if n % 2 == parity}) for parity in (0, 1)}

    data = pathlib.Path(args.data)
    with open(data / 'join-unit-fit.csv', 'w') as out:
        out.write('n,units_timed,measured_seconds,model_seconds,ratio,least_band_ratio,greatest_band_ratio\n')
        for n, parts in samples.items():
            c = constants[n % 2]
            measured = sum(p[3] for p in parts) * 1e-9
            model = sum(predicted(c, p) for p in parts) * 1e-9
            ratios = [p[3] / predicted(c, p) for p in parts]
            timed = len(read_times(work_dir / f't{n}.txt'))
            out.write(f'{n},{timed},{measured:.4g},{model:.4g},{measured / model:.3f},{min(ratios):.2f},{max(ratios):.2f}\n')
    with open(data / 'join-run-costs.csv', 'w') as out:
        out.write('n,units,thread_seconds,largest_unit_seconds\n')
        for n in PRICED:
            c = constants[n % 2]
            units = [predicted(c, w) for w in read_work(work_dir / f'work{n}.txt').values()]
            out.write(f'{n},{len(units)},{sum(units) * 1e-9:.4g},{max(units) * 1e-9:.4g}\n')
            print(f'N={n}: {sum(units) * 1e-9:.4g} thread-seconds', file=sys.stderr)
    for parity, c in constants.items():
        print(f'{"even" if parity == 0 else "odd"} n: row_set_ns {c[0]}, half_ns {c[1]}, matcher_scale {c[2]}')
    print(f'raw files in {work_dir}')


if __name__ == '__main__':
    main()
