/*
 * capture_window/watch.h - CAPTURE_WINDOW_WATCH, version 1, for front
 * doors that keep their own copy of the inline test (the Python door
 * hands out runs of iterations without testing each one).
 *
 * While a process watches (CAPTURE_WINDOW_WATCH set, capture on), another
 * thread of the runtime may store 0 into any loop state's attention_at
 * (abi.h) at any time: a trigger request arrived, and the loop's next
 * iteration must call cw_iter_begin_v2. A front door that decided how many
 * iterations need no call from attention_at must then look again at each
 * iteration, or stop at once when it reads 0. The emitted C code reads
 * attention_at at every iteration and needs nothing more.
 */
#ifndef CAPTURE_WINDOW_WATCH_H
#define CAPTURE_WINDOW_WATCH_H

#ifdef __cplusplus
extern "C" {
#endif

#define CW_WATCH_VERSION 1

#ifndef CW_WATCH_EXPORT
#define CW_WATCH_EXPORT __attribute__((visibility("default")))
#endif

/* 1 when this process watches a file for trigger requests, else 0. Final
   once the first marked loop was entered (the runtime reads its
   environment then). */
CW_WATCH_EXPORT int cw_watch_active_v1(void);

#ifdef __cplusplus
}
#endif

#endif
