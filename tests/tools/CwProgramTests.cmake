# cw_add_program_tests(SUITE SOURCE...)
#
# One CTest test SUITE.NAME per test program, run by run_program_test.py:
# it builds the source with the GCC plugin (and libcapture_window) and
# without, runs both under the NVTX recorder and the stand-in libcuda.so.1,
# and checks the runs the source's `// cw-...` comments declare. .cu
# sources are built with nvcc and only registered when CW_BUILD_CUDA is on.

find_package(Python3 REQUIRED COMPONENTS Interpreter)

# The plugin's target, defined by plugin/gcc (added before tests/).
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

function(cw_add_program_tests suite)
  if(NOT CW_GCC_PLUGIN_TARGET OR NOT TARGET ${CW_GCC_PLUGIN_TARGET})
    message(STATUS "capture_window tests: no GCC plugin target, ${suite} tests skipped")
    return()
  endif()
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
    add_test(NAME ${suite}.${name}
      COMMAND Python3::Interpreter ${CW_TEST_TOOLS}/run_program_test.py
        --source ${CMAKE_CURRENT_SOURCE_DIR}/${source}
        --plugin $<TARGET_FILE:${CW_GCC_PLUGIN_TARGET}>
        --runtime $<TARGET_FILE:capture_window>
        --runtime-static $<TARGET_FILE:capture_window_static>
        --recorder $<TARGET_FILE:cw_nvtx_recorder>
        --fakecuda-dir $<TARGET_FILE_DIR:cw_fake_cuda_driver>
        "--include=$<TARGET_PROPERTY:CUDA::nvtx3,INTERFACE_INCLUDE_DIRECTORIES>"
        --include ${CW_TEST_TOOLS}/../../annotations
        --include ${CW_TEST_TOOLS}
        --cc ${CMAKE_C_COMPILER} --cxx ${CMAKE_CXX_COMPILER}
        --work-dir ${CMAKE_CURRENT_BINARY_DIR}/${name}
        ${extra})
    set_tests_properties(${suite}.${name} PROPERTIES LABELS ${suite} TIMEOUT 300
      ENVIRONMENT PYTHONDONTWRITEBYTECODE=1)
  endforeach()
endfunction()
