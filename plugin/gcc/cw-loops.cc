/*
 * cw-loops.cc - at PLUGIN_PRE_GENERICIZE, find every marker the pragma
 * handler left in a function body and the statement after it, which must
 * be a loop; instrument it or say why not.
 *
 * The statement after a marker is the loop itself, or the scope the front
 * end wraps around a loop with declarations in its header: C and C++ put
 * `for (int i = 0; ...)` in a block { i = 0; FOR_STMT }, C++ a range-for in
 * { __for_range = ...; __for_begin = ...; FOR_STMT }, possibly inside a
 * CLEANUP_STMT for temporaries.  A for loop whose init clause is an
 * expression, `for (i = 0; ...)`, has no scope of its own: the init is a
 * statement of the enclosing list, right before the FOR_STMT.  Such header
 * statements come after the loop's keyword in the source; statements that
 * come before it are ones the user wrote, which are not a loop.
 */
#include "cw-gcc.h"
#include "cw_messages.h"
#include "cw_all_loops.h"

/* The location macro expansion started from: a pragma from _Pragma in a
   macro and the loop in the same expansion compare equal.  Ordinary
   locations grow in the order the unit was read, so they order statements
   within a unit. */
location_t cw_expansion_point(location_t loc) {
  return linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
}

/* OMP_SIMD (`#pragma omp simd` with -fopenmp[-simd]) runs its iterations
   in one thread, in order as far as side effects go: it is a loop like the
   others.  Constructs that spread iterations over threads are not. */
static bool is_loop(tree t) {
  return TREE_CODE(t) == FOR_STMT || TREE_CODE(t) == WHILE_STMT || TREE_CODE(t) == DO_STMT ||
         TREE_CODE(t) == OMP_SIMD;
}

static bool is_openmp_loop(tree t) {
  switch (TREE_CODE(t)) {
  case OMP_PARALLEL:
  case OMP_FOR:
  case OMP_DISTRIBUTE:
  case OMP_TASKLOOP:
  case OMP_LOOP:
  case OACC_LOOP:
  case OACC_PARALLEL:
  case OACC_KERNELS:
  case OACC_SERIAL:
  case OMP_TEAMS:
  case OMP_TARGET:
    return true;
  default:
    return false;
  }
}

/* The loop that statement T is or wraps, or NULL.  *OPENMP is set when T
   is an OpenMP/OpenACC construct instead. */
static tree find_loop(tree t, bool *openmp) {
  while (t) {
    if (is_loop(t)) return t;
    if (is_openmp_loop(t)) {
      *openmp = true;
      return NULL_TREE;
    }
    switch (TREE_CODE(t)) {
    case BIND_EXPR:
      t = BIND_EXPR_BODY(t);
      break;
    case CLEANUP_STMT:
      t = CW_CLEANUP_BODY(t);
      break;
    case TRY_FINALLY_EXPR: /* C: __attribute__((cleanup)) in a header */
      t = TREE_OPERAND(t, 0);
      break;
    case STATEMENT_LIST: {
      /* The loop is the last statement; the others are its header's
         declarations, which follow the loop keyword in the source. */
      tree last = NULL_TREE;
      for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i); tsi_next(&i))
        if (TREE_CODE(tsi_stmt(i)) != DEBUG_BEGIN_STMT) last = tsi_stmt(i);
      tree loop = last ? find_loop(last, openmp) : NULL_TREE;
      if (!loop) return NULL_TREE;
      location_t keyword = cw_expansion_point(EXPR_LOCATION(loop));
      for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i); tsi_next(&i)) {
        tree s = tsi_stmt(i);
        if (s != last && EXPR_HAS_LOCATION(s) && cw_expansion_point(EXPR_LOCATION(s)) < keyword)
          return NULL_TREE;
      }
      return loop;
    }
    default:
      return NULL_TREE;
    }
  }
  return NULL_TREE;
}

/* True if location A comes before location B in the source.  Tokens of
   one macro expansion are ordered by their place in the expansion, so
   `#define M x = 1; for (i = 0; ...)` still tells `x = 1` from the init. */
static bool comes_before(location_t a, location_t b) {
  return linemap_compare_locations(line_table, a, b) > 0;
}

/* The statements at I are the init clause of a for loop written as an
   expression, `for (i = 0; ...)` or `for (i = 0, j = 0; ...)`: the front
   ends emit it as statements of the enclosing list right before the
   FOR_STMT, located after the `for` keyword or, in C, at it when the init
   has no location of its own (`for (0; ...)`).  A statement the user wrote between
   the pragma and the loop comes before the keyword, or has no location to
   tell: not an init.  If they are, move the init and the loop into one
   statement list that takes the place of the first, so that the loop is
   entered before its init runs, and return the loop; else NULL. */
static tree group_for_init(tree_stmt_iterator *i) {
  tree_stmt_iterator j = *i;
  tree loop = NULL_TREE;

  for (; !tsi_end_p(j); tsi_next(&j)) {
    tree s = tsi_stmt(j);
    if (TREE_CODE(s) == FOR_STMT) {
      loop = s;
      break;
    }
    if (TREE_CODE(s) == DEBUG_BEGIN_STMT) continue;
    if (!EXPR_HAS_LOCATION(s) || cw_marker_id(s) >= 0 || is_loop(s) || is_openmp_loop(s))
      return NULL_TREE;
  }
  if (!loop || !EXPR_HAS_LOCATION(loop) || tsi_stmt(*i) == loop) return NULL_TREE;
  for (j = *i; tsi_stmt(j) != loop; tsi_next(&j)) {
    tree s = tsi_stmt(j);
    if (TREE_CODE(s) != DEBUG_BEGIN_STMT && comes_before(EXPR_LOCATION(s), EXPR_LOCATION(loop)))
      return NULL_TREE;
  }

  tree group = alloc_stmt_list();
  append_to_statement_list_force(tsi_stmt(*i), &group);
  for (j = *i, tsi_next(&j); !tsi_end_p(j);) {
    tree s = tsi_stmt(j);
    append_to_statement_list_force(s, &group);
    tsi_delink(&j);
    if (s == loop) break;
  }
  /* Assigned, not linked: linking a list would splice it back in. */
  *tsi_stmt_ptr(*i) = group;
  return loop;
}

static bool is_keyword_at(const char *s, size_t n, size_t i, const char *kw) {
  size_t k = strlen(kw);
  return i + k <= n && memcmp(s + i, kw, k) == 0 &&
         (i + k == n || !(ISALNUM(s[i + k]) || s[i + k] == '_'));
}

/* True if the source from the pragma at FROM to the loop keyword at TO
   closes a block: `{ ...; #pragma capture_window(..) } for (...)`.  Front
   ends splice a block without declarations into the enclosing statement
   list, so the statements alone cannot tell.  Comments, strings and
   directive lines are skipped; on TO's line, scanning stops at the loop
   keyword (nvcc's cudafe++ output keeps lines but not columns).  When the
   source cannot be read, nothing is claimed. */
static bool block_closes_between(location_t from, location_t to) {
  expanded_location a = expand_location(from), b = expand_location(to);
  bool in_comment = false;

  if (from == to || !a.file || !b.file || strcmp(a.file, b.file) || a.line > b.line) return false;
  for (int line = a.line; line <= b.line; line++) {
    const char *s;
    size_t n;
    if (!cw_source_line(a.file, line, &s, &n)) return false;
    size_t i = line == a.line && a.column > 0 ? a.column - 1 : 0;
    size_t stop = line == b.line && b.column > 0 ? b.column - 1 : n;
    size_t first = 0;
    while (first < n && ISSPACE(s[first])) first++;
    if (!in_comment && first < n && s[first] == '#') continue;
    for (; i < n && i < stop; i++) {
      if (in_comment) {
        if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') in_comment = false, i++;
        continue;
      }
      if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
        in_comment = true, i++;
      else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
        break;
      else if (s[i] == '"' || s[i] == '\'') {
        char q = s[i];
        for (i++; i < n && s[i] != q; i++)
          if (s[i] == '\\') i++;
      } else if (line == b.line &&
                 (is_keyword_at(s, n, i, "for") || is_keyword_at(s, n, i, "while") ||
                  is_keyword_at(s, n, i, "do")))
        break;
      else if (s[i] == '}')
        return true;
    }
  }
  return false;
}

/* With all-loops or loop specs: the loops of the current function its
   pragmas already instrumented (each with its pragma's location), which
   keep their own arguments. */
static hash_map<tree, location_t> *pragma_loops;

/* Report once per pragma (template instances repeat the marker). */
static bool first_report(cw_pending *p) {
  if (p->reported) return false;
  p->reported = true;
  return true;
}

static void report(cw_pending *p, enum cw_message_id id) {
  if (first_report(p)) error_at(p->loc, "%s", cw_message(id));
}

static void skip_debug_markers(tree_stmt_iterator *i) {
  while (!tsi_end_p(*i) && TREE_CODE(tsi_stmt(*i)) == DEBUG_BEGIN_STMT) tsi_next(i);
}

static bool body_is_enterable(tree loop, hash_map<tree, int> *gotos);
static tree count_gotos_r(tree *tp, int *walk_subtrees, void *data);
static tree find_suspension_r(tree *tp, int *walk_subtrees, void *data);

/* A jump into the body would skip the loop-enter call that sets the hooks'
   argument, so the hooks would run on an unset pointer. */
bool cw_body_entered_from_outside(tree loop, tree fndecl) {
  hash_map<tree, int> gotos;
  walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), count_gotos_r, &gotos);
  return body_is_enterable(loop, &gotos);
}

/* The marker at *I: remove it, and any further markers right after it
   (two pragmas on one loop), and instrument the loop that follows. */
static void handle_marker(tree_stmt_iterator *i, tree fndecl) {
  cw_pending *first = cw_pending_pragma(cw_marker_id(tsi_stmt(*i)));
  tsi_delink(i);
  for (skip_debug_markers(i); !tsi_end_p(*i); skip_debug_markers(i)) {
    int id = cw_marker_id(tsi_stmt(*i));
    if (id < 0) break;
    cw_pending *other = cw_pending_pragma(id);
    if (other && first_report(other)) {
      error_at(other->loc, "%s", cw_message(CW_MSG_TWO_PRAGMAS));
      inform(first->loc, "%s", cw_message(CW_MSG_FIRST_PRAGMA_HERE));
    }
    tsi_delink(i);
  }
  if (!first) return;
  bool openmp = false;
  tree loop = tsi_end_p(*i) ? NULL_TREE : find_loop(tsi_stmt(*i), &openmp);
  if (!loop && !openmp && !tsi_end_p(*i)) loop = group_for_init(i);
  if (loop &&
      block_closes_between(cw_expansion_point(first->loc), cw_expansion_point(EXPR_LOCATION(loop))))
    loop = NULL_TREE;
  if (loop && walk_tree(cw_loop_body(loop), find_suspension_r, NULL, NULL))
    report(first, CW_MSG_BODY_SUSPENDS);
  else if (loop && cw_body_entered_from_outside(loop, fndecl))
    report(first, CW_MSG_BODY_ENTERED);
  else if (loop) {
    cw_instrument_loop(tsi_stmt_ptr(*i), loop, first, fndecl);
    if (pragma_loops) pragma_loops->put(loop, first->loc);
  } else
    report(first, openmp ? CW_MSG_OPENMP_LOOP : CW_MSG_NOT_FOLLOWED_BY_LOOP);
}

static tree find_markers_r(tree *tp, int *walk_subtrees, void *data) {
  tree t = *tp;
  tree fndecl = (tree)data;

  if (TYPE_P(t)) {
    *walk_subtrees = 0;
    return NULL_TREE;
  }
  if (TREE_CODE(t) == STATEMENT_LIST) {
    /* Subtrees, including what was just wrapped, are walked after. */
    for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i);)
      if (cw_marker_id(tsi_stmt(i)) >= 0)
        handle_marker(&i, fndecl);
      else
        tsi_next(&i);
    return NULL_TREE;
  }
  int id = cw_marker_id(t);
  if (id >= 0) {
    /* A marker that is a whole block or branch: `if (x) { #pragma }`. */
    cw_pending *p = cw_pending_pragma(id);
    if (p) report(p, CW_MSG_NOT_FOLLOWED_BY_LOOP);
    *tp = build_empty_stmt(EXPR_LOCATION(t));
    *walk_subtrees = 0;
  }
  return NULL_TREE;
}

/* ---- all-loops: every other loop of the unit ------------------------- */

/* Where a body can be entered other than through the loop's own
   condition, the begin hook would be skipped and the end hook run anyway:
   a case label of a switch around the loop (Duff's device), a label a goto
   from outside the body jumps to, a label whose address is taken.  Such
   loops are left alone (docs/limitations.md).  GOTOS counts, for the whole
   function, the gotos to each label. */
struct body_scan {
  hash_map<tree, int> *gotos; /* function-wide, per LABEL_DECL */
  hash_map<tree, int> inner;  /* gotos inside the body, per label */
  auto_vec<tree> labels;      /* labels defined inside the body */
  int switch_depth;           /* switches inside the body around here */
  bool enterable;             /* a way in that is not the loop's own */
};

static tree scan_body_r(tree *, int *, void *);

/* A coroutine's suspension point, before (co_await, co_yield) or after
   (.CO_YIELD) the front end's coroutine transform: resuming jumps back
   into the body past the begin hook, and the plugin's locals, added after
   the transform, do not live in the coroutine frame (GCC 16 ran such a
   loop's hooks on a lost pointer). */
static tree find_suspension_r(tree *tp, int *walk_subtrees, void *) {
  tree t = *tp;
  if (TYPE_P(t))
    *walk_subtrees = 0;
  else if (TREE_CODE(t) == CO_AWAIT_EXPR || TREE_CODE(t) == CO_YIELD_EXPR ||
           (TREE_CODE(t) == CALL_EXPR && !CALL_EXPR_FN(t) && CALL_EXPR_IFN(t) == IFN_CO_YIELD))
    return t;
  return NULL_TREE;
}

static tree count_gotos_r(tree *tp, int *walk_subtrees, void *data) {
  hash_map<tree, int> *gotos = (hash_map<tree, int> *)data;
  if (TYPE_P(*tp))
    *walk_subtrees = 0;
  else if (TREE_CODE(*tp) == GOTO_EXPR && TREE_CODE(GOTO_DESTINATION(*tp)) == LABEL_DECL)
    gotos->get_or_insert(GOTO_DESTINATION(*tp))++;
  return NULL_TREE;
}

static tree scan_body_r(tree *tp, int *walk_subtrees, void *data) {
  body_scan *scan = (body_scan *)data;
  tree t = *tp;
  if (TYPE_P(t))
    *walk_subtrees = 0;
  else if (TREE_CODE(t) == SWITCH_STMT) {
    /* Its case labels are its own: walk its body one level deeper. */
    *walk_subtrees = 0;
    walk_tree(&SWITCH_STMT_COND(t), scan_body_r, scan, NULL);
    scan->switch_depth++;
    walk_tree(&SWITCH_STMT_BODY(t), scan_body_r, scan, NULL);
    scan->switch_depth--;
  } else if (TREE_CODE(t) == CASE_LABEL_EXPR && scan->switch_depth == 0)
    scan->enterable = true;
  else if (TREE_CODE(t) == LABEL_EXPR) {
    tree label = LABEL_EXPR_LABEL(t);
    if (FORCED_LABEL(label) || DECL_NONLOCAL(label)) scan->enterable = true;
    scan->labels.safe_push(label);
  } else if (TREE_CODE(t) == GOTO_EXPR && TREE_CODE(GOTO_DESTINATION(t)) == LABEL_DECL)
    scan->inner.get_or_insert(GOTO_DESTINATION(t))++;
  return NULL_TREE;
}

static bool body_is_enterable(tree loop, hash_map<tree, int> *gotos) {
  body_scan scan;
  scan.gotos = gotos;
  scan.switch_depth = 0;
  scan.enterable = false;
  walk_tree(cw_loop_body(loop), scan_body_r, &scan, NULL);
  if (walk_tree(cw_loop_body(loop), find_suspension_r, NULL, NULL)) scan.enterable = true;
  for (unsigned k = 0; k < scan.labels.length() && !scan.enterable; k++) {
    int *all = gotos->get(scan.labels[k]);
    int *inside = scan.inner.get(scan.labels[k]);
    if (all && *all > (inside ? *inside : 0)) scan.enterable = true;
  }
  return scan.enterable;
}

/* Code for an offload device: the host runtime cannot be called there. */
static bool is_offload_region(tree t) {
  switch (TREE_CODE(t)) {
  case OMP_TARGET:
  case OACC_PARALLEL:
  case OACC_KERNELS:
  case OACC_SERIAL:
  case OACC_DATA:
  case OACC_HOST_DATA:
    return true;
  default:
    return false;
  }
}

struct loop_walk {
  vec<tree *> *loops;
  bool outermost_only;
};

static tree collect_loops_r(tree *tp, int *walk_subtrees, void *data) {
  loop_walk *w = (loop_walk *)data;
  tree t = *tp;
  if (TYPE_P(t) || is_offload_region(t))
    *walk_subtrees = 0;
  else if ((TREE_CODE(t) == FOR_STMT || TREE_CODE(t) == WHILE_STMT || TREE_CODE(t) == DO_STMT) &&
           EXPR_HAS_LOCATION(t)) {
    w->loops->safe_push(tp);
    if (w->outermost_only) *walk_subtrees = 0;
  }
  return NULL_TREE;
}

/* The slots of FNDECL's for, while and do loops (outside offload regions)
   in pre-order, ancestors first; with OUTERMOST_ONLY only those inside no
   other.  What all-loops and loop specs can mark. */
void cw_collect_loops(tree fndecl, bool outermost_only, vec<tree *> *loops) {
  loop_walk w = {loops, outermost_only};
  walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), collect_loops_r, &w);
}

/* Instrument the loop at *TP as if `#pragma capture_window(START, COUNT,
   "FUNCTION.LINE")` stood before it. */
static void instrument_unmarked_loop(tree *tp, tree fndecl, hash_map<tree, int> *gotos) {
  tree loop = *tp;
  location_t loc = EXPR_LOCATION(loop);
  expanded_location xl = expand_location(cw_expansion_point(loc));
  cw_pending p;
  p.loc = loc;
  p.reported = false;
  p.window.start = cw_options.all_loops_window.start;
  p.window.count = cw_options.all_loops_window.count;
  cw_auto_label(p.window.label, lang_hooks.decl_printable_name(fndecl, 0), xl.line);
  if (body_is_enterable(loop, gotos)) {
    char buf[256];
    if (cw_options.verbose)
      inform(loc, "%s", cw_format_loop_left_alone(buf, sizeof buf, p.window.label));
    return;
  }
  cw_instrument_loop(tp, loop, &p, fndecl);
}

/* A lambda's body is its closure's operator(), which the C++ front end
   marks artificial like the functions it writes itself (the static thunk
   _FUN, the conversion operator, implicit members); no other artificial
   function is named operator().  Its loops are the user's. */
bool cw_is_lambda_body(tree fndecl) {
  return DECL_ARTIFICIAL(fndecl) && DECL_NAME(fndecl) &&
         strcmp(IDENTIFIER_POINTER(DECL_NAME(fndecl)), "operator()") == 0;
}

/* A function whose loops the user wrote: all-loops and specs look in it. */
static bool is_user_function(tree fndecl) {
  return !DECL_ARTIFICIAL(fndecl) || cw_is_lambda_body(fndecl);
}

static void instrument_all_loops(tree fndecl) {
  if (!is_user_function(fndecl) || lookup_attribute("omp declare target", DECL_ATTRIBUTES(fndecl)))
    return;
  auto_vec<tree *> loops;
  cw_collect_loops(fndecl, false, &loops);
  if (loops.is_empty()) return;
  hash_map<tree, int> gotos;
  walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), count_gotos_r, &gotos);
  /* Innermost first: wrapping a loop rebuilds its body, where the slots of
     the loops inside it are.  Loops with their own pragma are done. */
  for (unsigned k = loops.length(); k-- > 0;)
    if (!pragma_loops->get(*loops[k])) instrument_unmarked_loop(loops[k], fndecl, &gotos);
}

/* PLUGIN_PRE_GENERICIZE: once per function body, once per template
   instantiation. */
void cw_instrument_function(tree fndecl) {
  if (!DECL_SAVED_TREE(fndecl)) return;
  hash_map<tree, location_t> instrumented;
  bool specs = cw_options.nloop_args != 0;
  pragma_loops = cw_options.all_loops || specs ? &instrumented : NULL;
  if (cw_any_pending())
    walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), find_markers_r, fndecl);
  if (specs && is_user_function(fndecl)) cw_instrument_spec_loops(fndecl, pragma_loops);
  if (cw_options.all_loops) instrument_all_loops(fndecl);
  pragma_loops = NULL;
}
