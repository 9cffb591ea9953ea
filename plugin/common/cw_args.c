/* cw_args.c - see cw_args.h. */
#include "cw_args.h"
#include "cw_all_loops.h"
#include "cw_messages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cw_argument cw_arguments[CW_ARG_COUNT_] = {
    {CW_ARG_VERBOSE, "verbose", "",
     "a note for every instrumented loop: file:line, function, label, "
     "window"},
    {CW_ARG_PORTABLE, "portable", "",
     "accepted and ignored (the one emission there is), by every front "
     "door"},
    {CW_ARG_ALL_LOOPS, "all-loops", "[=START:COUNT]",
     "instrument every loop of the unit as if marked, window START:COUNT "
     "(default 0:1), label FUNCTION.LINE"},
    {CW_ARG_LOOP, "loop", "=SPEC",
     "mark the loop SPEC names, FILE:LINE[:START:COUNT[:LABEL]] or "
     "FUNCTION[:START:COUNT[:LABEL]]; an error if it names none"},
    {CW_ARG_LOOP_OPTIONAL, "loop-optional", "=SPEC",
     "the same as loop=SPEC, without the error when it names no loop"},
};

/* The argument KEY, or NULL.  HAS_VALUE: '=VALUE' was given (an argument
   of no value form takes none; the others judge their values themselves:
   a missing SPEC is a bad SPEC). */
static const struct cw_argument *find_argument(const char *key, int has_value) {
  for (size_t k = 0; k < CW_ARG_COUNT_; k++) {
    const struct cw_argument *a = &cw_arguments[k];
    if (strcmp(key, a->key) == 0 && (a->value_form[0] || !has_value)) return a;
  }
  return NULL;
}

/* "'-fplugin-arg-PLUGIN-verbose', ... and
   '-fplugin-arg-PLUGIN-loop-optional=SPEC'". */
static const char *format_argument_list(char *buf, size_t size, const char *plugin) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < CW_ARG_COUNT_ && len < size; k++) {
    const struct cw_argument *a = &cw_arguments[k];
    int w = snprintf(buf + len, size - len, "%s'-fplugin-arg-%s-%s%s'",
                     k == 0                   ? ""
                     : k + 1 == CW_ARG_COUNT_ ? " and "
                                              : ", ",
                     plugin, a->key, a->value_form);
    if (w < 0) break;
    len += (size_t)w;
  }
  return buf;
}

const char *cw_format_argument_help(char *buf, size_t size, const char *plugin) {
  int w =
      snprintf(buf, size, "Instrument loops marked with #pragma " CW_PRAGMA_FORM ".\nArguments:");
  size_t len = w < 0 ? size : (size_t)w;
  for (size_t k = 0; k < CW_ARG_COUNT_ && len < size; k++) {
    const struct cw_argument *a = &cw_arguments[k];
    w = snprintf(buf + len, size - len, "\n  -fplugin-arg-%s-%s%s\n      %s", plugin, a->key,
                 a->value_form, a->help);
    if (w < 0) break;
    len += (size_t)w;
  }
  return buf;
}

int cw_args_add_loop(struct cw_options *o, const char *option, const char *sep, const char *spec,
                     int optional, cw_args_report report, void *context) {
  char reason[256], text[1024];
  struct cw_loop_arg a;
  const char *err;
  memset(&a, 0, sizeof a);
  err = cw_loop_spec_parse_v1(spec, CW_LOOP_SPEC_C, &a.spec, reason, sizeof reason);
  if (err) {
    report(context, cw_format_bad_loop_spec(text, sizeof text, option, spec, err));
    return 0;
  }
  snprintf(a.given, sizeof a.given, "%s%s%s", option, sep, spec);
  a.optional = optional;
  if (o->nloop_args == o->loop_args_cap) {
    size_t cap = o->loop_args_cap ? 2 * o->loop_args_cap : 4;
    struct cw_loop_arg *grown = realloc(o->loop_args, cap * sizeof *grown);
    if (!grown) {
      report(context, "out of memory");
      return 0;
    }
    o->loop_args = grown;
    o->loop_args_cap = cap;
  }
  o->loop_args[o->nloop_args++] = a;
  return 1;
}

/* all-loops[=START:COUNT]. */
static int take_all_loops(struct cw_options *o, const char *plugin, const char *value,
                          cw_args_report report, void *context) {
  char reason[128], text[768];
  if (!cw_parse_all_loops_value(value, &o->all_loops_window.start, &o->all_loops_window.count,
                                reason, sizeof reason))
    return o->all_loops = 1;
  report(context, cw_format_bad_all_loops(text, sizeof text, plugin, value, reason));
  return 0;
}

int cw_args_take(struct cw_options *o, const char *plugin, const char *key, const char *value,
                 cw_args_report report, void *context) {
  const struct cw_argument *a = find_argument(key, value != NULL);
  char option[512], list[768], text[1024];
  if (!a) {
    snprintf(text, sizeof text,
             "unknown argument '-fplugin-arg-%s-%s%s%s' for plugin %s (the "
             "arguments are %s)",
             plugin, key, value ? "=" : "", value ? value : "", plugin,
             format_argument_list(list, sizeof list, plugin));
    report(context, text);
    return 0;
  }
  switch (a->id) {
  case CW_ARG_VERBOSE:
    o->verbose = 1;
    return 1;
  case CW_ARG_ALL_LOOPS:
    return take_all_loops(o, plugin, value, report, context);
  case CW_ARG_LOOP:
  case CW_ARG_LOOP_OPTIONAL:
    snprintf(option, sizeof option, "-fplugin-arg-%s-%s", plugin, key);
    return cw_args_add_loop(o, option, "=", value ? value : "", a->id == CW_ARG_LOOP_OPTIONAL,
                            report, context);
  default: /* portable: accepted and ignored, by every front door */
    return 1;
  }
}

int cw_args_take_text(struct cw_options *o, const char *plugin, const char *arg,
                      cw_args_report report, void *context) {
  const char *eq = strchr(arg, '=');
  char key[256];
  snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
  return cw_args_take(o, plugin, key, eq ? eq + 1 : NULL, report, context);
}

void cw_options_dispose(struct cw_options *o) {
  free(o->loop_args);
  memset(o, 0, sizeof *o);
}

const char *cw_format_loop_arg_unmatched(char *buf, size_t size, const struct cw_loop_arg *a) {
  enum cw_unmatched why;
  if (a->matched || a->optional || a->reported) return NULL;
  why = !a->spec.by_function ? CW_UNMATCHED_NO_LOOP
        : a->function_seen   ? CW_UNMATCHED_NO_LOOP_IN_FUNCTION
                             : CW_UNMATCHED_NO_FUNCTION;
  return cw_format_loop_unmatched(buf, size, a->given, why, a->spec.target, a->spec.line);
}
