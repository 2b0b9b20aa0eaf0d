# Read by cpack before each generator runs (CPACK_PROJECT_CONFIG_FILE, cmake/packaging.cmake).
# Packages go to other machines: one tuned for the CPU it was built on could stop there with an
# illegal instruction, so such a build is refused rather than packed.
if(CPACK_NQUEENS_NATIVE)
  message(FATAL_ERROR "nqueens: this build is tuned for its own CPU (NQUEENS_NATIVE=ON); packages are made from a "
                      "portable one: cmake --preset package (or -DNQUEENS_NATIVE=OFF)")
endif()
