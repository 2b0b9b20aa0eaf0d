#!/usr/bin/env python3
"""The API reference has a page for every public name and opens with the example.

Runs Doxygen (its Doxyfile makes HTML and XML; a warning is a failure), then reads the XML:
every function the public headers export (NQUEENS_EXPORT) and every type they declare at
namespace scope must be documented where a reader finds it (the namespace's page, or a page of
its own), and the main page must open with the example of nqueens.hpp (its first \\code block,
read from the header). Doxygen alone is not enough: an undocumented namespace hides its
functions in source listings without a warning. Headers in folders under the include directory
(an optional set) count as public too.

usage: api_reference_test.py DOXYGEN DOXYFILE XML_DIR INCLUDE_DIR
"""
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

EXPORTED_FUNCTION = re.compile(r"^NQUEENS_EXPORT\s+[^;{(]*?\b(\w+)\s*\(", re.M)
NAMESPACE_TYPE = re.compile(r"^(?:struct|class|enum class|enum|using)\s+(?:NQUEENS_EXPORT\s+)?(\w+)\b(?!;)", re.M)
FRONT_DOOR = "nqueens.hpp"
MAIN_PAGE_TITLE = "nqueens: exact N-Queens solution counts"
CODE_BLOCK = re.compile(r"\\code\n(.*?)\\endcode", re.S)


def public_names(include_dir):
    functions, types = set(), set()
    for header in sorted(pathlib.Path(include_dir).rglob("*.hpp")):
        text = header.read_text()
        functions.update(EXPORTED_FUNCTION.findall(text))
        types.update(NAMESPACE_TYPE.findall(text))
    return functions, types


def text_of(element):
    return "".join(element.itertext()).strip() if element is not None else ""


def described(compound_xml):
    """A type's page says something of it: Doxygen makes a page for an empty struct without a
    comment, and without a warning."""
    if not compound_xml.exists():
        return False
    definition = ET.parse(compound_xml).getroot().find("compounddef")
    return bool(text_of(definition.find("briefdescription")) or text_of(definition.find("detaileddescription")))


def documented_names(xml_dir, html_dir):
    """The names a reader finds on a page: members of the namespace's page (which Doxygen makes
    only for a documented namespace) with a description, and types with a page of their own."""
    names = set()
    index = ET.parse(pathlib.Path(xml_dir) / "index.xml").getroot()
    for compound in index.findall("compound"):
        name, kind, refid = compound.findtext("name"), compound.get("kind"), compound.get("refid")
        if not name.startswith("nqueens::") or kind not in ("struct", "class"):
            continue
        if (pathlib.Path(html_dir) / (refid + ".html")).exists() and described(pathlib.Path(xml_dir) / (refid + ".xml")):
            names.add(name.split("::")[-1])
    namespace = pathlib.Path(xml_dir) / "namespacenqueens.xml"
    if not namespace.exists() or not (pathlib.Path(html_dir) / "namespacenqueens.html").exists():
        return names
    for member in ET.parse(namespace).getroot().iter("memberdef"):
        if text_of(member.find("briefdescription")) or text_of(member.find("detaileddescription")):
            names.add(member.findtext("name"))
    return names


def without_space(text):
    return re.sub(r"\s+", "", text)


def front_door_example(include_dir):
    """The first code block of nqueens.hpp's comment, without its comment marks."""
    comment = "\n".join(line.strip()[3:] for line in (pathlib.Path(include_dir) / FRONT_DOOR).read_text().splitlines()
                        if line.strip().startswith("//!"))
    block = CODE_BLOCK.search(comment)
    return block.group(1) if block else ""


def main_page_opens_with_example(xml_dir, example):
    """The example comes first: nothing but the page's title before it."""
    page = pathlib.Path(xml_dir) / "indexpage.xml"
    if not example or not page.exists():
        return False
    text = without_space("".join(ET.parse(page).getroot().itertext()))
    at = text.find(without_space(example))
    return 0 <= at <= len("index" + without_space(MAIN_PAGE_TITLE))  # the page's name, its title


def main():
    doxygen, doxyfile, xml_dir, include_dir = sys.argv[1:5]
    made = subprocess.run([doxygen, doxyfile], capture_output=True, text=True)
    if made.returncode != 0:
        print(made.stdout + made.stderr)
        print("api_reference: doxygen failed (a warning is an error)")
        return 1
    functions, types = public_names(include_dir)
    documented = documented_names(xml_dir, pathlib.Path(xml_dir).parent / "html")
    missing = sorted((functions | types) - documented)
    failed = False
    if missing:
        print("api_reference: no page for " + ", ".join(missing))
        failed = True
    example = front_door_example(include_dir)
    if not main_page_opens_with_example(xml_dir, example):
        print("api_reference: the main page does not open with the example of " + FRONT_DOOR + ":\n" + example)
        failed = True
    if not failed:
        print(f"api_reference: {len(functions)} exported functions and {len(types)} types documented")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
