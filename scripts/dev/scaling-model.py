#!/usr/bin/env python3
"""Cluster scaling model from measured per-unit costs (docs/cluster.md, "Scaling model").

    scripts/dev/scaling-model.py JOURNAL... [--threads 1,16] [--ranks 16,64,256] [--cost auto]
    scripts/dev/scaling-model.py JOURNAL... --simulate [--latency-us 100] [--policy work] ...

Each JOURNAL is a finished checkpoint journal (`nqueens count -n N --checkpoint FILE`): one record
per work unit with its search nodes and, in format 3 and 4 journals, the microseconds its kernel call
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

Communication and start-up are left out of these three.

--simulate replays the run through nqueens-mpi's protocol instead (docs/cluster.md, "How the
work is spread"), event by event, with the journal's measured times: R ranks of T threads each;
a rank's main thread draws positions of the shared list (the journal's order) by the draw policy
and sleeps --latency-us before each draw and before each batch it sends, as
NQUEENS_MPI_LATENCY_US makes the program do; a rank keeps one draw's worth waiting ahead of its
threads; finished units go to rank 0 in batches (--batch-units, --batch-seconds), and rank 0's
main thread, which also draws for rank 0, spends --collect-us per unit recording them (ledger
and journal line: 0.65 us measured on the development machine, 0.2 us without a journal).
--policy work is nqueens-mpi's draw policy (src/mpi/draw_policy.hpp): a draw is worth
min(T x --per-thread-ms of estimated time at the rank's measured rate, remaining / (--share x R)),
the estimate of a unit being its measured time (an exact estimate; the journal's order carries
the real estimate's ordering errors); --policy units is the earlier one: each rank keeps T units
waiting and draws min(T - waiting, remaining units / (2 x R)). For a journal in the order units
were handed out, count it with one thread (`nqueens count -t 1`) or with nqueens-mpi: several
threads of `nqueens count` finish units out of list order. It prints, in seconds: ideal =
total / P, the largest unit, rank 0's collecting (units x --collect-us, serial), the simulated
run (the last unit recorded by rank 0), the efficiency (total / (P x simulated)), and which
term limits it.

--sample (with --simulate) projects a run too large to count from a uniform sample of its units:
count the sampled ids with `nqueens count -n N --units @FILE --checkpoint SAMPLE.journal`; each
sampled time then stands for units / sampled units of the run, dealt costliest first (the order
an exact estimate gives). Runs larger than this machine's (N >= 24) are projected this way.

The records' checksums are not checked here: `nqueens check FILE` does that.
"""
import argparse
import bisect
import collections
import heapq
import sys

# Words of a unit record by journal format: "U id total o1 o2 o4 o8 nodes [microseconds] crc".
RECORD_WORDS = {2: 9, 3: 10, 4: 10}
NODES, MICROSECONDS = 7, 8


def fail(message):
    sys.exit(f"scaling-model: {message}")


def read_journal(path, sample=False):
    """The header's fields, and per unit (in the order first recorded) its nodes and time (or None).
    A sample (sample=True) may hold any number of the run's units; a whole journal must hold all."""
    with open(path) as journal:
        lines = journal.read().split("\n")
    first = lines[0].split()
    if len(first) < 2 or first[0] != "nqueens-journal" or not first[1].isdigit():
        fail(f"{path}: not a checkpoint journal (its first line is not an nqueens-journal header)")
    version = int(first[1])
    if version not in RECORD_WORDS:
        fail(f"{path}: a journal of format {version}; this script reads formats 2 to 4")
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
    if sample and not units:
        fail(f"{path}: no unit recorded: a sample needs at least one")
    if not sample and len(units) != int(header["units"]):
        fail(f"{path}: not a finished journal ({len(units)} of {header['units']} units recorded; "
             "--sample reads a journal of a sample of units)")
    return header, units


def expand_sample(times, units):
    """A whole run's unit times from a uniform sample of them: sample unit i stands for units / len(times)
    units (the remainder spread over the first ones), and the list is dealt costliest first, as the
    dispenser deals it when its estimate orders the units exactly."""
    share, extra = divmod(units, len(times))
    ordered = sorted(times, reverse=True)
    return [time for at, time in enumerate(ordered) for _ in range(share + (1 if at < extra else 0))]


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


class Simulation:
    """nqueens-mpi's run of the units `times` (microseconds, in list order) on `ranks` x `threads`."""

    KEEP = 1.0 - 1.0 / 256  # the rate's decay per unit learnt, as in src/mpi/draw_policy.cpp

    def __init__(self, times, ranks, threads, args):
        self.times = times
        self.ranks, self.threads = ranks, threads
        self.latency = args.latency_us
        self.policy = args.policy
        self.per_thread = args.per_thread_ms * 1000.0
        self.share = args.share
        self.batch_units, self.batch_age = args.batch_units, args.batch_seconds * 1e6
        self.collect = args.collect_us
        self.prefix = [0.0]
        for time in times:
            self.prefix.append(self.prefix[-1] + time + 1.0)  # an estimate's weight: estimate + 1
        self.counter = 0  # the dispenser
        self.draws = 0
        self.events, self.sequence = [], 0
        r = range(ranks)
        self.queue = [collections.deque() for _ in r]
        self.queued = [0.0] * ranks  # estimated cost waiting
        self.idle = [threads] * ranks
        self.in_flight = [0] * ranks  # drawn, not finished
        self.main_free = [0.0] * ranks  # when the main thread is next free
        self.wake_at = [-1.0] * ranks  # a wake already waiting for it
        self.drawing = [False] * ranks
        self.dry = [False] * ranks
        self.seen = [0] * ranks
        self.micros = [0.0] * ranks
        self.costs = [0.0] * ranks
        self.batch = [0] * ranks
        self.batch_since = [0.0] * ranks
        self.collected, self.end = 0, 0.0

    def cost(self, begin, end):
        size = len(self.times)
        begin = min(begin, size)
        return self.prefix[max(begin, min(end, size))] - self.prefix[begin]

    def push(self, time, kind, rank, payload=None):
        self.sequence += 1
        heapq.heappush(self.events, (time, self.sequence, kind, rank, payload))

    def worth(self, rank):
        at = self.seen[rank]
        if self.policy == "units":
            return None
        rate = self.micros[rank] / self.costs[rank] if self.costs[rank] > 0 else 0.0
        timed = self.threads * self.per_thread / rate if rate > 0 else self.cost(at, at + self.threads)
        return min(timed, self.cost(at, len(self.times)) / (self.share * self.ranks))

    def hungry(self, rank):
        if self.dry[rank]:
            return False
        if self.policy == "units":
            return len(self.queue[rank]) < self.threads
        return not self.queue[rank] or self.queued[rank] < self.worth(rank)

    def positions(self, rank, worth):
        at, size = self.seen[rank], len(self.times)
        if self.policy == "units":
            room = self.threads - len(self.queue[rank])
            return max(1, min(room, (size - min(at, size)) // (2 * self.ranks)))
        if at >= size:
            return 1
        end = bisect.bisect_right(self.prefix, self.prefix[at] + worth, lo=at + 1)
        return max(1, end - 1 - at)

    def start_units(self, rank, now):
        while self.idle[rank] and self.queue[rank]:
            at = self.queue[rank].popleft()
            self.queued[rank] = self.queued[rank] - self.cost(at, at + 1) if self.queue[rank] else 0.0
            self.idle[rank] -= 1
            self.push(now + self.times[at], "finish", rank, at)

    def record(self, start, units):
        """Rank 0's main thread records `units` units from `start` on."""
        begin = max(start, self.main_free[0])
        self.main_free[0] = begin + units * self.collect
        self.collected += units
        self.end = max(self.end, self.main_free[0])

    def wake(self, rank, now):
        """The main thread looks: sends the batch when due, draws when hungry."""
        if self.main_free[rank] > now:
            if self.wake_at[rank] != self.main_free[rank]:  # one wake for all that came meanwhile
                self.wake_at[rank] = self.main_free[rank]
                self.push(self.main_free[rank], "wake", rank)
            return
        finished = self.dry[rank] and self.in_flight[rank] == 0
        if rank and self.batch[rank] and (self.batch[rank] >= self.batch_units or finished or
                                          now - self.batch_since[rank] >= self.batch_age):
            self.main_free[rank] = now + self.latency
            self.push(now + self.latency, "arrive", 0, self.batch[rank])
            self.batch[rank] = 0
        if not self.drawing[rank] and self.hungry(rank):
            self.drawing[rank] = True
            done = max(now, self.main_free[rank]) + self.latency
            self.main_free[rank] = done
            self.push(done, "drawn", rank, self.worth(rank))

    def drawn(self, rank, now, worth):
        self.draws += 1
        size = len(self.times)
        first = self.counter
        self.counter += self.positions(rank, worth)
        self.seen[rank] = self.counter
        for at in range(first, min(self.counter, size)):
            self.queue[rank].append(at)
            self.queued[rank] += self.cost(at, at + 1)
            self.in_flight[rank] += 1
        self.drawing[rank] = False
        self.dry[rank] = self.counter >= size
        self.start_units(rank, now)
        self.wake(rank, now)

    def finish(self, rank, now, at):
        self.in_flight[rank] -= 1
        self.idle[rank] += 1
        self.micros[rank] = self.micros[rank] * self.KEEP + self.times[at]
        self.costs[rank] = self.costs[rank] * self.KEEP + self.cost(at, at + 1)
        if rank == 0:
            self.record(now, 1)
        else:
            self.batch[rank] += 1
            if self.batch[rank] == 1:
                self.batch_since[rank] = now
                self.push(now + self.batch_age, "wake", rank)
        self.start_units(rank, now)
        if self.hungry(rank) or self.batch[rank] >= self.batch_units or (self.dry[rank] and not self.in_flight[rank]):
            self.wake(rank, now)

    def run(self):
        """Microseconds until rank 0 has recorded the last unit."""
        for rank in range(self.ranks):
            self.wake(rank, 0.0)
        while self.events:
            now, _, kind, rank, payload = heapq.heappop(self.events)
            if kind == "finish":
                self.finish(rank, now, payload)
            elif kind == "drawn":
                self.drawn(rank, now, payload)
            elif kind == "arrive":
                self.record(now, payload)
            else:
                self.wake(rank, now)
        if self.collected != len(self.times):
            raise RuntimeError(f"simulation lost units: {self.collected} of {len(self.times)} recorded")
        return self.end


def limiting_term(simulated, ideal, largest, collecting):
    """Which term the simulated run is closest to being bound by."""
    if simulated <= 1.05 * ideal:
        return "none: the work itself"
    bound, name = max((collecting, "rank 0 collecting"), (largest, "the largest unit"))
    return name if bound >= 0.8 * simulated else "the schedule: draws, latency and the tail"


def simulate_table(args, paths, threads, ranks):
    print("| N | engine | units | work (s) | ranks x threads | latency (us) | policy | ideal (s) | largest unit (s) "
          "| rank 0 collecting (s) | draws | simulated (s) | efficiency | limited by |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        header, units = read_journal(path, args.sample)
        if not all(microseconds is not None for _, microseconds in units):
            fail(f"{path}: --simulate needs every unit's time (a format 3 or 4 journal)")
        times = [float(microseconds) for _, microseconds in units]
        if args.sample:
            times = expand_sample(times, int(header["units"]))
        total, largest = sum(times), max(times, default=0.0)
        for t in threads:
            for r in ranks:
                simulation = Simulation(times, r, t, args)
                simulated = simulation.run()
                ideal = total / (r * t)
                collecting = len(times) * args.collect_us
                efficiency = total / (r * t * simulated) if simulated > 0 else 1.0
                print(f"| {header.get('n', '?')} | {header.get('engine', '?')} | {len(times)} | {total / 1e6:.4g} "
                      f"| {r} x {t} | {args.latency_us:g} | {args.policy} | {ideal / 1e6:.4g} | {largest / 1e6:.4g} "
                      f"| {collecting / 1e6:.4g} | {simulation.draws} | {simulated / 1e6:.4g} | {efficiency:.3f} "
                      f"| {limiting_term(simulated, ideal, largest, collecting)} |")


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
    simulation = parser.add_argument_group("--simulate: nqueens-mpi's protocol, event by event")
    simulation.add_argument("--simulate", action="store_true", help="simulate the run instead of the bounds")
    simulation.add_argument("--sample", action="store_true",
                            help="each journal holds a uniform sample of its run's units (count --units): "
                                 "the run is the sample's times, each standing for units / sampled units")
    simulation.add_argument("--latency-us", type=float, default=0.0,
                            help="sleep before every draw and every batch sent (default 0)")
    simulation.add_argument("--policy", choices=("work", "units"), default="work",
                            help="draws sized by estimated work (nqueens-mpi's), or by units (the earlier one)")
    simulation.add_argument("--per-thread-ms", type=float, default=20.0,
                            help="estimated time a draw holds per thread (default 20)")
    simulation.add_argument("--share", type=float, default=2.0,
                            help="a draw takes at most remaining / (share x ranks) (default 2)")
    simulation.add_argument("--batch-units", type=int, default=4096, help="units per batch at most (default 4096)")
    simulation.add_argument("--batch-seconds", type=float, default=0.2,
                            help="how long a batch waits to fill at most (default 0.2)")
    simulation.add_argument("--collect-us", type=float, default=0.7,
                            help="rank 0's time to record one unit, in us (default 0.7)")
    args = parser.parse_args()
    try:
        threads = [int(t) for t in args.threads.split(",")]
        ranks = [int(r) for r in args.ranks.split(",")]
    except ValueError:
        fail("--threads and --ranks take comma-separated whole numbers")
    if min(threads + ranks) < 1:
        fail("--threads and --ranks must be at least 1")
    if args.sample and not args.simulate:
        fail("--sample goes with --simulate")
    if args.simulate:
        if min(args.latency_us, args.per_thread_ms, args.batch_seconds, args.collect_us) < 0 or args.share <= 0 \
                or args.batch_units < 1:
            fail("the simulation's settings must not be negative, --share and --batch-units above 0")
        simulate_table(args, args.journals, threads, ranks)
        return

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
