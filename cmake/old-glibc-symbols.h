/* old-glibc-symbols.h - forced into every C file of the release wheels'
   runtime (scripts/release-wheels.sh: -include), so that the library
   binds libm's oldest versions of the functions whose default version is
   newer than glibc 2.17: exp and log (GLIBC_2.29, faster versions without
   the SVID error handling) and lgamma (GLIBC_2.23, which sets the ISO C
   signgam). They compute the same values, and the runtime reads no errno
   or signgam after them. Then the newest GLIBC_ version the library needs
   is 2.17 (clock_gettime), and its wheels are manylinux_2_17
   (manylinux2014): they install where PyTorch's wheels do, RHEL 8 (glibc
   2.28) too. x86_64's first versions are GLIBC_2.2.5, aarch64's
   GLIBC_2.17. */
#if defined(__x86_64__)
#define CW_OLD_GLIBC "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define CW_OLD_GLIBC "GLIBC_2.17"
#else
#error "old-glibc-symbols.h: the release wheels are x86_64 and aarch64"
#endif
__asm__(".symver exp,exp@" CW_OLD_GLIBC);
__asm__(".symver log,log@" CW_OLD_GLIBC);
__asm__(".symver lgamma,lgamma@" CW_OLD_GLIBC);
