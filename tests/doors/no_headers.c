/* no_headers.c - a marked loop that needs no system header, compiled to
 * assembly only: for targets this machine has no C library for (-m32,
 * -mx32), where the plugin must emit the portable form (no door) instead
 * of failing. */
int main(void)
{
  int sum = 0;
#pragma capture_window(1, 2)
  for (int i = 0; i < 4; i++)
    sum += i;
  return sum != 6;
}
