/*
 * rw_all_loops.c - -fplugin-arg-capture_window-all-loops[=START:COUNT]:
 * every loop of the file is marked as if a pragma stood before it, with
 * the plugins' rules (plugin/common/cw_all_loops.h): window START:COUNT
 * (default 0:1), label FUNCTION.LINE (a lambda's loops: operator_.LINE);
 * a loop with a pragma or a loop spec keeps its own arguments.  Left
 * alone, as by the plugins: loops of CUDA device functions, loops of
 * OpenMP/OpenACC constructs, and loops whose body a goto, a computed
 * goto or a case label can enter from outside (a note with verbose).
 * A loop whose keyword comes from a macro is marked in the next round,
 * once the macro's use is expanded in the file (rw_inline.c); left alone,
 * with a note under verbose, when that macro cannot be expanded.
 */
#include "rw.h"

#include <stdio.h>
#include <string.h>

#include "cw_all_loops.h"

/* The identifier after the first token of node N (goto L, &&L), or the
   first token itself (L: ...). */
static const char *label_name(const struct rw_unit *u, const struct rw_node *n, int after) {
  size_t k = rw_token_at(u, n->begin) + (after ? 1 : 0);
  return k < u->ntokens ? u->tokens[k].text : "";
}

static int inside(const struct rw_node *n, unsigned begin, unsigned end) {
  return n->begin >= begin && n->end <= end;
}

/* The nearest ancestor of node I that is a switch, or stops at STOP. */
static int in_switch_below(const struct rw_unit *u, size_t i, int stop) {
  for (int p = u->nodes[i].parent; p >= 0 && p != stop; p = u->nodes[p].parent)
    if (u->nodes[p].kind == CXCursor_SwitchStmt) return 1;
  return 0;
}

/* A goto from outside LOOP, a computed goto or a case label of a switch
   around it can enter its body: the guard it would get is jumped over
   (the plugins' rule). */
static int body_enterable(const struct rw_unit *u, int loop, int body) {
  const struct rw_node *l = &u->nodes[loop], *f = &u->nodes[body];
  for (size_t i = 0; i < u->nnodes; i++) {
    const struct rw_node *n = &u->nodes[i];
    if (!inside(n, l->begin, l->end) || (int)i == loop) continue;
    if ((n->kind == CXCursor_CaseStmt || n->kind == CXCursor_DefaultStmt) &&
        !in_switch_below(u, i, loop))
      return 1;
    if (n->kind != CXCursor_LabelStmt) continue;
    for (size_t j = 0; j < u->nnodes; j++) {
      const struct rw_node *g = &u->nodes[j];
      if (!inside(g, f->begin, f->end)) continue;
      if ((g->kind == CXCursor_GotoStmt && !inside(g, l->begin, l->end)) ||
          g->kind == CXCursor_AddrLabelExpr) {
        if (!strcmp(label_name(u, n, 0), label_name(u, g, 1))) return 1;
      }
    }
  }
  return 0;
}

/* `#pragma omp|acc ...` on the lines just before loop node I (libclang
   shows no construct without -fopenmp), or an OpenMP construct around
   it: the loop is the construct's. */
static int in_openmp(const struct rw_unit *u, size_t i) {
  size_t k = rw_token_at(u, u->nodes[i].begin);
  for (int p = u->nodes[i].parent; p >= 0; p = u->nodes[p].parent)
    if (u->nodes[p].kind >= CXCursor_OMPParallelDirective &&
        u->nodes[p].kind <= CXCursor_LastStmt && u->nodes[p].kind != CXCursor_OMPSimdDirective)
      return 1;
  while (k > 0) {
    size_t start = k - 1;
    unsigned line = u->tokens[start].line;
    while (start > 0 && u->tokens[start - 1].line == line) start--;
    if (!rw_token_is(&u->tokens[start], "#") || start + 2 >= u->ntokens ||
        !rw_token_is(&u->tokens[start + 1], "pragma"))
      return 0;
    if ((rw_token_is(&u->tokens[start + 2], "omp") &&
         !rw_token_is(&u->tokens[start + 3], "simd")) ||
        rw_token_is(&u->tokens[start + 2], "acc"))
      return 1;
    k = start;
  }
  return 0;
}

static int already_marked(const struct rw_unit *u, size_t i) {
  for (size_t j = 0; j < u->npragmas; j++)
    if (u->pragmas[j].loop == (int)i) return 1;
  return 0;
}

/* The label of loop node I in the function of BODY: FUNCTION.LINE. */
static void auto_label(const struct rw_unit *u, size_t i, int body, char *out) {
  CXCursor f = u->nodes[body].function;
  CXString name = clang_getCursorSpelling(f);
  unsigned line, col;
  rw_offset_position(u, u->nodes[i].begin, &line, &col);
  cw_auto_label(
      out, clang_getCursorKind(f) == CXCursor_LambdaExpr ? "operator()" : clang_getCString(name),
      line);
  clang_disposeString(name);
}

static void left_alone(struct rw_unit *u, size_t i, const char *label, const char *why) {
  unsigned line, col;
  char text[512];
  if (!u->options.verbose) return;
  rw_offset_position(u, u->nodes[i].begin, &line, &col);
  if (why)
    rw_note(u, line, col, "capture_window: loop \"%s\" not instrumented: %s", label, why);
  else
    rw_note(u, line, col, "%s", cw_format_loop_left_alone(text, sizeof text, label));
}

void rw_mark_all_loops(struct rw_unit *u) {
  if (!u->options.all_loops) return;
  for (size_t i = 0; i < u->nnodes; i++) {
    int outermost, body;
    struct cw_loop_window w = u->options.all_loops_window;
    if (!rw_is_loop(u->nodes[i].kind) || already_marked(u, i)) continue;
    body = rw_enclosing_body(u, i, &outermost);
    if (body < 0 || u->nodes[body].device == 1 || in_openmp(u, i)) continue;
    auto_label(u, i, body, w.label);
    if (!rw_is_rewritable_loop(u, i)) {
      /* Built by a macro: the next round sees its expansion. */
      char why[512];
      if (rw_inline_loop_macro(u, (int)i, why, sizeof why) != 0) left_alone(u, i, w.label, why);
    } else if (body_enterable(u, (int)i, body))
      left_alone(u, i, w.label, NULL);
    else
      rw_mark_loop(u, i, body, &w, NULL);
  }
}
