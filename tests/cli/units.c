/* units.c - prints each duration (in ns) given on the command line as the
   runtime writes it (runtime/stats.c cw_format_duration), one per line, for
   units_test.py to compare with the CLI's common.duration. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

int main(int argc, char **argv) {
  for (int k = 1; k < argc; k++) {
    char text[CW_DURATION_MAX];
    cw_format_duration(text, sizeof text, strtod(argv[k], NULL));
    puts(text);
  }
  return 0;
}
