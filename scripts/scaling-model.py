#!/usr/bin/env python3
"""Cluster scaling model from measured per-unit costs (docs/cluster.md, "Scaling model").

    scripts/scaling-model.py JOURNAL... [--threads 1,16] [--ranks 16,64,256]

Each JOURNAL is a finished checkpoint journal of the DFS engine (`nqueens count -n N --engine dfs
--checkpoint FILE`): one line per work unit with its search nodes, which stand for its cost (ns
per node is nearly constant; the join engine's nodes are half-boards, which do not).
For R ranks of T threads, P = R x T workers:

  ceiling  = total / max(total / P, largest unit)   no schedule can do better
  greedy   = total / makespan of a greedy list schedule that hands each free worker the next
             unit in order of decreasing real cost: what costliest-first dispensing reaches when
             its cost estimate orders the units exactly (an optimistic prediction)
  in order = the same greedy schedule, units taken in the order the journal lists them: a
             journal written by one uninterrupted run on few threads lists them nearly in the
             order they were handed out (costliest first by the two-row estimate), so this is
             the prediction for the real dispenser, estimate errors included

Communication and start-up are left out: a unit is milliseconds to minutes of search, a draw and
a finished unit's message are microseconds.
"""
import argparse
import heapq


def read_journal(path):
    header, nodes = None, []
    with open(path) as journal:
        for line in journal:
            words = line.split()
            if words and words[0] == "nqueens-journal":
                header = dict(word.split("=", 1) for word in words[2:] if "=" in word)
            elif words and words[0] == "U" and len(words) in (9, 10):  # format 2; format 3 adds the time
                nodes.append(int(words[7]))
    if header is None or len(nodes) != int(header["units"]):
        raise SystemExit(f"{path}: not a finished journal ({len(nodes)} units recorded)")
    return header, nodes


def greedy_makespan(costs, workers):
    """Each unit in turn goes to the worker that is free first."""
    finish = [0] * min(workers, len(costs))
    for cost in costs:
        heapq.heapreplace(finish, finish[0] + cost)
    return max(finish)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journals", nargs="+")
    parser.add_argument("--threads", default="1,16", help="threads per rank (default 1,16)")
    parser.add_argument("--ranks", default="16,64,256", help="rank counts (default 16,64,256)")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    ranks = [int(r) for r in args.ranks.split(",")]

    print("| N | units | nodes | largest unit | ranks x threads | workers | ceiling | greedy | in order |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in args.journals:
        header, nodes = read_journal(path)
        total, largest = sum(nodes), max(nodes)
        for t in threads:
            for r in ranks:
                workers = r * t
                ceiling = total / max(total / workers, largest)
                greedy = total / greedy_makespan(sorted(nodes, reverse=True), workers)
                in_order = total / greedy_makespan(nodes, workers)
                print(f"| {header['n']} | {len(nodes)} | {total:.3e} | {100 * largest / total:.3f} % "
                      f"| {r} x {t} | {workers} | {ceiling:.1f} | {greedy:.1f} | {in_order:.1f} |")


if __name__ == "__main__":
    main()
