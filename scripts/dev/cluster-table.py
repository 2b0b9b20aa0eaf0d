#!/usr/bin/env python3
"""The sizing table of docs/cluster.md (N = 22 to 28) and its section "What Q(28) takes".

Both are rendered from data in docs/data, so that the docs test renders without running anything:

- docs/data/join-run-costs.csv: the join's cost model summed per N (units, thread time, largest
  unit), which the unit tests hold to the model (UnitCost.*);
- docs/data/cluster-table.csv: per N, what `nqueens plan` says of a count's memory, journal and
  setup (these do not depend on its sample), and the shard file's bytes per unit;
- docs/data/gpu-model-runs.csv: the gpu engine priced by its device model on named cards
  (`nqueens plan --engine gpu --card NAME`);
- docs/data/frontier-plans.csv: the thread time `nqueens plan -n N -t 2` measured from its sample
  on this machine, with its bar, beside the model's.

    scripts/dev/cluster-table.py measure --binary build/release/nqueens   # the CSVs above, then render
    scripts/dev/cluster-table.py measure --only frontier --frontier 23:60,28:300   # plan -t 2 at N = 23, 28
    scripts/dev/cluster-table.py render                                   # CSVs -> docs/cluster.md
    scripts/dev/cluster-table.py check                                    # the docs test (ctest: docs_cluster_table)

measure runs `nqueens plan -n N` with the options of PLAN_OPTIONS (ranks of 16 threads, 4 of them
on a node of 64 cores, each under --memory 24G, a short sample: only the memory, journal and
setup are taken from it) for N = 22..28, and `nqueens plan -n N --engine gpu --card C` for the
cards of GPU_RUNS; --only frontier runs `nqueens plan -n N -t 2 --sample-seconds S` for the N:S of
--frontier (S = default: plan's own budget), keeping the CSV's other rows. render writes the table and the section between their marker comments. check
fails when either is not what the data renders, when the CSVs do not cover N = 22..28 or
disagree on the units, or when README.md, docs/usage.md, docs/cluster.md or docs/performance.md
quotes a thread time in core- or CPU-days, hours or years for an N of 22 to 28 outside them
(ALLOWED lists the measurements of real counts that may be quoted).

Wall time on C cores: the setup (every process builds its engine once), then the thread time
over C workers, or the largest unit where that is longer (a list schedule, costliest first,
ends between the two).
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
import tempfile
from datetime import datetime, timezone

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DATA = os.path.join(ROOT, "docs", "data")
COSTS_CSV = os.path.join(DATA, "join-run-costs.csv")
CLUSTER_CSV = os.path.join(DATA, "cluster-table.csv")
GPU_CSV = os.path.join(DATA, "gpu-model-runs.csv")
FRONTIER_CSV = os.path.join(DATA, "frontier-plans.csv")
CLUSTER_MD = os.path.join(ROOT, "docs", "cluster.md")
DOCS = ["README.md", "docs/usage.md", "docs/cluster.md", "docs/performance.md"]
SIZES = range(22, 29)
THREADS, RANKS_PER_NODE, MEMORY = 16, 4, "24G"
PLAN_OPTIONS = ["-t", str(THREADS), "--ranks", str(RANKS_PER_NODE), "--ranks-per-node", str(RANKS_PER_NODE),
                "--memory", MEMORY, "--sample-seconds", "3", "--format", "json"]
CORES = (256, 4096)
# The gpu model's runs: (N, card, cards). One H100 for every row; Q(28) on the 8 RTX 5090 of the
# published projection too.
GPU_RUNS = [(n, "H100", 1) for n in SIZES] + [(28, "RTX 5090", 8)]
GPU_REPLAY_SECONDS = "20"
# Q(28) itself is not known: its size is taken as Q(27) times the ratio of the last two known
# terms, and the section says so.
# A000170 from N = 23: the frontier plans' thread time per solution (issue 42's item 7).
Q = {23: 24233937684440, 24: 227514171973736, 25: 2207893435808352, 26: 22317699616364044,
     27: 234907967154122528}
# Q(28) on the section's cluster, and the shards it is cut into.
Q28_CORES, Q28_SHARDS = 4096, 10000
# Published projections of Q(28) by GPU depth-first search (arXiv 2511.12009 and a fork of its
# code, July 2026), quoted beside the gpu engine's model.
PUBLISHED = ["about 272 days on 8 RTX 5090 by a fork of the GPU depth-first search of arXiv 2511.12009 (July 2026)",
             "340 days by that paper itself"]

TABLE_BEGIN = ("<!-- cluster-table: begin (scripts/dev/cluster-table.py render writes this table from "
               "docs/data/join-run-costs.csv, cluster-table.csv and gpu-model-runs.csv) -->")
TABLE_END = "<!-- cluster-table: end -->"
Q28_BEGIN = "<!-- q28: begin (scripts/dev/cluster-table.py render writes this section from docs/data) -->"
Q28_END = "<!-- q28: end -->"
CLUSTER_FIELDS = ["n", "work_units", "setup_seconds", "count_memory", "process_memory_mib", "slurm_mem",
                  "journal_mib", "shard_bytes_per_unit"]
FRONTIER_FIELDS = ["n", "sample_budget_seconds", "sample_seconds", "setup_seconds", "thread_seconds",
                   "thread_seconds_error", "relative_error", "sampled_units", "units_in_parts", "parts_timed",
                   "extrapolated_bands", "strata", "model_thread_seconds", "advised_sample_seconds",
                   "advised_relative_error", "busy_cores", "commit", "load_average"]
# The frontier plans' target: a 95 % bar within this share of the estimate.
FRONTIER_TARGET = 0.25
FRONTIER_THREADS = 2
GPU_FIELDS = ["n", "card", "cards", "host_threads", "wall_seconds", "device_seconds", "transfer_seconds",
              "host_seconds", "bound_by", "replayed_share", "units_replayed", "relative_error"]

# Figures for N >= 22 the docs may quote outside the table: measurements of real counts, and the
# plans of performance.md that are measured against them or say how plans behave.
ALLOWED = [
    r"twenty and 140 minutes of CPU time",  # performance.md: N = 19 to 21 with the DFS engine
    r"Below N = 20 a count",                 # cluster.md: small boards
]


def run_json(command):
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"cluster-table: {' '.join(command)} exited {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout.splitlines()[-1])


def shard_bytes_per_unit(binary):
    """A shard file's bytes per unit against its journal's, at N = 18: the journal's size per N
    scales it (both hold one entry per unit, the shard's longer)."""
    with tempfile.TemporaryDirectory() as scratch:
        shard, journal = os.path.join(scratch, "s.json"), os.path.join(scratch, "s.journal")
        subprocess.run([binary, "count", "-n", "18", "-t", "1", "--shard", "1/4", "--output", shard,
                        "--checkpoint", journal, "-q"], check=True, capture_output=True)
        return os.path.getsize(shard) / os.path.getsize(journal)


def commit_of(built_from):
    """The commit a binary was built from: built_from where given (a copy), else this checkout's HEAD."""
    return built_from or subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                        text=True, check=True).stdout.strip()


def git_note(binary, built_from=None):
    """Where and on what the data was measured. built_from names the commit of a copied binary;
    otherwise this checkout's HEAD, marked when its program sources differ from it."""
    commit, dirty = built_from, ""
    if not built_from:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
        # What the program is built from: changes elsewhere (the docs, this script) do not move it.
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "src",
                                "include", "CMakeLists.txt", "cmake"],
                               capture_output=True, text=True, check=True).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.machine())
    return (f"commit {commit}{' (with uncommitted changes)' if dirty else ''}, {datetime.now(timezone.utc):%Y-%m-%d}, "
            f"{os.cpu_count()} CPUs ({cpu}), load average {os.getloadavg()[0]:.1f} at the end")


def write_csv(path, command, note, fields, rows):
    with open(path, "w", newline="") as out:
        out.write(f"# {command}\n# {note}\n")
        writer = csv.DictWriter(out, fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def measure(binary, which, built_from=None, gpu_runs=None):
    if which in ("all", "plan"):
        ratio = shard_bytes_per_unit(binary)
        rows = []
        for n in SIZES:
            plan = run_json([binary, "plan", "-n", str(n)] + PLAN_OPTIONS)
            journal_per_unit = plan["journal_bytes"] / plan["work_units"]
            rows.append({"n": n, "work_units": plan["work_units"], "setup_seconds": f"{plan['setup_seconds']:.3g}",
                         "count_memory": plan["count_memory"],
                         "process_memory_mib": f"{plan['memory_bytes'] / 2**20:.0f}", "slurm_mem": plan["slurm_mem"],
                         "journal_mib": f"{plan['journal_bytes'] / 2**20:.1f}",
                         "shard_bytes_per_unit": f"{journal_per_unit * ratio:.0f}"})
            print(f"N={n}: {rows[-1]}", file=sys.stderr)
        write_csv(CLUSTER_CSV, f"nqueens plan -n N {' '.join(PLAN_OPTIONS)}, N = {SIZES[0]}..{SIZES[-1]}; shard "
                  "bytes per unit: the journal's times a shard file's over its journal at N = 18",
                  git_note(binary, built_from), CLUSTER_FIELDS, rows)
    if which in ("all", "gpu"):
        rows = []
        for n, card, cards in gpu_runs or GPU_RUNS:
            plan = run_json([binary, "plan", "-n", str(n), "--engine", "gpu", "--card", card, "-t", "16", "--ranks",
                             str(cards), "--sample-seconds", GPU_REPLAY_SECONDS, "--format", "json"])
            rows.append({"n": n, "card": card, "cards": cards, "host_threads": plan["host_threads"],
                         "wall_seconds": f"{plan['wall_seconds']:.4g}",
                         "device_seconds": f"{plan['device_seconds']:.4g}",
                         "transfer_seconds": f"{plan['transfer_seconds']:.4g}",
                         "host_seconds": f"{plan['host_seconds']:.4g}", "bound_by": plan["bound_by"],
                         "replayed_share": f"{plan['replayed_share']:.3g}",
                         "units_replayed": plan["units_replayed"],
                         "relative_error": f"{plan['relative_error']:.3g}"})
            print(f"gpu N={n} {card} x{cards}: {rows[-1]}", file=sys.stderr)
        note = git_note(binary, built_from)
        if gpu_runs:  # the rows not measured again are kept, each with the note it was measured under
            measured = {(row["n"], row["card"], row["cards"]) for row in rows}
            old_notes, old_rows = read_csv(GPU_CSV)
            kept = [r for r in old_rows if (int(r["n"]), r["card"], int(r["cards"])) not in measured]
            rows = sorted(kept + rows, key=lambda r: (int(r["n"]), r["card"] != "H100"))
            note += f" (rows {', '.join(f'{n} {c} x{k}' for n, c, k in sorted(measured))}; the others at " \
                    f"{old_notes[1]})"
        write_csv(GPU_CSV, f"nqueens plan -n N --engine gpu --card CARD -t 16 --ranks CARDS --sample-seconds "
                  f"{GPU_REPLAY_SECONDS} --format json", note, GPU_FIELDS, rows)


def measure_frontier(binary, budgets, built_from=None):
    """`plan -n N -t 2` for each N:S of budgets, a row each, written as it comes into the CSV as it
    then is (another measure may be writing other N's rows): the rows of other N are kept."""
    costs = {int(r["n"]): r for r in read_csv(COSTS_CSV)[1]}
    for n, budget in budgets:
        command = [binary, "plan", "-n", str(n), "-t", str(FRONTIER_THREADS), "--format", "json"]
        if budget != "default":
            command += ["--sample-seconds", budget]
        plan = run_json(command)
        total, error = plan["thread_seconds"], plan["thread_seconds_error"]
        row = {"n": n, "sample_budget_seconds": f"{plan['sample_budget_seconds']:.4g}",
               "sample_seconds": f"{plan['sample_seconds']:.4g}", "setup_seconds": f"{plan['setup_seconds']:.3g}",
               "thread_seconds": f"{total:.4g}", "thread_seconds_error": f"{error:.4g}",
               "relative_error": f"{error / total:.3g}", "sampled_units": plan["sampled_units"],
               "units_in_parts": plan["units_in_parts"], "parts_timed": plan["parts_timed"],
               "extrapolated_bands": plan["extrapolated_bands"], "strata": plan["strata"],
               "model_thread_seconds": costs[n]["thread_seconds"] if n in costs else "",
               "advised_sample_seconds": f"{plan['advised_sample_seconds']:.4g}",
               "advised_relative_error": f"{plan['advised_thread_seconds_error'] / total:.3g}",
               "busy_cores": f"{plan['busy_cores']:.2g}", "commit": commit_of(built_from),
               "load_average": f"{os.getloadavg()[0]:.1f}"}
        print(f"frontier N={n}: {row}", file=sys.stderr)
        rows = {int(r["n"]): r for r in (read_csv(FRONTIER_CSV)[1] if os.path.exists(FRONTIER_CSV) else [])}
        rows[n] = row
        write_csv(FRONTIER_CSV, f"nqueens plan -n N -t {FRONTIER_THREADS} --format json --sample-seconds S "
                  "(S: the sample_budget_seconds column; busy_cores: other processes' load while it sampled); "
                  "scripts/dev/cluster-table.py measure --only frontier", git_note(binary, built_from),
                  FRONTIER_FIELDS, [rows[m] for m in sorted(rows)])


def read_csv(path):
    with open(path) as f:
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


def duration(seconds):
    """In the largest unit that keeps the figure at 2 or more: s, min, h, days, years."""
    for name, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size:
            return f"{figure(seconds / size)} {name}"
    return f"{figure(seconds)} s"


def mebibytes(mib):
    return f"{figure(mib / 1024)} GiB" if mib >= 1024 else f"{figure(mib)} MiB"


def wall(cost, row, cores):
    return float(row["setup_seconds"]) + max(float(cost["thread_seconds"]) / cores,
                                             float(cost["largest_unit_seconds"]))


class Data:
    def __init__(self):
        self.cost_notes, costs = read_csv(COSTS_CSV)
        self.cluster_notes, cluster = read_csv(CLUSTER_CSV)
        self.gpu_notes, gpu = read_csv(GPU_CSV)
        self.costs = {int(r["n"]): r for r in costs}
        self.cluster = {int(r["n"]): r for r in cluster}
        self.gpu = {(int(r["n"]), r["card"], int(r["cards"])): r for r in gpu}
        self.frontier_notes, frontier = read_csv(FRONTIER_CSV) if os.path.exists(FRONTIER_CSV) else ([], [])
        self.frontier = {int(r["n"]): r for r in frontier}

    def problems(self):
        found = []
        for n in SIZES:
            if n not in self.costs or n not in self.cluster:
                found.append(f"N={n}: missing from {COSTS_CSV}, {CLUSTER_CSV} or {GPU_CSV}")
            # The model's sums leave out the rotation unit, which plan counts.
            elif int(self.costs[n]["units"]) + 1 != int(self.cluster[n]["work_units"]):
                found.append(f"N={n}: {self.costs[n]['units']} units in {COSTS_CSV} (and the rotation unit), "
                             f"{self.cluster[n]['work_units']} in {CLUSTER_CSV}: measure again")
        return found


def gpu_bar(gpu):
    """The sample's bar (95 %) on a modelled time."""
    return f"+-{figure(100 * float(gpu['relative_error']))} %"


def gpu_wall(gpu):
    """One modelled card's wall time, with its sample's bar and the units it rests on (a row of the
    batch replay that came before the sample of units: the share of the run it replayed)."""
    if gpu is None:
        return "not modelled yet"
    if not gpu.get("units_replayed"):
        return f"{duration(float(gpu['wall_seconds']))} ({figure(100 * float(gpu['replayed_share']))} % replayed)"
    return f"{duration(float(gpu['wall_seconds']))} {gpu_bar(gpu)} ({int(gpu['units_replayed']):,} units)"


def gpu_bullet(data):
    h100, rtx = data.gpu.get((28, "H100", 1)), data.gpu.get((28, "RTX 5090", 8))
    published = "Published projections for the same count: " + "; ".join(PUBLISHED) + "."
    if h100 is None:
        last = max((n for n, card, cards in data.gpu if card == "H100" and cards == 1), default=None)
        known = "" if last is None else (f"; the largest N modelled, {last}, comes to "
                                         f"{duration(float(data.gpu[(last, 'H100', 1)]['wall_seconds']))} on one H100")
        return ("- **gpu engine, by its device model:** not modelled yet at N = 28 (`cluster-table.py measure --only "
                f"gpu` replays it; see the notes of [gpu-model-runs.csv](data/gpu-model-runs.csv)){known}. " + published)
    on_rtx = ("" if rtx is None else f", {duration(float(rtx['wall_seconds']))} {gpu_bar(rtx)} on 8 RTX 5090 "
              f"(bound by the {rtx['bound_by']})")
    return (f"- **gpu engine, by its device model:** {duration(float(h100['wall_seconds']))} {gpu_bar(h100)} on one "
            f"H100 (bound by the {h100['bound_by']}){on_rtx}, each card fed by {h100['host_threads']} host threads. The "
            f"model replayed {int(h100['units_replayed']):,} units drawn at random from the bands of the cost model "
            f"({figure(100 * float(h100['replayed_share']))} % of the run's estimated cost), each alone, and scaled "
            "each band to its units; the bar (95 %) is that sample's spread. Its constants are fitted to one "
            "measured H100 run (N = 22), so these are a model's figures, not measurements. " + published)


def frontier_bar(row):
    """The plan's bar, or where it is wider than the estimate, that it bounds nothing."""
    relative = float(row["relative_error"])
    return f"+-{figure(100 * relative)} %" if relative < 1 else "(no bound: the bar is wider than the estimate)"


def frontier_plan(row):
    """What `plan -n N -t 2` measured: its thread time, bar and what the sample rests on."""
    if row is None:
        return "not measured"
    parts = f", {int(row['units_in_parts']):,} in parts" if int(row["units_in_parts"]) else ""
    bands = int(row["extrapolated_bands"])
    carried = f", {bands} of {row['strata']} bands carried" if bands else ""
    model = float(row["model_thread_seconds"] or 0)
    bounded = float(row["relative_error"]) < 1
    ratio = f"{figure(float(row['thread_seconds']) / model)}x the model; " if model > 0 and bounded else ""
    load = f"; load {figure(float(row['load_average']))}" if row.get("load_average") else ""
    n = int(row["n"])
    per_solution = f"{figure(float(row['thread_seconds']) / Q[n] * 1e9)} ns a solution; " if n in Q and bounded else ""
    level = f"{duration(float(row['thread_seconds']))} " if bounded else ""  # never a figure wider than itself
    return (f"{level}{frontier_bar(row)} ({ratio}{per_solution}"
            f"{int(row['sampled_units']):,} units"
            f"{parts}{carried}; {duration(float(row['sample_seconds']))}{load})")


def frontier_summary(data):
    """Which N's plans meet the target bar, and for those that do not, what budget the plan advises."""
    if not data.frontier:
        return ""
    rows = data.frontier
    within = [n for n in sorted(rows) if float(rows[n]["relative_error"]) <= FRONTIER_TARGET]
    outside = []
    for n in sorted(set(rows) - set(within)):
        advised = float(rows[n]["advised_sample_seconds"] or 0)
        outside.append(f"{n} ({frontier_bar(rows[n]).strip('()')}" + (
            f"; it advises `--sample-seconds {advised:g}` for +-{figure(100 * float(rows[n]['advised_relative_error']))} %"
            if advised > 0 else "") + ")")
    return (f"\n`plan -n N -t {FRONTIER_THREADS}` ([frontier-plans.csv](data/frontier-plans.csv), "
            f"{data.frontier_notes[0]}, at {data.frontier_notes[1]}): "
            f"its bar (95 %) is within +-{figure(100 * FRONTIER_TARGET)} % of its estimate at N = "
            f"{', '.join(str(n) for n in within) or 'none'}; wider at N = {', '.join(outside) or 'none'}. "
            "In brackets: the plan over the cost model, its thread time per solution where Q(N) is known, the "
            "units sampled, those timed in exact parts, the cost "
            "bands whose rate was carried from the others, the sampling's own time (setup excluded) and the load "
            "average it ended at. The bar is the sample's spread; the level is this machine's at that load, and "
            "moves with it (the cost model was fitted, and the shards of N = 23 and 24 of "
            "[performance.md](performance.md#plan-against-real-counts) measured, under other loads).\n")


def render_table(data):
    lines = [f"Thread time and largest unit: the cost model's sums ([join-run-costs.csv](data/join-run-costs.csv)); "
             f"memory, journal and setup: `nqueens plan` ({data.cluster_notes[0]}) at {data.cluster_notes[1]}; "
             f"one H100: the device model ({data.gpu_notes[0]}) at {data.gpu_notes[1]}.", "",
             f"| N | units | thread time | largest unit | wall on {CORES[0]:,} cores | wall on {CORES[1]:,} cores | "
             f"count `--memory` per rank | Slurm `--mem` per node of {RANKS_PER_NODE} ranks | journal | "
             f"gpu engine, one H100 (model) | `plan -t {FRONTIER_THREADS}`, measured here |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in SIZES:
        cost, row, gpu = data.costs[n], data.cluster[n], data.gpu.get((n, "H100", 1))
        lines.append(f"| {n} | {int(row['work_units']):,} | {duration(float(cost['thread_seconds']))} | "
                     f"{duration(float(cost['largest_unit_seconds']))} | {duration(wall(cost, row, CORES[0]))} | "
                     f"{duration(wall(cost, row, CORES[1]))} | {row['count_memory']} | {row['slurm_mem']} | "
                     f"{mebibytes(float(row['journal_mib']))} | {gpu_wall(gpu)} | "
                     f"{frontier_plan(data.frontier.get(n)) if n > 22 else ''} |")
    return "\n".join(lines) + "\n" + frontier_summary(data)


def frontier_q28(data, q28):
    """N = 28 as `plan -t 2` measured it, beside the cost model."""
    row = data.frontier.get(28)
    if row is None:
        return (f"- **CPU join, measured:** `plan -n 28 -t {FRONTIER_THREADS}` not run yet (`cluster-table.py measure "
                "--only frontier`).")
    thread, model = float(row["thread_seconds"]), float(data.costs[28]["thread_seconds"])
    if float(row["relative_error"]) >= 1:  # no figure wider than itself: what it timed, and that it bounds nothing
        units = int(row["sampled_units"])
        timed = (f"timed {units:,} units of its cheapest bands on {int(row['parts_timed']):,} exact parts and carried "
                 f"their rate to the other {row['extrapolated_bands']} of its {row['strata']} cost bands" if units else
                 "timed no unit of its bands, whole or in parts: only its pilot's light units")
        advised = float(row["advised_sample_seconds"] or 0)
        advice = f"; it advises `--sample-seconds {advised:g}`" if advised > 0 else ""
        return (f"- **CPU join, measured:** `plan -n 28 -t {FRONTIER_THREADS}` on this machine, in "
                f"{duration(float(row['sample_seconds']))} of sampling (a budget of "
                f"{duration(float(row['sample_budget_seconds']))}, after {duration(float(row['setup_seconds']))} "
                f"of setup), {timed}: its bar is wider than its estimate, so it bounds nothing{advice}. Its own "
                "default budget at N = 28 is a quarter of an hour; a plan under it is not in the data.")
    target = "within" if float(row["relative_error"]) <= FRONTIER_TARGET else "outside"
    return (f"- **CPU join, measured:** `plan -n 28 -t {FRONTIER_THREADS}` on this machine puts it at "
            f"{figure(thread / (365.25 * 86400))} core-years {frontier_bar(row)} (95 %, {figure(thread / q28 * 1e9)} ns "
            f"a solution, {figure(thread / model)} times the cost model's), from {int(row['sampled_units']):,} units "
            f"({int(row['units_in_parts']):,} of them timed on {int(row['parts_timed']):,} exact parts) in "
            f"{duration(float(row['sample_seconds']))} of sampling, {int(row['extrapolated_bands'])} of its "
            f"{row['strata']} cost bands carried from the others: {target} the +-{figure(100 * FRONTIER_TARGET)} % "
            "that a run's sizing wants.")


def render_q28(data):
    cost, row = data.costs[28], data.cluster[28]
    q28 = Q[27] * Q[27] / Q[26]
    thread = float(cost["thread_seconds"])
    year = 365.25 * 86400
    units = int(row["work_units"])
    per_shard = units / Q28_SHARDS
    journal_mib = float(row["journal_mib"])
    shard_bytes = float(row["shard_bytes_per_unit"]) * per_shard
    nodes = Q28_CORES // (THREADS * RANKS_PER_NODE)
    lines = [
        f"Rendered from the data of the [sizing table](#sizing-a-run-n--22-to-28) by "
        "`scripts/dev/cluster-table.py render`; Q(28) itself is not known, and is taken here as Q(27) times "
        f"Q(27) / Q(26), about {q28:.2g} solutions.", "",
        f"- **CPU join, thread time:** {figure(thread / year)} core-years by the cost model "
        f"({figure(thread / q28 * 1e9)} ns of one core a solution), in {units:,} units; the largest is "
        f"{duration(float(cost['largest_unit_seconds']))}, which bounds the wall time of the last units "
        "however many cores join.",
        frontier_q28(data, q28),
        f"- **On a cluster of {Q28_CORES:,} cores** ({nodes} nodes of {THREADS * RANKS_PER_NODE} cores, "
        f"{RANKS_PER_NODE} ranks of {THREADS} threads each): {duration(wall(cost, row, Q28_CORES))} of wall time "
        f"if every core counts all the time; on {CORES[0]:,} cores, {duration(wall(cost, row, CORES[0]))}.",
        f"- **Memory per node:** Slurm `--mem={row['slurm_mem']}` for {RANKS_PER_NODE} ranks, each given "
        f"`count --memory {row['count_memory']}` (a process holds {mebibytes(float(row['process_memory_mib']))}).",
        f"- **Journal and shards:** a whole run's journal is {mebibytes(journal_mib)}; cut into "
        f"K = {Q28_SHARDS:,} shards of about {per_shard:,.0f} units, each shard's journal is about "
        f"{figure(journal_mib * 1024 / Q28_SHARDS)} KiB and its shard file about {figure(shard_bytes / 1024)} KiB "
        f"({figure(shard_bytes * Q28_SHARDS / 2**30)} GiB for all of them).",
        gpu_bullet(data),
    ]
    return "\n".join(lines) + "\n"


def with_block(text, begin, end, block):
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"cluster-table: docs/cluster.md has no '{begin}' ... '{end}' markers")
    return text[:start + len(begin)] + "\n" + block + text[stop:]


def rendered(text, data):
    text = with_block(text, TABLE_BEGIN, TABLE_END, render_table(data))
    return with_block(text, Q28_BEGIN, Q28_END, render_q28(data))


NUMBER = r"(?:\d[\d.,]*|a|half\s+a|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|some)"
UNIT = r"(?:seconds?|minutes?|hours?|days?|weeks?|years?)"
THREAD_TIME = re.compile(r"\b" + NUMBER + r"\s*(?:core|CPU|thread)[- ]" + UNIT + r"\b|\b" + NUMBER + r"\s+" + UNIT
                         + r"\s+of\s+(?:CPU|thread|core)\s+time", re.IGNORECASE)
NAMES_N = re.compile(r"\bN\s*=\s*2[2-8]\b")


def blank_blocks(text):
    for begin, end in ((TABLE_BEGIN, TABLE_END), (Q28_BEGIN, Q28_END)):
        start, stop = text.find(begin), text.find(end)
        if start >= 0 and stop > start:
            text = text[:start] + "\n" * text[start:stop].count("\n") + text[stop:]
    return text


def stray_figures(path, text):
    """Thread times in core-, CPU- or thread- units in a section (heading to heading) that names
    N = 22..28, outside the rendered blocks."""
    text = blank_blocks(text)
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
    data = Data()
    problems = data.problems()
    if not problems:
        text = open(CLUSTER_MD).read()
        if rendered(text, data) != text:
            problems.append("docs/cluster.md: the sizing table or 'What Q(28) takes' is not what docs/data "
                            "renders: run scripts/dev/cluster-table.py render")
    for doc in DOCS:
        problems += stray_figures(doc, open(os.path.join(ROOT, doc)).read())
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["measure", "render", "check"])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "release", "nqueens"))
    parser.add_argument("--only", choices=["all", "plan", "gpu", "frontier"], default="all",
                        help="measure: the plan's CSV, the gpu model's, both, or the frontier plans'")
    parser.add_argument("--frontier", default="23:default,24:default,25:default,26:default,27:default,28:default",
                        help="measure --only frontier: N:S pairs, S the plan's --sample-seconds or default")
    parser.add_argument("--commit", help="measure: the commit --binary was built from, when it is a copy "
                        "(default: this checkout's HEAD)")
    parser.add_argument("--gpu-runs", help="measure: only these gpu model runs, N:CARD:CARDS separated by commas "
                        "(e.g. 28:H100:1), the CSV's other rows kept")
    args = parser.parse_args()
    if args.action == "check":
        return check()
    if args.action == "measure":
        runs = [(int(n), card, int(cards)) for n, card, cards in
                (run.split(":") for run in args.gpu_runs.split(","))] if args.gpu_runs else None
        if args.only == "frontier":
            budgets = [(int(n), budget) for n, budget in (pair.split(":") for pair in args.frontier.split(","))]
            measure_frontier(args.binary, budgets, args.commit)
        else:
            measure(args.binary, args.only, args.commit, runs)
    data = Data()
    problems = data.problems()
    if problems:
        sys.exit("\n".join(problems))
    text = open(CLUSTER_MD).read()
    with open(CLUSTER_MD, "w") as out:
        out.write(rendered(text, data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
