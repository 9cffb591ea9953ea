/*
 * options_fuzz.c - libFuzzer target for the runtime's environment parser
 * (runtime/options.c), and, built with -DCW_FUZZ_REPLAY, a plain program
 * that replays a corpus through the same entry point (CTest runs that).
 *
 * The input is one value per line for the variables of options.c's table,
 * in table order, then one for RANK; an empty line leaves the variable
 * unset.  Each input runs cw_config_load() exactly as a process start
 * would (setenv, then load) and then asks cw_loop_selected() about a few
 * sites; between inputs the parser's state goes back to its start.
 *
 * options.c is included rather than linked so that the target sees its
 * table and can reset its private state; the runtime itself is unchanged.
 */
#include "../../runtime/options.c"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct cw_config initial_config;
static int have_initial;

static void reset_options(void) {
  if (!have_initial) {
    initial_config = cw_config;
    have_initial = 1;
    return;
  }
  free(cw_config.windows);
  for (size_t k = 0; k < cw_config.n_loops; k++)
    free(cw_config.loops[k].name), free(cw_config.loops[k].instance);
  free(cw_config.loops);
  free(ranks_spec);
  ranks_spec = NULL;
  free(cw_config.times_path);
  free(cw_config.watch_path);
  times_pattern = NULL;
  cw_config = initial_config;
}

static void set_variable(const char *name, const char *start, size_t len) {
  char value[4096];
  if (len >= sizeof value) len = sizeof value - 1;
  memcpy(value, start, len);
  value[len] = '\0';
  if (len)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const size_t n_options = sizeof options / sizeof *options;
  const char *p = (const char *)data, *end = p + size;
  reset_options();
  for (size_t k = 0; k <= n_options; k++) {
    const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
    const char *stop = nl ? nl : end;
    set_variable(k < n_options ? options[k].name : "RANK", p, (size_t)(stop - p));
    p = nl ? nl + 1 : end;
  }
  cw_config_load();
  static struct cw_site_v2 sites[] = {
      {CW_ABI_VERSION, 12, "src/train.c", "main", "step", 30, 3, {0}},
      {CW_ABI_VERSION, 7, "eval.c", "eval", "eval", 0, 1, {0}},
      {CW_ABI_VERSION, 1, "", "", "x", 0, 1, {0}},
  };
  for (size_t k = 0; k < sizeof sites / sizeof *sites; k++) (void)cw_loop_selected(&sites[k]);
  return 0;
}

#ifdef CW_FUZZ_REPLAY
/* replay FILE|DIR...: every file once; exit status 0 if none crashed. */
#include <dirent.h>

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  static uint8_t buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  return 1;
}

int main(int argc, char **argv) {
  int files = 0;
  for (int i = 1; i < argc; i++) {
    DIR *dir = opendir(argv[i]);
    if (!dir) {
      files += replay_file(argv[i]);
      continue;
    }
    struct dirent *e;
    while ((e = readdir(dir))) {
      char path[4096];
      if (e->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      files += replay_file(path);
    }
    closedir(dir);
  }
  printf("replayed %d input(s)\n", files);
  return files ? 0 : 1;
}
#endif
