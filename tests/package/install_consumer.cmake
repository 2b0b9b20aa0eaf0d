# Installs a build tree to a scratch prefix, then configures, builds and runs projects against
# it as someone outside this tree would: tests/package/consumer with find_package(nqueens),
# tests/package/consumer_pkgconfig with pkg-config, and examples/ with find_package. Also checks
# that the installed headers leave out the test-only reference counter, and that the man page and
# bash completion are installed when the program is, and that the install of a build tuned for
# its own CPU (NQUEENS_NATIVE) warns of it.
#   cmake -DBUILD_DIR=<build tree> -DSOURCE_DIR=<tests/> -DPROJECT_DIR=<nqueens sources>
#         -DWORK_DIR=<scratch> -P install_consumer.cmake
foreach(var BUILD_DIR SOURCE_DIR PROJECT_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)

include(${CMAKE_CURRENT_LIST_DIR}/run_step.cmake)

# Configures, builds and runs one consumer project; `program` is the executable to run.
function(consume name source program)
  set(build ${WORK_DIR}/${name})
  run_step("configure ${name}" ${CMAKE_COMMAND} -S ${source} -B ${build}
           -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
  run_step("build ${name}" ${CMAKE_COMMAND} --build ${build} --config Release)
  # Single-config generators put the program at the top of the build tree, multi-config ones
  # in a folder per configuration.
  find_program(exe_${name} ${program} PATHS ${build} ${build}/Release NO_DEFAULT_PATH NO_CACHE REQUIRED)
  run_step("run ${name}" ${exe_${name}})
  message(STATUS "${step_output}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# A build tuned for its own CPU says, as it installs, that the install is only for CPUs like it;
# a portable one says nothing of the kind.
file(STRINGS ${BUILD_DIR}/CMakeCache.txt native REGEX "^NQUEENS_NATIVE:BOOL=")
string(REGEX REPLACE "[ \n]+" " " install_messages "${step_error}")  # CMake wraps its warnings
string(FIND "${install_messages}" "tuned for the CPU it was built on" warned)
if(native MATCHES "=ON$" AND warned EQUAL -1)
  message(FATAL_ERROR "the install of a NQUEENS_NATIVE build gave no warning that it is tuned for this CPU:\n${step_error}")
elseif(NOT native MATCHES "=ON$" AND NOT warned EQUAL -1)
  message(FATAL_ERROR "the install of a portable build warned that it is tuned for this CPU:\n${step_error}")
endif()

consume(find_package ${SOURCE_DIR}/consumer nqueens_consumer)
consume(examples ${PROJECT_DIR}/examples nqueens_example_count)

file(GLOB_RECURSE pc_files ${prefix}/*/nqueens.pc)
if(NOT pc_files)
  message(FATAL_ERROR "no nqueens.pc was installed under ${prefix}")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
consume(pkg_config ${SOURCE_DIR}/consumer_pkgconfig nqueens_consumer)

# The public headers are the API: nothing of the tests' slow reference counter (src/reference.hpp).
file(GLOB_RECURSE every_header ${prefix}/include/nqueens/*.hpp)
foreach(header IN LISTS every_header)
  file(STRINGS ${header} mentions REGEX "reference\\.hpp|reference_count|reference_solutions")
  if(mentions)
    message(FATAL_ERROR "${header} exposes the test-only reference counter: ${mentions}")
  endif()
endforeach()

# The umbrella header is the front door: it includes every installed header beside it (export.hpp
# through the others), so nothing installed is left for users to find on their own, and none of
# the optional file-format headers in nqueens/files/, which a count does not need.
file(READ ${prefix}/include/nqueens/nqueens.hpp umbrella)
file(GLOB headers ${prefix}/include/nqueens/*.hpp)
foreach(header IN LISTS headers)
  get_filename_component(name ${header} NAME)
  if(NOT name MATCHES "^(nqueens|export)\\.hpp$" AND NOT umbrella MATCHES "#include \"nqueens/${name}\"")
    message(FATAL_ERROR "nqueens/${name} is installed but nqueens/nqueens.hpp does not include it")
  endif()
endforeach()
if(umbrella MATCHES "#include \"nqueens/files/")
  message(FATAL_ERROR "nqueens/nqueens.hpp includes a file-format header: those are the optional nqueens/files/ set")
endif()
if(NOT EXISTS ${prefix}/include/nqueens/files/journal.hpp)
  message(FATAL_ERROR "the optional file-format headers (nqueens/files/) are not installed")
endif()

# The example at the top of nqueens.hpp (its \code block, the API reference's main page) is the
# consumer built above, line for line: its lines that call nqueens:: must stand in
# tests/package/consumer/main.cpp.
file(STRINGS ${prefix}/include/nqueens/nqueens.hpp header_lines)
set(example "")
set(in_code FALSE)
foreach(line IN LISTS header_lines)
  if(line MATCHES "^//! \\\\endcode")
    break()
  elseif(in_code AND line MATCHES "nqueens::")
    list(APPEND example "${line}")
  elseif(line MATCHES "^//! \\\\code")
    set(in_code TRUE)
  endif()
endforeach()
file(READ ${SOURCE_DIR}/consumer/main.cpp consumer)
if(NOT example)
  message(FATAL_ERROR "nqueens/nqueens.hpp has no example at its top")
endif()
foreach(line IN LISTS example)
  string(REGEX REPLACE "^//! " "" code "${line}")
  string(FIND "${consumer}" "${code}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the example in nqueens.hpp is not what tests/package/consumer/main.cpp builds: '${code}'")
  endif()
endforeach()

# The program's documentation goes with it.
if(EXISTS ${prefix}/bin/nqueens)
  set(docs share/bash-completion/completions/nqueens share/zsh/vendor-completions/_nqueens
           share/fish/vendor_completions.d/nqueens.fish share/doc/nqueens/README.md
           share/doc/nqueens/docs/usage.md share/doc/nqueens/docs/algorithm.md
           share/nqueens/scripts/slurm-shards.sh share/nqueens/scripts/xargs-shards.sh)
  if(EXISTS ${BUILD_DIR}/nqueens.1)  # made when help2man was found
    list(APPEND docs share/man/man1/nqueens.1)
  endif()
  foreach(doc IN LISTS docs)
    if(NOT EXISTS ${prefix}/${doc})
      message(FATAL_ERROR "${doc} was not installed with the program")
    endif()
  endforeach()
  # The installed shard script runs the installed program, with no nqueens on the PATH, from
  # another folder: N = 8 in 2 shards, merged and verified (92).
  execute_process(COMMAND env -u NQUEENS PATH=/usr/bin:/bin OUT_DIR=${prefix}/../shards-n8
                          ${prefix}/share/nqueens/scripts/xargs-shards.sh 8 2 1
                  WORKING_DIRECTORY /
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out MATCHES "92")
    message(FATAL_ERROR "the installed xargs-shards.sh did not count N = 8 with the installed nqueens (exit ${status}): ${out}${err}")
  endif()
  # Every file the installed README and manual link to is installed beside them.
  file(GLOB installed_docs ${prefix}/share/doc/nqueens/*.md ${prefix}/share/doc/nqueens/docs/*.md)
  foreach(doc IN LISTS installed_docs)
    get_filename_component(folder ${doc} DIRECTORY)
    file(READ ${doc} text)
    # Web links left out; the markers keep "]" out of the list, where CMake reads it as a bracket.
    string(REGEX REPLACE "\\]\\([a-z]+:[^)]*\\)" "" text "${text}")
    string(REPLACE "](" "\nLINK:" text "${text}")
    string(REGEX MATCHALL "LINK:[^)#\n ]+" links "${text}")
    foreach(link IN LISTS links)
      string(SUBSTRING "${link}" 5 -1 target)
      if(NOT EXISTS ${folder}/${target})
        message(FATAL_ERROR "${doc} links to ${target}, which is not installed")
      endif()
    endforeach()
  endforeach()
endif()
