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
  vec<size_t> starts;	/* offset of each line; line N at starts[N - 1] */
};

/* A unit's pragmas sit in a handful of files: a short list suffices. */
enum { max_files = 8 };
source_file files[max_files];
unsigned n_files, next_victim;

bool
read_whole (const char *name, source_file *f)
{
  FILE *in = fopen (name, "rb");
  if (!in)
    return false;
  size_t cap = 1 << 16, size = 0;
  char *text = XNEWVEC (char, cap);
  for (size_t got; (got = fread (text + size, 1, cap - size, in)) > 0;)
    if ((size += got) == cap)
      text = XRESIZEVEC (char, text, cap *= 2);
  fclose (in);
  f->text = text;
  f->size = size;
  f->starts.create (size / 32 + 1);
  f->starts.safe_push (0);
  for (size_t i = 0; i < size; i++)
    if (text[i] == '\n')
      f->starts.safe_push (i + 1);
  return true;
}

void
release (source_file *f)
{
  free (f->name);
  XDELETEVEC (f->text);
  f->starts.release ();
}

/* NAME's entry, read on first use; NULL if it cannot be read. */
source_file *
lookup (const char *name)
{
  for (unsigned k = 0; k < n_files; k++)
    if (strcmp (files[k].name, name) == 0)
      return &files[k];
  source_file fresh = {};
  if (!read_whole (name, &fresh))
    return NULL;
  fresh.name = xstrdup (name);
  unsigned slot = n_files < max_files ? n_files++ : next_victim++ % max_files;
  if (files[slot].name)
    release (&files[slot]);
  files[slot] = fresh;
  return &files[slot];
}

} // namespace

/* Line LINE (from 1) of FILE, without its end-of-line characters. */
bool
cw_source_line (const char *file, int line, const char **text, size_t *len)
{
  source_file *f = file ? lookup (file) : NULL;
  if (!f || line < 1 || (unsigned) line > f->starts.length ())
    return false;
  size_t begin = f->starts[line - 1];
  size_t end = (unsigned) line < f->starts.length () ? f->starts[line] - 1
						     : f->size;
  while (end > begin && (f->text[end - 1] == '\r' || f->text[end - 1] == '\n'))
    end--;
  *text = f->text + begin;
  *len = end - begin;
  return true;
}
