# Release packages for cluster admins: `cpack` in a build of the `package` preset writes three
# .deb packages, one per install component, and one .tar.gz of everything `install` puts in place:
#   nqueens          (Runtime)      the program, its man page, completions and documentation
#   nqueens-mpi      (MPI)          nqueens-mpi, over Open MPI; needs nqueens
#   libnqueens-dev   (Development)  headers, static library, CMake package, pkg-config file
# so that a desktop installs the program without Open MPI and a developer the library without
# either program. The preset builds a portable binary (no -march=native): the SIMD paths are
# chosen on each node at run time, so one package serves nodes of different CPU generations
# (docs/cluster.md, "Mixed nodes"); cpack refuses a build tuned for its own CPU.
set(CPACK_PACKAGE_NAME nqueens)
set(CPACK_PACKAGE_VENDOR "The nqueens authors")
# The authors as CITATION.cff and LICENSE name them.
set(CPACK_PACKAGE_CONTACT "The nqueens authors <nqueens@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_FILE_NAME "nqueens-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
# Read by cmake/cpack_options.cmake when cpack runs.
set(CPACK_NQUEENS_NATIVE ${NQUEENS_NATIVE})
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/cpack_options.cmake)

# One .deb per component; the archive stays one tree under one top folder.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# A component's CPACK_COMPONENT_<C>_DEPENDS becomes a Depends on that package, same version.
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# The runtime libraries (oneTBB, spdlog, fmt, Open MPI for nqueens-mpi) are read from each
# package's binaries by dpkg-shlibdeps, so the dependencies follow what was actually linked.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

set(CPACK_COMPONENT_RUNTIME_DISPLAY_NAME "nqueens program")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME nqueens)
# Each package's summary line is project()'s DESCRIPTION; these are the long texts below it.
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "The nqueens program counts the solutions of the N-Queens
problem exactly, on every core of a machine (oneTBB), with resumable checkpoints, shards and
merge; totals are checked against OEIS A000170.")
# The bash completion it installs is loaded by bash-completion, which a minimal system lacks.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "bash-completion")

set(CPACK_COMPONENT_MPI_DISPLAY_NAME "nqueens-mpi program")
set(CPACK_DEBIAN_MPI_PACKAGE_NAME nqueens-mpi)
set(CPACK_COMPONENT_MPI_DESCRIPTION "nqueens-mpi counts one N over the ranks of an MPI job
(Open MPI), one rank per node, each over its node's cores; it shares the options, journals and
output of nqueens count.")
set(CPACK_COMPONENT_MPI_DEPENDS Runtime)
# mpirun, which starts its jobs, is Open MPI's program package, not its library's.
set(CPACK_DEBIAN_MPI_PACKAGE_RECOMMENDS "openmpi-bin")

set(CPACK_COMPONENT_DEVELOPMENT_DISPLAY_NAME "nqueens library")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libnqueens-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "The nqueens C++20 library: headers, the static
library, its CMake package (find_package(nqueens)) and pkg-config file (nqueens.pc).")
# What links with the library needs oneTBB's headers, CMake package and tbb.pc: nqueensConfig
# finds TBB and nqueens.pc requires tbb. A static library has no run-time dependencies to read.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libtbb-dev (>= 2021)")
include(CPack)
