/* Recursion that re-enters the same marked loop from its own body
   (issue 7, hostile e).

   walk(d) runs a marked loop of 2 iterations whose body calls walk(d + 1)
   down to depth 2: 2 + 4 + 8 = 14 iterations, counted per thread and loop
   in the order they begin (the program's own counter does the same).

   Window 1:2: it opens in iteration 1 (walk(1)); its last iteration, 2,
   runs one level down, inside iteration 1's body, where the window range
   cannot be popped (the range of iteration 1 is still open above it), and
   walk(2) goes on to iteration 3. Outcome: the window range is popped at
   the nesting level that pushed it, at the first end there after its last
   iteration began - the end of iteration 1 - so it holds iterations 1-3,
   and iteration 4, back at that level, is outside it.

   Window 2:4 (second run): it opens in iteration 2, inside walk(2), which
   returns after iteration 3: the window was opened by that entry of the
   loop, so leaving it closes the window early (held 2-3), as for any loop
   left with a window open, and iterations 4 and 5 are outside it.

   No range is left open and the nesting is exact in both. */
// cw-run:
// cw-expect: step#0( . S step[ step#1( . step#2(.) step#3(.) ) ] E
// cw-expect:            step#4( . step#5(.) step#6(.) ) )
// cw-expect: step#7( . step#8( . step#9(.) step#10(.) ) step#11( . step#12(.) step#13(.) ) )
//
// cw-run: CAPTURE_WINDOW=2:4
// cw-expect: step#0( . step#1( . S step[ step#2(.) step#3(.) ] E ) step#4( . step#5(.) step#6(.) ) )
// cw-expect: step#7( . step#8( . step#9(.) step#10(.) ) step#11( . step#12(.) step#13(.) ) )
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_SELFCHECK=0
// cw-expect: step#0( . S step[ step#1( . step#2(.) step#3(.) ) ] E
// cw-expect:            step#4( . step#5(.) step#6(.) ) )
// cw-expect: step#7( . step#8( . step#9(.) step#10(.) ) step#11( . step#12(.) step#13(.) ) )
// cw-stderr-re: capture_window: loop 'step' \(\S*recursion\.c:\d+, walk\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'step' .* iteration 1, window 1:2, thread \d+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'step' .* held iterations 1-3, thread \d+
#include "cw_test.h"

static long counter;

static long walk(int depth)
{
  long s = 0;
#pragma capture_window(1, 2)
  for (int i = 0; i < 2; i++) {
    cw_mark("step", counter++);
    s += depth;
    if (depth < 2)
      s += walk(depth + 1);
  }
  return s;
}

int main(void)
{
  long s = walk(0);
  printf("sum %ld over %ld iterations\n", s, counter);
  return 0;
}
