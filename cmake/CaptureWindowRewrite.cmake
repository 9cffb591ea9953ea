# capture_window_rewrite_sources(<target> [REWRITER <exe>] [RUNTIME <target>]
#                                [FLAGS <flag>...])
#
# Builds <target> from capture-window-rewrite's instrumented copies of its
# C, C++ and CUDA sources instead of the sources themselves: any compiler,
# no plugin (nvcc with any host compiler, NVHPC, icx, MSVC for C++).
# Each copy is made in the build tree (<binary dir>/cw_rewrite/<target>/)
# by a custom command that reruns when the source or the rewriter changes.
#
# The rewriter parses each source with the target's include directories and
# compile definitions, plus FLAGS (e.g. -std=c++17, -fopenmp); the copy is
# compiled with the folder of its original on the include path, so that
# quoted #includes still find their headers.  Call it after the target's
# sources are known.
#
# REWRITER  the rewriter (default: the capture_window_rewrite target in
#           the capture-window build, else capture-window-rewrite on PATH)
# RUNTIME   the runtime to link (default CaptureWindow::runtime)

function(capture_window_rewrite_sources target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "REWRITER;RUNTIME" "FLAGS")
  set(depends)
  if(NOT arg_REWRITER)
    if(TARGET capture_window_rewrite)
      set(arg_REWRITER $<TARGET_FILE:capture_window_rewrite>)
      set(depends capture_window_rewrite)
    else()
      find_program(CAPTURE_WINDOW_REWRITER capture-window-rewrite REQUIRED)
      set(arg_REWRITER ${CAPTURE_WINDOW_REWRITER})
      set(depends ${CAPTURE_WINDOW_REWRITER})
    endif()
  endif()
  if(NOT arg_RUNTIME)
    set(arg_RUNTIME CaptureWindow::runtime)
  endif()

  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/cw_rewrite/${target})
  set(new_sources)
  foreach(source IN LISTS sources)
    get_filename_component(ext ${source} LAST_EXT)
    if(NOT ext MATCHES "^\\.(c|cc|cpp|cxx|C|cu)$" OR source MATCHES "^\\$<")
      list(APPEND new_sources ${source})
      continue()
    endif()
    get_filename_component(path ${source} ABSOLUTE BASE_DIR ${source_dir})
    file(RELATIVE_PATH rel ${source_dir} ${path})
    string(REPLACE "../" "__/" rel "${rel}")
    set(copy ${out_dir}/${rel})
    get_filename_component(dir ${path} DIRECTORY)
    add_custom_command(OUTPUT ${copy}
      COMMAND ${arg_REWRITER} -o ${copy} ${path} --
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
              ${arg_FLAGS}
      DEPENDS ${path} ${depends}
      COMMENT "capture-window-rewrite ${rel}"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties(${copy} PROPERTIES INCLUDE_DIRECTORIES ${dir})
    list(APPEND new_sources ${copy})
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${new_sources})
  target_link_libraries(${target} PRIVATE ${arg_RUNTIME})
endfunction()
