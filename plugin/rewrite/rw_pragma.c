/*
 * rw_pragma.c - find the capture_window pragmas of the file by its tokens
 * and read their arguments with the shared grammar (plugin/common).
 *
 * Three forms are found where they are written in the file itself:
 *
 *   #pragma capture_window(ARGS)          the directive
 *   _Pragma("capture_window(ARGS)")       the operator, outside macros
 *   CAPTURE_WINDOW(A, B) / CAPTURE_WINDOW_LABEL(A, B, "L")
 *                                         annotations/capture_window.h
 *
 * Identifiers among the arguments that name object-like macros are
 * expanded (recursively) from the macros' definitions, as a compiler
 * expands a pragma's arguments.  A pragma that only exists inside the
 * expansion of some other macro cannot be rewritten in place: such a use
 * is an error that says so.
 */
#include "rw.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXPANSION_DEPTH 32

/* Feeds the grammar and remembers where the last token came from. */
struct feeder {
  struct rw_unit *u;
  struct cw_pragma_parser parser;
  const char *error;
  unsigned line, col;
  unsigned before; /* macros defined in the file after this don't count */
};

static void feed(struct feeder *f, enum cw_token_kind kind, const char *text, unsigned line,
                 unsigned col) {
  if (f->error) return;
  if (kind != CW_TOKEN_END) f->line = line, f->col = col;
  f->error = cw_pragma_feed(&f->parser, kind, text);
}

/* The characters of a string literal token (any prefix), escapes
   resolved; an embedded NUL becomes '?', which the label check refuses.
   NULL if TEXT is not a string literal. */
static char *string_value(const char *text) {
  const char *s = text;
  char *out, *o;
  while (*s == 'u' || *s == 'U' || *s == 'L' || *s == '8') s++;
  if (*s != '"') return NULL;
  out = o = malloc(strlen(s) + 1);
  for (s++; *s && *s != '"'; s++) {
    int c = (unsigned char)*s;
    if (c == '\\' && s[1]) {
      s++;
      switch (*s) {
      case 'n':
        c = '\n';
        break;
      case 't':
        c = '\t';
        break;
      case 'x':
        c = (int)strtol(s + 1, (char **)&s, 16);
        s--;
        break;
      default:
        if (*s >= '0' && *s <= '7') {
          c = 0;
          for (int k = 0; k < 3 && *s >= '0' && *s <= '7'; k++) c = c * 8 + (*s++ - '0');
          s--;
        } else {
          c = (unsigned char)*s;
        }
      }
    }
    *o++ = c ? (char)c : '?';
  }
  *o = 0;
  return out;
}

static const struct rw_macro *find_macro(const struct rw_unit *u, const char *name,
                                         unsigned before) {
  const struct rw_macro *found = NULL;
  for (size_t i = 0; i < u->nmacros; i++)
    if (!strcmp(u->macros[i].name, name) &&
        (!u->macros[i].in_main_file || u->macros[i].offset < before))
      found = &u->macros[i];
  return found;
}

static void feed_token(struct feeder *f, CXTokenKind kind, const char *text, unsigned line,
                       unsigned col, int depth);

/* An object-like macro among the arguments: its definition's tokens. */
static void feed_expansion(struct feeder *f, const struct rw_macro *m, unsigned line, unsigned col,
                           int depth) {
  CXToken *toks;
  unsigned n;
  clang_tokenize(f->u->tu, clang_getCursorExtent(m->cursor), &toks, &n);
  for (unsigned i = 1; i < n; i++) { /* [0] is the macro's name */
    CXString s = clang_getTokenSpelling(f->u->tu, toks[i]);
    feed_token(f, clang_getTokenKind(toks[i]), clang_getCString(s), line, col, depth + 1);
    clang_disposeString(s);
  }
  clang_disposeTokens(f->u->tu, toks, n);
}

static void feed_token(struct feeder *f, CXTokenKind kind, const char *text, unsigned line,
                       unsigned col, int depth) {
  static const struct {
    const char *text;
    enum cw_token_kind kind;
  } punct[] = {
      {"(", CW_TOKEN_OPEN}, {")", CW_TOKEN_CLOSE}, {",", CW_TOKEN_COMMA}, {"-", CW_TOKEN_MINUS}};

  if (kind == CXToken_Punctuation) {
    for (size_t i = 0; i < sizeof punct / sizeof *punct; i++)
      if (!strcmp(text, punct[i].text)) {
        feed(f, punct[i].kind, NULL, line, col);
        return;
      }
  } else if (kind == CXToken_Literal) {
    char *value;
    if (isdigit((unsigned char)text[0]) || text[0] == '.') {
      feed(f, CW_TOKEN_NUMBER, text, line, col);
      return;
    }
    if ((value = string_value(text))) {
      feed(f, CW_TOKEN_STRING, value, line, col);
      free(value);
      return;
    }
  } else if (kind == CXToken_Identifier && depth < MAX_EXPANSION_DEPTH) {
    const struct rw_macro *m = find_macro(f->u, text, f->before);
    if (m && !m->function_like) {
      feed_expansion(f, m, line, col, depth);
      return;
    }
  }
  feed(f, CW_TOKEN_OTHER, text, line, col);
}

static struct rw_pragma *add_pragma(struct rw_unit *u, enum rw_pragma_form form, unsigned begin,
                                    unsigned end, const struct rw_token *name) {
  struct rw_pragma *p;
  u->pragmas = rw_grow(u->pragmas, &u->pragmas_cap, u->npragmas + 1, sizeof *p);
  p = &u->pragmas[u->npragmas++];
  memset(p, 0, sizeof *p);
  p->form = form;
  p->begin = begin;
  p->end = end;
  p->name_line = name->line;
  p->name_col = name->col;
  p->loop = -1;
  return p;
}

/* After the tokens are fed: END, the verdict, the error if any. */
static void finish(struct feeder *f, struct rw_pragma *p) {
  feed(f, CW_TOKEN_END, NULL, 0, 0);
  if (!f->error) f->error = cw_pragma_finish(&f->parser, &p->window);
  if (f->error)
    rw_error(f->u, f->line, f->col, "%s", f->error);
  else
    p->valid = 1;
}

static void start_feeder(struct feeder *f, struct rw_unit *u, const struct rw_token *name,
                         unsigned before) {
  memset(f, 0, sizeof *f);
  f->u = u;
  f->line = name->line;
  f->col = name->col;
  f->before = before;
  cw_pragma_init(&f->parser);
}

/* A pragma named NAME (LENGTH characters), not ours: a near miss of ours
   (capture_windows) gets the plugins' warning, at LINE:COL. */
static void warn_near_miss(struct rw_unit *u, const char *name, size_t length, unsigned line,
                           unsigned col) {
  char text[256], word[64];
  if (length >= sizeof word || !cw_pragma_name_near_miss(name, length)) return;
  memcpy(word, name, length);
  word[length] = '\0';
  rw_warning(u, line, col, "%s", cw_format_pragma_near_miss(text, sizeof text, word));
}

/* #pragma capture_window ...: tokens [first, end) are the directive's. */
static void read_directive(struct rw_unit *u, size_t first, size_t end) {
  const struct rw_token *t = u->tokens;
  struct rw_pragma *p =
      add_pragma(u, RW_FORM_PRAGMA, t[first].begin, t[end - 1].end, &t[first + 2]);
  struct feeder f;
  start_feeder(&f, u, &t[first + 2], t[first].begin);
  for (size_t i = first + 3; i < end; i++)
    feed_token(&f, t[i].kind, t[i].text, t[i].line, t[i].col, 0);
  finish(&f, p);
}

/* Split the text of _Pragma's string into tokens, roughly as the
   preprocessor would: identifiers, numbers, strings, punctuation. */
static void read_operator(struct rw_unit *u, size_t at) {
  const struct rw_token *str = &u->tokens[at + 2];
  char *body = string_value(str->text), *s = body;
  struct rw_pragma *p;
  struct feeder f;
  size_t n;

  while (isspace((unsigned char)*s)) s++;
  n = strcspn(s, " \t(");
  if (!body || n != strlen(CW_PRAGMA_NAME) || strncmp(s, CW_PRAGMA_NAME, n)) {
    if (body) warn_near_miss(u, s, n, u->tokens[at].line, u->tokens[at].col);
    free(body);
    return;
  }
  p = add_pragma(u, RW_FORM_OPERATOR, u->tokens[at].begin, u->tokens[at + 3].end, &u->tokens[at]);
  start_feeder(&f, u, str, u->tokens[at].begin);
  for (s += n;;) {
    char save, *e = s;
    CXTokenKind kind = CXToken_Punctuation;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) break;
    e = s + 1;
    if (isalpha((unsigned char)*s) || *s == '_') {
      kind = CXToken_Identifier;
      while (isalnum((unsigned char)*e) || *e == '_') e++;
    } else if (isdigit((unsigned char)*s) || *s == '.') {
      kind = CXToken_Literal;
      while (isalnum((unsigned char)*e) || *e == '.' || *e == '\'') e++;
    } else if (*s == '"') {
      kind = CXToken_Literal;
      while (*e && *e != '"') e += (*e == '\\' && e[1]) ? 2 : 1;
      if (*e) e++;
    }
    save = *e;
    *e = 0;
    feed_token(&f, kind, s, str->line, str->col, 0);
    *e = save;
    s = e;
  }
  finish(&f, p);
  free(body);
}

static const struct rw_expansion *expansion_at(const struct rw_unit *u, unsigned offset) {
  for (size_t i = 0; i < u->nexpansions; i++)
    if (u->expansions[i].begin == offset) return &u->expansions[i];
  return NULL;
}

/* CAPTURE_WINDOW(A, B) or CAPTURE_WINDOW_LABEL(A, B, "L") at token AT,
   a use of the macro: its arguments are the pragma's. */
static void read_annotation(struct rw_unit *u, size_t at, const struct rw_expansion *x) {
  const struct rw_token *t = u->tokens;
  struct rw_pragma *p = add_pragma(u, RW_FORM_MACRO, x->begin, x->end, &t[at]);
  struct feeder f;
  start_feeder(&f, u, &t[at], t[at].begin);
  for (size_t i = at + 1; i < u->ntokens && t[i].end <= x->end; i++)
    feed_token(&f, t[i].kind, t[i].text, t[i].line, t[i].col, 0);
  finish(&f, p);
}

static int mentions_pragma(CXTranslationUnit tu, CXSourceRange range) {
  CXToken *toks;
  unsigned n;
  int found = 0;
  clang_tokenize(tu, range, &toks, &n);
  for (unsigned i = 0; i < n && !found; i++) {
    CXString s = clang_getTokenSpelling(tu, toks[i]);
    const char *text = clang_getCString(s);
    if (clang_getTokenKind(toks[i]) == CXToken_Literal) {
      char *value = string_value(text), *v = value;
      while (v && isspace((unsigned char)*v)) v++;
      found = v && !strncmp(v, CW_PRAGMA_NAME, strlen(CW_PRAGMA_NAME));
      free(value);
    } else {
      found = !strcmp(text, CW_PRAGMA_NAME) || !strcmp(text, "CAPTURE_WINDOW") ||
              !strcmp(text, "CAPTURE_WINDOW_LABEL");
    }
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  return found;
}

/* A use of some other macro whose definition or arguments hold a
   capture_window pragma: the loop it marks is inside an expansion, which
   the next round sees in the file (rw_inline.c). */
static void check_macro_use(struct rw_unit *u, const struct rw_token *name,
                            const struct rw_expansion *x) {
  CXCursor def = clang_getCursorReferenced(x->cursor);
  char why[512];
  if (((!clang_Cursor_isNull(def) && mentions_pragma(u->tu, clang_getCursorExtent(def))) ||
       mentions_pragma(u->tu, clang_getCursorExtent(x->cursor))) &&
      rw_inline_use(u, x, why, sizeof why) != 0)
    rw_error(u, name->line, name->col,
             "capture-window-rewrite cannot instrument a loop marked inside "
             "the expansion of macro '%s': %s; write '#pragma capture_window(...)' "
             "or CAPTURE_WINDOW(...) directly before the loop",
             name->text, why);
}

void rw_find_pragmas(struct rw_unit *u) {
  const struct rw_token *t = u->tokens;
  for (size_t i = 0; i < u->ntokens; i++) {
    const struct rw_expansion *x;
    if (t[i].skipped) continue;
    if (rw_token_is(&t[i], "#") && (i == 0 || !rw_same_logical_line(u, t[i - 1].end, t[i].begin))) {
      size_t end = i + 1;
      while (end < u->ntokens && rw_same_logical_line(u, t[end - 1].end, t[end].begin)) end++;
      if (end - i >= 3 && rw_token_is(&t[i + 1], "pragma") &&
          rw_token_is(&t[i + 2], CW_PRAGMA_NAME))
        read_directive(u, i, end);
      else if (end - i >= 3 && rw_token_is(&t[i + 1], "pragma") &&
               t[i + 2].kind == CXToken_Identifier)
        warn_near_miss(u, t[i + 2].text, strlen(t[i + 2].text), t[i + 2].line, t[i + 2].col);
      i = end - 1; /* #define bodies are checked where they are used */
      continue;
    }
    if (t[i].kind != CXToken_Identifier) continue;
    if (rw_token_is(&t[i], "_Pragma") && i + 3 < u->ntokens && rw_token_is(&t[i + 1], "(") &&
        t[i + 2].kind == CXToken_Literal && rw_token_is(&t[i + 3], ")")) {
      read_operator(u, i);
      i += 3;
    } else if ((x = expansion_at(u, t[i].begin))) {
      if (rw_token_is(&t[i], "CAPTURE_WINDOW") || rw_token_is(&t[i], "CAPTURE_WINDOW_LABEL"))
        read_annotation(u, i, x);
      else
        check_macro_use(u, &t[i], x);
      while (i + 1 < u->ntokens && t[i + 1].end <= x->end) i++;
    }
  }
}
