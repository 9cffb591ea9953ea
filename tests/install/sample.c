/* install.pkg_config builds this with each compiler and the pkg-config
   module for it: as C (gcc, clang), C++ (g++, clang++) and CUDA (nvcc). */
#include <stdio.h>

#ifdef __CUDACC__
__global__ void unused_kernel(void) {}
#endif

int main(void)
{
  double x = 1.0;
#pragma capture_window(2, 2)
  for (int step = 0; step < 6; step++)
    x *= 1.5;
  printf("%.4f\n", x);
  return 0;
}
