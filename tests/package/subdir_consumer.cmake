# Builds tests/package/consumer_subdir, which adds the nqueens sources with add_subdirectory as a
# shared library, with CLI11, spdlog and GTest made unfindable; runs its programs; then checks what
# the library exports: its SONAME carries the version, and every exported symbol is nqueens's public
# API (nothing of nlohmann, nothing of the internals).
#   cmake -DPROJECT_DIR=<nqueens sources> -DSOURCE_DIR=<consumer_subdir> -DWORK_DIR=<scratch>
#         -DPYTHON=<python3> [-DCOMPILER=<c++>] [-DLAUNCHER=<ccache>] -P subdir_consumer.cmake
foreach(var PROJECT_DIR SOURCE_DIR WORK_DIR PYTHON)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "subdir_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/run_step.cmake)

set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})
set(options -DCMAKE_BUILD_TYPE=Release -DNQUEENS_SOURCE_DIR=${PROJECT_DIR}
    -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
if(COMPILER)
  list(APPEND options -DCMAKE_CXX_COMPILER=${COMPILER})
endif()
if(LAUNCHER)
  list(APPEND options -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run_step("configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} ${options})
run_step("build" ${CMAKE_COMMAND} --build ${build} -j 2)
foreach(target nqueens_consumer nqueens_exported_members nqueens_example_cancel)
  run_step("run ${target}" ${build}/${target})
  message(STATUS "${step_output}")
endforeach()

file(GLOB libraries ${build}/nqueens/libnqueens.so.*.*.*)
list(LENGTH libraries found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "expected one versioned libnqueens.so.X.Y.Z in ${build}/nqueens, found: ${libraries}")
endif()
run_step("readelf" readelf -d ${libraries})
if(NOT step_output MATCHES "SONAME\\)[^\n]*\\[libnqueens\\.so\\.[0-9]+\\.[0-9]+\\]")
  message(FATAL_ERROR "no versioned SONAME (libnqueens.so.MAJOR.MINOR):\n${step_output}")
endif()

# Every defined dynamic symbol, demangled. What may leave: nqueens's own functions, classes and
# their type information; nothing else of C++ (nlohmann, TBB's or the standard library's inline
# code, the engine's internals).
run_step("nm" nm -D --defined-only -C ${libraries})
string(REPLACE "\n" ";" symbols "${step_output}")
set(exported 0)
set(foreign "")
foreach(line IN LISTS symbols)
  if(NOT line MATCHES "^[0-9a-f]+ [A-Za-z] (.+)$")
    continue()
  endif()
  set(symbol "${CMAKE_MATCH_1}")
  if(symbol MATCHES "^(_init|_fini|_edata|_end|__bss_start)$")
    continue()  # the linker's own
  endif()
  math(EXPR exported "${exported} + 1")
  if(symbol MATCHES "nlohmann" OR NOT symbol MATCHES "^((typeinfo|typeinfo name|vtable) for )?nqueens::")
    string(APPEND foreign "  ${symbol}\n")
  endif()
endforeach()
if(foreign)
  message(FATAL_ERROR "libnqueens exports symbols outside its public API:\n${foreign}")
endif()
foreach(internal "nqueens::count_from" "nqueens::make_engine" "nqueens::Run::")
  if(step_output MATCHES "${internal}")
    message(FATAL_ERROR "libnqueens exports an internal symbol: ${internal}")
  endif()
endforeach()
message(STATUS "libnqueens exports ${exported} symbols, all of the public API")

# And every member function the public headers declare for the library to define is among them,
# and called by the program linked above (nqueens_exported_members).
run_step("exported members" ${PYTHON} ${SOURCE_DIR}/../check_exported_members.py ${PROJECT_DIR}/include ${libraries}
         ${SOURCE_DIR}/../exported_members.cpp)
message(STATUS "${step_output}")
