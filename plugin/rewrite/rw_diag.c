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

/* Diagnostics wait in the unit: a round that ends by expanding macros
   (rw_inline.c) is parsed again, and only the last round's are printed. */
static void append(struct rw_unit *u, const char *fmt, va_list ap) {
  va_list copy;
  int n;
  va_copy(copy, ap);
  n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0) return;
  u->diagnostics = rw_grow(u->diagnostics, &u->diagnostics_cap, u->ndiagnostics + (size_t)n + 1, 1);
  vsnprintf(u->diagnostics + u->ndiagnostics, (size_t)n + 1, fmt, ap);
  u->ndiagnostics += (size_t)n;
}

static void append_text(struct rw_unit *u, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  append(u, fmt, ap);
  va_end(ap);
}

static void report(struct rw_unit *u, const char *kind, unsigned line, unsigned col,
                   const char *fmt, va_list ap) {
  append_text(u, "%s:%u:%u: %s: ", u->path, line, col, kind);
  append(u, fmt, ap);
  append_text(u, "\n");
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

void rw_tool_error(struct rw_unit *u, const char *fmt, ...) {
  va_list ap;
  append_text(u, "capture-window-rewrite: error: ");
  va_start(ap, fmt);
  append(u, fmt, ap);
  va_end(ap);
  append_text(u, "\n");
  u->errors++;
}

void rw_flush_diagnostics(struct rw_unit *u) {
  if (u->ndiagnostics) fwrite(u->diagnostics, 1, u->ndiagnostics, stderr);
  u->ndiagnostics = 0;
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
