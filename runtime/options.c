/*
 * options.c - the run-time policy, read from the environment once.
 *
 * Every variable is one row of `options`: its name, its default, a strict
 * parser and the form shown when its value is bad; the default is a value
 * that parser reads first (or none: the variable is unset), so that no
 * default lives anywhere else. CAPTURE_WINDOW_VERBOSE=1 prints every
 * setting the run ended up with, and where it came from (the environment,
 * the default, a bad value's fallback), as its first verbose line
 * (report_settings). A bad value never stops the program: it
 * prints one line that names the variable, quotes the value, says what is
 * wrong with it (the parser's reason, through bad()) and shows the accepted
 * form; the run then behaves as CAPTURE_WINDOW=off, unless the variable only
 * changes what is printed (_VERBOSE, _SELFCHECK): that value is ignored and
 * capture stays on. An empty value counts as unset, so
 * `CAPTURE_WINDOW= ./train` restores the default. A CAPTURE_WINDOW_*
 * variable of no row (a typo) gets one line naming the closest row
 * (unknown_variables.c).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_window/loop_spec.h"
#include "capture_window/ranks.h"
#include "capture_window/windows.h"
#include "internal.h"

/* Zero until cw_config_load: each variable's default is its row's in
   `options`, set by that row's own parser. */
struct cw_config cw_config;

/* CAPTURE_WINDOW_RANKS as given, once valid; NULL = all ranks. */
static char *ranks_spec;

/* ---- small strict parsers -------------------------------------------- */

/* Why the value being parsed is bad: set by bad(), printed by reject(). */
static char reason[192];

static bool bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool bad(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  return false;
}

/* A decimal number in [min, 2^62] filling [s, end), by the loop spec
   engine's number rule and words (capture_window/loop_spec.h); `what`
   names it in the reason (COUNT, LINE, ...; NULL: the whole value, which
   the message quotes already). */
static bool parse_number(const char *what, const char *s, const char *end, long long min,
                         long long *out) {
  char why[128];
  if (s == end && what) return bad("%s is missing", what);
  if (!cw_number_parse_v1(s, (size_t)(end - s), what, min, CW_VALUE_MAX, out, why, sizeof why))
    return true;
  return what ? bad("%s, got '%.*s'", why, (int)(end - s), s) : bad("%s", why);
}

static bool parse_whole_number(const char *value, long long min, long long *out) {
  return parse_number(NULL, value, value + strlen(value), min, out);
}

/* Appends *item (size bytes) to array, which holds *n items: the grown
   array, or NULL (array unchanged) when out of memory. */
static void *append_item(void *array, size_t *n, size_t size, const void *item) {
  char *grown = realloc(array, (*n + 1) * size);
  if (grown) {
    memcpy(grown + *n * size, item, size);
    ++*n;
  } else {
    bad("out of memory");
  }
  return grown;
}

/* The next comma of s outside <...> (an instantiation's name, tmpl<int,long>,
   holds commas), or NULL. */
static const char *next_comma(const char *s) {
  for (int depth = 0; *s; s++)
    if (*s == '<')
      depth++;
    else if (*s == '>' && depth > 0)
      depth--;
    else if (*s == ',' && depth == 0)
      return s;
  return NULL;
}

/* Calls `item` on each comma-separated piece; false if one is empty or bad. */
static bool for_each_item(const char *value, bool (*item)(const char *, const char *)) {
  for (const char *s = value;;) {
    const char *comma = next_comma(s);
    const char *end = comma ? comma : s + strlen(s);
    if (s == end) return bad("an empty item %s", comma ? "before a ','" : "after the last ','");
    if (!item(s, end)) return false;
    if (!comma) return true;
    s = comma + 1;
  }
}

/* ---- CAPTURE_WINDOW ---------------------------------------------------- */

/* Splits [s, end) at the first `sep` into [s, *mid) and (*mid, end). */
static bool split(const char *s, const char *end, char sep, const char **mid) {
  *mid = memchr(s, sep, (size_t)(end - s));
  return *mid != NULL;
}

/* The words of CAPTURE_WINDOW that stand alone, never in a list. */
static bool is_alone_word(const char *s, const char *end) {
  size_t len = (size_t)(end - s);
  return (len == 3 && memcmp(s, "off", 3) == 0) || (len == 4 && memcmp(s, "none", 4) == 0) ||
         (len >= 5 && memcmp(s, "auto:", 5) == 0) || (len >= 6 && memcmp(s, "spike:", 6) == 0);
}

/* START:COUNT, START:COUNT/EVERY or START:COUNT/EVERYxTIMES. */
static bool add_window(const char *s, const char *end) {
  struct cw_window w = {0};
  const char *colon, *slash, *x;
  int len = (int)(end - s);
  if (is_alone_word(s, end)) return bad("'%.*s' stands alone, not in a list", len, s);
  /* auto and spike alone: the word is right, its COUNT is missing */
  if ((len == 4 && memcmp(s, "auto", 4) == 0) || (len == 5 && memcmp(s, "spike", 5) == 0))
    return bad("%.*s needs :COUNT (%.*s:3)", len, s, len, s);
  if (!split(s, end, ':', &colon)) return bad("'%.*s' has no ':'", len, s);
  if (!parse_number("START", s, colon, 0, &w.start)) return false;
  const char *count_end = split(colon + 1, end, '/', &slash) ? slash : end;
  if (!parse_number("COUNT", colon + 1, count_end, 1, &w.count)) return false;
  if (slash) {
    const char *every_end = split(slash + 1, end, 'x', &x) ? x : end;
    if (!parse_number("EVERY", slash + 1, every_end, 1, &w.every)) return false;
    if (w.every < w.count)
      return bad("EVERY must be >= COUNT (%lld), got %lld in '%.*s'", w.count, w.every, len, s);
    if (x && !parse_number("TIMES", x + 1, end, 1, &w.times)) return false;
  }
  struct cw_window *grown = append_item(cw_config.windows, &cw_config.n_windows, sizeof w, &w);
  if (grown) cw_config.windows = grown;
  return grown != NULL;
}

static int by_start(const void *a, const void *b) {
  long long x = ((const struct cw_window *)a)->start;
  long long y = ((const struct cw_window *)b)->start;
  return (x > y) - (x < y);
}

/* Sorted for the verbose log and the exit report. Two one-off windows that
   overlap are a mistake worth reporting; a periodic window that meets
   another is not (the later start is skipped while one is open). */
static bool sort_and_check_windows(void) {
  qsort(cw_config.windows, cw_config.n_windows, sizeof *cw_config.windows, by_start);
  const struct cw_window *before = NULL; /* the one-off window before w */
  for (size_t k = 0; k < cw_config.n_windows; k++) {
    const struct cw_window *w = &cw_config.windows[k];
    if (w->every) continue;
    if (before && w->start <= before->start + before->count - 1)
      return bad("windows %lld:%lld and %lld:%lld overlap", before->start, before->count, w->start,
                 w->count);
    before = w;
  }
  return true;
}

static bool parse_windows(const char *value) {
  if (strcmp(value, "off") == 0) {
    cw_config.off = true;
    return true;
  }
  if (strcmp(value, "none") == 0) {
    cw_config.none = true;
    return true;
  }
  if (strncmp(value, "auto:", 5) == 0) {
    const char *count = value + 5;
    return parse_number("COUNT", count, count + strlen(count), 1, &cw_config.auto_count);
  }
  if (strncmp(value, "spike:", 6) == 0) { /* spike:COUNT[xTIMES] */
    const char *count = value + 6, *end = count + strlen(count), *x;
    cw_config.spike_times = 1;
    bool has_x = split(count, end, 'x', &x);
    return parse_number("COUNT", count, has_x ? x : end, 1, &cw_config.spike_count) &&
           (!has_x || parse_number("TIMES", x + 1, end, 1, &cw_config.spike_times));
  }
  return for_each_item(value, add_window) && sort_and_check_windows();
}

/* parse_windows fills cw_config; the call borrows it, so that the command
   reads a value with the very parser the run uses. The library's own config
   was loaded before any caller could run, and is put back whole. */
CW_WINDOWS_EXPORT int cw_windows_parse_v1(const char *spec, struct cw_window_v1 *out, int max) {
  if (!spec || !*spec) return 0;
  struct cw_config saved = cw_config;
  cw_config.windows = NULL, cw_config.n_windows = 0, cw_config.off = cw_config.none = false;
  cw_config.auto_count = cw_config.spike_count = cw_config.spike_times = 0;
  int n = parse_windows(spec) ? (int)cw_config.n_windows : -1;
  struct cw_window_v1 one = {
      .start = -1, .count = cw_config.auto_count, .placed = CW_PLACED_BY_AUTO};
  if (n >= 0 && cw_config.spike_count)
    one.count = cw_config.spike_count, one.times = cw_config.spike_times,
    one.placed = CW_PLACED_BY_SPIKE;
  if (n >= 0 && one.count) {
    n = 1;
    if (max > 0) out[0] = one;
  }
  for (int k = 0; k < (int)cw_config.n_windows && k < max; k++) {
    const struct cw_window *w = &cw_config.windows[k];
    out[k] = (struct cw_window_v1){w->start, w->count, w->every, w->times, CW_PLACED_AT_START};
  }
  free(cw_config.windows);
  cw_config = saved;
  return n;
}

/* ---- CAPTURE_WINDOW_LOOPS ---------------------------------------------- */

static bool add_loop_selector(const char *s, const char *end) {
  struct cw_loop_selector sel = {0};
  const char *at = memchr(s, '@', (size_t)(end - s)), *whole_end = end;
  if (at) { /* ...@INSTANCE, copied once the rest is valid */
    if (at + 1 == end) return bad("INSTANCE is missing after '@' in '%.*s'", (int)(end - s), s);
    end = at;
  }
  const char *colon = memrchr(s, ':', (size_t)(end - s));
  int len = (int)(end - s);
  if (colon) { /* FILE:LINE */
    long long line;
    if (colon == s) return bad("FILE is missing in '%.*s'", len, s);
    if (!parse_number("LINE", colon + 1, end, 1, &line)) return false;
    if (line > UINT32_MAX) return bad("LINE must be <= %u, got %lld", UINT32_MAX, line);
    sel.line = (unsigned int)line;
    end = colon;
  } else { /* LABEL */
    if (!cw_label_is_valid_v1(s, (size_t)len))
      return bad("LABEL must match [A-Za-z0-9_.-]{1,63}, got '%.*s'", len, s);
  }
  if (at && !(sel.instance = strndup(at + 1, (size_t)(whole_end - at - 1))))
    return bad("out of memory");
  if (!(sel.name = strndup(s, (size_t)(end - s)))) return free(sel.instance), bad("out of memory");
  struct cw_loop_selector *grown =
      append_item(cw_config.loops, &cw_config.n_loops, sizeof sel, &sel);
  if (grown)
    cw_config.loops = grown;
  else
    free(sel.name), free(sel.instance);
  return grown != NULL;
}

static bool parse_loops(const char *value) { return for_each_item(value, add_loop_selector); }

static bool instance_matches(const struct cw_site_v2 *site, const char *wanted) {
  char name[CW_INSTANCE_MAX];
  return !wanted || (cw_site_instance(site, name, sizeof name) && strcmp(name, wanted) == 0);
}

bool cw_loop_selected(const struct cw_site_v2 *site) {
  if (!cw_config.loops) return true;
  for (size_t k = 0; k < cw_config.n_loops; k++) {
    const struct cw_loop_selector *sel = &cw_config.loops[k];
    if ((sel->line ? sel->line == site->line && cw_path_ends_in_v1(site->file, sel->name)
                   : strcmp(sel->name, site->label) == 0) &&
        instance_matches(site, sel->instance))
      return true;
  }
  return false;
}

/* ---- CAPTURE_WINDOW_RANKS ---------------------------------------------- */

/* The grammar of CAPTURE_WINDOW_RANKS, in its one place: the runtime's own
   parse and cw_rank_selected_v1 (capture_window/ranks.h) both run
   ranks_hold. rank_item checks one item and notes whether it holds
   wanted_rank. */
static long long wanted_rank;
static bool rank_held;

static bool rank_item(const char *s, const char *end) {
  const char *dash = memchr(s, '-', (size_t)(end - s));
  long long first, last;
  if (!dash) {
    if (!parse_number("RANK", s, end, 0, &first)) return false;
    last = first;
  } else if (!parse_number("FIRST", s, dash, 0, &first) ||
             !parse_number("LAST", dash + 1, end, 0, &last)) {
    return false;
  } else if (last < first) {
    return bad("LAST must be >= FIRST (%lld), got %lld", first, last);
  }
  rank_held = rank_held || (wanted_rank >= first && wanted_rank <= last);
  return true;
}

/* 1 when VALUE opens windows in RANK, 0 when not, -1 when VALUE is bad. */
static int ranks_hold(const char *value, long long rank) {
  if (strcmp(value, "all") == 0) return 1;
  wanted_rank = rank, rank_held = false;
  if (!for_each_item(value, rank_item)) return -1;
  return rank_held;
}

static bool parse_ranks(const char *value) {
  if (ranks_hold(value, 0) < 0) return false;
  free(ranks_spec);
  ranks_spec = strcmp(value, "all") == 0 ? NULL : strdup(value);
  return ranks_spec || strcmp(value, "all") == 0 || bad("out of memory");
}

CW_RANKS_EXPORT int cw_rank_selected_v1(const char *spec, long long rank) {
  if (!spec || !*spec) return 1; /* unset */
  return rank < 0 ? -1 : ranks_hold(spec, rank);
}

static bool parse_rank(const char *value) { return parse_whole_number(value, 0, &cw_config.rank); }

/* The reason of a value that is none of a variable's words. */
static bool no_such_choice(void) { return bad("no such choice"); }

/* ---- CAPTURE_WINDOW_TRIGGER / _VERBOSE --------------------------------- */

static bool parse_trigger(const char *value) {
  static const struct {
    const char *name;
    int bits;
  } forms[] = {
      {"both", CW_TRIGGER_CUDA | CW_TRIGGER_NVTX},
      {"cuda", CW_TRIGGER_CUDA},
      {"nvtx", CW_TRIGGER_NVTX},
  };
  for (size_t k = 0; k < sizeof forms / sizeof *forms; k++)
    if (strcmp(value, forms[k].name) == 0) {
      cw_config.trigger = forms[k].bits;
      return true;
    }
  return no_such_choice();
}

static bool parse_flag(const char *value, int *flag) {
  if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) return no_such_choice();
  *flag = value[0] == '1';
  return true;
}

static bool parse_verbose(const char *value) {
  int flag = 0;
  if (!parse_flag(value, &flag)) return false;
  cw_config.verbose = flag;
  return true;
}

/* -1 until set: the self-check then follows verbose or an attached tool. */
static int self_check_setting = -1;

static bool parse_self_check(const char *value) { return parse_flag(value, &self_check_setting); }

/* ---- CAPTURE_WINDOW_SIGNAL / _ALIGN / _COUNT / _STEPS ------------------- */

static bool parse_signal(const char *value) {
  if (strncmp(value, "SIG", 3) == 0) value += 3;
  if (strcmp(value, "USR1") == 0)
    cw_config.signal_number = SIGUSR1;
  else if (strcmp(value, "USR2") == 0)
    cw_config.signal_number = SIGUSR2;
  else
    return no_such_choice();
  return true;
}

static bool parse_align(const char *value) {
  return parse_whole_number(value, 1, &cw_config.align);
}

static bool parse_count_setting(const char *value) {
  return parse_whole_number(value, 1, &cw_config.count);
}

static bool parse_steps(const char *value) {
  static const char *const forms[] = {
      [CW_STEPS_ALL] = "all", [CW_STEPS_WINDOW] = "window", [CW_STEPS_OFF] = "off"};
  for (int k = 0; k < 3; k++)
    if (strcmp(value, forms[k]) == 0) {
      cw_config.steps = k;
      return true;
    }
  return no_such_choice();
}

/* ---- CAPTURE_WINDOW_TIMES ---------------------------------------------- */

/* The path as given; expanded once the rank is known (expand_times_path). */
static const char *times_pattern;

/* Any path whose `%` are %p (pid), %r (rank) or %% (a `%`). */
static bool parse_times(const char *value) {
  for (const char *c = strchr(value, '%'); c; c = strchr(c + 2, '%')) {
    if (!c[1]) return bad("a lone %% ends it");
    if (c[1] != 'p' && c[1] != 'r' && c[1] != '%') return bad("%%%c is not %%p, %%r or %%%%", c[1]);
  }
  times_pattern = value;
  return true;
}

/* Whether the path holds %C, C being p or r (not %%C). */
static bool times_pattern_has(char c) {
  for (const char *at = strchr(times_pattern, '%'); at; at = strchr(at + 2, '%'))
    if (at[1] == c) return true;
  return false;
}

static void expand_times_path(void) {
  char path[4096];
  size_t len = 0;
  for (const char *c = times_pattern; *c && len < sizeof path - 24; c++) {
    if (*c != '%') {
      path[len++] = *c;
      continue;
    }
    c++;
    if (*c == '%')
      path[len++] = '%';
    else
      len += (size_t)snprintf(path + len, 24, "%lld",
                              *c == 'p' ? (long long)getpid() : cw_config.rank);
  }
  path[len] = '\0';
  cw_config.times_path = strdup(path);
}

/* ---- CAPTURE_WINDOW_WATCH ---------------------------------------------- */

/* A file's path whose folder exists: the trigger renames its requests
   into that folder (watch.h), and the ranks answer beside it. */
static bool parse_watch(const char *value) {
  size_t len = strlen(value);
  if (value[len - 1] == '/') return bad("it names a folder, not a file");
  if (len > 4000) return bad("longer than 4000 bytes");
  const char *slash = strrchr(value, '/');
  char *folder = slash == value ? strdup("/")
                 : slash        ? strndup(value, (size_t)(slash - value))
                                : strdup(".");
  struct stat st;
  bool is_folder = folder && stat(folder, &st) == 0 && S_ISDIR(st.st_mode);
  if (!is_folder) {
    bad("its folder '%s' is not a folder this process can reach", folder ? folder : "?");
    free(folder);
    return false;
  }
  free(folder);
  free(cw_config.watch_path);
  cw_config.watch_path = strdup(value);
  return cw_config.watch_path || bad("out of memory");
}

/* ---- the table ---------------------------------------------------------- */

/* What a bad value does. A variable that decides what is captured turns
   capture off: a guess would capture other steps than asked. One that only
   changes what is printed cannot make the capture wrong: it is ignored. */
enum when_bad { CAPTURE_OFF, IGNORED };

/* One variable: its name, its default, its parser and the form shown when
   its value is bad. `preset` is the default as a value `parse` reads, run
   through it before the environment is (so a default lives in its row, as
   in mimalloc's table); NULL when the variable has no value by default,
   `unset_means` then saying, where a front door decides instead, what
   does. docs/environment.md's table shows the same defaults. */
struct option {
  const char *name;
  const char *preset;
  const char *unset_means;
  const char *accepted;
  bool (*parse)(const char *value);
  enum when_bad when_bad;
};

static const struct option options[] = {
    {"CAPTURE_WINDOW", NULL, "each loop's own window",
     "off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]",
     parse_windows, CAPTURE_OFF},
    {"CAPTURE_WINDOW_LOOPS", NULL, NULL, "LABEL or FILE:LINE, each [@INSTANCE][,...]", parse_loops,
     CAPTURE_OFF},
    {"CAPTURE_WINDOW_RANKS", "all", NULL, "all or RANK or FIRST-LAST[,...]", parse_ranks,
     CAPTURE_OFF},
    {"CAPTURE_WINDOW_TRIGGER", "both", NULL, "both, cuda or nvtx", parse_trigger, CAPTURE_OFF},
    {"CAPTURE_WINDOW_VERBOSE", "0", NULL, "0 or 1", parse_verbose, IGNORED},
    {"CAPTURE_WINDOW_SIGNAL", NULL, NULL, "USR1 or USR2", parse_signal, CAPTURE_OFF},
    {"CAPTURE_WINDOW_ALIGN", "1", NULL, "a positive integer", parse_align, CAPTURE_OFF},
    {"CAPTURE_WINDOW_COUNT", NULL, "each loop's own COUNT", "a positive integer",
     parse_count_setting, CAPTURE_OFF},
    {"CAPTURE_WINDOW_STEPS", "all", NULL, "all, window or off", parse_steps, CAPTURE_OFF},
    {"CAPTURE_WINDOW_SELFCHECK", NULL, "on when verbose or under an NVTX tool", "0 or 1",
     parse_self_check, IGNORED},
    {"CAPTURE_WINDOW_TIMES", NULL, NULL, "a path; %p is the pid, %r the rank, %% a %", parse_times,
     CAPTURE_OFF},
    {"CAPTURE_WINDOW_WATCH", NULL, NULL,
     "the path of a file in an existing folder, shared by the nodes", parse_watch, CAPTURE_OFF},
};

#define N_OPTIONS (sizeof options / sizeof *options)

/* The family's variables that others read: the Python door's loader. */
static const char *const read_elsewhere[] = {"CAPTURE_WINDOW_LIBRARY"};
#define N_ELSEWHERE (sizeof read_elsewhere / sizeof *read_elsewhere)

const char *cw_option_name(size_t k) {
  return k < N_OPTIONS                 ? options[k].name
         : k < N_OPTIONS + N_ELSEWHERE ? read_elsewhere[k - N_OPTIONS]
                                       : NULL;
}

/* The launchers' rank variables, first set wins (contract section 4). */
static const char *const rank_variables[] = {
    "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
};

CW_RANKS_EXPORT const char *cw_rank_variable_v1(int k) {
  return k >= 0 && (size_t)k < sizeof rank_variables / sizeof *rank_variables ? rank_variables[k]
                                                                              : NULL;
}

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

static bool reject(const char *name, const char *value, const char *accepted) {
  cw_log("%s='%s' is invalid: %s (expected %s); capture is off for this run", name, value, reason,
         accepted);
  cw_config.off = true;
  return false;
}

static void ignore(const char *name, const char *value, const char *accepted) {
  cw_log("%s='%s' is invalid: %s (expected %s); ignored: it only changes what is printed", name,
         value, reason, accepted);
}

/* ---- the settings the run ended up with --------------------------------- */

/* Where each setting came from (mimalloc's init states): its row's
   default, the environment, or the default after a bad value. */
enum source { FROM_DEFAULT, FROM_ENVIRONMENT, FROM_BAD_VALUE };
static enum source sources[N_OPTIONS];

/* The groups of the settings line, in this order. */
enum group { SET, PRESET, UNSET, N_GROUPS };

static enum group group_of(size_t k) {
  return sources[k] == FROM_ENVIRONMENT ? SET : options[k].preset ? PRESET : UNSET;
}

static void print_setting(FILE *out, size_t k) {
  const struct option *o = &options[k];
  if (sources[k] == FROM_ENVIRONMENT) {
    fprintf(out, "%s=%s", o->name, env(o->name));
    return;
  }
  if (o->preset)
    fprintf(out, "%s=%s", o->name, o->preset);
  else
    fprintf(out, o->unset_means ? "%s (%s)" : "%s", o->name, o->unset_means);
  if (sources[k] == FROM_BAD_VALUE)
    fprintf(out, " (not '%s': invalid%s)", env(o->name),
            o->when_bad == CAPTURE_OFF ? ", capture is off" : "");
}

/* CAPTURE_WINDOW_VERBOSE=1's first line: every variable, grouped by where
   its value came from, each group in the table's order. One line in all,
   so that a verbose run gains one line and each rank's settings stay
   whole on a pipe that ranks share (cw_log). */
static void report_settings(void) {
  static const char *const labels[N_GROUPS] = {"from the environment", "by default", "unset"};
  char *line = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&line, &size);
  if (!out) return;
  fputs("settings", out);
  const char *between_groups = " ";
  for (enum group g = SET; g < N_GROUPS; g++) {
    const char *between = NULL;
    for (size_t k = 0; k < N_OPTIONS; k++) {
      if (group_of(k) != g) continue;
      fprintf(out, "%s", between ? between : between_groups);
      if (!between) fprintf(out, "%s: ", labels[g]), between_groups = "; ";
      print_setting(out, k);
      between = ", ";
    }
  }
  if (fclose(out) == 0) cw_log("%s", line);
  free(line);
}

/* The first rank variable set, or rank 0; false (capture off) if bad. */
static bool read_rank(void) {
  for (size_t k = 0; k < sizeof rank_variables / sizeof *rank_variables; k++) {
    const char *value = env(rank_variables[k]);
    if (value)
      return (cw_config.rank_set = parse_rank(value)) ||
             reject(rank_variables[k], value, "a non-negative integer");
  }
  return true;
}

/* Several ranks given one CAPTURE_WINDOW_TIMES path that names neither
   the rank nor the pid would share one file: each writes PATH.RANK
   instead, as if the path ended in .%r (contract section 8), and rank 0
   says so (every rank, verbose). */
static void give_each_rank_a_file(void) {
  if (!cw_config.times_path || !cw_config.rank_set || times_pattern_has('r') ||
      times_pattern_has('p'))
    return;
  const char *variable = NULL;
  for (size_t k = 0; !variable && k < sizeof rank_variables / sizeof *rank_variables; k++)
    if (env(rank_variables[k])) variable = rank_variables[k];
  size_t size = strlen(cw_config.times_path) + 24;
  char *own = malloc(size);
  if (!own) return;
  snprintf(own, size, "%s.%lld", cw_config.times_path, cw_config.rank);
  if (cw_config.rank == 0 || cw_config.verbose)
    cw_log("CAPTURE_WINDOW_TIMES='%s' names no rank and %s is set: each rank writes its own "
           "file, %s.%%r (here '%s'); put %%r in the path to place the rank elsewhere",
           times_pattern, variable, cw_config.times_path, own);
  free(cw_config.times_path);
  cw_config.times_path = own;
}

/* The rank is only read when some ranks are excluded, CAPTURE_WINDOW_TIMES
   is set without %p (a file per rank) or CAPTURE_WINDOW_WATCH answers
   under it: a bad RANK cannot matter otherwise. */
static void apply_rank_filter(void) {
  if (!ranks_spec || ranks_hold(ranks_spec, cw_config.rank) == 1) return;
  if (cw_config.verbose)
    cw_log("rank %lld is not in CAPTURE_WINDOW_RANKS: no windows in this process", cw_config.rank);
  cw_config.off = true;
}

void cw_config_load(void) {
  bool valid = true;
  for (size_t k = 0; k < N_OPTIONS; k++) {
    const struct option *o = &options[k];
    if (o->preset) o->parse(o->preset);
    const char *value = env(o->name);
    sources[k] = !value ? FROM_DEFAULT : o->parse(value) ? FROM_ENVIRONMENT : FROM_BAD_VALUE;
    if (sources[k] != FROM_BAD_VALUE) continue;
    if (o->when_bad == IGNORED)
      ignore(o->name, value, o->accepted);
    else
      valid = reject(o->name, value, o->accepted);
  }
  cw_report_unknown_variables();
  if (cw_config.verbose) report_settings();
  if (valid && (ranks_spec || cw_config.watch_path ||
                (times_pattern && (times_pattern_has('r') || !times_pattern_has('p')))))
    valid = read_rank();
  if (valid) apply_rank_filter();
  const char *windows = env("CAPTURE_WINDOW");
  if (valid && cw_config.verbose && windows && strcmp(windows, "off") == 0)
    cw_log("CAPTURE_WINDOW=off: capture is off for this run");
  if (times_pattern && !cw_config.off) {
    expand_times_path();
    give_each_rank_a_file();
  }
  cw_config.nvtx_tool = env("NVTX_INJECTION64_PATH") != NULL;
  cw_config.step_ranges_always = cw_config.nvtx_tool && cw_config.steps == CW_STEPS_ALL;
  cw_config.self_check =
      !cw_config.off && (self_check_setting >= 0 ? self_check_setting == 1
                                                 : cw_config.verbose || cw_config.nvtx_tool);
}
