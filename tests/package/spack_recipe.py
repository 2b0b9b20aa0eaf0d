#!/usr/bin/env python3
"""Checks the Spack recipe (packaging/spack/.../package.py) against the build, without Spack:
the recipe is read as Python syntax, never run.

- every NQUEENS_* variable its cmake_args() sets is an option() or a cache variable of the build;
- each variant it declares reaches cmake_args(), and the variants include mpi and cuda;
- its versions include the one project() names in CMakeLists.txt;
- every package the build finds (find_package) is a dependency of the recipe.

    spack_recipe.py SOURCE_DIR
"""

import ast
import pathlib
import re
import sys

RECIPE = pathlib.Path("packaging/spack/spack_repo/nqueens/packages/nqueens/package.py")

# find_package() name in the build -> the Spack packages any of which satisfies it. A name the
# build finds and this table lacks fails the check, so a new dependency is not forgotten here.
SPACK_NAMES = {
    "TBB": {"intel-oneapi-tbb", "tbb"},
    "nlohmann_json": {"nlohmann-json"},
    "CLI11": {"cli11"},
    "spdlog": {"spdlog"},
    "MPI": {"mpi"},
    "GTest": {"googletest"},
    "Python3": {"python"},
    "benchmark": None,  # the micro-benchmarks (NQUEENS_BUILD_BENCHMARKS), not built by the recipe
    "Doxygen": None,  # the API reference (the `docs` target), not built by the recipe
}


def fail(message):
    print(f"spack_recipe: {message}", file=sys.stderr)
    sys.exit(1)


def constant(node):
    return node.value if isinstance(node, ast.Constant) else None


def call_name(call):
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def cmake_settings(source):
    """The project's version and the names of its options and cache variables."""
    top = (source / "CMakeLists.txt").read_text()
    version = re.search(r"project\(\s*nqueens\s+VERSION\s+([0-9.]+)", top)
    if not version:
        fail("no project(nqueens VERSION x.y.z) in CMakeLists.txt")
    names = set()
    for path in [source / "CMakeLists.txt", *sorted((source / "cmake").glob("*.cmake"))]:
        text = path.read_text()
        names.update(re.findall(r"^\s*option\(\s*(NQUEENS_\w+)", text, re.M))
        names.update(re.findall(r"^\s*set\(\s*(NQUEENS_\w+)[^)]*\bCACHE\b", text, re.M | re.S))
    if not names:
        fail("no NQUEENS_* option found in CMakeLists.txt or cmake/*.cmake")
    return version.group(1), names


def found_packages(source):
    """The names the build passes to find_package(), comments left out. Folders that are
    projects of their own (a project() call: the consumers under tests/package, examples/ when
    built against an installed nqueens) are not the build."""
    names = set()
    files = [source / "CMakeLists.txt", *sorted((source / "cmake").glob("*.cmake"))]
    for path in sorted(source.glob("*/**/CMakeLists.txt")):
        if path.relative_to(source).parts[0] in ("build", "packaging"):
            continue
        if not re.search(r"^\s*project\(", path.read_text(), re.M):
            files.append(path)
    for path in files:
        for line in path.read_text().splitlines():
            match = re.match(r"\s*find_package\(\s*(\w+)", line)
            if match:
                names.add(match.group(1))
    return names


def main():
    if len(sys.argv) != 2:
        fail("usage: spack_recipe.py SOURCE_DIR")
    source = pathlib.Path(sys.argv[1])
    recipe_path = source / RECIPE
    tree = ast.parse(recipe_path.read_text(), filename=str(recipe_path))

    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    recipe = next((c for c in classes if any(getattr(b, "id", None) == "CMakePackage" for b in c.bases)), None)
    if recipe is None:
        fail(f"{RECIPE} defines no CMakePackage class")

    versions, variants, dependencies = set(), set(), set()
    for statement in recipe.body:
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            continue
        call = statement.value
        first = constant(call.args[0]) if call.args else None
        name = call_name(call)
        if name == "version":
            versions.add(first)
        elif name == "variant":
            variants.add(first)
        elif name == "depends_on":
            dependencies.add(re.match(r"[\w-]+", first).group(0))

    cmake_args = next((f for f in recipe.body if isinstance(f, ast.FunctionDef) and f.name == "cmake_args"), None)
    if cmake_args is None:
        fail(f"{RECIPE} has no cmake_args()")
    defined, used_variants = [], set()
    for node in ast.walk(cmake_args):
        if isinstance(node, ast.Call) and call_name(node) in ("define", "define_from_variant") and node.args:
            defined.append(constant(node.args[0]))
            if call_name(node) == "define_from_variant" and len(node.args) > 1:
                used_variants.add(constant(node.args[1]))
        # spec.satisfies("+cuda") and the like
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            used_variants.update(re.findall(r"[+~](\w+)", node.value))

    version, options = cmake_settings(source)
    problems = []
    if version not in versions:
        problems.append(f"the recipe's versions {sorted(v for v in versions if v)} lack {version}, "
                        "the version project() names in CMakeLists.txt")
    ours = [name for name in defined if name and name.startswith("NQUEENS_")]
    if not ours:
        problems.append("cmake_args() sets no NQUEENS_* option")
    for name in ours:
        if name not in options:
            problems.append(f"cmake_args() sets {name}, which is no option() or cache variable of the build")
    for name in ("mpi", "cuda"):
        if name not in variants:
            problems.append(f"the recipe has no '{name}' variant")
    for name in sorted(variants - used_variants):
        problems.append(f"the variant '{name}' does not reach cmake_args()")
    for name in sorted(found_packages(source)):
        if name not in SPACK_NAMES:
            problems.append(f"the build finds {name}: add its Spack name to SPACK_NAMES in {pathlib.Path(__file__).name} "
                            "and a depends_on to the recipe")
        elif SPACK_NAMES[name] is not None and not SPACK_NAMES[name] & dependencies:
            problems.append(f"the build finds {name} but the recipe does not depend on {' or '.join(sorted(SPACK_NAMES[name]))}")
    if problems:
        fail("\n  ".join([f"{RECIPE} does not match the build:"] + problems))
    print(f"spack_recipe: version {version}, variants {', '.join(sorted(variants))}, "
          f"options {', '.join(ours)} all match the build")


if __name__ == "__main__":
    main()
