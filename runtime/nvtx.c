/*
 * nvtx.c - the NVTX3 events of contract section 3, all in the default domain,
 * the mark of a window aimed at a periodic event (docs/nsys.md), and
 * whether the NVTX tool attached is Nsight Compute.
 *
 * The only file that includes NVTX, so the header-only NVTX3 keeps a single
 * lazy initialization in the library. Callers check cw_config.nvtx_tool
 * first: with no tool attached nothing here runs, not even formatting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#include "internal.h"

/* nsys -c nvtx -p LABEL triggers only on a registered string of the default
   domain (NULL), so the window range uses one. */
void *cw_nvtx_register(const char *label) { return nvtxDomainRegisterStringA(NULL, label); }

/* Writes "LABEL#INDEX" without printf: this runs every iteration. */
static void format_iteration(char *out, const char *label, long long index) {
  char digits[24];
  int n = 0;
  size_t len = strlen(label);
  do {
    digits[n++] = (char)('0' + index % 10);
    index /= 10;
  } while (index > 0);
  memcpy(out, label, len);
  out[len++] = '#';
  while (n > 0) out[len++] = digits[--n];
  out[len] = '\0';
}

void cw_nvtx_push_iteration(const char *label, long long index) {
  char message[CW_LABEL_MAX + 24];
  format_iteration(message, label, index);
  nvtxRangePushA(message);
}

void cw_nvtx_push_window(void *registered_label) {
  nvtxEventAttributes_t attr;
  memset(&attr, 0, sizeof attr);
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attr.message.registered = (nvtxStringHandle_t)registered_label;
  nvtxDomainRangePushEx(NULL, &attr);
}

/* What a window is for, as the window range's first event (docs/nsys.md,
   "A window's purpose"): `LABEL:aimed-every-N` for a window aimed at an
   event every N steps (a periodic window, spike's). `capture-window check`
   reads it; the range itself stays the bare label that -p LABEL matches. */
void cw_nvtx_mark_aim(const char *label, long long every) {
  char message[CW_LABEL_MAX + 48];
  snprintf(message, sizeof message, "%s:aimed-every-%lld", label, every);
  nvtxMarkA(message);
}

/* Nsight Compute runs the program: ncu puts the folder of its target
   libraries in NV_COMPUTE_PROFILER_PERFWORKS_DIR (seen with ncu 2025.3.1 on
   the H200). Not the injection paths: nsys, shipped inside the Nsight
   Compute install, injects from there too, and must not count. */
bool cw_nsight_compute_attached(void) {
  const char *dir = getenv("NV_COMPUTE_PROFILER_PERFWORKS_DIR");
  return dir && *dir;
}

void cw_nvtx_pop(void) { nvtxRangePop(); }
