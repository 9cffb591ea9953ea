/* cw_args.c - see cw_args.h. */
#include "cw_args.h"
#include "cw_messages.h"

#include <stdio.h>
#include <string.h>

#define CW_DOOR_ALL (CW_DOOR_GCC | CW_DOOR_CLANG | CW_DOOR_REWRITE)

const struct cw_argument cw_arguments[CW_ARG_COUNT_] = {
    {CW_ARG_VERBOSE, "verbose", "", CW_DOOR_ALL,
     "a note for every instrumented loop: file:line, function, label, "
     "window"},
    {CW_ARG_PORTABLE, "portable", "", CW_DOOR_ALL,
     "accepted and ignored (the one emission there is), by every front "
     "door"},
    {CW_ARG_ALL_LOOPS, "all-loops", "[=START:COUNT]", CW_DOOR_ALL,
     "instrument every loop of the unit as if marked, window START:COUNT "
     "(default 0:1), label FUNCTION.LINE"},
    {CW_ARG_LOOP, "loop", "=SPEC", CW_DOOR_ALL,
     "mark the loop SPEC names, FILE:LINE[:START:COUNT[:LABEL]] or "
     "FUNCTION[:START:COUNT[:LABEL]]; an error if it names none"},
    {CW_ARG_LOOP_OPTIONAL, "loop-optional", "=SPEC", CW_DOOR_ALL,
     "the same as loop=SPEC, without the error when it names no loop"},
};

const struct cw_argument *cw_find_argument(enum cw_door door, const char *key, int has_value) {
  for (size_t k = 0; k < CW_ARG_COUNT_; k++) {
    const struct cw_argument *a = &cw_arguments[k];
    if ((a->doors & door) && strcmp(key, a->key) == 0 && (a->value_form[0] || !has_value)) return a;
  }
  return NULL;
}

const char *cw_format_argument_list(char *buf, size_t size, enum cw_door door, const char *plugin) {
  size_t n = 0, len = 0, k, i = 0;
  for (k = 0; k < CW_ARG_COUNT_; k++) n += (cw_arguments[k].doors & door) != 0;
  buf[0] = '\0';
  for (k = 0; k < CW_ARG_COUNT_ && len < size; k++) {
    const struct cw_argument *a = &cw_arguments[k];
    int w;
    if (!(a->doors & door)) continue;
    w = snprintf(buf + len, size - len, "%s'-fplugin-arg-%s-%s%s'",
                 i == 0       ? ""
                 : i + 1 == n ? " and "
                              : ", ",
                 plugin, a->key, a->value_form);
    if (w < 0) break;
    len += (size_t)w;
    i++;
  }
  return buf;
}

const char *cw_format_unknown_argument(char *buf, size_t size, enum cw_door door,
                                       const char *plugin, const char *key, const char *value) {
  char list[768];
  snprintf(buf, size,
           "unknown argument '-fplugin-arg-%s-%s%s%s' for plugin %s (the "
           "arguments are %s)",
           plugin, key, value ? "=" : "", value ? value : "", plugin,
           cw_format_argument_list(list, sizeof list, door, plugin));
  return buf;
}

const char *cw_format_argument_help(char *buf, size_t size, enum cw_door door, const char *plugin) {
  int w =
      snprintf(buf, size, "Instrument loops marked with #pragma " CW_PRAGMA_FORM ".\nArguments:");
  size_t len = w < 0 ? size : (size_t)w;
  for (size_t k = 0; k < CW_ARG_COUNT_ && len < size; k++) {
    const struct cw_argument *a = &cw_arguments[k];
    if (!(a->doors & door)) continue;
    w = snprintf(buf + len, size - len, "\n  -fplugin-arg-%s-%s%s\n      %s", plugin, a->key,
                 a->value_form, a->help);
    if (w < 0) break;
    len += (size_t)w;
  }
  return buf;
}

const char *cw_loop_arg_parse(struct cw_loop_arg *a, const char *option, const char *sep,
                              const char *spec, int optional, char *msg, size_t size) {
  char reason[256];
  const char *err;
  memset(a, 0, sizeof *a);
  err = cw_loop_spec_parse_v1(spec, CW_LOOP_SPEC_C, &a->spec, reason, sizeof reason);
  if (err) return cw_format_bad_loop_spec(msg, size, option, spec, err);
  snprintf(a->given, sizeof a->given, "%s%s%s", option, sep, spec);
  a->optional = optional;
  return NULL;
}

const char *cw_format_loop_arg_unmatched(char *buf, size_t size, const struct cw_loop_arg *a) {
  enum cw_unmatched why;
  if (a->matched || a->optional || a->reported) return NULL;
  why = !a->spec.by_function ? CW_UNMATCHED_NO_LOOP
        : a->function_seen   ? CW_UNMATCHED_NO_LOOP_IN_FUNCTION
                             : CW_UNMATCHED_NO_FUNCTION;
  return cw_format_loop_unmatched(buf, size, a->given, why, a->spec.target, a->spec.line);
}
