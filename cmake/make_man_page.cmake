# Makes nqueens.1 with help2man: the program's --help and --version give NAME, SYNOPSIS,
# DESCRIPTION and OPTIONS; a COMMANDS section holds every subcommand's --help, examples
# included; docs/nqueens.h2m adds exit status, files, environment and see-also.
#   cmake -DPROGRAM=<nqueens> -DHELP2MAN=<help2man> -DINCLUDE=<nqueens.h2m> -DOUTPUT=<nqueens.1>
#         -P make_man_page.cmake
include(${CMAKE_CURRENT_LIST_DIR}/help_texts.cmake)
nqueens_help_texts(${PROGRAM})

# roff: a backslash is written \e, and a line may not start with . or ' (a request).
function(roff_literal text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

get_filename_component(binary_dir ${OUTPUT} DIRECTORY)
set(include_file ${binary_dir}/nqueens-man-commands.h2m)
set(body "[COMMANDS]\n")
foreach(command IN LISTS nqueens_commands)
  roff_literal("${nqueens_help_${command}}" help)
  string(APPEND body ".SS \"nqueens ${command}\"\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${include_file} "${body}")

get_filename_component(directory ${PROGRAM} DIRECTORY)
get_filename_component(name ${PROGRAM} NAME)
# help2man prints --version's lines after the first as the page's last paragraph, which would
# land in EXAMPLES; the build details (commit, compiler, SIMD paths) belong to `nqueens version`,
# so the page gets the first line ("nqueens 0.1.0") only.
execute_process(COMMAND ${PROGRAM} --version RESULT_VARIABLE result OUTPUT_VARIABLE version_text)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --version failed (${result})")
endif()
string(REGEX MATCH "^[^\n]*" version_line "${version_text}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "PATH=${directory}:$ENV{PATH}" ${HELP2MAN} --no-info --version-string "${version_line}" --section 1 --name "count the solutions of the N-Queens problem, exactly and fast"
          --include ${include_file} --include ${INCLUDE} --output ${OUTPUT} ${name}
  RESULT_VARIABLE result ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "help2man failed (${result}): ${err}")
endif()
