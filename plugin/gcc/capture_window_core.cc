/*
 * capture_window_core.so - GCC plugin that instruments loops marked with
 * `#pragma capture_window` for capture-window Nsight Systems captures.
 *
 * GCC loads capture_window.so (cw-loader.cc), which checks the release and
 * loads this file from beside it (and, given to clang, names the Clang
 * plugin: cw-wrong-compiler.cc).  plugin/clang is named the same way.
 *
 * Use:
 *   gcc -fplugin=PATH/capture_window.so file.c -lcapture_window
 *   g++ -fplugin=PATH/capture_window.so file.cc -lcapture_window
 *   nvcc -Xcompiler -fplugin=PATH/capture_window.so file.cu -lcapture_window
 *
 * Options (-fplugin-arg-capture_window-NAME, after -fplugin=):
 *   verbose   a note for every instrumented loop: file:line of the pragma,
 *             enclosing function, label and window.
 *   portable  accepted and ignored: the name of the only emission there is
 *             (docs/performance.md says why there is one), so that builds
 *             that pass it keep working; the same in every front door.
 *   all-loops[=START:COUNT]
 *             instrument every loop of the unit (for, while, do, range-for;
 *             also those of inline functions and templates from headers) as
 *             if it were marked; a loop with its own pragma keeps the
 *             pragma's arguments.  Default window 0:1 (every loop's first
 *             iteration), so that every loop opens and closes a window;
 *             START >= 0, COUNT >= 1, both up to 2^62, else an error.
 *             Label: FUNCTION.LINE, the enclosing function's unqualified
 *             name as GCC prints it (template arguments included) and the
 *             line of the loop keyword; each run of characters outside
 *             [A-Za-z0-9_.-] becomes one '_' and FUNCTION is cut so that the
 *             label fits 63 characters with .LINE kept whole
 *             (`operator()` -> `operator_.12`, `sum<int>` -> `sum_int_.5`;
 *             plugin/common/cw_all_loops.c).  Not instrumented: loops whose
 *             body can be entered other than through the loop (a goto from
 *             outside to a label inside, a case label of a switch around
 *             the loop, a label whose address is taken), loops in offload
 *             regions (omp target, OpenACC) and in compiler-generated
 *             functions; with verbose each skipped loop gets a note.
 *   loop=SPEC marks a loop without editing the source (zero-edit marking),
 *             as if `#pragma capture_window(START, COUNT, "LABEL")` stood
 *             before it; repeatable.  SPEC (capture_window/loop_spec.h):
 *               FILE:LINE[:START:COUNT[:LABEL]]  the loop whose for, while
 *                 or do keyword is on LINE of a file whose path ends in
 *                 FILE at a '/' (CAPTURE_WINDOW_LOOPS's rule);
 *               FUNCTION[:START:COUNT[:LABEL]]  the outermost loop of each
 *                 function so named (C name, or C++ qualified name matched
 *                 against the trailing scopes: fit, Trainer::fit and
 *                 ns::Trainer::fit all name ns::Trainer::fit); a function
 *                 with several outermost loops is an error.
 *             Default window 0:1, label "step".  The site's line is the
 *             loop keyword's.  A SPEC that marks no loop of the unit is an
 *             error at the end of the unit (preprocessing passes such as
 *             nvcc's `gcc -E` runs and nvcc's device-link stub do not
 *             check); so is a loop that
 *             also has a pragma, or that two SPECs mark.
 *   loop-optional=SPEC
 *             the same, without the error when SPEC matches nothing in
 *             this unit (for build systems that pass one SPEC to every
 *             unit of a target: cmake/CaptureWindowInstrument.cmake).
 *   Any other argument is an error that names it.
 *
 * What the user writes, directly before a for, while, do or range-for loop
 * (comments, blank lines and other pragmas may sit between; _Pragma works
 * inside macros):
 *
 *   #pragma capture_window(START, COUNT [, "LABEL"])
 *
 * START >= 0 and COUNT >= 1 are integer constants after macro expansion,
 * LABEL matches [A-Za-z0-9_.-]{1,63} and defaults to "step".  Mistakes are
 * errors at the pragma (words shared with the other front doors, see
 * plugin/common/cw_messages.c).
 *
 * Before:
 *
 *   #pragma capture_window(30, 3)
 *   for (int step = 0; step < n; step++)
 *     train_step ();
 *
 * After (the ABI of runtime/include/capture_window/abi.h):
 *
 *   static struct cw_site_v2 cw_site.0 = { 2, LINE, "FILE", "FUNCTION",
 *                                          "step", 30, 3 };
 *   {
 *     struct cw_loop_v2 *cw = cw_loop_enter_v2 (&cw_site.0);
 *     int on = 0;                    // cw, on: opaque per iteration (cw-emit.cc)
 *     try {
 *       for (int step = 0; step < n; step++)
 *         {
 *           if (cw && cw->next++ >= cw->attention_at)
 *             on = cw_iter_begin_v2 (cw);
 *           train_step ();      // its `continue`s: goto continue_label
 *         continue_label:
 *           if (on) { on = 0; cw_iter_end_v2 (cw); }
 *         }
 *     } finally { cw_loop_exit_v2 (cw, on); }
 *   }
 *
 * "try/finally" is GENERIC's TRY_FINALLY_EXPR, what __attribute__((cleanup))
 * lowers to: cw_loop_exit_v2 runs on break, return, goto out of the loop
 * and C++ exceptions, and ends the iteration in progress if it went
 * through the runtime.  One cleanup per loop rather than one per iteration
 * keeps the code GCC copies onto every exit small.
 *
 * In a C++ function that constant evaluation may run (constexpr,
 * consteval, a lambda C++17 made constexpr), each runtime call, asm and
 * continue-goto above sits behind `if (__builtin_is_constant_evaluated ())
 * ; else`: a constant evaluation sees the loop as written, and code
 * generation folds the test away (cw-emit.cc, docs/limitations.md).
 *
 * How: the pragma handler (PLUGIN_PRAGMAS) parses the arguments with the
 * shared grammar and appends a marker statement `(void) ID` to the
 * statement list being built, so the parser itself places the pragma among
 * the statements (templates carry it into every instantiation).  At
 * PLUGIN_PRE_GENERICIZE, when C and C++ bodies still hold FOR_STMT,
 * WHILE_STMT and DO_STMT, each marker is matched with the statement after
 * it, which must be a loop; the marker is removed and the loop wrapped.
 */

#include "cw-gcc.h"
#include "cw_messages.h"

/* The core's one exported symbol; everything else is hidden. */
#define CW_EXPORT __attribute__((visibility("default")))

/* The help text GCC shows (--help with -v), written from the shared
   argument table (cw_args.h) at start-up. */
static char cw_help[2048];
static struct plugin_info cw_plugin_info = {"0.1", cw_help};

struct cw_options cw_options;
static vec<cw_pending> pending;

cw_pending *cw_pending_pragma(unsigned id) { return id < pending.length() ? &pending[id] : NULL; }

bool cw_any_pending(void) { return !pending.is_empty(); }

/* The token at LOC as written, if its spelling is one line of a readable
   file: messages then quote "99999999999999999999" rather than the value
   the lexer truncated it to. */
static bool token_spelling(location_t loc, char *text, size_t size) {
  location_t spell = linemap_resolve_location(line_table, loc, LRK_SPELLING_LOCATION, NULL);
  expanded_location a = expand_location(get_start(spell));
  expanded_location b = expand_location(get_finish(spell));
  if (!a.file || !b.file || strcmp(a.file, b.file) || a.line != b.line || a.column < 1 ||
      b.column < a.column)
    return false;
  const char *line;
  size_t len, n = b.column - a.column + 1;
  if (!cw_source_line(a.file, a.line, &line, &len) || (size_t)b.column > len || n >= size)
    return false;
  memcpy(text, line + a.column - 1, n);
  text[n] = '\0';
  return true;
}

/* Tokens that came from _Pragma("...") have no spelling of their own in
   the file: accept a spelling only if it looks like the token. */
static bool looks_like_number(const char *s) {
  if (!ISDIGIT(s[0]) && s[0] != '.') return false;
  for (; *s; s++)
    if (!ISALNUM(*s) && !strchr(".'+-", *s)) return false;
  return true;
}

static bool looks_like_literal(const char *s) {
  size_t n = strlen(s);
  return n >= 2 && (s[n - 1] == '"' || s[n - 1] == '\'') && strchr("LuUR8\"'", s[0]);
}

/* Turn one token from pragma_lex into the grammar's terms.  TEXT receives
   the spelling the grammar quotes in messages. */
static enum cw_token_kind classify_token(enum cpp_ttype type, tree value, location_t loc,
                                         char *text, size_t size) {
  text[0] = '\0';
  switch (type) {
  case CPP_OPEN_PAREN:
    return CW_TOKEN_OPEN;
  case CPP_CLOSE_PAREN:
    return CW_TOKEN_CLOSE;
  case CPP_COMMA:
    return CW_TOKEN_COMMA;
  case CPP_MINUS:
    return CW_TOKEN_MINUS;
  case CPP_EOF:
  case CPP_PRAGMA_EOL:
    return CW_TOKEN_END;
  case CPP_NUMBER:
    if (token_spelling(loc, text, size) && looks_like_number(text))
      ;
    else if (value && TREE_CODE(value) == INTEGER_CST)
      print_dec(wi::to_wide(value), text, TYPE_SIGN(TREE_TYPE(value)));
    else if (value && TREE_CODE(value) == REAL_CST)
      real_to_decimal(text, TREE_REAL_CST_PTR(value), size, 0, 1);
    else
      snprintf(text, size, "a non-integer number");
    return CW_TOKEN_NUMBER;
  case CPP_STRING:
    if (value && TREE_CODE(value) == STRING_CST) {
      /* Contents without the terminating NUL; an embedded NUL becomes a
         character the label check rejects. */
      size_t n = TREE_STRING_LENGTH(value);
      const char *s = TREE_STRING_POINTER(value);
      if (n > 0 && s[n - 1] == '\0') n--;
      if (n > size - 1) n = size - 1;
      for (size_t i = 0; i < n; i++) text[i] = s[i] ? s[i] : '?';
      text[n] = '\0';
    }
    return CW_TOKEN_STRING;
  default:
    if (value && TREE_CODE(value) == IDENTIFIER_NODE)
      snprintf(text, size, "%s", IDENTIFIER_POINTER(value));
    else if (type <= CPP_LAST_PUNCTUATOR)
      snprintf(text, size, "%s", (const char *)cpp_type2name(type, 0));
    else if (!token_spelling(loc, text, size) || !looks_like_literal(text))
      text[0] = '\0';
    return CW_TOKEN_OTHER;
  }
}

/* Read the rest of the pragma line into *WINDOW.  On a mistake, report it
   at the offending token and return false. */
static bool read_pragma_arguments(location_t pragma_loc, struct cw_loop_window *window) {
  struct cw_pragma_parser parser;
  const char *err = NULL;
  location_t loc = pragma_loc;

  cw_pragma_init(&parser);
  for (;;) {
    tree value = NULL_TREE;
    location_t tok_loc = UNKNOWN_LOCATION;
    char text[128];
    enum cpp_ttype type = pragma_lex(&value, &tok_loc);
    enum cw_token_kind kind = classify_token(type, value, tok_loc, text, sizeof text);
    /* The end of line has no useful location: keep the last token's. */
    /* A token from a macro is reported at the pragma's line, where the
       macro was used, not at the macro's definition. */
    if (kind != CW_TOKEN_END && tok_loc != UNKNOWN_LOCATION) loc = cw_expansion_point(tok_loc);
    err = cw_pragma_feed(&parser, kind, kind == CW_TOKEN_OTHER && !text[0] ? NULL : text);
    if (err || kind == CW_TOKEN_END) break;
  }
  if (!err) err = cw_pragma_finish(&parser, window);
  if (err) {
    error_at(loc, "%s", err);
    return false;
  }
  return true;
}

/* True while the front end is inside a function body that statements can
   be added to (false at file scope, in a class body, in a parameter
   list). */
static bool in_function_body(void) {
  if (!current_function_decl) return false;
  stmt_tree st = current_stmt_tree();
  return st && st->x_cur_stmt_list && !st->x_cur_stmt_list->is_empty();
}

/* #pragma capture_window(...): parse, check the place, leave a marker. */
static void handle_capture_window_pragma(cpp_reader *) {
  location_t pragma_loc = input_location;
  struct cw_loop_window window;

  if (!read_pragma_arguments(pragma_loc, &window)) return;
  if (!in_function_body()) {
    error_at(pragma_loc, "%s", cw_message(CW_MSG_OUTSIDE_FUNCTION));
    return;
  }
  cw_pending p = {pragma_loc, window, false};
  unsigned id = pending.length();
  pending.safe_push(p);
  add_stmt(cw_build_marker(pragma_loc, id));
}

/* The preprocessor's handler of pragmas no one registered (GCC's own:
   -Wunknown-pragmas, or -E's printing), which warn_near_miss runs after. */
static void (*unknown_pragma)(cpp_reader *, location_t);

/* A pragma no one registered: a near miss of ours (capture_windows) gets
   a warning whatever -Wunknown-pragmas says, since the loop after it
   would run unmarked.  The name token is put back for GCC's handler. */
static void warn_near_miss(cpp_reader *reader, location_t loc) {
  const cpp_token *name = cpp_get_token(reader);
  if (name->type == CPP_NAME) {
    const char *text = (const char *)cpp_token_as_text(reader, name);
    char buf[256];
    if (cw_pragma_name_near_miss(text, strlen(text)))
      warning_at(cw_expansion_point(name->src_loc), 0, "%s",
                 cw_format_pragma_near_miss(buf, sizeof buf, text));
  }
  _cpp_backup_tokens(reader, 1);
  if (unknown_pragma) unknown_pragma(reader, loc);
}

static void register_pragma(void *, void *) {
  c_register_pragma_with_expansion(NULL, CW_PRAGMA_NAME, handle_capture_window_pragma);
  cpp_callbacks *callbacks = cpp_get_callbacks(parse_in);
  if (callbacks->def_pragma != warn_near_miss) {
    unknown_pragma = callbacks->def_pragma;
    callbacks->def_pragma = warn_near_miss;
  }
}

static void start_unit(void *, void *) { cw_declare_runtime(); }

/* nvcc compiles its device-link stub (crt/link.stub) with the user's
   host flags: it holds none of the user's loops. */
static bool is_nvcc_link_stub(void) {
  const char *stub = "crt/link.stub";
  size_t n = main_input_filename ? strlen(main_input_filename) : 0;
  return n >= strlen(stub) && strcmp(main_input_filename + n - strlen(stub), stub) == 0;
}

/* The end of the compilation.  Preprocessing passes (-E, -M, nvcc's
   `gcc -E` runs) parse no function, and after another error a function
   may be missing: neither can tell a spec that matches nothing. */
static void finish(void *, void *) {
  if (!flag_preprocess_only && !seen_error() && !is_nvcc_link_stub())
    cw_report_unmatched_loop_args();
}

static void pre_genericize(void *gcc_data, void *) {
  tree fndecl = (tree)gcc_data;
  /* Nothing to do, at no cost, for units without the pragma. */
  if ((cw_any_pending() || cw_options.all_loops || cw_options.nloop_args) && fndecl &&
      TREE_CODE(fndecl) == FUNCTION_DECL)
    cw_instrument_function(fndecl);
}

/* A message about an argument, through GCC's diagnostics. */
static void report_argument(void *, const char *message) { error("%s", message); }

/* Each -fplugin-arg-capture_window-KEY[=VALUE], by the shared path
   (cw_args.h). */
static bool parse_plugin_arguments(const struct plugin_name_args *info) {
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    ok &= cw_args_take(&cw_options, info->base_name, info->argv[i].key, info->argv[i].value,
                       report_argument, NULL) != 0;
  cw_format_argument_help(cw_help, sizeof cw_help, info->base_name);
  return ok;
}

/* plugin_init of capture_window.so (cw-loader.cc) hands over here once
   GCC's version check passed. */
extern "C" CW_EXPORT int cw_core_init(struct plugin_name_args *info) {
  /* A bad argument fails the compilation through its error; the plugin
     then stays out of the way. */
  if (!parse_plugin_arguments(info)) return 0;

  register_callback(info->base_name, PLUGIN_INFO, NULL, &cw_plugin_info);
  /* lto1 and other non-C-family front ends: nothing to instrument. */
  if (!cw_have_c_family()) return 0;
  register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, (void *)cw_gc_roots);
  register_callback(info->base_name, PLUGIN_PRAGMAS, register_pragma, NULL);
  register_callback(info->base_name, PLUGIN_START_UNIT, start_unit, NULL);
  register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, pre_genericize, NULL);
  if (cw_options.nloop_args) register_callback(info->base_name, PLUGIN_FINISH, finish, NULL);
  return 0;
}
