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
