#!/usr/bin/env python3
"""scripts/dev/scaling-model.py on journals this test makes: real ones written by `nqueens count
--checkpoint` (format 4, timed units; dfs and join), and hand-made ones whose costs give
schedules worked out by hand, in format 2 (nodes only) and 3, with a repeated record and a torn
last line. Unfinished and damaged journals are refused. --simulate (nqueens-mpi's protocol, event
by event) is held to its bounds on the real journals and to runs traced by hand on small ones:
the draw policy, an emulated latency, rank 0's collecting and the earlier policy; a sampled
journal (--sample) is expanded to its run.

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
            check_simulated(journal, what)


def check_simulated(journal, what):
    """The simulated run is no faster than any of its bounds, and no unit is lost (the script
    fails if one is)."""
    for latency in ("0", "100"):
        rows = model(journal, "--simulate", "--threads", "1,2", "--ranks", "1,4", "--latency-us", latency)
        check(len(rows) == 4, f"{what} simulated: {len(rows)} rows, not 4")
        for row in rows:
            simulated, efficiency = float(row["simulated (s)"]), float(row["efficiency"])
            bound = max(float(row["ideal (s)"]), float(row["largest unit (s)"]), float(row["rank 0 collecting (s)"]))
            check(simulated >= bound * 0.999, f"{what} simulated: faster than a bound: {row}")
            check(0 < efficiency <= 1.0005, f"{what} simulated: efficiency {efficiency}: {row}")
            check(int(row["draws"]) >= int(row["ranks x threads"].split(" x ")[0]), f"{what}: too few draws: {row}")
            check(row["latency (us)"] == latency and row["policy"] == "work", f"{what}: settings not shown: {row}")


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
            ("unfinished", "".join(records[:5]), "not a finished journal (5 of 6 units recorded;"),
            ("damaged", "".join(records[:2]) + "U 2 zero\n" + "".join(records[3:]), "line 4 is not a unit record"),
    ):
        run = model(hand_made(directory, 2, [text], name + ".journal"), ok=False)
        check(run.returncode != 0 and message in run.stderr, f"{name}: exit {run.returncode}, stderr {run.stderr!r}")
    other = directory / "other.txt"
    other.write_text("hello\n")
    run = model(other, ok=False)
    check(run.returncode != 0 and "not a checkpoint journal" in run.stderr, f"not a journal: {run.stderr!r}")


def timed_journal(directory, name, times):
    """A format 3 journal of len(times) units, timed in this order (the list order)."""
    header = HEADER.replace("units=6", f"units={len(times)}")
    path = directory / name
    path.write_text(f"nqueens-journal 3 {header}\n" +
                    "".join(f"U {i} 0 0 0 0 0 1 {time} 0000000{i}\n" for i, time in enumerate(times)))
    return path


def simulated(path, *args):
    row = model(path, "--simulate", *args)[0]
    return row["simulated (s)"], row["efficiency"], row["draws"], row["limited by"]


def simulated_by_hand(directory):
    # 8 4 1 1 1 1 us on 2 ranks of 1 thread (weights 9 5 2 2 2 2: 22). Each rank first draws one
    # unit (worth min(its first unit, 22 / (2 x 2))): rank 0 unit 0, rank 1 unit 1, and each
    # draws again at once, its queue empty: rank 0 unit 2, rank 1 unit 3. Rank 1 finishes unit 1
    # at 4 and draws unit 4 (worth 1: what is left, 4 / 4), unit 3 at 5 and draws unit 5 (the
    # last), and finishes at 7 with its batch sent. Rank 0 finishes unit 0 at 8 and unit 2 at 9,
    # then draws once more to find the list dry. 16 us of work on 2 threads in 9: 0.889.
    path = timed_journal(directory, "by-hand.journal", [8, 4, 1, 1, 1, 1])
    got = simulated(path, "--threads", "1", "--ranks", "2", "--collect-us", "0")
    check(got == ("9e-06", "0.889", "7", "the largest unit"), f"by hand, 2 ranks: {got}")
    # The earlier policy (units waiting, not work) on one rank of 2 threads: it draws 1 unit (the
    # share of 6 / 2), then 1 at a time as the queue runs short: 8 | 4 1 1 1 1 ends at 8.
    got = simulated(path, "--threads", "2", "--ranks", "1", "--collect-us", "0", "--policy", "units")
    check(got[:2] == ("8e-06", "1.000"), f"by hand, the earlier policy: {got}")

    # Latency 100 us, 2 units of 10 us on 2 ranks: each rank's first draw returns at 100 with one
    # unit, done at 110; rank 1 sends it (100 more: recorded at 210) while rank 0 draws again
    # (back at 200, the list dry). 20 us of work on 2 threads in 210: 0.048.
    path = timed_journal(directory, "latency.journal", [10, 10])
    got = simulated(path, "--threads", "1", "--ranks", "2", "--latency-us", "100", "--collect-us", "0")
    check(got == ("0.00021", "0.048", "3", "the schedule: draws, latency and the tail"), f"by hand, latency: {got}")

    # Rank 0 records each unit in 5 us, on the main thread that also draws: 3 units of 10 us on one
    # rank of one thread. Units 0 and 1 drawn at 0; unit 0 done at 10, recorded by 15, when unit 2
    # is drawn; unit 1 done at 20 (recorded by 25), unit 2 at 30 (recorded by 35): 30 / 35.
    path = timed_journal(directory, "collect.journal", [10, 10, 10])
    got = simulated(path, "--threads", "1", "--ranks", "1", "--collect-us", "5")
    check(got[:3] == ("3.5e-05", "0.857", "3"), f"by hand, collecting: {got}")
    # The same at 1000 us a unit: the collecting is the term that limits.
    got = simulated(path, "--threads", "1", "--ranks", "1", "--collect-us", "1000")
    check(got[3] == "rank 0 collecting", f"by hand, collecting: {got}")

    refused = model(path, "--simulate", "--share", "0", ok=False)
    check(refused.returncode != 0 and "--share" in refused.stderr, f"--share 0: {refused.stderr!r}")
    untimed = hand_made(directory, 2, [f"U {i} 0 0 0 0 0 1 0000000{i}\n" for i in range(6)], "untimed2.journal")
    refused = model(untimed, "--simulate", ok=False)
    check(refused.returncode != 0 and "needs every unit's time" in refused.stderr, f"format 2: {refused.stderr!r}")


def sampled_by_hand(directory):
    # A sample of 2 of a run's 5 units, times 2 and 8 us: the run is 8 8 8 2 2 (the first sampled
    # unit, costliest first, takes the remainder): 28 us. On one rank of one thread it is the work
    # itself; on 5 ranks the largest unit, 8 us, bounds it.
    header = HEADER.replace("units=6", "units=5")
    path = directory / "sample.journal"
    path.write_text(f"nqueens-journal 3 {header}\nU 3 0 0 0 0 0 1 2 00000003\nU 1 0 0 0 0 0 1 8 00000001\n")
    rows = model(path, "--simulate", "--sample", "--threads", "1", "--ranks", "1,5", "--collect-us", "0")
    check([(row["units"], row["work (s)"], row["largest unit (s)"]) for row in rows] == [("5", "2.8e-05", "8e-06")] * 2,
          f"a sample: {rows}")
    check(rows[0]["simulated (s)"] == "2.8e-05" and float(rows[1]["simulated (s)"]) >= 8e-06, f"a sample: {rows}")
    # Without --sample the same journal is an unfinished run; --sample alone is no projection.
    refused = model(path, "--simulate", ok=False)
    check(refused.returncode != 0 and "not a finished journal" in refused.stderr, f"a sample as a run: {refused.stderr!r}")
    refused = model(path, "--sample", ok=False)
    check(refused.returncode != 0 and "--sample goes with --simulate" in refused.stderr, f"--sample: {refused.stderr!r}")
    empty = directory / "empty.journal"
    empty.write_text(f"nqueens-journal 3 {header}\n")
    refused = model(empty, "--simulate", "--sample", ok=False)
    check(refused.returncode != 0 and "no unit recorded" in refused.stderr, f"an empty sample: {refused.stderr!r}")


with tempfile.TemporaryDirectory(prefix="nqueens-scaling-model-") as scratch:
    sampled_by_hand(pathlib.Path(scratch))
    real_journals(pathlib.Path(scratch))
    hand_made_journals(pathlib.Path(scratch))
    simulated_by_hand(pathlib.Path(scratch))
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("scaling-model: all checks passed")
