# diagnostics.newer_gcc: configuring for a GCC release newer than the last
# tested one prints exactly one line saying so and carries on.  Pretends
# the last tested release is one below this build's GCC.
#   cmake -DSOURCE=... -DBINARY=... -DCC=... -DCXX=... -DMAJOR=N
#         -DGENERATOR=... -P newer_gcc.cmake
math(EXPR last "${MAJOR} - 1")
file(REMOVE_RECURSE ${BINARY})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX}
    -DCW_GCC_LAST_TESTED=${last} -DCW_BUILD_CLANG_PLUGIN=OFF
    -DCW_BUILD_REWRITER=OFF -DCW_BUILD_CUDA=OFF -DCW_BUILD_TESTS=OFF
    -DCW_BUILD_BENCH=OFF
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(REMOVE_RECURSE ${BINARY})
set(line "capture-window: GCC ${MAJOR} is newer than the last tested release (${last}); building anyway")
string(REGEX MATCHALL "capture-window: GCC [0-9]+ is newer[^\n]*" found "${out}")
if(NOT status EQUAL 0 OR NOT found STREQUAL line)
  message(FATAL_ERROR "expected exit 0 and the one line\n  ${line}\n"
    "got exit ${status} and:\n${out}")
endif()
