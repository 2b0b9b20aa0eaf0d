#!/usr/bin/env python3
"""Where a one-thread join count spends its CPU time, by part of the engine (perf's samples).

  scripts/dev/join-profile.py [--binary build/release/nqueens] [--repeat R] N [N ...]

Runs `nqueens count -n N -t 1 --engine join` R times under `perf record` (cpu-clock samples of
this process and its children: the figures hold on a busy machine), then sums the samples by the
engine's parts, recognised by function name: matching (the bit-sliced kernel, the blocks' tables,
the queries' preparation, the slot split), enumerating halves, building slices, the set-up
(units, cost model, order), the rotation-fixed search, the OS and the C library's memory calls.
Needs perf (Debian: linux-perf) and perf_event_paranoid <= 2.
"""
import argparse
import re
import subprocess
import tempfile

PARTS = [
    ('match: bit-sliced kernel, pairs one by one', r'count_matches|count_pairs_one_by_one|count_held'),
    ('match: blocks built', r'build_block|BlockBuilder|transpose'),
    ('match: queries prepared, keys packed',
     r'prepare|compress|gather_bits|load_in_layout|fix_layout|plan_chunks|count_by_part|count_prepared|'
     r'weighted_count|load_parts|count_weighted_disjoint_pairs|count_disjoint_pairs'),
    ('match: slot split chosen and sorted',
     r'slot|Slots|split_work|most_shared|sampled|compatible_queries|choose_split|cheapest_split|count_in_slots'),
    ('halves enumerated (keys of the quadrants kept, paired)',
     r'HalfEnumerator|SouthKeyCache|keep_keys|keep_run|append_compatible|append_pairings|QuadrantKeys|SideFold|KeyBuffer|enumerate|'
     r'choose_north'),
    ('slices built', r'SliceSearch|quarter_slice|LoadedSlice|SliceCache|QuarterSlice'),
    ('set-up: units, cost model (placements counted), order',
     r'UnitCost|estimated|JoinPlan|reflection_orbit|row_sets|layout_of|with_rows|FoldRanks|execution_order|'
     r'binomial|count_from|placements_per_row_set|complement_rank|batch_starts|diagonal_fold|matcher_price|__ieee754_(log|exp)|\blog\b|\bexp\b'),
    ('rotation-fixed search', r'rotation|Rotation'),
    ('OS (page clearing, process start, scheduling)', r'^\[k\]|_dl_|do_lookup'),
    ('C library memory calls', r'memset|memcpy|malloc|free|_int_|memmove|operator new|memcmp'),
]


def profile(binary, n, repeat):
    with tempfile.NamedTemporaryFile(suffix='.data') as data:
        loop = f'for i in $(seq {repeat}); do {binary} count -n {n} -t 1 --engine join > /dev/null; done'
        subprocess.run(['perf', 'record', '-F', '4000', '-o', data.name, '--', 'bash', '-c', loop],
                       check=True, capture_output=True)
        report = subprocess.run(['perf', 'report', '-i', data.name, '--no-children', '--sort', 'symbol',
                                 '--percent-limit', '0', '--stdio'], check=True, capture_output=True, text=True)
    shares = {}
    for line in report.stdout.splitlines():
        match = re.match(r'\s*([\d.]+)%\s+(\[.\])\s+(.*?)(\s{2,}|$)', line)
        if not match:
            continue
        symbol = match.group(2) + ' ' + match.group(3)
        part = next((name for name, pattern in PARTS if re.search(pattern, symbol)), 'other')
        shares[part] = shares.get(part, 0) + float(match.group(1))
    return shares


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--binary', default='build/release/nqueens')
    parser.add_argument('--repeat', type=int, default=2)
    parser.add_argument('n', type=int, nargs='+')
    args = parser.parse_args()
    results = {n: profile(args.binary, n, args.repeat) for n in args.n}
    print('| part | ' + ' | '.join(f'N = {n}' for n in args.n) + ' |')
    print('|---|' + '---|' * len(args.n))
    for name in [name for name, _ in PARTS] + ['other']:
        print(f'| {name} | ' + ' | '.join(f'{results[n].get(name, 0):.1f} %' for n in args.n) + ' |')


if __name__ == '__main__':
    main()
