/*
 * cw-loop.h - reading a marked loop ahead from the preprocessor and
 * entering it again, rewritten, as a token stream (cw-loop.cc, cw-emit.cc).
 */
#ifndef CW_LOOP_H
#define CW_LOOP_H

#include "clang-common.h"

#include "cw_pragma.h"

#include <optional>
#include <string>

namespace cw_clang {

/* The values the rewritten loop's site descriptor is built from. */
struct SiteValues {
  unsigned Id;      /* names __cw_site_Id, __cw_loop_Id, __cw_iter_Id */
  std::string File; /* presumed file of the pragma */
  unsigned Line;    /* presumed line of the pragma */
  struct cw_loop_window Window;
};

class LoopReader {
public:
  enum Start { Loop, NotALoop, OpenMPConstruct, EndOfFile };

  explicit LoopReader(clang::Preprocessor &PP) : PP(PP) {}

  /* Start with KEYWORD, a token already lexed (a loop spec's keyword). */
  void startWith(const clang::Token &Keyword) { Peeked = Keyword; }

  /* Read other pragmas' tokens up to the token after them, which should
     be the loop keyword. */
  Start readUpToLoop();
  /* After Loop: read the loop's header, body and (do) tail.  False if it
     is malformed; the parser will say how. */
  bool readLoop();
  /* "for", "while" or "do". */
  const char *loopKind() const;

  /* Give the tokens read back to the preprocessor: rewritten
     (cw-emit.cc), or as they were. */
  void enterRewritten(const SiteValues &Site);
  void enterUnchanged();
  /* Clang's -Wempty-body warning about `for (x : r) ;`, which the
     rewritten body (a block) no longer draws from Sema. */
  void warnEmptyRangeForBody() const;

private:
  using Tokens = llvm::SmallVector<clang::Token, 64>;

  bool get(clang::Token &Tok);
  bool readParens(Tokens &Out);
  bool readBraces(Tokens &Out);
  bool readClosing(Tokens &Out, clang::tok::TokenKind Open, clang::tok::TokenKind Close,
                   unsigned Depth);
  bool readStatement(Tokens &Out);
  bool readIf(Tokens &Out);
  bool readDo(Tokens &Out);
  bool readTry(Tokens &Out);
  bool readLabelOrExpression(Tokens &Out);
  bool readCaseLabel(Tokens &Out);
  bool readAttributesOrExpression(Tokens &Out);
  bool readUntilSemi(Tokens &Out, int Depth = 0);
  bool readOpenMPDirective(Tokens &Out, bool &IsSimd);
  void enter(Tokens &&Stream);

  clang::Preprocessor &PP;
  std::optional<clang::Token> Peeked; /* read one token too far */
  Tokens Before;                      /* other pragmas' annotation tokens */
  Tokens Keyword;                     /* for / while / do, or the token that is not a loop */
  Tokens Header;                      /* ( ... ) of for and while */
  Tokens Body;                        /* the body statement */
  Tokens Tail;                        /* while ( ... ) ; of a do loop */
};

} // namespace cw_clang

#endif /* CW_LOOP_H */
