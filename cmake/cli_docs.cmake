# The nqueens(1) man page and the bash, zsh and fish completions, both made at build time from the program's
# own --help texts, so that they list exactly the commands and options it has. Included by the
# top-level CMakeLists.txt when the program is built; nqueens_install_cli_docs() installs them.
find_program(NQUEENS_HELP2MAN help2man)
set(nqueens_man_default OFF)
if(NQUEENS_HELP2MAN)
  set(nqueens_man_default ON)
endif()
option(NQUEENS_MAN "Make the nqueens(1) man page with help2man (Debian package help2man)" ${nqueens_man_default})
if(NQUEENS_MAN AND NOT NQUEENS_HELP2MAN)
  message(FATAL_ERROR "NQUEENS_MAN is ON but help2man was not found: install it (scripts/setup.sh does), "
                      "or configure with -DNQUEENS_MAN=OFF")
endif()

# bash, zsh and fish completions, one generator for all three (so they offer the same options).
set(NQUEENS_COMPLETION ${PROJECT_BINARY_DIR}/completions/nqueens)
set(NQUEENS_ZSH_COMPLETION ${PROJECT_BINARY_DIR}/completions/_nqueens)
set(NQUEENS_FISH_COMPLETION ${PROJECT_BINARY_DIR}/completions/nqueens.fish)
set(nqueens_docs "")
foreach(shell bash zsh fish)
  set(output ${NQUEENS_COMPLETION})
  if(shell STREQUAL "zsh")
    set(output ${NQUEENS_ZSH_COMPLETION})
  elseif(shell STREQUAL "fish")
    set(output ${NQUEENS_FISH_COMPLETION})
  endif()
  set(template ${PROJECT_SOURCE_DIR}/cmake/nqueens-completion.${shell}.in)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:nqueens_cli> -DSHELL=${shell} -DOUTPUT=${output}
            -DTEMPLATE=${template} -P ${PROJECT_SOURCE_DIR}/cmake/make_completion.cmake
    DEPENDS nqueens_cli ${PROJECT_SOURCE_DIR}/cmake/make_completion.cmake
            ${PROJECT_SOURCE_DIR}/cmake/help_texts.cmake ${template}
    COMMENT "Making the ${shell} completion of nqueens from its --help")
  list(APPEND nqueens_docs ${output})
endforeach()

set(NQUEENS_MAN_PAGE ${PROJECT_BINARY_DIR}/nqueens.1)
if(NQUEENS_MAN)
  add_custom_command(OUTPUT ${NQUEENS_MAN_PAGE}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:nqueens_cli> -DHELP2MAN=${NQUEENS_HELP2MAN}
            -DINCLUDE=${PROJECT_SOURCE_DIR}/docs/nqueens.h2m -DOUTPUT=${NQUEENS_MAN_PAGE}
            -P ${PROJECT_SOURCE_DIR}/cmake/make_man_page.cmake
    DEPENDS nqueens_cli ${PROJECT_SOURCE_DIR}/cmake/make_man_page.cmake ${PROJECT_SOURCE_DIR}/docs/nqueens.h2m
    COMMENT "Making the nqueens(1) man page with help2man")
  list(APPEND nqueens_docs ${NQUEENS_MAN_PAGE})
endif()
add_custom_target(nqueens_cli_docs ALL DEPENDS ${nqueens_docs})

function(nqueens_install_cli_docs)
  # Where each shell's packages put completions: bash-completion loads them on demand, zsh's
  # Debian-style fpath holds vendor-completions, fish reads vendor_completions.d.
  install(FILES ${NQUEENS_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          COMPONENT Runtime)
  install(FILES ${NQUEENS_ZSH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions
          COMPONENT Runtime)
  install(FILES ${NQUEENS_FISH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d
          COMPONENT Runtime)
  if(NQUEENS_MAN)
    install(FILES ${NQUEENS_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT Runtime)
  endif()
endfunction()
