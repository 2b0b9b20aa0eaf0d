# Run at every build (cmake -P): writes OUTPUT, a header naming the source tree's git commit
# ("-dirty" when files differ from it), and leaves it untouched when that did not change, so a
# build after no new commit recompiles nothing. Outside a git checkout the commit is "unknown".
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(failed OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" diff --quiet HEAD -- RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty)
    string(APPEND commit "-dirty")
  endif()
endif()
file(WRITE "${OUTPUT}.new" "// Generated at build time by cmake/git_commit.cmake: do not edit.\n#pragma once\n"
                           "#define NQUEENS_GIT_COMMIT \"${commit}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.new" "${OUTPUT}")
file(REMOVE "${OUTPUT}.new")
