/* live_registers.c - values held in registers across every iteration of
 * a marked loop, under an NVTX tool that overwrites every scratch register
 * on each push and pop (tests/recorder): each iteration reaches the
 * runtime, and whatever the emission keeps across it must survive. The
 * body calls nothing, so without the plugin GCC keeps its values in
 * registers (on x86-64 a long double in an x87 register too); the output
 * must be the plain build's (tests/hostile/emission_test.py).
 * -DCW_TARGET_ATTRIBUTE gives the function an instruction set of its own
 * (GCC compiles it under other target options than the unit's).
 */
#include <stdio.h>

#if defined(__AVX512F__)
typedef double vec __attribute__((vector_size(64)));
enum { NVEC = 26 };
#elif defined(__AVX__)
typedef double vec __attribute__((vector_size(32)));
enum { NVEC = 12 };
#else
typedef double vec __attribute__((vector_size(16)));
enum { NVEC = 12 };
#endif
enum { NINT = 10, NDBL = 3 };

#if defined(CW_TARGET_ATTRIBUTE) && defined(__x86_64__)
__attribute__((target("arch=x86-64-v2")))
#elif defined(CW_TARGET_ATTRIBUTE) && defined(__aarch64__)
__attribute__((target("arch=armv8-a")))
#endif
__attribute__((noinline)) static void churn(long n, long *ints, double *dbls, vec *vecs,
                                             long double *ld)
{
#define INTS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9)
#define LOAD_INT(k) long i##k = ints[k];
#define STORE_INT(k) ints[k] = i##k;
  INTS(LOAD_INT)
  double d0 = dbls[0], d1 = dbls[1], d2 = dbls[2];
  long double x = *ld;
  vec v[NVEC];
  for (int k = 0; k < NVEC; k++)
    v[k] = vecs[k];
#pragma capture_window(3, 2)
  for (long s = 0; s < n; s++) {
    i0 += s; i1 ^= i0 << 1; i2 += i1 >> 2; i3 -= i2; i4 ^= i3 + 7;
    i5 += i4 * 3; i6 ^= i5 >> 1; i7 += i6; i8 -= i7 ^ s; i9 += i8 | 1;
    d0 = d0 * 1.5 + 0.25; d1 = d1 * 0.75 + d0; d2 += d1 * 0.5;
    x = x * 1.0001L + (long double)s;
#pragma GCC unroll 32
    for (int k = 0; k < NVEC; k++)
      v[k] = v[k] * 1.25 + v[(k + 1) % NVEC];
  }
  INTS(STORE_INT)
  dbls[0] = d0, dbls[1] = d1, dbls[2] = d2;
  *ld = x;
  for (int k = 0; k < NVEC; k++)
    vecs[k] = v[k];
}

int main(void)
{
  long ints[NINT];
  double dbls[NDBL], sum = 0;
  long double ld = 1.0L / 3;
  vec vecs[NVEC];
  for (int k = 0; k < NINT; k++)
    ints[k] = 1000 + 17 * k;
  for (int k = 0; k < NDBL; k++)
    dbls[k] = 1.0 / (k + 1);
  for (int k = 0; k < NVEC; k++)
    for (unsigned j = 0; j < sizeof(vec) / sizeof(double); j++)
      vecs[k][j] = k + j / 8.0;
  churn(8, ints, dbls, vecs, &ld);
  for (int k = 0; k < NINT; k++)
    printf("i%d %ld\n", k, ints[k]);
  for (int k = 0; k < NDBL; k++)
    printf("d%d %.17g\n", k, dbls[k]);
  for (int k = 0; k < NVEC; k++)
    for (unsigned j = 0; j < sizeof(vec) / sizeof(double); j++)
      sum += vecs[k][j] * (k + 1) * (j + 1);
  printf("vectors %.17g\n", sum);
  printf("long double %.21Lg\n", ld);
  return 0;
}
