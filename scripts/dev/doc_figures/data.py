"""The figures docs/data holds for each N, each under a name that says where it comes from (a file,
a row, a column), so that a figure of prose can be tied to one of them and checked against it
whenever the data is measured again. Three kinds: seconds (a time), ns a solution, and the cost
of one thing (a unit, a node: ns_per_node, a run's thread time over its units)."""
import csv
import functools
import os
import re

from .common import FIGURES, LONG_RUNS, RECORDS, ROOT, UNITS, named_sizes, sentences

IDENTITY = ("n", "engine", "threads", "symmetry", "card", "cards", "host_threads", "part", "split_depth", "arch",
            "kernel", "pass", "commit", "round", "row")
MEASURED = ("bound_by", "within_bar", "load", "samples")  # a row's measured state: no figure, no name
TIME_COLUMN = re.compile(r"(?:_s|_seconds|_ns)$")
PER_ITEM_COLUMN = re.compile(r"^ns_per_|_per_unit$")
COUNT_COLUMN = re.compile(r"^(?:units|work_units|nodes)$")
NUMERIC = re.compile(r"[\d.e+-]+")


def data_tables():
    """The CSV files of the figures scripts: docs/data's and docs/data/figures', less the
    snapshots of an earlier commit (bench-<commit>.csv), which only comparisons quote."""
    for folder in (os.path.join(ROOT, "docs", "data"), FIGURES):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".csv") and not re.search(r"-[0-9a-f]{7}\.csv$", name):
                yield os.path.join(folder, name)


def row_name(path, identity):
    keys = ",".join(f"{k}={identity[k][:40]}" for k in IDENTITY if identity.get(k))
    return f"{os.path.relpath(path, ROOT)}[{keys}]"


def csv_rows(path):
    """(identity, {column: value}) of each row of a data CSV that is of one N; rows alike in what
    names them are told apart by their place (`row=K`)."""
    seen = {}
    for r in csv.DictReader(line for line in open(path) if not line.startswith("#")):
        if (r.get("n") or "").isdigit():
            numbers = {k: float(v) for k, v in r.items() if k not in IDENTITY + MEASURED and v and NUMERIC.fullmatch(v)}
            identity = {k: r[k] for k in IDENTITY if r.get(k)}
            key = tuple(identity.items())
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                identity["row"] = str(seen[key])
            yield identity, numbers


def run_medians(name):
    """(identity, {wall_s, user_s, cpu_s}) of each group of rounds of figures/cpu.txt or counts.txt,
    their medians, and each round on its own."""
    groups = {}
    for r in csv.DictReader(open(os.path.join(FIGURES, name)), delimiter=" "):
        cpu = float(r["user_s"]) + float(r["system_s"])
        key = (r["n"], r.get("engine") or "join", r["threads"])
        groups.setdefault(key, []).append({"wall_s": float(r["wall_s"]), "user_s": float(r["user_s"]), "cpu_s": cpu})
    for (n, engine, threads), runs in groups.items():
        identity = {"n": n, "engine": engine, "threads": threads}
        yield identity, {k: sorted(run[k] for run in runs)[len(runs) // 2] for k in runs[0]}
        for at, run in enumerate(runs, 1):
            yield dict(identity, round=str(at)), run


@functools.lru_cache(maxsize=None)
def measured_rows():
    """(name, identity, {column: value}) of every row of the data: the CSV files and the rounds of
    figures/cpu.txt and counts.txt."""
    rows = [(row_name(path, identity), identity, values)
            for path in data_tables() for identity, values in csv_rows(path)]
    for name in ("cpu.txt", "counts.txt"):
        path = os.path.join(FIGURES, name)
        rows += [(row_name(path, identity), identity, values) for identity, values in run_medians(name)]
    return rows


def duration_seconds(text):
    """Every duration of a record's text ('14 min 14 s (854.5 s)', '47 min 20 s', '72.1 s')."""
    found = []
    for minutes, secs, unit in re.findall(r"(?:(\d+) min )?(\d+(?:\.\d+)?) (s|ms)\b", text):
        found.append(int(minutes or 0) * 60 + float(secs) * UNITS[unit])
    return found


def add(figures, n, name, value):
    if value > 0:
        figures.setdefault(int(n), {})[name] = value


def table_times(seconds, ns_figures, per_item):
    """The times of the data's rows (a row's CPU time too: its time on all its threads), its ns a
    solution (the `_ns` columns) and its costs of one thing (ns_per_node; a time over the row's
    units or nodes)."""
    for name, identity, values in measured_rows():
        threads = int(identity.get("threads") or 1)
        counts = {k: v for k, v in values.items() if COUNT_COLUMN.match(k) and v > 0}
        for column, value in values.items():
            if PER_ITEM_COLUMN.search(column):
                add(per_item, identity["n"], f"{name}.{column}", value * 1e-9 if column.startswith("ns_") else value)
            elif column.endswith("_ns"):
                add(ns_figures, identity["n"], f"{name}.{column}", value)
            elif TIME_COLUMN.search(column):
                add(seconds, identity["n"], f"{name}.{column}", value)
                add(seconds, identity["n"], f"{name}.{column} on all {threads} threads", value * threads)
                for count, many in counts.items():
                    add(per_item, identity["n"], f"{name}.{column} / {count}", value / many)


def plan_times(seconds):
    for name in sorted(os.listdir(FIGURES)):
        plan = re.fullmatch(r"plan-(\d+)\.time", name)
        if plan:
            wall, user = open(os.path.join(FIGURES, name)).read().split()[:2]
            add(seconds, plan.group(1), f"docs/data/figures/{name} wall", float(wall))
            add(seconds, plan.group(1), f"docs/data/figures/{name} user", float(user))


def record_times(seconds, ns_figures, per_item):
    """The records (long-runs.md, comparisons.md): the durations of long-runs.md's rows, and every
    figure of each of their sentences for the sizes it names (a record's sentence is its datum)."""
    for row in re.finditer(r"^\| `(count -n (\d+)[^`]*)`[^|]*\|(.*)$", open(LONG_RUNS).read(), re.M):
        for at, value in enumerate(duration_seconds(row.group(3)), 1):
            add(seconds, row.group(2), f"long-runs.md row `{row.group(1)}` duration {at}", value)
    for record in RECORDS:
        for start, sentence in sentences(open(record).read()):
            where = f"{os.path.basename(record)} sentence '{masked(sentence[:50])}'"
            for n in named_sizes(sentence):
                for at, value in enumerate(duration_seconds(sentence), 1):
                    add(seconds, n, f"{where} duration {at}", value)
                for at, (low, value) in enumerate(re.findall(r"(?:([\d.]+) to )?([\d.]+) ns\b(?! (?:each|a|per)\b)",
                                                             sentence), 1):
                    add(ns_figures, n, f"{where} ns {at}", float(value))
                    if low:  # "1.15 to 1.18 ns": the low end is a datum of its own
                        add(ns_figures, n, f"{where} ns {at} low end", float(low))
                for at, (value, unit) in enumerate(re.findall(r"([\d.]+) (ns|s) (?:each|a|per)\b", sentence), 1):
                    add(per_item, n, f"{where} cost of one {at}", float(value) * (1e-9 if unit == "ns" else 1))


def masked(text):
    """Text with its figures masked: a name that outlives the figures it holds being measured again."""
    return re.sub(r"\d[\d,.]*", "#", " ".join(text.split()))


@functools.lru_cache(maxsize=None)
def figures_of_n(totals_items):
    """{kind: {n: {name: value}}} for the kinds 'seconds', 'ns' (a solution) and 'item' (seconds of
    one thing); a time over A000170(N) is its ns a solution."""
    totals = dict(totals_items)
    seconds, ns_figures, per_item = {}, {}, {}
    table_times(seconds, ns_figures, per_item)
    plan_times(seconds)
    record_times(seconds, ns_figures, per_item)
    for n, named in seconds.items():
        if totals.get(n):
            for name, value in named.items():
                ns_figures.setdefault(n, {})[f"{name} / A000170"] = value / totals[n] * 1e9
    return {"seconds": seconds, "ns": ns_figures, "item": per_item}


RATIO_COLUMN = re.compile(r"speedup|^vs_|ratio$|^ceiling_")
RATIO_TIME_COLUMN = re.compile(r"^(?!min_|mean_|max_|stddev_).*(?:_s|_seconds|_ns)$")
COMPARED = {"threads": r"^speedup", "engine": r"^vs_dfs"}


def ratio_values(values, totals_of_n):
    """The columns of a row that a ratio of prose may be taken of: times (and their ns a solution),
    counts of units and nodes, ratio columns, and the ceiling a largest unit's share sets."""
    kept = {k: v for k, v in values.items() if RATIO_TIME_COLUMN.search(k) or RATIO_COLUMN.search(k)
            or COUNT_COLUMN.match(k)}
    if values.get("largest_unit_share", 0) > 0:
        kept["ceiling"] = 1 / values["largest_unit_share"]
    if totals_of_n:
        kept.update({f"{k} a solution": v / totals_of_n for k, v in values.items() if RATIO_TIME_COLUMN.search(k)
                     and not k.startswith("largest_unit")})
    return kept


def data_ratios(sizes, others, fields, totals, words):
    """{name: ratio} the data gives for sizes: its ratio columns (less those of a comparison the
    sentence does not make), and a column of one row over the same column of a row of the same file
    that differs from it in one thing the sentence compares: N, engine or threads (`fields`), or
    another whose values the sentence names (`words`: "mirror", "none")."""
    return dict(cached_ratios(frozenset(sizes), frozenset(others), frozenset(fields), tuple(sorted(totals.items())),
                              frozenset(words)))


def compares(field, identity, other, fields, words):
    if field in ("n", *COMPARED):
        return field in fields
    return identity.get(field) in words or other.get(field) in words


@functools.lru_cache(maxsize=None)
def cached_ratios(sizes, others, fields, totals_items, words):
    totals = dict(totals_items)
    rows = [(name, identity, ratio_values(values, totals.get(int(identity["n"]))))
            for name, identity, values in measured_rows()
            if int(identity["n"]) in sizes | others and "round" not in identity]
    left_out = [column for field, column in COMPARED.items() if field not in fields]
    ratios = {}
    for name, identity, values in rows:
        if int(identity["n"]) not in sizes:
            continue
        ratios.update({f"{name}.{k}": v for k, v in values.items() if (RATIO_COLUMN.search(k) or k == "ceiling")
                       and not any(re.search(column, k) for column in left_out)})
        for other_name, other, other_values in rows:
            differ = [k for k in identity.keys() | other.keys() if identity.get(k) != other.get(k)]
            if name.split("[")[0] != other_name.split("[")[0] or len(differ) != 1 or \
                    not compares(differ[0], identity, other, fields, words):
                continue
            ratios.update({f"{name} / {other_name}.{k}": values[k] / other_values[k]
                           for k in values.keys() & other_values.keys()
                           if values[k] > 0 and other_values[k] > 0 and not RATIO_COLUMN.search(k)})
    return ratios


@functools.lru_cache(maxsize=None)
def units_of_n():
    """{n: the join's units} (docs/data/join-run-costs.csv)."""
    with open(os.path.join(ROOT, "docs", "data", "join-run-costs.csv")) as rows:
        return {int(r["n"]): int(r["units"]) for r in csv.DictReader(rows)}
