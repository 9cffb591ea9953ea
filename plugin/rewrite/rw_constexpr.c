/*
 * rw_constexpr.c - whether a marked loop stands in a function that
 * constant evaluation may run: a constexpr or consteval function (the
 * keyword written in its declaration, or in a macro its declaration
 * expands, such as FMT_CONSTEXPR), or a C++ lambda (C++17 makes every
 * lambda constexpr that can be).  rw_emit.c gives such a loop the form
 * that keeps the function a constant expression: no static variable and
 * no object with a destructor in the function itself.
 */
#include "rw.h"

#include <string.h>

static int is_constexpr_keyword(const char *s) {
  return !strcmp(s, "constexpr") || !strcmp(s, "consteval");
}

/* The definition of the macro that expansion E names says constexpr. */
static int macro_says_constexpr(const struct rw_unit *u, const struct rw_expansion *e) {
  CXCursor def = clang_getCursorReferenced(e->cursor);
  CXToken *toks;
  unsigned n;
  int found = 0;
  if (clang_Cursor_isNull(def)) return 0;
  clang_tokenize(u->tu, clang_getCursorExtent(def), &toks, &n);
  for (unsigned i = 1; i < n && !found; i++) { /* [0] is the name */
    CXString s = clang_getTokenSpelling(u->tu, toks[i]);
    found = is_constexpr_keyword(clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(u->tu, toks, n);
  return found;
}

/* The declaration of function F, up to its body at BODY, says constexpr
   or consteval (outside parentheses: not a default argument's lambda). */
static int declared_constexpr(const struct rw_unit *u, CXCursor f, unsigned body) {
  CXFile file;
  unsigned begin;
  int depth = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(f)), &file, NULL, NULL,
                             &begin);
  if (!file || !clang_File_isEqual(file, u->file) || begin > body) return 0;
  for (size_t k = rw_token_at(u, begin); k < u->ntokens && u->tokens[k].begin < body; k++) {
    const struct rw_token *t = &u->tokens[k];
    if (rw_token_is(t, "("))
      depth++;
    else if (rw_token_is(t, ")"))
      depth--;
    else if (depth == 0 && is_constexpr_keyword(t->text))
      return 1;
  }
  for (size_t i = 0; i < u->nexpansions; i++)
    if (u->expansions[i].begin >= begin && u->expansions[i].end <= body &&
        macro_says_constexpr(u, &u->expansions[i]))
      return 1;
  return 0;
}

int rw_constant_evaluable(const struct rw_unit *u, int loop) {
  int p = u->nodes[loop].parent;
  CXCursor f;
  if (u->lang == RW_C) return 0;
  while (p >= 0 && !u->nodes[p].function_body) p = u->nodes[p].parent;
  if (p < 0) return 0;
  f = u->nodes[p].function;
  return clang_getCursorKind(f) == CXCursor_LambdaExpr ||
         declared_constexpr(u, f, u->nodes[p].begin);
}
