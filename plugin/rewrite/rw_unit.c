/*
 * rw_unit.c - parse the file with libclang and index what the rewriter
 * needs: the file's tokens, its statements (with file-offset extents and
 * their nesting), the function bodies, and the macro definitions and
 * expansions.
 */
#include "rw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CW_REWRITE_CUDA_INCLUDE
#define CW_REWRITE_CUDA_INCLUDE "/usr/local/cuda/include"
#endif

/* libclang 14 cannot use the CUDA wrapper headers with a newer toolkit,
   so .cu files are parsed as host code with -nocudainc and this prelude:
   the execution-space attributes, the built-in variables and the kernel
   launch hook that `<<<...>>>` needs. */
static const char cuda_shim_name[] = "/capture-window-rewrite/cuda_host.h";
static const char cuda_shim[] = "#include <__clang_cuda_builtin_vars.h>\n"
                                "#include <vector_types.h>\n"
                                "#undef __global__\n#undef __device__\n#undef __host__\n"
                                "#undef __shared__\n#undef __constant__\n#undef __managed__\n"
                                "#define __global__ __attribute__((global))\n"
                                "#define __device__ __attribute__((device))\n"
                                "#define __host__ __attribute__((host))\n"
                                "#define __shared__ __attribute__((shared))\n"
                                "#define __constant__ __attribute__((constant))\n"
                                "#define __managed__ __attribute__((managed))\n"
                                "#define __launch_bounds__(...) "
                                "__attribute__((launch_bounds(__VA_ARGS__)))\n"
                                "extern \"C\" unsigned __cudaPushCallConfiguration(dim3, dim3, "
                                "__SIZE_TYPE__ = 0, void * = 0);\n";

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static enum rw_language language_of(const char *path, const char *const *flags, int nflags) {
  static const char *const cxx[] = {".cc", ".cpp", ".cxx", ".C", ".c++", ".CPP", ".cp"};
  enum rw_language lang = RW_C;
  for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++)
    if (ends_with(path, cxx[i])) lang = RW_CXX;
  if (ends_with(path, ".cu")) lang = RW_CUDA;
  for (int i = 0; i + 1 < nflags; i++)
    if (strcmp(flags[i], "-x") == 0)
      lang = strcmp(flags[i + 1], "cuda") == 0      ? RW_CUDA
             : strncmp(flags[i + 1], "c++", 3) == 0 ? RW_CXX
                                                    : RW_C;
  return lang;
}

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *text = NULL;
  size_t cap = 0, n = 0;
  if (!f) return NULL;
  for (;;) {
    text = rw_grow(text, &cap, n + 4096 + 1, 1);
    size_t got = fread(text + n, 1, 4096, f);
    n += got;
    if (got < 4096) break;
  }
  fclose(f);
  text[n] = 0;
  *size = n;
  return text;
}

/* The compiler flags libclang gets: the user's, less those that only make
   sense for a real compilation (output files, GCC plugins), plus the CUDA
   host-parsing setup. */
static const char **clang_arguments(enum rw_language lang, const char *const *flags, int nflags,
                                    int *count) {
  const char **args = calloc((size_t)nflags + 16, sizeof *args);
  int n = 0, has_x = 0;
  for (int i = 0; i < nflags; i++) {
    const char *f = flags[i];
    if (!strcmp(f, "-o") || !strcmp(f, "-MF") || !strcmp(f, "-MT") || !strcmp(f, "-MQ")) {
      i++;
      continue;
    }
    /* Warnings made errors are the compiler's business: the copy keeps
       them for it (clang's and GCC's pedantic warnings differ). */
    if (!strcmp(f, "-c") || !strcmp(f, "-MD") || !strcmp(f, "-MMD") || !strncmp(f, "-fplugin", 8) ||
        !strncmp(f, "-Werror", 7) || !strcmp(f, "-pedantic-errors"))
      continue;
    if (!strcmp(f, "-x")) has_x = 1;
    args[n++] = f;
  }
  if (lang == RW_CUDA) {
    if (!has_x) args[n++] = "-xcuda";
    args[n++] = "--cuda-host-only";
    args[n++] = "-nocudainc";
    args[n++] = "-nocudalib";
    args[n++] = "-Wno-unknown-cuda-version";
    args[n++] = "-include";
    args[n++] = cuda_shim_name;
    args[n++] = "-I" CW_REWRITE_CUDA_INCLUDE;
  }
  *count = n;
  return args;
}

int rw_token_is(const struct rw_token *t, const char *text) {
  return t && strcmp(t->text, text) == 0;
}

/* The first token that ends after OFFSET (u->ntokens if none). */
size_t rw_token_at(const struct rw_unit *u, unsigned offset) {
  size_t lo = 0, hi = u->ntokens;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (u->tokens[mid].end <= offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* True if FROM and TO (FROM <= TO, between tokens) are on one logical
   line: no newline in between except escaped ones and those inside block
   comments. */
int rw_same_logical_line(const struct rw_unit *u, unsigned from, unsigned to) {
  const char *s = u->text;
  for (unsigned i = from; i < to && i < u->size; i++) {
    if (s[i] == '/' && i + 1 < to && s[i + 1] == '*') {
      const char *close = strstr(s + i + 2, "*/");
      i = close ? (unsigned)(close - s) + 1 : to;
    } else if (s[i] == '/' && i + 1 < to && s[i + 1] == '/') {
      return 0;
    } else if (s[i] == '\n') {
      unsigned j = i;
      if (j > from && s[j - 1] == '\r') j--;
      if (!(j > from && s[j - 1] == '\\')) return 0;
    }
  }
  return 1;
}

static int main_file_offset(const struct rw_unit *u, CXSourceLocation loc, unsigned *offset) {
  CXFile file;
  clang_getExpansionLocation(loc, &file, NULL, NULL, offset);
  return file && clang_File_isEqual(file, u->file);
}

static int in_macro(CXSourceLocation loc) {
  CXFile f1, f2;
  unsigned o1, o2;
  clang_getExpansionLocation(loc, &f1, NULL, NULL, &o1);
  clang_getSpellingLocation(loc, &f2, NULL, NULL, &o2);
  return o1 != o2 || !f1 || !f2 || !clang_File_isEqual(f1, f2);
}

/* A cursor's extent as file offsets [*b, *e): a macro expansion it starts
   or ends in counts whole.  0 if it is not in the main file. */
static int file_range(const struct rw_unit *u, CXCursor c, unsigned *b, unsigned *e) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXSourceLocation end = clang_getRangeEnd(r);
  if (!main_file_offset(u, clang_getRangeStart(r), b) || !main_file_offset(u, end, e)) return 0;
  if (in_macro(end) || *e < *b) {
    for (size_t i = 0; i < u->nexpansions; i++)
      if (u->expansions[i].begin <= *e && *e < u->expansions[i].end) {
        *e = u->expansions[i].end;
        break;
      }
  }
  if (*e < *b) *e = *b;
  return 1;
}

static int is_function_decl(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
         k == CXCursor_FunctionTemplate || k == CXCursor_LambdaExpr || k == CXCursor_BlockExpr;
}

static enum CXChildVisitResult find_cuda_attr(CXCursor c, CXCursor parent, CXClientData data) {
  int *bits = data;
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CUDADeviceAttr ||
      clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr)
    *bits |= 1;
  else if (clang_getCursorKind(c) == CXCursor_CUDAHostAttr)
    *bits |= 2;
  return CXChildVisit_Continue;
}

/* 0 host, 1 device only, 2 host and device. */
static int device_kind(CXCursor function) {
  int bits = 0;
  clang_visitChildren(function, find_cuda_attr, &bits);
  return (bits & 1) ? ((bits & 2) ? 2 : 1) : 0;
}

struct visit {
  struct rw_unit *u;
  int parent;     /* nearest statement node */
  CXCursor owner; /* the function whose direct children these are */
  int has_owner;
};

static enum CXChildVisitResult visit_node(CXCursor c, CXCursor parent, CXClientData data) {
  struct visit *v = data, inner = *v;
  struct rw_unit *u = v->u;
  enum CXCursorKind k = clang_getCursorKind(c);
  (void)parent;
  inner.has_owner = 0;
  if (clang_isStatement(k) || clang_isExpression(k)) {
    unsigned b, e;
    if (file_range(u, c, &b, &e)) {
      struct rw_node *n;
      u->nodes = rw_grow(u->nodes, &u->nodes_cap, u->nnodes + 1, sizeof *n);
      n = &u->nodes[u->nnodes];
      memset(n, 0, sizeof *n);
      n->kind = k;
      n->begin = b;
      n->end = e;
      n->parent = v->parent;
      if (v->has_owner && k == CXCursor_CompoundStmt) {
        n->function_body = 1;
        n->function = v->owner;
        n->device = u->lang == RW_CUDA ? device_kind(v->owner) : 0;
      }
      inner.parent = (int)u->nnodes++;
    }
  }
  if (is_function_decl(k)) {
    inner.owner = c;
    inner.has_owner = 1;
  }
  clang_visitChildren(c, visit_node, &inner);
  return CXChildVisit_Continue;
}

static void add_macro_definition(struct rw_unit *u, CXCursor c) {
  struct rw_macro *m;
  CXString name = clang_getCursorSpelling(c);
  unsigned offset = 0;
  u->macros = rw_grow(u->macros, &u->macros_cap, u->nmacros + 1, sizeof *m);
  m = &u->macros[u->nmacros++];
  m->name = rw_strdup(clang_getCString(name));
  clang_disposeString(name);
  m->function_like = clang_Cursor_isMacroFunctionLike(c);
  m->in_main_file = main_file_offset(u, clang_getCursorLocation(c), &offset);
  m->offset = offset;
  m->cursor = c;
}

/* First pass over the unit's top level: the preprocessing record. */
static enum CXChildVisitResult visit_macros(CXCursor c, CXCursor parent, CXClientData data) {
  struct rw_unit *u = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  (void)parent;
  if (k == CXCursor_MacroDefinition) {
    add_macro_definition(u, c);
  } else if (k == CXCursor_MacroExpansion) {
    CXSourceRange r = clang_getCursorExtent(c);
    unsigned b, e;
    if (main_file_offset(u, clang_getRangeStart(r), &b) &&
        main_file_offset(u, clang_getRangeEnd(r), &e)) {
      u->expansions =
          rw_grow(u->expansions, &u->expansions_cap, u->nexpansions + 1, sizeof *u->expansions);
      u->expansions[u->nexpansions++] = (struct rw_expansion){b, e, c};
    }
  }
  return CXChildVisit_Continue;
}

/* Second pass: the statements of the main file's declarations. */
static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data) {
  struct rw_unit *u = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  unsigned offset;
  /* By expansion point: a declaration whose name comes from a macro
     (-Dmain=...) still belongs to the file. */
  if (k != CXCursor_MacroDefinition && k != CXCursor_MacroExpansion &&
      k != CXCursor_InclusionDirective &&
      main_file_offset(u, clang_getRangeStart(clang_getCursorExtent(c)), &offset)) {
    struct visit v = {u, -1, clang_getNullCursor(), 0};
    visit_node(c, parent, &v);
  }
  return CXChildVisit_Continue;
}

static void read_tokens(struct rw_unit *u) {
  CXSourceRange all = clang_getRange(clang_getLocationForOffset(u->tu, u->file, 0),
                                     clang_getLocationForOffset(u->tu, u->file, (unsigned)u->size));
  CXToken *toks;
  unsigned n;
  CXSourceRangeList *skipped = clang_getSkippedRanges(u->tu, u->file);

  clang_tokenize(u->tu, all, &toks, &n);
  u->tokens = calloc(n + 1, sizeof *u->tokens);
  for (unsigned i = 0; i < n; i++) {
    struct rw_token *t = &u->tokens[u->ntokens];
    if (clang_getTokenKind(toks[i]) == CXToken_Comment) continue;
    CXSourceRange r = clang_getTokenExtent(u->tu, toks[i]);
    CXString s = clang_getTokenSpelling(u->tu, toks[i]);
    clang_getSpellingLocation(clang_getRangeStart(r), NULL, &t->line, &t->col, &t->begin);
    clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &t->end);
    t->kind = clang_getTokenKind(toks[i]);
    t->text = rw_strdup(clang_getCString(s));
    clang_disposeString(s);
    for (unsigned j = 0; skipped && j < skipped->count; j++) {
      unsigned b, e;
      clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[j]), NULL, NULL, NULL, &b);
      clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[j]), NULL, NULL, NULL, &e);
      /* The range runs from the #if's end to the #endif's start. */
      if (t->begin >= b && t->begin < e) t->skipped = 1;
    }
    u->ntokens++;
  }
  clang_disposeTokens(u->tu, toks, n);
  clang_disposeSourceRangeList(skipped);
}

/* Errors that stop the rewrite; CUDA device bodies are left out, as
   libclang 14 cannot check device code against this CUDA toolkit. */
static int report_parse_errors(struct rw_unit *u) {
  int errors = 0;
  unsigned n = clang_getNumDiagnostics(u->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(u->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      unsigned offset = 0;
      int device = 0;
      if (u->lang == RW_CUDA && main_file_offset(u, clang_getDiagnosticLocation(d), &offset))
        for (size_t j = 0; j < u->nnodes; j++)
          if (u->nodes[j].function_body && u->nodes[j].device == 1 && u->nodes[j].begin <= offset &&
              offset < u->nodes[j].end)
            device = 1;
      if (!device) {
        CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
        fprintf(stderr, "%s\n", clang_getCString(s));
        clang_disposeString(s);
        errors++;
      }
    }
    clang_disposeDiagnostic(d);
  }
  if (errors)
    fprintf(stderr,
            "capture-window-rewrite: error: %s does not parse; give the "
            "compiler flags it needs after '--' (e.g. -I, -D, -std)\n",
            u->path);
  return errors;
}

int rw_unit_parse(struct rw_unit *u, const char *path, char *text, size_t size,
                  const char *const *flags, int nflags) {
  int nargs;
  const char **args;
  struct CXUnsavedFile unsaved[2];
  unsigned nunsaved = 0;
  enum CXErrorCode rc;

  u->path = path;
  u->text = text ? text : read_file(path, &size);
  u->size = size;
  if (!u->text) {
    fprintf(stderr, "capture-window-rewrite: error: cannot read '%s'\n", path);
    return -1;
  }
  u->lang = language_of(path, flags, nflags);
  args = clang_arguments(u->lang, flags, nflags, &nargs);
  if (u->lang == RW_CUDA)
    unsaved[nunsaved++] = (struct CXUnsavedFile){cuda_shim_name, cuda_shim, sizeof cuda_shim - 1};
  if (text) /* the file with some macro uses expanded (rw_inline.c) */
    unsaved[nunsaved++] = (struct CXUnsavedFile){path, u->text, (unsigned long)u->size};
  if (!u->index) u->index = clang_createIndex(0, 0);
  rc = clang_parseTranslationUnit2(
      u->index, path, args, nargs, unsaved, nunsaved,
      CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &u->tu);
  free(args);
  if (rc != CXError_Success || !u->tu) {
    fprintf(stderr,
            "capture-window-rewrite: error: libclang cannot parse "
            "'%s' (error %d)\n",
            path, (int)rc);
    return -1;
  }
  u->file = clang_getFile(u->tu, path);
  read_tokens(u);
  clang_visitChildren(clang_getTranslationUnitCursor(u->tu), visit_macros, u);
  clang_visitChildren(clang_getTranslationUnitCursor(u->tu), visit_top, u);
  return report_parse_errors(u) ? -1 : 0;
}

/* What one parse found, and its results; the options and the loop
   specs (less what a round learnt of them) stay. */
void rw_unit_reset(struct rw_unit *u) {
  for (size_t i = 0; i < u->ntokens; i++) free(u->tokens[i].text);
  for (size_t i = 0; i < u->nmacros; i++) free(u->macros[i].name);
  for (size_t i = 0; i < u->ninlines; i++) free(u->inlines[i].text);
  for (size_t i = 0; i < u->options.nloop_args; i++)
    u->options.loop_args[i].matched = u->options.loop_args[i].function_seen = 0;
  free(u->tokens);
  free(u->nodes);
  free(u->expansions);
  free(u->macros);
  free(u->pragmas);
  free(u->inlines);
  free(u->text);
  if (u->tu) clang_disposeTranslationUnit(u->tu);
  u->tokens = NULL, u->ntokens = 0;
  u->nodes = NULL, u->nnodes = u->nodes_cap = 0;
  u->expansions = NULL, u->nexpansions = u->expansions_cap = 0;
  u->macros = NULL, u->nmacros = u->macros_cap = 0;
  u->pragmas = NULL, u->npragmas = u->pragmas_cap = 0;
  u->inlines = NULL, u->ninlines = u->inlines_cap = 0;
  u->text = NULL, u->size = 0;
  u->tu = NULL;
  u->errors = u->constant_evaluable_loops = 0;
  u->ndiagnostics = 0;
}

void rw_unit_dispose(struct rw_unit *u) {
  rw_unit_reset(u);
  cw_options_dispose(&u->options);
  free(u->diagnostics);
  if (u->index) clang_disposeIndex(u->index);
}
