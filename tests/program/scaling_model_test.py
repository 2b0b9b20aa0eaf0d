#!/usr/bin/env python3
"""scripts/dev/scaling-model.py on journals this test makes: real ones written by `nqueens count
--checkpoint` (format 3, timed units; dfs and join), and hand-made ones whose costs give
schedules worked out by hand, in format 2 (nodes only) and 3, with a repeated record and a torn
last line. Unfinished and damaged journals are refused.

    scaling_model_test.py NQUEENS_BINARY SCALING_MODEL_SCRIPT
"""
import json
import pathlib
import subprocess
import sys
import tempfile

BINARY, SCRIPT = sys.argv[1], sys.argv[2]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAILED: {message}", file=sys.stderr)


def model(*args, ok=True):
    """The script's table rows as dicts by column name (ok=True), or its failed run."""
    run = subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True)
    if not ok:
        return run
    if run.returncode != 0:
        sys.exit(f"scaling-model {' '.join(map(str, args))} failed ({run.returncode}): {run.stderr}")
    lines = run.stdout.strip().split("\n")
    names = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(names, (cell.strip() for cell in line.strip("|").split("|")))) for line in lines[2:]]


def check_bounds(rows, what):
    """No schedule beats the ceiling, nor uses more workers than it has; one worker is 1.0."""
    for row in rows:
        workers = int(row["workers"])
        ceiling, greedy, in_order = float(row["ceiling"]), float(row["greedy"]), float(row["in order"])
        check(ceiling <= workers + 1e-9, f"{what}: ceiling {ceiling} above {workers} workers")
        check(greedy <= ceiling + 0.05 and in_order <= ceiling + 0.05, f"{what}: a schedule above the ceiling: {row}")
        check(greedy > 0 and in_order > 0, f"{what}: no progress: {row}")
        if workers == 1:
            check((ceiling, greedy, in_order) == (1.0, 1.0, 1.0), f"{what}: one worker is not 1.0: {row}")


def count_with_journal(directory, n, engine):
    journal = directory / f"n{n}-{engine}.journal"
    run = subprocess.run([BINARY, "count", "-n", str(n), "--engine", engine, "-t", "2", "--checkpoint", str(journal),
                          "--format", "json"], capture_output=True, text=True, check=True)
    return journal, json.loads(run.stdout.strip().split("\n")[-1])


def real_journals(directory):
    for n, engine in ((11, "dfs"), (12, "join")):
        journal, result = count_with_journal(directory, n, engine)
        what = f"{engine} N={n}"
        by_nodes = model(journal, "--threads", "1,2", "--ranks", "1,4", "--cost", "nodes")
        check(len(by_nodes) == 4, f"{what}: {len(by_nodes)} rows, not 4")
        for row in by_nodes:
            check(row["N"] == str(n) and row["engine"] == engine, f"{what}: row names another run: {row}")
            check(int(row["units"]) == result["work_units"], f"{what}: {row['units']} units, not {result['work_units']}")
            check(row["cost"] == f"{result['nodes']:.3e} nodes", f"{what}: cost {row['cost']}, nodes {result['nodes']}")
        check_bounds(by_nodes, what)
        # Format 3: every unit has its time, which the default takes where the times add up to any.
        timed = model(journal, "--threads", "1,2", "--ranks", "1,4")
        microseconds = sum(int(line.split()[8]) for line in journal.read_text().splitlines()[1:])
        check(timed[0]["cost"].endswith(" s") if microseconds > 0 else timed[0]["cost"].endswith(" nodes"),
              f"{what}: the default cost is {timed[0]['cost']} with {microseconds} us recorded")
        if microseconds > 0:
            check_bounds(timed, what + " by time")


# A hand-made run of 6 units, listed in the order 1 1 1 1 4 8 (total 16, largest 8). On 2 workers:
# ceiling 16 / 8 = 2; greedy (8 | 4 1 1 1 1) ends at 8: 2.0; in order (1 1 | 1 1 | then 4 and 8)
# ends at 2 + 8 = 10: 1.6. On 4 workers: ceiling 2, greedy 2.0, in order ends at 1 + 8 = 9: 1.8.
COSTS = [1, 1, 1, 1, 4, 8]
EXPECTED = {2: ("2.0", "2.0", "1.6"), 4: ("2.0", "2.0", "1.8")}
HEADER = "version=0.1.0 engine=dfs n=8 symmetry=full split_depth=2 units=6 fingerprint=00000000000000aa crc=00000000"


def hand_made(directory, version, records, name):
    path = directory / name
    path.write_text(f"nqueens-journal {version} {HEADER}\n" + "".join(records))
    return path


def check_hand_made(rows, what):
    for row in rows:
        got = (row["ceiling"], row["greedy"], row["in order"])
        check(got == EXPECTED[int(row["workers"])], f"{what}: {row['workers']} workers give {got}")


def hand_made_journals(directory):
    # Format 2: "U id total o1 o2 o4 o8 nodes crc", nodes the only cost; unit 0 repeated, a torn last line.
    records = [f"U {i} 0 0 0 0 0 {cost} 0000000{i}\n" for i, cost in enumerate(COSTS)]
    two = hand_made(directory, 2, records[:3] + ["U 0 0 0 0 0 0 1 00000000\n"] + records[3:] + ["U 2 0 0"], "two.journal")
    rows = model(two, "--threads", "1", "--ranks", "2,4")
    check(len(rows) == 2 and rows[0]["cost"] == "1.600e+01 nodes", f"format 2: {rows}")
    check_hand_made(rows, "format 2")
    refused = model(two, "--cost", "time", ok=False)
    check(refused.returncode != 0 and "not every unit has a time" in refused.stderr, f"format 2 by time: {refused}")

    # Format 3: "U id total o1 o2 o4 o8 nodes microseconds crc". The times are the costs above and
    # the nodes all equal, so the schedules show which one was taken.
    timed = hand_made(directory, 3, [f"U {i} 0 0 0 0 0 5 {cost} 0000000{i}\n" for i, cost in enumerate(COSTS)],
                      "three.journal")
    rows = model(timed, "--threads", "2", "--ranks", "1,2")
    check([row["cost"] for row in rows] == ["1.6e-05 s"] * 2, f"format 3 by time: {rows}")
    check_hand_made(rows, "format 3 by time")
    rows = model(timed, "--threads", "2", "--ranks", "1", "--cost", "nodes")
    check((rows[0]["cost"], rows[0]["greedy"], rows[0]["in order"]) == ("3.000e+01 nodes", "2.0", "2.0"),
          f"format 3 by nodes: {rows}")
    # A unit whose time is unknown ("-"): the default falls back to nodes.
    untimed = hand_made(directory, 3, [f"U {i} 0 0 0 0 0 {cost} {'-' if i == 3 else cost} 0000000{i}\n"
                                       for i, cost in enumerate(COSTS)], "untimed.journal")
    rows = model(untimed, "--threads", "1", "--ranks", "2,4")
    check(rows[0]["cost"] == "1.600e+01 nodes", f"an untimed unit: {rows}")
    check_hand_made(rows, "an untimed unit")

    # Refused: a journal missing a unit, a damaged record before the last line, not a journal.
    for name, text, message in (
            ("unfinished", "".join(records[:5]), "not a finished journal (5 of 6 units recorded)"),
            ("damaged", "".join(records[:2]) + "U 2 zero\n" + "".join(records[3:]), "line 4 is not a unit record"),
    ):
        run = model(hand_made(directory, 2, [text], name + ".journal"), ok=False)
        check(run.returncode != 0 and message in run.stderr, f"{name}: exit {run.returncode}, stderr {run.stderr!r}")
    other = directory / "other.txt"
    other.write_text("hello\n")
    run = model(other, ok=False)
    check(run.returncode != 0 and "not a checkpoint journal" in run.stderr, f"not a journal: {run.stderr!r}")


with tempfile.TemporaryDirectory(prefix="nqueens-scaling-model-") as scratch:
    real_journals(pathlib.Path(scratch))
    hand_made_journals(pathlib.Path(scratch))
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("scaling-model: all checks passed")
