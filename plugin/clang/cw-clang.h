/*
 * cw-clang.h - what the parts of the Clang plugin share: the per-unit state
 * the pragma handler fills in and the AST pass reads, and the diagnostics
 * helper.  See capture_window_clang.cc for the plugin's manual.
 */
#ifndef CW_CLANG_H
#define CW_CLANG_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"
#include "llvm/ADT/StringRef.h"

#include "cw_pragma.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace cw_clang {

/* One instrumented loop.  Its index in UnitState::Loops is the number in
   the names of its site variable (__cw_site_N) and locals. */
struct MarkedLoop {
  clang::SourceLocation PragmaLoc;
  struct cw_pragma Window;
  const char *LoopKind; /* "for", "while" or "do" */
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
};

/* The #pragma capture_window handler (cw-pragma.cc). */
std::unique_ptr<clang::PragmaHandler>
createPragmaHandler(std::shared_ptr<UnitState> State);

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
clang::SourceLocation pragmaDiagLoc(const clang::SourceManager &SM,
                                    clang::SourceLocation Loc);

/* Report TEXT at LOC (or at the expansion point of a macro location) with
   the compiler's own diagnostics. */
void report(clang::DiagnosticsEngine &Diags, clang::DiagnosticsEngine::Level Level,
            clang::SourceLocation Loc, llvm::StringRef Text);

} // namespace cw_clang

#endif /* CW_CLANG_H */
