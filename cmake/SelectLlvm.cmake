# CW_LLVM_ROOT: the LLVM whose Clang the Clang plugin and the rewriter are
# built for (Debian/Ubuntu: /usr/lib/llvm-N). Default: the newest
# /usr/lib/llvm-N, N >= 14, that holds Clang's development files
# (libclang-N-dev). Sets CW_LLVM_VERSION to N (empty when none is found).
# CW_LLVM_TESTED: the newest LLVM the matrix checks (docs/compilers.md); a
# newer one is built for all the same, with a line that says so.
set(CW_LLVM_MIN 14)
set(CW_LLVM_TESTED 23)
if(NOT CW_LLVM_ROOT)
  file(GLOB cw_llvm_configs /usr/lib/llvm-*/lib/cmake/clang/ClangConfig.cmake)
  set(cw_newest 0)
  foreach(config IN LISTS cw_llvm_configs)
    string(REGEX MATCH "llvm-([0-9]+)/" _ ${config})
    if(CMAKE_MATCH_1 GREATER_EQUAL CW_LLVM_MIN AND CMAKE_MATCH_1 GREATER cw_newest)
      set(cw_newest ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(cw_newest)
    set(cw_default_root /usr/lib/llvm-${cw_newest})
  else()
    set(cw_default_root /usr/lib/llvm-${CW_LLVM_MIN})
  endif()
  set(CW_LLVM_ROOT ${cw_default_root} CACHE PATH
      "LLVM the Clang plugin and the rewriter are built for (/usr/lib/llvm-N)")
endif()
# N from llvm-config, else from the folder's name (the error then names
# the packages of that N).
set(CW_LLVM_VERSION "")
if(EXISTS ${CW_LLVM_ROOT}/bin/llvm-config)
  execute_process(COMMAND ${CW_LLVM_ROOT}/bin/llvm-config --version
    OUTPUT_VARIABLE cw_llvm_full OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX MATCH "^[0-9]+" CW_LLVM_VERSION "${cw_llvm_full}")
elseif(CW_LLVM_ROOT MATCHES "llvm-([0-9]+)/?$")
  set(CW_LLVM_VERSION ${CMAKE_MATCH_1})
endif()
if(CW_LLVM_VERSION AND CW_LLVM_VERSION LESS CW_LLVM_MIN)
  message(FATAL_ERROR "capture_window: CW_LLVM_ROOT=${CW_LLVM_ROOT} is LLVM "
    "${CW_LLVM_VERSION}; the Clang plugin and the rewriter need LLVM ${CW_LLVM_MIN} or newer")
endif()
if(CW_LLVM_VERSION GREATER CW_LLVM_TESTED)
  message(STATUS "capture_window: LLVM ${CW_LLVM_VERSION} is newer than the last tested, "
    "LLVM ${CW_LLVM_TESTED}; building for it anyway (docs/compilers.md)")
endif()
