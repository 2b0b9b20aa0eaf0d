# Spack recipe of nqueens (docs/building.md, "Spack"). It builds the sources of the git checkout
# it lives in, so `spack repo add packaging/spack/spack_repo/nqueens` and `spack install nqueens`
# in a clone need no download of nqueens itself; Spack builds the dependencies.
# tests/package/spack_recipe.py checks it against CMakeLists.txt.

import pathlib

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *

# packaging/spack/spack_repo/nqueens/packages/nqueens/package.py -> the checkout's root
_CHECKOUT = pathlib.Path(__file__).resolve().parents[5]


class Nqueens(CMakePackage):
    """Counts the solutions of the N-Queens problem exactly: a C++20 library and the nqueens
    program, on every core of a machine (oneTBB) or over the ranks of an MPI job, with
    resumable checkpoints, shards and merge."""

    git = f"file://{_CHECKOUT}"

    license("MIT")

    # The version project() names in CMakeLists.txt, built from the checkout's main branch.
    version("0.1.0", branch="main")

    variant("mpi", default=False, description="Build nqueens-mpi, which counts over the ranks of an MPI job")
    variant("cuda", default=False, description="Build the gpu engine's CUDA kernels")
    variant("tests", default=False, description="Build the GoogleTest suite (run by `spack install --test=root`)")
    variant(
        "native",
        default=False,
        description="Tune for the build machine's CPU (-march=native); the default is portable",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.22:", type="build")
    depends_on("help2man", type="build")  # the nqueens(1) man page

    # oneTBB 2021 or later: task_arena and global_control, no task_scheduler_init.
    depends_on("intel-oneapi-tbb@2021:")
    depends_on("nlohmann-json@3:")
    depends_on("cli11@2.1:")
    depends_on("spdlog")
    depends_on("mpi", when="+mpi")
    depends_on("cuda", when="+cuda")
    depends_on("googletest", type="build", when="+tests")
    depends_on("python", type="build", when="+tests")

    conflicts("%gcc@:10", msg="nqueens needs C++20 (GCC 11 or later)")

    def cmake_args(self):
        spec = self.spec
        return [
            self.define("NQUEENS_BUILD_CLI", True),
            self.define_from_variant("NQUEENS_BUILD_TESTS", "tests"),
            self.define("NQUEENS_BUILD_EXAMPLES", False),
            self.define("NQUEENS_WERROR", False),
            self.define_from_variant("NQUEENS_NATIVE", "native"),
            self.define_from_variant("NQUEENS_MPI", "mpi"),
            # The gpu engine's kernels are compiled with the nvcc of Spack's cuda (CUDA_HOME).
            self.define("NQUEENS_CUDA", "ON" if spec.satisfies("+cuda") else "OFF"),
        ]
