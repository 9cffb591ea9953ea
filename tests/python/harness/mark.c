/* The test scripts' own account of their iterations (cw_test.h's cw_mark
   for Python, through ctypes): the NVTX mark LABEL@i, which the checker
   requires directly inside the runtime's range LABEL#i. */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

__attribute__((visibility("default"))) void cw_py_mark(const char *label, long i) {
  char text[96];
  snprintf(text, sizeof text, "%s@%ld", label, i);
  nvtxMarkA(text);
}
