/*
 * cw-emit.cc - the tokens of an instrumented loop: the marked loop that
 * cw-loop.cc read ahead, with the hooks of
 * runtime/include/capture_window/abi.h around it, entered again as a token
 * stream.  The added tokens are located at the loop keyword; the user's
 * keep their own locations.
 */
#include "cw-loop.h"

#include "capture_window/abi.h"

using namespace clang;

namespace cw_clang {

namespace {

/* Builds the tokens the plugin adds, all located at the pragma. */
class TokenWriter {
public:
  TokenWriter(Preprocessor &PP, SourceLocation Loc, llvm::SmallVectorImpl<Token> &Out)
      : PP(PP), Loc(Loc), Out(Out) {}

  TokenWriter &punct(tok::TokenKind Kind) {
    Token Tok = start(Kind);
    if (const char *Spelling = tok::getPunctuatorSpelling(Kind)) Tok.setLength(strlen(Spelling));
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
        Quoted += "\\" + llvm::utostr(C >> 6) + llvm::utostr((C >> 3) & 7) + llvm::utostr(C & 7);
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
  if (Unused) W.punct(tok::comma).word("__unused__");
  W.punct(tok::r_paren).punct(tok::r_paren);
}

/* A null pointer: nullptr from C++11 on (-Wzero-as-null-pointer-constant),
   else 0. */
TokenWriter &writeNull(TokenWriter &W, const LangOptions &Lang) {
  return Lang.CPlusPlus11 ? W.word("nullptr") : W.number(0);
}

/* `static struct cw_site_v2 SITE = { 2, LINE, "FILE", NAME, "LABEL", START,
   COUNT, { 0, 0, 0, 0 } };`, the zeros nullptr in C++11 and later */
void writeSite(TokenWriter &W, const LangOptions &Lang, const SiteValues &Site,
               llvm::StringRef SiteVar, llvm::StringRef Name) {
  W.word("static").word("struct").word("cw_site_v2").word(SiteVar);
  W.punct(tok::equal).punct(tok::l_brace);
  W.number(CW_ABI_VERSION).punct(tok::comma).number(Site.Line);
  W.punct(tok::comma).string(Site.File).punct(tok::comma).word(Name);
  W.punct(tok::comma).string(Site.Window.label).punct(tok::comma);
  W.number(Site.Window.start).punct(tok::comma).number(Site.Window.count);
  W.punct(tok::comma).punct(tok::l_brace);
  for (int I = 0; I < 4; I++) writeNull(W, Lang).punct(I < 3 ? tok::comma : tok::r_brace);
  W.punct(tok::r_brace).punct(tok::semi);
}

/* C++14 and later: the loop may be in a function that constant evaluation
   runs (constexpr, consteval, a constexpr lambda), which the preprocessor
   cannot tell.  So the site is a static local of a lambda that only run
   time calls, and the enclosing function's name reaches it through a
   constexpr local (reading it is no odr-use, so no capture):

     constexpr const char *__cw_fn_N = __PRETTY_FUNCTION__;
     struct cw_loop_v2 *__cw_loop_N __attribute__((__cleanup__(
         __cw_clang_loop_exit))) = __builtin_is_constant_evaluated() ? nullptr
       : []() -> struct cw_loop_v2 * { SITE; return cw_loop_enter_v2(&SITE); }();

   C and C++ before 14, where no loop is constant-evaluated:

     SITE;
     struct cw_loop_v2 *__cw_loop_N __attribute__((__cleanup__(
         __cw_clang_loop_exit))) = cw_loop_enter_v2(&SITE);

   (/work/notes/constexpr.md, docs/limitations.md). */
void writeLoopEnter(TokenWriter &W, const LangOptions &Lang, const SiteValues &Site,
                    llvm::StringRef N) {
  std::string SiteVar = ("__cw_site_" + N).str();
  std::string LoopVar = ("__cw_loop_" + N).str();
  std::string FnVar = ("__cw_fn_" + N).str();
  bool Lambda = Lang.CPlusPlus14;
  /* GCC's names: "train" in C, "int main()" in C++. */
  if (Lambda) {
    W.word("constexpr").word("const").word("char").punct(tok::star);
    W.word(FnVar).punct(tok::equal).word("__PRETTY_FUNCTION__");
    W.punct(tok::semi);
  } else {
    writeSite(W, Lang, Site, SiteVar, Lang.CPlusPlus ? "__PRETTY_FUNCTION__" : "__FUNCTION__");
  }
  W.word("struct").word("cw_loop_v2").punct(tok::star).word(LoopVar);
  writeCleanup(W, "__cw_clang_loop_exit", false);
  W.punct(tok::equal);
  if (Lambda) {
    W.word("__builtin_is_constant_evaluated").punct(tok::l_paren);
    W.punct(tok::r_paren).punct(tok::question);
    writeNull(W, Lang).punct(tok::colon);
    W.punct(tok::l_square).punct(tok::r_square).punct(tok::l_paren);
    W.punct(tok::r_paren).punct(tok::arrow).word("struct").word("cw_loop_v2");
    W.punct(tok::star).punct(tok::l_brace);
    writeSite(W, Lang, Site, SiteVar, FnVar);
    W.word("return");
  }
  W.word("cw_loop_enter_v2").punct(tok::l_paren);
  W.punct(tok::amp).word(SiteVar).punct(tok::r_paren).punct(tok::semi);
  if (Lambda) W.punct(tok::r_brace).punct(tok::l_paren).punct(tok::r_paren).punct(tok::semi);
}

} // namespace

/*
 *   {
 *     LOOP-ENTER (above: the site and __cw_loop_N)
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

  warnEmptyRangeForBody();

  W.punct(tok::l_brace);
  writeLoopEnter(W, PP.getLangOpts(), Site, N);
  W.append(Before).append(Keyword).append(Header).punct(tok::l_brace);
  W.word("struct").word("cw_loop_v2").punct(tok::star).word("__cw_iter_" + N);
  writeCleanup(W, "__cw_clang_iter_end", true);
  W.punct(tok::equal).word("__cw_clang_iter_begin").punct(tok::l_paren);
  W.word("__cw_loop_" + N).punct(tok::r_paren).punct(tok::semi);
  W.append(Body).punct(tok::r_brace).append(Tail);
  W.punct(tok::r_brace);
  /* The first token stands where the loop began, at the start of its line
     or not: Clang's -Wmisleading-indentation reads that flag of the
     statement after `if (c) return;`. */
  const Token &First = Before.empty() ? Keyword[0] : Before[0];
  Out[0].setFlagValue(Token::StartOfLine, First.isAtStartOfLine());
  Out[0].setFlagValue(Token::LeadingSpace, First.hasLeadingSpace());
  enter(std::move(Out));
}

} // namespace cw_clang
