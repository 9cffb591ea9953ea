// A C++ range-for; the window covers the last two iterations but one.
// cw-run:
// cw-expect: step#0..2(.) S step[ step#3..4(.) ] E step#5(.)
#include "cw_test.h"
#include <string>
#include <vector>

int main()
{
  std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "eps", "zeta"};
  std::string joined;
  long i = 0;
#pragma capture_window(3, 2)
  for (const auto &w : words) {
    cw_mark("step", i++);
    joined += w.substr(0, 2);
  }
  printf("%s\n", joined.c_str());
  return 0;
}
