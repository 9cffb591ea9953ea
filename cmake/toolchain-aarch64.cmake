# Cross-building for aarch64 (Grace hosts) on Debian x86-64 with
# gcc-12-aarch64-linux-gnu and g++-12-aarch64-linux-gnu; the tests run the
# programs under qemu-user with the aarch64 sysroot (docs/compilers.md).
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CW_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc-12)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++-12)
# The test programs' runner (tests/tools/CwProgramTests.cmake); not
# CMAKE_CROSSCOMPILING_EMULATOR, which CMake would also put before the
# host's python3 in every test.
set(CW_TEST_EMULATOR qemu-aarch64 -L ${CW_AARCH64_SYSROOT})
# Libraries from the sysroot; headers also from the host's CUDA toolkit
# (NVTX3 is header-only and the same for every target).
set(CMAKE_FIND_ROOT_PATH ${CW_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
