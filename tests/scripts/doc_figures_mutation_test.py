#!/usr/bin/env python3
"""How much the docs test docs_figures catches: every figure it checks in README.md and docs/*.md
is changed in turn, beyond its bar (scripts/dev/doc_figures/ties.py), and the check is run on the
changed document. The changes, by kind:

- a ratio a tenth low and a fifth high (off, but near other ratios the data gives for those sizes),
  a time, an ns a solution and a cost of one thing ("11 ns each", "1 s a unit") a quarter high,
  each at least twice its bar (a rounded "about 7x" is changed by 30 %: within its bar is no error);
- a bound ("under 45 s", "up to 1.7 times") made too tight (its datum now beyond it) and too loose
  (more than BOUND_SLACK from its datum);
- and counted apart: the figures of sentences that name no N (their N from the context), and the
  program settings the ledger names.

It prints caught and missed by kind, and fails if a change is missed or if fewer than 30 were made.

    tests/scripts/doc_figures_mutation_test.py --binary build/release/nqueens
"""
import argparse
import collections
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "dev"))
from doc_figures import ties  # noqa: E402
from doc_figures.fixed import oeis_totals  # noqa: E402
from doc_figures.common import NUMBER_WORDS, N_LIST, TIME_DOCS  # noqa: E402

BOUNDS = {"upper": (0.6, 2.5), "lower": (1.7, 0.4)}  # too tight for the datum, then too loose
WORDS = {value: word for word, value in NUMBER_WORDS.items()}
LEAST_MUTATIONS = 30


def factors(figure, digits):
    """The changes of one figure: a tenth low and a fifth high for a ratio, a quarter high for a
    time, each at least twice the figure's bar (a change within its rounding is no error)."""
    if figure.bound:
        return BOUNDS[figure.bound]
    bar = ties.bar(figure, digits)
    if figure.kind == "ratio":
        return 1 - max(0.1, 2 * bar), 1 + max(0.2, 2 * bar)
    return (1 + max(0.25, 2 * bar),)


def written(digits, value):
    """value written as digits was: a number word as the nearest other word, a number with as
    many decimals (and thousands commas) as digits had."""
    if digits in NUMBER_WORDS:
        choices = [v for v in WORDS if v != NUMBER_WORDS[digits]]
        return WORDS[min(choices, key=lambda v: abs(v - value))]
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    text = f"{value:,.{decimals}f}" if "," in digits else f"{value:.{decimals}f}"
    if text == digits:  # rounded back to itself: one more step of its last digit
        step = 10 ** -decimals
        text = f"{float(digits.replace(',', '')) + step:.{decimals}f}"
    return text


def place(text, line, sentence, figure):
    """Where in text the figure is: its sentence's figures of the same text before it counted."""
    before = sentence[:figure.start].count(figure.text)
    pattern = re.compile(r"\s+".join(re.escape(word) for word in figure.text.split()))
    start = sum(len(row) + 1 for row in text.split("\n")[:line - 1])
    found = list(pattern.finditer(text, start))
    return found[before] if len(found) > before else None


def mutated(text, found, figure, digits, factor):
    """text with one end of the figure (the digits) scaled by factor."""
    value = NUMBER_WORDS[digits] if digits in NUMBER_WORDS else float(digits.replace(",", ""))
    inside = found.group(0)
    at = inside.find(digits, inside.find(figure.digits[0]) if digits != figure.digits[0] else 0)
    new = inside[:at] + written(digits, value * factor) + inside[at + len(digits):]
    return text[:found.start()] + new + text[found.end():]


def kinds(figure, digits, sentence, datum):
    found = ["bound" if figure.bound else {"item": "cost of one thing"}.get(figure.kind, figure.kind)]
    if not N_LIST.search(sentence):
        found.append("no N in its sentence")
    if datum.startswith("setting:"):
        found.append("a setting")
    if figure.kind == "ratio" and not figure.bound and ties.bar(figure, digits) <= 0.05:
        found.append("ratio a tenth low or a fifth high")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="nqueens (A000170 for the ns a solution)")
    args = parser.parse_args()
    totals, ledger = oeis_totals(args.binary), ties.read_ledger()
    tally, missed = collections.Counter(), []
    for path in TIME_DOCS:
        text = open(os.path.join(ROOT, path)).read()
        if ties.judge(path, text, totals, ledger)[0]:
            sys.exit(f"{path}: the check fails before any change (run scripts/dev/doc-figures.py check)")
        for key, line, sentence, figure, value, digits in ties.stated(path, text):
            found = place(text, line, sentence, figure)
            if found is None:
                sys.exit(f"{path}:{line}: cannot find '{figure.text}' to change it")
            for factor in factors(figure, digits):
                changed = mutated(text, found, figure, digits, factor)
                caught = bool(ties.judge(path, changed, totals, ledger, lines={line})[0])
                for kind in kinds(figure, digits, sentence, ledger.get((path, key), "")):
                    tally[(kind, caught)] += 1
                if not caught:
                    missed.append(f"{path}:{line}: '{figure.text}' times {factor} passes")
    for kind in sorted({kind for kind, _ in tally}):
        print(f"{kind}: {tally[(kind, True)]} caught, {tally[(kind, False)]} missed")
    made = sum(n for (kind, _), n in tally.items() if kind in ("bound", "ratio", "seconds", "ns", "cost of one thing"))
    print(f"all: {made - len(missed)} of {made} changes caught")
    for line in missed:
        print(line, file=sys.stderr)
    return 1 if missed or made < LEAST_MUTATIONS else 0


if __name__ == "__main__":
    sys.exit(main())
