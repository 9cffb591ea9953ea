/*
 * rw_emit.c - write the instrumented copy: a prelude (the ABI header and
 * the helpers), `#line 1 "FILE"`, then the file with each marked loop
 * rewritten in place.  Nothing added contains a newline, so every line of
 * the user's code keeps its number, and the #line makes diagnostics and
 * debug information name the original file.
 *
 * A marked loop, C:
 *
 *   /- #pragma capture_window(30, 3) -/ { static struct cw_site_v2
 *       __cw_site_0 = { 2, LINE, "FILE", __CW_RW_FUNCTION, "step", 30LL,
 *       3LL, { 0, 0, 0, 0 } }; struct cw_loop_v2 *__cw_loop_0
 *       __attribute__((__cleanup__(__cw_rw_loop_exit))) =
 *       cw_loop_enter_v2(&__cw_site_0);
 *   for (int step = 0; step < n; step++) { struct cw_loop_v2 *__cw_iter_0
 *       __attribute__((__cleanup__(__cw_rw_iter_end), __unused__)) =
 *       __cw_rw_iter_begin(__cw_loop_0); train_step(); } }
 *
 * C++ (and CUDA host code) declares guard objects instead, whose
 * destructors end the iteration and the loop:
 *
 *   ... const __cw_rw_loop_v2 __cw_loop_0(cw_loop_enter_v2(&__cw_site_0));
 *   for (...) { const __cw_rw_iter_v2 __cw_iter_0(__cw_loop_0.loop); ... } }
 *
 * A loop of a function constant evaluation may run (rw_constexpr.c) holds
 * no static and no object with a destructor: the site is a static of a
 * lambda only run time calls, the guards are cleanup pointers whose
 * constexpr helpers are idle in constant evaluation (the Clang plugin's
 * C++14 form):
 *
 *   { constexpr const char *__cw_fn_0 = __CW_RW_FUNCTION;
 *     struct cw_loop_v2 *__cw_loop_0
 *       __attribute__((__cleanup__(__cw_rw_cx_loop_exit))) =
 *       __CW_RW_CONSTANT_EVALUATED() ? __CW_RW_NULL : []() -> struct cw_loop_v2 * {
 *         static struct cw_site_v2 __cw_site_0 = { ..., __cw_fn_0, ... };
 *         return cw_loop_enter_v2(&__cw_site_0); }();
 *   for (...) { struct cw_loop_v2 *__cw_iter_0 __attribute__((__cleanup__(
 *       __cw_rw_cx_iter_end), __unused__)) = __cw_rw_cx_iter_begin(
 *       __cw_loop_0); ... } }
 */
#include "rw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_window/abi.h"
#include "rw_abi_text.h" /* rw_abi_text: runtime/include/capture_window/abi.h */

static const char helpers[] =
    "#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))\n"
    "#define __CW_RW_FUNCTION __PRETTY_FUNCTION__\n"
    "#elif defined(_MSC_VER)\n"
    "#define __CW_RW_FUNCTION __FUNCSIG__\n"
    "#else\n"
    "#define __CW_RW_FUNCTION __func__\n"
    "#endif\n"
    "#if defined(__CUDA_ARCH__)\n"
    "#define __CW_RW_HOST(...)\n"
    "#else\n"
    "#define __CW_RW_HOST(...) __VA_ARGS__\n"
    "#endif\n"
    "#ifdef __cplusplus\n"
    "/* No literal 0 as a null pointer (-Wzero-as-null-pointer-constant). */\n"
    "#if __cplusplus >= 201103L || (defined(_MSVC_LANG) && _MSVC_LANG >= 201103L)\n"
    "#define __CW_RW_NULL nullptr\n"
    "#else\n"
    "#define __CW_RW_NULL 0\n"
    "#endif\n"
    "/* Guards: their destructors run on every way out of a scope. */\n"
    "struct __cw_rw_loop_v2 {\n"
    "  struct cw_loop_v2 *const loop;\n"
    "  explicit __cw_rw_loop_v2(struct cw_loop_v2 *l) : loop(l) {}\n"
    "  ~__cw_rw_loop_v2() { if (loop) cw_loop_exit_v2(loop, 0); }\n"
    "private:\n"
    "  __cw_rw_loop_v2(const __cw_rw_loop_v2 &);\n"
    "  __cw_rw_loop_v2 &operator=(const __cw_rw_loop_v2 &);\n"
    "};\n"
    "/* An iteration that needs nothing only counts (abi.h's inline test);\n"
    "   loop stays NULL unless it went through the runtime. */\n"
    "struct __cw_rw_iter_v2 {\n"
    "  struct cw_loop_v2 *loop;\n"
    "  explicit __cw_rw_iter_v2(struct cw_loop_v2 *l) : loop(__CW_RW_NULL) {\n"
    "    if (l && l->next++ >= l->attention_at && cw_iter_begin_v2(l))\n"
    "      loop = l;\n"
    "  }\n"
    "  ~__cw_rw_iter_v2() { if (loop) cw_iter_end_v2(loop); }\n"
    "private:\n"
    "  __cw_rw_iter_v2(const __cw_rw_iter_v2 &);\n"
    "  __cw_rw_iter_v2 &operator=(const __cw_rw_iter_v2 &);\n"
    "};\n"
    "/* Loops of functions constant evaluation may run (constexpr, consteval,\n"
    "   lambdas): cleanup variables of literal type and constexpr helpers\n"
    "   that do nothing while the function is constant-evaluated. */\n"
    "#if __cplusplus >= 201402L\n"
    "#define __CW_RW_CONSTANT_EVALUATED() __builtin_is_constant_evaluated()\n"
    "#define __CW_RW_CONSTEXPR constexpr\n"
    "#else\n"
    "#define __CW_RW_CONSTANT_EVALUATED() 0\n"
    "#define __CW_RW_CONSTEXPR\n"
    "#endif\n"
    "#if defined(__GNUC__) || defined(__clang__)\n"
    "/* Unused where no such loop is (clang's -Wunused-function). */\n"
    "#define __CW_RW_CX_HELPER static inline __attribute__((__unused__)) __CW_RW_CONSTEXPR\n"
    "__CW_RW_CX_HELPER struct cw_loop_v2 *\n"
    "__cw_rw_cx_iter_begin(struct cw_loop_v2 *__l)\n"
    "{ if (__CW_RW_CONSTANT_EVALUATED() || !__l ||\n"
    "      __builtin_expect(__l->next++ < __l->attention_at, 1))\n"
    "    return __CW_RW_NULL;\n"
    "  return cw_iter_begin_v2(__l) ? __l : __CW_RW_NULL; }\n"
    "__CW_RW_CX_HELPER void\n"
    "__cw_rw_cx_iter_end(struct cw_loop_v2 **__l)\n"
    "{ if (!__CW_RW_CONSTANT_EVALUATED() && *__l) cw_iter_end_v2(*__l); }\n"
    "__CW_RW_CX_HELPER void\n"
    "__cw_rw_cx_loop_exit(struct cw_loop_v2 **__l)\n"
    "{ if (!__CW_RW_CONSTANT_EVALUATED() && *__l) cw_loop_exit_v2(*__l, 0); }\n"
    "#undef __CW_RW_CX_HELPER\n"
    "#endif\n"
    "#else\n"
    "#if defined(_MSC_VER) && !defined(__clang__)\n"
    "#error \"capture-window-rewrite: C output needs __attribute__((cleanup))"
    " (GCC, Clang, icx, NVHPC, nvcc); compile it as C++ instead\"\n"
    "#endif\n"
    "/* Cleanup functions: run on every way out of a scope. */\n"
    "#define __CW_RW_HELPER static __inline__ "
    "__attribute__((__always_inline__, __unused__))\n"
    "__CW_RW_HELPER struct cw_loop_v2 *\n"
    "__cw_rw_iter_begin(struct cw_loop_v2 *__l)\n"
    "{ if (!__l || __builtin_expect(__l->next++ < __l->attention_at, 1))\n"
    "    return 0;\n"
    "  return cw_iter_begin_v2(__l) ? __l : 0; }\n"
    "__CW_RW_HELPER void __cw_rw_iter_end(struct cw_loop_v2 **__l)\n"
    "{ if (*__l) cw_iter_end_v2(*__l); }\n"
    "__CW_RW_HELPER void __cw_rw_loop_exit(struct cw_loop_v2 **__l)\n"
    "{ if (*__l) cw_loop_exit_v2(*__l, 0); }\n"
    "#undef __CW_RW_HELPER\n"
    "#endif\n";

struct edit {
  unsigned offset, remove;
  int order; /* at one offset: closing braces (0) before openings (1) */
  char *text;
};

struct edits {
  struct edit *e;
  size_t n, cap;
};

static void add_edit(struct edits *list, unsigned offset, unsigned remove, int order, char *text) {
  list->e = rw_grow(list->e, &list->cap, list->n + 1, sizeof *list->e);
  list->e[list->n++] = (struct edit){offset, remove, order, text};
}

static int by_offset(const void *a, const void *b) {
  const struct edit *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->order - y->order;
}

/* A C string literal holding TEXT. */
static void quote(char *out, size_t size, const char *text) {
  size_t n = 0;
  out[n++] = '"';
  for (; *text && n + 6 < size; text++) {
    unsigned char c = (unsigned char)*text;
    if (c == '"' || c == '\\')
      n += (size_t)snprintf(out + n, size - n, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f)
      n += (size_t)snprintf(out + n, size - n, "\\%03o", c);
    else
      out[n++] = (char)c;
  }
  out[n++] = '"';
  out[n] = 0;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...) {
  va_list ap;
  int n;
  char *s;
  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  s = malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static int last_child(const struct rw_unit *u, int parent, int first) {
  int best = -1;
  for (size_t i = 0; i < u->nnodes; i++)
    if (u->nodes[i].parent == parent &&
        (best < 0 || (first ? u->nodes[i].begin < u->nodes[best].begin
                            : u->nodes[i].begin > u->nodes[best].begin)))
      best = (int)i;
  return best;
}

/* Whether statement node I, as its extent stands, still lacks the ';'
   that ends it: expressions, return, break, goto, do-while... do; blocks
   do not; if/for/while/switch/labels end as their last statement does. */
static int lacks_semicolon(const struct rw_unit *u, int i) {
  const struct rw_node *n = &u->nodes[i];
  size_t t = rw_token_at(u, n->end ? n->end - 1 : 0);
  if (t < u->ntokens && u->tokens[t].end == n->end && rw_token_is(&u->tokens[t], ";")) return 0;
  switch (n->kind) {
  case CXCursor_CompoundStmt:
  case CXCursor_CXXTryStmt:
    return 0;
  case CXCursor_IfStmt:
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_CXXForRangeStmt:
  case CXCursor_SwitchStmt:
  case CXCursor_LabelStmt:
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
  case CXCursor_UnexposedStmt: {
    int last = last_child(u, i, 0);
    return last >= 0 ? lacks_semicolon(u, last) : 1;
  }
  default:
    if (n->kind >= CXCursor_OMPParallelDirective && n->kind <= CXCursor_LastStmt) {
      int last = last_child(u, i, 0);
      return last >= 0 ? lacks_semicolon(u, last) : 1;
    }
    return 1;
  }
}

/* End of statement node I including its ';'. */
static unsigned statement_end(const struct rw_unit *u, int i) {
  unsigned end = u->nodes[i].end;
  if (lacks_semicolon(u, i)) {
    size_t t = rw_token_at(u, end);
    if (t < u->ntokens && rw_token_is(&u->tokens[t], ";")) end = u->tokens[t].end;
  }
  return end;
}

/* Where the body of the loop at node LOOP starts: after the header's
   ')' (for, while) or after `do`.  0 if the tokens are not as expected. */
static unsigned body_start(const struct rw_unit *u, int loop) {
  size_t k = rw_token_at(u, u->nodes[loop].begin);
  int depth = 0;
  if (u->nodes[loop].kind == CXCursor_DoStmt) return u->tokens[k].end;
  for (k++; k < u->ntokens; k++) {
    if (rw_token_is(&u->tokens[k], "("))
      depth++;
    else if (rw_token_is(&u->tokens[k], ")") && --depth == 0)
      return u->tokens[k].end;
    else if (depth == 0)
      return 0;
  }
  return 0;
}

static void instrument(struct rw_unit *u, struct edits *list, size_t id,
                       const struct rw_pragma *p) {
  int cxx = u->lang != RW_C;
  int loop = p->loop;
  int is_do = u->nodes[loop].kind == CXCursor_DoStmt;
  int body = last_child(u, loop, is_do);
  unsigned open = body_start(u, loop), body_end, loop_end;
  char file[4096], label[160], *original, *site, *enter, *iter;
  const char *host = p->host_only ? "__CW_RW_HOST(" : "";
  const char *host_end = p->host_only ? ")" : "";
  int cx = rw_constant_evaluable(u, loop);
  int bare = p->begin == p->end; /* a spec's or all-loops' loop: no pragma */
  char fn[32];

  snprintf(fn, sizeof fn, "__cw_fn_%zu", id);
  u->constant_evaluable_loops += cx;

  if (!open || body < 0) {
    rw_error(u, p->name_line, p->name_col,
             "capture-window-rewrite cannot find the body of this loop");
    return;
  }
  body_end = statement_end(u, body);
  loop_end = is_do ? statement_end(u, loop) : body_end;

  /* The pragma becomes a comment ('*' '/' inside it broken up). */
  original = malloc((p->end - p->begin) * 2 + 1);
  {
    size_t n = 0;
    for (unsigned i = p->begin; i < p->end; i++) {
      original[n++] = u->text[i];
      if (u->text[i] == '*' && i + 1 < p->end && u->text[i + 1] == '/') original[n++] = ' ';
    }
    original[n] = 0;
  }
  quote(file, sizeof file, u->path);
  quote(label, sizeof label, p->window.label);
  site = format("static struct cw_site_v2 __cw_site_%zu = { %d, %u, %s, "
                "%s, %s, %lldLL, %lldLL, { %s } };",
                id, CW_ABI_VERSION, p->name_line, file, cx ? fn : "__CW_RW_FUNCTION", label,
                p->window.start, p->window.count, cxx ? "" : "0, 0, 0, 0");
  if (cx) {
    /* No static and no destructor in the function itself: the site is a
       static of a lambda that only run time calls, and it gets the
       function's name through a constexpr local. */
    enter = format("constexpr const char *%s = __CW_RW_FUNCTION; "
                   "struct cw_loop_v2 *__cw_loop_%zu "
                   "__attribute__((__cleanup__(__cw_rw_cx_loop_exit))) = "
                   "__CW_RW_CONSTANT_EVALUATED() ? __CW_RW_NULL : []() -> struct "
                   "cw_loop_v2 * { %s return cw_loop_enter_v2(&__cw_site_%zu);"
                   " }();",
                   fn, id, site, id);
    iter = format("struct cw_loop_v2 *__cw_iter_%zu "
                  "__attribute__((__cleanup__(__cw_rw_cx_iter_end), __unused__))"
                  " = __cw_rw_cx_iter_begin(__cw_loop_%zu);",
                  id, id);
    site[0] = 0;
  } else if (cxx) {
    enter = format("const __cw_rw_loop_v2 __cw_loop_%zu("
                   "cw_loop_enter_v2(&__cw_site_%zu));",
                   id, id);
    iter = format("const __cw_rw_iter_v2 __cw_iter_%zu(__cw_loop_%zu.loop);", id, id);
  } else {
    enter = format("struct cw_loop_v2 *__cw_loop_%zu "
                   "__attribute__((__cleanup__(__cw_rw_loop_exit))) = "
                   "cw_loop_enter_v2(&__cw_site_%zu);",
                   id, id);
    iter = format("struct cw_loop_v2 *__cw_iter_%zu "
                  "__attribute__((__cleanup__(__cw_rw_iter_end), __unused__)) "
                  "= __cw_rw_iter_begin(__cw_loop_%zu);",
                  id, id);
  }
  /* A loop with no pragma text: the site opens at its keyword. */
  add_edit(list, p->begin, p->end - p->begin, 1,
           format("%s%s%s{ %s%s%s%s%s", bare ? "" : "/* ", original, bare ? "" : " */ ", host, site,
                  *site ? " " : "", enter, host_end));
  add_edit(list, open, 0, 1, format(" { %s%s%s", host, iter, host_end));
  add_edit(list, body_end, 0, 0, format(" }"));
  add_edit(list, loop_end, 0, 0, format(" }"));
  free(original);
  free(site);
  free(enter);
  free(iter);
}

static void write_prelude(const struct rw_unit *u, FILE *out) {
  char file[4096];
  quote(file, sizeof file, u->path);
  fprintf(out,
          "/* Instrumented by capture-window-rewrite from %s: each marked\n"
          "   loop calls the capture-window runtime (link -lcapture_window).\n"
          "   Generated; edit the original instead. */\n"
          "#ifndef CW_REWRITE_PRELUDE_V1\n#define CW_REWRITE_PRELUDE_V1\n",
          file);
  fputs(rw_abi_text, out);
  fputs("\n", out);
  fputs(helpers, out);
  fputs("#endif /* CW_REWRITE_PRELUDE_V1 */\n", out);
  if (u->constant_evaluable_loops)
    fputs("#if defined(_MSC_VER) && !defined(__clang__)\n"
          "#error \"capture-window-rewrite: a marked loop in a constexpr or "
          "consteval function or a lambda needs __attribute__((cleanup)) "
          "(GCC, Clang, icpx, NVHPC, nvcc with either)\"\n#endif\n",
          out);
  /* After the #line, g++ takes FILE's own text for a header's and warns
     of a class whose base is in an anonymous namespace (googletest's
     fixtures), which it never does in the file itself. */
  fputs("#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__) && "
        "!defined(__NVCOMPILER) && !defined(__CUDACC__)\n"
        "#pragma GCC diagnostic ignored \"-Wsubobject-linkage\"\n#endif\n",
        out);
  fprintf(out, "#line 1 %s\n", file);
}

int rw_write_output(struct rw_unit *u, const char *out_path) {
  struct edits list = {0};
  FILE *out;
  unsigned at = 0;
  size_t id = 0;

  for (size_t i = 0; i < u->npragmas; i++)
    if (u->pragmas[i].loop >= 0) instrument(u, &list, id++, &u->pragmas[i]);
  if (u->errors) return -1;
  qsort(list.e, list.n, sizeof *list.e, by_offset);

  out = out_path ? fopen(out_path, "wb") : stdout;
  if (!out) {
    fprintf(stderr, "capture-window-rewrite: error: cannot write '%s'\n", out_path);
    return -1;
  }
  if (list.n) write_prelude(u, out);
  for (size_t i = 0; i < list.n; i++) {
    const struct edit *e = &list.e[i];
    fwrite(u->text + at, 1, e->offset - at, out);
    fputs(e->text, out);
    at = e->offset + e->remove;
    free(e->text);
  }
  fwrite(u->text + at, 1, u->size - at, out);
  free(list.e);
  if (out != stdout ? fclose(out) != 0 : fflush(out) != 0) {
    fprintf(stderr, "capture-window-rewrite: error: cannot write '%s'\n",
            out_path ? out_path : "<stdout>");
    return -1;
  }
  return 0;
}
