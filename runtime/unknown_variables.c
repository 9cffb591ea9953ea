/*
 * unknown_variables.c - the CAPTURE_WINDOW_* variables no part of
 * capture_window reads (a typo), and near misses of a known name outside
 * the family's prefix (CAPTURE_WINDOWS): one line each, naming the closest
 * known name, so that a typo is never ignored in silence. The known names
 * are options.c's (cw_option_name); the closest is the fewest edits away,
 * a tie going to the name that shares the longest run of letters.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define NAME_MAX_COMPARED 64
#define FAMILY_LEN (sizeof "CAPTURE_WINDOW_" - 1)
#define NEAR_MISS 2 /* edits that make a name outside the family a near miss */

/* The optimal string alignment distance of a[0, n) and b (insertions,
   deletions, substitutions and swaps of two neighbours, each 1); both are
   cut at NAME_MAX_COMPARED letters. */
static int edit_distance(const char *a, size_t n, const char *b) {
  size_t m = strlen(b);
  if (n > NAME_MAX_COMPARED) n = NAME_MAX_COMPARED;
  if (m > NAME_MAX_COMPARED) m = NAME_MAX_COMPARED;
  int rows[3][NAME_MAX_COMPARED + 1]; /* rows i-2, i-1 and i, in turn */
  for (size_t j = 0; j <= m; j++) rows[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    int *row = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];
    row[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int best = up[j - 1] + (a[i - 1] != b[j - 1]);
      if (up[j] + 1 < best) best = up[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && up2[j - 2] + 1 < best)
        best = up2[j - 2] + 1;
      row[j] = best;
    }
  }
  return rows[n % 3][m];
}

/* The length of the longest run of letters a[0, n) and b share: breaks a
   tie of distances (CAPTURE_WINDOW_STEPTIMES is 4 from _STEPS and from
   _TIMES, and holds all of TIMES). Called on the names' ends after
   CAPTURE_WINDOW_, which they share. */
static size_t longest_shared_run(const char *a, size_t n, const char *b) {
  size_t best = 0, m = strlen(b);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++) {
      size_t k = 0;
      while (i + k < n && j + k < m && a[i + k] == b[j + k]) k++;
      if (k > best) best = k;
    }
  return best;
}

static bool is_known(const char *name, size_t len) {
  for (size_t k = 0; cw_option_name(k); k++)
    if (strlen(cw_option_name(k)) == len && memcmp(cw_option_name(k), name, len) == 0) return true;
  return false;
}

static const char *closest_known(const char *name, size_t len) {
  const char *best = NULL;
  int best_distance = 0;
  size_t best_run = 0;
  for (size_t k = 0; cw_option_name(k); k++) {
    const char *known = cw_option_name(k);
    int distance = edit_distance(name, len, known);
    size_t skip = strlen(known) < FAMILY_LEN ? strlen(known) : FAMILY_LEN; /* CAPTURE_WINDOW */
    size_t from = len < FAMILY_LEN ? len : FAMILY_LEN; /* CAPTURE_WINDOWS is shorter */
    size_t run = longest_shared_run(name + from, len - from, known + skip);
    if (!best || distance < best_distance || (distance == best_distance && run > best_run))
      best = known, best_distance = distance, best_run = run;
  }
  return best;
}

/* Whether NAME is one or two edits from a known name: CAPTURE_WINDOWS,
   CAPTUREWINDOW_TIMES, near misses outside the family's prefix. */
static bool near_known(const char *name, size_t len) {
  for (size_t k = 0; cw_option_name(k); k++)
    if (edit_distance(name, len, cw_option_name(k)) <= NEAR_MISS) return true;
  return false;
}

/* The name of an environment entry that looks meant for the runtime but
   is no variable of it: CAPTURE_WINDOW_* of no row, or a near miss. */
static const char *unknown_variable(const char *entry, size_t *len) {
  const char *eq = strchr(entry, '=');
  if (!eq || !eq[1]) return NULL;
  *len = (size_t)(eq - entry);
  if (is_known(entry, *len)) return NULL;
  if (strncmp(entry, "CAPTURE_WINDOW_", FAMILY_LEN) == 0) return entry;
  return near_known(entry, *len) ? entry : NULL;
}

/* Whether name A (length LA) sorts before B (length LB). */
static bool name_before(const char *a, size_t la, const char *b, size_t lb) {
  int c = strncmp(a, b, la < lb ? la : lb);
  return c < 0 || (c == 0 && la < lb);
}

/* One line for each unknown CAPTURE_WINDOW_* variable or near miss of a
   known name (CAPTURE_WINDOWS), in the order of
   their names (the environment's own order differs between systems): a
   typo would otherwise be ignored in silence. */
void cw_report_unknown_variables(void) {
  const char *last = NULL;
  size_t last_len = 0;
  for (;;) {
    const char *next = NULL;
    size_t next_len = 0, len;
    for (char **e = environ; e && *e; e++) {
      const char *name = unknown_variable(*e, &len);
      if (name && (!last || name_before(last, last_len, name, len)) &&
          (!next || name_before(name, len, next, next_len)))
        next = name, next_len = len;
    }
    if (!next) return;
    cw_log("%.*s is not a capture_window variable (ignored); did you mean %s?", (int)next_len, next,
           closest_known(next, next_len));
    last = next, last_len = next_len;
  }
}
