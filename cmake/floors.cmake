# The floors of the source tree (docs/design.md, "Where things are: the floors"): a folder may use
# its own headers and those of folders on lower floors, never those of a folder on its own floor or
# above. The one table of them, read by the build (CMakeLists.txt: a folder's library may link only
# folders below it) and by the check of the includes (cmake/check_floors.cmake), so that the two
# cannot disagree. A new folder is a row here and a library in CMakeLists.txt.

# Floor by floor, from the ground up; the folders of one floor, comma-separated. `nqueens` is
# include/nqueens/, the public headers.
set(NQUEENS_FLOORS
  "nqueens,text"              # 0: the public words; user text in messages
  "system"                    # 1: what the machine allows (memory limits, CPUs), probed
  "board,engine,records"      # 2: board facts; the engine interface, catalogue and tools; the
                              #    run's records as values (its header, unit records, unit ranges)
  "dfs,join,reference,files"  # 3: the engines and the file formats, side by side
  "gpu"                       # 4: the join's pairs on a device, built on the join
  "run"                       # 5: one run: the registry, the schedule, the reduction
  "plan,solve,bench"          # 6: what a run will cost; the solutions themselves; timing runs
  "shell"                     # 7: the drivers' common shell: options, reports, files on disk
  "cli,mpi")                  # 8: the drivers

# nqueens_floor_of(<folder> <out>): the floor of `folder` in the table, or -1 where it has none.
function(nqueens_floor_of folder out)
  set(index 0)
  foreach(entry IN LISTS NQUEENS_FLOORS)
    string(REPLACE "," ";" names "${entry}")
    if(folder IN_LIST names)
      set(${out} ${index} PARENT_SCOPE)
      return()
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} -1 PARENT_SCOPE)
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
