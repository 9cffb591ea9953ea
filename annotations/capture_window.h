/*
 * capture_window.h - mark a loop for capture-window from a macro.
 *
 *   #include <capture_window.h>
 *
 *   CAPTURE_WINDOW(30, 3)
 *   for (int step = 0; step < n; step++) train_step();
 *
 *   CAPTURE_WINDOW_LABEL(5, 2, "eval")
 *   while (next_batch(&b)) eval_step(&b);
 *
 * Each macro expands to `#pragma capture_window(...)` through _Pragma, so it
 * may sit inside other macros. Arguments are macro-expanded first, so
 * CAPTURE_WINDOW(WARMUP, 3) works. Compiled without the plugin, the pragma
 * is an unknown pragma: the code builds and runs unchanged (silence
 * -Wunknown-pragmas with -Wno-unknown-pragmas if you build with -Wall).
 */
#ifndef CAPTURE_WINDOW_H
#define CAPTURE_WINDOW_H

#define CAPTURE_WINDOW_PRAGMA_(text) _Pragma(#text)
#define CAPTURE_WINDOW(start, count) CAPTURE_WINDOW_PRAGMA_(capture_window(start, count))
#define CAPTURE_WINDOW_LABEL(start, count, label)                                                  \
  CAPTURE_WINDOW_PRAGMA_(capture_window(start, count, label))

#endif /* CAPTURE_WINDOW_H */
