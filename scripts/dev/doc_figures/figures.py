"""The figures of prose that the docs test holds to the data: a time, an ns a solution, a cost of
one thing ("11 ns each", "1 s a unit") or a ratio ("X times", "Xx", "A to B times", "X of the CPU
time before"), each maybe a
bound ("under 45 s", "up to 1.7 times"), in a sentence of README.md or docs/*.md whose sizes are
of N = 16..28: the N named nearest the figure in its sentence, or, in a sentence that names none,
the last N named before it in its section (the previous sentence, the table's caption)."""
import re
from dataclasses import dataclass

from .common import N_LIST, NUMBER_WORDS, SIZES, STEP_IN_N, UNITS, named_sizes, prose

UPPER = ("under", "below", "less than", "shorter than", "at most", "no more than", "up to")
LOWER = ("over", "above", "more than", "longer than", "at least")
ROUNDED = ("about", "some", "nearly", "roughly", "around", "~")
NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
FIGURE = re.compile(
    r"(?:\b(?P<bound>" + "|".join(UPPER + LOWER) + r") )?"
    r"(?:(?P<rounded>" + "|".join(ROUNDED) + r") ?)?"
    r"(?<![\w.,\-/=#+])(?<!= )(?<!min )"  # not within a word, an N, or "47 min 20 s"
    r"(?:(?P<low>" + NUMBER + r") to )?(?P<value>" + NUMBER + r"|" + "|".join(NUMBER_WORDS) + r")"
    r"(?:(?P<ratio>x\b| times\b| of the (?:CPU |wall |thread )?time (?:before|of)\b)| min (?P<seconds>\d+(?:\.\d+)?) s\b"
    r"| (?P<unit>ms|s|seconds|ns|min|minutes|h|hours|days|years)\b)"
    r"(?P<item> (?:a|per) (?:unit|node|pair|half)\b| each\b)?")


@dataclass
class Figure:
    kind: str          # seconds, ns (a solution), item (seconds of one thing) or ratio
    values: list       # the figure, or both ends of a range
    digits: list       # as written, for the bar of its rounding
    bound: str         # upper, lower or '' (a figure, not a bound)
    rounded: bool      # "about", "some", a number word: rounded more than its digits say
    text: str          # as written in the sentence
    start: int         # where in the sentence
    sizes: frozenset   # the sizes of N it is stated for


def kind_of(found):
    if found.group("ratio"):
        return "ratio"
    if found.group("item"):
        return "item"
    return "ns" if found.group("unit") == "ns" else "seconds"


def scale_of(found, kind):
    """What one of the figure's units is in the data's units (seconds; ns for an ns a solution)."""
    if kind == "ratio" or found.group("seconds") or kind == "ns":
        return 1
    return 1e-9 if found.group("unit") == "ns" else UNITS[found.group("unit")]


def read(found, sizes):
    """The Figure of one match of FIGURE (a number word is a ratio only: "two days" is no figure)."""
    kind = kind_of(found)
    word = found.group("value") in NUMBER_WORDS
    if word and kind != "ratio":
        return None
    digits = [d for d in (found.group("low"), found.group("value")) if d]
    values = [float(NUMBER_WORDS[d]) if d in NUMBER_WORDS else float(d.replace(",", "")) for d in digits]
    if found.group("seconds"):
        values[-1] = values[-1] * 60 + float(found.group("seconds"))
    scale = scale_of(found, kind)
    bound = "upper" if found.group("bound") in UPPER else "lower" if found.group("bound") else ""
    return Figure(kind, [v * scale for v in values], digits, bound, bool(found.group("rounded")) or word,
                  found.group(0), found.start(), frozenset(sizes))


def sizes_near(mentions, at):
    """The sizes a figure at `at` is stated for: the N named just before it and just after it."""
    before = [sizes for start, sizes in mentions if start < at][-1:]
    after = [sizes for start, sizes in mentions if start > at][:1]
    return set().union(*before, *after)


CONTEXT_LINES = 15    # how far back a sentence that names no N looks for the N it speaks of


def stated_figures(text):
    """(line, sentence, [Figure]) of the prose of a document, each figure with the sizes it is
    stated for; only sentences with a figure for N = 16..28. The context of a sentence that names
    no N is the last N named before it in its section, within CONTEXT_LINES lines (a caption and
    its table; the sentence before)."""
    context, named_at = set(), 0
    for line, sentence in prose(text):
        if sentence.startswith("#") or line - named_at > CONTEXT_LINES:
            context = set()
        mentions = [(found.start(), named_sizes(found.group(0))) for found in N_LIST.finditer(sentence)]
        figures = []
        step = STEP_IN_N.search(sentence)  # held to the cost model by a rule of its own (fixed.py)
        for found in FIGURE.finditer(sentence):
            if step and step.start() <= found.start() < step.end():
                continue
            sizes = (sizes_near(mentions, found.start()) if mentions else context) & set(SIZES)
            figure = read(found, sizes) if sizes else None
            if figure and any(v > 0 for v in figure.values):
                figures.append(figure)
        if mentions:
            context, named_at = mentions[-1][1], line
        if figures:
            yield line, sentence, figures
