/*
 * nvtx.c - the NVTX3 events of contract section 3, all in the default domain.
 *
 * The only file that includes NVTX, so the header-only NVTX3 keeps a single
 * lazy initialization in the library. Callers check cw_config.nvtx_tool
 * first: with no tool attached nothing here runs, not even formatting.
 */
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#include "internal.h"

/* nsys -c nvtx -p LABEL triggers only on a registered string of the default
   domain (NULL), so the window range uses one. */
void *cw_nvtx_register(const char *label) {
  return nvtxDomainRegisterStringA(NULL, label);
}

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

void cw_nvtx_pop(void) {
  nvtxRangePop();
}
