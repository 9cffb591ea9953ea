/*
 * cw-spec.cc - zero-edit marking: the loops that
 * -fplugin-arg-capture_window-loop[-optional]=SPEC names (the grammar is
 * runtime/loop_spec.c), found at PLUGIN_PRE_GENERICIZE and
 * instrumented as a pragma would; at the end of the unit, a spec that
 * marked no loop is an error.
 */
#include "cw-gcc.h"
#include "cw_messages.h"

/* FNDECL's scopes and name joined by "::" (ns::Trainer::fit), without
   template arguments; unnamed scopes (the global and anonymous namespaces,
   lambdas' closures) are left out.  Returns the length written. */
static size_t qualified_name(tree decl, char *buf, size_t size) {
  if (!decl || TREE_CODE(decl) == TRANSLATION_UNIT_DECL) return 0;
  tree name = TYPE_P(decl) ? TYPE_IDENTIFIER(decl) : DECL_NAME(decl);
  tree outer = TYPE_P(decl) ? TYPE_CONTEXT(decl) : DECL_CONTEXT(decl);
  size_t n = qualified_name(outer, buf, size);
  const char *id = name && TREE_CODE(name) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(name) : "";
  bool plain = ISALPHA(id[0]) || id[0] == '_';
  for (const char *c = id; plain && *c; c++) plain = ISALNUM(*c) || *c == '_';
  if (plain && n < size) n += snprintf(buf + n, size - n, "%s%s", n ? "::" : "", id);
  return n < size ? n : size - 1;
}

static bool loop_is_at(tree loop, const cw_loop_spec *spec) {
  expanded_location xl = expand_location(cw_loop_keyword_location(loop));
  return (unsigned)xl.line == spec->line && cw_loop_spec_file_matches_v1(spec, xl.file);
}

/* One function's loops claimed by specs, and those its pragmas mark. */
struct spec_claims {
  hash_map<tree, cw_loop_arg *> marked;     /* loop -> the spec that names it */
  hash_map<tree, location_t> *pragma_loops; /* loop -> its pragma */
};

static void report_arg(cw_loop_arg *a, location_t loc, const char *text) {
  if (a->reported) return;
  a->reported = true;
  error_at(loc, "%s", text);
}

/* The loop at *TP is what A names: check it can be marked, and record it
   in C->marked for cw_instrument_spec_loops. */
static void claim_loop(tree *tp, cw_loop_arg *a, spec_claims *c) {
  char buf[1024];
  location_t loc = cw_loop_keyword_location(*tp);
  a->matched = true;
  if (location_t *pragma = c->pragma_loops->get(*tp)) {
    if (!a->reported) {
      report_arg(a, loc, cw_format_loop_has_pragma(buf, sizeof buf, a->given));
      inform(*pragma, "%s", cw_message(CW_MSG_PRAGMA_HERE));
    }
    return;
  }
  if (cw_loop_arg **other = c->marked.get(*tp)) {
    if (*other != a)
      report_arg(a, loc, cw_format_loop_marked_twice(buf, sizeof buf, a->given, (*other)->given));
    return;
  }
  c->marked.put(*tp, a);
}

/* FUNCTION specs: the outermost loop of FNDECL, if A names it. */
static void claim_outermost_loop(const char *name, cw_loop_arg *a, const vec<tree *> &outer,
                                 spec_claims *c) {
  char buf[1024];
  if (!cw_loop_spec_function_matches_v1(&a->spec, name)) return;
  a->function_seen = true;
  if (outer.length() > 1) {
    if (!a->reported) {
      report_arg(a, cw_loop_keyword_location(*outer[1]),
                 cw_format_loop_ambiguous(buf, sizeof buf, a->given, name));
      inform(cw_loop_keyword_location(*outer[0]), "%s", "the first outermost loop is here");
    }
    a->matched = true;
    return;
  }
  if (!outer.is_empty()) claim_loop(outer[0], a, c);
}

/* Instrument the loop at *TP as A says, and add it to PRAGMA_LOOPS: all-loops
   leaves it alone, as it does a pragma's. */
static void instrument_spec_loop(tree *tp, const cw_loop_arg *a, tree fndecl,
                                 hash_map<tree, location_t> *pragma_loops) {
  cw_pending p;
  p.loc = cw_loop_keyword_location(*tp); /* the site's line */
  p.reported = false;
  p.window = a->spec.window;
  if (cw_body_entered_from_outside(*tp, fndecl))
    error_at(p.loc, "%s", cw_message(CW_MSG_BODY_ENTERED));
  else {
    tree loop = *tp;
    cw_instrument_loop(tp, loop, &p, fndecl);
    pragma_loops->put(loop, p.loc);
  }
}

/* PLUGIN_PRE_GENERICIZE, after the pragmas' loops (PRAGMA_LOOPS: loop ->
   its pragma) were instrumented: the loops the specs name. */
void cw_instrument_spec_loops(tree fndecl, hash_map<tree, location_t> *pragma_loops) {
  auto_vec<tree *> all, outer;
  cw_collect_loops(fndecl, false, &all);
  cw_collect_loops(fndecl, true, &outer);
  char name[512];
  qualified_name(fndecl, name, sizeof name);
  spec_claims c;
  c.pragma_loops = pragma_loops;
  for (size_t k = 0; k < cw_options.nloop_args; k++) {
    cw_loop_arg &a = cw_options.loop_args[k];
    if (a.spec.by_function) {
      /* A lambda has no name of its own (its scopes would give it the
         enclosing function's): its loops are named by FILE:LINE. */
      if (!cw_is_lambda_body(fndecl)) claim_outermost_loop(name, &a, outer, &c);
    } else
      for (tree *tp : all)
        if (loop_is_at(*tp, &a.spec)) claim_loop(tp, &a, &c);
  }
  /* Innermost first: wrapping a loop rebuilds its body, where the slots of
     the loops inside it are. */
  for (unsigned k = all.length(); k-- > 0;)
    if (cw_loop_arg **a = c.marked.get(*all[k]))
      instrument_spec_loop(all[k], *a, fndecl, pragma_loops);
}

/* At the end of the unit: every loop spec must have marked a loop. */
void cw_report_unmatched_loop_args(void) {
  char buf[1024];
  for (size_t k = 0; k < cw_options.nloop_args; k++)
    if (cw_format_loop_arg_unmatched(buf, sizeof buf, &cw_options.loop_args[k]))
      error_at(UNKNOWN_LOCATION, "%s", buf);
}
