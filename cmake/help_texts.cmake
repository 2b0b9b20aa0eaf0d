# Shared by make_man_page.cmake and make_completion.cmake: runs the program's --help and that of
# each of its subcommands (the names listed under "Subcommands:"). The program is run by its
# plain name, found through PATH, so that the usage lines say "nqueens", not the build path.
#   nqueens_help_texts(PROGRAM <path>) sets nqueens_commands (a list) and, for each command C,
#   nqueens_help_<C> (its --help text); nqueens_help_ holds the program's own.
function(nqueens_help_for program command out)
  get_filename_component(directory ${program} DIRECTORY)
  get_filename_component(name ${program} NAME)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${directory}:$ENV{PATH}" ${name} ${command} --help
                  RESULT_VARIABLE result OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${program} ${command} --help failed (${result}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

macro(nqueens_help_texts program)
  nqueens_help_for(${program} "" nqueens_help_)
  # The listing runs from "Subcommands:" to the next blank line (the examples follow it).
  string(REGEX MATCH "Subcommands:\n.*" nqueens_listing "${nqueens_help_}")
  string(FIND "${nqueens_listing}" "\n\n" nqueens_end)
  string(SUBSTRING "${nqueens_listing}" 0 ${nqueens_end} nqueens_listing)
  string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" nqueens_names "${nqueens_listing}")
  set(nqueens_commands "")
  foreach(name IN LISTS nqueens_names)
    string(STRIP "${name}" name)
    list(APPEND nqueens_commands ${name})
    nqueens_help_for(${program} ${name} nqueens_help_${name})
  endforeach()
  if(NOT nqueens_commands)
    message(FATAL_ERROR "no subcommands found in the --help of ${program}")
  endif()
endmacro()
