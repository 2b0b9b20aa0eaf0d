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
# its executable and its labels there (comma-separated); a name that the executable does not hold stops ctest, so
# the list cannot drift from the tests.
set(nqueens_timing_tests
  "nqueens_tests|threads|CountProgress.ReportsAreSerialisedMonotonicAndThrottled"
  "nqueens_tests|threads|Bench.ShortRunsAreRepeatedInsideEachSample"
  "nqueens_shell_tests|cli|BenchCli.CalibratesRunsTooShortToTimeAndGivesTheirRatios"
  "nqueens_solve_tests|cli,threads|Solve.LimitOnALargeBoardAnswersAtOnce"
  "nqueens_resume_tests|resume,threads|ResumeCli.CraftedUnitCountsDoNotSizeTheMemory"
  "nqueens_resume_tests|resume,threads|ResumeCli.SigintStopsWithin2SecondsAndKeepsTheFinishedUnits"
  "nqueens_resume_tests|resume,threads|ResumeCli.SigtermDoesNotWaitForLongUnits"
  "nqueens_resume_tests|resume,threads|ResumeCli.SigintWithoutCheckpointSaysNothingWasSaved")
foreach(entry IN LISTS nqueens_timing_tests)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 executable)
  list(GET fields 1 labels)  # comma-separated: a ';' would split the entry
  list(GET fields 2 test)
  string(REPLACE "," ";" labels "${labels}")
  if(NOT DEFINED ${executable}_TESTS)
    continue()  # not built in this configuration
  endif()
  list(FIND ${executable}_TESTS "${test}" at)  # not IN_LIST: ctest runs this file under no policy
  if(at EQUAL -1)
    message(FATAL_ERROR "tests/threads_label.cmake: ${executable} has no test ${test} to label `timing`")
  endif()
  set_tests_properties("${test}" PROPERTIES LABELS "${labels};timing")
endforeach()
