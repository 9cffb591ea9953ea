/*
 * cw_host.h - which compiler has loaded a plugin file, and where the other
 * plugin is.  Shared by plugin/gcc/cw-wrong-compiler.cc and plugin/clang/cw-loader.cc,
 * so that each plugin, given to the wrong compiler, names the right file.
 * Header only, plain C with no compiler headers: the two files it serves
 * are loaded by either compiler.
 */
#ifndef CW_HOST_H
#define CW_HOST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* readlink */

/* GCC's cc1, cc1plus and lto1 export their plugin API. */
static inline int cw_host_is_gcc(void) {
  return dlsym(RTLD_DEFAULT, "plugin_default_version_check") != NULL;
}

/* Every clang that loads plugins exports its plugin registry,
   llvm::Registry<clang::PluginASTAction>::add_node (LLVM 23 made Registry
   variadic, which changed its mangled name); failing that, a program
   named clang* (a newer LLVM may rename it again). */
static inline int cw_host_is_clang(void) {
  static const char *const registry[] = {
      "_ZN4llvm8RegistryIN5clang15PluginASTActionEE8add_nodeEPNS3_4nodeE",
      "_ZN4llvm8RegistryIN5clang15PluginASTActionEJEE8add_nodeEPNS3_4nodeE",
  };
  char exe[PATH_MAX];
  ssize_t n;
  for (size_t k = 0; k < sizeof registry / sizeof *registry; k++)
    if (dlsym(RTLD_DEFAULT, registry[k])) return 1;
  n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 0;
  exe[n] = '\0';
  const char *base = strrchr(exe, '/');
  return strncmp(base ? base + 1 : exe, "clang", 5) == 0;
}

/* The folder of the file that holds SELF (a function of it) into DIR:
   the path the compiler was given, so relative if that was. */
static inline int cw_host_own_dir(const void *self, char *dir, size_t size) {
  Dl_info info;
  if (!dladdr(self, &info) || !info.dli_fname) return 0;
  const char *slash = strrchr(info.dli_fname, '/');
  if (slash)
    snprintf(dir, size, "%.*s", (int)(slash - info.dli_fname), info.dli_fname);
  else
    snprintf(dir, size, ".");
  return 1;
}

/* The other plugin, NAME, into OUT (size PATH_MAX or more): its real path
   when it lies beside the file that holds SELF (an installed
   lib/capture-window/) or in the build tree's plugin/SUBDIR/; otherwise
   "PATH/NAME". */
static inline void cw_host_other_plugin(const void *self, const char *subdir, const char *name,
                                        char *out, size_t size) {
  char dir[PATH_MAX], beside[PATH_MAX + 64], in_build[PATH_MAX + 64];
  char real[PATH_MAX];
  if (cw_host_own_dir(self, dir, sizeof dir)) {
    snprintf(beside, sizeof beside, "%s/%s", dir, name);
    snprintf(in_build, sizeof in_build, "%s/../%s/%s", dir, subdir, name);
    if (realpath(beside, real) || realpath(in_build, real)) {
      snprintf(out, size, "%s", real);
      return;
    }
  }
  snprintf(out, size, "PATH/%s", name);
}

#endif
