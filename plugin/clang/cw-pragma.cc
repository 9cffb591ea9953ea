/*
 * cw-pragma.cc - the #pragma capture_window handler: read the arguments
 * with the shared grammar (plugin/common/cw_pragma.h), check where the
 * pragma stands, and have the loop after it rewritten (cw-loop.cc, cw-emit.cc).
 */
#include "cw-clang.h"
#include "cw-loop.h"

#include "cw_abi_text.h" /* CwAbiText: runtime/include/capture_window/abi.h */
#include "cw_messages.h"

#include "clang/Basic/DiagnosticLex.h"

using namespace clang;

namespace cw_clang {

void report(DiagnosticsEngine &Diags, DiagnosticsEngine::Level Level, SourceLocation Loc,
            llvm::StringRef Text) {
  /* A token from a macro is reported where the macro was used, as GCC
     does, not at the macro's definition. */
  if (Loc.isMacroID() && Diags.hasSourceManager())
    Loc = Diags.getSourceManager().getExpansionLoc(Loc);
  /* A note is dropped when the diagnostic before it was ignored; ours
     (the verbose note) may stand alone. */
  if (Level == DiagnosticsEngine::Note) Diags.setLastDiagnosticIgnored(false);
  Diags.Report(Loc, Diags.getCustomDiagID(Level, "%0")) << Text;
}

SourceLocation pragmaDiagLoc(const SourceManager &SM, SourceLocation Loc) {
  if (!Loc.isMacroID()) return Loc;
  /* The pragma's tokens are lexed from _Pragma's string: their expansion
     range is the _Pragma(...) operator itself. */
  return SM.getSpellingLoc(SM.getImmediateExpansionRange(Loc).getBegin());
}

std::string runtimeDeclarations() {
  /* The ABI header itself, then the three helpers the rewritten loops call
     (the inline test and the `if (loop)` guards abi.h prescribes).  Warnings
     are off for this text: it must not trip -pedantic or -Weverything in
     any language mode.  From C++14 on they are constexpr and do nothing in
     constant evaluation: a constant evaluator that runs cleanups (GCC's
     does) may then run them (cw-emit.cc, writeLoopEnter). */
  return std::string("#pragma clang diagnostic push\n"
                     "#pragma clang diagnostic ignored \"-Weverything\"\n") +
         CwAbiText +
         "\n#if defined(__cplusplus) && __cplusplus >= 201402L\n"
         "#define CW_CLANG_HELPER_ static __inline__ constexpr "
         "__attribute__((__always_inline__, __unused__))\n"
         "#define CW_CLANG_AT_RUN_TIME_ !__builtin_is_constant_evaluated()\n"
         "#else\n"
         "#define CW_CLANG_HELPER_ static __inline__ "
         "__attribute__((__always_inline__, __unused__))\n"
         "#define CW_CLANG_AT_RUN_TIME_ 1\n"
         "#endif\n"
         /* Iterations that need nothing are counted here, inline; the
            guard is non-NULL only for one that went through the runtime. */
         "CW_CLANG_HELPER_ struct cw_loop_v2 *\n"
         "__cw_clang_iter_begin(struct cw_loop_v2 *__l)\n"
         "{ if (!(CW_CLANG_AT_RUN_TIME_) || !__l ||\n"
         "      __builtin_expect(__l->next++ < __l->attention_at, 1))\n"
         "    return 0;\n"
         "  return cw_iter_begin_v2(__l) ? __l : 0; }\n"
         "CW_CLANG_HELPER_ void __cw_clang_iter_end(struct cw_loop_v2 **__l)\n"
         "{ if ((CW_CLANG_AT_RUN_TIME_) && *__l) cw_iter_end_v2(*__l); }\n"
         "CW_CLANG_HELPER_ void __cw_clang_loop_exit(struct cw_loop_v2 **__l)\n"
         "{ if ((CW_CLANG_AT_RUN_TIME_) && *__l) cw_loop_exit_v2(*__l, 0); }\n"
         "#undef CW_CLANG_HELPER_\n"
         "#undef CW_CLANG_AT_RUN_TIME_\n"
         "#pragma clang diagnostic pop\n";
}

namespace {

/* One token of the pragma line in the grammar's terms.  TEXT receives the
   spelling the grammar quotes; HAS_TEXT is false when there is none. */
cw_token_kind classifyToken(Preprocessor &PP, const Token &Tok, std::string &Text, bool &HasText) {
  HasText = true;
  switch (Tok.getKind()) {
  case tok::l_paren:
    return CW_TOKEN_OPEN;
  case tok::r_paren:
    return CW_TOKEN_CLOSE;
  case tok::comma:
    return CW_TOKEN_COMMA;
  case tok::minus:
    return CW_TOKEN_MINUS;
  case tok::eod:
  case tok::eof:
    return CW_TOKEN_END;
  case tok::numeric_constant:
    Text = PP.getSpelling(Tok);
    return CW_TOKEN_NUMBER;
  case tok::string_literal: {
    StringLiteralParser Literal(Tok, PP);
    if (!Literal.hadError) {
      /* An embedded NUL becomes a character the label check rejects. */
      Text = Literal.GetString().str();
      std::replace(Text.begin(), Text.end(), '\0', '?');
      return CW_TOKEN_STRING;
    }
    break;
  }
  default:
    break;
  }
  if (Tok.isAnnotation())
    HasText = false;
  else
    Text = PP.getSpelling(Tok);
  return CW_TOKEN_OTHER;
}

/* Read the rest of the pragma line into WINDOW.  On a mistake, report it
   at the offending token, skip the line and return false. */
bool readArguments(Preprocessor &PP, SourceLocation PragmaLoc, cw_loop_window &Window) {
  cw_pragma_parser Parser;
  const char *Err = nullptr;
  SourceLocation Loc = PragmaLoc;
  Token Tok;

  cw_pragma_init(&Parser);
  for (;;) {
    std::string Text;
    bool HasText;
    PP.Lex(Tok);
    cw_token_kind Kind = classifyToken(PP, Tok, Text, HasText);
    /* The end of the line has no useful location: keep the last token's. */
    if (Kind != CW_TOKEN_END) Loc = Tok.getLocation();
    Err = cw_pragma_feed(&Parser, Kind, HasText ? Text.c_str() : nullptr);
    if (Err || Kind == CW_TOKEN_END) break;
  }
  while (!Tok.isOneOf(tok::eod, tok::eof)) PP.Lex(Tok);
  if (!Err) Err = cw_pragma_finish(&Parser, &Window);
  if (Err) {
    report(PP.getDiagnostics(), DiagnosticsEngine::Error, Loc, Err);
    return false;
  }
  return true;
}

class CaptureWindowHandler : public PragmaHandler {
public:
  explicit CaptureWindowHandler(std::shared_ptr<UnitState> State)
      : PragmaHandler(CW_PRAGMA_NAME), State(std::move(State)) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &NameTok) override;

private:
  /* A pragma whose loop is being read ahead.  Reading ahead runs other
     pragmas' handlers, this one included: a capture_window pragma met
     before the loop keyword is a second pragma on one loop, one met after
     it marks a nested loop. */
  struct ReadAhead {
    SourceLocation PragmaLoc;
    bool SawLoopKeyword;
  };

  void instrumentLoop(Preprocessor &PP, SourceLocation PragmaLoc, const cw_loop_window &Window);

  std::shared_ptr<UnitState> State;
  std::vector<ReadAhead> Stack;
};

void CaptureWindowHandler::HandlePragma(Preprocessor &PP, PragmaIntroducer, Token &NameTok) {
  SourceLocation PragmaLoc = pragmaDiagLoc(PP.getSourceManager(), NameTok.getLocation());
  cw_loop_window Window;

  if (!readArguments(PP, PragmaLoc, Window)) return;
  if (!Stack.empty() && !Stack.back().SawLoopKeyword) {
    DiagnosticsEngine &Diags = PP.getDiagnostics();
    report(Diags, DiagnosticsEngine::Error, PragmaLoc, cw_message(CW_MSG_TWO_PRAGMAS));
    report(Diags, DiagnosticsEngine::Note, Stack.back().PragmaLoc,
           cw_message(CW_MSG_FIRST_PRAGMA_HERE));
    return;
  }
  Stack.push_back({PragmaLoc, false});
  instrumentLoop(PP, NameTok.getLocation(), Window);
  Stack.pop_back();
}

/* PRAGMA_LOC: the pragma's name token (a macro location for _Pragma). */
void CaptureWindowHandler::instrumentLoop(Preprocessor &PP, SourceLocation PragmaLoc,
                                          const cw_loop_window &Window) {
  const SourceManager &SM = PP.getSourceManager();
  LoopReader Reader(PP);
  /* A loop spec naming this loop is an error (cw-spec.cc's watcher). */
  SourceLocation Outer = State->PragmaAwaitingLoop;
  State->PragmaAwaitingLoop = pragmaDiagLoc(SM, PragmaLoc);
  LoopReader::Start Start = Reader.readUpToLoop();
  State->PragmaAwaitingLoop = Outer;
  switch (Start) {
  case LoopReader::Loop:
    break;
  case LoopReader::OpenMPConstruct:
    report(PP.getDiagnostics(), DiagnosticsEngine::Error, pragmaDiagLoc(SM, PragmaLoc),
           cw_message(CW_MSG_OPENMP_LOOP));
    Reader.enterUnchanged();
    return;
  case LoopReader::NotALoop:
  case LoopReader::EndOfFile:
    State->Unattached.push_back(PragmaLoc);
    Reader.enterUnchanged();
    return;
  }
  Stack.back().SawLoopKeyword = true;
  if (!Reader.readLoop()) {
    Reader.enterUnchanged();
    return;
  }
  enterInstrumented(PP, *State, Reader, PragmaLoc, Window);
}

/* Every pragma no handler takes: the preprocessor falls back on the
   root's handler of no name.  It warns as the preprocessor itself would
   (-Wunknown-pragmas), and of a near miss of ours (capture_windows)
   whatever that flag says, since the loop after it would run unmarked. */
class UnknownPragmaHandler : public PragmaHandler {
public:
  UnknownPragmaHandler() : PragmaHandler("") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer, Token &NameTok) override {
    if (const IdentifierInfo *Name = NameTok.getIdentifierInfo()) {
      char Text[256];
      if (cw_pragma_name_near_miss(Name->getNameStart(), Name->getLength()))
        report(PP.getDiagnostics(), DiagnosticsEngine::Warning, NameTok.getLocation(),
               cw_format_pragma_near_miss(Text, sizeof Text, Name->getNameStart()));
    }
    PP.Diag(NameTok, diag::warn_pragma_ignored);
  }
};

} // namespace

void enterInstrumented(Preprocessor &PP, UnitState &State, LoopReader &Reader,
                       SourceLocation SiteLoc, const cw_loop_window &Window) {
  const SourceManager &SM = PP.getSourceManager();
  PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(SiteLoc));
  SiteValues Site;
  Site.Id = State.Loops.size();
  Site.File = Where.isValid() ? Where.getFilename() : "<unknown>";
  Site.Line = Where.isValid() ? Where.getLine() : 0;
  Site.Window = Window;
  State.Loops.push_back({SiteLoc, Window, Reader.loopKind()});
  Reader.enterRewritten(Site);
}

std::unique_ptr<PragmaHandler> createUnknownPragmaHandler() {
  return std::make_unique<UnknownPragmaHandler>();
}

std::unique_ptr<PragmaHandler> createPragmaHandler(std::shared_ptr<UnitState> State) {
  return std::make_unique<CaptureWindowHandler>(std::move(State));
}

} // namespace cw_clang
