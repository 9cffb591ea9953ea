/*
 * rw_loop.c - the loop each pragma marks, and the errors about where a
 * pragma stands: outside a function, not followed by a loop, on an
 * OpenMP/OpenACC construct, a second pragma on one loop.
 *
 * "Followed by" means: among the statements of the innermost statement
 * that holds the pragma (usually its block), the first that begins after
 * the pragma.  Other pragmas and comments may sit in between; a statement
 * may not.  `#pragma omp simd` is a plain loop (one thread, in order), as
 * for the plugins.
 */
#include "rw.h"

#include <stdio.h>
#include <string.h>

int rw_is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
         k == CXCursor_CXXForRangeStmt;
}

static int is_openmp(enum CXCursorKind k) {
  return k >= CXCursor_OMPParallelDirective && k <= CXCursor_LastStmt;
}

/* The innermost node that holds OFFSET strictly inside and passes WANT. */
static int innermost(const struct rw_unit *u, unsigned offset,
                     int (*want)(const struct rw_node *)) {
  int best = -1;
  for (size_t i = 0; i < u->nnodes; i++) {
    const struct rw_node *n = &u->nodes[i];
    if (n->begin < offset && offset < n->end && want(n) &&
        (best < 0 || n->end - n->begin <= u->nodes[best].end - u->nodes[best].begin))
      best = (int)i;
  }
  return best;
}

static int is_function_body(const struct rw_node *n) { return n->function_body; }
static int is_statement(const struct rw_node *n) { return clang_isStatement(n->kind); }

/* The first child of PARENT that begins at or after OFFSET (outermost
   when several begin there). */
static int first_child_after(const struct rw_unit *u, int parent, unsigned offset) {
  int best = -1;
  for (size_t i = 0; i < u->nnodes; i++) {
    const struct rw_node *n = &u->nodes[i];
    if (n->parent == parent && n->begin >= offset && (best < 0 || n->begin < u->nodes[best].begin))
      best = (int)i;
  }
  return best;
}

/* `#pragma omp|acc ...` other than `omp simd` between BEGIN and END: the
   construct spreads the loop over threads (also when the rewriter itself
   was not given -fopenmp). */
static int openmp_between(const struct rw_unit *u, unsigned begin, unsigned end) {
  const struct rw_token *t = u->tokens;
  for (size_t i = rw_token_at(u, begin); i + 2 < u->ntokens && t[i].begin < end; i++)
    if (rw_token_is(&t[i], "#") && rw_token_is(&t[i + 1], "pragma") &&
        (rw_token_is(&t[i + 2], "omp") || rw_token_is(&t[i + 2], "acc")) &&
        !(rw_token_is(&t[i + 2], "omp") && i + 3 < u->ntokens && rw_token_is(&t[i + 3], "simd")))
      return 1;
  return 0;
}

/* The loop a wrapper node holds: `#pragma omp simd`'s directive, or the
   statement libclang does not expose that loop hints (`#pragma GCC
   unroll`, `#pragma clang loop`) make.  -1 if it holds none. */
static int wrapped_loop(const struct rw_unit *u, int wrapper) {
  const struct rw_node *d = &u->nodes[wrapper];
  int best = -1;
  for (size_t i = 0; i < u->nnodes; i++)
    if (rw_is_loop(u->nodes[i].kind) && u->nodes[i].begin >= d->begin &&
        u->nodes[i].end <= d->end && (best < 0 || u->nodes[i].begin < u->nodes[best].begin))
      best = (int)i;
  return best;
}

const char *rw_loop_kind(enum CXCursorKind k) {
  return k == CXCursor_DoStmt ? "do" : k == CXCursor_WhileStmt ? "while" : "for";
}

/* The function's name as the sites carry it: GCC's __FUNCTION__ in C,
   close to __PRETTY_FUNCTION__ in C++ ("int main()"). */
void rw_function_name(const struct rw_unit *u, CXCursor f, char *buf, size_t size) {
  CXString name = clang_getCursorSpelling(f);
  if (u->lang == RW_C || clang_getCursorKind(f) == CXCursor_LambdaExpr) {
    snprintf(buf, size, "%s", clang_getCString(name));
  } else {
    CXString display = clang_getCursorDisplayName(f);
    CXString result = clang_getTypeSpelling(clang_getCursorResultType(f));
    const char *r = clang_getCString(result);
    snprintf(buf, size, "%s%s%s", r, *r ? " " : "", clang_getCString(display));
    clang_disposeString(display);
    clang_disposeString(result);
  }
  clang_disposeString(name);
}

/* The loop node pragma P marks, or -1 after the error that says why it
   marks none. */
static int pragma_loop(struct rw_unit *u, const struct rw_pragma *p) {
  int holder = innermost(u, p->begin, is_statement);
  int next = holder < 0 ? -1 : first_child_after(u, holder, p->end);
  int loop;
  enum CXCursorKind kind;
  if (next < 0) {
    rw_error(u, p->name_line, p->name_col, "%s", cw_message(CW_MSG_NOT_FOLLOWED_BY_LOOP));
    return -1;
  }
  kind = u->nodes[next].kind;
  if (is_openmp(kind) && kind != CXCursor_OMPSimdDirective) {
    rw_error(u, p->name_line, p->name_col, "%s", cw_message(CW_MSG_OPENMP_LOOP));
    return -1;
  }
  loop = kind == CXCursor_OMPSimdDirective || kind == CXCursor_UnexposedStmt ? wrapped_loop(u, next)
                                                                             : next;
  if (loop < 0 || !rw_is_loop(u->nodes[loop].kind)) {
    rw_error(u, p->name_line, p->name_col, "%s", cw_message(CW_MSG_NOT_FOLLOWED_BY_LOOP));
    return -1;
  }
  if (openmp_between(u, p->end, u->nodes[loop].begin)) {
    rw_error(u, p->name_line, p->name_col, "%s", cw_message(CW_MSG_OPENMP_LOOP));
    return -1;
  }
  if (!rw_is_rewritable_loop(u, loop)) {
    /* Built by a macro: the next round sees its expansion in the file. */
    char why[512];
    if (rw_inline_loop_macro(u, loop, why, sizeof why) != 0)
      rw_error(u, p->name_line, p->name_col,
               "capture-window-rewrite cannot instrument this loop: its "
               "keyword comes from a macro, and %s",
               why);
    return -1;
  }
  return loop;
}

/* Whether a pragma before pragma INDEX marks LOOP too (then an error). */
static int second_pragma(struct rw_unit *u, size_t index, int loop) {
  const struct rw_pragma *p = &u->pragmas[index];
  for (size_t j = 0; j < index; j++)
    if (u->pragmas[j].loop == loop) {
      rw_error(u, p->name_line, p->name_col, "%s", cw_message(CW_MSG_TWO_PRAGMAS));
      rw_note(u, u->pragmas[j].name_line, u->pragmas[j].name_col, "%s",
              cw_message(CW_MSG_FIRST_PRAGMA_HERE));
      return 1;
    }
  return 0;
}

/* verbose: the note for pragma P's loop, in the function of BODY. */
static void note_instrumented(struct rw_unit *u, const struct rw_pragma *p, int body) {
  char name[512], text[1024];
  rw_function_name(u, u->nodes[body].function, name, sizeof name);
  cw_format_loop_note(text, sizeof text, rw_loop_kind(u->nodes[p->loop].kind), p->window.label,
                      p->window.start, p->window.count, u->path, p->name_line, name);
  rw_note(u, p->name_line, p->name_col, "%s", text);
}

static void match_one(struct rw_unit *u, size_t index) {
  struct rw_pragma *p = &u->pragmas[index];
  int body = innermost(u, p->begin, is_function_body);
  int loop;

  if (body < 0) {
    rw_error(u, p->name_line, p->name_col, "%s", cw_message(CW_MSG_OUTSIDE_FUNCTION));
    return;
  }
  if (u->nodes[body].device == 1) {
    rw_warning(u, p->name_line, p->name_col,
               "capture_window pragma in device code ignored (only host "
               "loops are instrumented)");
    return;
  }
  loop = pragma_loop(u, p);
  if (loop < 0 || second_pragma(u, index, loop)) return;
  p->loop = loop;
  p->host_only = u->nodes[body].device == 2;
  if (u->options.verbose) note_instrumented(u, p, body);
}

void rw_match_loops(struct rw_unit *u) {
  for (size_t i = 0; i < u->npragmas; i++)
    if (u->pragmas[i].valid) match_one(u, i);
}
