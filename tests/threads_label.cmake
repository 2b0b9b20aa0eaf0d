# Included by ctest after the tests found by gtest_discover_tests (tests/CMakeLists.txt): adds the
# label `threads`, the set the tsan preset runs under ThreadSanitizer, to every test of the
# executables that run the engine. The set is chosen by executable, never by test name: count(),
# the scheduler, the join engine's table building and `nqueens solve` all start TBB threads, so a
# test added to one of these executables is under TSan without anyone listing it.
# (gtest_discover_tests in CMake 3.25 passes one label per executable, hence this file.)
foreach(test IN LISTS nqueens_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS threads)
endforeach()
foreach(test IN LISTS nqueens_solve_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "cli;threads")
endforeach()
foreach(test IN LISTS nqueens_files_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "resume;threads")
endforeach()
foreach(test IN LISTS nqueens_resume_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "resume;threads")
endforeach()

# Tests whose assertions hold a time (a signal answered within seconds, a run short enough to be
# calibrated, progress reports throttled to ten a second): also labelled `timing`, so that a
# loaded machine can leave them out (`ctest -LE timing`, docs/development.md). Each is named with
# its executable and its labels there; a name that the executable does not hold stops ctest, so
# the list cannot drift from the tests.
set(nqueens_timing_tests
  "nqueens_tests|threads|CountProgress.ReportsAreSerialisedMonotonicAndThrottled"
  "nqueens_tests|threads|Bench.ShortRunsAreRepeatedInsideEachSample"
  "nqueens_shell_tests|cli|BenchCli.CalibratesRunsTooShortToTimeAndGivesTheirRatios"
  "nqueens_solve_tests|cli;threads|Solve.LimitOnALargeBoardAnswersAtOnce"
  "nqueens_resume_tests|resume;threads|ResumeCli.CraftedUnitCountsDoNotSizeTheMemory"
  "nqueens_resume_tests|resume;threads|ResumeCli.SigintStopsWithin2SecondsAndKeepsTheFinishedUnits"
  "nqueens_resume_tests|resume;threads|ResumeCli.SigtermDoesNotWaitForLongUnits"
  "nqueens_resume_tests|resume;threads|ResumeCli.SigintWithoutCheckpointSaysNothingWasSaved")
foreach(entry IN LISTS nqueens_timing_tests)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 executable)
  list(GET fields -1 test)
  list(REMOVE_AT fields 0 -1)
  if(NOT DEFINED ${executable}_TESTS)
    continue()  # not built in this configuration
  endif()
  if(NOT test IN_LIST ${executable}_TESTS)
    message(FATAL_ERROR "tests/threads_label.cmake: ${executable} has no test ${test} to label `timing`")
  endif()
  set_tests_properties("${test}" PROPERTIES LABELS "${fields};timing")
endforeach()
