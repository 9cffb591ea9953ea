/*
 * cw-late.cc - the per-iteration code, expanded after the tree optimizers.
 *
 * What runs on every iteration (the inline test, the begin and end calls)
 * is most of what marking a loop costs the compiler: every tree pass
 * carries its blocks (docs/performance.md).  So cw-emit.cc puts two marker
 * statements in each iteration instead,
 *
 *   __asm__ volatile ("# capture_window begin" : "=r" (on) : "r" (cw) : "memory");
 *   BODY
 *   __asm__ volatile ("# capture_window end" : : "r" (cw), "r" (on) : "memory");
 *   on = 0;
 *
 * which the optimizers treat like the calls they stand for (opaque, memory
 * clobbered, `on` unknown), and this pass, just before the last GIMPLE
 * pass, replaces each marker by the code of abi.h:
 *
 *   on = cw && cw->next++ >= cw->attention_at ? cw_iter_begin_v2 (cw) : 0;
 *   ...
 *   if (on) cw_iter_end_v2 (cw);
 *
 * (The empty asm that hides `cw` at the top of each iteration, cw-emit.cc
 * `opaque`, stays: without it the loop runs slower, 0.3-0.8 ns per
 * iteration in bench/loop_bench.c on the GPU hosts, though it saves the
 * compiler another 12%.)
 *
 * The `#` text is a comment to the GNU assembler on every target, should a
 * marker ever reach it.  With -flto the function bodies are written out
 * before this pass and lto1 runs without the plugin's front-end parts, so
 * cw-emit.cc emits the expanded form itself (cw_late_expansion).
 */
#include "cw-gcc.h"
#include "tree-pass.h"
#include "context.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "ssa.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "tree-cfg.h"
#include "tree-into-ssa.h"
#include "gimplify.h"

#define BEGIN_MARKER "# capture_window begin"
#define END_MARKER "# capture_window end"

/* Set when this unit got a marker: the pass does nothing in units (and
   costs nothing to units) without one. */
static bool markers_emitted;

bool
cw_late_expansion (void)
{
  /* -fnon-call-exceptions: the loads of the test could throw, and this
     pass adds no EH edges. */
  return !flag_generate_lto && !flag_generate_offload
	 && !flag_non_call_exceptions;
}

static tree
asm_operand (const char *constraint, tree value)
{
  tree c = build_string (strlen (constraint) + 1, constraint);
  return build_tree_list (build_tree_list (NULL_TREE, c), value);
}

static tree
marker (location_t loc, const char *text, tree outputs, tree inputs)
{
  tree clobbers = build_tree_list (NULL_TREE, build_string (7, "memory"));
  tree expr = build5_loc (loc, ASM_EXPR, void_type_node,
			  build_string (strlen (text) + 1, text), outputs,
			  inputs, clobbers, NULL_TREE);
  ASM_VOLATILE_P (expr) = 1;
  TREE_SIDE_EFFECTS (expr) = 1;
  markers_emitted = true;
  return expr;
}

tree
cw_begin_marker (location_t loc, tree cw, tree on)
{
  return marker (loc, BEGIN_MARKER, asm_operand ("=r", on),
		 asm_operand ("r", cw));
}

tree
cw_end_marker (location_t loc, tree cw, tree on)
{
  tree inputs = chainon (asm_operand ("r", cw), asm_operand ("r", on));
  return marker (loc, END_MARKER, NULL_TREE, inputs);
}

enum marker_kind { NOT_A_MARKER, BEGIN, END };

static enum marker_kind
marker_kind (gimple *stmt)
{
  gasm *a = dyn_cast<gasm *> (stmt);
  if (!a || !gimple_asm_volatile_p (a))
    return NOT_A_MARKER;
  const char *text = gimple_asm_string (a);
  if (strcmp (text, BEGIN_MARKER) == 0 && gimple_asm_noutputs (a) == 1
      && gimple_asm_ninputs (a) == 1)
    return BEGIN;
  if (strcmp (text, END_MARKER) == 0 && gimple_asm_noutputs (a) == 0
      && gimple_asm_ninputs (a) == 2)
    return END;
  return NOT_A_MARKER;
}

/* A new block after AFTER, in AFTER's loop. */
static basic_block
new_block (basic_block after, profile_count count)
{
  basic_block bb = create_empty_bb (after);
  if (current_loops)
    add_bb_to_loop (bb, after->loop_father);
  bb->count = count;
  return bb;
}

static void
append (basic_block bb, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  gsi_insert_after (&gsi, stmt, GSI_NEW_STMT);
}

/* Remove the marker M, which ends its block once the rest of the block is
   split off; returns the edge to that rest. */
static edge
remove_marker (gasm *m)
{
  edge rest = split_block (gimple_bb (m), m);
  gimple_stmt_iterator gsi = gsi_for_stmt (m);
  unlink_stmt_vdef (m);
  if (gimple_vdef (m) && TREE_CODE (gimple_vdef (m)) == SSA_NAME)
    release_ssa_name (gimple_vdef (m));
  gsi_remove (&gsi, true);
  rest->flags &= ~EDGE_FALLTHRU;
  return rest;
}

/* BB ends in `if (LHS CODE RHS)`: the true edge goes to THEN, the false
   edge is FALSE_EDGE (already there). */
static edge
end_in_test (basic_block bb, enum tree_code code, tree lhs, tree rhs,
	     basic_block then, edge false_edge, profile_probability p,
	     location_t loc)
{
  append (bb, gimple_build_cond (code, lhs, rhs, NULL_TREE, NULL_TREE), loc);
  false_edge->flags |= EDGE_FALSE_VALUE;
  false_edge->probability = p.invert ();
  edge e = make_edge (bb, then, EDGE_TRUE_VALUE);
  e->probability = p;
  return e;
}

/* BB: [LHS =] HOOK (cw), then on to JOIN; returns that edge.  The call
   graph learns of the call, as it does of every call the optimizers see. */
static edge
call_hook (basic_block bb, tree hook, tree cw, tree lhs, basic_block join,
	   location_t loc)
{
  gcall *call = gimple_build_call (hook, 1, cw);
  if (lhs)
    gimple_call_set_lhs (call, lhs);
  append (bb, call, loc);
  if (cgraph_node *caller = cgraph_node::get (current_function_decl))
    caller->create_edge (cgraph_node::get_create (hook), call, bb->count);
  edge e = make_edge (bb, join, EDGE_FALLTHRU);
  e->probability = profile_probability::always ();
  return e;
}

static tree
loop_field (tree cw, const char *name)
{
  tree loop_type = TREE_TYPE (TREE_TYPE (cw));
  tree field = TYPE_FIELDS (loop_type);
  while (strcmp (IDENTIFIER_POINTER (DECL_NAME (field)), name) != 0)
    field = DECL_CHAIN (field);
  return build3 (COMPONENT_REF, TREE_TYPE (field), build_simple_mem_ref (cw),
		 field, NULL_TREE);
}

/* on = cw && cw->next++ >= cw->attention_at ? cw_iter_begin_v2 (cw) : 0; */
static void
expand_begin (gasm *m)
{
  location_t loc = gimple_location (m);
  tree on = TREE_VALUE (gimple_asm_output_op (m, 0));
  tree cw = TREE_VALUE (gimple_asm_input_op (m, 0));
  basic_block bb = gimple_bb (m);
  edge skip = remove_marker (m);
  basic_block join = skip->dest;

  profile_count count = bb->count;
  basic_block test = new_block (bb, count);
  basic_block call = new_block (test, count.apply_probability
				  (profile_probability::very_unlikely ()));

  /* -O0 may keep `on` in memory: clear it first, the call stores over. */
  if (TREE_CODE (on) != SSA_NAME)
    append (bb, gimple_build_assign (unshare_expr (on),
				     build_zero_cst (TREE_TYPE (on))), loc);
  end_in_test (bb, NE_EXPR, cw, build_zero_cst (TREE_TYPE (cw)), test, skip,
	       profile_probability::likely (), loc);

  tree ll = long_long_integer_type_node;
  tree index = make_ssa_name (ll);
  tree next = make_ssa_name (ll);
  tree attention_at = make_ssa_name (ll);
  append (test, gimple_build_assign (index, loop_field (cw, "next")), loc);
  append (test, gimple_build_assign (next, PLUS_EXPR, index,
				     build_one_cst (ll)), loc);
  append (test, gimple_build_assign (loop_field (cw, "next"), next), loc);
  append (test, gimple_build_assign (attention_at,
				     loop_field (cw, "attention_at")), loc);
  edge quiet = make_edge (test, join, 0);
  end_in_test (test, GE_EXPR, index, attention_at, call, quiet,
	       profile_probability::very_unlikely (), loc);

  tree result = on;
  if (TREE_CODE (on) == SSA_NAME)
    result = make_ssa_name (TREE_TYPE (on));
  edge called = call_hook (call, cw_begin_fn (), cw, result, join, loc);

  /* The marker defined `on`; a PHI of the three paths does now. */
  if (TREE_CODE (on) == SSA_NAME)
    {
      gphi *phi = create_phi_node (on, join);
      add_phi_arg (phi, build_zero_cst (TREE_TYPE (on)), skip, loc);
      add_phi_arg (phi, build_zero_cst (TREE_TYPE (on)), quiet, loc);
      add_phi_arg (phi, result, called, loc);
    }
}

/* if (on) cw_iter_end_v2 (cw); */
static void
expand_end (gasm *m)
{
  location_t loc = gimple_location (m);
  tree cw = TREE_VALUE (gimple_asm_input_op (m, 0));
  tree on = TREE_VALUE (gimple_asm_input_op (m, 1));
  basic_block bb = gimple_bb (m);
  edge skip = remove_marker (m);
  basic_block join = skip->dest;

  basic_block call = new_block (bb, bb->count.apply_probability
				  (profile_probability::very_unlikely ()));
  end_in_test (bb, NE_EXPR, on, build_zero_cst (TREE_TYPE (on)), call, skip,
	       profile_probability::very_unlikely (), loc);
  call_hook (call, cw_end_fn (), cw, NULL_TREE, join, loc);
}

static const pass_data late_pass_data = {
  GIMPLE_PASS,		/* type */
  "capture_window",	/* name */
  OPTGROUP_NONE,	/* optinfo_flags */
  TV_NONE,		/* tv_id */
  PROP_cfg | PROP_ssa,	/* properties_required */
  0,			/* properties_provided */
  0,			/* properties_destroyed */
  0,			/* todo_flags_start */
  0,			/* todo_flags_finish */
};

struct late_pass : gimple_opt_pass
{
  late_pass (gcc::context *ctx) : gimple_opt_pass (late_pass_data, ctx) {}

  bool gate (function *) final override { return markers_emitted; }

  unsigned int execute (function *fun) final override
  {
    auto_vec<gasm *> begins, ends;
    basic_block bb;
    FOR_EACH_BB_FN (bb, fun)
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (enum marker_kind kind = marker_kind (gsi_stmt (gsi)))
	  (kind == BEGIN ? begins : ends)
	    .safe_push (as_a<gasm *> (gsi_stmt (gsi)));
    if (begins.is_empty () && ends.is_empty ())
      return 0;
    for (gasm *m : begins)
      expand_begin (m);
    for (gasm *m : ends)
      expand_end (m);
    free_dominance_info (CDI_DOMINATORS);
    free_dominance_info (CDI_POST_DOMINATORS);
    if (current_loops)
      loops_state_set (LOOPS_NEED_FIXUP);
    mark_virtual_operands_for_renaming (fun);
    return TODO_update_ssa_only_virtuals | TODO_cleanup_cfg;
  }
};

/* Before "optimized", the last GIMPLE pass, which runs at every -O level
   and cleans up the CFG after us. */
void
cw_register_late_pass (const char *plugin_name)
{
  static register_pass_info info;
  info.pass = new late_pass (g);
  info.reference_pass_name = "optimized";
  info.ref_pass_instance_number = 1;
  info.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
