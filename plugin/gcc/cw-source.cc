/*
 * cw-source.cc - lines of the source files the pragmas sit in.
 *
 * The plugin quotes a number as written and checks the text between a
 * pragma and its loop, so it reads source lines.  GCC's own
 * location_get_source_line keeps about a hundred line offsets per file and
 * walks from the nearest one, which costs thousands of lines per call in a
 * large file (a third of the compile time of sqlite3.c with every loop
 * marked).  Here each file is read once and indexed by line.
 */
#include "cw-gcc.h"

#include <stdio.h>

namespace {

struct source_file {
  char *name;
  char *text;
  size_t size;
  vec<size_t> starts; /* offset of each line; line N at starts[N - 1] */
};

/* A unit's pragmas sit in a handful of files: a short list suffices. */
enum { max_files = 8 };
source_file files[max_files];
unsigned n_files, next_victim;

bool read_whole(const char *name, source_file *f) {
  FILE *in = fopen(name, "rb");
  if (!in) return false;
  size_t cap = 1 << 16, size = 0;
  char *text = XNEWVEC(char, cap);
  for (size_t got; (got = fread(text + size, 1, cap - size, in)) > 0;)
    if ((size += got) == cap) text = XRESIZEVEC(char, text, cap *= 2);
  fclose(in);
  f->text = text;
  f->size = size;
  f->starts.create(size / 32 + 1);
  f->starts.safe_push(0);
  for (size_t i = 0; i < size; i++)
    if (text[i] == '\n') f->starts.safe_push(i + 1);
  return true;
}

void release(source_file *f) {
  free(f->name);
  XDELETEVEC(f->text);
  f->starts.release();
}

/* NAME's entry, read on first use; NULL if it cannot be read. */
source_file *lookup(const char *name) {
  for (unsigned k = 0; k < n_files; k++)
    if (strcmp(files[k].name, name) == 0) return &files[k];
  source_file fresh = {};
  if (!read_whole(name, &fresh)) return NULL;
  fresh.name = xstrdup(name);
  unsigned slot = n_files < max_files ? n_files++ : next_victim++ % max_files;
  if (files[slot].name) release(&files[slot]);
  files[slot] = fresh;
  return &files[slot];
}

} // namespace

/* Line LINE (from 1) of FILE, without its end-of-line characters. */
bool cw_source_line(const char *file, int line, const char **text, size_t *len) {
  source_file *f = file ? lookup(file) : NULL;
  if (!f || line < 1 || (unsigned)line > f->starts.length()) return false;
  size_t begin = f->starts[line - 1];
  size_t end = (unsigned)line < f->starts.length() ? f->starts[line] - 1 : f->size;
  while (end > begin && (f->text[end - 1] == '\r' || f->text[end - 1] == '\n')) end--;
  *text = f->text + begin;
  *len = end - begin;
  return true;
}

/* ---- where a loop's keyword is ------------------------------------------ */

/* The C front end locates a while loop at its '(' and a do loop at its
   body; the C++ front end, both at the keyword.  Zero-edit marking names
   the keyword's line, and the site carries it, so for C the keyword is
   looked for in the source: back from the location over blanks and
   comments (at most a few lines), an identifier `while` or `do`. */

namespace {

/* Step back from (*LINE, *COL) (1-based column; the character there is not
   looked at) over blanks, block comments and lines that are a `//` comment
   or a directive.  Leaves *COL at the last character before them; false if
   the source cannot be read or nothing is there within a few lines. */
bool back_over_blanks(const char *file, int *line, int *col) {
  const char *s;
  size_t n;
  bool in_comment = false;
  for (int lines = 0; lines < 8; lines++) {
    if (!cw_source_line(file, *line, &s, &n)) return false;
    size_t first = 0;
    while (first < n && ISSPACE(s[first])) first++;
    bool skip = lines > 0 && !in_comment && first + 1 < n &&
                ((s[first] == '/' && s[first + 1] == '/') || s[first] == '#');
    int c = lines == 0 ? *col - 1 : (int)n;
    for (; !skip && c >= 1; c--) {
      char ch = s[c - 1];
      if (in_comment)
        in_comment = !(ch == '/' && c >= 2 && s[c - 2] == '*' && (c--, true));
      else if (ch == '/' && c >= 2 && s[c - 2] == '*')
        in_comment = true, c--;
      else if (!ISSPACE(ch)) {
        *col = c;
        return true;
      }
    }
    if (--*line < 1) return false;
  }
  return false;
}

} // namespace

location_t cw_loop_keyword_location(tree loop) {
  location_t loc = cw_expansion_point(EXPR_LOCATION(loop));
  const char *kw = TREE_CODE(loop) == WHILE_STMT ? "while"
                   : TREE_CODE(loop) == DO_STMT  ? "do"
                                                 : NULL;
  if (c_language != clk_c || !kw || linemap_location_from_macro_expansion_p(line_table, loc))
    return loc;
  expanded_location xl = expand_location(loc);
  int line = xl.line, col = xl.column;
  const char *s;
  size_t n, k = strlen(kw);
  if (!xl.file || !back_over_blanks(xl.file, &line, &col) ||
      !cw_source_line(xl.file, line, &s, &n) || (size_t)col < k ||
      memcmp(s + col - k, kw, k) != 0 ||
      (col > (int)k && (ISALNUM(s[col - k - 1]) || s[col - k - 1] == '_')))
    return loc;
  const line_map_ordinary *map = linemap_check_ordinary(linemap_lookup(line_table, loc));
  location_t at = linemap_position_for_line_and_column(line_table, map, line, col - k + 1);
  expanded_location check = expand_location(at);
  if (!check.file || strcmp(check.file, xl.file) || check.line != line) return loc;
  return at;
}
