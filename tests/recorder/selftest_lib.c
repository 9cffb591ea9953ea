/* selftest_lib.c - a second shared object with its own NVTX instance, as
   libcapture_window has: the recorder must attach to both. */
#include <nvtx3/nvToolsExt.h>

void selftest_lib_window(const char *label) {
  nvtxEventAttributes_t attr = {0};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attr.message.registered = nvtxDomainRegisterStringA(NULL, label);
  nvtxDomainRangePushEx(NULL, &attr);
  nvtxMarkA("in-lib");
  nvtxDomainRangePop(NULL);
}
