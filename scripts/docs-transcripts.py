#!/usr/bin/env python3
"""Keeps the example output in the documentation true to the program.

A transcript in a Markdown file is an HTML comment naming one or more commands, followed by a
fenced block that shows each command (after "$ ") and what it printed:

    <!-- transcript: nqueens count -n 8-10 -->
    ```text
    $ nqueens count -n 8-10
      N       total ...
    ```

or, for several commands run one after the other (one per line):

    <!-- transcript:
    nqueens count -n 12 --shard 1/2 --output s1.json
    nqueens merge s1.json s2.json
    -->

Each command runs in bash, in a scratch directory shared by the transcripts of one file (so a
later command can read what an earlier one wrote), with the binary given by --binary first on
the PATH as `nqueens`. Only stdout is shown; a command that wants stderr says `2>&1` itself. The
exit status is not checked (error examples exit 2) unless the command prints it itself.

    scripts/docs-transcripts.py --binary build/release/nqueens README.md docs/usage.md           # --check
    scripts/docs-transcripts.py --update --binary build/release/nqueens README.md docs/usage.md

--check (the default) runs every command and fails, with a unified diff, when a block differs
from what the program prints now. Fields that change from run to run or machine to machine
(times, rates, dates, commit, host, CPU, compiler, SIMD path) are masked on both sides before
comparing. --update rewrites the blocks that differ (--force: every block). Standard library only.
"""
import argparse
import difflib
import os
import pathlib
import re
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- transcript:(?P<inline>.*?)(?P<end>-->)?\s*$")
FENCE = "```"
TIMEOUT_SECONDS = 60

# JSON fields whose values vary between runs or machines (numbers, strings, lists).
VOLATILE_KEYS = (
    "seconds", "solutions_per_second", "nodes_per_second", "unit_seconds", "min_seconds",
    "median_seconds", "mean_seconds", "max_seconds", "stddev_seconds", "samples", "ns_per_node",
    "speedup_vs_1_thread", "inner_repeats", "vs_dfs", "vs_baseline", "baseline_seconds", "microseconds", "crc",
    "date", "git_commit", "compiler", "build_type", "target", "dfs_kernel", "join_matcher", "gpu_devices",
    "tbb_version", "host_name", "host_cpus", "cpu_model", "caches",
    # `nqueens plan`: what it sampled and measured.
    "sampled_units", "sampled_share", "sample_seconds", "setup_seconds", "thread_seconds", "thread_seconds_error",
    "thread_seconds_sampling_error", "journal_thread_seconds", "journal_thread_seconds_error", "largest_unit_seconds",
    "counting_seconds", "efficiency", "wall_seconds", "wall_seconds_error", "memory_bytes", "counting_memory_bytes",
    "program_memory_bytes", "journal_bytes", "node_memory_bytes", "slurm_mem",
    # `nqueens plan`: the load on this machine while it sampled.
    "busy_cores", "busy_factor", "busy_cpus", "wall_seconds_at_load",
    # `plan --engine gpu` by the device model: the replay's share and its host's timing.
    "units_replayed", "replayed_share", "relative_error", "host_thread_seconds",
    "device_seconds", "transfer_seconds",
    "host_seconds", "bound_by", "device_here",
)
JSON_VALUE = r'(?:"(?:[^"\\]|\\.)*"|\[[^\]]*\]|\[(?:\{[^}]*\},?)*\]|-?[0-9.eE+-]+|null|true|false)'
MASKS = [
    (re.compile(r'"(%s)":%s' % ("|".join(VOLATILE_KEYS), JSON_VALUE)), r'"\1":~'),
    # `nqueens version`: how and where the binary was built.
    (re.compile(r"^(commit|compiler|build type|target|dfs kernel|join matcher|gpu devices|oneTBB):.*$", re.M), r"\1: ~"),
    # ISO 8601 timestamps of batch logs and context records.
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"), "~"),
    # A torn record's length holds its unit's time, whose digits vary from run to run.
    (re.compile(r"torn last record \(\d+ bytes"), "torn last record (~ bytes"),
    # A journal record's time and its checksum, which covers the time.
    (re.compile(r"^(U(?: \d+){7}) \S+ [0-9a-f]{8}$", re.M), r"\1 ~ ~"),
    # `nqueens plan`: the line it adds when the machine was busy while it sampled.
    (re.compile(r"^load: .*\n", re.M), ""),
    # `nqueens plan`: how many units it sampled.
    (re.compile(r"^(sampled: +)\d+ units", re.M), r"\1~ units"),
    # `nqueens plan`: the Slurm memory, which holds the program's own resident memory.
    (re.compile(r"--mem=\d+M"), "--mem=~M"),
    # `plan --engine gpu` by the device model: which of the card, its bus or the host this CPU's
    # timing of the replay finds the slowest.
    (re.compile(r"bound by the (?:host|device|transfers)"), "bound by the ~"),
    # `nqueens status`: the remaining time's spread, printed as a whole "0" when the shards done
    # took the same time, which the decimal mask below would leave.
    (re.compile(r"\(\+- \d+ s, 95 %"), "(+- ~ s, 95 %"),
    # Which SIMD path this CPU takes.
    (re.compile(r"\b(?:avx512|avx2|scalar)(?:\+pext)?\b"), "~"),
    # Any other decimal fraction (seconds, rates, ratios), with the padding that aligns it.
    (re.compile(r" *(?<![\w.])\d+(?:\.\d+(?:e[+-]?\d+)?x?|e[+-]\d+)"), " ~"),
]


def mask(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


class Transcript:
    def __init__(self, commands, marker_start, marker_end, block_start, block_end):
        self.commands = commands          # the commands, in order
        self.marker_start = marker_start  # line index of "<!-- transcript:"
        self.marker_end = marker_end      # line index of the line holding "-->"
        self.block_start = block_start    # line index of the opening fence, or None
        self.block_end = block_end        # line index of the closing fence, or None


def parse(path, lines):
    transcripts = []
    i = 0
    while i < len(lines):
        match = MARKER.match(lines[i])
        if not match:
            i += 1
            continue
        start = i
        commands = [match.group("inline").strip()] if match.group("inline").strip() else []
        if not match.group("end"):
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                if lines[i].strip():
                    commands.append(lines[i].strip())
                i += 1
            if i == len(lines):
                sys.exit(f"{path}:{start + 1}: transcript marker has no closing -->")
        end = i
        if not commands:
            sys.exit(f"{path}:{start + 1}: transcript marker names no command")
        j = end + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        block_start = block_end = None
        if j < len(lines) and lines[j].startswith(FENCE):
            block_start = j
            block_end = j + 1
            while block_end < len(lines) and not lines[block_end].startswith(FENCE):
                block_end += 1
            if block_end == len(lines):
                sys.exit(f"{path}:{j + 1}: the transcript's block is not closed")
        transcripts.append(Transcript(commands, start, end, block_start, block_end))
        i = (block_end if block_end is not None else end) + 1
    return transcripts


def run(command, directory, bin_directory):
    env = dict(os.environ, PATH=f"{bin_directory}{os.pathsep}{os.environ.get('PATH', '')}", TZ="UTC",
               LC_ALL="C", NO_COLOR="1")
    env.pop("COLUMNS", None)
    try:
        done = subprocess.run(["bash", "-c", command], cwd=directory, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        sys.exit(f"docs-transcripts: `{command}` ran past {TIMEOUT_SECONDS} s: keep documented commands fast")
    if done.returncode >= 126:  # not found, not executable, or killed by a signal
        sys.exit(f"docs-transcripts: `{command}` failed with exit code {done.returncode}:\n"
                 + done.stderr.decode(errors="replace"))
    if done.returncode != 0 and done.stderr:  # shown to whoever runs this, never in the page
        note = done.stderr.decode(errors="replace").rstrip("\n").replace("\n", "\n  ")
        print(f"docs-transcripts: note: `{command}` exited {done.returncode}; its stderr:\n  {note}", file=sys.stderr)
    return done.stdout.decode(errors="replace").rstrip("\n")


def produce(transcript, directory, bin_directory):
    lines = []
    for command in transcript.commands:
        lines.append(f"$ {command}")
        output = run(command, directory, bin_directory)
        if output:
            lines.extend(output.split("\n"))
    return lines


def process(path, binary, update, force):
    text = path.read_text()
    lines = text.split("\n")
    transcripts = parse(path, lines)
    if not transcripts:
        print(f"docs-transcripts: {path}: no transcripts", file=sys.stderr)
    differences = 0
    replacements = []
    with tempfile.TemporaryDirectory(prefix="nqueens-docs-") as scratch:
        # `nqueens` on the PATH is the binary under test, so that it calls itself "nqueens".
        bin_directory = pathlib.Path(scratch, "bin")
        bin_directory.mkdir()
        (bin_directory / "nqueens").symlink_to(binary)
        directory = pathlib.Path(scratch, "work")
        directory.mkdir()
        for transcript in transcripts:
            actual = produce(transcript, directory, bin_directory)
            expected = [] if transcript.block_start is None else \
                lines[transcript.block_start + 1:transcript.block_end]
            if transcript.block_start is not None and mask("\n".join(expected)) == mask("\n".join(actual)):
                if not force:
                    continue
            else:
                differences += 1
                where = f"{path}:{transcript.marker_start + 1}"
                if transcript.block_start is None:
                    print(f"{where}: the transcript has no ```text block after its marker", file=sys.stderr)
                elif not update:
                    diff = difflib.unified_diff(mask("\n".join(expected)).split("\n"),
                                                mask("\n".join(actual)).split("\n"),
                                                f"{where} (documented)", f"{where} (program, now)", lineterm="")
                    print("\n".join(diff), file=sys.stderr)
            replacements.append((transcript, actual))
    if update and replacements:
        for transcript, actual in reversed(replacements):  # from the end, so indices stay valid
            block = [FENCE + "text"] + actual + [FENCE]
            if transcript.block_start is None:
                lines[transcript.marker_end + 1:transcript.marker_end + 1] = block
            else:
                lines[transcript.block_start:transcript.block_end + 1] = block
        path.write_text("\n".join(lines))
        print(f"docs-transcripts: {path}: rewrote {len(replacements)} of {len(transcripts)} transcripts")
    else:
        print(f"docs-transcripts: {path}: {len(transcripts) - differences} of {len(transcripts)} transcripts match")
    return differences


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail with a diff where a block differs (default)")
    mode.add_argument("--update", action="store_true", help="rewrite the blocks that differ")
    parser.add_argument("--force", action="store_true", help="with --update: rewrite every block")
    parser.add_argument("--binary", required=True, type=pathlib.Path, help="the nqueens program to run")
    parser.add_argument("files", nargs="+", type=pathlib.Path, help="Markdown files")
    args = parser.parse_args()
    binary = args.binary.resolve()
    if not os.access(binary, os.X_OK):
        sys.exit(f"docs-transcripts: {binary} is not an executable program")
    differences = sum(process(path, binary, args.update, args.force) for path in args.files)
    if differences and not args.update:
        sys.exit(f"docs-transcripts: {differences} transcript(s) differ from the program's output: "
                 "run scripts/docs-transcripts.py --update --binary build/release/nqueens FILES")


if __name__ == "__main__":
    main()
