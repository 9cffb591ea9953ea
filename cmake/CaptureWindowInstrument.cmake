# capture_window_instrument(<target> [PLUGIN <path>] [RUNTIME <target>]
#                           [LOOPS <spec>...])
#
# Compiles <target>'s C, C++ and CUDA sources with the capture-window GCC
# plugin and links the capture-window runtime, so that every
# `#pragma capture_window(...)` loop in them emits its window:
#
#   C, C++  -fplugin=<plugin>
#   CUDA    -Xcompiler=-fplugin=<plugin>   (nvcc hands host code to g++)
#
# Every source of <target> depends on the plugin file, so the objects wait
# for the plugin and are rebuilt when it changes. Call it after the target's
# sources are known (add_executable/add_library, target_sources).
#
# PLUGIN   the plugin file (default: the one this module was set up with:
#          the installed lib/capture-window/capture_window.so, or the
#          build tree's in the capture-window project itself)
# RUNTIME  the runtime to link (default CaptureWindow::runtime, the shared
#          library; CaptureWindow::runtime_static links it statically)
# LOOPS    loops to mark without editing the sources (zero-edit marking,
#          docs/zero-edit.md): FILE:LINE[:START:COUNT[:LABEL]] or
#          FUNCTION[:START:COUNT[:LABEL]].  A FILE:LINE spec goes to the
#          sources of <target> whose path ends in FILE (at a '/') as
#          -fplugin-arg-capture_window-loop=SPEC, so a line that holds no
#          loop is a compile error there; any other spec (FUNCTION, or a
#          FILE none of the sources is, such as a header) goes to every
#          source as -fplugin-arg-capture_window-loop-optional=SPEC, which
#          marks the loop where it is and is silent elsewhere.
#
# The plugin matches exactly one GCC release. A C, C++ or CUDA host compiler
# that is not that GCC fails to load it, so this warns at configure time.
#
# This file serves both the installed package (CaptureWindowConfig.cmake
# includes it) and the capture-window build itself (cw_instrument_with_gcc_plugin).

cmake_minimum_required(VERSION 3.18)  # set_property(SOURCE ... TARGET_DIRECTORY)

# _capture_window_gcc_mismatch(<lang> <out>): empty if <lang>'s compiler is
# the GCC the plugin was built for, else a description of the compiler.
function(_capture_window_gcc_mismatch lang out)
  get_property(want GLOBAL PROPERTY CAPTURE_WINDOW_GCC_VERSION)
  set(${out} "" PARENT_SCOPE)
  if(lang STREQUAL "CUDA")
    # CMake does not report nvcc's host compiler; ask it (cached per path).
    set(host "${CMAKE_CUDA_HOST_COMPILER}")
    if(NOT host)
      set(host g++)  # what nvcc runs when -ccbin is not given
    endif()
    string(MAKE_C_IDENTIFIER "CAPTURE_WINDOW_HOST_${host}" var)
    if(NOT DEFINED ${var})
      execute_process(COMMAND ${host} -dumpfullversion OUTPUT_VARIABLE v
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      execute_process(COMMAND ${host} --version OUTPUT_VARIABLE banner ERROR_QUIET)
      if(banner MATCHES "clang")
        set(v "clang")
      endif()
      set(${var} "${v}" CACHE INTERNAL "")
    endif()
    set(id GNU)
    set(version "${${var}}")
    if(version STREQUAL "clang" OR version STREQUAL "")
      set(id "${version}")
    endif()
    set(what "nvcc's host compiler ${host}")
  else()
    set(id "${CMAKE_${lang}_COMPILER_ID}")
    set(version "${CMAKE_${lang}_COMPILER_VERSION}")
    set(what "the ${lang} compiler ${CMAKE_${lang}_COMPILER}")
  endif()
  if(NOT id STREQUAL "GNU")
    set(${out} "${what} is not GCC (${id})" PARENT_SCOPE)
  elseif(want AND NOT version VERSION_EQUAL want)
    set(${out} "${what} is GCC ${version}" PARENT_SCOPE)
  endif()
endfunction()

# _capture_window_loop_option(<spec> <key> <out>): the compile options that
# pass -fplugin-arg-capture_window-<key>=<spec> to C, C++ and CUDA sources.
function(_capture_window_loop_option spec key out)
  set(arg "-fplugin-arg-capture_window-${key}=${spec}")
  set(${out} "$<$<COMPILE_LANGUAGE:C,CXX>:${arg}>"
             "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${arg}>" PARENT_SCOPE)
endfunction()

# _capture_window_add_loops(<target> <files> <spec>...): LOOPS, as described
# above; <files> are the target's sources as absolute paths.
function(_capture_window_add_loops target files)
  foreach(spec IN LISTS ARGN)
    string(REGEX REPLACE "^([^:]*):.*$" "\\1" head "${spec}")
    set(matching)
    if(head MATCHES "[./]")
      foreach(file IN LISTS files)
        string(LENGTH "${file}" n)
        string(LENGTH "/${head}" m)
        if(n GREATER_EQUAL m)
          math(EXPR at "${n} - ${m}")
          string(SUBSTRING "${file}" ${at} -1 tail)
          if(tail STREQUAL "/${head}" OR file STREQUAL head)
            list(APPEND matching "${file}")
          endif()
        endif()
      endforeach()
    endif()
    if(matching)
      _capture_window_loop_option("${spec}" loop options)
      set_property(SOURCE ${matching} TARGET_DIRECTORY ${target}
                   APPEND PROPERTY COMPILE_OPTIONS ${options})
    else()
      _capture_window_loop_option("${spec}" loop-optional options)
      target_compile_options(${target} PRIVATE ${options})
    endif()
  endforeach()
endfunction()

function(capture_window_instrument target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PLUGIN;RUNTIME" "LOOPS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "capture_window_instrument: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "capture_window_instrument: '${target}' is not a target")
  endif()
  set(plugin "${arg_PLUGIN}")
  if(NOT plugin)
    get_property(plugin GLOBAL PROPERTY CAPTURE_WINDOW_GCC_PLUGIN)
  endif()
  if(NOT plugin)
    message(FATAL_ERROR "capture_window_instrument(${target}): no GCC plugin: this "
      "capture-window was built with CW_BUILD_GCC_PLUGIN=OFF (or pass PLUGIN <path>)")
  endif()
  set(runtime "${arg_RUNTIME}")
  if(NOT runtime)
    set(runtime CaptureWindow::runtime)
  endif()

  # Warn once per language about a compiler that cannot load the plugin.
  get_property(want GLOBAL PROPERTY CAPTURE_WINDOW_GCC_VERSION)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(lang C CXX CUDA)
    get_property(warned GLOBAL PROPERTY CAPTURE_WINDOW_WARNED_${lang})
    if(NOT lang IN_LIST languages OR warned)
      continue()
    endif()
    _capture_window_gcc_mismatch(${lang} mismatch)
    if(mismatch)
      message(WARNING
        "capture_window_instrument(${target}): ${mismatch}, but the "
        "capture-window plugin ${plugin} loads only into GCC ${want}, the "
        "release it was built with. ${lang} sources will fail to compile "
        "with it (\"plugin ... was built for a different GCC version\"). "
        "Configure with CMAKE_${lang}_COMPILER (CUDA: CMAKE_CUDA_HOST_COMPILER) "
        "set to that GCC, or rebuild capture-window with your compiler.")
      set_property(GLOBAL PROPERTY CAPTURE_WINDOW_WARNED_${lang} TRUE)
    endif()
  endforeach()

  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:-fplugin=${plugin}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fplugin=${plugin}>)
  target_link_libraries(${target} PRIVATE ${runtime})

  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  set(files)
  foreach(source IN LISTS sources)
    if(source MATCHES "^\\$<")  # a generator expression: not a plain file
      continue()
    endif()
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${dir}")
    list(APPEND files "${source}")
  endforeach()
  if(files)
    set_property(SOURCE ${files} TARGET_DIRECTORY ${target}
                 APPEND PROPERTY OBJECT_DEPENDS "${plugin}")
  endif()
  _capture_window_add_loops(${target} "${files}" ${arg_LOOPS})
endfunction()
