#!/usr/bin/env python3
"""Draws the figures of docs/performance.md from the CSV that `nqueens bench --format csv` writes.

    nqueens bench -n 8-17 -t 1,2 -r 3 --engines dfs,join --no-baseline --format csv > bench.csv
    scripts/dev/plot-bench.py bench.csv                    # writes docs/img/bench-*.png
    scripts/dev/plot-bench.py bench.csv --out /tmp/plots --title "2 shared cores"
    scripts/dev/plot-bench.py scaling.csv --out . --name scaling   # scaling-*.png (scripts/dev/scaling.sh)

Two figures: the time of each engine against N on a log scale (one line per engine and thread
count), and the speedup of each engine against its own one-thread time, per thread count, for
the largest N measured (with the ideal line). Needs python3 and matplotlib (Debian:
python3-matplotlib); the tests do not use it.
"""
import argparse
import collections
import csv
import pathlib
import sys

try:
    import matplotlib
except ImportError:
    sys.exit("plot-bench: needs matplotlib: apt-get install python3-matplotlib (then run it with /usr/bin/python3), "
             "or pip install matplotlib")

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

# The column with the time of one point: the median where bench reports one.
TIME_COLUMNS = ("median_seconds", "seconds", "mean_seconds")


def read_points(paths):
    """{(engine, threads): {n: seconds}} from every CSV given, later files winning."""
    points = collections.defaultdict(dict)
    for path in paths:
        with open(path, newline="") as stream:
            rows = csv.DictReader(stream)
            column = next((c for c in TIME_COLUMNS if c in (rows.fieldnames or [])), None)
            if column is None:
                sys.exit(f"plot-bench: {path} has no time column ({', '.join(TIME_COLUMNS)}): is it bench's CSV?")
            for row in rows:
                points[(row["engine"], int(row["threads"]))][int(row["n"])] = float(row[column])
    if not points:
        sys.exit("plot-bench: no rows to plot")
    return points


def plot_time(points, path, title):
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for (engine, threads), by_n in sorted(points.items()):
        sizes = sorted(by_n)
        axes.plot(sizes, [by_n[n] for n in sizes], marker="o",
                  linestyle="-" if threads == 1 else "--",
                  label=f"{engine}, {threads} thread{'s' if threads > 1 else ''}")
    axes.set_yscale("log")
    axes.set_xlabel("N (board size)")
    axes.set_ylabel("median time per count (s, log scale)")
    axes.set_title(f"Time against N per engine{title}")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def plot_speedup(points, path, title):
    engines = sorted({engine for engine, _ in points})
    common = [n for n in sorted({n for by_n in points.values() for n in by_n})
              if all(n in by_n for by_n in points.values())]
    if not common:
        sys.exit("plot-bench: no N was measured at every engine and thread count")
    n = common[-1]
    figure, axes = plt.subplots(figsize=(7, 4.5))
    most = max(threads for _, threads in points)
    axes.plot([1, most], [1, most], color="grey", linestyle=":", label="ideal")
    for engine in engines:
        series = sorted((threads, by_n[n]) for (e, threads), by_n in points.items() if e == engine)
        one = dict(series).get(1)
        if one is None:
            continue
        axes.plot([t for t, _ in series], [one / s for _, s in series], marker="o", label=engine)
    axes.set_xlabel("threads")
    axes.set_ylabel("speedup over 1 thread")
    axes.set_xticks(sorted({threads for _, threads in points}))
    axes.set_title(f"Speedup against threads at N = {n}{title}")
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", help="CSV files written by nqueens bench --format csv")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parents[2] / "docs" / "img"),
                        help="directory for NAME-time.png and NAME-speedup.png (default: docs/img)")
    parser.add_argument("--name", default="bench", help="the figures' file name prefix (default: bench)")
    parser.add_argument("--title", default="", help="added to each figure's title, e.g. the machine")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    points = read_points(args.csv)
    title = f" ({args.title})" if args.title else ""
    time_path, speedup_path = out / f"{args.name}-time.png", out / f"{args.name}-speedup.png"
    plot_time(points, time_path, title)
    plot_speedup(points, speedup_path, title)
    print(f"plot-bench: wrote {time_path} and {speedup_path}")


if __name__ == "__main__":
    main()
