/*
 * capture_window/abi.h - the interface between instrumented code and the
 * capture-window runtime (libcapture_window).
 *
 * Front doors (the GCC plugin, the Clang plugin, the source rewriter) emit,
 * for every marked loop, one static descriptor, a test before each
 * iteration that needs no call on most iterations, and four calls:
 *
 *   static struct cw_site_v2 site = { CW_ABI_VERSION, LINE, FILE, FUNC,
 *                                     LABEL, START, COUNT };   // rest zero
 *   {
 *     struct cw_loop_v2 *cw = cw_loop_enter_v2(&site);
 *     int on = 0;             // this iteration went through the runtime
 *     try {
 *       for (...) {
 *         if (cw && cw->next++ >= cw->attention_at)   // else: nothing to do
 *           on = cw_iter_begin_v2(cw);
 *         BODY                // its own `continue`s jump to the end test
 *         if (on) { on = 0; cw_iter_end_v2(cw); }
 *       }
 *     } finally { cw_loop_exit_v2(cw, on); }
 *   }
 *
 * cw_loop_enter_v2 returns NULL when the loop is inactive (CAPTURE_WINDOW=off,
 * the loop not selected, the rank not selected, bad configuration), so the
 * per-iteration cost of an inactive loop is two tests of locals (cw, on).
 * An active loop outside its window, with no NVTX tool attached, costs the
 * inline test: a load, an increment, a compare, no call.
 *
 * The end of an iteration that went through cw_iter_begin_v2 (it returned
 * nonzero) must reach the runtime on every path out of the body: on
 * fall-through and `continue` through cw_iter_end_v2; on `break`, `return`,
 * `goto` out of the loop and C++ exceptions either the same way (a cleanup
 * per iteration: the Clang plugin, the rewriter; they pass 0 to exit) or by
 * passing the flag to cw_loop_exit_v2, which ends that iteration first
 * (the GCC plugin: one cleanup per loop).
 *
 * Every front door emits exactly this, as C, on every target: the calls
 * are ordinary calls under the platform's calling convention, so
 * debuggers, unwinders and sampling profilers see ordinary frames, and
 * the hooks keep errno as the program left it.
 *
 * Versioning: the version is part of every symbol and of the descriptor. A
 * change of layout or meaning gets a new version and new symbol names, so an
 * object built for another version fails to link instead of misbehaving.
 * The front doors build the descriptor field by field in this order; keep
 * them in step with this struct.
 */
#ifndef CAPTURE_WINDOW_ABI_H
#define CAPTURE_WINDOW_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

#define CW_ABI_VERSION 2

#if defined(__GNUC__)
#define CW_ABI_EXPORT __attribute__((visibility("default")))
#else
#define CW_ABI_EXPORT
#endif

/* One per marked loop, static, zero-initialized past the fields the
   compiler fills in. */
struct cw_site_v2 {
  unsigned int abi_version; /* CW_ABI_VERSION */
  unsigned int line;        /* line of the pragma */
  const char *file;         /* file of the pragma, as the compiler saw it */
  const char *function;     /* enclosing function, as the compiler prints it
                               (C++: __PRETTY_FUNCTION__'s form, whose
                               template arguments name an instantiation) */
  const char *label;        /* window label, "step" by default */
  long long start;          /* first iteration of the window */
  long long count;          /* iterations in the window */
  void *runtime[4];         /* owned by the runtime; must start zeroed */
};

/* Per-thread state of one marked loop.  Instrumented code adds one to
   `next` as each iteration begins and calls cw_iter_begin_v2 when the
   index it had (next - 1 after the addition) is at or after
   `attention_at`; the rest of the state is the runtime's. */
struct cw_loop_v2 {
  long long next;         /* index of the next iteration */
  long long attention_at; /* iterations before this one need no call */
};

/* The loop's state for this thread, or NULL if the loop is inactive. */
CW_ABI_EXPORT struct cw_loop_v2 *cw_loop_enter_v2(struct cw_site_v2 *site);
/* Iteration next - 1 begins and needs the runtime; nonzero: end it later. */
CW_ABI_EXPORT int cw_iter_begin_v2(struct cw_loop_v2 *loop);
CW_ABI_EXPORT void cw_iter_end_v2(struct cw_loop_v2 *loop);
/* The loop is left (loop may be NULL: nothing to do); iteration_open: an
   iteration whose begin returned nonzero has not ended yet (left by
   break, return, goto or exception). */
CW_ABI_EXPORT void cw_loop_exit_v2(struct cw_loop_v2 *loop, int iteration_open);

#ifdef __cplusplus
}
#endif

#endif /* CAPTURE_WINDOW_ABI_H */
