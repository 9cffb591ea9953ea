/*
 * cw-gcc.h - what the parts of the GCC plugin share.
 *
 *   capture_window_core.cc  plugin_init, the pragma handler, pending pragmas
 *   cw-loops.cc        finds each pragma's loop in a function body
 *   cw-declare.cc      the runtime's types and hooks, once a unit; markers
 *   cw-emit.cc         descriptors, the calls around a loop, wrapping
 *   cw-source.cc       source lines, read once per file; loop keywords
 */
#ifndef CW_GCC_H
#define CW_GCC_H

#include "gcc-common.h"
#include "cw_pragma.h"
#include "cw_args.h"
#include "capture_window/loop_spec.h"

/* One pragma, as read by the pragma handler.  Its index in the pending
   list is carried through the function body by a marker statement. */
struct cw_pending {
  location_t loc; /* the pragma, for diagnostics and the descriptor */
  struct cw_loop_window window;
  bool reported; /* a diagnostic was issued: say it only once */
};

/* capture_window_core.cc */
extern struct cw_options cw_options; /* the -fplugin-arg-capture_window-... */
cw_pending *cw_pending_pragma(unsigned id);
bool cw_any_pending(void);

/* cw-declare.cc: the runtime's types and hooks (GC roots: cw_gc_roots),
   set by cw_declare_runtime at the start of each unit. */
extern const struct ggc_root_tab cw_gc_roots[];
extern tree cw_site_type; /* struct cw_site_v2 */
extern tree cw_loop_type; /* struct cw_loop_v2 */
extern tree cw_enter_fn, cw_begin_fn, cw_end_fn, cw_exit_fn;
extern tree cw_constant_evaluated_fn; /* C++: is_constant_evaluated */
void cw_declare_runtime(void);
tree cw_build_marker(location_t loc, unsigned id);
int cw_marker_id(tree stmt);

/* cw-emit.cc */
void cw_instrument_loop(tree *stmt_p, tree loop, const cw_pending *p, tree fndecl);
tree *cw_loop_body(tree loop);

/* cw-loops.cc */
void cw_instrument_function(tree fndecl);
location_t cw_expansion_point(location_t loc);
void cw_collect_loops(tree fndecl, bool outermost_only, vec<tree *> *loops);
bool cw_body_entered_from_outside(tree loop, tree fndecl);
bool cw_is_lambda_body(tree fndecl);

/* cw-spec.cc */
void cw_instrument_spec_loops(tree fndecl, hash_map<tree, location_t> *pragma_loops);
void cw_report_unmatched_loop_args(void);

/* cw-source.cc */
bool cw_source_line(const char *file, int line, const char **text, size_t *len);
location_t cw_loop_keyword_location(tree loop);

#endif /* CW_GCC_H */
