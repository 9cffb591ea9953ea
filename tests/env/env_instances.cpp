/* Two instantiations of a function template share the marked loop's line
   and label, and each has its own site: its name is FILE:LINE@INSTANCE,
   INSTANCE the function's name and template arguments (tmpl<int>), in the
   verbose lines, the self-check and CAPTURE_WINDOW_LOOPS (runtime/site.c).
   Each instantiation counts its own iterations; tmpl<double> runs in a
   thread of its own, after tmpl<int>, since the recorder's checks count
   by label per thread.  The instantiation CW_TEST_UNSELECTED names marks
   its iterations "other": the checks want every "tmpl" mark in a range. */
// cw-windows: tmpl=1:1
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1
// cw-expect: tmpl#0(.) S tmpl[ tmpl#1(.) ] E tmpl#2(.)
// cw-thread: tmpl#0(.) S tmpl[ tmpl#1(.) ] E tmpl#2(.)
// cw-stderr-re: capture_window: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<int>, T tmpl\(T, const char ?\*\) \[(with )?T = int\]\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<int>\) iteration 1, window 1:1, thread [0-9]+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<int>\) held iterations 1-1, thread [0-9]+
// cw-stderr-re: capture_window: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<double>, T tmpl\(T, const char ?\*\) \[(with )?T = double\]\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<double>\) iteration 1, window 1:1, thread [0-9]+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<double>\) held iterations 1-1, thread [0-9]+
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: tmpl#0(.) S tmpl[ tmpl#1(.) ] E tmpl#2(.)
// cw-thread: tmpl#0(.) S tmpl[ tmpl#1(.) ] E tmpl#2(.)
// cw-stderr-re: capture_window: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<int>\) ran 3 iterations; window 1-1: .*
// cw-stderr-re: capture_window: loop 'tmpl' \(\S*env_instances\.cpp:47@tmpl<double>\) ran 3 iterations; window 1-1: .*
//
// cw-run: CAPTURE_WINDOW_LOOPS=env_instances.cpp:47@tmpl<double> CW_TEST_UNSELECTED=int
// cw-expect: .other@0..2
// cw-thread: tmpl#0(.) S tmpl[ tmpl#1(.) ] E tmpl#2(.)
//
// cw-run: CAPTURE_WINDOW_LOOPS=tmpl@tmpl<int>,env_instances.cpp:47@tmpl<long> CW_TEST_UNSELECTED=double
// cw-expect: tmpl#0(.) S tmpl[ tmpl#1(.) ] E tmpl#2(.)
// cw-thread: .other@0..2
#include "cw_test.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

template <typename T> T tmpl(T x, const char *type)
{
  const char *unselected = getenv("CW_TEST_UNSELECTED");
  const char *mark = unselected && !strcmp(unselected, type) ? "other" : "tmpl";
#pragma capture_window(1, 1, "tmpl")
  for (int i = 0; i < 3; i++) {
    cw_mark(mark, i);
    x = x + x;
  }
  return x;
}

static void *run_double(void *out)
{
  *(double *)out = tmpl(0.5, "double");
  return NULL;
}

int main()
{
  int a = tmpl(1, "int");
  double b;
  pthread_t t;
  pthread_create(&t, NULL, run_double, &b);
  pthread_join(t, NULL);
  printf("%d %.1f\n", a, b);
  return 0;
}
