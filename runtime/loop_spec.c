/* loop_spec.c - the loop spec engine: see capture_window/loop_spec.h.
   Plain C with no dependency, linked into libcapture_window (which
   exports it) and into every front door. */
#include "capture_window/loop_spec.h"

#include <stdio.h>
#include <string.h>

enum { MAX_FIELDS = 6 };

/* Split SPEC at each ':' that is not part of a C++ "::" into FIELDS
   (pointers into COPY).  Returns the number of fields, or MAX_FIELDS + 1
   when there are too many. */
static int split_fields(char *copy, char *fields[MAX_FIELDS]) {
  int n = 0;
  fields[n++] = copy;
  for (char *c = copy; *c; c++) {
    if (c[0] == ':' && c[1] == ':') {
      c++;
      continue;
    }
    if (*c != ':') continue;
    *c = '\0';
    if (n == MAX_FIELDS) return MAX_FIELDS + 1;
    fields[n++] = c + 1;
  }
  return n;
}

const char *cw_number_parse_v1(const char *text, size_t length, const char *name, long long min,
                               long long max, long long *out, char *buf, size_t size) {
  long long v = 0;
  size_t i = 0;
  for (; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
    /* Checked before the multiplication: v * 10 may not fit a long long. */
    if (v > (max - (text[i] - '0')) / 10) break;
    v = v * 10 + (text[i] - '0');
  }
  if (length && i == length && v >= min) {
    *out = v;
    return NULL;
  }
  if (max == CW_VALUE_MAX)
    snprintf(buf, size, "%s must be a decimal number from %lld to 2^62", name ? name : "it", min);
  else
    snprintf(buf, size, "%s must be a decimal number from %lld to %lld", name ? name : "it", min,
             max);
  return buf;
}

static int is_ident_char(char c, int first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (!first && c >= '0' && c <= '9');
}

/* NAME(SEP NAME)*, each NAME an identifier; in Python also "<locals>",
   which co_qualname holds for a function defined in a function. */
static int is_qualified_name(const char *s, const char *sep, int python) {
  size_t n = strlen(sep);
  for (;;) {
    if (python && strncmp(s, "<locals>", 8) == 0)
      s += 8;
    else if (!is_ident_char(*s, 1))
      return 0;
    while (is_ident_char(*s, 0)) s++;
    if (!*s) return 1;
    if (strncmp(s, sep, n) != 0) return 0;
    s += n;
  }
}

/* Python's FILE: a path, or a name ending in ".py". */
static int is_python_file(const char *target) {
  size_t n = strlen(target);
  return strchr(target, '/') || (n > 3 && strcmp(target + n - 3, ".py") == 0);
}

int cw_label_is_valid_v1(const char *label, size_t length) {
  size_t n = 0;
  while (n < length && label[n]) n++;
  if (n < 1 || n > CW_LABEL_MAX) return 0;
  for (size_t i = 0; i < n; i++)
    if (!is_ident_char(label[i], 0) && label[i] != '.' && label[i] != '-') return 0;
  return 1;
}

const char *cw_loop_spec_form_v1(void) { return CW_LOOP_SPEC_FORM; }

static const char *fail(char *buf, size_t size, const char *reason) {
  snprintf(buf, size, "%s", reason);
  return buf;
}

/* START:COUNT[:LABEL] in FIELDS[0..N). */
static const char *parse_window(char **fields, int n, struct cw_loop_window *w, char *buf,
                                size_t size) {
  if (n == 0) return NULL;
  if (n == 1) return fail(buf, size, "START must be followed by :COUNT");
  if (cw_number_parse_v1(fields[0], strlen(fields[0]), "START", 0, CW_VALUE_MAX, &w->start, buf,
                         size) ||
      cw_number_parse_v1(fields[1], strlen(fields[1]), "COUNT", 1, CW_VALUE_MAX, &w->count, buf,
                         size))
    return buf;
  if (n == 3) {
    if (!cw_label_is_valid_v1(fields[2], strlen(fields[2])))
      return fail(buf, size, "LABEL must match [A-Za-z0-9_.-]{1,63}");
    strcpy(w->label, fields[2]);
  }
  return NULL;
}

const char *cw_loop_spec_parse_v1(const char *spec, int language, struct cw_loop_spec *out,
                                  char *buf, size_t size) {
  char copy[CW_LOOP_SPEC_TARGET_MAX + 128], *fields[MAX_FIELDS];
  long long line;
  int n, python = language == CW_LOOP_SPEC_PYTHON;

  memset(out, 0, sizeof *out);
  out->language = python ? CW_LOOP_SPEC_PYTHON : CW_LOOP_SPEC_C;
  out->window.start = 0;
  out->window.count = 1;
  strcpy(out->window.label, CW_DEFAULT_LABEL);
  if (!spec || !*spec) return fail(buf, size, "the value is empty");
  if (strlen(spec) >= sizeof copy || strlen(spec) >= sizeof out->target)
    return fail(buf, size, "the value is too long");
  strcpy(copy, spec);
  n = split_fields(copy, fields);
  if (!*fields[0]) return fail(buf, size, "FILE or FUNCTION is missing");
  strcpy(out->target, fields[0]);
  out->by_function = python ? !is_python_file(fields[0]) : !strpbrk(fields[0], "./");
  if (out->by_function) {
    if (python && !is_qualified_name(fields[0], ".", 1))
      return fail(buf, size,
                  "FUNCTION must be a Python qualified name such as "
                  "Trainer.fit or pkg.mod.Trainer.fit (a FILE ends in .py or "
                  "holds a '/')");
    if (!python && !is_qualified_name(fields[0], "::", 0))
      return fail(buf, size,
                  "FUNCTION must be a C name or a C++ qualified name such as "
                  "ns::Trainer::fit (a FILE holds a '.' or a '/')");
    if (n > 4) return fail(buf, size, "there are too many fields");
    return parse_window(fields + 1, n - 1, &out->window, buf, size);
  }
  if (n < 2) return fail(buf, size, "FILE must be followed by :LINE");
  if (n > 5) return fail(buf, size, "there are too many fields");
  if (cw_number_parse_v1(fields[1], strlen(fields[1]), "LINE", 1, 0xffffffffLL, &line, buf, size))
    return buf;
  out->line = (unsigned)line;
  return parse_window(fields + 2, n - 2, &out->window, buf, size);
}

/* Does TEXT end in SUFFIX, right after a character that passes BOUNDARY
   (or with nothing before it)? */
static int ends_at_boundary(const char *text, const char *suffix, const char *boundary) {
  size_t n = strlen(text), m = strlen(suffix), b = strlen(boundary);
  if (m > n || strcmp(text + n - m, suffix) != 0) return 0;
  return m == n || (n - m >= b && memcmp(text + n - m - b, boundary, b) == 0);
}

/* FILE as written, less any leading "./". */
static const char *file_suffix(const char *file) {
  while (file[0] == '.' && file[1] == '/') file += 2;
  return file;
}

int cw_path_ends_in_v1(const char *path, const char *suffix) {
  return path && suffix && ends_at_boundary(path, file_suffix(suffix), "/");
}

int cw_loop_spec_file_matches_v1(const struct cw_loop_spec *spec, const char *path) {
  return !spec->by_function && cw_path_ends_in_v1(path, spec->target);
}

int cw_loop_spec_function_matches_v1(const struct cw_loop_spec *spec, const char *qualified) {
  const char *sep = spec->language == CW_LOOP_SPEC_PYTHON ? "." : "::";
  return spec->by_function && qualified && ends_at_boundary(qualified, spec->target, sep);
}
