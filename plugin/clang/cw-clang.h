/*
 * cw-clang.h - what the parts of the Clang plugin share: the per-unit state
 * the pragma handler fills in and the AST pass reads, and the diagnostics
 * helper.  See capture_window_clang_core.cc for the plugin's manual.
 */
#ifndef CW_CLANG_H
#define CW_CLANG_H

#include "clang-common.h"

#include "cw_args.h"
#include "cw_pragma.h"
#include "capture_window/loop_spec.h"

#include <map>

#include <memory>
#include <string>
#include <vector>

namespace cw_clang {

/* One instrumented loop.  Its index in UnitState::Loops is the number in
   the names of its site variable (__cw_site_N) and locals. */
struct MarkedLoop {
  clang::SourceLocation PragmaLoc;
  struct cw_loop_window Window;
  const char *LoopKind; /* "for", "while" or "do" */
};

/* What a loop keyword found by the pre-parse means (cw-spec.cc). */
struct SpecHit {
  enum Kind { Mark, Twice, SecondOutermost, FirstOutermost } What;
  unsigned Arg;   /* index in UnitState::LoopArgs */
  unsigned Other; /* Twice: the first argument */
};

/* A loop all-loops marks (cw-spec.cc): its label, or why it is left. */
struct AutoLoop {
  std::string Label;      /* FUNCTION.LINE (cw_all_loops.h) */
  bool Enterable = false; /* its body can be entered from outside: left */
};

/* What the pragma handler learns about one translation unit.  Shared by
   the handler (owned by the preprocessor) and the AST consumer. */
struct UnitState {
  bool Verbose = false;
  std::vector<MarkedLoop> Loops;
  /* Pragmas not followed by a loop: whether they sit in a function body is
     only known once the unit is parsed (in-class member functions are
     lexed before they are parsed). */
  std::vector<clang::SourceLocation> Unattached;

  /* Zero-edit marking: the arguments, and the loops they name by the
     place of their keyword (loopKey). */
  std::vector<cw_loop_arg> LoopArgs; /* loop[-optional]=SPEC (cw_args.h) */
  std::map<std::string, SpecHit> SpecLoops;
  std::map<std::string, clang::SourceLocation> FirstOutermostSeen;
  /* -fplugin-arg-capture_window-all-loops[=START:COUNT]: its window, and
     every loop of the unit by loopKey. */
  bool AllLoops = false;
  struct cw_loop_window AllLoopsWindow;
  std::map<std::string, AutoLoop> AutoLoops;
  /* A pragma handler is reading up to its loop's keyword (its pragma). */
  clang::SourceLocation PragmaAwaitingLoop;
};

/* Instrument the loop READER has read, as WINDOW says; SITE_LOC locates
   the site (the pragma, or the keyword of a loop named by a spec).  Enters
   the rewritten tokens (cw-pragma.cc). */
class LoopReader;
void enterInstrumented(clang::Preprocessor &PP, UnitState &State, LoopReader &Reader,
                       clang::SourceLocation SiteLoc, const cw_loop_window &Window);

/* Zero-edit marking (cw-spec.cc): parse the unit once beforehand to find
   the loops LoopArgs name (and with all-loops every loop), then watch the
   tokens for their keywords. */
void findSpecLoops(clang::CompilerInstance &CI, UnitState &State);
void watchSpecLoops(clang::Preprocessor &PP, std::shared_ptr<UnitState> State);
std::string loopKey(const clang::SourceManager &SM, clang::SourceLocation Loc);
void reportUnmatchedLoopArgs(clang::DiagnosticsEngine &Diags, const UnitState &State);

/* The #pragma capture_window handler (cw-pragma.cc). */
std::unique_ptr<clang::PragmaHandler> createPragmaHandler(std::shared_ptr<UnitState> State);
/* The handler of pragmas no one handles: warns of near misses of ours. */
std::unique_ptr<clang::PragmaHandler> createUnknownPragmaHandler();

/* The declarations instrumented code needs, for the predefines buffer
   (cw-pragma.cc). */
std::string runtimeDeclarations();

/* After parsing: the errors for unattached pragmas and, if verbose, the
   note for every instrumented loop, one per template instantiation
   (cw-ast.cc). */
void reportUnitDiagnostics(clang::ASTContext &Context, const UnitState &State);

/* Where diagnostics about the pragma at LOC (its name token) go: for
   _Pragma in a macro, the _Pragma as the macro's definition spells it, as
   GCC reports it. */
clang::SourceLocation pragmaDiagLoc(const clang::SourceManager &SM, clang::SourceLocation Loc);

/* Report TEXT at LOC (or at the expansion point of a macro location) with
   the compiler's own diagnostics. */
void report(clang::DiagnosticsEngine &Diags, clang::DiagnosticsEngine::Level Level,
            clang::SourceLocation Loc, llvm::StringRef Text);

} // namespace cw_clang

#endif /* CW_CLANG_H */
