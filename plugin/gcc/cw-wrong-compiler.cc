/*
 * cw-wrong-compiler.cc - capture_window.so given to clang
 * (clang -fplugin=...); part of the loader (cw-loader.cc).
 *
 * clang loads any shared object it is given and calls nothing in it that
 * it does not know: without this file the GCC plugin would load, mark no
 * loop and let the compile succeed (only -Wall's "unknown pragma ignored"
 * would hint at it).  A constructor, which runs as the file is loaded,
 * sees whose process it is in: inside clang (and not GCC), it names the
 * Clang plugin's file and ends the compile with exit status 1.  No GCC
 * diagnostic can be used there, so the message imitates clang's own.
 */
#include "cw_host.h"

#include <unistd.h>

namespace {

__attribute__((constructor)) void refuse_clang() {
  if (cw_host_is_gcc() || !cw_host_is_clang()) return;
  char clang_plugin[PATH_MAX + 64];
  cw_host_other_plugin((const void *)&refuse_clang, "clang", "capture_window_clang.so",
                       clang_plugin, sizeof clang_plugin);
  fprintf(stderr,
          "error: capture_window.so is the GCC plugin; for clang "
          "use -fplugin=%s\n",
          clang_plugin);
  fflush(stderr);
  _exit(1);
}

} // namespace
