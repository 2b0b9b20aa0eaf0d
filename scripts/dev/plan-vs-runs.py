#!/usr/bin/env python3
"""`nqueens plan`'s predictions against real counts of exactly the same work, on this machine.

    scripts/dev/plan-vs-runs.py measure [--binary B] [--cases 20,21:1/64,...] [--seed S]
    scripts/dev/plan-vs-runs.py render    # docs/data/plan-vs-runs.csv -> the table in docs/performance.md
    scripts/dev/plan-vs-runs.py check     # the table is what the CSV renders

A case is N alone (the whole run, counted with --verify), N:I/K (shard I of K, drawn at random
when I is '?'), or N:uM (M units drawn at random, uniformly among the row-set units, counted with
--units). For each, `nqueens plan -n N -t 1` predicts the thread time of exactly that work (the
whole run's thread_seconds, or part_thread_seconds for --shard/--units) with its 95 % bar, and
`nqueens count -n N -t 1` counts it. The count's CPU time is the process's (user + system, from
wait4), less its setup: the CPU time of a count of the run's lightest unit by the cost model
(bench/join_bench --unit-work), which builds the same engine and counts almost nothing. CPU
time rather than the wall clock, so that other work on the machine does not lengthen it; the
CSV says how loaded the machine was. measure appends one row per case to the CSV as it goes.
"""
import argparse
import csv
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CSV_PATH = os.path.join(ROOT, "docs", "data", "plan-vs-runs.csv")
PERFORMANCE_MD = os.path.join(ROOT, "docs", "performance.md")
BEGIN = "<!-- plan-vs-runs: begin (scripts/dev/plan-vs-runs.py render writes this table from docs/data/plan-vs-runs.csv) -->"
END = "<!-- plan-vs-runs: end -->"
FIELDS = ["n", "part", "units", "predicted_seconds", "predicted_error", "measured_seconds", "setup_seconds",
          "ratio", "within_bar", "plan_sample_seconds", "commit", "load"]
DEFAULT_CASES = "20,21,22,23:?/512,23:?/512,24:?/4096,24:?/4096,25:u20,26:u5"


def cpu_seconds_of(command):
    """Runs command; returns (exit code, stdout, CPU seconds of the process and its threads)."""
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        err = process.stderr.read().decode()
        out.seek(0)
        if process.returncode != 0:
            sys.exit(f"plan-vs-runs: {' '.join(command)} exited {process.returncode}: {err.strip()}")
        return out.read().decode(), usage.ru_utime + usage.ru_stime


def unit_costs(bench, n):
    """The cost model's predicted seconds of every row-set unit (join_bench --unit-work)."""
    out = subprocess.run([bench, "--unit-work", str(n)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()[1:]]
    return [float(row[4]) * 1e-9 for row in rows]


def commit(given=None):
    """The commit the measured binary was built from: given, or this checkout's HEAD (+ if src is edited)."""
    if given:
        return given
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "src",
                            "include", "CMakeLists.txt", "cmake"], capture_output=True, text=True,
                           check=True).stdout.strip()
    return head + ("+" if dirty else "")


def part_options(case, costs, rng):
    """(label, count/plan options) of one case."""
    n, _, part = case.partition(":")
    if not part:
        return "whole", []
    if part.startswith("u"):
        ids = sorted(rng.sample(range(len(costs)), int(part[1:])))
        listed = ",".join(map(str, ids))
        return f"units {listed}", ["--units", listed]
    index, _, shards = part.partition("/")
    index = str(rng.randint(1, int(shards))) if index == "?" else index
    return f"shard {index}/{shards}", ["--shard", f"{index}/{shards}"]


def measure(binary, bench, cases, seed, most_sample_seconds, built_from=None):
    rng = random.Random(seed)
    setups, costs_of = {}, {}
    new = not os.path.exists(CSV_PATH)
    with open(CSV_PATH, "a", newline="") as out:
        writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
        if new:
            out.write("# plan: nqueens plan -n N -t 1 --format json [--shard I/K | --units LIST] (its default budget; "
                      "from N = 25, --sample-seconds of --plan-seconds, default 240); "
                      "count: nqueens count -n N -t 1 [--verify | --shard I/K | --units LIST --output F], CPU time "
                      "less the setup's; scripts/dev/plan-vs-runs.py measure\n")
            writer.writeheader()
        for case in cases:
            n = int(case.partition(":")[0])
            if n not in costs_of:
                costs_of[n] = unit_costs(bench, n)
            costs = costs_of[n]
            label, options = part_options(case, costs, rng)
            if n not in setups:
                lightest = min(range(len(costs)), key=costs.__getitem__)
                with tempfile.TemporaryDirectory() as scratch:
                    _, setups[n] = cpu_seconds_of([binary, "count", "-n", str(n), "-t", "1", "-q", "--units",
                                                   str(lightest), "--output", os.path.join(scratch, "s.json")])
            budget = ["--sample-seconds", str(most_sample_seconds)] if n >= 25 else []
            plan = json.loads(subprocess.run([binary, "plan", "-n", str(n), "-t", "1", "--format", "json"] + budget +
                                             options,
                                             capture_output=True, text=True, check=True).stdout)
            predicted = plan["part_thread_seconds"] if options else plan["thread_seconds"]
            error = plan["part_thread_seconds_error"] if options else plan["thread_seconds_error"]
            units = plan["part_units"] if options else plan["work_units"]
            with tempfile.TemporaryDirectory() as scratch:
                extra = ["--output", os.path.join(scratch, "s.json")] if options else ["--verify", "--format", "json"]
                _, cpu = cpu_seconds_of([binary, "count", "-n", str(n), "-t", "1", "-q"] + options + extra)
            measured = cpu - setups[n]
            row = {"n": n, "part": label if len(label) < 60 else label[:57] + "...", "units": units,
                   "predicted_seconds": f"{predicted:.4g}", "predicted_error": f"{error:.3g}",
                   "measured_seconds": f"{measured:.4g}", "setup_seconds": f"{setups[n]:.3g}",
                   "ratio": f"{measured / predicted:.3f}", "within_bar": abs(measured - predicted) <= error,
                   "plan_sample_seconds": f"{plan['sample_seconds']:.3g}", "commit": commit(built_from),
                   "load": f"{os.getloadavg()[0]:.1f}"}
            writer.writerow(row)
            out.flush()
            print(row, file=sys.stderr)


def read_rows():
    with open(CSV_PATH) as f:
        lines = [line for line in f.read().splitlines() if not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def seconds(value):
    value = float(value)
    return f"{value:.3g} s" if value < 120 else f"{value / 60:.3g} min"


def render_table(rows):
    lines = ["| N | work | units | plan predicts (95 %) | counted (CPU, less setup) | counted / predicted | "
             "inside the bar | load |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['n']} | {row['part']} | {int(row['units']):,} | {seconds(row['predicted_seconds'])} +- "
                     f"{seconds(row['predicted_error'])} | {seconds(row['measured_seconds'])} | {row['ratio']} | "
                     f"{'yes' if row['within_bar'] == 'True' else 'no'} | {row['load']} |")
    inside = sum(row["within_bar"] == "True" for row in rows)
    commits = sorted({row["commit"] for row in rows})
    lines += ["", f"{len(rows)} comparisons, {inside} inside plan's bar; commit {', '.join(commits)}; "
              "load: the machine's one-minute load average on its 2 cores when each count ended."]
    return "\n".join(lines) + "\n"


def rendered(text, rows):
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        raise SystemExit(f"plan-vs-runs: docs/performance.md has no '{BEGIN}' ... '{END}' markers")
    return text[:start + len(BEGIN)] + "\n" + render_table(rows) + text[stop:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["measure", "render", "check"])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "release", "nqueens"))
    parser.add_argument("--bench", default=os.path.join(ROOT, "build", "release", "bench", "join_bench"))
    parser.add_argument("--cases", default=DEFAULT_CASES)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--plan-seconds", type=float, default=240,
                        help="plan's --sample-seconds from N = 25 on (its automatic budget there is up to 15 minutes)")
    parser.add_argument("--commit", help="the commit --binary was built from, when it is a copy (default: HEAD)")
    args = parser.parse_args()
    if args.action == "measure":
        measure(args.binary, args.bench, args.cases.split(","), args.seed, args.plan_seconds, args.commit)
    text = open(PERFORMANCE_MD).read()
    if args.action == "check":
        if rendered(text, read_rows()) != text:
            print("docs/performance.md: the plan-vs-runs table is not what docs/data/plan-vs-runs.csv renders: run "
                  "scripts/dev/plan-vs-runs.py render", file=sys.stderr)
            return 1
        return 0
    with open(PERFORMANCE_MD, "w") as out:
        out.write(rendered(text, read_rows()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
