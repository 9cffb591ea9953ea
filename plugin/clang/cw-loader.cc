/*
 * cw-loader.cc - capture_window_clang.so, the file clang loads (-fplugin=):
 * it loads the plugin itself, capture_window_clang_core.so from the same
 * folder, and, given to gcc, says that gcc wants capture_window.so
 * (cw-wrong-compiler.cc, in the same file).
 *
 * The plugin proper refers to clang's own symbols, which exist only inside
 * clang.  gcc resolves every symbol of a plugin as it loads it (dlopen
 * RTLD_NOW), so given the plugin proper it would stop at "undefined
 * symbol: _ZN5clang..." without a word of which file to use.  This file
 * refers to nothing of clang or GCC:
 *   - inside clang, its constructor loads the core as clang loads a plugin
 *     (RTLD_LAZY | RTLD_GLOBAL); the core's registry object adds the plugin
 *     to clang's list while clang is still loading this file, so clang
 *     finds it as if it had loaded the core itself (-fplugin-arg-
 *     capture_window-NAME and all);
 *   - inside GCC, which wants plugin_is_GPL_compatible and plugin_init,
 *     plugin_init reports the error through GCC's own error() and fails.
 * Any other process that opens the file (a linker, ldd, dlopen) gets a
 * library that does nothing.
 */
#include "cw_host.h"

#include <unistd.h>

namespace {

/* Inside clang: load the plugin proper; without it the compile would go
   on unmarked, so a failure ends it. */
__attribute__((constructor)) void loadCoreIntoClang() {
  if (cw_host_is_gcc() || !cw_host_is_clang()) return;
  char Dir[PATH_MAX], Core[PATH_MAX + 64];
  if (!cw_host_own_dir((const void *)&loadCoreIntoClang, Dir, sizeof Dir))
    snprintf(Dir, sizeof Dir, ".");
  snprintf(Core, sizeof Core, "%s/capture_window_clang_core.so", Dir);
  if (dlopen(Core, RTLD_LAZY | RTLD_GLOBAL)) return;
  fprintf(stderr, "error: capture_window_clang.so: cannot load its core: %s\n", dlerror());
  fflush(stderr);
  _exit(1);
}

} // namespace
