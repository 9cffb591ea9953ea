/*
 * cw-wrong-compiler.cc - capture_window_clang.so given to gcc
 * (gcc -fplugin=...): GCC asks every plugin for plugin_is_GPL_compatible
 * and plugin_init, and this plugin_init names the GCC plugin's file and
 * fails, through GCC's own error() when it can find it.  Part of the
 * loader (cw-loader.cc), which refers to nothing of clang or GCC.
 */
#include "cw_host.h"

#define CW_EXPORT __attribute__((visibility("default")))

/* What GCC's plugin loader asks for before it calls plugin_init. */
extern "C" {
CW_EXPORT int plugin_is_GPL_compatible;
}

/* GCC calls this (struct plugin_name_args *, struct plugin_gcc_version *):
   never the plugin for GCC, so the error names the one that is. */
extern "C" CW_EXPORT int plugin_init(void *, void *) {
  char GccPlugin[PATH_MAX + 64];
  cw_host_other_plugin((const void *)&plugin_init, "gcc", "capture_window.so", GccPlugin,
                       sizeof GccPlugin);
  static const char Format[] =
      "capture_window_clang.so is the Clang plugin; for gcc use -fplugin=%s";
  /* GCC's error (const char *, ...), so the line reads like GCC's own. */
  auto GccError = (void (*)(const char *, ...))dlsym(RTLD_DEFAULT, "_Z5errorPKcz");
  if (GccError) {
    GccError(Format, GccPlugin);
  } else {
    fprintf(stderr, "error: ");
    fprintf(stderr, Format, GccPlugin);
    fprintf(stderr, "\n");
  }
  return 1;
}
