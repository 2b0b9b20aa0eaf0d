#!/usr/bin/env python3
"""Checks the links between the project's Markdown pages: every relative link names a file that
exists, and every #anchor a heading of that page, spelt as GitHub makes anchors from headings.

    scripts/dev/check-doc-links.py [ROOT]

Prints each broken link as FILE:LINE: LINK (why) and exits 1 when there is one, 0 otherwise.
Links to the web (http:, https:, mailto:) are not followed."""
import pathlib
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_lines(path):
    """The lines of a page outside fenced code blocks, with their numbers."""
    inside = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line


def anchor_of(heading):
    """GitHub's anchor for a heading: lower case, inline code marks and punctuation dropped
    (hyphens and underscores kept), each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        for _, line in markdown_lines(path):
            match = HEADING.match(line)
            if not match:
                continue
            anchor = anchor_of(match.group(2))
            # A repeated heading gets -1, -2, ... as GitHub numbers them.
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else f"{anchor}-{count}")
        cache[path] = found
    return cache[path]


def problems(root, page):
    for number, line in markdown_lines(page):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (page.parent / file_part).resolve() if file_part else page
            if not linked.exists():
                yield number, target, "no such file"
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                yield number, target, f"no heading '{anchor}' in {linked.relative_to(root)}"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    broken = 0
    for page in pages:
        for number, target, why in problems(root, page):
            print(f"{page.relative_to(root)}:{number}: {target} ({why})")
            broken += 1
    print(f"{len(pages)} pages, {broken} broken links" if broken else f"{len(pages)} pages, every link resolves")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
