/*
 * rw_spec.c - zero-edit marking: the loops that --loop SPEC (or
 * -fplugin-arg-capture_window-loop[-optional]=SPEC among the compiler
 * flags) names, with the plugins' rules (capture_window/loop_spec.h):
 * FILE:LINE, the loop whose keyword is on LINE when the file's path ends
 * in FILE; FUNCTION, the outermost loop of each function so named.  Each
 * becomes an rw_pragma of its own (begin == end, at the loop keyword), so
 * rw_emit.c rewrites it as it rewrites a pragma's loop.
 */
#include "rw.h"

#include <stdio.h>
#include <string.h>

/* A loop node written in the file (its keyword is the node's first
   token, not a macro's expansion), outside device-only code. */
int rw_is_rewritable_loop(const struct rw_unit *u, size_t i) {
  const struct rw_node *n = &u->nodes[i];
  size_t k;
  if (!rw_is_loop(n->kind)) return 0;
  k = rw_token_at(u, n->begin);
  return k < u->ntokens && u->tokens[k].begin == n->begin &&
         (rw_token_is(&u->tokens[k], "for") || rw_token_is(&u->tokens[k], "while") ||
          rw_token_is(&u->tokens[k], "do"));
}

/* The function body holding node I, or -1; *OUTERMOST: no loop between. */
int rw_enclosing_body(const struct rw_unit *u, size_t i, int *outermost) {
  *outermost = 1;
  for (int p = u->nodes[i].parent; p >= 0; p = u->nodes[p].parent) {
    if (u->nodes[p].function_body) return p;
    if (rw_is_loop(u->nodes[p].kind)) *outermost = 0;
  }
  return -1;
}

/* F's scopes and name joined by "::", unnamed scopes left out. */
static size_t qualified_name(CXCursor f, char *buf, size_t size) {
  CXCursor parent = clang_getCursorSemanticParent(f);
  size_t n = 0;
  CXString name;
  const char *s;
  if (clang_Cursor_isNull(f) || clang_getCursorKind(f) == CXCursor_TranslationUnit) return 0;
  n = qualified_name(parent, buf, size);
  name = clang_getCursorSpelling(f);
  s = clang_getCString(name);
  if (s && *s && n < size) n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "::" : "", s);
  clang_disposeString(name);
  return n < size ? n : size - 1;
}

/* Does A name loop node I?  (FUNCTION: I is the outermost loop of a
   function so named.) */
/* A's FUNCTION names F (not a lambda's body). */
static int names_function(struct cw_loop_arg *a, CXCursor f) {
  char name[512];
  if (clang_getCursorKind(f) == CXCursor_LambdaExpr) return 0;
  qualified_name(f, name, sizeof name);
  return cw_loop_spec_function_matches_v1(&a->spec, name);
}

static int names_loop(const struct rw_unit *u, struct cw_loop_arg *a, size_t i) {
  const struct rw_node *n = &u->nodes[i];
  int outermost, body = rw_enclosing_body(u, i, &outermost);
  unsigned line, col;
  if (body < 0 || u->nodes[body].device == 1) return 0;
  if (!a->spec.by_function) {
    rw_offset_position(u, n->begin, &line, &col);
    return line == a->spec.line && cw_loop_spec_file_matches_v1(&a->spec, u->path);
  }
  return outermost && names_function(a, u->nodes[body].function);
}

/* The pragma-or-spec entry that already marks loop node I, or -1. */
static int marked_by(const struct rw_unit *u, size_t i) {
  for (size_t j = 0; j < u->npragmas; j++)
    if (u->pragmas[j].loop == (int)i) return (int)j;
  return -1;
}

/* Loop node I of the function body BODY is marked with WINDOW (SPEC the
   loop spec that names it, or NULL for all-loops). */
void rw_mark_loop(struct rw_unit *u, size_t i, int body, const struct cw_loop_window *window,
                  const struct cw_loop_arg *spec) {
  struct rw_pragma *p;
  unsigned line, col;
  rw_offset_position(u, u->nodes[i].begin, &line, &col);
  u->pragmas = rw_grow(u->pragmas, &u->pragmas_cap, u->npragmas + 1, sizeof *p);
  p = &u->pragmas[u->npragmas++];
  memset(p, 0, sizeof *p);
  p->form = RW_FORM_PRAGMA;
  p->begin = p->end = u->nodes[i].begin;
  p->name_line = line;
  p->name_col = col;
  p->window = *window;
  p->valid = 1;
  p->loop = (int)i;
  p->host_only = u->nodes[body].device == 2;
  p->spec = spec;
  if (u->options.verbose) {
    char name[512], text[1024];
    rw_function_name(u, u->nodes[body].function, name, sizeof name);
    cw_format_loop_note(text, sizeof text, rw_loop_kind(u->nodes[i].kind), p->window.label,
                        p->window.start, p->window.count, u->path, line, name);
    rw_note(u, line, col, "%s", text);
  }
}

/* Loop node I is what A names: mark it, or say why not. */
static void claim(struct rw_unit *u, struct cw_loop_arg *a, size_t i) {
  int outermost, body = rw_enclosing_body(u, i, &outermost), j = marked_by(u, i);
  unsigned line, col;
  char text[1024];
  a->matched = 1;
  rw_offset_position(u, u->nodes[i].begin, &line, &col);
  if (j < 0) {
    rw_mark_loop(u, i, body, &a->spec.window, a);
  } else if (!u->pragmas[j].spec) {
    rw_error(u, line, col, "%s", cw_format_loop_has_pragma(text, sizeof text, a->given));
    rw_note(u, u->pragmas[j].name_line, u->pragmas[j].name_col, "%s",
            cw_message(CW_MSG_PRAGMA_HERE));
  } else {
    rw_error(u, line, col, "%s",
             cw_format_loop_marked_twice(text, sizeof text, a->given, u->pragmas[j].spec->given));
  }
}

/* Loop node I, which A names, is built by a macro: the next round sees
   its expansion in the file (rw_inline.c), or this says why not. */
static void claim_macro_loop(struct rw_unit *u, struct cw_loop_arg *a, size_t i) {
  char why[512];
  a->matched = 1;
  if (rw_inline_loop_macro(u, (int)i, why, sizeof why) != 0) {
    unsigned line, col;
    rw_offset_position(u, u->nodes[i].begin, &line, &col);
    rw_error(u, line, col, "%s names a loop whose keyword comes from a macro, and %s", a->given,
             why);
  }
}

/* FUNCTION specs: every function so named has one outermost loop. */
static int ambiguous(struct rw_unit *u, struct cw_loop_arg *a, size_t i, size_t first) {
  int o1, o2;
  unsigned line, col;
  char name[512], text[1024];
  if (!a->spec.by_function || rw_enclosing_body(u, i, &o1) != rw_enclosing_body(u, first, &o2))
    return 0;
  qualified_name(u->nodes[rw_enclosing_body(u, i, &o1)].function, name, sizeof name);
  rw_offset_position(u, u->nodes[i].begin, &line, &col);
  rw_error(u, line, col, "%s", cw_format_loop_ambiguous(text, sizeof text, a->given, name));
  rw_offset_position(u, u->nodes[first].begin, &line, &col);
  rw_note(u, line, col, "the first outermost loop is here");
  return 1;
}

static void match_spec(struct rw_unit *u, struct cw_loop_arg *a) {
  size_t found[64], nfound = 0;
  char text[1024];
  for (size_t i = 0; i < u->nnodes && a->spec.by_function; i++)
    if (u->nodes[i].function_body && names_function(a, u->nodes[i].function)) a->function_seen = 1;
  for (size_t i = 0; i < u->nnodes; i++) {
    if (!rw_is_loop(u->nodes[i].kind) || !names_loop(u, a, i)) continue;
    if (!rw_is_rewritable_loop(u, i)) {
      claim_macro_loop(u, a, i);
      continue;
    }
    for (size_t k = 0; k < nfound; k++)
      if (ambiguous(u, a, i, found[k])) {
        a->matched = 1;
        return;
      }
    if (nfound < sizeof found / sizeof *found) found[nfound++] = i;
  }
  for (size_t k = 0; k < nfound; k++) claim(u, a, found[k]);
  if (cw_format_loop_arg_unmatched(text, sizeof text, a)) rw_tool_error(u, "%s", text);
}

void rw_match_loop_specs(struct rw_unit *u) {
  for (size_t k = 0; k < u->options.nloop_args; k++) match_spec(u, &u->options.loop_args[k]);
}
