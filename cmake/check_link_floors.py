#!/usr/bin/env python3
"""The floors checked on what links: every symbol a folder's objects use and do not define is
defined by the folder itself or by a folder on a lower floor (cmake/floors.cmake), or by nothing
of the project (the C++ library, TBB, ...). The include check (cmake/check_floors.cmake) reads
the text of the includes; this one reads the objects with nm, so a public header counts as the
folder whose objects define what it declares, and a declaration written by hand, with no include,
is caught too.

  check_link_floors.py FLOORS_CMAKE OBJECTS_LIST [--plant FOLDER=OBJECT ...] [--expect-failure SYMBOL]

OBJECTS_LIST holds one `folder<TAB>object file` a line (the build writes it: link_floor_objects.txt).
--plant adds an object to a folder's, as if it were one of its sources; with --expect-failure the
check must fail and name SYMBOL (the demangled name, or part of it), which proves that it can.
"""
import argparse
import collections
import pathlib
import re
import subprocess
import sys


def read_floors(path):
    """{folder: floor} from NQUEENS_FLOORS in cmake/floors.cmake; every folder of src/ that no row
    names (an engine) stands on the floor of the row that holds `*`."""
    text = open(path, encoding="utf-8").read()
    block = re.search(r'set\(NQUEENS_FLOORS\n(.*?)"\)', text, re.S)
    if not block:
        sys.exit(f"{path}: no set(NQUEENS_FLOORS ...)")
    floors = {}
    engines = None
    for index, entry in enumerate(re.findall(r'^\s*"([a-z_,*]+)', block.group(1) + '"', re.M)):
        for folder in entry.split(","):
            if folder == "*":
                engines = index
            else:
                floors[folder] = index
    sources = pathlib.Path(path).resolve().parent.parent / "src"
    for folder in sources.iterdir():
        if folder.is_dir() and folder.name not in floors and engines is not None:
            floors[folder.name] = engines
    return floors


def symbols(objects):
    """(defined, undefined): the sets of mangled names the objects define and use without defining."""
    defined, undefined = set(), set()
    output = subprocess.run(["nm", "--format=posix", *objects], check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        fields = line.split()
        # "name type [value size]"; an archive's or object's own name ends with ':'.
        if len(fields) < 2 or fields[0].endswith(":") or fields[-1].endswith(":"):
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            undefined.add(name)
        elif kind not in ("w", "v", "N", "n", "a"):  # a weak reference defines nothing
            defined.add(name)
    return defined, undefined - defined


def demangle(names):
    names = list(names)
    if not names:
        return []
    output = subprocess.run(["c++filt"], input="\n".join(names), check=True, capture_output=True, text=True).stdout
    return output.splitlines()


def problems(floors, objects_by_folder):
    """One line per symbol a folder uses that only a folder on its floor or above defines."""
    defined_by = collections.defaultdict(set)
    used = {}
    for folder, objects in objects_by_folder.items():
        defined, undefined = symbols(objects)
        for name in defined:
            defined_by[name].add(folder)
        used[folder] = undefined
    found = []
    for folder, undefined in sorted(used.items()):
        own = floors[folder]
        for name in sorted(undefined):
            where = defined_by.get(name)
            if not where or any(floors[other] < own for other in where):
                continue  # not the project's, or defined below
            found.append((folder, name, sorted(where)))
    readable = demangle(name for _, name, _ in found)
    return [f"src/{folder} uses {text}, defined in {', '.join('src/' + w for w in where)} "
            f"(floor {floors[where[0]]}; {folder} is on floor {floors[folder]})"
            for (folder, _, where), text in zip(found, readable)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("floors")
    parser.add_argument("objects")
    parser.add_argument("--plant", action="append", default=[])
    parser.add_argument("--expect-failure")
    args = parser.parse_args()
    floors = read_floors(args.floors)
    objects = collections.defaultdict(list)
    entries = [line.split("\t") for line in open(args.objects, encoding="utf-8").read().splitlines() if line]
    entries += [plant.split("=", 1) for plant in args.plant]
    for folder, path in entries:
        if folder not in floors:
            sys.exit(f"{args.objects}: folder '{folder}' has no floor in {args.floors}")
        objects[folder].append(path)
    found = problems(floors, objects)
    if args.expect_failure:
        if any(args.expect_failure in line for line in found):
            print(f"link floors: the planted call to {args.expect_failure} was found:")
            print("\n".join("  " + line for line in found))
            return 0
        print(f"link floors: a planted call to {args.expect_failure} was not found", file=sys.stderr)
        return 1
    if found:
        print("symbols used from a folder on the same floor or above:", file=sys.stderr)
        print("\n".join("  " + line for line in found), file=sys.stderr)
        return 1
    count = sum(len(paths) for paths in objects.values())
    print(f"link floors: {count} objects of {len(objects)} folders use only what their floor and those below define")
    return 0


if __name__ == "__main__":
    sys.exit(main())
