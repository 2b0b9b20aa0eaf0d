#!/usr/bin/env python3
"""Cluster scaling model from measured per-unit costs (docs/cluster.md, "Scaling model").

    scripts/dev/scaling-model.py JOURNAL... [--threads 1,16] [--ranks 16,64,256] [--cost auto]

Each JOURNAL is a finished checkpoint journal (`nqueens count -n N --checkpoint FILE`): one record
per work unit with its search nodes and, in format 3 journals, the microseconds its kernel call
took on its worker thread. The unit's cost is its time (--cost time), or its nodes (--cost
nodes: nearly proportional to time for the dfs engine, not for the join's units); --cost auto,
the default, takes the times when every unit has one and nodes otherwise (format 2 journals,
units resumed from them). For R ranks of T threads, P = R x T workers:

  ceiling  = total / max(total / P, largest unit)   no schedule can do better
  greedy   = total / makespan of a greedy list schedule that hands each free worker the next
             unit in order of decreasing real cost: what costliest-first dispensing reaches when
             its cost estimate orders the units exactly (an optimistic prediction)
  in order = the same greedy schedule, units taken in the order the journal lists them: a
             journal written by one uninterrupted run on few threads lists them nearly in the
             order they were handed out (costliest first by the engine's estimate), so this is
             the prediction for the real dispenser, estimate errors included

Communication and start-up are left out: a unit is milliseconds to minutes of search, a draw and
a finished unit's message are microseconds. The records' checksums are not checked here:
`nqueens check FILE` does that.
"""
import argparse
import heapq
import sys

# Words of a unit record by journal format: "U id total o1 o2 o4 o8 nodes [microseconds] crc".
RECORD_WORDS = {2: 9, 3: 10}
NODES, MICROSECONDS = 7, 8


def fail(message):
    sys.exit(f"scaling-model: {message}")


def read_journal(path):
    """The header's fields, and per unit (in the order first recorded) its nodes and time (or None)."""
    with open(path) as journal:
        lines = journal.read().split("\n")
    first = lines[0].split()
    if len(first) < 2 or first[0] != "nqueens-journal" or not first[1].isdigit():
        fail(f"{path}: not a checkpoint journal (its first line is not an nqueens-journal header)")
    version = int(first[1])
    if version not in RECORD_WORDS:
        fail(f"{path}: a journal of format {version}; this script reads formats 2 and 3")
    header = dict(word.split("=", 1) for word in first[2:] if "=" in word)
    if "units" not in header or not header["units"].isdigit():
        fail(f"{path}: the journal header gives no unit count")

    units, seen = [], set()
    records = lines[1:]
    while records and records[-1] == "":
        records.pop()
    for number, line in enumerate(records, start=2):
        words = line.split()
        if len(words) != RECORD_WORDS[version] or words[0] != "U":
            if number == len(records) + 1:
                continue  # a torn last line: the unit is counted again on resume
            fail(f"{path}: line {number} is not a unit record of format {version} (nqueens check says more)")
        unit = int(words[1])
        if unit in seen:
            continue  # a repeat of a unit counted twice (a resumed run): the counts are equal
        seen.add(unit)
        microseconds = None
        if version >= 3 and words[MICROSECONDS] != "-":
            microseconds = int(words[MICROSECONDS])
        units.append((int(words[NODES]), microseconds))
    if len(units) != int(header["units"]):
        fail(f"{path}: not a finished journal ({len(units)} of {header['units']} units recorded)")
    return header, units


def greedy_makespan(costs, workers):
    """Each unit in turn goes to the worker that is free first."""
    finish = [0] * min(workers, len(costs))
    for cost in costs:
        heapq.heapreplace(finish, finish[0] + cost)
    return max(finish, default=0)


def unit_costs(path, units, cost):
    """The cost of each unit and a label for the total, by --cost."""
    timed = all(microseconds is not None for _, microseconds in units)
    if cost == "time" and not timed:
        fail(f"{path}: not every unit has a time (a format 2 journal, or units resumed from one): use --cost nodes")
    if cost == "time" or (cost == "auto" and timed and sum(m for _, m in units) > 0):
        costs = [microseconds for _, microseconds in units]
        return costs, f"{sum(costs) / 1e6:.4g} s"
    costs = [nodes for nodes, _ in units]
    return costs, f"{sum(costs):.3e} nodes"


def ratio(total, makespan):
    return f"{total / makespan:.1f}" if makespan > 0 else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journals", nargs="+")
    parser.add_argument("--threads", default="1,16", help="threads per rank (default 1,16)")
    parser.add_argument("--ranks", default="16,64,256", help="rank counts (default 16,64,256)")
    parser.add_argument("--cost", choices=("auto", "time", "nodes"), default="auto",
                        help="a unit's cost: its measured time, its search nodes, or the time where every "
                             "unit has one (default auto)")
    args = parser.parse_args()
    try:
        threads = [int(t) for t in args.threads.split(",")]
        ranks = [int(r) for r in args.ranks.split(",")]
    except ValueError:
        fail("--threads and --ranks take comma-separated whole numbers")
    if min(threads + ranks) < 1:
        fail("--threads and --ranks must be at least 1")

    print("| N | engine | units | cost | largest unit | ranks x threads | workers | ceiling | greedy | in order |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in args.journals:
        header, units = read_journal(path)
        costs, label = unit_costs(path, units, args.cost)
        total, largest = sum(costs), max(costs, default=0)
        share = f"{100 * largest / total:.3f} %" if total > 0 else "-"
        for t in threads:
            for r in ranks:
                workers = r * t
                ceiling = ratio(total, max(total / workers, largest))
                greedy = ratio(total, greedy_makespan(sorted(costs, reverse=True), workers))
                in_order = ratio(total, greedy_makespan(costs, workers))
                print(f"| {header.get('n', '?')} | {header.get('engine', '?')} | {len(costs)} | {label} | {share} "
                      f"| {r} x {t} | {workers} | {ceiling} | {greedy} | {in_order} |")


if __name__ == "__main__":
    main()
