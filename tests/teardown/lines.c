/* lines.c - verbose lines of some 2,000 bytes each, as a loop in a file
   of a very long path writes them (the #line below), for the pipe test of
   teardown_test.py: CAPTURE_WINDOW=0:1/2 opens and closes a window every
   other iteration, each a line that names the file. lines N [AT]: N
   iterations, from the second AT. */
#include <stdlib.h>
#include <time.h>

/* Sleeps until the CLOCK_REALTIME second AT (the test starts every
   process at once: their lines must meet in the pipe). */
static void start_at(double at) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  double left = at - ((double)now.tv_sec + now.tv_nsec / 1e9);
  if (left <= 0) return;
  struct timespec wait = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
  nanosleep(&wait, NULL);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  if (argc > 2) start_at(atof(argv[2]));
  long sum = 0;
#line 1 "/a_rather_long_folder_name_for_a_verbose_line_00/a_rather_long_folder_name_for_a_verbose_line_01/a_rather_long_folder_name_for_a_verbose_line_02/a_rather_long_folder_name_for_a_verbose_line_03/a_rather_long_folder_name_for_a_verbose_line_04/a_rather_long_folder_name_for_a_verbose_line_05/a_rather_long_folder_name_for_a_verbose_line_06/a_rather_long_folder_name_for_a_verbose_line_07/a_rather_long_folder_name_for_a_verbose_line_08/a_rather_long_folder_name_for_a_verbose_line_09/a_rather_long_folder_name_for_a_verbose_line_10/a_rather_long_folder_name_for_a_verbose_line_11/a_rather_long_folder_name_for_a_verbose_line_12/a_rather_long_folder_name_for_a_verbose_line_13/a_rather_long_folder_name_for_a_verbose_line_14/a_rather_long_folder_name_for_a_verbose_line_15/a_rather_long_folder_name_for_a_verbose_line_16/a_rather_long_folder_name_for_a_verbose_line_17/a_rather_long_folder_name_for_a_verbose_line_18/a_rather_long_folder_name_for_a_verbose_line_19/a_rather_long_folder_name_for_a_verbose_line_20/a_rather_long_folder_name_for_a_verbose_line_21/a_rather_long_folder_name_for_a_verbose_line_22/a_rather_long_folder_name_for_a_verbose_line_23/a_rather_long_folder_name_for_a_verbose_line_24/a_rather_long_folder_name_for_a_verbose_line_25/a_rather_long_folder_name_for_a_verbose_line_26/a_rather_long_folder_name_for_a_verbose_line_27/a_rather_long_folder_name_for_a_verbose_line_28/a_rather_long_folder_name_for_a_verbose_line_29/a_rather_long_folder_name_for_a_verbose_line_30/a_rather_long_folder_name_for_a_verbose_line_31/a_rather_long_folder_name_for_a_verbose_line_32/a_rather_long_folder_name_for_a_verbose_line_33/a_rather_long_folder_name_for_a_verbose_line_34/a_rather_long_folder_name_for_a_verbose_line_35/a_rather_long_folder_name_for_a_verbose_line_36/a_rather_long_folder_name_for_a_verbose_line_37/a_rather_long_folder_name_for_a_verbose_line_38/a_rather_long_folder_name_for_a_verbose_line_39/lines.c"
#pragma capture_window(0, 1)
  for (int i = 0; i < n; i++) sum += i;
  return sum == (long)n * (n - 1) / 2 ? 0 : 1;
}
