/*
 * cw-declare.cc - what the plugin declares once per translation unit: the
 * runtime's types, checked against runtime/include/capture_window/abi.h,
 * and its entry points (the hooks); and the marker statements that hold a
 * pragma's place until PLUGIN_PRE_GENERICIZE.  cw-emit.cc builds the
 * calls from them.
 */
#include "cw-gcc.h"
#include "capture_window/abi.h"

#include <stddef.h>

/* Trees that live across functions; GC roots (cw_gc_roots). */
tree cw_site_type, cw_loop_type;
tree cw_enter_fn, cw_begin_fn, cw_end_fn, cw_exit_fn;
tree cw_constant_evaluated_fn;
static tree marker_type; /* private integer type of marker constants */

#define CW_ROOT(var)                                                                               \
  { &var, 1, sizeof(tree), gt_ggc_mx_tree_node, gt_pch_nx_tree_node }
const struct ggc_root_tab cw_gc_roots[] = {CW_ROOT(cw_site_type), CW_ROOT(cw_loop_type),
                                           CW_ROOT(marker_type),  CW_ROOT(cw_enter_fn),
                                           CW_ROOT(cw_begin_fn),  CW_ROOT(cw_end_fn),
                                           CW_ROOT(cw_exit_fn),   CW_ROOT(cw_constant_evaluated_fn),
                                           LAST_GGC_ROOT_TAB};

/* A record field as abi.h declares it. */
struct abi_field {
  const char *name;
  size_t offset;
  tree type;
};

/* The record type NAME, checked against the ABI header the plugin was
   built with: a mismatch is a plugin bug, never the user's. */
static tree build_abi_record(const char *name, const abi_field *fields, unsigned n, size_t size) {
  tree type = make_node(RECORD_TYPE);
  tree chain = NULL_TREE;

  /* finish_builtin_struct reverses the chain: build it last field first. */
  for (unsigned i = 0; i < n; i++) {
    tree f =
        build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(fields[i].name), fields[i].type);
    DECL_CHAIN(f) = chain;
    chain = f;
  }
  finish_builtin_struct(type, name, chain, NULL_TREE);

  /* abi.h's offsets, as the plugin was compiled, are the target's only
     when its pointers are the plugin's own: -m32 and -mx32 lay the record
     out their own way, for a runtime built the same way. */
  if (TYPE_PRECISION(ptr_type_node) != sizeof(void *) * CHAR_BIT) return type;
  unsigned i = 0;
  for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f), i++)
    gcc_assert(i < n && tree_to_uhwi(byte_position(f)) == fields[i].offset);
  gcc_assert(i == n && tree_to_uhwi(TYPE_SIZE_UNIT(type)) == size);
  return type;
}

/* struct cw_site_v2, field by field as in abi.h. */
static tree build_site_type(void) {
  tree cstr = build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
  tree ll = long_long_integer_type_node;
  const abi_field fields[] = {
      {"abi_version", offsetof(cw_site_v2, abi_version), unsigned_type_node},
      {"line", offsetof(cw_site_v2, line), unsigned_type_node},
      {"file", offsetof(cw_site_v2, file), cstr},
      {"function", offsetof(cw_site_v2, function), cstr},
      {"label", offsetof(cw_site_v2, label), cstr},
      {"start", offsetof(cw_site_v2, start), ll},
      {"count", offsetof(cw_site_v2, count), ll},
      {"runtime", offsetof(cw_site_v2, runtime),
       build_array_type(ptr_type_node, build_index_type(size_int(3)))},
  };
  return build_abi_record("cw_site_v2", fields, ARRAY_SIZE(fields), sizeof(cw_site_v2));
}

/* struct cw_loop_v2: the two fields the inline test reads. */
static tree build_loop_type(void) {
  tree ll = long_long_integer_type_node;
  const abi_field fields[] = {
      {"next", offsetof(cw_loop_v2, next), ll},
      {"attention_at", offsetof(cw_loop_v2, attention_at), ll},
  };
  return build_abi_record("cw_loop_v2", fields, ARRAY_SIZE(fields), sizeof(cw_loop_v2));
}

static tree declare_hook(const char *name, tree ret, tree arg, tree arg2 = NULL_TREE) {
  tree type = build_function_type_list(ret, arg, arg2, NULL_TREE);
  tree decl = c_dialect_cxx() ? build_library_fn_ptr(name, type, 0) : build_fn_decl(name, type);
  /* C++ would mangle the name of a decl without C linkage. */
  SET_DECL_ASSEMBLER_NAME(decl, get_identifier(name));
  /* The runtime is C: it neither throws nor calls back into this unit. */
  TREE_NOTHROW(decl) = 1;
  DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
  /* Through the GOT, not a PLT stub (what -fno-plt does for every call). */
  DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("noplt"), NULL_TREE, DECL_ATTRIBUTES(decl));
  return decl;
}

/* PLUGIN_START_UNIT: the runtime's types and entry points, once per unit. */
void cw_declare_runtime(void) {
  cw_site_type = build_site_type();
  cw_loop_type = build_loop_type();
  marker_type = build_distinct_type_copy(unsigned_type_node);
  tree site_ptr = build_pointer_type(cw_site_type);
  tree loop_ptr = build_pointer_type(cw_loop_type);
  cw_enter_fn = declare_hook("cw_loop_enter_v2", loop_ptr, site_ptr);
  cw_begin_fn = declare_hook("cw_iter_begin_v2", integer_type_node, loop_ptr);
  cw_end_fn = declare_hook("cw_iter_end_v2", void_type_node, loop_ptr);
  cw_exit_fn = declare_hook("cw_loop_exit_v2", void_type_node, loop_ptr, integer_type_node);
  tree cev = c_dialect_cxx()
                 ? identifier_global_value(get_identifier("__builtin_is_constant_evaluated"))
                 : NULL_TREE;
  cw_constant_evaluated_fn = cev && TREE_CODE(cev) == FUNCTION_DECL ? cev : NULL_TREE;
}

/* The marker that holds a pragma's place among the statements:
   `(void) ID`, ID a constant of a type only the plugin has, so no user
   statement looks like it.  C++ statement lists hold EXPR_STMTs; template
   instantiation copies the marker into every instance. */
tree cw_build_marker(location_t loc, unsigned id) {
  tree expr = build1_loc(loc, NOP_EXPR, void_type_node, build_int_cst(marker_type, id));
  if (!c_dialect_cxx()) return expr;
  tree stmt = make_node(EXPR_STMT);
  CW_EXPR_STMT_EXPR(stmt) = expr;
  SET_EXPR_LOCATION(stmt, loc);
  return stmt;
}

/* The pragma id of a marker statement, or -1. */
int cw_marker_id(tree t) {
  if (!t || !marker_type) return -1;
  if (TREE_CODE(t) == EXPR_STMT) t = CW_EXPR_STMT_EXPR(t);
  if (t && TREE_CODE(t) == CLEANUP_POINT_EXPR) t = TREE_OPERAND(t, 0);
  if (!t || !CONVERT_EXPR_P(t) || !VOID_TYPE_P(TREE_TYPE(t))) return -1;
  t = TREE_OPERAND(t, 0);
  if (TREE_CODE(t) != INTEGER_CST || TREE_TYPE(t) != marker_type) return -1;
  return (int)tree_to_uhwi(t);
}
