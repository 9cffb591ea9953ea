/* no_headers.c - a marked loop that needs no system header, compiled to
 * assembly only: for targets this machine has no C library for (-m32,
 * -mx32), whose pointers are not the plugin's own size (abi.h's records
 * are laid out for the target, not checked against the plugin's). */
int main(void)
{
  int sum = 0;
#pragma capture_window(1, 2)
  for (int i = 0; i < 4; i++)
    sum += i;
  return sum != 6;
}
