#!/usr/bin/env python3
"""The cluster sizing table of docs/cluster.md, N = 22 to 28, from `nqueens plan`.

Measuring and rendering are apart, so that the docs test renders without running plan:

    scripts/dev/cluster-table.py measure --binary build/release/nqueens   # plan every N, write the CSV, render
    scripts/dev/cluster-table.py render                                   # CSV -> the table in docs/cluster.md
    scripts/dev/cluster-table.py check                                    # the docs test (ctest: docs_cluster_table)

measure runs `nqueens plan -n N --format json` with the options of PLAN_OPTIONS below (ranks of
16 threads, 4 of them on a node of 64 cores, each under --memory 24G) for N = 22..28 and writes
docs/data/cluster-table.csv: one row per N, from plan's record alone, and '#' lines that say
the commit, the machine and the command. render writes the Markdown table between the marker
comments of docs/cluster.md from the CSV. check fails when that table is not what the CSV
renders, or when README.md, docs/usage.md, docs/cluster.md or docs/performance.md quotes a
thread time in core- or CPU-days, hours or years for an N of 22 to 28 outside the table
(ALLOWED lists the measurements of real counts that may be quoted).

Wall time on C cores: the setup (every process builds its engine once), then the thread time
over C workers, or the largest unit where that is longer (a list schedule, costliest first,
ends between the two). Its bar is the thread time's, in proportion.
"""
import argparse
import csv
import io
import json
import os
import platform
import re
import subprocess
import sys
from datetime import datetime, timezone

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CSV_PATH = os.path.join(ROOT, "docs", "data", "cluster-table.csv")
CLUSTER_MD = os.path.join(ROOT, "docs", "cluster.md")
DOCS = ["README.md", "docs/usage.md", "docs/cluster.md", "docs/performance.md"]
SIZES = range(22, 29)
THREADS, RANKS_PER_NODE, MEMORY = 16, 4, "24G"
PLAN_OPTIONS = ["-t", str(THREADS), "--ranks", str(RANKS_PER_NODE), "--ranks-per-node", str(RANKS_PER_NODE),
                "--memory", MEMORY, "--format", "json"]
CORES = (64, 256)
BEGIN = "<!-- cluster-table: begin (scripts/dev/cluster-table.py render writes this table from docs/data/cluster-table.csv) -->"
END = "<!-- cluster-table: end -->"
FIELDS = ["n", "work_units", "thread_hours", "thread_hours_error", "largest_unit_seconds", "setup_seconds",
          "count_memory", "process_memory_mib", "slurm_mem", "journal_mib"] + \
         [f"wall_hours_{c}_cores" for c in CORES] + [f"wall_hours_{c}_cores_error" for c in CORES]

# Figures for N >= 22 the docs may quote outside the table: measurements of real counts, and the
# plans of performance.md that are measured against them or say how plans behave.
ALLOWED = [
    r"twenty and 140 minutes of CPU time",  # performance.md: N = 19 to 21 with the DFS engine
    r"Below N = 20 a count",                 # cluster.md: small boards
]


def row_of(plan):
    """One CSV row from one plan record."""
    hours = plan["thread_seconds"] / 3600
    relative = plan["thread_seconds_error"] / plan["thread_seconds"] if plan["thread_seconds"] > 0 else 0
    row = {
        "n": plan["n"],
        "work_units": plan["work_units"],
        "thread_hours": f"{hours:.4g}",
        "thread_hours_error": f"{plan['thread_seconds_error'] / 3600:.3g}",
        "largest_unit_seconds": f"{plan['largest_unit_seconds']:.4g}",
        "setup_seconds": f"{plan['setup_seconds']:.4g}",
        "count_memory": plan["count_memory"],
        "process_memory_mib": f"{plan['memory_bytes'] / 2**20:.0f}",
        "slurm_mem": plan["slurm_mem"],
        "journal_mib": f"{plan['journal_bytes'] / 2**20:.1f}",
    }
    for cores in CORES:
        counting = max(plan["thread_seconds"] / cores, plan["largest_unit_seconds"])
        row[f"wall_hours_{cores}_cores"] = f"{(plan['setup_seconds'] + counting) / 3600:.4g}"
        row[f"wall_hours_{cores}_cores_error"] = f"{counting * relative / 3600:.3g}"
    return row


def measure(binary):
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    # What the program is built from: changes elsewhere (the docs, this script) do not move it.
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "src",
                            "include", "CMakeLists.txt", "cmake"],
                           capture_output=True, text=True, check=True).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.machine())
    rows = []
    for n in SIZES:
        started = datetime.now(timezone.utc)
        out = subprocess.run([binary, "plan", "-n", str(n)] + PLAN_OPTIONS, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"cluster-table: plan -n {n} exited {out.returncode}: {out.stderr.strip()}")
        rows.append(row_of(json.loads(out.stdout)))
        took = (datetime.now(timezone.utc) - started).total_seconds()
        print(f"N={n}: {rows[-1]['thread_hours']} +- {rows[-1]['thread_hours_error']} thread-hours ({took:.0f} s)",
              file=sys.stderr)
    with open(CSV_PATH, "w", newline="") as out:
        out.write(f"# nqueens plan -n N {' '.join(PLAN_OPTIONS)}, N = {SIZES[0]}..{SIZES[-1]}\n")
        out.write(f"# commit {commit}{' (with uncommitted changes)' if dirty else ''}, "
                  f"{datetime.now(timezone.utc):%Y-%m-%d}, {os.cpu_count()} CPUs ({cpu}), load average "
                  f"{os.getloadavg()[0]:.1f} at the end\n")
        writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_csv():
    with open(CSV_PATH) as f:
        lines = f.read().splitlines()
    notes = [line[1:].strip() for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("\n".join(line for line in lines if not line.startswith("#")))))
    return notes, rows


def figure(value):
    """Two significant figures, thousands separated: 0.52, 7.4, 130, 15,000."""
    if value == 0:
        return "0"
    rounded = float(f"{value:.2g}")
    return f"{rounded:,.0f}" if rounded >= 10 else f"{rounded:g}"


def duration(hours):
    """The wall time in the largest unit that keeps it at 2 or more: min, h, days, years."""
    for name, size in (("years", 24 * 365.25), ("days", 24), ("h", 1)):
        if hours >= 2 * size:
            return name, size
    return "min", 1 / 60


def wall(row, cores):
    hours = float(row[f"wall_hours_{cores}_cores"])
    error = float(row[f"wall_hours_{cores}_cores_error"])
    name, size = duration(hours)
    return f"{figure(hours / size)} +- {figure(error / size)} {name}"


def render_table(notes, rows):
    lines = [f"Made by `nqueens plan` ({notes[0]}) at {notes[1]}.", "",
             "| N | units | thread time, core-hours (95 %) | core-days | count `--memory` per rank | "
             f"Slurm `--mem` per node of {RANKS_PER_NODE} ranks | journal | wall on 64 cores | wall on 256 cores |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        hours, error = float(row["thread_hours"]), float(row["thread_hours_error"])
        lines.append(f"| {row['n']} | {int(row['work_units']):,} | {figure(hours)} +- {figure(error)} | "
                     f"{figure(hours / 24)} | {row['count_memory']} | {row['slurm_mem']} | "
                     f"{figure(float(row['journal_mib']))} MiB | {wall(row, 64)} | {wall(row, 256)} |")
    return "\n".join(lines) + "\n"


def with_table(text, table):
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"cluster-table: docs/cluster.md has no '{BEGIN}' ... '{END}' markers")
    return text[:start + len(BEGIN)] + "\n" + table + text[end:]


NUMBER = r"(?:\d[\d.,]*|a|half\s+a|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|some)"
UNIT = r"(?:seconds?|minutes?|hours?|days?|weeks?|years?)"
THREAD_TIME = re.compile(r"\b" + NUMBER + r"\s*(?:core|CPU|thread)[- ]" + UNIT + r"\b|\b" + NUMBER + r"\s+" + UNIT
                         + r"\s+of\s+(?:CPU|thread|core)\s+time", re.IGNORECASE)
NAMES_N = re.compile(r"\bN\s*=\s*2[2-8]\b")


def stray_figures(path, text):
    """Thread times in core-, CPU- or thread- units in a section (heading to heading) that names
    N = 22..28, outside the table."""
    start, end = text.find(BEGIN), text.find(END)
    if start >= 0 and end > start:
        text = text[:start] + "\n" * text[start:end].count("\n") + text[end:]
    problems = []
    sections = [m.start() for m in re.finditer(r"^#+ ", text, re.MULTILINE)] + [len(text)]
    for first, last in zip([0] + sections[:-1], sections):
        section = text[first:last]
        names_n = NAMES_N.search(section)
        if not names_n:
            continue
        for found in THREAD_TIME.finditer(section):
            line_start = section.rfind("\n", 0, found.start()) + 1
            line_end = section.find("\n", found.end())
            context = section[line_start:line_end if line_end >= 0 else len(section)]
            if any(re.search(a, context) for a in ALLOWED):
                continue
            line = text.count("\n", 0, first + found.start()) + 1
            problems.append(f"{path}:{line}: quotes '{' '.join(found.group(0).split())}' in a section about "
                            f"'{names_n.group(0)}': link to the table in docs/cluster.md instead")
    return problems


def check():
    notes, rows = read_csv()
    problems = []
    if [int(r["n"]) for r in rows] != list(SIZES):
        problems.append(f"{CSV_PATH}: rows for N = {[r['n'] for r in rows]}, not 22..28")
    text = open(CLUSTER_MD).read()
    if with_table(text, render_table(notes, rows)) != text:
        problems.append("docs/cluster.md: the table is not what docs/data/cluster-table.csv renders: "
                        "run scripts/dev/cluster-table.py render")
    for doc in DOCS:
        problems += stray_figures(doc, open(os.path.join(ROOT, doc)).read())
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["measure", "render", "check"])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "release", "nqueens"))
    args = parser.parse_args()
    if args.action == "check":
        return check()
    if args.action == "measure":
        measure(args.binary)
    notes, rows = read_csv()
    text = open(CLUSTER_MD).read()
    with open(CLUSTER_MD, "w") as out:
        out.write(with_table(text, render_table(notes, rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
