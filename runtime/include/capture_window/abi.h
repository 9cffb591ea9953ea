/*
 * capture_window/abi.h - the interface between instrumented code and the
 * capture-window runtime (libcapture_window).
 *
 * Front doors (the GCC plugin, the Clang plugin, the source rewriter) emit,
 * for every marked loop, one static descriptor and four calls:
 *
 *   static struct cw_site_v1 site = { CW_ABI_VERSION, LINE, FILE, FUNC,
 *                                     LABEL, START, COUNT };   // rest zero
 *   {
 *     struct cw_loop_v1 *cw = cw_loop_enter_v1(&site);
 *     try {
 *       for (...) {
 *         if (cw) cw_iter_begin_v1(cw);
 *         try { BODY } finally { if (cw) cw_iter_end_v1(cw); }
 *       }
 *     } finally { if (cw) cw_loop_exit_v1(cw); }
 *   }
 *
 * cw_loop_enter_v1 returns NULL when the loop is inactive (CAPTURE_WINDOW=off,
 * the loop not selected, the rank not selected, bad configuration), so the
 * per-iteration cost of an inactive loop is one test of a local and a branch.
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

#define CW_ABI_VERSION 1

#if defined(__GNUC__)
#define CW_ABI_EXPORT __attribute__((visibility("default")))
#else
#define CW_ABI_EXPORT
#endif

/* One per marked loop, static, zero-initialized past the fields the
   compiler fills in. */
struct cw_site_v1 {
  unsigned int abi_version; /* CW_ABI_VERSION */
  unsigned int line;        /* line of the pragma */
  const char *file;         /* file of the pragma, as the compiler saw it */
  const char *function;     /* enclosing function */
  const char *label;        /* window label, "step" by default */
  long long start;          /* first iteration of the window */
  long long count;          /* iterations in the window */
  void *runtime[4];         /* owned by the runtime; must start zeroed */
};

/* Per-thread state of one marked loop; opaque to instrumented code. */
struct cw_loop_v1;

CW_ABI_EXPORT struct cw_loop_v1 *cw_loop_enter_v1(struct cw_site_v1 *site);
CW_ABI_EXPORT void cw_iter_begin_v1(struct cw_loop_v1 *loop);
CW_ABI_EXPORT void cw_iter_end_v1(struct cw_loop_v1 *loop);
CW_ABI_EXPORT void cw_loop_exit_v1(struct cw_loop_v1 *loop);

#ifdef __cplusplus
}
#endif

#endif /* CAPTURE_WINDOW_ABI_H */
