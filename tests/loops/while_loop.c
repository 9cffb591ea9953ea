/* A while loop with a label; the window ends on the last iteration. */
// cw-run:
// cw-expect: batch#0..1(.) S batch[ batch#2..4(.) ] E
#include "cw_test.h"

static int next_batch(int *cursor, const int *data, int n, int *out)
{
  if (*cursor >= n)
    return 0;
  *out = data[(*cursor)++];
  return 1;
}

int main(void)
{
  static const int data[] = {3, 1, 4, 1, 5};
  int cursor = 0, b, seen = 0;
  long total = 0;
#pragma capture_window(2, 3, "batch")
  while (next_batch(&cursor, data, 5, &b)) {
    cw_mark("batch", seen++);
    total += b;
  }
  printf("batches %d total %ld\n", seen, total);
  return 0;
}
