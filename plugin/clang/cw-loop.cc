/*
 * cw-loop.cc - read a marked loop ahead, token by token, and enter it
 * again with the hooks of runtime/include/capture_window/abi.h around it.
 *
 * The reader knows just enough C and C++ statement syntax to find where a
 * loop ends: balanced ( ) and { }, and for a body that is not a block,
 * the statement forms that do not end at their first ';' (if/else, loops,
 * switch, do-while, try/catch, labels, pragma annotations).  Everything
 * else ends at a ';' outside brackets.
 *
 * Tokens keep their own locations, so diagnostics and debug lines of the
 * user's code are unchanged; the tokens the plugin adds are located at the
 * pragma.
 */
#include "cw-loop.h"

#include "capture_window/abi.h"

using namespace clang;

namespace cw_clang {

/* True if the next token of the file being lexed would be its end.  The
   handler runs inside that file's lexer (the #pragma directive), and
   lexing past a file's end destroys its lexer: so reading ahead stops
   before it.  Comments and directive lines count as nothing. */
static bool nextIsEndOfFile(Preprocessor &PP) {
  auto *Current = static_cast<Lexer *>(PP.getCurrentLexer());
  if (!Current || Current->isPragmaLexer())
    return false;
  const SourceManager &SM = PP.getSourceManager();
  FileID File = SM.getFileID(Current->getFileLoc());
  llvm::StringRef Text = SM.getBufferData(File);
  const char *At = Current->getBufferLocation();
  if (At < Text.begin() || At > Text.end())
    return false;
  Lexer Raw(SM.getLocForStartOfFile(File), PP.getLangOpts(), Text.begin(), At,
            Text.end());
  Token Tok;
  bool InDirective = false;
  for (;;) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      return true;
    if (Tok.isAtStartOfLine())
      InDirective = Tok.is(tok::hash);
    if (!InDirective)
      return false;
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
  if (!get(Tok))
    return false;
  Out.push_back(Tok);
  if (!Tok.is(tok::l_paren))
    return false;
  for (unsigned Depth = 1; Depth;) {
    if (!get(Tok))
      return false;
    Out.push_back(Tok);
    if (Tok.is(tok::l_paren))
      Depth++;
    else if (Tok.is(tok::r_paren))
      Depth--;
  }
  return true;
}

/* Out ends with '{': read through its '}'. */
bool LoopReader::readBraces(Tokens &Out) {
  Token Tok;
  for (unsigned Depth = 1; Depth;) {
    if (!get(Tok))
      return false;
    Out.push_back(Tok);
    if (Tok.is(tok::l_brace))
      Depth++;
    else if (Tok.is(tok::r_brace))
      Depth--;
  }
  return true;
}

/* An expression or declaration statement: through its ';' outside any
   brackets (lambdas and statement expressions hold ';' inside braces). */
bool LoopReader::readUntilSemi(Tokens &Out) {
  Token Tok;
  int Depth = 0;
  for (;;) {
    if (!get(Tok))
      return false;
    if (Depth == 0 && Tok.is(tok::r_brace)) {
      Peeked = Tok; /* a missing ';': the parser will say so */
      return true;
    }
    Out.push_back(Tok);
    if (Tok.isOneOf(tok::l_paren, tok::l_brace, tok::l_square))
      Depth++;
    else if (Tok.isOneOf(tok::r_paren, tok::r_brace, tok::r_square))
      Depth--;
    else if (Depth == 0 && Tok.is(tok::semi))
      return true;
  }
}

/* Out ends with annot_pragma_openmp: read through its end token. */
bool LoopReader::readOpenMPDirective(Tokens &Out, bool &IsSimd) {
  Token Tok;
  bool First = true;
  IsSimd = false;
  do {
    if (!get(Tok))
      return false;
    Out.push_back(Tok);
    if (First && Tok.is(tok::identifier))
      IsSimd = Tok.getIdentifierInfo()->getName() == "simd";
    First = false;
  } while (!Tok.is(tok::annot_pragma_openmp_end));
  return true;
}

/* if [constexpr] (...) STATEMENT [else STATEMENT], after the if. */
bool LoopReader::readIf(Tokens &Out) {
  Token Tok;
  if (!get(Tok))
    return false;
  if (Tok.is(tok::kw_constexpr))
    Out.push_back(Tok);
  else
    Peeked = Tok;
  if (!readParens(Out) || !readStatement(Out) || !get(Tok))
    return false;
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
  if (!readStatement(Out) || !get(Tok))
    return false;
  Out.push_back(Tok); /* while */
  if (!readParens(Out))
    return false;
  return readUntilSemi(Out);
}

/* try {...} catch (...) {...}..., after the try. */
bool LoopReader::readTry(Tokens &Out) {
  Token Tok;
  if (!get(Tok))
    return false;
  Out.push_back(Tok);
  if (!Tok.is(tok::l_brace) || !readBraces(Out))
    return false;
  for (;;) {
    if (!get(Tok))
      return true;
    if (!Tok.is(tok::kw_catch)) {
      Peeked = Tok;
      return true;
    }
    Out.push_back(Tok);
    if (!readParens(Out) || !get(Tok))
      return false;
    Out.push_back(Tok);
    if (!Tok.is(tok::l_brace) || !readBraces(Out))
      return false;
  }
}

/* After an identifier: a label and its statement, or an expression
   statement. */
bool LoopReader::readLabelOrExpression(Tokens &Out) {
  Token Next;
  if (!get(Next))
    return false;
  if (Next.is(tok::colon)) {
    Out.push_back(Next);
    return readStatement(Out);
  }
  Peeked = Next;
  return readUntilSemi(Out);
}

/* One statement, the body of a loop.  May leave the token after it in
   Peeked (looking for an else or a catch). */
bool LoopReader::readStatement(Tokens &Out) {
  Token Tok;
  if (!get(Tok))
    return false;
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
  case tok::annot_pragma_openmp: {
    bool IsSimd;
    return readOpenMPDirective(Out, IsSimd) && readStatement(Out);
  }
  case tok::identifier:
    return readLabelOrExpression(Out);
  default:
    if (Tok.isAnnotation()) /* another pragma's; the statement follows */
      return readStatement(Out);
    return readUntilSemi(Out);
  }
}

LoopReader::Start LoopReader::readUpToLoop() {
  Token Tok;
  bool OpenMP = false;
  for (;;) {
    if (!get(Tok))
      return EndOfFile;
    if (Tok.is(tok::annot_pragma_openmp)) {
      Before.push_back(Tok);
      bool IsSimd;
      if (!readOpenMPDirective(Before, IsSimd))
        return EndOfFile;
      OpenMP |= !IsSimd;
      continue;
    }
    if (Tok.isAnnotation()) { /* #pragma GCC unroll, clang loop, ... */
      Before.push_back(Tok);
      continue;
    }
    Keyword.push_back(Tok);
    if (!Tok.isOneOf(tok::kw_for, tok::kw_while, tok::kw_do))
      return NotALoop;
    return OpenMP ? OpenMPConstruct : Loop;
  }
}

bool LoopReader::readLoop() {
  if (Keyword[0].is(tok::kw_do)) {
    Token Tok;
    if (!readStatement(Body) || !get(Tok))
      return false;
    Tail.push_back(Tok);
    return Tok.is(tok::kw_while) && readParens(Tail) && readUntilSemi(Tail);
  }
  return readParens(Header) && readStatement(Body);
}

const char *LoopReader::loopKind() const {
  if (Keyword.empty())
    return "?";
  return Keyword[0].is(tok::kw_do) ? "do"
         : Keyword[0].is(tok::kw_while) ? "while"
                                        : "for";
}

void LoopReader::enter(Tokens &&Stream) {
  if (Peeked) {
    Stream.push_back(*Peeked);
    Peeked.reset();
  }
  if (Stream.empty())
    return;
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

namespace {

/* Builds the tokens the plugin adds, all located at the pragma. */
class TokenWriter {
public:
  TokenWriter(Preprocessor &PP, SourceLocation Loc,
              llvm::SmallVectorImpl<Token> &Out)
      : PP(PP), Loc(Loc), Out(Out) {}

  TokenWriter &punct(tok::TokenKind Kind) {
    Token Tok = start(Kind);
    if (const char *Spelling = tok::getPunctuatorSpelling(Kind))
      Tok.setLength(strlen(Spelling));
    Out.push_back(Tok);
    return *this;
  }
  /* An identifier or keyword, as the language in use spells it. */
  TokenWriter &word(llvm::StringRef Name) {
    IdentifierInfo *Id = PP.getIdentifierInfo(Name);
    Token Tok = start(Id->getTokenID());
    Tok.setIdentifierInfo(Id);
    Tok.setLength(Name.size());
    Out.push_back(Tok);
    return *this;
  }
  TokenWriter &number(long long Value) {
    return literal(tok::numeric_constant, std::to_string(Value));
  }
  TokenWriter &string(llvm::StringRef Text) {
    std::string Quoted = "\"";
    for (unsigned char C : Text) {
      if (C == '"' || C == '\\')
        Quoted += '\\', Quoted += C;
      else if (C < 0x20 || C >= 0x7f)
        Quoted += "\\" + llvm::utostr(C >> 6) + llvm::utostr((C >> 3) & 7) +
                  llvm::utostr(C & 7);
      else
        Quoted += C;
    }
    return literal(tok::string_literal, Quoted + "\"");
  }
  TokenWriter &append(const llvm::SmallVectorImpl<Token> &Toks) {
    Out.append(Toks.begin(), Toks.end());
    return *this;
  }

private:
  Token start(tok::TokenKind Kind) {
    Token Tok;
    Tok.startToken();
    Tok.setKind(Kind);
    Tok.setLocation(Loc);
    return Tok;
  }
  TokenWriter &literal(tok::TokenKind Kind, const std::string &Spelling) {
    Token Tok = start(Kind);
    PP.CreateString(Spelling, Tok, Loc, Loc);
    Out.push_back(Tok);
    return *this;
  }

  Preprocessor &PP;
  SourceLocation Loc;
  llvm::SmallVectorImpl<Token> &Out;
};

/* `__attribute__((__cleanup__(FN)[, __unused__]))` */
void writeCleanup(TokenWriter &W, llvm::StringRef Function, bool Unused) {
  W.word("__attribute__").punct(tok::l_paren).punct(tok::l_paren);
  W.word("__cleanup__").punct(tok::l_paren).word(Function).punct(tok::r_paren);
  if (Unused)
    W.punct(tok::comma).word("__unused__");
  W.punct(tok::r_paren).punct(tok::r_paren);
}

} // namespace

/*
 *   {
 *     static struct cw_site_v2 __cw_site_N = { 2, LINE, "FILE", FUNCTION,
 *                                              "LABEL", START, COUNT,
 *                                              { 0, 0, 0, 0 } };
 *     struct cw_loop_v2 *__cw_loop_N __attribute__((__cleanup__(
 *         __cw_clang_loop_exit))) = cw_loop_enter_v2(&__cw_site_N);
 *     OTHER-PRAGMAS for (HEADER) {
 *       struct cw_loop_v2 *__cw_iter_N __attribute__((__cleanup__(
 *           __cw_clang_iter_end), __unused__)) =
 *         __cw_clang_iter_begin(__cw_loop_N);
 *       BODY
 *     }
 *   }
 *
 * A do loop gets `do { ... } while (COND);` the same way.
 */
void LoopReader::enterRewritten(const SiteValues &Site) {
  Tokens Out;
  TokenWriter W(PP, Keyword[0].getLocation(), Out);
  std::string N = std::to_string(Site.Id);
  std::string SiteVar = "__cw_site_" + N, LoopVar = "__cw_loop_" + N;

  W.punct(tok::l_brace);
  W.word("static").word("struct").word("cw_site_v2").word(SiteVar);
  W.punct(tok::equal).punct(tok::l_brace);
  W.number(CW_ABI_VERSION).punct(tok::comma).number(Site.Line);
  W.punct(tok::comma).string(Site.File).punct(tok::comma);
  /* GCC's names: "train" in C, "int main()" in C++. */
  W.word(PP.getLangOpts().CPlusPlus ? "__PRETTY_FUNCTION__" : "__FUNCTION__");
  W.punct(tok::comma).string(Site.Window.label).punct(tok::comma);
  W.number(Site.Window.start).punct(tok::comma).number(Site.Window.count);
  W.punct(tok::comma).punct(tok::l_brace);
  for (int I = 0; I < 4; I++)
    W.number(0).punct(I < 3 ? tok::comma : tok::r_brace);
  W.punct(tok::r_brace).punct(tok::semi);

  W.word("struct").word("cw_loop_v2").punct(tok::star).word(LoopVar);
  writeCleanup(W, "__cw_clang_loop_exit", false);
  W.punct(tok::equal).word("cw_loop_enter_v2").punct(tok::l_paren);
  W.punct(tok::amp).word(SiteVar).punct(tok::r_paren).punct(tok::semi);

  W.append(Before).append(Keyword).append(Header).punct(tok::l_brace);
  W.word("struct").word("cw_loop_v2").punct(tok::star).word("__cw_iter_" + N);
  writeCleanup(W, "__cw_clang_iter_end", true);
  W.punct(tok::equal).word("__cw_clang_iter_begin").punct(tok::l_paren);
  W.word(LoopVar).punct(tok::r_paren).punct(tok::semi);
  W.append(Body).punct(tok::r_brace).append(Tail);
  W.punct(tok::r_brace);
  enter(std::move(Out));
}

} // namespace cw_clang
