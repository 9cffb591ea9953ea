/* A thread that ends inside an open window: pthread_exit() from the body
   (issue 7, hostile c).

   In C, pthread_exit() unwinds the thread's stack without running the
   body's and the loop's cleanups (they run only for C++ code and C built
   with -fexceptions), so the iteration and the window are still in
   progress when the thread ends. Outcome: the runtime's thread-exit
   handler (a pthread key destructor) ends them in nesting order - the
   iteration range `step#3`, then the window range `step`, then the
   profiler stop - so the thread's ranges are balanced and the profiler is
   stopped. The main thread then runs the same loop on its own (iterations
   count per thread) and is unaffected. */
// cw-run:
// cw-thread: step#0..1(.) S step[ step#2..3(.) ] E
// cw-thread: step#0..1(.) S step[ step#2..4(.) ] E
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cuda
// cw-thread: step#0..1(.) S step#2..3(.) E
// cw-thread: step#0..1(.) S step#2..4(.) E
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_SELFCHECK=0
// cw-thread: step#0..1(.) S step[ step#2..3(.) ] E
// cw-thread: step#0..1(.) S step[ step#2..4(.) ] E
// cw-stderr-re: capture_window: loop 'step' \(\S*thread_exit_in_window\.c:\d+, run\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'step' .* iteration 2, window 2:3, thread \d+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed at thread exit: loop 'step' .* held iterations 2-3, thread \d+
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'step' .* iteration 2, window 2:3, thread \d+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'step' .* held iterations 2-4, thread \d+
#include "cw_test.h"
#include <pthread.h>

static int run(int stop_at)
{
  int done = 0;
#pragma capture_window(2, 3)
  for (int i = 0; i < 5; i++) {
    cw_mark("step", i);
    if (i == stop_at)
      pthread_exit(NULL);
    done++;
  }
  return done;
}

static void *worker(void *arg)
{
  (void)arg;
  run(3);
  return NULL;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  printf("main ran %d iterations\n", run(-1));
  return 0;
}
