#!/usr/bin/env python3
"""The gpu engine's device model, keys fed against device-built, for docs/performance.md.

  scripts/dev/gpu-model-table.py measure [--model build/release/bench/gpu_model] [--card H100]
                                         [--cases 20,22:24,23:8] [--commit HASH]
  scripts/dev/gpu-model-table.py render
  scripts/dev/gpu-model-table.py check

measure runs `gpu_model N [--batches B] --card CARD` twice per case (N, or N:B for a sample of B
batches spread over the run, scaled), keys fed and --device-built, on the same batches, and writes
docs/data/gpu-model-table.csv; render prints the markdown table performance.md holds, from that
file; check fails unless docs/performance.md holds that table as render prints it. The model is a replay on this CPU, not a measurement on a device: its host figures are this
machine's thread time, and a loaded machine inflates them.
"""
import argparse
import csv
import datetime
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV = os.path.join(ROOT, "docs", "data", "gpu-model-table.csv")
PAGE = os.path.join(ROOT, "docs", "performance.md")
FIELDS = ["n", "batches_replayed", "batches", "keys_fed_bytes", "built_bytes", "built_slice_bytes",
          "keys_fed_host_ns", "built_host_ns", "keys_fed_device_s", "built_device_s", "built_plan_s"]


def number(pattern, text, what):
    match = re.search(pattern, text)
    if not match:
        sys.exit(f"gpu-model-table: no {what} in gpu_model's output:\n{text}")
    return match.groups()


def run_model(model, n, batches, card, built):
    command = [model, str(n), "--card", card] + (["--batches", str(batches)] if batches else [])
    command += ["--device-built"] if built else []
    print("running:", " ".join(command), file=sys.stderr, flush=True)
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def measure(args):
    rows = []
    for case in args.cases.split(","):
        n, _, batches = case.partition(":")
        fed = run_model(args.model, int(n), batches, args.card, False)
        built = run_model(args.model, int(n), batches, args.card, True)
        replayed, total = number(r": (\d+) of (\d+) batches replayed", built, "batches")
        fed_bytes, fed_host = number(r"per solution: bytes over the bus (\S+) keys fed.*host thread time (\S+) ns keys fed",
                                     fed, "keys-fed figures")
        built_bytes, built_host = number(r"as replayed \(device-built\): bytes over the bus (\S+), host thread time (\S+) ns",
                                         built, "device-built figures")
        (slices,) = number(r"slices' entries (\S+)", built, "slices' bytes")
        to_device, to_host = number(r"bytes to the device (\S+), to the host (\S+)", built, "bytes")
        # The slices' bytes a solution: their share of the bytes over the bus, of its figure.
        slice_per_solution = float(built_bytes) * float(slices) / (float(to_device) + float(to_host))
        (fed_device,) = number(r"predicted: device (\S+) s", fed, "keys-fed device seconds")
        (built_device,) = number(r"predicted: device (\S+) s", built, "device-built device seconds")
        (built_plan,) = number(r"plan kernels: .*: (\S+) s of the device's", built, "the plan kernels' seconds")
        rows.append({"n": n, "batches_replayed": replayed, "batches": total, "keys_fed_bytes": fed_bytes,
                     "built_bytes": built_bytes, "built_slice_bytes": f"{slice_per_solution:.3g}",
                     "keys_fed_host_ns": fed_host, "built_host_ns": built_host, "keys_fed_device_s": fed_device,
                     "built_device_s": built_device, "built_plan_s": built_plan})
    load = os.getloadavg()[0]
    note = (f"# scripts/dev/gpu-model-table.py measure --cases {args.cases} --card {args.card}: bench/gpu_model "
            f"N [--batches B] --card {args.card} [--device-built], commit {args.commit}, "
            f"{datetime.date.today()}, {os.cpu_count()} CPUs, load average {load:.1f}\n")
    with open(CSV, "w", newline="") as out:
        out.write(note)
        writer = csv.DictWriter(out, FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    render()


def rendered():
    with open(CSV) as data:
        note = data.readline().lstrip("# ").strip()
        rows = list(csv.DictReader(data))
    lines = [f"<!-- gpu-model-table: {note} -->",
             "| N | batches replayed | bytes over the bus / solution: keys fed | device-built | of which slices "
             "| host thread ns / solution: keys fed | device-built | device: keys fed | device-built (build included) "
             "| of which the plan's kernels |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fewer = float(r["keys_fed_bytes"]) / float(r["built_bytes"])
        less = float(r["keys_fed_host_ns"]) / float(r["built_host_ns"])
        lines.append(f"| {r['n']} | {int(r['batches_replayed']):,} of {int(r['batches']):,} | {r['keys_fed_bytes']} "
                     f"| {r['built_bytes']} ({fewer:.0f}x fewer) | {r['built_slice_bytes']} | {r['keys_fed_host_ns']} "
                     f"| {r['built_host_ns']} ({less:.1f}x less) | {float(r['keys_fed_device_s']):.3g} s "
                     f"| {float(r['built_device_s']):.3g} s | {float(r['built_plan_s']):.2g} s |")
    return "\n".join(lines) + "\n"


def render():
    print(rendered(), end="")


def check():
    with open(PAGE) as page:
        if rendered() not in page.read():
            sys.exit("gpu-model-table: docs/performance.md does not hold the table of docs/data/gpu-model-table.csv "
                     "(scripts/dev/gpu-model-table.py render prints it)")
    print("gpu-model-table: docs/performance.md holds docs/data/gpu-model-table.csv's table")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--model", default=os.path.join(ROOT, "build", "release", "bench", "gpu_model"))
    m.add_argument("--card", default="H100")
    m.add_argument("--cases", default="20,22:24,23:8")
    m.add_argument("--commit", default="unknown")
    sub.add_parser("render")
    sub.add_parser("check")
    args = parser.parse_args()
    {"measure": measure, "render": lambda _: render(), "check": lambda _: check()}[args.what](args)


if __name__ == "__main__":
    main()
