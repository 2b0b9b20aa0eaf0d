"""What a figure of prose may state, each under a name that says where it comes from: the data's
figures for the figure's sizes (data.py), and for a ratio also the ratios the document's tables of
its section, the records its sentence links to and the sentence's own figures give."""
import functools
import os
import re

from . import data
from .common import NUMBER_WORDS, RECORDS, named_sizes, sentences

SIZE_UNITS = {"B": 1, "KiB": 2 ** 10, "kB": 1e3, "MB": 1e6, "MiB": 2 ** 20, "GB": 1e9, "GiB": 2 ** 30, "TB": 1e12,
              "ns": 1e-9, "ms": 1e-3, "s": 1, "min": 60, "h": 3600, "%": 1}
STATED = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?) ?(" + "|".join(sorted(SIZE_UNITS, key=len, reverse=True)) +
                    r")(?![\w])")
TIME_UNITS = ("ns", "ms", "s", "min", "h")
TABLE_NUMBER = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)(?: ?(M|G|k)\b)?(x\b)?")
MULTIPLIERS = {"k": 1e3, "M": 1e6, "G": 1e9, None: 1}
RATIO = re.compile(r"(?<![\w.,])(?:(?:(?P<low>\d+(?:\.\d+)?) to )?(?P<digits>\d[\d,]*(?:\.\d+)?)"
                   r"(?:x\b| times\b)|(?P<word>" + "|".join(NUMBER_WORDS) + r") times\b)")
COMPARED = {"threads": r"\bthreads?\b", "engine": r"\b(?:dfs|DFS|join|engines?)\b"}


def compared(sentence, named):
    """The things a sentence's ratios may compare: N where it names two sizes or a step, threads
    where it speaks of threads, engines where it names one (other differences: always)."""
    fields = {field for field, word in COMPARED.items() if re.search(word, sentence)}
    return fields | ({"n"} if len(named) > 1 or re.search(r"\bstep\b", sentence) else set())


def sentence_ratios(sentence):
    """The ratios of two figures the sentence states in units of one kind (sizes, times), and of
    the two ends of an arrow ("0.552 → 0.00357"), named by their places in the sentence."""
    stated = [(float(v.replace(",", "")) * SIZE_UNITS[u], u == "%", u in TIME_UNITS)
              for v, u in STATED.findall(sentence)]
    ratios = {f"this sentence's figure {i + 1} / figure {j + 1}": a / b
              for i, (a, pa, ta) in enumerate(stated) for j, (b, pb, tb) in enumerate(stated)
              if i != j and a > 0 and b > 0 and (pa, ta) == (pb, tb)}
    for at, (a, b) in enumerate(re.findall(r"([\d.]+) → ([\d.]+)", sentence), 1):
        if float(b) > 0:
            ratios[f"this sentence's arrow {at}"] = float(a) / float(b)
    return ratios


def sentence_costs(sentence):
    """The cost of one thing the sentence's own figures give: a time over a number of units."""
    times = [float(v) * SIZE_UNITS[u] for v, u in STATED.findall(sentence) if u in TIME_UNITS]
    counts = [float(c.replace(",", "")) for c in re.findall(r"\b(\d[\d,]*) units\b", sentence)]
    return {f"this sentence's time {i + 1} / its units {j + 1}": t / c
            for i, t in enumerate(times) for j, c in enumerate(counts) if t > 0 and c > 0}


RATIO_HEAD = re.compile(r"/|ratio|speedup|ceiling|greedy|in order")


def tables(text):
    """(head, [(n or None, [cells' numbers])]) of each table of text; a row's N is its first cell
    where that is a whole number."""
    found, head, rows = [], [], []
    for line in text.splitlines() + [""]:
        if not line.startswith("|"):
            if head:
                found.append((head, rows))
            head, rows = [], []
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not head:
            head = cells
        elif not set(line) <= set("|-: "):
            numbers = [[float(v.replace(",", "")) * MULTIPLIERS[m or None] for v, m, _ in TABLE_NUMBER.findall(cell)]
                       for cell in cells]
            rows.append((int(cells[0]) if cells[0].isdigit() else None, cells, numbers))
    return found


def slug(heading):
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def linked_sections(section_text, document):
    """The sections of the document that the sentence's section links to (`](#anchor)`)."""
    anchors = set(re.findall(r"\]\(#([\w-]+)\)", section_text))
    parts = re.split(r"^(#+ .*)$", document, flags=re.M)
    return "\n".join(head + body for head, body in zip(parts[1::2], parts[2::2])
                     if slug(head.lstrip("#")) in anchors)


def table_ratios(section_text, document, sizes, others, said, across=True):
    """The ratios the tables give for sizes, in the tables of the sentence's section and of the
    sections it links to: a cell's "Nx", a column of ratios (its head has "/", "ratio", "speedup",
    "ceiling"...), a cell over another of its column (rows of the named sizes, or rows without an
    N); in its own section also a figure the sentence states just before the ratio against a cell
    of its N's row (measured figures only: a decimal point or an exponent, not a count). Without
    `across`, no cell over another (a record's tables: many runs, whose quotients mean nothing)."""
    ratios = {}
    for text, own in ((linked_sections(section_text, document), False), (section_text, True)):
        for head, rows in tables(text):
            name = f"table '{'|'.join(head)[:60]}'"
            for at, (n, cells, numbers) in enumerate(rows, 1):
                if n is not None and n not in sizes | others:
                    continue
                for column, (cell, values) in enumerate(zip(cells, numbers)):
                    where = f"{name} row {at} column {column}"
                    if n in sizes or (own and n is None):
                        ratios.update({f"{where} ratio {i}": float(v.replace(",", ""))
                                       for i, (v, _, x) in enumerate(TABLE_NUMBER.findall(cell)) if x})
                        if column and column < len(head) and RATIO_HEAD.search(head[column]):
                            ratios.update({f"{where} value {i}": v for i, v in enumerate(values)})
                    if own and n in sizes and column:
                        ratios.update({f"{where} value {i} / the figure {j} before": a / b
                                       for i, a in enumerate(values) for j, b in enumerate(said) if a > 0 and b > 0})
                if across:
                    ratios.update(cell_ratios(name, rows, at, sizes))
    return ratios


def cell_ratios(name, rows, at, sizes):
    """A cell of row `at` over the cell of the same column of every other row (rows of the named
    sizes or of no N), as a ratio of two named sizes or of two settings of one table."""
    n, _, mine = rows[at - 1]
    if n is not None and n not in sizes:
        return {}
    ratios = {}
    for other_at, (other, _, theirs) in enumerate(rows, 1):
        if other_at == at:
            continue
        for column, (a_values, b_values) in enumerate(zip(mine, theirs)):
            ratios.update({f"{name} column {column}: row {at} / row {other_at} ({i})": a / b
                           for i, (a, b) in enumerate(zip(a_values, b_values)) if a > 0 and b > 0})
    return ratios


def stated_costs(sentence):
    """The costs of one thing the sentence states ("0.16 s a unit"), in seconds."""
    return [v * SIZE_UNITS[u] for v, u in ((float(v), u) for v, u in
                                             re.findall(r"(\d+(?:\.\d+)?) (ns|ms|s) (?:a|per) unit\b", sentence))]


def table_times(section_text):
    """The times of the cells of the section's tables: a cell "X s" (ms, min, h), or a figure in
    a column whose head says "(s)"."""
    times = {}
    for head, rows in tables(section_text):
        name = f"table '{'|'.join(head)[:60]}'"
        for at, (_, cells, numbers) in enumerate(rows, 1):
            for column, (cell, values) in enumerate(zip(cells, numbers)):
                where = f"{name} row {at} column {column}"
                if column < len(head) and "(s)" in head[column]:
                    times.update({f"{where} value {i}": v for i, v in enumerate(values)})
                for i, (v, unit) in enumerate(re.findall(r"(\d[\d,]*(?:\.\d+)?) (ms|s|min|h)\b", cell)):
                    times[f"{where} time {i}"] = float(v.replace(",", "")) * SIZE_UNITS[unit]
    return times


@functools.lru_cache(maxsize=None)
def record_ratios():
    """{record: {n: {name: ratio}}} the records (long-runs.md, comparisons.md) state in a sentence that names N."""
    ratios = {}
    for record in RECORDS:
        ratios[record] = {}
        for _, sentence in sentences(open(record).read()):
            where = f"{os.path.basename(record)} sentence '{data.masked(sentence[:50])}'"
            for n in named_sizes(sentence):
                for at, found in enumerate(RATIO.finditer(sentence), 1):
                    value = float(found.group("digits").replace(",", "")) if found.group("digits") else \
                        float(NUMBER_WORDS[found.group("word")])
                    ratios[record].setdefault(n, {})[f"{where} ratio {at}"] = value
                    if found.group("low"):  # "1.12 to 1.15 times": the low end is a datum of its own
                        ratios[record][n][f"{where} ratio {at} low end"] = float(found.group("low"))
    return ratios


def linked_record_ratios(sentence, sizes, named):
    """The ratios of the tables of the record sections the sentence links to
    (`](data/long-runs.md#under-a-small-budget)`): the record's table is the run the sentence
    speaks of, named with the section first (ties.py prefers it)."""
    ratios = {}
    for record in RECORDS:
        name = os.path.basename(record)
        for anchor in re.findall(r"\]\((?:[\w./]*/)?" + re.escape(name) + r"#([\w-]+)\)", sentence):
            found = {f"{name}#{anchor} {where}": value for where, value in
                     table_ratios(record_section(record, anchor), "", sizes, named, [], across=False).items()}
            ratios.update(found)
    return ratios


@functools.lru_cache(maxsize=None)
def record_section(record, anchor):
    """The text of the record's section whose heading has the slug `anchor`, to the next heading
    (a shell comment in a code block is none)."""
    kept, inside, fenced = [], False, False
    for line in open(record).read().splitlines():
        fenced ^= line.startswith("```")
        if line.startswith("#") and not fenced:
            inside = slug(line.lstrip("#")) == anchor
        if inside:
            kept.append(line)
    return "\n".join(kept)


def ratio_truths(section_text, document, sentence, figure, named, totals):
    """Every ratio a figure of prose may be, and its inverse."""
    before = sentence[max(0, figure.start - 60):figure.start]
    said = [float(v) for v in re.findall(r"(?<![\w.,])(\d+(?:\.\d+(?:e[+-]?\d+)?|e[+-]?\d+))", before)]
    sizes = set(figure.sizes)
    words = set(re.findall(r"[\w.-]+", sentence.replace("`", " ")))
    truths = data.data_ratios(sizes, named, compared(sentence, named), totals, words)
    truths.update(sentence_ratios(sentence))
    truths.update(table_ratios(section_text, document, sizes, named, said))
    for record in RECORDS:  # a record holds many runs' ratios: only for a sentence that points to it
        if os.path.basename(record) in sentence:
            for n in sizes:
                truths.update(record_ratios()[record].get(n, {}))
    truths.update(linked_record_ratios(sentence, sizes, named))
    truths.update({f"1 / ({name})": 1 / value for name, value in list(truths.items()) if value > 0})
    return truths


def truths(section_text, document, sentence, figure, named, totals):
    """{name: value} of what the figure may state, in its own units (seconds, ns a solution, seconds
    of one thing, or a ratio): the data's for its sizes; a time also a cell of its section's
    tables, or a cost of one thing the sentence gives times the units of its N (a projection)."""
    if figure.kind == "ratio":
        return ratio_truths(section_text, document, sentence, figure, named, totals)
    known = data.figures_of_n(tuple(sorted(totals.items())))
    found = {name: value for n in sorted(figure.sizes) for name, value in known[figure.kind].get(n, {}).items()}
    if figure.kind == "item":
        found.update(sentence_costs(sentence))
    if figure.kind == "seconds":
        found.update(table_times(section_text))
        units = data.units_of_n()
        found.update({f"this sentence's cost of one {at} x the units of N = {n}": cost * units[n]
                      for at, cost in enumerate(stated_costs(sentence), 1) for n in sorted(figure.sizes) if n in units})
        counts = [float(c.replace(",", "")) for c in re.findall(r"\b(\d[\d,]*) units\b", sentence)]
        found.update({f"this sentence's cost of one {at} x its units {j}": cost * count
                      for at, cost in enumerate(stated_costs(sentence), 1) for j, count in enumerate(counts, 1)})
    return found
