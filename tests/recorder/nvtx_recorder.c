/*
 * nvtx_recorder.c - libcw_nvtx_recorder.so, an NVTX injection library that
 * writes every event to the file named by $CW_RECORD.
 *
 * It attaches through the same door Nsight Systems uses: the program (or a
 * library in it) calls NVTX, NVTX sees NVTX_INJECTION64_PATH, loads this
 * library and calls InitializeInjectionNvtx2, which fills the core and
 * domain callback tables (NVTX_CB_MODULE_CORE and NVTX_CB_MODULE_CORE2).
 * Every shared object that compiles NVTX3 in has its own NVTX instance,
 * so the entry point runs once per instance; the handles and the log
 * are shared by all of them.
 *
 * One line per event (see record_line.h for the "T<tid> " prefix):
 *
 *   push ascii TEXT          nvtxRangePushA, *PushEx with an ASCII message
 *   push registered TEXT     *PushEx with a registered string (its text)
 *   push unicode TEXT        wide message, non-ASCII characters as '?'
 *   push none                *PushEx without a message
 *   pop                      nvtxRangePop, nvtxDomainRangePop
 *   mark KIND TEXT           nvtxMarkA, nvtxMarkEx, nvtxDomainMarkEx
 *   rangestart#ID KIND TEXT  nvtxRangeStart*, nvtxDomainRangeStartEx
 *   rangeend#ID              nvtxRangeEnd, nvtxDomainRangeEnd
 *   register TEXT            nvtxDomainRegisterString*
 *   domain NAME              nvtxDomainCreate*
 *
 * An event of a domain other than the default one names it after the verb,
 * as in `push@NAME registered TEXT`; a registered message whose handle this
 * library never returned prints as `?0x...`. Newlines in texts print as
 * "\n", and characters outside [A-Za-z0-9_.:-] in domain names as %XX.
 */
#define NVTX_NO_IMPL
#include <errno.h>
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "record_line.h"

#define CW_EXPORT __attribute__((visibility("default")))

/* ---- handles: registered strings and domains ------------------------ */

/* A registered string or a domain. The handle given to NVTX is the
   address of the entry; entries live until the process ends. */
struct named {
  struct named *next;
  const struct named *domain; /* for strings: owning domain, NULL = default */
  char text[];
};

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct named *strings, *domains;

/* Find (domain, text) in *list or add it; one handle per distinct text. */
static struct named *intern(struct named **list, const struct named *domain, const char *text) {
  struct named *n;
  pthread_mutex_lock(&handles_lock);
  for (n = *list; n; n = n->next)
    if (n->domain == domain && strcmp(n->text, text) == 0) break;
  if (!n) {
    size_t len = strlen(text);
    n = malloc(sizeof *n + len + 1);
    if (n) {
      n->domain = domain;
      memcpy(n->text, text, len + 1);
      n->next = *list;
      *list = n;
    }
  }
  pthread_mutex_unlock(&handles_lock);
  return n;
}

/* The entry behind a handle, or NULL if this library never returned it. */
static const struct named *lookup(struct named *const *list, const void *handle) {
  const struct named *n;
  pthread_mutex_lock(&handles_lock);
  for (n = *list; n && (const void *)n != handle; n = n->next)
    ;
  pthread_mutex_unlock(&handles_lock);
  return n;
}

/* ---- formatting ------------------------------------------------------ */

enum { TEXT_MAX = 1024 };

/* Copy an ASCII text, escaping newlines and backslashes. */
static void copy_ascii(char *out, const char *in) {
  size_t o = 0;
  if (!in) in = "(null)";
  for (; *in && o < TEXT_MAX - 3; in++) {
    if (*in == '\n' || *in == '\\') {
      out[o++] = '\\';
      out[o++] = *in == '\n' ? 'n' : '\\';
    } else {
      out[o++] = *in;
    }
  }
  out[o] = '\0';
}

static void copy_wide(char *out, const wchar_t *in) {
  char narrow[TEXT_MAX];
  size_t o = 0;
  for (; in && *in && o < TEXT_MAX - 1; in++)
    narrow[o++] = (*in > 0 && *in < 128) ? (char)*in : '?';
  narrow[o] = '\0';
  copy_ascii(out, in ? narrow : NULL);
}

/* "@NAME" for a domain other than the default one, "" for the default. */
static void domain_suffix(char *out, size_t size, nvtxDomainHandle_t domain) {
  static const char hex[] = "0123456789ABCDEF";
  const struct named *d;
  const char *s;
  size_t o = 0;

  out[0] = '\0';
  if (!domain) return;
  d = lookup(&domains, domain);
  if (!d) {
    snprintf(out, size, "@?%p", (void *)domain);
    return;
  }
  out[o++] = '@';
  for (s = d->text; *s && o < size - 4; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
        c == '.' || c == ':' || c == '-') {
      out[o++] = (char)c;
    } else {
      out[o++] = '%';
      out[o++] = hex[c >> 4];
      out[o++] = hex[c & 15];
    }
  }
  out[o] = '\0';
}

/* "KIND TEXT" for the message of an event's attributes. */
static void describe_message(char *out, const nvtxEventAttributes_t *attr) {
  char text[TEXT_MAX];
  const struct named *s;

  if (!attr) {
    strcpy(out, "none");
    return;
  }
  switch (attr->messageType) {
  case NVTX_MESSAGE_TYPE_ASCII:
    copy_ascii(text, attr->message.ascii);
    snprintf(out, TEXT_MAX + 16, "ascii %s", text);
    break;
  case NVTX_MESSAGE_TYPE_UNICODE:
    copy_wide(text, attr->message.unicode);
    snprintf(out, TEXT_MAX + 16, "unicode %s", text);
    break;
  case NVTX_MESSAGE_TYPE_REGISTERED:
    s = lookup(&strings, attr->message.registered);
    if (s) {
      copy_ascii(text, s->text);
      snprintf(out, TEXT_MAX + 16, "registered %s", text);
    } else {
      snprintf(out, TEXT_MAX + 16, "registered ?%p", (void *)attr->message.registered);
    }
    break;
  default:
    strcpy(out, "none");
    break;
  }
}

/* ---- per-thread nesting, for the values push and pop return ----------- */

static __thread int push_depth;

/* ---- scratch registers ------------------------------------------------ */

/* A tool may use every register the calling convention lets a callee
   clobber, and change errno; this one does both on every push and pop
   (act_as_any_callee), so that instrumented code that kept a value there
   across the runtime fails its test (tests/hostile/emission_test.py;
   the runtime's hooks restore errno). */
#if defined(__x86_64__)
#define CW_SCRAMBLE_GPRS                                                                           \
  "movq $-1, %%rax\n\tmovq $-1, %%rcx\n\tmovq $-1, %%rdx\n\tmovq $-1, %%rsi\n\t"                   \
  "movq $-1, %%rdi\n\tmovq $-1, %%r8\n\tmovq $-1, %%r9\n\tmovq $-1, %%r10\n\t"                     \
  "movq $-1, %%r11\n\t"
#define CW_GPRS "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "cc"
#define CW_XMM0_15                                                                                 \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",         \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

__attribute__((target("avx512f"))) static void scramble_avx512(void) {
  __asm__ volatile(
      CW_SCRAMBLE_GPRS
      ".irp r, "
      "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n\t"
      "vpternlogd $0xff, %%zmm\\r, %%zmm\\r, %%zmm\\r\n\t"
      ".endr\n\t"
      "kxnorw %%k0, %%k0, %%k1\n\tkxnorw %%k0, %%k0, %%k2\n\tkxnorw %%k0, %%k0, %%k7" ::
          : CW_GPRS, CW_XMM0_15, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",
            "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k1",
            "k2", "k7");
}

__attribute__((target("avx"))) static void scramble_avx(void) {
  __asm__ volatile(CW_SCRAMBLE_GPRS ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n\t"
                                    "vcmptrueps %%ymm\\r, %%ymm\\r, %%ymm\\r\n\t"
                                    ".endr" ::
                                        : CW_GPRS, CW_XMM0_15);
}

static void scramble_sse(void) {
  __asm__ volatile(CW_SCRAMBLE_GPRS ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n\t"
                                    "pcmpeqd %%xmm\\r, %%xmm\\r\n\t"
                                    ".endr" ::
                                        : CW_GPRS, CW_XMM0_15);
}

/* Eight pushes fill the x87 stack: values a caller left there (the ABI
   wants it empty at a call) are overwritten; the pops leave it as it was
   found. */
static void scramble_x87(void) {
  __asm__ volatile(".rept 8\n\tfld1\n\t.endr\n\t"
                   ".rept 8\n\tfstp %%st(0)\n\t.endr" ::
                       : "st");
}

static void scramble_scratch_registers(void) {
  scramble_x87();
  if (__builtin_cpu_supports("avx512f"))
    scramble_avx512();
  else if (__builtin_cpu_supports("avx"))
    scramble_avx();
  else
    scramble_sse();
}
#elif defined(__aarch64__)
/* AAPCS64: x0-x17, v0-v7 and v16-v31 are the callee's (x18 is the
   platform's; v8-v15 keep their lower halves: left alone). */
static void scramble_scratch_registers(void) {
  __asm__ volatile(".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n\t"
                   "mov x\\r, #-1\n\t"
                   ".endr\n\t"
                   ".irp r, 0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n\t"
                   "movi v\\r\\().2d, #0xffffffffffffffff\n\t"
                   ".endr\n\t"
                   "cmn x0, #1" /* the flags */
                   ::
                       : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
                         "x12", "x13", "x14", "x15", "x16", "x17", "v0", "v1", "v2", "v3", "v4",
                         "v5", "v6", "v7", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
                         "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "cc");
}
#else
static void scramble_scratch_registers(void) {}
#endif

static void act_as_any_callee(void) {
  errno = EDOM; /* any C function may change errno, even when it succeeds */
  scramble_scratch_registers();
}

/* ---- the callbacks ---------------------------------------------------- */

static void record_event(const char *verb, nvtxDomainHandle_t domain,
                         const nvtxEventAttributes_t *attr) {
  char where[256], what[TEXT_MAX + 16];
  domain_suffix(where, sizeof where, domain);
  describe_message(what, attr);
  cw_record_line("%s%s %s", verb, where, what);
}

static void record_ascii(const char *verb, const char *message) {
  char text[TEXT_MAX];
  copy_ascii(text, message);
  cw_record_line("%s ascii %s", verb, text);
}

static void record_wide(const char *verb, const wchar_t *message) {
  char text[TEXT_MAX];
  copy_wide(text, message);
  cw_record_line("%s unicode %s", verb, text);
}

static int record_push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attr) {
  record_event("push", domain, attr);
  act_as_any_callee();
  return push_depth++;
}

static int record_pop(nvtxDomainHandle_t domain) {
  char where[256];
  domain_suffix(where, sizeof where, domain);
  cw_record_line("pop%s", where);
  act_as_any_callee();
  if (push_depth == 0) return -1;
  return --push_depth;
}

static uint64_t next_range_id(void) {
  static uint64_t last;
  return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

static nvtxRangeId_t record_range_start(nvtxDomainHandle_t domain,
                                        const nvtxEventAttributes_t *attr) {
  char verb[64];
  nvtxRangeId_t id = next_range_id();
  snprintf(verb, sizeof verb, "rangestart#%llu", (unsigned long long)id);
  record_event(verb, domain, attr);
  return id;
}

static void record_range_end(nvtxDomainHandle_t domain, nvtxRangeId_t id) {
  char where[256];
  domain_suffix(where, sizeof where, domain);
  cw_record_line("rangeend%s#%llu", where, (unsigned long long)id);
}

/* Core module: the functions without a domain argument. */
static void NVTX_API cb_MarkEx(const nvtxEventAttributes_t *a) { record_event("mark", NULL, a); }
static void NVTX_API cb_MarkA(const char *m) { record_ascii("mark", m); }
static void NVTX_API cb_MarkW(const wchar_t *m) { record_wide("mark", m); }
static int NVTX_API cb_RangePushEx(const nvtxEventAttributes_t *a) { return record_push(NULL, a); }
static int NVTX_API cb_RangePushA(const char *m) {
  record_ascii("push", m);
  act_as_any_callee();
  return push_depth++;
}
static int NVTX_API cb_RangePushW(const wchar_t *m) {
  record_wide("push", m);
  return push_depth++;
}
static int NVTX_API cb_RangePop(void) { return record_pop(NULL); }
static nvtxRangeId_t NVTX_API cb_RangeStartEx(const nvtxEventAttributes_t *a) {
  return record_range_start(NULL, a);
}
static void NVTX_API cb_RangeEnd(nvtxRangeId_t id) { record_range_end(NULL, id); }

static nvtxRangeId_t NVTX_API cb_RangeStartA(const char *m) {
  nvtxEventAttributes_t a = {0};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = m;
  return record_range_start(NULL, &a);
}

static nvtxRangeId_t NVTX_API cb_RangeStartW(const wchar_t *m) {
  nvtxEventAttributes_t a = {0};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_UNICODE;
  a.message.unicode = m;
  return record_range_start(NULL, &a);
}

/* Core2 module: the domain functions; a NULL domain is the default one. */
static void NVTX_API cb_DomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  record_event("mark", d, a);
}
static int NVTX_API cb_DomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  return record_push(d, a);
}
static int NVTX_API cb_DomainRangePop(nvtxDomainHandle_t d) { return record_pop(d); }
static nvtxRangeId_t NVTX_API cb_DomainRangeStartEx(nvtxDomainHandle_t d,
                                                    const nvtxEventAttributes_t *a) {
  return record_range_start(d, a);
}
static void NVTX_API cb_DomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) {
  record_range_end(d, id);
}

static nvtxStringHandle_t register_string(nvtxDomainHandle_t domain, const char *text) {
  char where[256], shown[TEXT_MAX];
  struct named *s = intern(&strings, (const struct named *)domain, text ? text : "");
  domain_suffix(where, sizeof where, domain);
  copy_ascii(shown, text);
  cw_record_line("register%s %s", where, shown);
  return (nvtxStringHandle_t)s;
}

static nvtxStringHandle_t NVTX_API cb_DomainRegisterStringA(nvtxDomainHandle_t d, const char *s) {
  return register_string(d, s);
}

static nvtxStringHandle_t NVTX_API cb_DomainRegisterStringW(nvtxDomainHandle_t d,
                                                            const wchar_t *s) {
  char narrow[TEXT_MAX];
  size_t o = 0;
  for (; s && *s && o < TEXT_MAX - 1; s++) narrow[o++] = (*s > 0 && *s < 128) ? (char)*s : '?';
  narrow[o] = '\0';
  return register_string(d, narrow);
}

static nvtxDomainHandle_t create_domain(const char *name) {
  char where[256];
  struct named *d = intern(&domains, NULL, name ? name : "");
  domain_suffix(where, sizeof where, (nvtxDomainHandle_t)d);
  cw_record_line("domain %s", where + 1);
  return (nvtxDomainHandle_t)d;
}

static nvtxDomainHandle_t NVTX_API cb_DomainCreateA(const char *name) {
  return create_domain(name);
}

static nvtxDomainHandle_t NVTX_API cb_DomainCreateW(const wchar_t *name) {
  char narrow[TEXT_MAX];
  size_t o = 0;
  for (; name && *name && o < TEXT_MAX - 1; name++)
    narrow[o++] = (*name > 0 && *name < 128) ? (char)*name : '?';
  narrow[o] = '\0';
  return create_domain(narrow);
}

static void NVTX_API cb_DomainDestroy(nvtxDomainHandle_t d) { (void)d; }

/* ---- attaching -------------------------------------------------------- */

struct hook {
  unsigned int id;
  NvtxFunctionPointer fn;
};

#define HOOK(id, fn)                                                                               \
  { id, (NvtxFunctionPointer)(fn) }

static const struct hook core_hooks[] = {
    HOOK(NVTX_CBID_CORE_MarkEx, cb_MarkEx),
    HOOK(NVTX_CBID_CORE_MarkA, cb_MarkA),
    HOOK(NVTX_CBID_CORE_MarkW, cb_MarkW),
    HOOK(NVTX_CBID_CORE_RangeStartEx, cb_RangeStartEx),
    HOOK(NVTX_CBID_CORE_RangeStartA, cb_RangeStartA),
    HOOK(NVTX_CBID_CORE_RangeStartW, cb_RangeStartW),
    HOOK(NVTX_CBID_CORE_RangeEnd, cb_RangeEnd),
    HOOK(NVTX_CBID_CORE_RangePushEx, cb_RangePushEx),
    HOOK(NVTX_CBID_CORE_RangePushA, cb_RangePushA),
    HOOK(NVTX_CBID_CORE_RangePushW, cb_RangePushW),
    HOOK(NVTX_CBID_CORE_RangePop, cb_RangePop),
};

static const struct hook core2_hooks[] = {
    HOOK(NVTX_CBID_CORE2_DomainMarkEx, cb_DomainMarkEx),
    HOOK(NVTX_CBID_CORE2_DomainRangeStartEx, cb_DomainRangeStartEx),
    HOOK(NVTX_CBID_CORE2_DomainRangeEnd, cb_DomainRangeEnd),
    HOOK(NVTX_CBID_CORE2_DomainRangePushEx, cb_DomainRangePushEx),
    HOOK(NVTX_CBID_CORE2_DomainRangePop, cb_DomainRangePop),
    HOOK(NVTX_CBID_CORE2_DomainRegisterStringA, cb_DomainRegisterStringA),
    HOOK(NVTX_CBID_CORE2_DomainRegisterStringW, cb_DomainRegisterStringW),
    HOOK(NVTX_CBID_CORE2_DomainCreateA, cb_DomainCreateA),
    HOOK(NVTX_CBID_CORE2_DomainCreateW, cb_DomainCreateW),
    HOOK(NVTX_CBID_CORE2_DomainDestroy, cb_DomainDestroy),
};

/* Point the instance's table entries for `module` at our callbacks. */
static int attach(const NvtxExportTableCallbacks *etbl, NvtxCallbackModule module,
                  const struct hook *hooks, size_t n) {
  NvtxFunctionTable table = NULL;
  unsigned int size = 0;
  size_t i;

  if (!etbl->GetModuleFunctionTable(module, &table, &size) || !table) return 0;
  for (i = 0; i < n; i++)
    if (hooks[i].id <= size && table[hooks[i].id]) *table[hooks[i].id] = hooks[i].fn;
  return 1;
}

CW_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const NvtxExportTableCallbacks *etbl =
      (const NvtxExportTableCallbacks *)get_export_table(NVTX_ETID_CALLBACKS);
  const NvtxExportTableVersionInfo *version =
      (const NvtxExportTableVersionInfo *)get_export_table(NVTX_ETID_VERSIONINFO);

  if (!etbl || etbl->struct_size < sizeof *etbl) return 0;
  if (version && version->struct_size >= sizeof *version && version->SetInjectionNvtxVersion)
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  if (!attach(etbl, NVTX_CB_MODULE_CORE, core_hooks, sizeof core_hooks / sizeof core_hooks[0]))
    return 0;
  if (!attach(etbl, NVTX_CB_MODULE_CORE2, core2_hooks, sizeof core2_hooks / sizeof core2_hooks[0]))
    return 0;
  return 1;
}
