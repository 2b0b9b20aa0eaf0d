# Installs a build tree to a scratch prefix, then configures, builds and runs the consumer
# project against it: proof that find_package(nqueens) works for someone outside this tree.
#   cmake -DBUILD_DIR=<build tree> -DSOURCE_DIR=<consumer sources> -DWORK_DIR=<scratch>
#         -P install_consumer.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)

# Runs one step and stops the test with its output if the step fails.
function(run_step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result}):\n${out}\n${err}")
  endif()
  message(STATUS "${name}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step("configure consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${consumer_build}
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run_step("build consumer" ${CMAKE_COMMAND} --build ${consumer_build} --config Release)

# Single-config generators put the program at the top of the build tree, multi-config ones
# in a folder per configuration.
find_program(consumer_exe nqueens_consumer PATHS ${consumer_build} ${consumer_build}/Release
             NO_DEFAULT_PATH REQUIRED)
run_step("run consumer" ${consumer_exe})
message(STATUS "${step_output}")
