# The nqueens(1) man page and the bash completion, both made at build time from the program's
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

set(NQUEENS_COMPLETION ${PROJECT_BINARY_DIR}/completions/nqueens)
add_custom_command(OUTPUT ${NQUEENS_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:nqueens_cli> -DOUTPUT=${NQUEENS_COMPLETION}
          -DTEMPLATE=${PROJECT_SOURCE_DIR}/cmake/nqueens-completion.bash.in
          -P ${PROJECT_SOURCE_DIR}/cmake/make_completion.cmake
  DEPENDS nqueens_cli ${PROJECT_SOURCE_DIR}/cmake/make_completion.cmake
          ${PROJECT_SOURCE_DIR}/cmake/nqueens-completion.bash.in
  COMMENT "Making the bash completion of nqueens from its --help")
set(nqueens_docs ${NQUEENS_COMPLETION})

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
  install(FILES ${NQUEENS_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  if(NQUEENS_MAN)
    install(FILES ${NQUEENS_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
endfunction()
