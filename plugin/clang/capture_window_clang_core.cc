/*
 * capture_window_clang_core.so - Clang plugin that instruments loops marked
 * with `#pragma capture_window` for capture-window Nsight Systems
 * captures.  The Clang counterpart of plugin/gcc/capture_window.so: same
 * pragma, same grammar and messages (plugin/common), same emitted ABI
 * (runtime/include/capture_window/abi.h).
 *
 * clang loads capture_window_clang.so (cw-loader.cc), which loads this
 * file from beside it (and, given to gcc, names the GCC plugin:
 * cw-wrong-compiler.cc).  plugin/gcc is named the same way.
 *
 * Use:
 *   clang   -fplugin=PATH/capture_window_clang.so file.c  -lcapture_window
 *   clang++ -fplugin=PATH/capture_window_clang.so file.cc -lcapture_window
 *   PATH: pkg-config --variable=clang_plugin capture-window
 *
 * The plugin registers under the name capture_window, so its options read
 * -fplugin-arg-capture_window-NAME (after -fplugin=):
 *   verbose   a note for every instrumented loop: file:line of the pragma,
 *             enclosing function, label and window.
 *   portable  accepted, a no-op (what this plugin always emits).
 *   loop=SPEC, loop-optional=SPEC
 *             zero-edit marking, as in the GCC plugin
 *             (capture_window/loop_spec.h): FILE:LINE[:START:COUNT[:LABEL]]
 *             or FUNCTION[:START:COUNT[:LABEL]] marks that loop as a pragma
 *             would; a unit with loop specs is parsed twice (cw-spec.cc).
 *   all-loops[=START:COUNT]
 *             every loop of the unit as if marked, as in the GCC plugin
 *             (plugin/common/cw_all_loops.h): window START:COUNT (default
 *             0:1), label FUNCTION.LINE; loops with a pragma keep it.  Left
 *             alone: bodies that can be entered from outside (a note with
 *             verbose), loops of CUDA device functions and inside OpenMP
 *             constructs (constexpr and consteval ones are marked, as by
 *             GCC).  Also found by
 *             the parse beforehand (cw-spec.cc).  A template's loop is lexed
 *             once, so its label has no template arguments.
 *   Any other argument is an error that names it.
 *
 * What the user writes, directly before a for, while, do or range-for loop
 * (comments, blank lines and other pragmas such as `#pragma GCC unroll`
 * or `#pragma omp simd` may sit between; _Pragma and CAPTURE_WINDOW() of
 * annotations/capture_window.h work inside macros):
 *
 *   #pragma capture_window(START, COUNT [, "LABEL"])
 *
 * Before:
 *
 *   #pragma capture_window(30, 3)
 *   for (int step = 0; step < n; step++)
 *     train_step();
 *
 * After (as tokens; see cw-emit.cc), in C and C++ before 14:
 *
 *   {
 *     static struct cw_site_v2 __cw_site_0 = { 2, LINE, "FILE",
 *         __FUNCTION__ (C) or __PRETTY_FUNCTION__ (C++), "step", 30, 3,
 *         { 0, 0, 0, 0 } };
 *     struct cw_loop_v2 *__cw_loop_0
 *         __attribute__((__cleanup__(__cw_clang_loop_exit))) =
 *         cw_loop_enter_v2(&__cw_site_0);
 *     for (int step = 0; step < n; step++) {
 *       struct cw_loop_v2 *__cw_iter_0
 *           __attribute__((__cleanup__(__cw_clang_iter_end), __unused__)) =
 *           __cw_clang_iter_begin(__cw_loop_0);
 *       train_step();
 *     }
 *   }
 *
 * From C++14 on the function may be constexpr or consteval (constant
 * evaluation may run the loop), which the preprocessor cannot tell, so
 * every C++14 loop gets a form that constant evaluation passes through
 * untouched: the site is a static local of a lambda that only run time
 * calls, and the enclosing function's name reaches it through a
 * constexpr local:
 *
 *     constexpr const char *__cw_fn_0 = __PRETTY_FUNCTION__;
 *     struct cw_loop_v2 *__cw_loop_0 __attribute__((...)) =
 *         __builtin_is_constant_evaluated() ? nullptr
 *         : []() -> struct cw_loop_v2 * {
 *             static struct cw_site_v2 __cw_site_0 = { ..., __cw_fn_0, ... };
 *             return cw_loop_enter_v2(&__cw_site_0); }();
 *
 * and the helpers are constexpr and do nothing in constant evaluation.
 *
 * __cw_clang_iter_begin/_iter_end/_loop_exit are always-inline helpers.
 * iter_begin makes abi.h's inline test: an iteration that needs nothing
 * only counts (loop->next++) and gets a NULL guard; otherwise it calls
 * cw_iter_begin_v2 and the guard is the loop, so that the guard's cleanup
 * calls cw_iter_end_v2.  loop_exit calls cw_loop_exit_v2 when the loop is
 * active (non-NULL).  The cleanup attribute runs them on every way out of
 * a scope: falling off the body, continue, break, return, goto out of the
 * loop, and C++ exceptions (-fexceptions, the C++ default).
 *
 * How: Clang has no hook to rewrite a parsed loop before code generation,
 * so the work happens in the preprocessor.  The pragma handler parses the
 * arguments with the shared grammar, reads the loop ahead token by token
 * (other pragmas' annotation tokens, the keyword, the header and the body,
 * and for do loops the `while (...);`), and enters the rewritten tokens
 * again with Preprocessor::EnterTokenStream.  The user's tokens keep their
 * locations; the added ones are located at the loop keyword.  Nested marked
 * loops are rewritten by the nested handler call while the outer loop is
 * read ahead.  The ABI header and the helpers are appended to the
 * predefines buffer, so no #include is needed and a later
 * #include <capture_window/abi.h> is a no-op.  The plugin is an
 * AddBeforeMainAction, so a bare -fplugin= is enough.  After parsing, an
 * AST pass reports pragmas not followed by a loop (outside a function or
 * not) and, with verbose, notes each instrumented loop per function
 * (template instantiations each get one).
 *
 * Limits:
 *   - a goto or switch case label jumping into a marked loop's body from
 *     outside it is a compile error (it would bypass the cleanup
 *     variables); longjmp out of a body skips the end hooks;
 *   - the macros CW_ABI_VERSION, CW_ABI_EXPORT and CAPTURE_WINDOW_ABI_H
 *     and the abi.h declarations are visible in every unit compiled with
 *     the plugin;
 *   - with -E (preprocess only) the plugin is not loaded and the pragma is
 *     kept in the output.
 */
#include "cw-clang.h"

#include "cw_messages.h"

using namespace clang;

namespace {

/* nvcc compiles its device-link stub (crt/link.stub) with the user's host
   flags: it holds none of the user's loops, so no spec can match there. */
bool isNvccLinkStub(const SourceManager &SM) {
  const std::string Stub = "crt/link.stub";
  std::string Main = SM.getBufferName(SM.getLocForStartOfFile(SM.getMainFileID())).str();
  return Main.size() >= Stub.size() &&
         Main.compare(Main.size() - Stub.size(), Stub.size(), Stub) == 0;
}

class CaptureWindowConsumer : public ASTConsumer {
public:
  explicit CaptureWindowConsumer(std::shared_ptr<cw_clang::UnitState> State)
      : State(std::move(State)) {}

  void HandleTranslationUnit(ASTContext &Context) override {
    cw_clang::reportUnitDiagnostics(Context, *State);
    if (!isNvccLinkStub(Context.getSourceManager()))
      cw_clang::reportUnmatchedLoopArgs(Context.getDiagnostics(), *State);
  }

private:
  std::shared_ptr<cw_clang::UnitState> State;
};

class CaptureWindowAction : public PluginASTAction {
public:
  ~CaptureWindowAction() override { cw_options_dispose(&Options); }

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    auto State = std::make_shared<cw_clang::UnitState>();
    State->Verbose = Options.verbose;
    State->LoopArgs.assign(Options.loop_args, Options.loop_args + Options.nloop_args);
    State->AllLoops = Options.all_loops;
    State->AllLoopsWindow = Options.all_loops_window;
    Preprocessor &PP = CI.getPreprocessor();
    if (!State->LoopArgs.empty() || State->AllLoops) {
      cw_clang::findSpecLoops(CI, *State);
      cw_clang::watchSpecLoops(PP, State);
    }
    /* The predefines buffer is entered with the main file, after this. */
    PP.setPredefines(PP.getPredefines() + "\n" + cw_clang::runtimeDeclarations());
    PP.AddPragmaHandler(cw_clang::createPragmaHandler(State).release());
    PP.AddPragmaHandler(cw_clang::createUnknownPragmaHandler().release());
    return std::make_unique<CaptureWindowConsumer>(std::move(State));
  }

  /* A message about an argument, through Clang's diagnostics. */
  static void reportArgument(void *Context, const char *Text) {
    DiagnosticsEngine &Diags = static_cast<const CompilerInstance *>(Context)->getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Text;
  }

  /* -fplugin-arg-capture_window-KEY[=VALUE], by the shared path
     (cw_args.h). */
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    bool Ok = true;
    for (const std::string &Arg : Args)
      Ok &= cw_args_take_text(&Options, CW_PRAGMA_NAME, Arg.c_str(), reportArgument,
                              const_cast<CompilerInstance *>(&CI)) != 0;
    /* A bad argument fails the compilation through its error; the plugin
       then stays out of the way. */
    return Ok;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  cw_options Options = {};
};

} // namespace

static FrontendPluginRegistry::Add<CaptureWindowAction>
    CaptureWindowPlugin(CW_PRAGMA_NAME, "instrument loops marked with #pragma capture_window");
