# cmake -DMODE=build -DSOURCE_DIR= -DBINARY_DIR= -DSANITIZE= -DPLUGIN=
#       -DC_COMPILER= -DCXX_COMPILER= -DGENERATOR= -P run_sanitized.cmake
# cmake -DMODE=tests -DBINARY_DIR= -DSANITIZE= -DTESTS= -P run_sanitized.cmake
#
# build: configure BINARY_DIR from SOURCE_DIR with CW_SANITIZE=SANITIZE (GCC
# plugin PLUGIN reused, optional parts off) and build what the program
# tests need. tests: run that sub-build's tests whose names match TESTS.
# See CMakeLists.txt here.

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sanitize (${SANITIZE}): ${what} failed (${rc})")
  endif()
endfunction()

if(MODE STREQUAL "build")
  step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DCW_SANITIZE=${SANITIZE} -DCW_TEST_GCC_PLUGIN=${PLUGIN}
    -DCW_BUILD_GCC_PLUGIN=OFF -DCW_BUILD_CLANG_PLUGIN=OFF -DCW_BUILD_REWRITER=OFF
    -DCW_BUILD_CUDA=OFF -DCW_BUILD_BENCH=OFF)
  step(build ${CMAKE_COMMAND} --build ${BINARY_DIR} --target
    capture_window capture_window_static cw_nvtx_recorder cw_fake_cuda_driver
    cw_hostile_unmatched_end cw_spike_rule)
  return()
endif()

# Sanitizer settings for every program the tests run. Leaks are checked:
# the runtime keeps what it allocates reachable until exit.
set(ENV{ASAN_OPTIONS} "detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1")
set(ENV{UBSAN_OPTIONS} "print_stacktrace=1")
set(ENV{TSAN_OPTIONS}
  "second_deadlock_stack=1:suppressions=${CMAKE_CURRENT_LIST_DIR}/tsan.supp")
step(tests ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY_DIR} -R "${TESTS}" -j2
  --output-on-failure --no-tests=error)
