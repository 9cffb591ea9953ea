/*
 * rw_inline.c - loops built by macros.  No edit of the file reaches into
 * a macro's definition, so a use of a macro that builds a marked loop (its
 * keyword, or the pragma that marks it) is replaced by its expansion, and
 * the file is parsed again: then the loop is written in the file, and is
 * rewritten like any other (capture_window_rewrite.c runs the rounds).
 *
 *   #define REPEAT(n, stmt) for (int r_ = 0; r_ < (n); r_++) stmt
 *   REPEAT(2, t += n);
 *
 * becomes, on the same line, `for (int r_ = 0; r_ < ( 2 ); r_++) t += n ;`
 * before it is instrumented.
 *
 * The expansion is one level, as text: the macro's replacement list with
 * each parameter replaced by its argument as written, `#` and `##`
 * applied, GNU's `, ## __VA_ARGS__` and `__VA_OPT__(...)` honoured.
 * Macros in the result expand when the copy is compiled, as they would
 * have (a macro whose loop comes from a macro it uses takes another
 * round).  The use's lines stay: the expansion takes the use's first line,
 * and its other lines stay empty.
 * Refused, with the reason: a replacement list that names its own macro
 * (text would expand it again), and `__VA_OPT__` next to `#` or `##` or
 * within another (rare forms whose placemarker rules text does not keep).
 */
#include "rw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text {
  char *s;
  size_t n, cap;
  int space; /* a space before the next piece (there was a gap) */
  int glue;  /* the next piece joins the last one (##) */
};

static void put(struct text *t, const char *piece, size_t len) {
  if (t->space && !t->glue && t->n) {
    t->s = rw_grow(t->s, &t->cap, t->n + 2, 1);
    t->s[t->n++] = ' ';
  }
  t->s = rw_grow(t->s, &t->cap, t->n + len + 1, 1);
  memcpy(t->s + t->n, piece, len);
  t->n += len;
  t->s[t->n] = 0;
  t->space = t->glue = 0;
}

static void puts_text(struct text *t, const char *piece) { put(t, piece, strlen(piece)); }

/* The macro's definition, as tokens: [0] its name, then its parameters
   (function-like), then the replacement list from BODY on. */
struct definition {
  CXTranslationUnit tu;
  CXToken *toks;
  unsigned n, body;
  const char *params[64]; /* spellings, owned by spell[] */
  unsigned nparams;
  int function_like;
  int variadic; /* the last parameter takes the rest of the arguments */
  CXString *spell;
  unsigned *begin, *end; /* offsets, to see the gaps between tokens */
};

static void definition_dispose(struct definition *d) {
  for (unsigned i = 0; i < d->n; i++) clang_disposeString(d->spell[i]);
  free(d->spell);
  free(d->begin);
  free(d->end);
  if (d->toks) clang_disposeTokens(d->tu, d->toks, d->n);
}

static const char *dtext(const struct definition *d, unsigned i) {
  return i < d->n ? clang_getCString(d->spell[i]) : "";
}

static int read_definition(const struct rw_unit *u, CXCursor def, struct definition *d) {
  unsigned i = 1;
  memset(d, 0, sizeof *d);
  d->tu = u->tu;
  clang_tokenize(u->tu, clang_getCursorExtent(def), &d->toks, &d->n);
  d->spell = calloc(d->n + 1, sizeof *d->spell);
  d->begin = calloc(d->n + 1, sizeof *d->begin);
  d->end = calloc(d->n + 1, sizeof *d->end);
  for (unsigned k = 0; k < d->n; k++) {
    CXSourceRange r = clang_getTokenExtent(u->tu, d->toks[k]);
    d->spell[k] = clang_getTokenSpelling(u->tu, d->toks[k]);
    clang_getSpellingLocation(clang_getRangeStart(r), NULL, NULL, NULL, &d->begin[k]);
    clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &d->end[k]);
  }
  d->function_like = clang_Cursor_isMacroFunctionLike(def);
  if (!d->function_like) {
    d->body = 1;
    return d->n > 0;
  }
  for (i = 2; i < d->n && strcmp(dtext(d, i), ")"); i++) {
    const char *p = dtext(d, i);
    if (!strcmp(p, ",")) continue;
    if (!strcmp(p, "..."))
      d->variadic = 1, p = "__VA_ARGS__";
    else if (!strcmp(dtext(d, i + 1), "..."))
      d->variadic = 1, i++;
    if (d->nparams < sizeof d->params / sizeof *d->params) d->params[d->nparams++] = p;
  }
  d->body = i + 1;
  return d->n > 0 && i < d->n;
}

static int param_index(const struct definition *d, const char *name) {
  for (unsigned k = 0; k < d->nparams; k++)
    if (!strcmp(d->params[k], name)) return (int)k;
  return -1;
}

/* The use's arguments: ranges of the file's tokens. */
struct arguments {
  size_t first[64], last[64]; /* [first, last) */
  unsigned n;
};

static int read_arguments(const struct rw_unit *u, const struct rw_expansion *x,
                          const struct definition *d, struct arguments *a) {
  size_t k = rw_token_at(u, x->begin) + 1;
  int depth = 0;
  a->n = 0;
  if (k >= u->ntokens || !rw_token_is(&u->tokens[k], "(")) return 0;
  a->first[0] = ++k;
  for (; k < u->ntokens && u->tokens[k].end <= x->end; k++) {
    const struct rw_token *t = &u->tokens[k];
    if (rw_token_is(t, "(")) depth++;
    if (rw_token_is(t, ")") && depth-- == 0) break;
    /* The variadic parameter takes the commas of the rest. */
    if (rw_token_is(t, ",") && depth == 0 && !(d->variadic && a->n + 1 >= d->nparams) &&
        a->n + 1 < 64) {
      a->last[a->n++] = k;
      a->first[a->n] = k + 1;
    }
  }
  a->last[a->n++] = k;
  if (d->nparams == 0 && a->n == 1 && a->first[0] == a->last[0]) a->n = 0;
  if (d->variadic && a->n + 1 == d->nparams) { /* no variadic argument */
    a->first[a->n] = a->last[a->n] = k;
    a->n++;
  }
  return a->n == d->nparams;
}

/* Argument K as written (tokens, a space where the file had a gap). */
static void put_argument(const struct rw_unit *u, const struct arguments *a, int k,
                         struct text *t) {
  for (size_t i = a->first[k]; i < a->last[k]; i++) {
    if (i > a->first[k] && u->tokens[i].begin > u->tokens[i - 1].end) t->space = 1;
    puts_text(t, u->tokens[i].text);
  }
}

/* #param: argument K as a string literal (escapes in its literals). */
static void put_stringified(const struct rw_unit *u, const struct arguments *a, int k,
                            struct text *t) {
  struct text s = {0};
  puts_text(&s, "\"");
  for (size_t i = a->first[k]; i < a->last[k]; i++) {
    const struct rw_token *tok = &u->tokens[i];
    if (i > a->first[k] && tok->begin > u->tokens[i - 1].end) s.space = 1;
    if (tok->kind == CXToken_Literal && strpbrk(tok->text, "\"'")) {
      for (const char *c = tok->text; *c; c++) {
        char esc[3] = {'\\', *c, 0};
        if (*c == '"' || *c == '\\')
          puts_text(&s, esc);
        else
          put(&s, c, 1);
      }
    } else {
      puts_text(&s, tok->text);
    }
  }
  put(&s, "\"", 1);
  puts_text(t, s.s);
  free(s.s);
}

/* The token that closes the parenthesis at OPEN, or 0. */
static unsigned closing_paren(const struct definition *d, unsigned open) {
  int depth = 0;
  for (unsigned i = open; i < d->n; i++) {
    if (!strcmp(dtext(d, i), "(")) depth++;
    if (!strcmp(dtext(d, i), ")") && --depth == 0) return i;
  }
  return 0;
}

/* __VA_OPT__(...) at I: 0 and *SKIP_TO (the group's last token) when the
   variadic argument is empty, 0 and *CLOSE (its `)`, to drop) when not,
   -1 for the forms text cannot take (next to # or ##, nested). */
static int va_opt(const struct definition *d, const struct arguments *a, unsigned i,
                  unsigned close_before, unsigned *skip_to, unsigned *close) {
  unsigned end = strcmp(dtext(d, i + 1), "(") ? 0 : closing_paren(d, i + 1);
  if (!d->variadic || !end || close_before || !strcmp(dtext(d, i - 1), "#") ||
      !strcmp(dtext(d, i - 1), "##") || !strcmp(dtext(d, end + 1), "##"))
    return -1;
  if (a->first[d->nparams - 1] == a->last[d->nparams - 1])
    *skip_to = end;
  else
    *skip_to = i + 1, *close = end;
  return 0;
}

static char *expansion_text(const struct rw_unit *u, const struct rw_expansion *x,
                            const struct definition *d, const struct arguments *a, char *why,
                            size_t size) {
  struct text t = {0};
  const char *name = dtext(d, 0);
  unsigned opt_close = 0; /* the `)` of the __VA_OPT__ group being copied */
  puts_text(&t, "");
  for (unsigned i = d->body; i < d->n; i++) {
    const char *tok = dtext(d, i);
    int k = param_index(d, tok), next_glue = !strcmp(dtext(d, i + 1), "##");
    if (i > d->body && d->begin[i] > d->end[i - 1]) t.space = 1;
    if (!strcmp(tok, name) ||
        (!strcmp(tok, "__VA_OPT__") && va_opt(d, a, i, opt_close, &i, &opt_close) != 0)) {
      snprintf(why, size, "%s",
               !strcmp(tok, name) ? "its expansion names the macro itself"
                                  : "its __VA_OPT__ is next to # or ##, or nested");
      free(t.s);
      return NULL;
    }
    if (!strcmp(tok, "__VA_OPT__")) continue; /* i moved past it */
    if (i == opt_close) {
      opt_close = 0;
      continue;
    }
    if (!strcmp(tok, "##")) {
      t.glue = 1;
    } else if (!strcmp(tok, "#") && d->function_like &&
               (k = param_index(d, dtext(d, i + 1))) >= 0) {
      put_stringified(u, a, k, &t);
      i++;
    } else if (!strcmp(tok, ",") && next_glue && d->variadic &&
               param_index(d, dtext(d, i + 2)) == (int)d->nparams - 1 &&
               a->first[d->nparams - 1] == a->last[d->nparams - 1]) {
      i += 2; /* GNU: `, ## __VA_ARGS__` with no variadic argument */
    } else if (k >= 0) {
      /* Spaces around an argument keep its tokens from joining the
         replacement list's (`-x` with x = -1), but not across ##. */
      if (!t.glue) t.space = 1;
      put_argument(u, a, k, &t);
      t.space = !next_glue;
    } else {
      puts_text(&t, tok);
    }
  }
  for (unsigned i = x->begin; i < x->end; i++)
    if (u->text[i] == '\n') put(&t, "\n", 1);
  return t.s;
}

/* WHY: "macro 'NAME' cannot be expanded in the copy: REASON". */
static int refuse(const struct rw_unit *u, const struct rw_expansion *x, const char *reason,
                  char *why, size_t size) {
  size_t k = rw_token_at(u, x->begin);
  snprintf(why, size, "macro '%s' cannot be expanded in the copy: %s",
           k < u->ntokens ? u->tokens[k].text : "?", reason);
  return -1;
}

int rw_inline_use(struct rw_unit *u, const struct rw_expansion *x, char *why, size_t size) {
  CXCursor def = clang_getCursorReferenced(x->cursor);
  struct definition d;
  struct arguments a = {0};
  char reason[256], *text = NULL;
  for (size_t i = 0; i < u->ninlines; i++)
    if (u->inlines[i].begin == x->begin) return 0;
  if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_MacroDefinition)
    return refuse(u, x, "its definition is not known", why, size);
  if (!read_definition(u, def, &d))
    snprintf(reason, sizeof reason, "its definition cannot be read");
  else if (d.function_like && !read_arguments(u, x, &d, &a))
    snprintf(reason, sizeof reason, "its arguments cannot be read");
  else
    text = expansion_text(u, x, &d, &a, reason, sizeof reason);
  definition_dispose(&d);
  if (!text) return refuse(u, x, reason, why, size);
  u->inlines = rw_grow(u->inlines, &u->inlines_cap, u->ninlines + 1, sizeof *u->inlines);
  u->inlines[u->ninlines++] = (struct rw_inline){x->begin, x->end, text};
  return 0;
}

int rw_inline_loop_macro(struct rw_unit *u, int loop, char *why, size_t size) {
  for (size_t i = 0; i < u->nexpansions; i++)
    if (u->expansions[i].begin == u->nodes[loop].begin)
      return rw_inline_use(u, &u->expansions[i], why, size);
  snprintf(why, size, "no macro use written in the file holds it");
  return -1;
}

static int by_begin(const void *a, const void *b) {
  const struct rw_inline *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin;
}

char *rw_inlined_text(const struct rw_unit *u, size_t *size) {
  struct text t = {0};
  unsigned at = 0;
  qsort(u->inlines, u->ninlines, sizeof *u->inlines, by_begin);
  puts_text(&t, "");
  for (size_t i = 0; i < u->ninlines; i++) {
    if (u->inlines[i].begin < at) continue; /* inside one replaced already */
    put(&t, u->text + at, u->inlines[i].begin - at);
    puts_text(&t, u->inlines[i].text);
    at = u->inlines[i].end;
  }
  put(&t, u->text + at, u->size - at);
  *size = t.n;
  return t.s;
}
