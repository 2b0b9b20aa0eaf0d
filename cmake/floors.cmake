# The floors of the source tree (docs/design.md, "Where things are: the floors"): a folder may use
# its own headers and those of folders on lower floors, never those of a folder on its own floor or
# above. The one table of them, read by the build (CMakeLists.txt: a folder's library may link only
# folders below it) and by the check of the includes (cmake/check_floors.cmake), so that the two
# cannot disagree. A new folder is a row here and a library in CMakeLists.txt; a new engine is
# neither here: `*` is every folder of src/ that no row names, the engines (dfs, join, reference
# and any added: src/run/ADDING_AN_ENGINE.md), so an engine's floor is derived, not written.

# Floor by floor, from the ground up; the folders of one floor, comma-separated. `nqueens` is
# include/nqueens/, the public headers.
set(NQUEENS_FLOORS
  "nqueens,text"              # 0: the public words; user text in messages
  "system"                    # 1: what the machine allows (memory limits, CPUs), probed
  "board,engine,records"      # 2: board facts; the engine interface, catalogue and tools; the
                              #    run's records as values (its header, unit records, unit ranges)
  "files,*"                 # 3: the file formats and the engines (every folder no row names)
  "gpu"                       # 4: the join's pairs on a device, built on the join
  "run"                       # 5: one run: the registry, the schedule, the reduction
  "plan,solve,bench"          # 6: what a run will cost; the solutions themselves; timing runs
  "shell"                     # 7: the drivers' common shell: options, reports, files on disk
  "cli,mpi")                  # 8: the drivers

# nqueens_floor_of(<folder> <out>): the floor of `folder` in the table; for a folder of src/ that
# no row names, the floor of `*` (an engine's); -1 for anything else.
function(nqueens_floor_of folder out)
  set(index 0)
  set(engines -1)
  foreach(entry IN LISTS NQUEENS_FLOORS)
    string(REPLACE "," ";" names "${entry}")
    if(folder IN_LIST names)
      set(${out} ${index} PARENT_SCOPE)
      return()
    endif()
    if("*" IN_LIST names)
      set(engines ${index})
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  if(IS_DIRECTORY "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../src/${folder}")
    set(${out} ${engines} PARENT_SCOPE)
  else()
    set(${out} -1 PARENT_SCOPE)
  endif()
endfunction()

# nqueens_climb(<folder> <used> <out>): why `folder` may not use `used`, or empty where it may
# (a floor below its own; the table names both).
function(nqueens_climb folder used out)
  nqueens_floor_of(${folder} own)
  nqueens_floor_of(${used} theirs)
  if(own EQUAL -1)
    set(${out} "folder '${folder}' has no floor in cmake/floors.cmake" PARENT_SCOPE)
  elseif(theirs EQUAL -1)
    set(${out} "'${used}' has no floor in cmake/floors.cmake" PARENT_SCOPE)
  elseif(NOT theirs LESS own)
    set(${out} "'${used}' is on floor ${theirs}, '${folder}' on floor ${own}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
