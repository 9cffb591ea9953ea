/*
 * capture-window-rewrite - the source-to-source front door of
 * capture-window: reads a C, C++ or CUDA file, finds every loop marked
 * with `#pragma capture_window(...)` and writes a copy in which those loops
 * call the capture-window runtime exactly as the GCC and Clang plugins make
 * them do (runtime/include/capture_window/abi.h).  The copy builds with any
 * compiler, no plugin: nvcc with any host compiler, NVHPC, icx, MSVC (C++).
 * Written in C on libclang's C API (clang-c/Index.h).
 *
 * Use:
 *   capture-window-rewrite [-o OUT] [-v] [--loop SPEC]... FILE
 *                          [-- COMPILER-FLAGS...]
 *
 *   -o OUT       write the copy to OUT (default: standard output); nothing
 *                is written when there is an error
 *   -v, --verbose
 *                a note for every instrumented loop, the plugins' text
 *   --loop SPEC  also instrument the loop SPEC names, as if a pragma stood
 *                before it (zero-edit marking, the plugins'
 *                -fplugin-arg-capture_window-loop=SPEC):
 *                FILE:LINE[:START:COUNT[:LABEL]] or
 *                FUNCTION[:START:COUNT[:LABEL]] (rw_spec.c); a SPEC that
 *                names no loop of FILE is an error
 *   -- FLAGS     the flags FILE is compiled with, as clang reads them
 *                (-I, -D, -std, -x, -fopenmp ...).  Output-file and
 *                -fplugin flags are dropped; -fplugin-arg-capture_window-verbose
 *                works like -v, -fplugin-arg-capture_window-loop=SPEC like
 *                --loop SPEC (and loop-optional=SPEC without the error when
 *                it names nothing), all-loops[=START:COUNT] marks every
 *                loop (rw_all_loops.c), and any other
 *                -fplugin-arg-capture_window- argument is an error, as with
 *                the plugins.
 *
 * .cu files are parsed as CUDA host code (clang -x cuda --cuda-host-only,
 * without clang's CUDA wrapper headers, which do not fit newer toolkits);
 * loops in __device__/__global__ functions are left alone with a warning,
 * loops in __host__ __device__ functions are instrumented on the host side
 * only.
 *
 * Exit status: 0 written, 1 a capture_window error (printed as
 * FILE:LINE:COL: error: MESSAGE, the shared texts of plugin/common) or a
 * file that does not parse, 2 bad usage.
 *
 * The copy:
 *   - starts with a prelude: abi.h itself (a later #include of it is a
 *     no-op), the helpers, then `#line 1 "FILE"`;
 *   - rewrites each marked loop in place, on the lines it already has,
 *     so the line numbers of every statement stay (see rw_emit.c for the
 *     exact text): the pragma becomes a comment followed by the loop's
 *     static site and a loop guard; the body is wrapped in a block that
 *     opens with an iteration guard.  C++ guards are objects with
 *     destructors; C guards are __attribute__((cleanup)) variables.  Both
 *     end the iteration on every way out of the body (falling off its end,
 *     continue, break, return, goto out, C++ exceptions) and the loop on
 *     every way out of it;
 *   - is the file unchanged when nothing is marked.
 *
 * Parts: rw_unit.c parses and indexes the file, rw_pragma.c finds the
 * pragmas, rw_loop.c finds their loops, rw_spec.c the loop specs' loops,
 * rw_all_loops.c all-loops' loops, rw_inline.c expands the macro uses
 * that build a marked loop, rw_emit.c writes the copy.
 *
 * Rounds: a marked loop (or its pragma) that comes from a macro's
 * expansion cannot be edited where it stands, so its macro use is
 * replaced by the expansion, on the use's own lines, and the text is
 * parsed again; a macro built from another takes another round, at most
 * MAX_ROUNDS.  A macro that text cannot expand faithfully (one that
 * names itself, __VA_OPT__ next to # or ##) is an error at the pragma
 * that says why, or, for all-loops, a loop left alone with a note.
 *
 * Limits: see docs/rewrite.md.  In short: only object-like macros expand
 * among the pragma's arguments; quoted #includes relative to FILE's
 * folder need that folder on the include path of the compilation of the
 * copy; a goto or case label jumping into a marked body from outside is a
 * C++ compile error; longjmp out of a body skips the end hooks.  Loops of
 * constexpr/consteval functions and lambdas get a form that keeps them
 * constant expressions (rw_constexpr.c, rw_emit.c).
 */
#include "rw.h"

#include <stdio.h>
#include <string.h>

#define TOOL "capture-window-rewrite"
#define PLUGIN_ARG_PREFIX "-fplugin-arg-" CW_PRAGMA_NAME "-"

static int usage(FILE *to, int status) {
  fprintf(to, "usage: " TOOL " [-o OUT] [-v] [--loop SPEC]... FILE "
              "[-- COMPILER-FLAGS...]\n"
              "Writes a copy of FILE whose #pragma capture_window loops call the\n"
              "capture-window runtime; build it with any compiler and link\n"
              "-lcapture_window.\n"
              "  -o OUT         write to OUT (default: standard output)\n"
              "  -v, --verbose  a note for every instrumented loop\n"
              "  --loop SPEC    also instrument this loop: "
              "FILE:LINE[:START:COUNT[:LABEL]]\n"
              "                 or FUNCTION[:START:COUNT[:LABEL]]\n"
              "  -- FLAGS       FILE's compiler flags (-I, -D, -std, -x ...)\n");
  return status;
}

/* A message about an argument, as the rewriter prints its errors. */
static void report_argument(void *context, const char *message) {
  (void)context;
  fprintf(stderr, TOOL ": error: %s\n", message);
}

/* -fplugin-arg-capture_window-KEY[=VALUE] among the compiler flags, by
   the path every front door shares (cw_args.h), so one set of flags
   serves every front door. */
static int plugin_arguments(struct rw_unit *u, char **flags, int nflags) {
  int ok = 1;
  for (int i = 0; i < nflags; i++)
    if (!strncmp(flags[i], PLUGIN_ARG_PREFIX, strlen(PLUGIN_ARG_PREFIX)))
      ok &= cw_args_take_text(&u->options, CW_PRAGMA_NAME, flags[i] + strlen(PLUGIN_ARG_PREFIX),
                              report_argument, NULL);
  return ok;
}

/* The rounds of the header's "Rounds": one per level of macros. */
#define MAX_ROUNDS 8

static int rewrite(struct rw_unit *u, const char *file, const char *const *flags, int nflags,
                   const char *out) {
  char *text = NULL;
  size_t size = 0;
  for (int round = 0;; round++) {
    if (rw_unit_parse(u, file, text, size, flags, nflags) != 0) return 1;
    rw_find_pragmas(u);
    rw_match_loops(u);
    rw_match_loop_specs(u);
    rw_mark_all_loops(u);
    if (!u->ninlines || round + 1 == MAX_ROUNDS) break;
    text = rw_inlined_text(u, &size);
    rw_unit_reset(u);
  }
  if (u->ninlines) {
    rw_tool_error(u, "macros nest more than %d deep around a marked loop", MAX_ROUNDS);
    return 1;
  }
  return u->errors ? 1 : rw_write_output(u, out) ? 1 : 0;
}

int main(int argc, char **argv) {
  struct rw_unit unit;
  const char *file = NULL, *out = NULL;
  char **flags = NULL;
  int nflags = 0, status;

  memset(&unit, 0, sizeof unit);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      flags = argv + i + 1;
      nflags = argc - i - 1;
      break;
    } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(argv[i], "--loop") && i + 1 < argc) {
      if (!cw_args_add_loop(&unit.options, "--loop", " ", argv[++i], 0, report_argument, NULL))
        return 1;
    } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
      unit.options.verbose = 1;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      return usage(stdout, 0);
    } else if (argv[i][0] == '-' || file) {
      fprintf(stderr, TOOL ": error: unexpected argument '%s'\n", argv[i]);
      return usage(stderr, 2);
    } else {
      file = argv[i];
    }
  }
  if (!file) return usage(stderr, 2);
  if (!plugin_arguments(&unit, flags, nflags)) return 1;

  status = rewrite(&unit, file, (const char *const *)flags, nflags, out);
  rw_flush_diagnostics(&unit);
  rw_unit_dispose(&unit);
  return status;
}
