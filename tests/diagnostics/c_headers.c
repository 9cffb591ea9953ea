/* The public headers on their own, for diagnostics.c_standards: the ABI
   header a front door's output calls through, and the annotations. */
#include <capture_window/abi.h>
#include <capture_window.h>

int main(void)
{
  struct cw_site_v2 site = {CW_ABI_VERSION, 1, "f.c", "main", "step", 0, 1, {0}};
  long sum = 0;
  CAPTURE_WINDOW(0, 1)
  for (int i = 0; i < 3; i++)
    sum += i;
  CAPTURE_WINDOW_LABEL(1, 1, "eval")
  while (sum > 0)
    sum--;
  return (int) sum + (int) (site.abi_version - CW_ABI_VERSION);
}
