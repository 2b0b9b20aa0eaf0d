"""Text and constants shared by the rules: where the docs and data are, how prose is cut into
sentences, which sizes of N a sentence names."""
import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
COSTS_CSV = os.path.join(ROOT, "docs", "data", "join-run-costs.csv")
STEP_DOCS = ["README.md", "docs/usage.md", "docs/cluster.md"]
TIME_DOCS = ["README.md"] + [os.path.join("docs", name) for name in sorted(os.listdir(os.path.join(ROOT, "docs")))
                             if name.endswith(".md")]
SIZES = range(16, 29)
LAST_N = 28
ROUNDING = 0.15        # a figure the docs round, against the data
MACHINE = 1.25         # the machine's speed from day to day, and the model against a count
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12}
UNITS = {"ms": 1e-3, "s": 1, "seconds": 1, "min": 60, "minutes": 60, "h": 3600, "hours": 3600, "days": 86400,
         "years": 365.25 * 86400}
DURATION = r"([\d.,]+)(?: to ([\d.,]+))? (ms|s|seconds|min|minutes|h|hours|days|years)"


def number(text):
    text = text.strip().lower()
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    half = re.fullmatch(r"(\w+) and a half", text)
    if half and half.group(1) in NUMBER_WORDS:
        return NUMBER_WORDS[half.group(1)] + 0.5
    return float(text.replace(",", ""))


def line_of(text, at):
    return text.count("\n", 0, at) + 1


def sentences(text):
    """(start, sentence) pairs: prose split at '. ' and blank lines, line breaks joined."""
    start = 0
    for match in re.finditer(r"(?<=[a-z0-9)])\.\s|\n\s*\n", text):
        yield start, " ".join(text[start:match.end()].split())
        start = match.end()
    yield start, " ".join(text[start:].split())


def near(stated, actual, bar):
    return abs(stated - actual) <= bar * actual


FIGURES = os.path.join(ROOT, "docs", "data", "figures")
LONG_RUNS = os.path.join(ROOT, "docs", "data", "long-runs.md")
RECORDS = [os.path.join(ROOT, "docs", "data", name) for name in ("long-runs.md", "comparisons.md")]
STEP_IN_N = re.compile(r"each step in N (?:costs|multiplies the work by) ([\w.]+) to ([\w.]+)(?: times)?(?: more)?, "
                       r"about ([\w. ]+?) on average")
N_LIST = re.compile(r"\bN = (\d+(?:(?:,? and |, | to |-)\d+(?!\d|\.\d))*)")  # "to 18." ends a sentence


def named_sizes(sentence):
    sizes = set()
    for found in N_LIST.finditer(sentence):
        numbers = [int(k) for k in re.findall(r"\d+", found.group(1))]
        if " to " in found.group(1) or "-" in found.group(1):
            numbers = list(range(min(numbers), max(numbers) + 1))
        sizes.update(numbers)
    return sizes


def only_lines(match):
    """What a left-out match leaves: its line breaks, so that line numbers stay true."""
    return "\n" * match.group(0).count("\n")


def prose(text):
    """(line, sentence) of the prose: tables, code blocks and the sections a script renders from
    docs/data (between '<!-- NAME: begin' and '<!-- NAME: end -->', held to it by that script's
    check) left out: the tables have rules of their own, and a code block's figures are its output."""
    kept = re.sub(r"```.*?```", only_lines, text, flags=re.S)
    kept = re.sub(r"^\|.*$", "", kept, flags=re.M)
    kept = re.sub(r"<!-- ([\w-]+): begin.*?<!-- \1: end -->", only_lines, kept, flags=re.S)
    kept = re.sub(r"<!--.*?-->", only_lines, kept, flags=re.S)
    return ((line_of(kept, start), sentence) for start, sentence in sentences(kept))


def section(text, line):
    """The lines of the section (from one heading to the next) that holds line: the tables a
    sentence may mean are those of its own section."""
    lines = text.splitlines()
    heads = [at for at, row in enumerate(lines) if row.startswith("#")]
    start = max((at for at in heads if at < line), default=0)
    end = min((at for at in heads if at >= line), default=len(lines))
    return "\n".join(lines[start:end])

