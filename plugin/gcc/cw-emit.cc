/*
 * cw-emit.cc - the trees the plugin adds around a marked loop: its static
 * descriptor and the calls around it and its iterations, in the shape
 * documented in runtime/include/capture_window/abi.h, from the
 * declarations of cw-declare.cc.
 */
#include "cw-gcc.h"
#include "cw_messages.h"
#include "capture_window/abi.h"

#include <stddef.h>

/* True if constant evaluation may run FNDECL's body: C++ constexpr and
   consteval functions, lambdas that C++17 made constexpr, inline
   functions under -fimplicit-constexpr. */
static bool may_be_constant_evaluated(tree fndecl) {
  return cw_constant_evaluated_fn && (CW_DECL_CONSTEXPR_P(fndecl) ||
                                      (flag_implicit_constexpr && DECL_DECLARED_INLINE_P(fndecl)));
}

/* &"TEXT" for a static initializer.  (build_string_literal's ARRAY_REF
   form is not a valid constant initializer.) */
static tree string_address(const char *text) {
  size_t len = strlen(text) + 1;
  tree elt = build_qualified_type(char_type_node, TYPE_QUAL_CONST);
  tree str = build_string(len, text);
  TREE_TYPE(str) = build_array_type(elt, build_index_type(size_int(len - 1)));
  TREE_CONSTANT(str) = 1;
  TREE_READONLY(str) = 1;
  TREE_STATIC(str) = 1;
  tree addr = build1(ADDR_EXPR, build_pointer_type(TREE_TYPE(str)), str);
  TREE_CONSTANT(addr) = 1;
  return fold_convert(build_pointer_type(elt), addr);
}

/* The loop's static descriptor: one per instrumented loop in each emitted
   function (each template instantiation gets its own, like a function-local
   static would). */
static tree build_site(const cw_pending *p, tree fndecl) {
  static unsigned serial;
  char name[32];
  expanded_location xl = expand_location(cw_expansion_point(p->loc));
  tree values[] = {
      build_int_cst(unsigned_type_node, CW_ABI_VERSION),
      build_int_cst(unsigned_type_node, xl.line),
      string_address(xl.file ? xl.file : "<unknown>"),
      string_address(lang_hooks.decl_printable_name(fndecl, 2)),
      string_address(p->window.label),
      build_int_cst(long_long_integer_type_node, p->window.start),
      build_int_cst(long_long_integer_type_node, p->window.count),
  };
  vec<constructor_elt, va_gc> *elts = NULL;
  tree field = TYPE_FIELDS(cw_site_type);
  for (unsigned i = 0; i < ARRAY_SIZE(values); i++, field = DECL_CHAIN(field))
    CONSTRUCTOR_APPEND_ELT(elts, field, values[i]);
  tree init = build_constructor(cw_site_type, elts);
  TREE_CONSTANT(init) = 1;
  TREE_STATIC(init) = 1;

  snprintf(name, sizeof name, "cw_site.%u", serial++);
  tree var = build_decl(p->loc, VAR_DECL, get_identifier(name), cw_site_type);
  TREE_STATIC(var) = 1;
  TREE_PUBLIC(var) = 0;
  DECL_ARTIFICIAL(var) = 1;
  DECL_IGNORED_P(var) = 1;
  TREE_USED(var) = 1;
  TREE_ADDRESSABLE(var) = 1;
  DECL_INITIAL(var) = init;
  /* C++ would mangle an artificial decl without context. */
  SET_DECL_ASSEMBLER_NAME(var, DECL_NAME(var));
  varpool_node::finalize_decl(var);
  return var;
}

/* The loop's two locals: its state and whether the iteration in progress
   went through the runtime; and whether constant evaluation may run the
   loop. */
struct loop_vars {
  tree cw; /* struct cw_loop_v2 *, NULL when the loop is inactive */
  tree on; /* int */
  bool constant;
};

/* __builtin_is_constant_evaluated () */
static tree constant_evaluated(location_t loc) {
  return build_call_expr_loc(loc, cw_constant_evaluated_fn, 0);
}

/* STMT, or where constant evaluation may run the loop,
     if (__builtin_is_constant_evaluated ()) ; else STMT
   so that the constant evaluator never meets a runtime call or an asm:
   the function stays exactly as constexpr as its source (no
   -Winvalid-constexpr, a constexpr lambda stays one), and its run-time
   calls are profiled.  Code generation folds the test to false. */
static tree at_run_time(location_t loc, tree stmt, const loop_vars &v) {
  if (!v.constant) return stmt;
  tree guard = build3_loc(loc, COND_EXPR, void_type_node, constant_evaluated(loc),
                          build_empty_stmt(loc), stmt);
  TREE_SIDE_EFFECTS(guard) = 1;
  return guard;
}

static tree loop_field(location_t loc, tree cw, const char *name) {
  tree field = TYPE_FIELDS(cw_loop_type);
  while (strcmp(IDENTIFIER_POINTER(DECL_NAME(field)), name) != 0) field = DECL_CHAIN(field);
  return build3_loc(loc, COMPONENT_REF, TREE_TYPE(field), build_fold_indirect_ref_loc(loc, cw),
                    field, NULL_TREE);
}

static tree if_then(location_t loc, tree test, tree then_clause) {
  return build3_loc(loc, COND_EXPR, void_type_node, test, then_clause, build_empty_stmt(loc));
}

static tree is_nonzero(location_t loc, tree var) {
  return build2_loc(loc, NE_EXPR, boolean_type_node, var, build_zero_cst(TREE_TYPE(var)));
}

/* __asm__ volatile ("" : "+r" (VAR)): no instruction, but from here on
   the optimizers cannot tell VAR's value.  On `on`, after the inline
   test: GCC's jump threading would otherwise copy the loop body once for
   each outcome of the end test it can predict (`on` still 0 when the
   runtime was skipped), copies that cost more compile time than the
   instrumentation itself.  On `cw`, at the top of each iteration: not for
   the compiler but for the loop, which runs faster with it (the numbers:
   docs/performance.md, "What the rest costs, piece by piece").  Volatile,
   so that it is not hoisted out of the loop. */
static tree opaque(location_t loc, tree var) {
  tree constraint = build_tree_list(NULL_TREE, build_string(3, "+r"));
  tree expr = build5_loc(loc, ASM_EXPR, void_type_node, build_string(1, ""),
                         build_tree_list(constraint, var), NULL_TREE, NULL_TREE, NULL_TREE);
  ASM_VOLATILE_P(expr) = 1;
  TREE_SIDE_EFFECTS(expr) = 1;
  return expr;
}

/* if (cw && cw->next++ >= cw->attention_at) on = cw_iter_begin_v2 (cw);
   Outside windows, with no tool attached, an iteration is this test. */
static tree begin_iteration(location_t loc, const loop_vars &v) {
  tree next = loop_field(loc, v.cw, "next");
  tree index =
      build2_loc(loc, POSTINCREMENT_EXPR, TREE_TYPE(next), next, build_one_cst(TREE_TYPE(next)));
  tree due =
      build2_loc(loc, GE_EXPR, boolean_type_node, index, loop_field(loc, v.cw, "attention_at"));
  tree test = build2_loc(loc, TRUTH_ANDIF_EXPR, boolean_type_node, is_nonzero(loc, v.cw), due);
  tree begin = build2_loc(loc, MODIFY_EXPR, integer_type_node, v.on,
                          build_call_expr_loc(loc, cw_begin_fn, 1, v.cw));
  tree list = alloc_stmt_list();
  append_to_statement_list_force(opaque(loc, v.cw), &list);
  append_to_statement_list_force(if_then(loc, test, begin), &list);
  append_to_statement_list_force(opaque(loc, v.on), &list);
  return at_run_time(loc, list, v);
}

/* if (on) { on = 0; cw_iter_end_v2 (cw); } */
static tree end_iteration(location_t loc, const loop_vars &v) {
  tree list = alloc_stmt_list();
  append_to_statement_list_force(
      build2_loc(loc, MODIFY_EXPR, integer_type_node, v.on, integer_zero_node), &list);
  append_to_statement_list_force(build_call_expr_loc(loc, cw_end_fn, 1, v.cw), &list);
  return at_run_time(loc, if_then(loc, is_nonzero(loc, v.on), list), v);
}

/* Loops whose `continue`s are their own. */
static bool owns_continues(tree t) {
  switch (TREE_CODE(t)) {
  case FOR_STMT:
  case WHILE_STMT:
  case DO_STMT:
  case OMP_FOR:
  case OMP_SIMD:
  case OMP_DISTRIBUTE:
  case OMP_TASKLOOP:
  case OMP_LOOP:
  case OACC_LOOP:
    return true;
  default:
    return false;
  }
}

struct continue_redirect {
  tree label;    /* made on first need */
  bool constant; /* loop_vars::constant */
};

/* Each `continue` of the loop being wrapped becomes `goto label`, the
   label placed before the iteration's end.  Where constant evaluation may
   run the loop, which cannot follow a goto, it becomes
   `if (__builtin_is_constant_evaluated ()) continue; else goto label;`
   (the end hook has nothing to do there). */
static tree redirect_continue_r(tree *tp, int *walk_subtrees, void *data) {
  tree t = *tp;
  if (TYPE_P(t) || owns_continues(t))
    *walk_subtrees = 0;
  else if (TREE_CODE(t) == CONTINUE_STMT) {
    continue_redirect *r = (continue_redirect *)data;
    location_t loc = EXPR_LOCATION(t);
    if (!r->label) r->label = create_artificial_label(loc);
    tree jump = build1_loc(loc, GOTO_EXPR, void_type_node, r->label);
    if (r->constant) {
      jump = build3_loc(loc, COND_EXPR, void_type_node, constant_evaluated(loc), t, jump);
      TREE_SIDE_EFFECTS(jump) = 1;
    }
    *tp = jump;
    /* Not into the replacement, which holds the continue. */
    *walk_subtrees = 0;
  }
  return NULL_TREE;
}

/* { BEGIN BODY [continue_label:] END }: fall-through and `continue` end
   the iteration here; break, return, goto out of the loop and exceptions
   leave through the loop's cleanup, which ends it (cw_loop_exit_v2). */
static tree wrap_iteration(location_t loc, tree body, const loop_vars &v, tree fndecl) {
  tree list = alloc_stmt_list();
  continue_redirect redirect = {NULL_TREE, v.constant};
  if (body) walk_tree(&body, redirect_continue_r, &redirect, NULL);
  append_to_statement_list_force(begin_iteration(loc, v), &list);
  if (body) append_to_statement_list_force(body, &list);
  if (redirect.label) {
    DECL_CONTEXT(redirect.label) = fndecl;
    append_to_statement_list_force(build1_loc(loc, LABEL_EXPR, void_type_node, redirect.label),
                                   &list);
  }
  append_to_statement_list_force(end_iteration(loc, v), &list);
  TREE_SIDE_EFFECTS(list) = 1;
  return list;
}

/* The `if (!v) break;` that C++ builds from a condition declaration
   (`while (T v = f ())` becomes `while (true) { T v = f (); if (!v) break;
   BODY }`): the if, its condition and its break share the location of the
   condition, which no hand-written if and break can. */
static bool is_condition_break(tree s) {
  if (TREE_CODE(s) != IF_STMT || EXPR_LOCATION(s) == UNKNOWN_LOCATION) return false;
  tree then_clause = CW_THEN_CLAUSE(s);
  return then_clause && TREE_CODE(then_clause) == BREAK_STMT &&
         EXPR_LOCATION(then_clause) == EXPR_LOCATION(s) && !CW_ELSE_CLAUSE(s);
}

/* Find that if in a loop body; the iteration is what follows it. */
static bool find_condition_break(tree body, tree_stmt_iterator *where) {
  while (body) {
    if (TREE_CODE(body) == BIND_EXPR)
      body = BIND_EXPR_BODY(body);
    else if (TREE_CODE(body) == CLEANUP_STMT)
      body = CW_CLEANUP_BODY(body);
    else if (TREE_CODE(body) == STATEMENT_LIST) {
      tree last = NULL_TREE;
      for (tree_stmt_iterator i = tsi_start(body); !tsi_end_p(i); tsi_next(&i)) {
        if (is_condition_break(tsi_stmt(i))) {
          *where = i;
          return true;
        }
        last = tsi_stmt(i);
      }
      if (!last || TREE_CODE(last) != CLEANUP_STMT) return false;
      body = last;
    } else
      return false;
  }
  return false;
}

/* Where the body of LOOP (FOR_STMT, WHILE_STMT, DO_STMT, OMP_SIMD) is. */
tree *cw_loop_body(tree loop) {
  switch (TREE_CODE(loop)) {
  case FOR_STMT:
    return &FOR_BODY(loop);
  case WHILE_STMT:
    return &WHILE_BODY(loop);
  case OMP_SIMD:
    return &OMP_FOR_BODY(loop);
  default:
    return &DO_BODY(loop);
  }
}

static void wrap_loop_body(location_t loc, tree loop, const loop_vars &v, tree fndecl) {
  tree *body = cw_loop_body(loop);
  tree cond = TREE_CODE(loop) == FOR_STMT     ? FOR_COND(loop)
              : TREE_CODE(loop) == WHILE_STMT ? WHILE_COND(loop)
                                              : NULL_TREE;
  tree_stmt_iterator where;

  if (c_dialect_cxx() && cond == boolean_true_node && find_condition_break(*body, &where)) {
    tree rest = alloc_stmt_list();
    tree_stmt_iterator i = where;
    tsi_next(&i);
    while (!tsi_end_p(i)) {
      tree s = tsi_stmt(i);
      tsi_delink(&i);
      append_to_statement_list_force(s, &rest);
    }
    tsi_link_after(&where, wrap_iteration(loc, rest, v, fndecl), TSI_SAME_STMT);
    return;
  }
  *body = wrap_iteration(loc, *body, v, fndecl);
}

static tree artificial_local(location_t loc, const char *name, tree type, tree fndecl) {
  tree var = build_decl(loc, VAR_DECL, get_identifier(name), type);
  DECL_ARTIFICIAL(var) = 1;
  DECL_IGNORED_P(var) = 1;
  TREE_USED(var) = 1;
  DECL_CONTEXT(var) = fndecl;
  return var;
}

/* { cw = cw_loop_enter_v2 (&SITE); on = 0;
     try { STMT } finally { cw_loop_exit_v2 (cw, on); } }
   Where constant evaluation may run it, the locals are declared (the
   constant evaluator knows only declared locals) and cw is NULL there:
   cw = __builtin_is_constant_evaluated () ? 0 : cw_loop_enter_v2 (&SITE). */
static tree enter_and_exit(location_t loc, tree stmt, tree site, const loop_vars &v) {
  tree list = alloc_stmt_list();
  tree enter = build_call_expr_loc(loc, cw_enter_fn, 1, build_fold_addr_expr(site));
  if (v.constant) {
    for (tree var = v.cw; var; var = DECL_CHAIN(var)) {
      tree decl = build1_loc(loc, DECL_EXPR, void_type_node, var);
      TREE_SIDE_EFFECTS(decl) = 1;
      append_to_statement_list_force(decl, &list);
    }
    enter = build3_loc(loc, COND_EXPR, TREE_TYPE(v.cw), constant_evaluated(loc),
                       build_zero_cst(TREE_TYPE(v.cw)), enter);
  }
  /* Unconditional (the runtime takes NULL): one call, no test, on every
     exit GCC copies the cleanup to. */
  tree exit = at_run_time(loc, build_call_expr_loc(loc, cw_exit_fn, 2, v.cw, v.on), v);
  tree tf = build2_loc(loc, TRY_FINALLY_EXPR, void_type_node, stmt, exit);
  TREE_SIDE_EFFECTS(tf) = 1;
  append_to_statement_list_force(build2_loc(loc, MODIFY_EXPR, TREE_TYPE(v.cw), v.cw, enter), &list);
  append_to_statement_list_force(
      build2_loc(loc, MODIFY_EXPR, integer_type_node, v.on, integer_zero_node), &list);
  append_to_statement_list_force(tf, &list);
  tree bind = build3_loc(loc, BIND_EXPR, void_type_node, v.cw, list, NULL_TREE);
  TREE_SIDE_EFFECTS(bind) = 1;
  return bind;
}

/* -fplugin-arg-capture_window-verbose: the note for an instrumented loop. */
static void note_instrumented(tree loop, const cw_pending *p, tree fndecl) {
  char buf[1024];
  expanded_location xl = expand_location(cw_expansion_point(p->loc));
  const char *kind = TREE_CODE(loop) == FOR_STMT     ? "for"
                     : TREE_CODE(loop) == OMP_SIMD   ? "omp simd"
                     : TREE_CODE(loop) == WHILE_STMT ? "while"
                                                     : "do";
  inform(p->loc, "%s",
         cw_format_loop_note(buf, sizeof buf, kind, p->window.label, p->window.start,
                             p->window.count, xl.file ? xl.file : "<unknown>", xl.line,
                             lang_hooks.decl_printable_name(fndecl, 2)));
}

/* Replace *STMT_P, which is or holds LOOP, by enter_and_exit's block, with
   LOOP's body wrapped as an iteration. */
void cw_instrument_loop(tree *stmt_p, tree loop, const cw_pending *p, tree fndecl) {
  location_t loc = EXPR_HAS_LOCATION(loop) ? EXPR_LOCATION(loop) : p->loc;
  tree site = build_site(p, fndecl);
  loop_vars v;
  v.cw = artificial_local(loc, "__cw_loop", build_pointer_type(cw_loop_type), fndecl);
  v.on = artificial_local(loc, "__cw_on", integer_type_node, fndecl);
  DECL_CHAIN(v.cw) = v.on;
  v.constant = may_be_constant_evaluated(fndecl);

  wrap_loop_body(loc, loop, v, fndecl);
  *stmt_p = enter_and_exit(loc, *stmt_p, site, v);
  if (cw_options.verbose) note_instrumented(loop, p, fndecl);
}
