/*
 * cuda13_glibc242.h - lets CUDA 13.0's nvcc compile host code against
 * glibc 2.42 (Debian sid, docs/compilers.md), with any host compiler:
 * glibc 2.42 declares C23's rsqrt and rsqrtf noexcept in C++, which CUDA
 * 13.0's crt/math_functions.h declares without, and nvcc stops at
 * "exception specification is incompatible".  Included first in nvcc's
 * host passes (-Xcompiler=-include,PATH), it drops glibc's noexcept
 * (__THROW) from every declaration after it, so both agree.  Calls are
 * unchanged; a C library function does not throw either way.
 */
#include <sys/cdefs.h>
#undef __THROW
#define __THROW
