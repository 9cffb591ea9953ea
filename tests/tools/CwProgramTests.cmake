# cw_add_program_tests(SUITE SOURCE...)
#
# One CTest test per test program and front door, run by
# run_program_test.py: it builds the source with a plugin (and
# libcapture_window) and without, runs both under the NVTX recorder and the
# stand-in libcuda.so.1, and checks the runs the source's `// cw-...`
# comments declare.
#
#   SUITE.NAME         gcc/g++ and the GCC plugin
#   SUITE.clang.NAME   clang/clang++ and the Clang plugin, when it is built
#   SUITE.rewrite.NAME capture-window-rewrite's copy of the source, built by
#                      gcc/g++ with no plugin, when the rewriter is built
#
# .cu sources (when CW_BUILD_CUDA is on) are built by nvcc with the
# family's C++ compiler as host compiler (-ccbin g++ or clang++).
#
# CW_PROGRAM_TEST_ONLY, when set, names the families to build with (e.g.
# gcc), for tests of one front door's own choices.
#
# With CW_SANITIZE set (the sanitize sub-builds, tests/sanitize), the
# programs are built with -fsanitize=${CW_SANITIZE} too, like the runtime.
#
# cw_add_mixed_program_test(SUITE SOURCE): one program of two objects, the
# source built with -DCW_PART=1 by gcc + GCC plugin and with -DCW_PART=2 by
# clang + Clang plugin (SUITE.NAME, needs both plugins).

find_package(Python3 REQUIRED COMPONENTS Interpreter)

# The sanitize sub-builds (tests/sanitize) reuse the main build's GCC
# plugin: it runs inside the compiler, which is not what they sanitize.
set(CW_TEST_GCC_PLUGIN "" CACHE FILEPATH
    "A prebuilt GCC plugin for the program tests instead of this build's")
if(CW_TEST_GCC_PLUGIN)
  if(NOT TARGET cw_test_gcc_plugin)
    add_library(cw_test_gcc_plugin MODULE IMPORTED GLOBAL)
    set_target_properties(cw_test_gcc_plugin PROPERTIES
      IMPORTED_LOCATION ${CW_TEST_GCC_PLUGIN})
  endif()
  set(CW_GCC_PLUGIN_TARGET cw_test_gcc_plugin)
endif()

# The plugins' targets, defined by plugin/gcc and plugin/clang (added
# before tests/).
set(CW_GCC_PLUGIN_TARGET "" CACHE STRING
    "Target of the GCC plugin for the tests (empty: look for known names)")
if(NOT CW_GCC_PLUGIN_TARGET)
  foreach(candidate capture_window_gcc_plugin capture_window_gcc
                    capture_window_plugin cw_gcc_plugin gcc_plugin)
    if(TARGET ${candidate})
      set(CW_GCC_PLUGIN_TARGET ${candidate})
      break()
    endif()
  endforeach()
endif()

set(CW_TEST_TOOLS ${CMAKE_CURRENT_LIST_DIR})

# Cross builds (cmake/toolchain-aarch64.cmake) run the programs through
# CW_TEST_EMULATOR.
set(CW_TEST_RUN_WITH)
if(CW_TEST_EMULATOR)
  list(JOIN CW_TEST_EMULATOR " " CW_TEST_RUN_WITH)
  set(CW_TEST_RUN_WITH "--run-with=${CW_TEST_RUN_WITH}")
endif()

# The driver's arguments every test shares.
set(CW_PROGRAM_TEST_COMMON
  --runtime $<TARGET_FILE:capture_window>
  --runtime-static $<TARGET_FILE:capture_window_static>
  --recorder $<TARGET_FILE:cw_nvtx_recorder>
  --fakecuda-dir $<TARGET_FILE_DIR:cw_fake_cuda_driver>
  "--include=$<TARGET_PROPERTY:CUDA::nvtx3,INTERFACE_INCLUDE_DIRECTORIES>"
  --include ${CW_TEST_TOOLS}/../../annotations
  --include ${CW_TEST_TOOLS})
list(APPEND CW_PROGRAM_TEST_COMMON ${CW_TEST_RUN_WITH})
# nvcc builds the CUDA programs with the flags the build's CUDA code gets
# (docs/compilers.md: CUDA 13.0 with glibc 2.42 needs one).
separate_arguments(cw_nvcc_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS}")
foreach(flag IN LISTS cw_nvcc_flags)
  list(APPEND CW_PROGRAM_TEST_COMMON --nvcc-flags=${flag})
endforeach()
if(CW_SANITIZE)
  list(APPEND CW_PROGRAM_TEST_COMMON --cflags=-fsanitize=${CW_SANITIZE}
    --cflags=-fno-sanitize-recover=all --cflags=-fno-omit-frame-pointer)
endif()

# The front doors the tests build with: name, test-name infix, driver
# arguments.
function(cw_program_test_families out_names)
  set(names)
  if(CW_GCC_PLUGIN_TARGET AND TARGET ${CW_GCC_PLUGIN_TARGET})
    list(APPEND names gcc)
    set(CW_FAMILY_gcc_ARGS --compiler-family gcc
      --plugin $<TARGET_FILE:${CW_GCC_PLUGIN_TARGET}>
      --cc ${CMAKE_C_COMPILER} --cxx ${CMAKE_CXX_COMPILER} PARENT_SCOPE)
  endif()
  if(TARGET cw_clang_plugin)
    list(APPEND names clang)
    set(CW_FAMILY_clang_ARGS --compiler-family clang
      --plugin $<TARGET_FILE:cw_clang_plugin>
      --cc ${CW_CLANG_C} --cxx ${CW_CLANG_CXX} PARENT_SCOPE)
  endif()
  if(TARGET capture_window_rewrite)
    list(APPEND names rewrite)
    set(CW_FAMILY_rewrite_ARGS --compiler-family rewrite
      --rewriter $<TARGET_FILE:capture_window_rewrite>
      --cc ${CMAKE_C_COMPILER} --cxx ${CMAKE_CXX_COMPILER} PARENT_SCOPE)
  endif()
  set(${out_names} ${names} PARENT_SCOPE)
endfunction()

function(cw_add_program_tests suite)
  cw_program_test_families(families)
  if(CW_PROGRAM_TEST_ONLY) # a list of families: only those
    set(only ${families})
    list(FILTER only INCLUDE REGEX "^(${CW_PROGRAM_TEST_ONLY})$")
    set(families ${only})
  endif()
  if(NOT families)
    message(STATUS "capture_window tests: no plugin target, ${suite} tests skipped")
    return()
  endif()
  foreach(family IN LISTS families)
    foreach(source ${ARGN})
      get_filename_component(name ${source} NAME_WE)
      get_filename_component(ext ${source} EXT)
      set(extra)
      if(ext STREQUAL ".cu")
        if(NOT CW_BUILD_CUDA)
          continue()
        endif()
        set(extra --nvcc ${CMAKE_CUDA_COMPILER})
      endif()
      if(family STREQUAL "gcc")
        set(test ${suite}.${name})
      else()
        set(test ${suite}.${family}.${name})
      endif()
      add_test(NAME ${test}
        COMMAND Python3::Interpreter ${CW_TEST_TOOLS}/run_program_test.py
          --source ${CMAKE_CURRENT_SOURCE_DIR}/${source}
          ${CW_FAMILY_${family}_ARGS}
          ${CW_PROGRAM_TEST_COMMON}
          --work-dir ${CMAKE_CURRENT_BINARY_DIR}/${family}/${name}
          ${extra})
      set_tests_properties(${test} PROPERTIES LABELS "${suite};${family}"
        TIMEOUT 300 ENVIRONMENT PYTHONDONTWRITEBYTECODE=1
        SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
endfunction()

function(cw_add_mixed_program_test suite source)
  cw_program_test_families(families)
  if(NOT "gcc" IN_LIST families OR NOT "clang" IN_LIST families)
    message(STATUS "capture_window tests: ${suite} needs both plugins, skipped")
    return()
  endif()
  get_filename_component(name ${source} NAME_WE)
  add_test(NAME ${suite}.${name}
    COMMAND Python3::Interpreter ${CW_TEST_TOOLS}/run_program_test.py
      --source ${CMAKE_CURRENT_SOURCE_DIR}/${source}
      ${CW_FAMILY_gcc_ARGS}
      --part2-cc ${CW_CLANG_C} --part2-cxx ${CW_CLANG_CXX}
      --part2-plugin $<TARGET_FILE:cw_clang_plugin>
      ${CW_PROGRAM_TEST_COMMON}
      --work-dir ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set_tests_properties(${suite}.${name} PROPERTIES LABELS "${suite};gcc;clang"
    TIMEOUT 300 ENVIRONMENT PYTHONDONTWRITEBYTECODE=1)
endfunction()
