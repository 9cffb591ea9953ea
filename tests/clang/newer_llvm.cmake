# clang.newer_llvm (cmake -P): cmake/SelectLlvm.cmake for an LLVM above
# the last tested one, CW_LLVM_TESTED, prints exactly one line saying so and
# selects it all the same; for the last tested one it prints nothing.  The
# LLVM is named by its folder (/usr/lib/llvm-N), as when llvm-config is
# missing; the child run (CW_SELECT) is the selection alone.
if(DEFINED CW_SELECT)
  include(${CW_SOURCE_DIR}/cmake/SelectLlvm.cmake)
  message(STATUS "selected LLVM ${CW_LLVM_VERSION}")
  return()
endif()

function(expect_selection version expected)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -DCW_SELECT=1 -DCW_SOURCE_DIR=${CW_SOURCE_DIR}
            -DCW_LLVM_ROOT=/nonexistent/llvm-${version} -P ${CMAKE_CURRENT_LIST_FILE}
    OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
    message(FATAL_ERROR "LLVM ${version}: exit ${rc}, printed:\n${out}\nexpected:\n${expected}")
  endif()
endfunction()

math(EXPR newer "${CW_LLVM_TESTED} + 1")
expect_selection(${CW_LLVM_TESTED} "-- selected LLVM ${CW_LLVM_TESTED}\n")
expect_selection(${newer}
  "-- capture_window: LLVM ${newer} is newer than the last tested, LLVM ${CW_LLVM_TESTED}; building for it anyway (docs/compilers.md)\n-- selected LLVM ${newer}\n")
