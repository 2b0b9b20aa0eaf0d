# Release packages for cluster admins: `cpack` in a build of the `package` preset writes a .deb
# and a .tar.gz of everything `install` puts in place (the programs, the library with its
# headers, CMake package and pkg-config file, the man page and completions). The preset builds
# a portable binary (no -march=native): the SIMD paths are chosen on each node at run time, so
# one package serves nodes of different CPU generations (docs/cluster.md, "Mixed nodes").
set(CPACK_PACKAGE_NAME nqueens)
set(CPACK_PACKAGE_VENDOR "nqueens")
set(CPACK_PACKAGE_CONTACT "nqueens maintainers <nqueens@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_FILE_NAME "nqueens-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
# Everything in one package, under one top folder in the archive.
set(CPACK_DEB_COMPONENT_INSTALL OFF)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The runtime libraries (oneTBB, spdlog, fmt, Open MPI when nqueens-mpi is built) are read from
# the binaries by dpkg-shlibdeps, so the dependencies follow what was actually linked.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The bash completion it installs is loaded by bash-completion, which a minimal system lacks.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
include(CPack)
