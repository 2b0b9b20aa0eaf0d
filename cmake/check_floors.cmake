# Checks every include of src/ and include/nqueens/ against the floors (cmake/floors.cmake): a
# folder includes its own headers and those of folders on lower floors, never those of a folder on
# its own floor or above. Given the links the build declares (USES, the file CMakeLists.txt
# writes), also that a folder includes only folders its library links and links only folders it
# includes, so that the declared links are the drawing of the includes. Fails naming each include
# or link that does not hold. The build runs it (the nqueens_floors target, before any folder is
# compiled) and so does ctest (`floors`); by hand:
#   cmake -DSOURCE_DIR=. [-DUSES=build/release/floor_links.cmake] -P cmake/check_floors.cmake
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/floors.cmake)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "give the repository: cmake -DSOURCE_DIR=<repo> -P cmake/check_floors.cmake")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)
# The declared links: nqueens_uses_<folder>, one list per folder with a library in that build.
set(declared "")
if(USES)
  include("${USES}")
endif()

file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/src/*.cpp"
     "${SOURCE_DIR}/src/*.cu" "${SOURCE_DIR}/include/nqueens/*.hpp")
if(NOT sources)
  message(FATAL_ERROR "no sources under ${SOURCE_DIR}/src: is it the repository?")
endif()
set(problems "")
foreach(source IN LISTS sources)
  if(source MATCHES "^include/nqueens/")
    set(folder nqueens)
  else()
    string(REGEX REPLACE "^src/([^/]+)/.*" "\\1" folder "${source}")
  endif()
  nqueens_floor_of(${folder} own)
  if(own EQUAL -1)
    string(APPEND problems "\n  ${source}: folder '${folder}' has no floor in cmake/floors.cmake")
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${source}" includes REGEX "^#include \"[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" used "${line}")
    if(used STREQUAL folder)
      continue()
    endif()
    nqueens_climb(${folder} ${used} why)
    if(why)
      string(APPEND problems "\n  ${source}: ${line}: ${why}")
    elseif(used STREQUAL "nqueens")
      # The public headers are the ground every library stands on, their include path on all.
    elseif(DEFINED nqueens_uses_${folder})
      if(NOT used IN_LIST nqueens_uses_${folder})
        string(APPEND problems "\n  ${source}: ${line}: the library of '${folder}' does not link '${used}' "
                               "(CMakeLists.txt, its USES)")
      endif()
      list(APPEND included_${folder} ${used})
    endif()
  endforeach()
endforeach()
# A link no include needs: the declared drawing would show a floor that is not used.
foreach(folder IN LISTS declared)
  foreach(used IN LISTS nqueens_uses_${folder})
    if(NOT used IN_LIST included_${folder})
      string(APPEND problems "\n  src/${folder}: its library links '${used}', which none of its files includes "
                             "(CMakeLists.txt, its USES)")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "includes that climb a floor or cross one, or links that do not match the includes:${problems}")
endif()
list(LENGTH sources count)
list(LENGTH declared libraries)
message(STATUS "floors: ${count} files, every include goes down; ${libraries} folder libraries link what they include")
if(STAMP)
  file(TOUCH "${STAMP}")
endif()
