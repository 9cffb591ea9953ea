/*
 * capture_window/rules.h - the numbers of the step-time rules, version 1,
 * asked of libcapture_window instead of copied: `capture-window plan`
 * (cli/capture_window_cli/plan.py, steady.py) checks its own against
 * them (test cli.runtime_rules), and the runtime's spike policy and exit
 * self-check judge steps by them (runtime/stats.c, runtime/shape.c).
 * docs/where-to-cut.md, "The rule", says what each means.
 *
 *   slow_ratio slow_mads slow_min_ns     a slow step
 *   alpha period_min                     a period's significance
 *   steady_spread drift_change drift_explained level_gap level_share
 *   level_cover shape_min                no steady state (drift, levels)
 */
#ifndef CAPTURE_WINDOW_RULES_H
#define CAPTURE_WINDOW_RULES_H

#ifdef __cplusplus
extern "C" {
#endif

#define CW_RULES_VERSION 1

#ifndef CW_RULES_EXPORT
#define CW_RULES_EXPORT __attribute__((visibility("default")))
#endif

/* The rule's number NAME (one of those above), or NaN for another name. */
CW_RULES_EXPORT double cw_rule_value_v1(const char *name);

/* The chance that noise alone puts HITS slow steps on the PLACES places of
   some (period, phase) grid among a run of STEPS steps, when a step is
   that slow by chance with P: the binomial tail P(X >= HITS) over PLACES,
   times the (period, phase) pairs tried (Bonferroni). A period is
   reported when this is at most alpha. */
CW_RULES_EXPORT double cw_period_chance_v1(long long hits, long long places, double p,
                                           long long steps);

#ifdef __cplusplus
}
#endif

#endif
