/*
 * capture_window.so - the file GCC loads (-fplugin=): checks that this GCC
 * is the release the plugin was built for, then loads the plugin itself,
 * capture_window_core.so from the same folder, and hands over to it.
 *
 * GCC resolves every symbol of a plugin when it loads it (dlopen
 * RTLD_NOW), before the plugin can check the release: a plugin for another
 * GCC that uses a function whose C++ signature changed fails with
 * "undefined symbol: _Z..." and no word of the release.  This file uses
 * only plugin_default_version_check and error, which every GCC since 4.5
 * has, so the check is always reached and says which GCC to use.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "diagnostic-core.h"

#include <dlfcn.h>

#define CW_EXPORT __attribute__((visibility("default")))

CW_EXPORT int plugin_is_GPL_compatible;

/* Why this GCC is not the one the plugin was built for: another release,
   or the field of GCC's version record that differs within one. */
static void report_other_gcc(const char *file, const struct plugin_gcc_version *running) {
  static const char *const hint = "rebuild it with this GCC's g++ (docs/compilers.md)";
  if (strcmp(running->basever, gcc_version.basever) != 0) {
    error("%s was built for GCC %s, this is GCC %s; %s", file, gcc_version.basever,
          running->basever, hint);
    return;
  }
  const struct {
    const char *what, *built, *here;
  } fields[] = {
      {"datestamp", gcc_version.datestamp, running->datestamp},
      {"phase", gcc_version.devphase, running->devphase},
      {"revision", gcc_version.revision, running->revision},
      {"configuration", gcc_version.configuration_arguments, running->configuration_arguments},
  };
  for (const auto &f : fields)
    if (strcmp(f.built, f.here) != 0) {
      error("%s was built for another build of GCC %s: its %s is %qs, "
            "this GCC's is %qs; %s",
            file, running->basever, f.what, f.built, f.here, hint);
      return;
    }
}

CW_EXPORT int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    report_other_gcc(info->full_name, version);
    return 1;
  }
  /* dlopen searches the library path for a name without '/'. */
  const char *slash = strrchr(info->full_name, '/');
  char core[4096];
  if (slash)
    snprintf(core, sizeof core, "%.*s/capture_window_core.so", (int)(slash - info->full_name),
             info->full_name);
  else
    snprintf(core, sizeof core, "./capture_window_core.so");
  void *handle = dlopen(core, RTLD_NOW | RTLD_LOCAL);
  auto init = handle ? (int (*)(struct plugin_name_args *))dlsym(handle, "cw_core_init") : NULL;
  if (!init) {
    error("%s: cannot load its core: %s", info->full_name, dlerror());
    return 1;
  }
  return init(info);
}
