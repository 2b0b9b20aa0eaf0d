#!/usr/bin/env python3
"""The figures the docs repeat, checked against the data they come from (the docs test
docs_figures). A document that states one of them for N = 16..28 beyond its bar fails:

- the cost of a step in N ("each step in N costs A to B times more, about C on average", in
  README.md, docs/usage.md and docs/cluster.md): the ratios of the join's thread time from one N
  to the next in docs/data/join-run-costs.csv, from the sentence's "From N = K" (18 if none) to
  N = 28. A and B must be the least and greatest ratio and C their geometric mean, each within
  15 % (the figures are rounded);
- a thread or CPU time stated for an N ("N = 20 is about 40 s of CPU time"): the same file's
  thread time for that N, within a factor 1.25 (the machine's speed moves from day to day by up to
  a fifth); a range must overlap that bar;
- the Slurm example of docs/cluster.md (`#SBATCH --time=... # N = K on C cores: ... X ...`): X must
  be the sizing table's wall time on C cores as docs/data renders it, and the limit at least
  twice that and at most an hour more (a margin for the start and slower cores, not hours spare);
- the projection of N = 24 from a sample in docs/cluster.md ("the same 64 units took X s of CPU
  time"): their mean time times the run's units must agree with the table's thread time within the sample's own stated error
  bar ("+- P %") and the machine's fifth;
- a code line of README.md that counts N and says how long it takes in a comment
  (`count -n 21 ... # minutes: ...`): the README's own table of that N (1 or 2 threads) must be
  in that unit: seconds under a minute, minutes under an hour, hours under two days;
- the text tables of docs/cluster.md's `mpirun ... nqueens-mpi count` transcripts: their column
  names must be those `nqueens count` prints with the same options (with --binary);
- docs/cluster.md's first `mpirun` example has its root form (`--allow-run-as-root`) beside it;
- README.md's timing table, cell by cell (N = 14..22, 1 and 2 threads), against the data the
  figures scripts wrote: docs/data/figures/bench.csv (the join's median, N = 14..19),
  figures/counts.txt (N = 20) and the last `count -n K -t 2 --verify` rows of
  docs/data/long-runs.md (N = 21, 22), within 5 % (a table's figure, copied to two or three
  digits); every N of that range has its row;
- docs/performance.md's table of the model's sums (N = 22..28): units, thread-seconds and largest
  unit as join-run-costs.csv has them, and the ns a solution they imply with A000170 (from
  `nqueens oeis`, with --binary), within 5 %; every N of that range has its row;
- any other time ("X s", "X ms", "X min Y s", "X minutes", hours, days, years) or ns a solution
  ("X ns"; both ends of "A to B ns") in the prose of README.md and docs/*.md (tables, code blocks, comments and the sections
  a script renders aside) in a sentence that names an N of 16..28
  (with --binary): it must be, within 5 %, a figure the data holds for the N named just before it
  or just after it in the sentence ("N = 16 to 19" names each). The data: every `_s`, `_seconds`
  and `_ns` column of the CSV files of docs/data and docs/data/figures (bench's also times its
  threads: CPU time), the runs of figures/cpu.txt and counts.txt and their medians, the plans'
  times, and the records docs/data/long-runs.md and comparisons.md (their rows and the figures of
  each of their sentences, for the N it names); a time over A000170(N) is its ns a solution.
  Left out: a bound ("under", "over", "shorter than", "at most", "at least", "up to" X), a cost of one
  thing ("X s a unit", "X ns each"), and a sentence that names the commit it was measured at (a
  record of that run). Since the data hold many figures for an N, a wrong figure that happens to
  be near another of them passes; one that is near none fails.
- any ratio ("X times", "Xx", both ends of "A to B times") in such a sentence (less the step in N
  above, a bound, "up to X times", and the growth of a cost of one thing): within its own
  rounding (twice half its last digit, at least 2 %; a round word or an "about": 15 %) a ratio of
  the sizes named nearest it: a ratio column of the data, or a time (median, per solution) of
  one row over the same column of a row that differs from it in one thing the sentence compares
  (two sizes or a step: N; threads; engines); one a record states, where the sentence links to
  it; one the tables of the sentence's section give ("Xx" cells, ratio columns, one named N's
  cell over another's, a cell over the figure just before the ratio); or the ratio of two
  figures the sentence gives itself ("0.552 -> 0.00357", "292 MiB instead of 62 MiB"). The data
  hold many ratios for an N (the speedups of several tables), so a ratio off by a tenth or a
  fifth often lands near another and passes; one near none fails.

    scripts/dev/doc-figures.py check [--binary build/release/nqueens]

The data files are written by the figures scripts (scripts/dev/cluster-table.py measure,
fit-unit-costs.py); a document is brought in line with them by hand.
"""
import argparse
import csv
import importlib.util
import math
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
COSTS_CSV = os.path.join(ROOT, "docs", "data", "join-run-costs.csv")
STEP_DOCS = ["README.md", "docs/usage.md", "docs/cluster.md"]
TIME_DOCS = ["README.md"] + [os.path.join("docs", name) for name in sorted(os.listdir(os.path.join(ROOT, "docs")))
                             if name.endswith(".md")]
SIZES = range(16, 29)
LAST_N = 28
ROUNDING = 0.15        # a figure the docs round, against the data
MACHINE = 1.25         # the machine's speed from day to day, and the model against a count
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12}
UNITS = {"ms": 1e-3, "s": 1, "seconds": 1, "min": 60, "minutes": 60, "h": 3600, "hours": 3600, "days": 86400,
         "years": 365.25 * 86400}
DURATION = r"([\d.,]+)(?: to ([\d.,]+))? (ms|s|seconds|min|minutes|h|hours|days|years)"


def load_cluster_table():
    spec = importlib.util.spec_from_file_location("cluster_table", os.path.join(ROOT, "scripts", "dev",
                                                                              "cluster-table.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def thread_seconds():
    with open(COSTS_CSV) as rows:
        return {int(r["n"]): float(r["thread_seconds"]) for r in csv.DictReader(rows)}


def number(text):
    text = text.strip().lower()
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    half = re.fullmatch(r"(\w+) and a half", text)
    if half and half.group(1) in NUMBER_WORDS:
        return NUMBER_WORDS[half.group(1)] + 0.5
    return float(text.replace(",", ""))


def line_of(text, at):
    return text.count("\n", 0, at) + 1


def sentences(text):
    """(start, sentence) pairs: prose split at '. ' and blank lines, line breaks joined."""
    start = 0
    for match in re.finditer(r"(?<=[a-z0-9)])\.\s|\n\s*\n", text):
        yield start, " ".join(text[start:match.end()].split())
        start = match.end()
    yield start, " ".join(text[start:].split())


def near(stated, actual, bar):
    return abs(stated - actual) <= bar * actual


# ---- the cost of a step in N ------------------------------------------------------------------

STEP = re.compile(r"each step in N (?:costs|multiplies the work by) ([\w.]+) to ([\w.]+)(?: times)?(?: more)?, "
                  r"about ([\w. ]+?) on average")


def step_problems(path, text, costs):
    problems = []
    for start, sentence in sentences(text):
        found = STEP.search(sentence)
        if not found:
            continue
        first = re.search(r"From N = (\d+)", sentence)
        low_n = int(first.group(1)) if first else 18
        ratios = [costs[n + 1] / costs[n] for n in range(low_n, LAST_N)]
        mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        least, most, about = (number(found.group(i)) for i in (1, 2, 3))
        wanted = f"{min(ratios):.2g} to {max(ratios):.2g}, about {mean:.2g}"
        if not (near(least, min(ratios), ROUNDING) and near(most, max(ratios), ROUNDING)
                and near(about, mean, ROUNDING)):
            problems.append(f"{path}:{line_of(text, start)}: says each step in N costs {found.group(1)} to "
                            f"{found.group(2)} times, about {found.group(3)}; {os.path.relpath(COSTS_CSV, ROOT)} "
                            f"gives {wanted} from N = {low_n} to {LAST_N}")
    return problems


# ---- a thread or CPU time stated for an N ------------------------------------------------------

TIME_OF_N = re.compile(r"N = (\d+) (?:is|takes|took|costs) (?:about |some |under |over )?" + DURATION +
                       r" of (?:CPU|thread) time")


def time_problems(path, text, costs):
    problems = []
    for start, sentence in sentences(text):
        for found in TIME_OF_N.finditer(sentence):
            n = int(found.group(1))
            if n not in SIZES or n not in costs:
                continue
            scale = UNITS[found.group(4)]
            low = number(found.group(2)) * scale
            high = number(found.group(3)) * scale if found.group(3) else low
            truth = costs[n]
            if high < truth / MACHINE or low > truth * MACHINE:
                problems.append(f"{path}:{line_of(text, start)}: '{found.group(0)}': "
                                f"{os.path.relpath(COSTS_CSV, ROOT)} gives {truth:.3g} s of thread time "
                                f"(within a factor {MACHINE})")
    return problems


# ---- the Slurm example's time limit ------------------------------------------------------------

SLURM_TIME = re.compile(r"#SBATCH --time=(\d+):(\d\d):(\d\d)\s+# N = (\d+) on ([\d,]+) cores: [^\n]*?"
                        r"(?:the sizing table's|table's) " + DURATION)


def slurm_problems(path, text, table):
    problems = []
    data = table.Data()
    found_any = False
    for found in SLURM_TIME.finditer(text):
        found_any = True
        limit = int(found.group(1)) * 3600 + int(found.group(2)) * 60 + int(found.group(3))
        n, cores = int(found.group(4)), int(found.group(5).replace(",", ""))
        wall = table.wall(data.costs[n], data.cluster[n], cores)
        rendered = table.duration(wall)
        stated = " ".join(g for g in found.group(6, 8) if g)
        where = f"{path}:{line_of(text, found.start())}"
        if stated != rendered:
            problems.append(f"{where}: says the sizing table's {stated} for N = {n} on {cores} cores; "
                            f"docs/data renders {rendered}")
        if not 2 * wall <= limit <= wall + 3600:
            problems.append(f"{where}: --time of {limit} s for a wall time of {wall:.0f} s: take between twice "
                            f"that and an hour more")
    if not found_any:
        problems.append(f"{path}: no '#SBATCH --time=... # N = K on C cores: the sizing table's T' line to check")
    return problems


# ---- the projection of N = 24 from a sample ----------------------------------------------------

SAMPLE = re.compile(r"the same (\d+) units took ([\d.]+) s of CPU time")
SAMPLE_BAR = re.compile(r"fix the total to about \+- (\d+) %")
UNITS_24 = re.compile(r"At N = 24 the join has ([\d,]+) units")


def sample_problems(path, text, costs):
    text = " ".join(text.split())
    mean, bar, units = SAMPLE.search(text), SAMPLE_BAR.search(text), UNITS_24.search(text)
    if not (mean and bar and units):
        return [f"{path}: the projection of N = 24 from a sample lacks its mean, its units or its error bar"]
    projected = float(mean.group(2)) / int(mean.group(1)) * int(units.group(1).replace(",", ""))
    truth = costs[24]
    allowed = (1 + int(bar.group(1)) / 100) * MACHINE
    if not truth / allowed <= projected <= truth * allowed:
        return [f"{path}: the sample projects {projected:.3g} s of thread time at "
                f"N = 24, the sizing table's data {truth:.3g} s (beyond +- {bar.group(1)} % and the machine's "
                f"factor {MACHINE})"]
    return []


# ---- README's code comments against its table --------------------------------------------------

COMMENTED_COUNT = re.compile(r"count -n (\d+)\b[^#\n]*# (seconds|minutes|hours|days)\b")
README_ROW = re.compile(r"^\|\s*(\d+)\s*\|([^|]*)\|([^|]*)\|", re.M)


def readme_problems(text):
    rows = {}
    for row in README_ROW.finditer(text):
        times = []
        for cell in row.group(2, 3):
            cell = cell.strip()
            if cell:
                value, unit = cell.split()
                times.append(float(value) * UNITS[unit])
        rows[int(row.group(1))] = times
    bounds = {"seconds": (0, 60), "minutes": (60, 3600), "hours": (3600, 2 * 86400), "days": (86400, math.inf)}
    problems = []
    for found in COMMENTED_COUNT.finditer(text):
        n, word = int(found.group(1)), found.group(2)
        low, high = bounds[word]
        times = rows.get(n, [])
        if not any(low <= t < high for t in times):
            problems.append(f"README.md:{line_of(text, found.start())}: counts N = {n} and says '{word}'; "
                            f"README's table has {', '.join(f'{t:.3g} s' for t in times) or 'no row for it'}")
    return problems


# ---- README's timing table against the data of its figures -------------------------------------

FIGURES = os.path.join(ROOT, "docs", "data", "figures")
LONG_RUNS = os.path.join(ROOT, "docs", "data", "long-runs.md")
TABLE_ROUNDING = 0.05  # a figure of a table, copied from the data to two or three digits
LONG_RUN = re.compile(r"^\| `count -n (\d+) -t 2 --verify` \(the join, by `auto`\) \| [^|(]*\(([\d.]+) s\)", re.M)


def measured_times():
    """{(n, threads): wall seconds} as the figures scripts wrote them: bench's median of the join
    (N = 14..19), count's wall time (N = 20), and the last long run of N = 21 and 22 on 2 threads."""
    times = {}
    with open(os.path.join(FIGURES, "bench.csv")) as rows:
        for r in csv.DictReader(rows):
            if r["engine"] == "join":
                times[(int(r["n"]), int(r["threads"]))] = float(r["median_seconds"])
    with open(os.path.join(FIGURES, "counts.txt")) as rows:
        for r in csv.DictReader(rows, delimiter=" "):
            times.setdefault((int(r["n"]), int(r["threads"])), float(r["wall_s"]))
    for found in LONG_RUN.finditer(open(LONG_RUNS).read()):
        times[(int(found.group(1)), 2)] = float(found.group(2))  # the page's later runs come last
    return times


def readme_table_problems(text):
    """Every cell of README's timing table is the data's figure for its N and threads, within the
    rounding of a table; every N from 14 to 22 has its row."""
    times = measured_times()
    problems, seen = [], set()
    for row in README_ROW.finditer(text):
        n = int(row.group(1))
        seen.add(n)
        for threads, cell in zip((1, 2), row.group(2, 3)):
            cell = cell.strip()
            if not cell:
                continue
            value, unit = cell.split()
            stated = float(value) * UNITS[unit]
            truth = times.get((n, threads))
            where = f"README.md:{line_of(text, row.start())}"
            if truth is None:
                problems.append(f"{where}: N = {n} on {threads} thread(s) is {cell}, and no data file has it")
            elif not near(stated, truth, TABLE_ROUNDING):
                problems.append(f"{where}: N = {n} on {threads} thread(s) is {cell}; the figures' data gives "
                                f"{truth:.3g} s")
    problems += [f"README.md: the timing table has no row for N = {n}" for n in range(14, 23) if n not in seen]
    return problems


# ---- performance.md's table of the model's sums ------------------------------------------------

MODEL_ROW = re.compile(r"^\| (\d+) \| ([\d,]+) \| ([\d.e+]+) \| ([\d.,]+) s \| ([\d.]+|\(A000170\(28\)[^|]*) \|$",
                       re.M)


def model_table_problems(text, costs_rows, totals):
    """The thread-seconds, largest unit and units of each N = 22..28, as join-run-costs.csv has
    them, and its ns a solution as they imply with A000170; every N from 22 to 28 has its row."""
    problems, seen = [], set()
    for row in MODEL_ROW.finditer(text):
        n = int(row.group(1))
        seen.add(n)
        data = costs_rows.get(n)
        where = f"docs/performance.md:{line_of(text, row.start())}"
        if data is None:
            problems.append(f"{where}: N = {n} has no row in {os.path.relpath(COSTS_CSV, ROOT)}")
            continue
        stated = (int(row.group(2).replace(",", "")), float(row.group(3)), number(row.group(4)))
        truth = (data["units"], data["thread_seconds"], data["largest_unit_seconds"])
        if stated[0] != truth[0] or not near(stated[1], truth[1], TABLE_ROUNDING) or \
                not near(stated[2], truth[2], TABLE_ROUNDING):
            problems.append(f"{where}: N = {n} states {stated[0]} units, {stated[1]:.3g} thread-seconds, a largest "
                            f"unit of {stated[2]:.3g} s; the data has {truth[0]}, {truth[1]:.3g}, {truth[2]:.3g}")
        if n in totals and not row.group(5).startswith("("):
            implied = truth[1] / totals[n] * 1e9
            if not near(float(row.group(5)), implied, TABLE_ROUNDING):
                problems.append(f"{where}: N = {n} states {row.group(5)} ns a solution; the data implies "
                                f"{implied:.2g}")
    problems += [f"docs/performance.md: the model's table has no row for N = {n}" for n in range(22, LAST_N + 1)
                 if n not in seen]
    return problems


def cost_rows():
    with open(COSTS_CSV) as rows:
        return {int(r["n"]): {"units": int(r["units"]), "thread_seconds": float(r["thread_seconds"]),
                              "largest_unit_seconds": float(r["largest_unit_seconds"])} for r in csv.DictReader(rows)}


def oeis_totals(binary):
    ran = subprocess.run([binary, "oeis", "--format", "csv"], capture_output=True, text=True, check=True)
    return {int(r["n"]): int(r["total"]) for r in csv.DictReader(ran.stdout.splitlines()) if r["total"]}


# ---- any figure of prose for an N, against the data of that N ----------------------------------

PROSE_DOCS = TIME_DOCS
RECORDS = [os.path.join(ROOT, "docs", "data", name) for name in ("long-runs.md", "comparisons.md")]
PROSE_BAR = 0.05       # a figure of prose, copied from the data to two or three digits
N_LIST = re.compile(r"\bN = (\d+(?:(?:,? and |, | to |-)\d+(?![.\d]))*)")
BOUND = r"(?<!under )(?<!over )(?<!than )(?<!at most )(?<!at least )(?<!up to )"
PROSE_FIGURE = re.compile(BOUND + r"(?<![\w.])(?:(?P<low>\d+(?:\.\d+)?) to )?(?P<value>\d+(?:\.\d+)?) "
                          r"(?:min (?P<seconds>\d+(?:\.\d+)?) s|(?P<unit>ms|s|ns|min|minutes|h|hours|days|years))\b"
                          r"(?! ?(?:(?:a |per )?(?:unit|node|pair|half)|each)\b)")


def named_sizes(sentence):
    sizes = set()
    for found in N_LIST.finditer(sentence):
        numbers = [int(k) for k in re.findall(r"\d+", found.group(1))]
        if " to " in found.group(1) or "-" in found.group(1):
            numbers = list(range(min(numbers), max(numbers) + 1))
        sizes.update(numbers)
    return sizes


def add_seconds(figures, n, *values):
    figures.setdefault(n, set()).update(v for v in values if v > 0)


def duration_seconds(text):
    """Every duration of a record's text ('14 min 14 s (854.5 s)', '47 min 20 s', '72.1 s')."""
    found = []
    for minutes, secs, unit in re.findall(r"(?:(\d+) min )?(\d+(?:\.\d+)?) (s|ms)\b", text):
        found.append(int(minutes or 0) * 60 + float(secs) * UNITS[unit])
    return found


def data_tables():
    """The CSV files of the figures scripts: docs/data's and docs/data/figures', less the
    snapshots of an earlier commit (bench-<commit>.csv), which only comparisons quote."""
    for folder in (os.path.join(ROOT, "docs", "data"), FIGURES):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".csv") and not re.search(r"-[0-9a-f]{7}\.csv$", name):
                yield os.path.join(folder, name)


def data_figures(totals):
    """{n: set of seconds} and {n: set of ns a solution} that the data files hold for each N:
    bench's times of either engine, the CPU rounds, the counts, the plans' wall time, the longer
    runs' rows and the model's sums; a time over A000170(N), on one core, is its ns a solution."""
    seconds, ns_records = {}, {}
    for path in data_tables():
        for r in csv.DictReader(line for line in open(path) if not line.startswith("#")):
            if not (r.get("n") or "").isdigit():
                continue
            threads = int(r.get("threads") or 1)
            for field, value in r.items():
                if not value or not re.fullmatch(r"[\d.e+-]+", value):
                    continue
                if field.endswith("_s") or field.endswith("_seconds"):
                    add_seconds(seconds, int(r["n"]), float(value), float(value) * threads)
                elif field.endswith("_ns"):
                    add_seconds(ns_records, int(r["n"]), float(value))
    for name in ("cpu.txt", "counts.txt"):
        groups = {}
        for r in csv.DictReader(open(os.path.join(FIGURES, name)), delimiter=" "):
            cpu = float(r["user_s"]) + float(r["system_s"])
            add_seconds(seconds, int(r["n"]), float(r["wall_s"]), float(r["user_s"]), cpu)
            groups.setdefault((r["n"], r.get("engine"), r["threads"]), []).append((float(r["wall_s"]), cpu))
        for (n, _, _), runs in groups.items():  # the median of the rounds
            for column in zip(*runs):
                add_seconds(seconds, int(n), sorted(column)[len(column) // 2])
    for name in os.listdir(FIGURES):
        plan = re.fullmatch(r"plan-(\d+)\.time", name)
        if plan:
            wall, user = open(os.path.join(FIGURES, name)).read().split()[:2]
            add_seconds(seconds, int(plan.group(1)), float(wall), float(user))
    for row in re.finditer(r"^\| `count -n (\d+)[^`]*`[^|]*\|(.*)$", open(LONG_RUNS).read(), re.M):
        add_seconds(seconds, int(row.group(1)), *duration_seconds(row.group(2)))
    for record in RECORDS:  # the records' own prose: each figure for the sizes its sentence names
        for _, sentence in sentences(open(record).read()):
            for n in named_sizes(sentence):
                add_seconds(seconds, n, *duration_seconds(sentence))
                add_seconds(ns_records, n, *(float(v) for v in re.findall(r"([\d.]+) ns\b", sentence)))
    per_solution = {n: {t / totals[n] * 1e9 for t in times} | ns_records.get(n, set())
                    for n, times in seconds.items() if totals.get(n)}
    return seconds, per_solution


def only_lines(match):
    """What a left-out match leaves: its line breaks, so that line numbers stay true."""
    return "\n" * match.group(0).count("\n")


def prose(text):
    """(line, sentence) of the prose: tables, code blocks and the sections a script renders from
    docs/data (between '<!-- NAME: begin' and '<!-- NAME: end -->', held to it by that script's
    check) left out: the tables have rules of their own, and a code block's figures are its output."""
    kept = re.sub(r"```.*?```", only_lines, text, flags=re.S)
    kept = re.sub(r"^\|.*$", "", kept, flags=re.M)
    kept = re.sub(r"<!-- ([\w-]+): begin.*?<!-- \1: end -->", only_lines, kept, flags=re.S)
    kept = re.sub(r"<!--.*?-->", only_lines, kept, flags=re.S)
    return ((line_of(kept, start), sentence) for start, sentence in sentences(kept))


def prose_problems(path, text, totals):
    """A time or ns a solution in a sentence that names sizes of N = 16..28 is the data's figure
    for one of the sizes named nearest it (the mention before it and the one after), within the
    rounding of prose. A sentence that names the commit it was measured at is held to the data
    too: the records (long-runs.md, comparisons.md) keep the figures of earlier commits."""
    seconds, per_solution = data_figures(totals)
    problems = []
    for line, sentence in prose(text):
        mentions = [(found.start(), named_sizes(found.group(0))) for found in N_LIST.finditer(sentence)]
        if not any(sizes & set(SIZES) for _, sizes in mentions):
            continue
        for found in PROSE_FIGURE.finditer(sentence):
            before = [sizes for at, sizes in mentions if at < found.start()][-1:]
            after = [sizes for at, sizes in mentions if at > found.start()][:1]
            sizes = set().union(*before, *after) & set(SIZES)
            if not sizes:
                continue
            if found.group("seconds"):
                stated, known = [float(found.group("value")) * 60 + float(found.group("seconds"))], seconds
            else:
                scale = 1 if found.group("unit") == "ns" else UNITS[found.group("unit")]
                known = per_solution if found.group("unit") == "ns" else seconds
                stated = [float(found.group(g)) * scale for g in ("low", "value") if found.group(g)]
            truths = [truth for n in sizes for truth in known.get(n, ())]
            for figure in stated:  # each end of a range
                if figure > 0 and not any(near(figure, truth, PROSE_BAR) for truth in truths):
                    nearest = min(truths, key=lambda truth: abs(math.log(truth / figure)), default=None)
                    hint = f"the nearest figure of the data is {nearest:.3g}" if truths else "none for that N"
                    problems.append(f"{path}:{line}: '{found.group(0)}' for N = "
                                    f"{', '.join(map(str, sorted(sizes)))}: no data file has {figure:.3g} (within "
                                    f"{PROSE_BAR:.0%}; {hint}); sentence: {sentence[:160]}")
    return problems


# ---- a ratio of prose for an N, against the ratios of the data of that N ---------------------

RATIO = re.compile(BOUND + r"(?<![\w.,])(?:(?:(?P<low>\d+(?:\.\d+)?) to )?(?P<digits>\d[\d,]*(?:\.\d+)?)"
                   r"(?:x\b| times\b)|(?P<word>" + "|".join(NUMBER_WORDS) + r") times\b)")
IDENTITY = {"n", "engine", "threads", "symmetry", "card", "cards", "host_threads", "part", "split_depth", "arch",
            "kernel", "pass", "commit", "bound_by", "within_bar", "load", "round", "samples"}
TIME_COLUMN = re.compile(r"^(?!min_|mean_|max_|stddev_).*(?:_s|_seconds|_ns)$")
RATIO_COLUMNS = re.compile(r"speedup|^vs_|ratio$|^ceiling_")
SIZE_UNITS = {"B": 1, "KiB": 2 ** 10, "kB": 1e3, "MB": 1e6, "MiB": 2 ** 20, "GB": 1e9, "GiB": 2 ** 30, "TB": 1e12,
              "ns": 1e-9, "ms": 1e-3, "s": 1, "min": 60, "h": 3600, "%": 1}
STATED = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?) ?(" + "|".join(sorted(SIZE_UNITS, key=len, reverse=True)) +
                    r")(?![\w])")


def measure_rows(totals):
    """(table, identity, {column: value}) for every row of the data of an N: the CSV files, the
    medians of figures/cpu.txt and counts.txt, with each time over A000170(N) as its ns a solution."""
    rows = []
    for path in data_tables():
        for r in csv.DictReader(line for line in open(path) if not line.startswith("#")):
            if not (r.get("n") or "").isdigit():
                continue
            values = {}
            for field, value in r.items():
                if field in IDENTITY or not value or not re.fullmatch(r"[\d.e+-]+", value):
                    continue
                if not (TIME_COLUMN.search(field) or RATIO_COLUMNS.search(field) or field == "largest_unit_share"):
                    continue  # counts, rates and spreads: a ratio of prose is of times
                values[field] = float(value)
                if field == "largest_unit_share" and values[field] > 0:
                    values["ceiling"] = 1 / values[field]
            rows.append((path, {k: r.get(k) for k in IDENTITY if r.get(k) is not None}, values))
    for name in ("cpu.txt", "counts.txt"):
        groups = {}
        for r in csv.DictReader(open(os.path.join(FIGURES, name)), delimiter=" "):
            cpu = float(r["user_s"]) + float(r["system_s"])
            groups.setdefault((r["n"], r.get("engine") or "join", r["threads"]), []).append(
                (float(r["wall_s"]), float(r["user_s"]), cpu))
        for (n, engine, threads), runs in groups.items():
            medians = [sorted(column)[len(column) // 2] for column in zip(*runs)]
            rows.append((name, {"n": n, "engine": engine, "threads": threads},
                         dict(zip(("wall_s", "user_s", "cpu_s"), medians))))
    for _, identity, values in rows:
        total = totals.get(int(identity["n"]))
        for field in [f for f in values if TIME_COLUMN.search(f) and not f.startswith("largest_unit")]:
            if total:
                values[field + "_per_solution"] = values[field] / total
    return rows


COMPARED = {"threads": (r"\bthreads?\b", r"^speedup"), "engine": (r"\b(?:dfs|DFS|join|engines?)\b", r"^vs_dfs")}


def compared(sentence, named):
    """The things a sentence's ratios may compare: N where it names two sizes or a step, threads
    where it speaks of threads, engines where it names one (other differences: always)."""
    fields = {field for field, (word, _) in COMPARED.items() if re.search(word, sentence)}
    return fields | ({"n"} if len(named) > 1 or re.search(r"\bstep\b", sentence) else set())


def data_ratios(rows, sizes, others, fields):
    """The ratios the data gives for sizes: its ratio columns, and a column of one row over the
    same column of a row of the same table that differs from it in one thing (N, engine, threads...)
    that the sentence compares."""
    ratios = set()
    chosen = [row for row in rows if int(row[1]["n"]) in sizes]
    left_out = [column for field, (_, column) in COMPARED.items() if field not in fields]
    for table, identity, values in chosen:
        ratios.update(v for k, v in values.items() if (RATIO_COLUMNS.search(k) or k == "ceiling")
                      and not any(re.search(column, k) for column in left_out))
        for other_table, other, other_values in (row for row in rows if int(row[1]["n"]) in sizes | others):
            differ = [k for k in identity.keys() | other.keys() if identity.get(k) != other.get(k)]
            if other_table != table or len(differ) != 1 or \
                    (differ[0] in ("n", *COMPARED) and differ[0] not in fields):
                continue
            ratios.update(values[k] / other_values[k] for k in values.keys() & other_values.keys()
                          if values[k] > 0 and other_values[k] > 0 and not RATIO_COLUMNS.search(k))
    return ratios


def record_ratios():
    """{record: {n: ratios}} the records (long-runs.md, comparisons.md) state in a sentence that names N."""
    ratios = {}
    for record in RECORDS:
        ratios[record] = {}
        for _, sentence in sentences(open(record).read()):
            for n in named_sizes(sentence):
                ratios[record].setdefault(n, set()).update(ratio_value(found) for found in RATIO.finditer(sentence))
    return ratios


def ratio_bar(digits):
    """A ratio's bar: its own rounding (half its last digit) twice over, and at least 2 %."""
    digits = digits.replace(",", "")
    last = 10 ** -len(digits.split(".")[1]) if "." in digits else 1
    return max(RATIO_BAR, last / float(digits))


def ratio_value(found):
    if found.group("digits"):
        return float(found.group("digits").replace(",", ""))
    return float(NUMBER_WORDS[found.group("word")])


def sentence_ratios(sentence):
    """The ratios of two figures the sentence itself states in units of one kind (sizes, times)."""
    stated = [(float(v.replace(",", "")) * SIZE_UNITS[u], u == "%", u in ("ns", "ms", "s", "min", "h"))
              for v, u in STATED.findall(sentence)]
    ratios = {a / b for a, pa, ta in stated for b, pb, tb in stated if b > 0 and a > 0 and (pa, ta) == (pb, tb)}
    return ratios | {float(a) / float(b) for a, b in re.findall(r"([\d.]+) → ([\d.]+)", sentence) if float(b) > 0}


TABLE_NUMBER = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)(?: ?(M|G|k)\b)?(x\b)?")
RATIO_BAR = 0.02       # a ratio of prose, computed from the data's figures to two or three digits
PER_ITEM = re.compile(r"\d (?:ms|s|ns|min|h|hours) (?:a|per) (?:unit|node|pair|half)\b|\d ns each\b")
MULTIPLIERS = {"k": 1e3, "M": 1e6, "G": 1e9, None: 1}


def table_ratios(text, sizes, others, said):
    """The ratios the document's own tables give for sizes: a cell's "Nx", a column of ratios
    (its head has "/" or "ratio"), a column's figure of one named N over another's, and a figure
    of the sentence against a cell of its N's row (the sentence's "X, Y times fewer than the keys";
    measured figures only: a decimal point or an exponent, not a count or a setting)."""
    ratios, rows, head = set(), {}, []
    for line in text.splitlines():
        if not line.startswith("|"):
            head, rows = [], {}
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not head:
            head = cells
            continue
        if not cells[0].isdigit() or int(cells[0]) not in sizes | others:
            continue
        nearest = int(cells[0]) in sizes
        numbers = []
        for column, cell in enumerate(cells[1:], 1):
            found = TABLE_NUMBER.findall(cell)
            values = [float(v.replace(",", "")) * MULTIPLIERS[m or None] for v, m, _ in found]
            numbers.append(values)
            if not nearest:
                continue
            ratios.update(float(v.replace(",", "")) for v, _, x in found if x)
            if column < len(head) and re.search(r"/|ratio", head[column]):
                ratios.update(values)
            ratios.update(a / b for a in values for b in said if a > 0 and b > 0)
        for n, other in rows.items():
            if nearest or n in sizes:
                for mine, theirs in zip(numbers, other):
                    ratios.update(a / b for a, b in zip(mine, theirs) if a > 0 and b > 0)
        rows[int(cells[0])] = numbers
    return ratios


def section(text, line):
    """The lines of the section (from one heading to the next) that holds line: the tables a
    sentence may mean are those of its own section."""
    lines = text.splitlines()
    heads = [at for at, row in enumerate(lines) if row.startswith("#")]
    start = max((at for at in heads if at < line), default=0)
    end = min((at for at in heads if at >= line), default=len(lines))
    return "\n".join(lines[start:end])


def ratio_truths(text, sentence, found, sizes, named, rows, records):
    """Every ratio a figure of prose at found may be, and its inverse (text: the sentence's section)."""
    said = [float(v) for v in re.findall(r"(?<![\w.,])(\d+(?:\.\d+(?:e[+-]?\d+)?|e[+-]?\d+))",
                                         sentence[max(0, found.start() - 60):found.start()])]
    truths = data_ratios(rows, sizes, named, compared(sentence, named)) | sentence_ratios(sentence)
    truths |= table_ratios(text, sizes, named, said)
    for record in RECORDS:  # a record holds many runs' ratios: only for a sentence that points to it
        if os.path.basename(record) in sentence:
            truths |= {r for n in sizes for r in records[record].get(n, ())}
    return truths | {1 / r for r in truths if r > 0}


def ratio_problems(path, text, totals):
    """A ratio ("X times", "Xx", both ends of "A to B times") in a sentence that names sizes of
    N = 16..28 is one the data, the records it links to, the document's tables or the sentence
    itself give for the sizes named nearest it (see the module's notes)."""
    rows, records = measure_rows(totals), record_ratios()
    problems = []
    for line, sentence in prose(text):
        if STEP.search(sentence):
            continue  # held to the cost model by its own rule
        mentions = [(found.start(), named_sizes(found.group(0))) for found in N_LIST.finditer(sentence)]
        named = set().union(*(sizes for _, sizes in mentions)) & set(SIZES)
        own = section(text, line)
        for found in RATIO.finditer(sentence):
            if PER_ITEM.search(sentence[max(0, found.start() - 80):found.start()]):
                continue  # a cost of one thing's growth, left out with that cost
            before = [sizes for at, sizes in mentions if at < found.start()][-1:]
            after = [sizes for at, sizes in mentions if at > found.start()][:1]
            sizes = set().union(*before, *after) & set(SIZES)
            if not sizes:
                continue
            rounded = found.group("word") or re.search(r"(?:about|some|nearly|roughly) $", sentence[:found.start()])
            truths = ratio_truths(own, sentence, found, sizes, named, rows, records)
            stated = [ratio_value(found)] + ([float(found.group("low"))] if found.group("low") else [])
            for figure, digits in zip(stated, (found.group("digits"), found.group("low"))):
                bar = ROUNDING if rounded else ratio_bar(digits)
                if any(near(figure, truth, bar) for truth in truths):
                    continue
                nearest = min(truths, key=lambda truth: abs(math.log(truth / figure)), default=None)
                hint = f"the nearest is {nearest:.3g}" if nearest else "none for that N"
                problems.append(f"{path}:{line}: '{found.group(0)}' for N = {', '.join(map(str, sorted(sizes)))}: "
                                f"no ratio of the data is {figure:.3g} (within {bar:.0%}; {hint}); "
                                f"sentence: {sentence[:160]}")
    return problems


# ---- transcripts' column names -----------------------------------------------------------------

MPI_TRANSCRIPT = re.compile(r"^\$ mpirun [^\n]*?nqueens-mpi (count [^\n]*)\n(.*?)(?=^\$ |^```)", re.M | re.S)


def transcript_problems(path, text, binary):
    problems = []
    for found in MPI_TRANSCRIPT.finditer(text):
        words = shlex.split(found.group(1))
        if "--log-level" in words:  # logs go to stderr: the table is the same without them
            at = words.index("--log-level")
            del words[at:at + 2]
        header = next((line for line in found.group(2).splitlines() if line.split()[:1] == ["N"]), None)
        if header is None:
            continue
        ran = subprocess.run([binary] + words + ["-q"], capture_output=True, text=True)
        printed = ran.stdout.splitlines()[0].split() if ran.stdout else []
        if header.split() != printed:
            problems.append(f"{path}:{line_of(text, found.start())}: the transcript's columns {header.split()} "
                            f"are not those `nqueens {found.group(1)}` prints: {printed}")
    return problems


# ---- the first mpirun example as root ----------------------------------------------------------

def root_problems(path, text):
    """Open MPI refuses root without --allow-run-as-root: the page's first mpirun command (a
    container's user is often root) has the form that works beside it."""
    first = text.find("mpirun")
    block = re.search(r"```sh\n((?:(?!```).)*?mpirun.*?)```", text, re.S)
    if first < 0 or block is None or "--allow-run-as-root" in block.group(1):
        return []
    return [f"{path}:{line_of(text, block.start())}: the first mpirun example fails as root: give the "
            f"--allow-run-as-root form beside it"]


def check(binary):
    costs = thread_seconds()
    table = load_cluster_table()
    problems = []
    for path in STEP_DOCS:
        problems += step_problems(path, open(os.path.join(ROOT, path)).read(), costs)
    for path in TIME_DOCS:
        problems += time_problems(path, open(os.path.join(ROOT, path)).read(), costs)
    cluster = open(os.path.join(ROOT, "docs", "cluster.md")).read()
    problems += slurm_problems("docs/cluster.md", cluster, table)
    problems += sample_problems("docs/cluster.md", cluster, costs)
    readme = open(os.path.join(ROOT, "README.md")).read()
    problems += readme_problems(readme)
    problems += readme_table_problems(readme)
    problems += root_problems("docs/cluster.md", cluster)
    if binary:
        problems += transcript_problems("docs/cluster.md", cluster, binary)
        performance = open(os.path.join(ROOT, "docs", "performance.md")).read()
        totals = oeis_totals(binary)
        problems += model_table_problems(performance, cost_rows(), totals)
        for path in PROSE_DOCS:
            problems += prose_problems(path, open(os.path.join(ROOT, path)).read(), totals)
            problems += ratio_problems(path, open(os.path.join(ROOT, path)).read(), totals)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["check"])
    parser.add_argument("--binary", help="nqueens, to check the transcripts' column names")
    args = parser.parse_args()
    return check(args.binary)


if __name__ == "__main__":
    sys.exit(main())
