/*
 * recorder_selftest.c - calls NVTX and the CUDA profiler API by hand and
 * states what the recorder must write. No capture-window code is involved:
 * this checks the recorder and the stand-in driver themselves.
 */
// cw-windows: step=1:1 w=0:0
// cw-run: --mode=both
// cw-expect: .hello outer( .^reg-mark reg[ .in-lib ] ex( ) ~wide( .~wmark )
// cw-expect: {dom}dpush( {dom}.dmark ) )
// cw-expect: lib[ .in-lib ]
// cw-expect: step#0(.) S step[ step#1(.) ] E
// cw-thread: w#0..499(.)
// cw-thread: w#0..499(.)
// cw-thread: w#0..499(.)
// cw-thread: w#0..499(.)
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdio.h>
#include <wchar.h>

void selftest_lib_window(const char *label);

static void push_ex(nvtxMessageType_t type, nvtxMessageValue_t value) {
  nvtxEventAttributes_t attr = {0};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.messageType = type;
  attr.message = value;
  nvtxRangePushEx(&attr);
}

static void *worker(void *arg) {
  char text[32];
  (void)arg;
  for (int i = 0; i < 500; i++) {
    snprintf(text, sizeof text, "w#%d", i);
    nvtxRangePushA(text);
    snprintf(text, sizeof text, "w@%d", i);
    nvtxMarkA(text);
    nvtxRangePop();
  }
  return NULL;
}

static int profiler(const char *name) {
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  int (*fn)(void) = cuda ? (int (*)(void))dlsym(cuda, name) : NULL;
  return fn ? fn() : -1;
}

int main(void) {
  nvtxMessageValue_t v;
  nvtxEventAttributes_t mark = {0};
  nvtxDomainHandle_t dom;
  pthread_t threads[4];
  int rc;

  nvtxMarkA("hello");
  nvtxRangePushA("outer");
  mark.version = NVTX_VERSION;
  mark.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  mark.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  mark.message.registered = nvtxDomainRegisterStringA(NULL, "reg-mark");
  nvtxMarkEx(&mark);
  v.registered = nvtxDomainRegisterStringA(NULL, "reg");
  push_ex(NVTX_MESSAGE_TYPE_REGISTERED, v);
  nvtxMarkA("in-lib");
  nvtxRangePop();
  v.ascii = "ex";
  push_ex(NVTX_MESSAGE_TYPE_ASCII, v);
  nvtxRangePop();
  nvtxRangePushW(L"wide");
  nvtxMarkW(L"wmark");
  nvtxRangePop();
  dom = nvtxDomainCreateA("dom");
  {
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "dpush";
    nvtxDomainRangePushEx(dom, &a);
    a.message.ascii = "dmark";
    nvtxDomainMarkEx(dom, &a);
    nvtxDomainRangePop(dom);
  }
  nvtxRangePop();

  selftest_lib_window("lib");

  /* The shape of an instrumented loop: iteration ranges, a window. */
  nvtxRangePushA("step#0");
  nvtxMarkA("step@0");
  nvtxRangePop();
  rc = profiler("cuProfilerStart");
  v.registered = nvtxDomainRegisterStringA(NULL, "step");
  push_ex(NVTX_MESSAGE_TYPE_REGISTERED, v);
  nvtxRangePushA("step#1");
  nvtxMarkA("step@1");
  nvtxRangePop();
  nvtxRangePop();
  rc |= profiler("cuProfilerStop");

  for (int t = 0; t < 4; t++) pthread_create(&threads[t], NULL, worker, NULL);
  for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
  printf("profiler calls returned %d\n", rc);
  return 0;
}
