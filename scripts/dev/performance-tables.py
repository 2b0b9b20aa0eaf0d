#!/usr/bin/env python3
"""The tables of docs/performance.md, made from the raw figures of performance-figures.sh.

    scripts/dev/performance-tables.py [FIGURES_DIR]   (default docs/data/figures)
    scripts/dev/performance-tables.py --paste [PAGE]  (default docs/performance.md)
    scripts/dev/performance-tables.py --check [PAGE]

Prints each table in markdown, in the page's order, under a comment naming its section. --paste
writes them over the page's tables (each over the table of its section with the same header
row); then bring the prose's figures in line with them. --check fails, naming the section, when
a table made from the figures is not on the page as made.
"""
import csv
import json
import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

MIB = 1024.0


def seconds(t):
    if t < 0.01:
        return f"{t * 1e3:.2f} ms"
    if t < 1:
        return f"{t:.3f} s"
    if t < 10:
        return f"{t:.2f} s"
    return f"{t:.1f} s"


def ratio(x):
    return f"{x:.2f}x"


def with_error(value, error):
    """value +- error, both to the error's second significant digit."""
    decimals = max(0, 1 - math.floor(math.log10(error))) if error > 0 else 2
    return f"{value:.{decimals}f} +- {error:.{decimals}f} s"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def bench_rows(path):
    """(n, engine, threads) -> (median, min) seconds; baselines by n."""
    runs, baselines = {}, {}
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (int(row["n"]), row["engine"], int(row["threads"]))
            runs[key] = (float(row["median_seconds"]), float(row["min_seconds"]))
            if row["baseline_seconds"]:
                baselines[int(row["n"])] = float(row["baseline_seconds"])
    return runs, baselines


def time_per_n(figures):
    runs, _ = bench_rows(figures / "bench.csv")
    rows = []
    for n in sorted({key[0] for key in runs}):
        cell = lambda e, t: f"{seconds(runs[(n, e, t)][0])} ({seconds(runs[(n, e, t)][1])})" if (n, e, t) in runs else ""
        med = lambda e, t: runs[(n, e, t)][0] if (n, e, t) in runs else None
        quotient = lambda a, b: ratio(a / b) if a is not None and b is not None else ""
        rows.append([n, cell("dfs", 1), cell("dfs", 2), cell("join", 1), cell("join", 2),
                     quotient(med("dfs", 1), med("join", 1)), quotient(med("dfs", 2), med("join", 2)),
                     quotient(med("dfs", 1), med("dfs", 2)), quotient(med("join", 1), med("join", 2))])
    return table(["N", "dfs, 1 thread", "dfs, 2 threads", "join, 1 thread", "join, 2 threads",
                  "join vs dfs, 1 thread", "join vs dfs, 2 threads", "2 vs 1 threads, dfs",
                  "2 vs 1 threads, join"], rows)


def cpu_runs(figures):
    """(n, engine, threads) -> lists of (wall, cpu, peak KiB) over the rounds."""
    runs = defaultdict(list)
    lines = (figures / "cpu.txt").read_text().split("\n")[1:]
    for line in filter(None, lines):
        _, n, engine, threads, wall, user, system, peak = line.split()
        runs[(int(n), engine, int(threads))].append((float(wall), float(user) + float(system), int(peak)))
    return runs


def median_of(values, field):
    return statistics.median(value[field] for value in values)


def cpu_time(figures):
    runs = cpu_runs(figures)
    rows = []
    for n in sorted({key[0] for key in runs}):
        for engine in ("dfs", "join"):
            one, two = runs[(n, engine, 1)], runs[(n, engine, 2)]
            versus = ratio(median_of(runs[(n, "dfs", 1)], 1) / median_of(one, 1)) if engine == "join" else ""
            rows.append([n, engine, f"{median_of(one, 1):.2f}", f"{median_of(two, 1):.2f}",
                         f"{median_of(two, 1) / median_of(one, 1):.2f}", versus, f"{median_of(one, 0):.2f}",
                         f"{median_of(two, 0):.2f}"])
    return table(["N", "engine", "CPU s, 1 thread", "CPU s, 2 threads", "CPU, 2 threads / 1",
                  "join vs dfs, CPU, 1 thread", "wall s, 1 thread", "wall s, 2 threads"], rows)


def counts(figures):
    """(n, threads) -> (wall, cpu, peak KiB) of the --verify counts."""
    result = {}
    for line in (figures / "counts.txt").read_text().split("\n")[1:]:
        if line.strip():
            n, threads, wall, user, system, peak = line.split()
            result[(int(n), int(threads))] = (float(wall), float(user) + float(system), int(peak))
    return result


def long_counts(figures):
    rows = []
    for (n, threads), (wall, cpu, peak) in sorted(counts(figures).items()):
        result = f"A000170({n}) and A002562({n}), `ok`" if threads == 1 else "`ok`"
        rows.append([f"`count -n {n} --engine join -t {threads} --verify`", seconds(wall), seconds(cpu),
                     f"{peak / MIB:.1f} MiB", result])
    return table(["command", "wall time", "CPU time", "peak RSS", "result"], rows)


def engine_choice(figures):
    runs, _ = bench_rows(figures / "bench-choice.csv")
    rows = []
    for n in sorted({key[0] for key in runs}):
        dfs, join = runs[(n, "dfs", 1)], runs[(n, "join", 1)]
        rows.append([n, f"{seconds(dfs[0])} ({seconds(dfs[1])})", f"{seconds(join[0])} ({seconds(join[1])})",
                     ratio(dfs[0] / join[0]), ratio(dfs[1] / join[1]), "join" if join[0] < dfs[0] else "dfs"])
    return table(["N", "dfs, median (min)", "join, median (min)", "join vs dfs, medians", "join vs dfs, minima",
                  "faster"], rows)


def baseline(figures):
    runs, baselines = bench_rows(figures / "bench-baseline.csv")
    rows = []
    for n in sorted(baselines):
        base, dfs, join = baselines[n], runs[(n, "dfs", 1)][0], runs[(n, "join", 1)][0]
        rows.append([n, seconds(base), seconds(dfs), seconds(join), ratio(base / dfs), ratio(base / join)])
    return table(["N", "textbook baseline", "dfs", "join", "dfs vs textbook", "join vs textbook"], rows)


def symmetry(figures):
    with open(figures / "bench-symmetry.csv") as f:
        medians = {row["symmetry"]: (float(row["median_seconds"]), int(row["nodes"]), int(row["work_units"]))
                   for row in csv.DictReader(f)}
    rows = [[f"`{mode}`", seconds(m), f"{nodes:,}", units] for mode, (m, nodes, units) in medians.items()]
    return table(["`--symmetry`", "median", "nodes", "work units"], rows)


def join_bench(figures):
    rows = []
    for line in (figures / "join-bench.txt").read_text().split("\n"):
        if not line.startswith("n="):
            continue
        f = dict(field.split("=", 1) for field in line.split())
        timed = lambda name: seconds(float(f[name].rstrip("s")))
        rows.append([f["n"], f"{int(f['units']):,}", f"{int(f['halves']) / 1e6:.1f} M",
                     re.sub(r"e\+?0*(\d)", r"e\1", f["pair_tests"]), f["table"].replace("MB", " MB"), timed("enumerate"),
                     timed("join"), timed("cpu")])
    return table(["N", "row-set units", "halves", "pair tests", "quarter table (all slices)", "enumerating halves",
                  "matching keys", "CPU time, whole run"], rows)


def memory(figures):
    runs, long_runs = cpu_runs(figures), counts(figures)
    rows = []
    for engine in ("dfs", "join"):
        for n in sorted({key[0] for key in runs}):
            rows.append([n, engine, f"{median_of(runs[(n, engine, 1)], 2) / MIB:.1f} MiB",
                         f"{median_of(runs[(n, engine, 2)], 2) / MIB:.1f} MiB"])
    for n in sorted({key[0] for key in long_runs}):
        rows.append([n, "join", f"{long_runs[(n, 1)][2] / MIB:.1f} MiB", f"{long_runs[(n, 2)][2] / MIB:.1f} MiB"])
    return table(["N", "engine", "peak RSS, 1 thread", "peak RSS, 2 threads"], rows)


def count_cpu(figures, n, threads):
    runs, long_runs = cpu_runs(figures), counts(figures)
    if (n, "join", threads) in runs:
        return median_of(runs[(n, "join", threads)], 1)
    return long_runs[(n, threads)][1]


def count_peak(figures, n, engine):
    runs, long_runs = cpu_runs(figures), counts(figures)
    if (n, engine, 2) in runs:
        return median_of(runs[(n, engine, 2)], 2) * 1024
    return long_runs[(n, 2)][2] * 1024


def plans(figures):
    rows, memory_rows = [], []
    for n in (17, 18, 19, 20):
        plan = json.loads((figures / f"plan-{n}.json").read_text())
        took = float((figures / f"plan-{n}.time").read_text().split()[0])
        one, two = count_cpu(figures, n, 1), count_cpu(figures, n, 2)
        estimate = plan["thread_seconds"]
        rows.append([n, f"{plan['work_units']:,}", with_error(estimate, plan["thread_seconds_error"]),
                     f"{seconds(one)}, {seconds(two)}", f"{estimate / one:.2f}, {estimate / two:.2f}",
                     f"{seconds(took)} ({plan['sample_seconds']:.2f} + {plan['setup_seconds']:.2f})",
                     f"{plan['sampled_units']:,}"])
        peak = count_peak(figures, n, "join")
        memory_rows.append([n, "join", f"{plan['memory_bytes'] / MIB / MIB:.1f} MiB", f"{peak / MIB / MIB:.1f} MiB",
                            f"{plan['memory_bytes'] / peak:.2f}"])
    for n in (16, 17):
        plan = json.loads((figures / f"plan-dfs-{n}.json").read_text())
        peak = count_peak(figures, n, "dfs")
        memory_rows.append([n, "dfs", f"{plan['memory_bytes'] / MIB / MIB:.1f} MiB", f"{peak / MIB / MIB:.1f} MiB",
                            f"{plan['memory_bytes'] / peak:.2f}"])
    return "\n\n".join([
        table(["N", "units", "plan: thread time (95 %)", "count: CPU time, 1 and 2 threads", "plan / count",
               "plan took (sampling + setup)", "units sampled"], rows),
        table(["N", "engine", "plan: memory per process", "count: peak RSS", "plan / count"], memory_rows)])


SECTIONS = [("Time per N", time_per_n), ("CPU time", cpu_time), ("N = 19 and 20", long_counts),
            ("The engine choice", engine_choice), ("The textbook baseline", baseline),
            ("The DFS engine's symmetry modes", symmetry), ("Where the join engine's time goes", join_bench),
            ("Memory", memory), ("Planning a run", plans)]


def check(page_path):
    """The tables the page shows must be the figures' tables, cell for cell."""
    page = page_path.read_text()
    figures = page_path.parent / "data" / "figures"
    stale = [title for title, make in SECTIONS
             for made in make(figures).split("\n\n") if made.strip() and made.strip() not in page]
    for title in stale:
        print(f"{page_path}: a table of '{title}' differs from {figures}: "
              "paste scripts/dev/performance-tables.py's output over it", file=sys.stderr)
    return 1 if stale else 0


# The page's heading under which each section's tables stand (two sections share one).
HEADINGS = {"Time per N": "## Time per N", "CPU time": "## CPU time", "N = 19 and 20": "## N = 19 and 20",
            "The engine choice": "## The engine choice", "The textbook baseline": "## The DFS engine",
            "The DFS engine's symmetry modes": "## The DFS engine",
            "Where the join engine's time goes": "## Where the join engine's time goes",
            "Memory": "## Memory", "Planning a run": "## Planning a run"}


def tables_under(lines, heading):
    """(first, end) line ranges of the tables between a '## ' heading and the next one."""
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        raise SystemExit(f"performance-tables.py: the page has no heading '{heading}'")
    found, i = [], start + 1
    while i < len(lines) and not lines[i].startswith("## "):
        if lines[i].startswith("|"):
            end = i
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            found.append((i, end))
            i = end
        else:
            i += 1
    return found


def paste(page_path):
    """Writes each made table over the page's table of its section that has its header row.
    A table is matched by header because a section may hold several; one left unmatched is an
    error, since the page would then keep an old table beside the new figures."""
    lines = page_path.read_text().split("\n")
    figures = page_path.parent / "data" / "figures"
    replacements, taken = [], set()
    for title, make in SECTIONS:
        candidates = tables_under(lines, HEADINGS[title])
        for made in (t.strip("\n") for t in make(figures).split("\n\n") if t.strip()):
            rows = made.split("\n")
            match = next((r for r in candidates if lines[r[0]] == rows[0] and r not in taken), None)
            if match is None:
                raise SystemExit(f"performance-tables.py: no table headed '{rows[0]}' under '{HEADINGS[title]}'")
            taken.add(match)
            replacements.append((match, rows))
    for (first, end), rows in sorted(replacements, reverse=True):
        lines[first:end] = rows
    page_path.write_text("\n".join(lines))
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("--check", "--paste"):
        act = check if sys.argv[1] == "--check" else paste
        sys.exit(act(Path(sys.argv[2] if len(sys.argv) > 2 else "docs/performance.md")))
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        sys.stdout.write(__doc__.strip() + "\n")
        return
    figures = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/data/figures")
    for title, make in SECTIONS:
        print(f"<!-- {title} -->\n{make(figures)}\n")


if __name__ == "__main__":
    main()
