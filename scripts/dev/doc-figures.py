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
  time"): their mean time times the run's units must agree with the table's thread time within
  the sample's own stated error bar ("+- P %") and the machine's fifth;
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
- every other figure of prose (doc_figures/figures.py): a time ("X s", "X ms", "X min Y s",
  minutes, hours, days, years), an ns a solution, a cost of one thing ("11 ns each", "1 s a
  unit"), a ratio ("X times", "Xx", a number word, both ends of "A to B times"), and any of them
  as a bound ("under 45 s", "up to 1.7 times", "at most", "no more than", "over"), in a sentence
  of README.md or docs/*.md (tables, code blocks and the sections a script renders left out) that
  is of N = 16..28: the N named nearest it in its sentence or, in a sentence that names none, the
  last N its section named before it. Each is held to the one datum the ledger
  docs/data/figure-ties.csv names for it (doc_figures/ties.py): a column of a row of the data (the
  CSV files of docs/data and docs/data/figures, the rounds of figures/cpu.txt and counts.txt and
  their medians, the plans' times, a time over A000170(N) as its ns a solution, a time over a
  row's units or nodes as a cost of one), a ratio of one row's column over another's that differs
  in one thing the sentence compares (N, threads, engine), a ratio of the section's tables, of
  the sentence's own figures or of a record the sentence links to (docs/data/long-runs.md,
  comparisons.md, whose sentences are data too, and whose tables are where it links to one of
  their sections: `](data/long-runs.md#under-a-small-budget)`, tied before other data). Bars: a
  time's 5 %, a ratio's own rounding (at least 2 %), 15 % for "about" and number words; a bound
  on its side and within 1.5 times.
  A figure the ledger lacks fails with the datum `tie` would name; one that holds no datum fails.

    scripts/dev/doc-figures.py check [--binary build/release/nqueens]
    scripts/dev/doc-figures.py tie --binary build/release/nqueens

`tie` writes the ledger: it names the nearest datum for each figure that has none and drops the
lines of figures that are gone (ties.py says what it leaves to a person).
The data files are written by the figures scripts (scripts/dev/cluster-table.py measure,
fit-unit-costs.py); a document is brought in line with them by hand.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_figures import fixed, ties  # noqa: E402
from doc_figures.common import ROOT, STEP_DOCS, TIME_DOCS  # noqa: E402


def read(path):
    return open(os.path.join(ROOT, path)).read()


def fixed_problems(binary):
    """The rules of figures of one fixed form (doc_figures/fixed.py)."""
    costs = fixed.thread_seconds()
    problems = []
    for path in STEP_DOCS:
        problems += fixed.step_problems(path, read(path), costs)
    for path in TIME_DOCS:
        problems += fixed.time_problems(path, read(path), costs)
    cluster, readme = read("docs/cluster.md"), read("README.md")
    problems += fixed.slurm_problems("docs/cluster.md", cluster, fixed.load_cluster_table())
    problems += fixed.sample_problems("docs/cluster.md", cluster, costs)
    problems += fixed.readme_problems(readme)
    problems += fixed.readme_table_problems(readme)
    problems += fixed.root_problems("docs/cluster.md", cluster)
    if binary:
        problems += fixed.transcript_problems("docs/cluster.md", cluster, binary)
        problems += fixed.model_table_problems(read("docs/performance.md"), fixed.cost_rows(),
                                               fixed.oeis_totals(binary))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["check", "tie"])
    parser.add_argument("--binary", help="nqueens: the transcripts' column names and A000170 (for ns a solution)")
    args = parser.parse_args()
    if args.action == "tie" and not args.binary:
        parser.error("tie needs --binary (the ns a solution of the data need A000170)")
    problems = [] if args.action == "tie" else fixed_problems(args.binary)
    if args.binary:
        problems += ties.problems_of(TIME_DOCS, fixed.oeis_totals(args.binary), write=args.action == "tie")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
