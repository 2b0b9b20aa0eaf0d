"""The ledger docs/data/figure-ties.csv names, for every figure of prose (figures.py), the datum it
states (truths.py): a file, a row and a column of docs/data, a ratio of two of them, a table's
cell, a record's sentence. The check holds each figure to that one datum, as measured now, within
the figure's bar; a figure the ledger does not name, or names a datum that is gone, fails too.

A figure is found in the ledger by its document, its section's heading and the words before it
with their figures masked, so that a changed figure is still held to its datum. `doc-figures.py
tie` names the nearest datum within its bar for each figure the ledger lacks (after a figure was
added or its sentence reworded) and drops the lines of figures that are gone; it never moves a
figure that disagrees with its datum to another one: that is for a person to judge (delete its
line and tie again). A figure that is a setting of the program, not a measurement ("samples for
at most 60 s", "a batch waits 0.2 s"), has the datum `setting: FILE NAME UNIT`, written by hand:
the constant NAME of FILE (`NAME = 60`, `NAME = 15 * 60`, `NAME = std::chrono::milliseconds(200)`)
in UNIT (ns, ms, s, or 1 for a ratio), held to the figure like any datum."""
import csv
import math
import os
import re

from . import data, figures, truths
from .common import ROOT, ROUNDING, named_sizes, section

LEDGER = os.path.join(ROOT, "docs", "data", "figure-ties.csv")
PROSE_BAR = 0.05       # a time of prose, copied from the data to two or three digits
RATIO_BAR = 0.02       # a ratio of prose, computed from the data's figures to two or three digits
BOUND_SLACK = 1.5      # a bound further than this from its datum says too little to be true


def bar(figure, digits):
    """A figure's bar: a rounded figure's ("about", a number word) 15 %; a ratio's own rounding
    (twice half its last digit, at least 2 %); a time's 5 %."""
    if figure.rounded:
        return ROUNDING
    if figure.kind != "ratio":
        return PROSE_BAR
    digits = digits.replace(",", "")
    last = 10 ** -len(digits.split(".")[1]) if "." in digits else 1
    return max(RATIO_BAR, last / float(digits))


def holds(figure, value, digits, truth):
    """A figure holds its datum within its bar; a bound holds it on its side, and not by more
    than BOUND_SLACK ("under 45 s" of 40.3 s: yes; of 47 s or 20 s: no)."""
    slack = 1 + bar(figure, digits)
    if figure.bound == "upper":
        return value / BOUND_SLACK <= truth <= value * slack
    if figure.bound == "lower":
        return value / slack <= truth <= value * BOUND_SLACK
    return abs(value - truth) <= (slack - 1) * truth


SETTING_UNITS = {"ns": 1e-9, "ms": 1e-3, "s": 1, "1": 1}


def setting(datum, kind):
    """The value of a `setting: FILE NAME UNIT` datum in the figure's units (seconds; ns for an
    ns a solution; a ratio as it is), or None where FILE has no constant NAME."""
    path, name, unit = datum.split(":", 1)[1].split()
    found = re.search(r"\b" + re.escape(name) + r"\s*(?:=|\{)\s*([^;}]+)", open(os.path.join(ROOT, path)).read())
    if not found:
        return None
    expression = re.sub(r"[A-Za-z_][\w:<>]*|[()]", " ", found.group(1))
    if not re.fullmatch(r"[\d.*+ ]+", expression):
        return None
    value = eval(expression)  # digits, points, * and + only
    return value * SETTING_UNITS[unit] / (1e-9 if kind == "ns" else 1)


def heading(text, line):
    heads = [row for row in text.splitlines()[:line] if row.startswith("#")]
    return heads[-1].lstrip("# ").strip() if heads else ""


def stated(path, text):
    """(key, line, sentence, figure, value, digits) of every figure of the document, each end of a
    range on its own: the key is its heading, the words before it and it, figures masked."""
    seen = {}
    for line, sentence, found in figures.stated_figures(text):
        for figure in found:
            words = data.masked(sentence[max(0, figure.start - 50):figure.start]).split(" ", 1)[-1]
            for end, (value, digits) in enumerate(zip(figure.values, figure.digits)):
                key = f"{heading(text, line)}: {words}{data.masked(figure.text)}"
                key += " (low end)" if end == 0 and len(figure.values) > 1 else ""
                seen[(path, key)] = seen.get((path, key), 0) + 1
                if seen[(path, key)] > 1:
                    key += f" ({seen[(path, key)]})"
                yield key, line, sentence, figure, value, digits


def read_ledger():
    if not os.path.exists(LEDGER):
        return {}
    with open(LEDGER) as rows:
        return {(r["doc"], r["figure"]): r["datum"] for r in csv.DictReader(rows)}


def write_ledger(ledger):
    with open(LEDGER, "w", newline="") as out:
        rows = csv.writer(out, lineterminator="\n")
        rows.writerow(["doc", "figure", "datum"])
        for (doc, key), datum in ledger.items():
            rows.writerow([doc, key, datum])


def source(name, sentence):
    """How near a datum's source is to the figure: the measurements of docs/data first (a record
    first where the sentence links it), then its own sentence and its page's tables, then the
    records' other sentences, which keep the figures of earlier commits."""
    record = re.match(r"(?:1 / \()?(long-runs\.md|comparisons\.md) ", name)
    if record:
        return 0 if record.group(1) in sentence else 2
    return 0 if re.match(r"(?:1 / \()?docs/data/", name) else 1


def names_column(name, sentence):
    """The sentence names the data's column the datum is of ("its nodes": `nodes`; "wall time":
    `wall_s`), so that a ratio of nodes is not tied to a time's ratio that happens to be as near."""
    columns = re.findall(r"\]\.([a-z]+)", name)
    return bool(columns) and len(columns[-1]) > 3 and re.search(r"\b" + columns[-1] + r"\b", sentence.lower())


def nearest(figure, value, digits, known, sentence):
    """The datum a figure is tied to, of those it holds: for a bound, one on its side before one
    within its rounding past it ("under 45 s": 40.3 s before 45.1 s); for a time, one of the
    nearest source; then the nearest value. (A ratio takes the table of a record section its
    sentence links to first, then a column the sentence names, then the nearest: the data's ratio
    columns are of many comparisons, and a source first ties "1.31 times" to a model's band
    ratio.)"""
    held = {name: truth for name, truth in known.items() if holds(figure, value, digits, truth)}

    def past(truth):
        return (figure.bound == "upper" and truth > value) or (figure.bound == "lower" and truth < value)
    def rank(name):
        if figure.kind == "ratio":  # the table of a record section the sentence links to first
            return 0 if re.match(r"(?:1 / \()?[\w-]+\.md#", name) else 1 if names_column(name, sentence) else 2
        return source(name, sentence)
    return min(held, key=lambda name: (past(held[name]), rank(name), abs(math.log(held[name] / value)), name),
               default=None)


def judge(path, text, totals, ledger, lines=None):
    """(problems, ties): each figure against the datum the ledger names for it (those of `lines`
    only, where given), and the ledger's lines for this document as `tie` would write them."""
    problems, ties = [], {}
    for key, line, sentence, figure, value, digits in stated(path, text):
        if lines is not None and line not in lines:
            continue
        where = f"{path}:{line}: '{figure.text}' for N = {', '.join(map(str, sorted(figure.sizes)))}"
        datum = ledger.get((path, key))
        known = truths.truths(section(text, line), text, sentence, figure, named_sizes(sentence), totals)
        if datum and datum.startswith("setting:"):
            known = {datum: setting(datum, figure.kind)} if setting(datum, figure.kind) is not None else {}
        if datum is None:
            chosen = nearest(figure, value, digits, known, sentence)
            if chosen:
                ties[(path, key)] = chosen
                problems.append(f"{where}: not in {os.path.relpath(LEDGER, ROOT)}: the nearest datum within its "
                                f"bar is {chosen} = {known[chosen]:.4g} (scripts/dev/doc-figures.py tie names it)")
            else:
                near = min(known, key=lambda name: abs(math.log(known[name] / value)), default=None)
                hint = f"the nearest is {near} = {known[near]:.4g}" if near else "the data has none for that N"
                problems.append(f"{where}: no datum holds {value:.4g} within {bar(figure, digits):.0%} ({hint}); "
                                f"sentence: {sentence[:160]}")
            continue
        ties[(path, key)] = datum
        if datum not in known:
            problems.append(f"{where}: its datum {datum} is no longer in the data (key: {key})")
        elif not holds(figure, value, digits, known[datum]):
            side = {"upper": "a bound above ", "lower": "a bound below "}.get(figure.bound, "")
            problems.append(f"{where}: states {side}{value:.4g}; its datum {datum} is {known[datum]:.4g} "
                            f"(bar {bar(figure, digits):.0%}); sentence: {sentence[:160]}")
    return problems, ties


def problems_of(docs, totals, write=False):
    """The problems of every document's figures against the ledger, and the ledger's lines no
    figure has any more; with write, the ledger as `tie` leaves it."""
    ledger, problems, ties = read_ledger(), [], {}
    for path in docs:
        found, kept = judge(path, open(os.path.join(ROOT, path)).read(), totals, ledger)
        problems += found
        ties.update(kept)
    stale = [key for key in ledger if key not in ties]
    problems += [f"{doc}: {os.path.relpath(LEDGER, ROOT)} names a figure no longer there: {key}" for doc, key in stale]
    if write:
        write_ledger(ties)
        problems = [p for p in problems if not re.search(r": not in .*doc-figures.py tie names it\)$|no longer there",
                                                         p)]
    return problems
