/* A marked loop in a library loaded with dlopen(), run, and unloaded with
   dlclose() (issue 7, hostile g); the program then runs its own marked
   loop and exits.

   Outcome: the library's loop behaves like any other while it is loaded
   (window 1:2 of label `lib`). After dlclose() its descriptor is unmapped
   (the program checks /proc/self/maps); the runtime keeps that thread's
   state for the loop but never reads the descriptor again: the exit
   self-check names the loop from a copy of its label, file and line made
   when the state was created. The library is loaded a second time to run
   its other loop: a reloaded library has fresh descriptors, so its loops
   are new loops to the runtime (a loop run again after a reload counts its
   iterations from 0 again and opens its window again). Unloading a
   library while one of its marked loops is running (another thread inside
   it) is not supported. */
// cw-library: dlclose_lib.c
// cw-windows: lib=1:2 other=0:1 step=1:1
// cw-run:
// cw-expect: lib#0(.) S lib[ lib#1..2(.) ] E lib#3(.)
// cw-expect: S other[ other#0(.) ] E other#1..2(.)
// cw-expect: step#0(.) S step[ step#1(.) ] E step#2(.)
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: lib#0(.) S lib[ lib#1..2(.) ] E lib#3(.)
// cw-expect: S other[ other#0(.) ] E other#1..2(.)
// cw-expect: step#0(.) S step[ step#1(.) ] E step#2(.)
// cw-stderr-re: capture_window: loop 'lib' \(\S*dlclose_lib\.c:\d+\) ran 4 iterations; window 1-2\b.*
// cw-stderr-re: capture_window: loop 'other' \(\S*dlclose_lib\.c:\d+\) ran 3 iterations; window 0-0\b.*
// cw-stderr-re: capture_window: loop 'step' \(\S*dlclose\.c:\d+\) ran 3 iterations; window 1-1\b.*
//
// cw-run: CAPTURE_WINDOW=off
// cw-expect: .lib@0..3 .other@0..2 .step@0..2

#include "cw_test.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static int mapped(const char *path)
{
  char line[4096];
  int found = 0;
  FILE *maps = fopen("/proc/self/maps", "r");
  while (maps && fgets(line, sizeof line, maps))
    if (strstr(line, path))
      found = 1;
  if (maps)
    fclose(maps);
  return found;
}

static long load_run_unload(const char *function, int n)
{
  void *lib = dlopen(CW_TEST_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    exit(1);
  }
  /* ISO C converts no object pointer to a function pointer (-pedantic
     says so); POSIX guarantees the bytes are the function's address. */
  void *symbol = dlsym(lib, function);
  long (*run)(int);
  memcpy(&run, &symbol, sizeof run);
  long sum = run(n);
  dlclose(lib);
  printf("%s ran %d iterations, sum %ld, library still mapped: %s\n", function, n, sum,
         mapped(CW_TEST_LIBRARY) ? "yes" : "no");
  return sum;
}

int main(void)
{
  long total = load_run_unload("lib_run", 4) + load_run_unload("lib_other", 3);
#pragma capture_window(1, 1)
  for (int i = 0; i < 3; i++) {
    cw_mark("step", i);
    total += i;
  }
  printf("total %ld\n", total);
  return 0;
}
