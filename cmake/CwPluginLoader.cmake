# cw_add_plugin_loader(<loader> <core> <name> <loader sources>...): each
# plugin is two shared objects: <name>.so (target <loader>), the file
# -fplugin= names, which refers to next to nothing of its compiler, checks
# where it is loaded and loads <name>_core.so (target <core>, already
# added) from its own folder. Both get the plugin file conventions: no lib
# prefix, .so, hidden symbols.
function(cw_add_plugin_loader loader core name)
  add_library(${loader} MODULE ${ARGN})
  target_link_libraries(${loader} PRIVATE ${CMAKE_DL_LIBS})
  target_include_directories(${loader} PRIVATE ${PROJECT_SOURCE_DIR}/plugin/common)
  set_target_properties(${loader} PROPERTIES OUTPUT_NAME ${name})
  set_target_properties(${core} PROPERTIES OUTPUT_NAME ${name}_core)
  # What uses the plugin's file (the tests, capture_window_instrument())
  # gets the core built, and the loader is relinked with a new core so that
  # it is rebuilt.
  add_dependencies(${loader} ${core})
  set_property(TARGET ${loader} APPEND PROPERTY
    LINK_DEPENDS $<TARGET_FILE:${core}>)
  set_target_properties(${loader} ${core} PROPERTIES
    PREFIX ""
    SUFFIX ".so"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()
