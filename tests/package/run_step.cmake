# run_step(NAME COMMAND...): runs one step of a consumer test (tests/install_consumer.cmake,
# tests/subdir_consumer.cmake) and stops the test with the step's output if it fails; the step's
# stdout is left in `step_output`, its stderr in `step_error`.
function(run_step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result}):\n${out}\n${err}")
  endif()
  message(STATUS "${name}: ok")
  set(step_output "${out}" PARENT_SCOPE)
  set(step_error "${err}" PARENT_SCOPE)
endfunction()
