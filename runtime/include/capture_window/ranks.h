/*
 * capture_window/ranks.h - which ranks open windows, version 1: the
 * launchers' rank variables the runtime reads and the grammar of
 * CAPTURE_WINDOW_RANKS, asked of libcapture_window instead of copied (the
 * capture-window command loads the library through ctypes).  The runtime
 * reads its own environment with the same code (runtime/options.c).
 *
 *   CAPTURE_WINDOW_RANKS   all, or RANK or FIRST-LAST, comma-separated
 *                          (FIRST <= LAST, each a decimal number >= 0)
 */
#ifndef CAPTURE_WINDOW_RANKS_H
#define CAPTURE_WINDOW_RANKS_H

#ifdef __cplusplus
extern "C" {
#endif

#define CW_RANKS_VERSION 1

#ifndef CW_RANKS_EXPORT
#define CW_RANKS_EXPORT __attribute__((visibility("default")))
#endif

/* Whether CAPTURE_WINDOW_RANKS=RANKS_SPEC opens windows in process RANK
   (>= 0): 1 yes, 0 no, -1 RANKS_SPEC is not of the grammar (or RANK < 0).
   NULL or "" is unset: every rank. */
CW_RANKS_EXPORT int cw_rank_selected_v1(const char *ranks_spec, long long rank);

/* The K-th rank variable (K from 0), in the order the runtime reads them
   (the first set wins), or NULL past the last. */
CW_RANKS_EXPORT const char *cw_rank_variable_v1(int k);

#ifdef __cplusplus
}
#endif

#endif
