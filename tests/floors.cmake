# The floors of the source tree (docs/design.md, "Floors"): a folder may include its own headers
# and those of folders on lower floors, never those of a folder on its own floor or above. Run
# by ctest (`floors`) as `cmake -DSOURCE_DIR=<repo> -P tests/floors.cmake`; fails, naming each
# include that climbs, when one does.
cmake_minimum_required(VERSION 3.25)

# The floor of `folder` in the table that follows it, or -1.
function(floor_of folder out)
  set(index 0)
  foreach(entry IN LISTS ARGN)
    string(REPLACE "," ";" names "${entry}")
    if(folder IN_LIST names)
      set(${out} ${index} PARENT_SCOPE)
      return()
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} -1 PARENT_SCOPE)
endfunction()

# Floor by floor, from the ground up; the folders of one floor, comma-separated.
set(table
  "nqueens,text"              # 0: the public words; user text in messages
  "board,engine"              # 1: board facts; the engine interface, catalogue and tools
  "dfs,join,reference,files"  # 2: the engines and the file formats, side by side
  "gpu"                       # 3: the join's pairs on a device, built on the join
  "run"                       # 4: one run: the registry, the schedule, the reduction
  "plan,solve,bench"          # 5: what a run will cost; the solutions themselves; timing runs
  "shell"                     # 6: the drivers' common shell: options, reports, files on disk
  "cli,mpi")                  # 7: the drivers

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "give the repository: cmake -DSOURCE_DIR=<repo> -P tests/floors.cmake")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/src/*.cpp"
     "${SOURCE_DIR}/src/*.cu" "${SOURCE_DIR}/include/nqueens/*.hpp")
set(problems "")
foreach(source IN LISTS sources)
  if(source MATCHES "^include/nqueens/")
    set(folder nqueens)
  else()
    string(REGEX REPLACE "^src/([^/]+)/.*" "\\1" folder "${source}")
  endif()
  floor_of(${folder} own ${table})
  if(own EQUAL -1)
    string(APPEND problems "\n  ${source}: folder '${folder}' has no floor in tests/floors.cmake")
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${source}" includes REGEX "^#include \"[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" target "${line}")
    if(target STREQUAL folder)
      continue()
    endif()
    floor_of(${target} theirs ${table})
    if(theirs EQUAL -1 OR NOT theirs LESS own)
      string(APPEND problems "\n  ${source} (${folder}, floor ${own}): ${line} (floor ${theirs})")
    endif()
  endforeach()
endforeach()
if(NOT sources)
  message(FATAL_ERROR "no sources under ${SOURCE_DIR}/src: is it the repository?")
endif()
if(problems)
  message(FATAL_ERROR "includes that climb a floor or cross one:${problems}")
endif()
list(LENGTH sources count)
message(STATUS "floors: ${count} files, every include goes down")
