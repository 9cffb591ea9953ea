/*
 * gcc-common.h - every GCC header the capture_window plugin uses, and the
 * shims that let one source build for GCC 11 and newer.  Plugin sources
 * include only this file.
 *
 * A plugin binary loads only into the GCC release it was built for
 * (plugin_default_version_check); the build makes one per release
 * (docs/compilers.md).  Each shim below names the release that needs it.
 * The plugin works on GENERIC trees before gimplification, so GIMPLE's
 * header order (GCC 13) and last_stmt (renamed in GCC 14) do not concern it.
 */
#ifndef CW_GCC_COMMON_H
#define CW_GCC_COMMON_H

#include "gcc-plugin.h"
#include "plugin-version.h"

#if GCCPLUGIN_VERSION_MAJOR < 11
#error "capture_window needs GCC 11 or newer plugin headers"
#endif

#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#include "tree.h"
#include "tree-iterator.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "varasm.h"
#include "cgraph.h"
#include "langhooks.h"
#include "diagnostic.h"
#include "attribs.h"

/*
 * The plugin is also loaded into lto1 (with -flto) and into nvcc's
 * preprocessing passes.  lto1 lacks the C-family front end, so every
 * C-family symbol we touch is declared weak: it resolves to NULL there and
 * plugin_init then registers nothing.
 */
extern enum cpp_ttype pragma_lex(tree *, location_t *) __attribute__((weak));
extern void c_register_pragma_with_expansion(const char *, const char *, pragma_handler_1arg)
    __attribute__((weak));
extern tree add_stmt(tree) __attribute__((weak));
extern stmt_tree current_stmt_tree(void) __attribute__((weak));
extern c_language_kind c_language __attribute__((weak));
extern tree identifier_global_value(tree) __attribute__((weak));
/* The C-family preprocessor: its reader and the libcpp calls the
   unknown-pragma hook makes (capture_window_core.cc, warn_near_miss). */
extern cpp_reader *parse_in __attribute__((weak));
extern cpp_callbacks *cpp_get_callbacks(cpp_reader *) __attribute__((weak));
extern const cpp_token *cpp_get_token(cpp_reader *) __attribute__((weak));
extern void _cpp_backup_tokens(cpp_reader *, unsigned int) __attribute__((weak));
extern unsigned char *cpp_token_as_text(cpp_reader *, const cpp_token *) __attribute__((weak));
/* cc1plus only (cp/decl.cc): an extern "C" declaration the way the C++
   front end makes its own runtime helpers', with the language data that
   C++20's consteval propagation reads from every callee (GCC 14 and newer
   crash on a bare build_fn_decl there). */
extern tree build_library_fn_ptr(const char *, tree, int) __attribute__((weak));

/* True in cc1/cc1plus (and nvcc's host pass), false in lto1. */
static inline bool cw_have_c_family(void) {
  return &c_register_pragma_with_expansion != NULL && &pragma_lex != NULL && &add_stmt != NULL &&
         &current_stmt_tree != NULL && &c_language != NULL && &identifier_global_value != NULL &&
         &parse_in != NULL && &cpp_get_callbacks != NULL && &cpp_get_token != NULL &&
         &_cpp_backup_tokens != NULL && &cpp_token_as_text != NULL;
}

/* C++ statement codes (cp/cp-tree.def) are part of the one tree_code enum
   in every front end; their accessors live in cp/cp-tree.h, which pulls in
   the whole C++ front end, so the three we read are spelled out here. */
#define CW_IF_COND(NODE) TREE_OPERAND(TREE_CHECK(NODE, IF_STMT), 0)
#define CW_THEN_CLAUSE(NODE) TREE_OPERAND(TREE_CHECK(NODE, IF_STMT), 1)
#define CW_ELSE_CLAUSE(NODE) TREE_OPERAND(TREE_CHECK(NODE, IF_STMT), 2)
#define CW_CLEANUP_BODY(NODE) TREE_OPERAND(TREE_CHECK(NODE, CLEANUP_STMT), 0)
#define CW_EXPR_STMT_EXPR(NODE) TREE_OPERAND(TREE_CHECK(NODE, EXPR_STMT), 0)
/* DECL_DECLARED_CONSTEXPR_P: constexpr, consteval, or a lambda's
   operator() that C++17 made implicitly constexpr (set before
   PLUGIN_PRE_GENERICIZE). */
#define CW_DECL_CONSTEXPR_P(NODE) DECL_LANG_FLAG_8(TREE_CHECK(NODE, FUNCTION_DECL))

/* GCC 11 has no -fimplicit-constexpr (inline functions made constexpr). */
#if GCCPLUGIN_VERSION_MAJOR < 12
#define flag_implicit_constexpr 0
#endif

#endif /* CW_GCC_COMMON_H */
