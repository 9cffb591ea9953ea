/*
 * site.c - the name of a template instantiation's loop.
 *
 * The instantiations of a template share the loop's FILE:LINE and label,
 * and each has its own site. What tells them apart is the site's function,
 * which every front door fills with the compiler's pretty name:
 *
 *   GCC    T tmpl(T, int) [with T = int]
 *   Clang  T tmpl(T, int) [T = int]
 *
 * The instantiation's name is the function's unqualified name and the
 * values of its template arguments, as C++ writes them: tmpl<int>
 * (several: pair_sum<int,double>, no space after a comma). Messages, the
 * step-times file and CAPTURE_WINDOW_LOOPS name such a site FILE:LINE@NAME
 * (docs/environment.md). A function without bindings names no
 * instantiation. Calls nothing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Bracket depth change of c: <, (, [, { open, their partners close. */
static int depth_step(char c) {
  return (c == '<' || c == '(' || c == '[' || c == '{')   ? 1
         : (c == '>' || c == ')' || c == ']' || c == '}') ? -1
                                                          : 0;
}

/* Where the trailing " [BINDINGS]" of F begins, or NULL. */
static const char *bindings_start(const char *f, size_t n) {
  if (n < 4 || f[n - 1] != ']') return NULL;
  int depth = 0;
  for (size_t k = n; k-- > 0;) {
    depth -= depth_step(f[k]);
    if (depth == 0) return k > 0 && f[k - 1] == ' ' ? f + k - 1 : NULL;
  }
  return NULL;
}

/* [s, end): the function's name, unqualified, before its parameter list:
   the last top-level "(...)" of the part before the bindings.  GCC names a
   generic lambda "main()::<lambda(auto:1)>", Clang by its operator(). */
static bool function_name(const char *f, const char *stop, const char **s, const char **end) {
  static const char call[] = "operator()";
  const char *lambda = NULL;
  for (const char *c = f; (c = strstr(c, "::<lambda(")) && c < stop; c++) lambda = c;
  if (lambda && stop[-1] == '>') {
    *s = call;
    *end = call + sizeof call - 1;
    return true;
  }
  const char *close = NULL;
  int depth = 0;
  for (const char *c = f; c < stop; c++) {
    depth += depth_step(*c);
    if (*c == ')' && depth == 0) close = c;
  }
  if (!close) return false;
  depth = 0;
  const char *open = close;
  for (; open >= f; open--) {
    depth -= depth_step(*open);
    if (depth == 0) break;
  }
  *end = open;
  /* Back over the name: it starts after a top-level space or "::". */
  depth = 0;
  const char *c = open;
  while (c > f) {
    depth -= depth_step(c[-1]);
    if (depth == 0 && (c[-1] == ' ' || (c[-1] == ':' && c - 1 > f && c[-2] == ':'))) break;
    c--;
  }
  *s = c;
  return *s < *end;
}

/* Appends [s, end) to out at *len (size SIZE), dropping the space after
   each comma; false when it does not fit. */
static bool append(char *out, size_t size, size_t *len, const char *s, const char *end) {
  for (; s < end; s++) {
    if (*s == ' ' && *len > 0 && out[*len - 1] == ',') continue;
    if (*len + 1 >= size) return false;
    out[(*len)++] = *s;
  }
  out[*len] = '\0';
  return true;
}

static bool append_char(char *out, size_t size, size_t *len, char c) {
  return append(out, size, len, &c, &c + 1);
}

/* The values of BINDINGS "[with A = x; B = y]" or "[A = x, B = y]",
   joined by ',', appended to out. */
static bool append_values(char *out, size_t size, size_t *len, const char *b, const char *end) {
  b += 2; /* " [" */
  end--;  /* "]" */
  if (!strncmp(b, "with ", 5)) b += 5;
  for (bool first = true; b < end; first = false) {
    const char *item = b, *eq = NULL;
    int depth = 0;
    for (; b < end; b++) {
      depth += depth_step(*b);
      if (depth == 0 && !eq && !strncmp(b, " = ", 3)) eq = b + 3;
      if (depth == 0 && (*b == ';' || *b == ',')) break;
    }
    if (!eq) eq = item;
    if ((!first && !append_char(out, size, len, ',')) || !append(out, size, len, eq, b))
      return false;
    if (b < end) b++;
    while (b < end && *b == ' ') b++;
  }
  return true;
}

bool cw_site_instance(const struct cw_site_v2 *site, char *out, size_t size) {
  const char *f = site->function, *name, *name_end;
  size_t len = 0;
  if (!f || size == 0) return false;
  const char *b = bindings_start(f, strlen(f));
  if (!b || !function_name(f, b, &name, &name_end)) return false;
  /* Clang and GCC may print the arguments on the name too: once is enough. */
  if (name_end[-1] == '>') {
    int depth = 0;
    const char *c = name_end;
    while (c > name) {
      depth -= depth_step(*--c);
      if (depth == 0) break;
    }
    if (c > name && *c == '<') name_end = c;
  }
  return append(out, size, &len, name, name_end) && append_char(out, size, &len, '<') &&
         append_values(out, size, &len, b, f + strlen(f)) && append_char(out, size, &len, '>');
}

const char *cw_site_at(const struct cw_site_v2 *site, char *buf, size_t size) {
  char name[CW_INSTANCE_MAX];
  if (size < 2 || !cw_site_instance(site, name, sizeof name)) return "";
  snprintf(buf, size, "@%s", name);
  return buf;
}
