/*
 * cw-ast.cc - after the unit is parsed: say which unattached pragmas stand
 * outside any function, and (verbose) note every instrumented loop once
 * per function it ended up in (each template instantiation has its own).
 */
#include "cw-clang.h"

#include "cw_messages.h"

using namespace clang;

namespace cw_clang {
namespace {

class UnitVisitor : public RecursiveASTVisitor<UnitVisitor> {
public:
  UnitVisitor(ASTContext &Context, const UnitState &State)
      : SM(Context.getSourceManager()), State(State) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  /* Function bodies, to place the unattached pragmas. */
  bool VisitFunctionDecl(FunctionDecl *Function) {
    if (Function->doesThisDeclarationHaveABody()) addBody(Function->getBody());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    addBody(Lambda->getBody());
    return true;
  }
  bool VisitBlockExpr(BlockExpr *Block) {
    addBody(Block->getBody());
    return true;
  }

  /* The site variables the rewritten loops declare: __cw_site_N. */
  bool VisitVarDecl(VarDecl *Var) {
    if (!State.Verbose || !Var->isStaticLocal() || !Var->getIdentifier() ||
        Var->getDeclContext()->isDependentContext())
      return true;
    llvm::StringRef Name = Var->getName();
    unsigned Id;
    if (!Name.consume_front("__cw_site_") || Name.getAsInteger(10, Id) || Id >= State.Loops.size())
      return true;
    Notes.push_back({Id, functionName(Var)});
    return true;
  }

  bool insideFunction(SourceLocation Loc) const {
    Loc = SM.getExpansionLoc(Loc);
    for (const SourceRange &Body : Bodies)
      if (SM.isBeforeInTranslationUnit(Body.getBegin(), Loc) &&
          SM.isBeforeInTranslationUnit(Loc, Body.getEnd()))
        return true;
    return false;
  }

  struct Note {
    unsigned Id;
    std::string Function;
  };
  std::vector<Note> Notes;

private:
  void addBody(const Stmt *Body) {
    if (Body)
      Bodies.push_back(
          {SM.getExpansionLoc(Body->getBeginLoc()), SM.getExpansionLoc(Body->getEndLoc())});
  }

  /* The name the site itself holds (__FUNCTION__ / __PRETTY_FUNCTION__,
     evaluated by Sema for this instantiation), directly or (C++14 and
     later) through the constexpr local __cw_fn_N (cw-emit.cc). */
  static std::string functionName(const VarDecl *Var) {
    const auto *Init = dyn_cast_or_null<InitListExpr>(Var->getInit());
    if (!Init || Init->getNumInits() <= 3) return "?";
    const Expr *Name = Init->getInit(3)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Name))
      if (const auto *Local = dyn_cast<VarDecl>(Ref->getDecl()))
        if (Local->getInit()) Name = Local->getInit()->IgnoreParenImpCasts();
    if (const auto *Predefined = dyn_cast<PredefinedExpr>(Name))
      if (const StringLiteral *Text = Predefined->getFunctionName()) return Text->getString().str();
    return "?";
  }

  const SourceManager &SM;
  const UnitState &State;
  std::vector<SourceRange> Bodies;
};

} // namespace

void reportUnitDiagnostics(ASTContext &Context, const UnitState &State) {
  /* Nothing to do, at no cost, in the usual case. */
  if (State.Unattached.empty() && !(State.Verbose && !State.Loops.empty())) return;
  UnitVisitor Visitor(Context, State);
  Visitor.TraverseDecl(Context.getTranslationUnitDecl());

  DiagnosticsEngine &Diags = Context.getDiagnostics();
  const SourceManager &SM = Context.getSourceManager();
  for (SourceLocation Loc : State.Unattached)
    report(Diags, DiagnosticsEngine::Error, pragmaDiagLoc(SM, Loc),
           cw_message(Visitor.insideFunction(Loc) ? CW_MSG_NOT_FOLLOWED_BY_LOOP
                                                  : CW_MSG_OUTSIDE_FUNCTION));

  for (const UnitVisitor::Note &Note : Visitor.Notes) {
    const MarkedLoop &Loop = State.Loops[Note.Id];
    PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(Loop.PragmaLoc));
    char Text[1024];
    cw_format_loop_note(Text, sizeof Text, Loop.LoopKind, Loop.Window.label, Loop.Window.start,
                        Loop.Window.count, Where.isValid() ? Where.getFilename() : "<unknown>",
                        Where.isValid() ? Where.getLine() : 0, Note.Function.c_str());
    report(Diags, DiagnosticsEngine::Note, pragmaDiagLoc(SM, Loop.PragmaLoc), Text);
  }
}

} // namespace cw_clang
