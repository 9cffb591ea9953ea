/*
 * clang-common.h - every Clang and LLVM header the Clang plugin uses, and
 * the shims that let one source build for LLVM 14 and newer.  The plugin's
 * sources include Clang only through this file.
 *
 * A plugin binary loads only into the clang it was built for (its symbols
 * resolve against that binary); the build makes one per LLVM
 * (docs/compilers.md).  Each shim below names the release that needs it,
 * keyed on LLVM_VERSION_MAJOR.  Checked with LLVM 14, 15, 16, 19, 21, 22
 * and 23 (cmake/SelectLlvm.cmake: CW_LLVM_TESTED).
 */
#ifndef CW_CLANG_COMMON_H
#define CW_CLANG_COMMON_H

#include "llvm/Config/llvm-config.h"

#if LLVM_VERSION_MAJOR < 14
#error "capture_window's Clang plugin needs LLVM 14 or newer"
#endif

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

namespace cw_clang {

/* A second compiler for INVOCATION beside CI (the pre-parse of loop
   specs, cw-spec.cc): CI's PCH readers, its own file system made from
   INVOCATION as clang's driver makes it, its diagnostics to CLIENT (which
   it owns). */
inline std::unique_ptr<clang::CompilerInstance>
newCompilerInstance(clang::CompilerInstance &CI,
                    std::shared_ptr<clang::CompilerInvocation> Invocation,
                    clang::DiagnosticConsumer *Client) {
#if LLVM_VERSION_MAJOR >= 21
  /* LLVM 21: the invocation is the constructor's; setInvocation is gone. */
  auto Pre = std::make_unique<clang::CompilerInstance>(std::move(Invocation),
                                                       CI.getPCHContainerOperations());
#else
  auto Pre = std::make_unique<clang::CompilerInstance>(CI.getPCHContainerOperations());
  Pre->setInvocation(std::move(Invocation));
#endif
#if LLVM_VERSION_MAJOR >= 22
  /* LLVM 22: the file system is made explicitly, before the diagnostics
     and the file manager, which use it. */
  Pre->createVirtualFileSystem(llvm::vfs::getRealFileSystem(), Client);
  Pre->createDiagnostics(Client, /*ShouldOwnClient=*/true);
#elif LLVM_VERSION_MAJOR >= 20
  /* LLVM 20 and 21: the diagnostics read their suppression mappings
     through the file system they are given. */
  Pre->createDiagnostics(*llvm::vfs::getRealFileSystem(), Client,
                         /*ShouldOwnClient=*/true);
#else
  Pre->createDiagnostics(Client, /*ShouldOwnClient=*/true);
#endif
  return Pre;
}

} // namespace cw_clang

#endif /* CW_CLANG_COMMON_H */
