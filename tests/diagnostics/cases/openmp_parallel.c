/* Loops spread over threads are refused; omp simd is a plain loop. */
/* { cw-options "-fopenmp" } */
void f(int *a, int n) {
#pragma capture_window(0, 1) /* { cw-error "capture_window cannot mark an OpenMP or OpenACC loop construct" col=9 } */
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = i;
#pragma capture_window(0, 1)
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] = i;
}
