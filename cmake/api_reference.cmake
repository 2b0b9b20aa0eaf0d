# The API reference: HTML made by Doxygen from the public headers (include/nqueens/), whose `//!`
# comments are its text. Every public declaration is documented and a warning is an error, so a
# declaration added without its comment fails `cmake --build <dir> --target docs` and the
# `api_reference` test. Without Doxygen there is no `docs` target (scripts/setup.sh installs it).
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  return()
endif()

set(DOXYGEN_PROJECT_NAME "nqueens")
set(DOXYGEN_PROJECT_BRIEF "Exact N-Queens solution counts: the library's public API")
set(DOXYGEN_PROJECT_NUMBER "${PROJECT_VERSION}")
set(DOXYGEN_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/api-reference")
set(DOXYGEN_FILE_PATTERNS "*.hpp")
set(DOXYGEN_RECURSIVE YES)  # headers in folders of include/nqueens are public too
set(DOXYGEN_GENERATE_HTML YES)
set(DOXYGEN_GENERATE_LATEX NO)
set(DOXYGEN_GENERATE_XML YES)  # read by the api_reference test
set(DOXYGEN_HAVE_DOT NO)
set(DOXYGEN_QUIET YES)
set(DOXYGEN_EXTRACT_ALL NO)
set(DOXYGEN_WARN_IF_UNDOCUMENTED YES)
set(DOXYGEN_WARN_NO_PARAMDOC NO)  # the comments say what a function does in prose, not per parameter
set(DOXYGEN_WARN_AS_ERROR FAIL_ON_WARNINGS)  # every warning listed, then a failure
# NQUEENS_EXPORT is the export header's visibility attribute: nothing to document.
set(DOXYGEN_ENABLE_PREPROCESSING YES)
set(DOXYGEN_MACRO_EXPANSION YES)
set(DOXYGEN_EXPAND_ONLY_PREDEF YES)
set(DOXYGEN_PREDEFINED "NQUEENS_EXPORT=")
set(DOXYGEN_STRIP_FROM_PATH "${PROJECT_SOURCE_DIR}/include")
doxygen_add_docs(docs "${PROJECT_SOURCE_DIR}/include/nqueens"
                 COMMENT "Making the API reference in ${PROJECT_BINARY_DIR}/api-reference/html")
