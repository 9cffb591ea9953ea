/*
 * cw-loop.cc - read a marked loop ahead, token by token, and give the
 * tokens back to the preprocessor: unchanged, or instrumented
 * (enterRewritten, cw-emit.cc).
 *
 * The reader knows just enough C and C++ statement syntax to find where a
 * loop ends: balanced ( ) and { }, and for a body that is not a block,
 * the statement forms that do not end at their first ';' (if/else, if
 * consteval, loops, switch, do-while, try/catch, labels, case and default
 * labels, [[attributes]], pragma annotations).  Everything else ends at a
 * ';' outside brackets.
 *
 * Tokens keep their own locations, so diagnostics and debug lines of the
 * user's code are unchanged.
 */
#include "cw-loop.h"

#include "clang/Basic/DiagnosticSema.h"

using namespace clang;

namespace cw_clang {

/* True if the next token of the file being lexed would be its end.  The
   handler runs inside that file's lexer (the #pragma directive), and
   lexing past a file's end destroys its lexer: so reading ahead stops
   before it.  Comments and directive lines count as nothing. */
static bool nextIsEndOfFile(Preprocessor &PP) {
  auto *Current = static_cast<Lexer *>(PP.getCurrentLexer());
  if (!Current || Current->isPragmaLexer()) return false;
  const SourceManager &SM = PP.getSourceManager();
  FileID File = SM.getFileID(Current->getFileLoc());
  llvm::StringRef Text = SM.getBufferData(File);
  const char *At = Current->getBufferLocation();
  if (At < Text.begin() || At > Text.end()) return false;
  Lexer Raw(SM.getLocForStartOfFile(File), PP.getLangOpts(), Text.begin(), At, Text.end());
  Token Tok;
  bool InDirective = false;
  for (;;) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof)) return true;
    if (Tok.isAtStartOfLine()) InDirective = Tok.is(tok::hash);
    if (!InDirective) return false;
  }
}

bool LoopReader::get(Token &Tok) {
  if (!Peeked && nextIsEndOfFile(PP)) {
    Tok.startToken();
    Tok.setKind(tok::eof);
    return false;
  }
  if (Peeked) {
    Tok = *Peeked;
    Peeked.reset();
  } else {
    PP.Lex(Tok);
  }
  return !Tok.is(tok::eof);
}

/* '(' and through its ')'.  Only parentheses are counted; a mismatch is
   the parser's to report. */
bool LoopReader::readParens(Tokens &Out) {
  Token Tok;
  if (!get(Tok)) return false;
  Out.push_back(Tok);
  return Tok.is(tok::l_paren) && readClosing(Out, tok::l_paren, tok::r_paren, 1);
}

/* Out ends with '{': read through its '}'. */
bool LoopReader::readBraces(Tokens &Out) { return readClosing(Out, tok::l_brace, tok::r_brace, 1); }

/* DEPTH brackets OPEN are open: read through the CLOSE that closes the
   first. */
bool LoopReader::readClosing(Tokens &Out, tok::TokenKind Open, tok::TokenKind Close,
                             unsigned Depth) {
  Token Tok;
  while (Depth) {
    if (!get(Tok)) return false;
    Out.push_back(Tok);
    if (Tok.is(Open))
      Depth++;
    else if (Tok.is(Close))
      Depth--;
  }
  return true;
}

/* +1 for an opening bracket of any kind, -1 for a closing one. */
static int bracketStep(const Token &Tok) {
  if (Tok.isOneOf(tok::l_paren, tok::l_brace, tok::l_square)) return 1;
  return Tok.isOneOf(tok::r_paren, tok::r_brace, tok::r_square) ? -1 : 0;
}

/* An expression or declaration statement: through its ';' outside any
   brackets (lambdas and statement expressions hold ';' inside braces).
   DEPTH: brackets already open (read by the caller). */
bool LoopReader::readUntilSemi(Tokens &Out, int Depth) {
  Token Tok;
  for (;;) {
    if (!get(Tok)) return false;
    if (Depth == 0 && Tok.is(tok::r_brace)) {
      Peeked = Tok; /* a missing ';': the parser will say so */
      return true;
    }
    Out.push_back(Tok);
    Depth += bracketStep(Tok);
    if (Depth == 0 && Tok.is(tok::semi)) return true;
  }
}

/* Out ends with annot_pragma_openmp: read through its end token. */
bool LoopReader::readOpenMPDirective(Tokens &Out, bool &IsSimd) {
  Token Tok;
  bool First = true;
  IsSimd = false;
  do {
    if (!get(Tok)) return false;
    Out.push_back(Tok);
    if (First && Tok.is(tok::identifier)) IsSimd = Tok.getIdentifierInfo()->getName() == "simd";
    First = false;
  } while (!Tok.is(tok::annot_pragma_openmp_end));
  return true;
}

/* if [constexpr] (...) STATEMENT [else STATEMENT] or C++23's
   if [!] consteval {...} [else STATEMENT], after the if. */
bool LoopReader::readIf(Tokens &Out) {
  Token Tok;
  if (!get(Tok)) return false;
  bool Consteval = false;
  if (Tok.is(tok::exclaim)) {
    Out.push_back(Tok);
    if (!get(Tok)) return false;
  }
  if (Tok.isOneOf(tok::kw_constexpr, tok::kw_consteval)) {
    Consteval = Tok.is(tok::kw_consteval);
    Out.push_back(Tok);
  } else {
    Peeked = Tok;
  }
  if ((!Consteval && !readParens(Out)) || !readStatement(Out) || !get(Tok)) return false;
  if (Tok.is(tok::kw_else)) {
    Out.push_back(Tok);
    return readStatement(Out);
  }
  Peeked = Tok;
  return true;
}

/* do STATEMENT while (...);, after the do. */
bool LoopReader::readDo(Tokens &Out) {
  Token Tok;
  if (!readStatement(Out) || !get(Tok)) return false;
  Out.push_back(Tok); /* while */
  if (!readParens(Out)) return false;
  return readUntilSemi(Out);
}

/* try {...} catch (...) {...}..., after the try. */
bool LoopReader::readTry(Tokens &Out) {
  Token Tok;
  if (!get(Tok)) return false;
  Out.push_back(Tok);
  if (!Tok.is(tok::l_brace) || !readBraces(Out)) return false;
  for (;;) {
    if (!get(Tok)) return true;
    if (!Tok.is(tok::kw_catch)) {
      Peeked = Tok;
      return true;
    }
    Out.push_back(Tok);
    if (!readParens(Out) || !get(Tok)) return false;
    Out.push_back(Tok);
    if (!Tok.is(tok::l_brace) || !readBraces(Out)) return false;
  }
}

/* After an identifier: a label and its statement, or an expression
   statement. */
bool LoopReader::readLabelOrExpression(Tokens &Out) {
  Token Next;
  if (!get(Next)) return false;
  if (Next.is(tok::colon)) {
    Out.push_back(Next);
    return readStatement(Out);
  }
  Peeked = Next;
  return readUntilSemi(Out);
}

/* `case EXPR:` or `default:` and the statement it labels, after the
   keyword: the body of a switch that is not a block (googletest's
   EXPECT_EQ is `switch (0) case 0: default: if (...) ; else ...`).  A `?`
   in EXPR takes the next `:`. */
bool LoopReader::readCaseLabel(Tokens &Out) {
  Token Tok;
  int Depth = 0, Conditionals = 0;
  for (;;) {
    if (!get(Tok)) return false;
    Out.push_back(Tok);
    Depth += bracketStep(Tok);
    if (Depth == 0 && Tok.is(tok::question))
      Conditionals++;
    else if (Depth == 0 && Tok.is(tok::colon) && Conditionals-- == 0)
      return readStatement(Out);
    else if (Depth == 0 && Tok.is(tok::semi))
      return true; /* malformed: the parser will say so */
  }
}

/* After a '[': `[[ATTRIBUTES]]` and the statement they belong to, or an
   expression statement that starts with a lambda. */
bool LoopReader::readAttributesOrExpression(Tokens &Out) {
  Token Tok;
  if (!get(Tok)) return false;
  if (!Tok.is(tok::l_square)) {
    Peeked = Tok;
    return readUntilSemi(Out, 1);
  }
  Out.push_back(Tok);
  return readClosing(Out, tok::l_square, tok::r_square, 2) && readStatement(Out);
}

/* One statement, the body of a loop.  May leave the token after it in
   Peeked (looking for an else or a catch). */
bool LoopReader::readStatement(Tokens &Out) {
  Token Tok;
  if (!get(Tok)) return false;
  Out.push_back(Tok);
  switch (Tok.getKind()) {
  case tok::l_brace:
    return readBraces(Out);
  case tok::semi:
    return true;
  case tok::kw_for:
  case tok::kw_while:
  case tok::kw_switch:
    return readParens(Out) && readStatement(Out);
  case tok::kw_if:
    return readIf(Out);
  case tok::kw_do:
    return readDo(Out);
  case tok::kw_try:
    return readTry(Out);
  case tok::kw_case:
  case tok::kw_default:
    return readCaseLabel(Out);
  case tok::l_square:
    return readAttributesOrExpression(Out);
  case tok::annot_pragma_openmp: {
    bool IsSimd;
    return readOpenMPDirective(Out, IsSimd) && readStatement(Out);
  }
  case tok::identifier:
    return readLabelOrExpression(Out);
  default:
    if (Tok.isAnnotation()) /* another pragma's; the statement follows */
      return readStatement(Out);
    /* TOK is in OUT already: a '(' that opens the statement, as in
       `(void)e;` or `((void)0);`, is open, and the ';' that ends the
       statement is the one after its ')'. */
    return readUntilSemi(Out, bracketStep(Tok));
  }
}

LoopReader::Start LoopReader::readUpToLoop() {
  Token Tok;
  bool OpenMP = false;
  for (;;) {
    if (!get(Tok)) return EndOfFile;
    if (Tok.is(tok::annot_pragma_openmp)) {
      Before.push_back(Tok);
      bool IsSimd;
      if (!readOpenMPDirective(Before, IsSimd)) return EndOfFile;
      OpenMP |= !IsSimd;
      continue;
    }
    if (Tok.isAnnotation()) { /* #pragma GCC unroll, clang loop, ... */
      Before.push_back(Tok);
      continue;
    }
    Keyword.push_back(Tok);
    if (!Tok.isOneOf(tok::kw_for, tok::kw_while, tok::kw_do)) return NotALoop;
    return OpenMP ? OpenMPConstruct : Loop;
  }
}

bool LoopReader::readLoop() {
  if (Keyword[0].is(tok::kw_do)) {
    Token Tok;
    if (!readStatement(Body) || !get(Tok)) return false;
    Tail.push_back(Tok);
    return Tok.is(tok::kw_while) && readParens(Tail) && readUntilSemi(Tail);
  }
  return readParens(Header) && readStatement(Body);
}

const char *LoopReader::loopKind() const {
  if (Keyword.empty()) return "?";
  return Keyword[0].is(tok::kw_do) ? "do" : Keyword[0].is(tok::kw_while) ? "while" : "for";
}

void LoopReader::warnEmptyRangeForBody() const {
  if (Keyword.empty() || !Keyword[0].is(tok::kw_for) || Header.size() < 2 || Body.size() != 1 ||
      !Body[0].is(tok::semi) || Body[0].hasLeadingEmptyMacro())
    return;
  /* A range-for: a ':' at the header's own level. */
  int Depth = 0;
  bool Range = false;
  for (const Token &Tok : Header) {
    Depth += bracketStep(Tok);
    Range |= Depth == 1 && Tok.is(tok::colon);
  }
  /* Sema's rule (DiagnoseEmptyStmtBody): the ';' on the line of the ')'. */
  const SourceManager &SM = PP.getSourceManager();
  SourceLocation Semi = Body[0].getLocation();
  if (!Range ||
      SM.getPresumedLineNumber(Header.back().getLocation()) != SM.getSpellingLineNumber(Semi))
    return;
  DiagnosticsEngine &Diags = PP.getDiagnostics();
  Diags.Report(Semi, diag::warn_empty_range_based_for_body);
  Diags.Report(Semi, diag::note_empty_body_on_separate_line);
}

void LoopReader::enter(Tokens &&Stream) {
  if (Peeked) {
    Stream.push_back(*Peeked);
    Peeked.reset();
  }
  if (Stream.empty()) return;
  /* The preprocessor keeps the array until the stream is read. */
  auto Owned = std::make_unique<Token[]>(Stream.size());
  std::copy(Stream.begin(), Stream.end(), Owned.get());
  PP.EnterTokenStream(std::move(Owned), Stream.size(),
                      /*DisableMacroExpansion=*/true,
                      /*IsReinject=*/true);
}

void LoopReader::enterUnchanged() {
  Tokens All;
  for (Tokens *Part : {&Before, &Keyword, &Header, &Body, &Tail})
    All.append(Part->begin(), Part->end());
  enter(std::move(All));
}

} // namespace cw_clang
