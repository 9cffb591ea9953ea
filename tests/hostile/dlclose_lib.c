/* The library of dlclose.c: two marked loops, built with the plugin and
   linked with libcapture_window like any instrumented library. */
#include "cw_test.h"

long lib_run(int n)
{
  long sum = 0;
#pragma capture_window(1, 2, "lib")
  for (int i = 0; i < n; i++) {
    cw_mark("lib", i);
    sum += i;
  }
  return sum;
}

long lib_other(int n)
{
  long sum = 0;
#pragma capture_window(0, 1, "other")
  for (int i = 0; i < n; i++) {
    cw_mark("other", i);
    sum += 2 * i;
  }
  return sum;
}
