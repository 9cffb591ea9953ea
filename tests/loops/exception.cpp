// A C++ exception leaves the body inside the window; it is caught outside
// the loop, and the iteration and the window end on the way out.
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
#include "cw_test.h"
#include <stdexcept>

static int parse(int i)
{
  if (i == 3)
    throw std::runtime_error("bad record 3");
  return i * 10;
}

int main()
{
  int sum = 0;
  try {
#pragma capture_window(2, 3)
    for (int i = 0; i < 6; i++) {
      cw_mark("step", i);
      sum += parse(i);
    }
  } catch (const std::exception &e) {
    printf("caught: %s\n", e.what());
  }
  printf("sum %d\n", sum);
  return 0;
}
