"""The rules of figures of one fixed form: the cost of a step in N, a thread time stated for an N,
the Slurm example's --time, the N = 24 projection from a sample, README's code comments and timing
table, performance.md's table of the model's sums, the column names of cluster.md's mpirun
transcripts and its first mpirun example as root (the module notes of doc-figures.py say each)."""
import csv
import importlib.util
import math
import os
import re
import shlex
import subprocess

from .common import (COSTS_CSV, DURATION, FIGURES, LAST_N, LONG_RUNS, MACHINE, ROOT, ROUNDING, SIZES, UNITS,
                     STEP_IN_N, line_of, near, number, sentences)


def load_cluster_table():
    spec = importlib.util.spec_from_file_location("cluster_table", os.path.join(ROOT, "scripts", "dev",
                                                                              "cluster-table.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def thread_seconds():
    with open(COSTS_CSV) as rows:
        return {int(r["n"]): float(r["thread_seconds"]) for r in csv.DictReader(rows)}


# ---- the cost of a step in N ------------------------------------------------------------------

STEP = STEP_IN_N


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

SAMPLE = re.compile(r"shards of N = 24 of (\d+) and (\d+) units took ([\d.]+) s and ([\d.]+) s of CPU time")
SAMPLE_BAR = re.compile(r"fix the total to about \+- (\d+) %")
UNITS_24 = re.compile(r"At N = 24 the join has ([\d,]+) units")


def sample_problems(path, text, costs):
    text = " ".join(text.split())
    mean, bar, units = SAMPLE.search(text), SAMPLE_BAR.search(text), UNITS_24.search(text)
    if not (mean and bar and units):
        return [f"{path}: the projection of N = 24 from a sample lacks its mean, its units or its error bar"]
    sampled, took = int(mean.group(1)) + int(mean.group(2)), float(mean.group(3)) + float(mean.group(4))
    projected = took / sampled * int(units.group(1).replace(",", ""))
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

