/*
 * capture_window/windows.h - the windows CAPTURE_WINDOW asks for, version 1,
 * asked of libcapture_window instead of copied: `capture-window profile`
 * plans its reports by them, `check` reads the value a report recorded
 * (the command loads the library through ctypes).  The runtime reads its
 * own environment with the same parser (runtime/options.c).
 *
 *   CAPTURE_WINDOW   off | none | auto:COUNT | spike:COUNT[xTIMES]
 *                    | START:COUNT[/EVERY[xTIMES]], comma-separated
 */
#ifndef CAPTURE_WINDOW_WINDOWS_H
#define CAPTURE_WINDOW_WINDOWS_H

#ifdef __cplusplus
extern "C" {
#endif

#define CW_WINDOWS_VERSION 1

#ifndef CW_WINDOWS_EXPORT
#define CW_WINDOWS_EXPORT __attribute__((visibility("default")))
#endif

/* Who places a window's first step. */
enum cw_window_placed_v1 {
  CW_PLACED_AT_START = 0, /* START:COUNT..., at START */
  CW_PLACED_BY_AUTO = 1,  /* auto:COUNT, where the steps settle */
  CW_PLACED_BY_SPIKE = 2, /* spike:COUNT[xTIMES], at the slow steps */
};

struct cw_window_v1 {
  long long start; /* -1 unless placed is CW_PLACED_AT_START */
  long long count;
  long long every; /* 0: once */
  long long times; /* with every > 0 or spike: 0 no limit */
  int placed;      /* enum cw_window_placed_v1 */
};

/* CAPTURE_WINDOW=SPEC as the runtime reads it: the number of windows it
   lists, sorted by START, the first MAX of them written to OUT; 0 for off,
   none, NULL and ""; -1 for a value the runtime rejects (it would run with
   capture off). */
CW_WINDOWS_EXPORT int cw_windows_parse_v1(const char *spec, struct cw_window_v1 *out, int max);

#ifdef __cplusplus
}
#endif

#endif
