/*
 * cw-spec.cc - zero-edit marking in the Clang plugin:
 * -fplugin-arg-capture_window-loop=SPEC (capture_window/loop_spec.h).
 *
 * The plugin rewrites loops in the preprocessor, where neither the
 * function around a token nor whether a `while` ends a do loop is known.
 * So a unit with loop specs is parsed twice: first a syntax-only parse of
 * the same invocation (no output, its diagnostics dropped) finds the loops
 * each spec names in the AST and keeps them by the place of their keyword
 * (loopKey: file and offset of its spelling and expansion, the same in
 * both parses); then, in the real parse, a token watcher meets those
 * keywords as the parser asks for them and rewrites each loop exactly as
 * the pragma handler does (enterInstrumented).  Errors (two specs on one
 * loop, a spec and a pragma, a function with several outermost loops) are
 * reported by the watcher, at the keyword; specs that matched nothing at
 * the end of the unit.
 *
 * all-loops rides on the same two parses: the first one also lists every
 * loop of every function body (AutoLoops, with its FUNCTION.LINE label),
 * and the watcher rewrites each that no spec and no pragma claims.
 */
#include "cw-clang.h"
#include "cw-loop.h"

#include <functional>
#include <set>

#include "cw_all_loops.h"
#include "cw_messages.h"

using namespace clang;

namespace cw_clang {

std::string loopKey(const SourceManager &SM, SourceLocation Loc) {
  SourceLocation Spelling = SM.getSpellingLoc(Loc);
  SourceLocation Expansion = SM.getExpansionLoc(Loc);
  return SM.getFilename(Spelling).str() + ":" + std::to_string(SM.getFileOffset(Spelling)) + "|" +
         SM.getFilename(Expansion).str() + ":" + std::to_string(SM.getFileOffset(Expansion));
}

namespace {

SourceLocation keywordLoc(const Stmt *S) {
  if (const auto *For = dyn_cast<ForStmt>(S)) return For->getForLoc();
  if (const auto *While = dyn_cast<WhileStmt>(S)) return While->getWhileLoc();
  if (const auto *Do = dyn_cast<DoStmt>(S)) return Do->getDoLoc();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) return Range->getForLoc();
  return SourceLocation();
}

/* F's scopes and name joined by "::", unnamed scopes left out. */
std::string qualifiedName(const FunctionDecl *F) {
  std::string Name = F->getIdentifier() ? F->getName().str() : "";
  for (const DeclContext *C = F->getDeclContext(); C; C = C->getParent())
    if (const auto *Scope = dyn_cast<NamedDecl>(C))
      if (Scope->getIdentifier()) Name = Scope->getName().str() + "::" + Name;
  return Name;
}

/* The loops of a body that no other loop of it holds; lambdas and blocks
   are functions of their own. */
void outermostLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S) return;
  if (keywordLoc(S).isValid()) {
    Out.push_back(S);
    return;
  }
  if (isa<LambdaExpr>(S) || isa<BlockExpr>(S)) return;
  for (const Stmt *Child : S->children()) outermostLoops(Child, Out);
}

Stmt *loopBody(Stmt *S) {
  if (auto *For = dyn_cast<ForStmt>(S)) return For->getBody();
  if (auto *While = dyn_cast<WhileStmt>(S)) return While->getBody();
  if (auto *Do = dyn_cast<DoStmt>(S)) return Do->getBody();
  return cast<CXXForRangeStmt>(S)->getBody();
}

/* ---- all-loops: ways into a body other than its loop ------------------ */

/* The labels of one function body: how many gotos jump to each, and those
   whose address is taken (a computed goto may reach them from anywhere).
   Lambdas and blocks are bodies of their own. */
struct Jumps {
  std::map<const LabelDecl *, int> Gotos;
  std::set<const LabelDecl *> Forced;
};

void countJumps(const Stmt *S, Jumps &J) {
  if (!S || isa<LambdaExpr>(S) || isa<BlockExpr>(S)) return;
  if (const auto *Goto = dyn_cast<GotoStmt>(S))
    J.Gotos[Goto->getLabel()]++;
  else if (const auto *Address = dyn_cast<AddrLabelExpr>(S))
    J.Forced.insert(Address->getLabel());
  for (const Stmt *Child : S->children()) countJumps(Child, J);
}

/* True if a case label of a switch around it, a goto from outside or a
   computed goto can enter the body S: the cleanup variables the rewrite
   adds would be jumped over, which Clang rejects (GCC's rule, cw-loops.cc). */
bool bodyIsEnterable(const Stmt *S, const Jumps &Function) {
  Jumps Inside;
  std::vector<const LabelDecl *> Labels;
  bool Enterable = false;
  std::function<void(const Stmt *, bool)> Scan = [&](const Stmt *T, bool InSwitch) {
    if (!T || isa<LambdaExpr>(T) || isa<BlockExpr>(T)) return;
    if (isa<SwitchCase>(T) && !InSwitch) Enterable = true;
    if (const auto *Label = dyn_cast<LabelStmt>(T)) Labels.push_back(Label->getDecl());
    if (const auto *Goto = dyn_cast<GotoStmt>(T)) Inside.Gotos[Goto->getLabel()]++;
    const auto *Switch = dyn_cast<SwitchStmt>(T);
    for (const Stmt *Child : T->children())
      Scan(Child, InSwitch || (Switch && Child == Switch->getBody()));
  };
  Scan(S, false);
  for (const LabelDecl *L : Labels) {
    auto All = Function.Gotos.find(L);
    if (Function.Forced.count(L) || (All != Function.Gotos.end() && All->second > Inside.Gotos[L]))
      Enterable = true;
  }
  return Enterable;
}

/* Every loop of the body S of FUNCTION, for all-loops.  Not the loops of
   lambdas and blocks (their own functions) nor of OpenMP constructs (a
   rewritten loop would no longer be the construct's own). */
void addAutoLoops(const SourceManager &SM, Stmt *S, const std::string &Function, const Jumps &J,
                  UnitState &State) {
  if (!S || isa<LambdaExpr>(S) || isa<BlockExpr>(S) || isa<OMPExecutableDirective>(S)) return;
  SourceLocation Keyword = keywordLoc(S);
  if (Keyword.isValid()) {
    PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(Keyword));
    char Label[CW_LABEL_MAX + 1];
    cw_auto_label(Label, Function.c_str(), Where.isValid() ? Where.getLine() : 0);
    AutoLoop &Loop = State.AutoLoops[loopKey(SM, Keyword)];
    Loop.Label = Label;
    Loop.Enterable = bodyIsEnterable(loopBody(S), J);
  }
  for (Stmt *Child : S->children()) addAutoLoops(SM, Child, Function, J, State);
}

/* A function whose loops all-loops leaves alone: device code cannot call
   the runtime.  (Constexpr and consteval functions are marked, as by GCC:
   the rewrite keeps them constant-evaluable, cw-emit.cc.) */
bool allLoopsLeavesAlone(const FunctionDecl *F) {
  return (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()) ||
         F->hasAttr<CUDAGlobalAttr>();
}

void addFunctionLoops(const SourceManager &SM, Stmt *Body, const std::string &Function,
                      UnitState &State) {
  Jumps J;
  countJumps(Body, J);
  addAutoLoops(SM, Body, Function, J, State);
}

class FindLoops : public RecursiveASTVisitor<FindLoops> {
public:
  FindLoops(const ASTContext &Context, UnitState &State)
      : SM(Context.getSourceManager()), State(State) {}

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody()) return true;
    if (State.AllLoops && !allLoopsLeavesAlone(F))
      addFunctionLoops(SM, F->getBody(), F->getNameAsString(), State);
    std::string Name = qualifiedName(F);
    for (unsigned K = 0; K < State.LoopArgs.size(); K++) {
      cw_loop_arg &A = State.LoopArgs[K];
      if (!cw_loop_spec_function_matches_v1(&A.spec, Name.c_str())) continue;
      A.function_seen = 1;
      std::vector<const Stmt *> Loops;
      outermostLoops(F->getBody(), Loops);
      if (Loops.size() == 1)
        add(Loops[0], K);
      else if (Loops.size() > 1) {
        hit(Loops[0], {SpecHit::FirstOutermost, K, K});
        hit(Loops[1], {SpecHit::SecondOutermost, K, K});
      }
    }
    return true;
  }

  /* A lambda's body is its call operator's; all-loops names it so. */
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (State.AllLoops)
      addFunctionLoops(SM, L->getBody(), L->getCallOperator()->getNameAsString(), State);
    return true;
  }

  bool VisitStmt(Stmt *S) {
    SourceLocation Keyword = keywordLoc(S);
    if (Keyword.isInvalid()) return true;
    PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(Keyword));
    for (unsigned K = 0; K < State.LoopArgs.size(); K++) {
      const cw_loop_spec &Spec = State.LoopArgs[K].spec;
      if (Where.isValid() && Where.getLine() == Spec.line &&
          cw_loop_spec_file_matches_v1(&Spec, Where.getFilename()))
        add(S, K);
    }
    return true;
  }

private:
  void add(const Stmt *Loop, unsigned K) {
    std::string Key = loopKey(SM, keywordLoc(Loop));
    auto It = State.SpecLoops.find(Key);
    if (It == State.SpecLoops.end())
      State.SpecLoops[Key] = {SpecHit::Mark, K, K};
    else if (It->second.What == SpecHit::Mark && It->second.Arg != K)
      It->second = {SpecHit::Twice, K, It->second.Arg};
  }
  void hit(const Stmt *Loop, SpecHit Hit) { State.SpecLoops[loopKey(SM, keywordLoc(Loop))] = Hit; }

  const SourceManager &SM;
  UnitState &State;
};

class FindLoopsConsumer : public ASTConsumer {
public:
  explicit FindLoopsConsumer(UnitState &State) : State(State) {}
  void HandleTranslationUnit(ASTContext &Context) override {
    FindLoops(Context, State).TraverseDecl(Context.getTranslationUnitDecl());
  }

private:
  UnitState &State;
};

class FindLoopsAction : public ASTFrontendAction {
public:
  explicit FindLoopsAction(UnitState &State) : State(State) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<FindLoopsConsumer>(State);
  }

private:
  UnitState &State;
};

void error(Preprocessor &PP, cw_loop_arg &A, SourceLocation Loc, const char *Text) {
  if (A.reported) return;
  A.reported = 1;
  report(PP.getDiagnostics(), DiagnosticsEngine::Error, Loc, Text);
}

/* The parser is about to get TOK, a loop keyword the pre-parse found
   named by a spec.  Rewrite the loop and hand the parser its first token
   in TOK's place, or say why not. */
void onLoopKeyword(Preprocessor &PP, UnitState &State, Token &Tok, const SpecHit &Hit) {
  cw_loop_arg &A = State.LoopArgs[Hit.Arg];
  char Text[1024];
  A.matched = 1;
  switch (Hit.What) {
  case SpecHit::FirstOutermost:
    State.FirstOutermostSeen[A.given] = Tok.getLocation();
    return;
  case SpecHit::SecondOutermost: {
    bool First = !A.reported;
    error(PP, A, Tok.getLocation(),
          cw_format_loop_ambiguous(Text, sizeof Text, A.given, A.spec.target));
    auto Seen = State.FirstOutermostSeen.find(A.given);
    if (First && Seen != State.FirstOutermostSeen.end())
      report(PP.getDiagnostics(), DiagnosticsEngine::Note, Seen->second,
             "the first outermost loop is here");
    return;
  }
  case SpecHit::Twice:
    State.LoopArgs[Hit.Other].matched = 1;
    error(PP, A, Tok.getLocation(),
          cw_format_loop_marked_twice(Text, sizeof Text, A.given, State.LoopArgs[Hit.Other].given));
    return;
  case SpecHit::Mark:
    break;
  }
  if (State.PragmaAwaitingLoop.isValid()) {
    bool First = !A.reported;
    error(PP, A, Tok.getLocation(), cw_format_loop_has_pragma(Text, sizeof Text, A.given));
    if (First)
      report(PP.getDiagnostics(), DiagnosticsEngine::Note, State.PragmaAwaitingLoop,
             cw_message(CW_MSG_PRAGMA_HERE));
    return;
  }
  LoopReader Reader(PP);
  Reader.startWith(Tok);
  if (Reader.readUpToLoop() != LoopReader::Loop || !Reader.readLoop())
    Reader.enterUnchanged();
  else
    enterInstrumented(PP, State, Reader, Tok.getLocation(), A.spec.window);
  PP.Lex(Tok);
}

/* The parser is about to get TOK, the keyword of LOOP, which all-loops
   marks unless a pragma does or its body can be entered from outside. */
void onAutoLoopKeyword(Preprocessor &PP, UnitState &State, Token &Tok, const AutoLoop &Loop) {
  if (State.PragmaAwaitingLoop.isValid()) return; /* the pragma's arguments */
  if (Loop.Enterable) {
    char Text[256];
    if (State.Verbose)
      report(PP.getDiagnostics(), DiagnosticsEngine::Note, Tok.getLocation(),
             cw_format_loop_left_alone(Text, sizeof Text, Loop.Label.c_str()));
    return;
  }
  cw_loop_window Window = State.AllLoopsWindow;
  snprintf(Window.label, sizeof Window.label, "%s", Loop.Label.c_str());
  LoopReader Reader(PP);
  Reader.startWith(Tok);
  if (Reader.readUpToLoop() != LoopReader::Loop || !Reader.readLoop())
    Reader.enterUnchanged();
  else
    enterInstrumented(PP, State, Reader, Tok.getLocation(), Window);
  PP.Lex(Tok);
}

} // namespace

void findSpecLoops(CompilerInstance &CI, UnitState &State) {
  auto Invocation = std::make_shared<CompilerInvocation>(CI.getInvocation());
  FrontendOptions &Front = Invocation->getFrontendOpts();
  Front.ProgramAction = frontend::ParseSyntaxOnly;
  Front.PluginArgs.clear(); /* this plugin, loaded again, does nothing */
  Front.AddPluginActions.clear();
  Front.OutputFile.clear();
  Invocation->getDependencyOutputOpts() = DependencyOutputOptions();
  std::unique_ptr<CompilerInstance> Pre =
      newCompilerInstance(CI, std::move(Invocation), new IgnoringDiagConsumer());
  FindLoopsAction Action(State);
  Pre->ExecuteAction(Action);
}

void watchSpecLoops(Preprocessor &PP, std::shared_ptr<UnitState> State) {
  /* Every token once, also those a pragma handler reads ahead (a spec
     may name a loop inside a marked loop's body). */
  PP.setPreprocessToken(true);
  PP.setTokenWatcher([&PP, State](const Token &Tok) {
    if (!Tok.isOneOf(tok::kw_for, tok::kw_while, tok::kw_do)) return;
    std::string Key = loopKey(PP.getSourceManager(), Tok.getLocation());
    auto It = State->SpecLoops.find(Key);
    auto Auto = State->AutoLoops.find(Key);
    /* Once, however often it is lexed; a spec's window wins. */
    AutoLoop Loop;
    bool IsAuto = Auto != State->AutoLoops.end();
    if (IsAuto) {
      Loop = Auto->second;
      State->AutoLoops.erase(Auto);
    }
    /* The watcher sees the very token the lexer hands on. */
    if (It != State->SpecLoops.end()) {
      SpecHit Hit = It->second;
      State->SpecLoops.erase(It);
      onLoopKeyword(PP, *State, const_cast<Token &>(Tok), Hit);
    } else if (IsAuto)
      onAutoLoopKeyword(PP, *State, const_cast<Token &>(Tok), Loop);
  });
}

void reportUnmatchedLoopArgs(DiagnosticsEngine &Diags, const UnitState &State) {
  char Text[1024];
  for (const cw_loop_arg &A : State.LoopArgs)
    if (cw_format_loop_arg_unmatched(Text, sizeof Text, &A))
      report(Diags, DiagnosticsEngine::Error, SourceLocation(), Text);
}

} // namespace cw_clang
