# Included by ctest after the tests found by gtest_discover_tests (tests/CMakeLists.txt): adds the
# label `threads` to every test that runs the engine, a journal or `nqueens solve` on several
# threads. Those are the tests the tsan preset runs under ThreadSanitizer.
foreach(test IN LISTS nqueens_tests_TESTS)
  if(test MATCHES "^(Schedule|SymmetryModes|Oeis|JoinEngine)\\." OR test MATCHES "^Split\\.PlanDoesNotDependOnThreads$")
    set_tests_properties("${test}" PROPERTIES LABELS threads)
  endif()
endforeach()
foreach(test IN LISTS nqueens_solve_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "cli;threads")
endforeach()
foreach(test IN LISTS nqueens_resume_tests_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "resume;threads")
endforeach()
