/*
 * rw.h - what the parts of capture-window-rewrite share: the parsed unit
 * (file text, tokens, an index of its statements), the pragmas found in
 * it, and the edits that make the instrumented copy.  See
 * capture_window_rewrite.c for the tool's manual.
 */
#ifndef CW_RW_H
#define CW_RW_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "cw_args.h"
#include "cw_messages.h"
#include "cw_pragma.h"
#include "capture_window/loop_spec.h"

enum rw_language { RW_C, RW_CXX, RW_CUDA };

/* One token of the main file, as clang_tokenize saw it (raw: no macro
   expansion, no skipped-block filtering). */
struct rw_token {
  CXTokenKind kind;
  unsigned begin, end; /* byte offsets in the file */
  unsigned line, col;
  char *text;
  int skipped; /* inside a block the preprocessor skipped (#if 0) */
};

/* A statement or expression of the main file, with its extent mapped to
   file offsets (a macro expansion counts as a whole). */
struct rw_node {
  enum CXCursorKind kind;
  unsigned begin, end;
  int parent;        /* index of the enclosing statement node, or -1 */
  int function_body; /* the body of a function, lambda or block */
  int device;        /* function body: 0 host, 1 device only, 2 host+device */
  CXCursor function; /* function body: the function's cursor */
};

/* A macro expansion written in the main file: NAME ... through its ')'. */
struct rw_expansion {
  unsigned begin, end;
  CXCursor cursor;
};

/* An object-like or function-like macro definition (any file). */
struct rw_macro {
  char *name;
  int function_like;
  int in_main_file;
  unsigned offset; /* in the main file, when in_main_file */
  CXCursor cursor;
};

enum rw_pragma_form { RW_FORM_PRAGMA, RW_FORM_OPERATOR, RW_FORM_MACRO };

/* One capture_window pragma of the main file, or a loop a loop spec
   marks (then begin == end, at the loop, and spec is set). */
struct rw_pragma {
  enum rw_pragma_form form;
  unsigned begin, end;          /* the text the pragma occupies */
  unsigned name_line, name_col; /* where diagnostics about it go */
  struct cw_loop_window window;
  int valid;                      /* the arguments passed the grammar */
  int loop;                       /* index of the marked loop node, or -1 */
  int host_only;                  /* in a CUDA __host__ __device__ function */
  const struct cw_loop_arg *spec; /* zero-edit marking: the argument */
};

/* A macro use of the file that builds a marked loop (or its pragma),
   to be replaced by its expansion before the next parse (rw_inline.c). */
struct rw_inline {
  unsigned begin, end; /* the use: NAME ... through its ')' */
  char *text;          /* its expansion, on one line */
};

struct rw_unit {
  const char *path; /* as given on the command line */
  char *text;
  size_t size;
  enum rw_language lang;
  CXIndex index;
  CXTranslationUnit tu;
  CXFile file;

  struct rw_token *tokens;
  size_t ntokens;
  struct rw_node *nodes;
  size_t nnodes, nodes_cap;
  struct rw_expansion *expansions;
  size_t nexpansions, expansions_cap;
  struct rw_macro *macros;
  size_t nmacros, macros_cap;
  struct rw_pragma *pragmas;
  size_t npragmas, pragmas_cap;

  struct rw_inline *inlines;
  size_t ninlines, inlines_cap;
  char *diagnostics; /* printed when the last round is done */
  size_t ndiagnostics, diagnostics_cap;

  struct cw_options options; /* -v, --loop SPEC, -fplugin-arg-capture_window-... */
  int errors;
  int constant_evaluable_loops; /* rewritten in their own form (rw_emit.c) */
};

/* rw_unit.c: parse PATH, or TEXT (owned by the unit) under PATH's name. */
int rw_unit_parse(struct rw_unit *u, const char *path, char *text, size_t size,
                  const char *const *flags, int nflags);
void rw_unit_reset(struct rw_unit *u); /* keeps the options and loop specs */
void rw_unit_dispose(struct rw_unit *u);
size_t rw_token_at(const struct rw_unit *u, unsigned offset);
int rw_token_is(const struct rw_token *t, const char *text);
int rw_same_logical_line(const struct rw_unit *u, unsigned from, unsigned to);

/* rw_diag.c */
void rw_error(struct rw_unit *u, unsigned line, unsigned col, const char *fmt, ...);
void rw_warning(struct rw_unit *u, unsigned line, unsigned col, const char *fmt, ...);
void rw_note(struct rw_unit *u, unsigned line, unsigned col, const char *fmt, ...);
void rw_tool_error(struct rw_unit *u, const char *fmt, ...); /* no location */
void rw_flush_diagnostics(struct rw_unit *u);
void rw_offset_position(const struct rw_unit *u, unsigned offset, unsigned *line, unsigned *col);
void *rw_grow(void *array, size_t *cap, size_t need, size_t elem);
char *rw_strdup(const char *s);

/* rw_pragma.c: find every pragma and read its arguments. */
void rw_find_pragmas(struct rw_unit *u);

/* rw_loop.c: the loop each pragma marks; placement errors. */
void rw_match_loops(struct rw_unit *u);

/* rw_spec.c: the loops the loop specs mark (after rw_match_loops). */
void rw_match_loop_specs(struct rw_unit *u);
int rw_is_loop(enum CXCursorKind k);
int rw_is_rewritable_loop(const struct rw_unit *u, size_t i);
int rw_enclosing_body(const struct rw_unit *u, size_t i, int *outermost);
void rw_mark_loop(struct rw_unit *u, size_t i, int body, const struct cw_loop_window *window,
                  const struct cw_loop_arg *spec);

/* rw_all_loops.c: -fplugin-arg-capture_window-all-loops[=START:COUNT]
   marks every other loop (after rw_match_loop_specs). */
void rw_mark_all_loops(struct rw_unit *u);
const char *rw_loop_kind(enum CXCursorKind k);
void rw_function_name(const struct rw_unit *u, CXCursor f, char *buf, size_t size);

/* rw_constexpr.c: loop node LOOP is in a function constant evaluation
   may run (constexpr, consteval, a C++ lambda). */
int rw_constant_evaluable(const struct rw_unit *u, int loop);

/* rw_inline.c: the loop node LOOP's keyword comes from a macro used in
   the file; have that use replaced by its expansion before the next
   parse.  0 when it is; else -1 and WHY says what stops it. */
int rw_inline_loop_macro(struct rw_unit *u, int loop, char *why, size_t size);
int rw_inline_use(struct rw_unit *u, const struct rw_expansion *x, char *why, size_t size);
/* The file's text with every requested use replaced (lines kept). */
char *rw_inlined_text(const struct rw_unit *u, size_t *size);

/* rw_emit.c: the instrumented copy. */
int rw_write_output(struct rw_unit *u, const char *out_path);

#endif /* CW_RW_H */
