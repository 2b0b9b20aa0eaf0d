#!/usr/bin/env python3
"""Every member function that the public headers declare without a body (so the library defines
it) is in the shared library's dynamic symbol table and is called by exported_members.cpp.

  check_exported_members.py <include dir> <libnqueens.so> <exported_members.cpp>

A struct without NQUEENS_EXPORT keeps such members hidden in the .so: a user's call then fails
to link. Defaulted and deleted members, and those with a body in the header, are inline and need
no symbol."""
import pathlib
import re
import subprocess
import sys

CLASS = re.compile(r"^(?:struct|class)\s+(?:NQUEENS_EXPORT\s+)?(\w+)\b[^;]*\{")
MEMBER_NAME = re.compile(r"(~?\w+|operator\s*\S+?)\s*\(")


def declared_members(include_dir):
    """(class, member) of each member function declared in a header without a body."""
    found = set()
    for header in sorted(pathlib.Path(include_dir).rglob("*.hpp")):
        owner, statement = None, ""
        for line in header.read_text().splitlines():
            code = line.split("//")[0].rstrip()
            if owner is None:
                match = CLASS.match(code)
                owner = match.group(1) if match else None
                continue
            if code.startswith("};"):
                owner, statement = None, ""
                continue
            if not code.strip() or code.strip().endswith(":"):
                continue
            statement += " " + code.strip()
            if statement.endswith("}"):  # a member with its body: inline
                statement = ""
                continue
            if not statement.endswith(";"):
                continue
            body = "{" in statement or re.search(r"=\s*(default|delete)\s*;", statement)
            name = MEMBER_NAME.search(statement)
            if name and not body and not statement.lstrip().startswith(("using", "friend")):
                found.add((owner, re.sub(r"\s+", "", name.group(1))))
            statement = ""
    return found


def exported_symbols(library):
    output = subprocess.run(["nm", "-DC", "--defined-only", library], check=True, capture_output=True, text=True)
    return output.stdout


def main():
    include_dir, library, program = sys.argv[1:4]
    members = declared_members(include_dir)
    if not members:
        sys.exit(f"no member functions found under {include_dir}: is it the public headers?")
    symbols = exported_symbols(library)
    source = pathlib.Path(program).read_text()
    problems = []
    for owner, name in sorted(members):
        member = name if name.startswith("operator") else name.lstrip("~")
        # A member returning a std::string carries libstdc++'s ABI tag: name[abi:cxx11](...).
        if not re.search(rf"nqueens::{owner}::{re.escape(name)}(\[abi:\w+\])?\(", symbols):
            problems.append(f"nqueens::{owner}::{name} is not exported by {library} (NQUEENS_EXPORT on {owner}?)")
        if not (name.startswith("~") or name == owner) and f"{member}" not in source:
            problems.append(f"nqueens::{owner}::{name} is not called by {program}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(members)} member functions of the public headers checked: {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
