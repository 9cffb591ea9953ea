/*
 * rw_diag.c - diagnostics in the compilers' own shape,
 * `FILE:LINE:COL: error: MESSAGE`, FILE as given on the command line;
 * and the small helpers every part uses.
 */
#include "rw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report(struct rw_unit *u, const char *kind, unsigned line, unsigned col,
                   const char *fmt, va_list ap) {
  fprintf(stderr, "%s:%u:%u: %s: ", u->path, line, col, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void rw_error(struct rw_unit *u, unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(u, "error", line, col, fmt, ap);
  va_end(ap);
  u->errors++;
}

void rw_warning(struct rw_unit *u, unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(u, "warning", line, col, fmt, ap);
  va_end(ap);
}

void rw_note(struct rw_unit *u, unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(u, "note", line, col, fmt, ap);
  va_end(ap);
}

/* Line and column (1-based, in bytes) of OFFSET in the file. */
void rw_offset_position(const struct rw_unit *u, unsigned offset, unsigned *line, unsigned *col) {
  unsigned l = 1, c = 1;
  for (unsigned i = 0; i < offset && i < u->size; i++) {
    if (u->text[i] == '\n')
      l++, c = 1;
    else
      c++;
  }
  *line = l;
  *col = c;
}

void *rw_grow(void *array, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return array;
  size_t n = *cap ? *cap : 16;
  while (n < need) n *= 2;
  array = realloc(array, n * elem);
  if (!array) {
    fprintf(stderr, "capture-window-rewrite: out of memory\n");
    exit(2);
  }
  *cap = n;
  return array;
}

char *rw_strdup(const char *s) {
  size_t n = strlen(s ? s : "") + 1;
  char *d = malloc(n);
  if (!d) {
    fprintf(stderr, "capture-window-rewrite: out of memory\n");
    exit(2);
  }
  memcpy(d, s ? s : "", n);
  return d;
}
