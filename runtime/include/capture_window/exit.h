/*
 * capture_window/exit.h - the runtime's work at process exit, version 1,
 * for a front door whose process may end without exit() running the C
 * exit handlers: Python, after an uncaught KeyboardInterrupt, dies by
 * SIGINT once its own atexit hooks ran (docs/robustness.md).
 */
#ifndef CAPTURE_WINDOW_EXIT_H
#define CAPTURE_WINDOW_EXIT_H

#ifdef __cplusplus
extern "C" {
#endif

#define CW_EXIT_VERSION 1

#ifndef CW_EXIT_EXPORT
#define CW_EXIT_EXPORT __attribute__((visibility("default")))
#endif

/* What the runtime does at exit, now and once (the process's own exit
   then does nothing more): the calling thread's open windows close as
   leaving their loops closes them, the exit self-check prints, the
   buffered step times are written and the profiler stops. errno is
   kept. */
CW_EXIT_EXPORT void cw_exit_v1(void);

#ifdef __cplusplus
}
#endif

#endif
