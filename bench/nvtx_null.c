/*
 * nvtx_null.c - libcw_nvtx_null.so, an NVTX injection library that does
 * nothing: every callback returns at once.
 *
 * Attached with NVTX_INJECTION64_PATH, it makes NVTX calls cost what they
 * cost under a tool, minus the tool's own work: the call through NVTX's
 * function table and the argument set-up (for capture-window, the "L#i"
 * formatting). The benchmark uses it to compare the marked loop with the
 * hand-written one under the same, cheapest possible tool. Nsight Systems
 * adds its own per-event cost on top of both.
 */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <stddef.h>

#define CW_EXPORT __attribute__((visibility("default")))

/* Registered strings need a handle that is not NULL; one for all. */
static char any_string;

static int NVTX_API push_ascii(const char *message) {
  (void)message;
  return 0;
}
static int NVTX_API push_ex(const nvtxEventAttributes_t *attr) {
  (void)attr;
  return 0;
}
static int NVTX_API pop(void) { return 0; }
static int NVTX_API domain_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attr) {
  (void)domain;
  (void)attr;
  return 0;
}
static int NVTX_API domain_pop(nvtxDomainHandle_t domain) {
  (void)domain;
  return 0;
}
static nvtxStringHandle_t NVTX_API register_string(nvtxDomainHandle_t domain, const char *text) {
  (void)domain;
  (void)text;
  return (nvtxStringHandle_t)&any_string;
}

struct hook {
  unsigned int id;
  NvtxFunctionPointer fn;
};

#define HOOK(id, fn)                                                                               \
  { id, (NvtxFunctionPointer)(fn) }

static const struct hook core_hooks[] = {
    HOOK(NVTX_CBID_CORE_RangePushA, push_ascii),
    HOOK(NVTX_CBID_CORE_RangePushEx, push_ex),
    HOOK(NVTX_CBID_CORE_RangePop, pop),
};

static const struct hook core2_hooks[] = {
    HOOK(NVTX_CBID_CORE2_DomainRangePushEx, domain_push_ex),
    HOOK(NVTX_CBID_CORE2_DomainRangePop, domain_pop),
    HOOK(NVTX_CBID_CORE2_DomainRegisterStringA, register_string),
};

static int attach(const NvtxExportTableCallbacks *etbl, NvtxCallbackModule module,
                  const struct hook *hooks, size_t n) {
  NvtxFunctionTable table = NULL;
  unsigned int size = 0;
  if (!etbl->GetModuleFunctionTable(module, &table, &size) || !table) return 0;
  for (size_t i = 0; i < n; i++)
    if (hooks[i].id <= size && table[hooks[i].id]) *table[hooks[i].id] = hooks[i].fn;
  return 1;
}

CW_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const NvtxExportTableCallbacks *etbl =
      (const NvtxExportTableCallbacks *)get_export_table(NVTX_ETID_CALLBACKS);
  if (!etbl || etbl->struct_size < sizeof *etbl) return 0;
  return attach(etbl, NVTX_CB_MODULE_CORE, core_hooks, sizeof core_hooks / sizeof core_hooks[0]) &&
         attach(etbl, NVTX_CB_MODULE_CORE2, core2_hooks,
                sizeof core2_hooks / sizeof core2_hooks[0]);
}
