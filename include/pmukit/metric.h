/* SPDX-License-Identifier: MIT */
/*
 * pmukit/metric.h — perf's metric expressions (the MetricExpr and
 * MetricThreshold strings of the vendor JSON): parse them with byte
 * positions, list the identifiers they need, evaluate them with values the
 * caller supplies; evaluate a catalog metric, resolving its references to
 * other metrics, and its threshold; apply a ScaleUnit.
 *
 *   struct pk_mexpr *e;
 *   struct pk_spec_error err;
 *   if (pk_mexpr__parse(&e, "d_ratio(INST_RETIRED.ANY, cycles)", &err) == 0) {
 *           for (size_t i = 0; i < pk_mexpr__nr_ids(e); i++)
 *                   open_event(pk_mexpr__id(e, i)->name);
 *           pk_mexpr__eval(e, my_counts, ctx, &value);
 *           pk_mexpr__free(e);
 *   }
 *
 * The language is perf's (tools/perf/util/expr.l, expr.y), lowest binding first:
 *
 *   X if COND else Y        right-nested; only at the top or inside ( ) and
 *                           function arguments
 *   |   ^   &               logical or, xor, and: results 0 or 1 (see below)
 *   <   >                   comparisons, 0 or 1 (no <=, >=, ==: perf has none)
 *   +   -
 *   *   /   %               x / 0 is NaN; % is on integers, % 0 an error
 *   -X                      unary minus
 *   (X)  NUMBER  NaN  EVENT  #LITERAL  min(X, Y)  max(X, Y)  d_ratio(X, Y)
 *   source_count(EVENT)  has_event(EVENT)  strcmp_cpuid_str(CPUID)
 *
 * MetricThreshold strings are written for this precedence (comparisons bind
 * tighter than & and |: "a > 0.1 & b < 2" is "(a > 0.1) & (b < 2)"), which is
 * why jevents does not run them through Python. MetricExpr strings do reach
 * perf through jevents (Python's precedence, then re-printed with brackets);
 * no MetricExpr of the 6.12 tree mixes comparisons with & | ^, so reading the
 * JSON text with perf's grammar builds the same tree (jevents' constant
 * simplifications, such as x * 0 -> 0, differ only when x is NaN and are not
 * reproduced). Numbers are decimal with an
 * optional lower-case exponent ("1e9", "1e-3", ".5"); "0x10" is an
 * identifier, as in perf. Identifiers are runs of letters, digits and
 * "_ . : @ ?" plus the escapes "\-", "\," and "\=" ("topdown\-retiring",
 * "cpu@UOPS_EXECUTED.CORE\,cmask\=1@", "BR_INST_RETIRED.FAR_BRANCH:u");
 * names are given back unescaped, with each '?' replaced by the runtime
 * parameter (perf's per-chip metrics). Keywords are case-sensitive.
 * Characters perf's lexer silently drops (such as '=', '!', '$') are errors
 * here, so "a <= b" is refused rather than read as "a < b".
 *
 * Values follow perf: an operand that is NaN makes + - * < > NaN; x / 0 is
 * NaN and d_ratio(x, 0) is 0; COND of "if" counts as true unless it is zero
 * (a NaN condition picks X); min/max compare as C's a < b ? a : b. For
 * |, & and ^ a finite operand decides when it can (0 | y is y, 1 | y is 1,
 * 0 & y is 0, 1 & y is y), two finite operands give 0 or 1, and otherwise
 * the result is NaN. Everything is evaluated (no short-circuit), as perf does.
 *
 * Objects are opaque and owned by the caller; no global state.
 */
#ifndef PMUKIT_METRIC_H
#define PMUKIT_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/events.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_mexpr;

struct pk_mexpr_opts {
	size_t sz;		/* sizeof(struct pk_mexpr_opts) */
	int runtime;		/* replaces each '?' in identifiers (perf's runtime parameter) */
};

/*
 * Parse TEXT. On error *out is NULL and err (may be NULL) says where and why:
 * code -EINVAL (syntax), -ERANGE (a number) or -ENOMEM; pk_spec_error__format
 * shows it.
 */
PK_API int pk_mexpr__parse(struct pk_mexpr **out, const char *text, struct pk_spec_error *err);
PK_API int pk_mexpr__parse_opts(struct pk_mexpr **out, const char *text,
				const struct pk_mexpr_opts *opts, struct pk_spec_error *err);
PK_API void pk_mexpr__free(struct pk_mexpr *e);
PK_API const char *pk_mexpr__text(const struct pk_mexpr *e);

/*
 * The expression fully parenthesised ("((a + (b * c)) if #smt_on else d)"),
 * identifiers escaped again: it parses back to the same tree (except that a
 * name made by a '?' that became digits alone reads back as a number).
 * Returns the length it needs (snprintf-like).
 */
PK_API size_t pk_mexpr__print(const struct pk_mexpr *e, char *buf, size_t len);

enum pk_mexpr_id_kind {
	PK_MEXPR_ID_EVENT,	  /* an event, or a metric name until resolved */
	PK_MEXPR_ID_METRIC,	  /* another metric (pk_mexpr__resolve_metrics) */
	PK_MEXPR_ID_LITERAL,	  /* "#smt_on", "#num_cpus", ...: a fact of the machine */
	PK_MEXPR_ID_SOURCE_COUNT, /* source_count(NAME): how many counters NAME sums */
	PK_MEXPR_ID_HAS_EVENT,	  /* has_event(NAME): 1 when NAME exists/was opened */
	PK_MEXPR_ID_CPUID,	  /* strcmp_cpuid_str(PATTERN): 1 when the CPU matches */
};

/* The literals perf knows ("#smt_on" and "#system_tsc_freq" in any case). */
enum pk_mexpr_literal {
	PK_MEXPR_LIT_NONE = 0,
	PK_MEXPR_LIT_NUM_CPUS,		/* #num_cpus: highest present CPU number + 1 */
	PK_MEXPR_LIT_NUM_CPUS_ONLINE,	/* #num_cpus_online */
	PK_MEXPR_LIT_SYSTEM_TSC_FREQ,	/* #system_tsc_freq, Hz (0 off x86) */
	PK_MEXPR_LIT_SMT_ON,		/* #smt_on: 1 when SMT is active */
	PK_MEXPR_LIT_CORE_WIDE,		/* #core_wide: counting covers whole cores */
	PK_MEXPR_LIT_NUM_PACKAGES,	/* #num_packages */
	PK_MEXPR_LIT_NUM_DIES,		/* #num_dies */
	PK_MEXPR_LIT_NUM_CORES,		/* #num_cores */
	PK_MEXPR_LIT_SLOTS,		/* #slots: pipeline slots per cycle (arm64 caps/slots) */
	PK_MEXPR_LIT_HAS_PMEM,		/* #has_pmem: an ACPI NFIT table exists */
};

/*
 * One distinct identifier of an expression (each (kind, name) pair once, in
 * order of first appearance). Events keep their PMU and modifiers as written:
 * "cpu@INST_RETIRED.ANY@", "INST_RETIRED.ANY:k", "msr@tsc@", "duration_time"
 * (perf's tool event: seconds when evaluating).
 */
struct pk_mexpr_id {
	const char *name;	/* unescaped; literals as written, with the '#' */
	enum pk_mexpr_id_kind kind;
	enum pk_mexpr_literal literal;	/* kind LITERAL */
	unsigned off, len;	/* first appearance in the text (the name's bytes) */
	bool runtime_param;	/* the name had a '?' */
	size_t metric;		/* kind METRIC: index of the metric in its model */
};

PK_API size_t pk_mexpr__nr_ids(const struct pk_mexpr *e);
PK_API const struct pk_mexpr_id *pk_mexpr__id(const struct pk_mexpr *e, size_t idx);
/* Index of the identifier (kind, name), or -ENOENT. */
PK_API long pk_mexpr__find_id(const struct pk_mexpr *e, enum pk_mexpr_id_kind kind,
			      const char *name);

/*
 * An event identifier in perf's event syntax, as perf's metric code opens it:
 * "pmu@terms@mods" becomes "pmu/terms/mods" (first and last '@'), anything
 * else is returned unchanged. Returns the length it needs (snprintf-like).
 */
PK_API size_t pk_mexpr_id__event_spec(const struct pk_mexpr_id *id, char *buf, size_t len);

/*
 * Mark the EVENT identifiers naming a metric of MODEL on PMU (metric pmu as
 * pk_metric.pmu gives it, NULL: any) as METRIC, as perf's metric code does
 * (case-insensitive names). Returns how many, or a negative errno.
 */
PK_API int pk_mexpr__resolve_metrics(struct pk_mexpr *e, struct pk_catalog *cat, size_t model,
				     const char *pmu);

/*
 * The value of one identifier. Return 0 and *value, or -ENOENT when unknown:
 * EVENT, METRIC and SOURCE_COUNT then count as NaN (perf: an event that was
 * not read), HAS_EVENT as 0, CPUID as NaN; an unknown LITERAL fails the
 * evaluation with -ENOENT. Any other negative return stops the evaluation
 * and is returned. CPUID: pk_cpuid__match(NULL, id->name, cpuid) == 0.
 */
typedef int (*pk_mexpr_lookup_fn)(void *ctx, const struct pk_mexpr_id *id, double *value);

/*
 * Evaluate. fn is called at most once per identifier. Returns 0 (the value,
 * possibly NaN, in *out), -EDOM for '%' by zero (perf refuses the metric
 * then), -ENOMEM, or fn's error.
 */
PK_API int pk_mexpr__eval(const struct pk_mexpr *e, pk_mexpr_lookup_fn fn, void *ctx, double *out);

/*
 * Which identifiers evaluation really needs once the constants are known, as
 * perf decides which events to open: fn (may be NULL) is asked only for
 * LITERAL, HAS_EVENT and CPUID identifiers (has_event: does the event exist
 * on this machine); -ENOENT, like everything else, means unknown. needed[i]
 * (pk_mexpr__nr_ids entries) is set for the EVENT, METRIC and SOURCE_COUNT
 * identifiers still needed, so that "A if #smt_on else B" needs only A on an
 * SMT machine, both when #smt_on is unknown. As perf, min() and max() are
 * never folded. Returns 0, -EDOM ('%' by a constant zero) or fn's error.
 */
PK_API int pk_mexpr__needed_ids(const struct pk_mexpr *e, pk_mexpr_lookup_fn fn, void *ctx,
				bool *needed);

/*
 * Catalog metrics. An evaluator parses each metric of a model once, resolves
 * metric references within the metric's PMU, and memoises metric values until
 * pk_metric_eval__reset (new counts). fn supplies everything but metrics
 * (events, literals, ...). A reference cycle gives -ELOOP, a metric or
 * reference whose expression does not parse -EINVAL (pk_metric_eval__error
 * says which and where).
 */
struct pk_metric_eval;

PK_API int pk_metric_eval__new(struct pk_metric_eval **out, struct pk_catalog *cat, size_t model);
PK_API void pk_metric_eval__free(struct pk_metric_eval *ev);
PK_API void pk_metric_eval__reset(struct pk_metric_eval *ev);
/* The last parse error met (metric name in *metric), or NULL. */
PK_API const struct pk_spec_error *pk_metric_eval__error(const struct pk_metric_eval *ev,
							  const char **metric);

/* By index in the model (see pk_catalog__metric) or by name (first PMU with it). */
PK_API int pk_metric_eval__value(struct pk_metric_eval *ev, size_t metric, pk_mexpr_lookup_fn fn,
				 void *ctx, double *out);
PK_API int pk_metric_eval__value_name(struct pk_metric_eval *ev, const char *metric,
				      pk_mexpr_lookup_fn fn, void *ctx, double *out);
/* The metric's parsed MetricExpr (references resolved), or NULL with the error set. */
PK_API const struct pk_mexpr *pk_metric_eval__expr(struct pk_metric_eval *ev, size_t metric);

/*
 * MetricThreshold of a metric, evaluated with the metric values memoised so
 * far (computing what is missing): 1 when exceeded (non-zero), 0 when not,
 * -ENODATA when it is NaN (perf shows no colour then), -ENOENT when the
 * metric has no threshold, or another negative errno.
 */
PK_API int pk_metric_eval__threshold(struct pk_metric_eval *ev, size_t metric,
				     pk_mexpr_lookup_fn fn, void *ctx);

/*
 * Every EVENT and SOURCE_COUNT identifier a metric needs, through its
 * references, each (kind, name) once; with threshold, also what its
 * MetricThreshold needs (perf opens those too unless --metric-no-threshold).
 * With consts (may be NULL: nothing is constant) dead branches are left out
 * as in pk_mexpr__needed_ids. each() returning non-zero stops the walk and is
 * returned.
 */
typedef int (*pk_metric_id_fn)(void *ctx, const struct pk_mexpr_id *id);
PK_API int pk_metric_eval__for_each_event(struct pk_metric_eval *ev, size_t metric, bool threshold,
					  pk_mexpr_lookup_fn consts, void *consts_ctx,
					  pk_metric_id_fn each, void *each_ctx);

/* One-shot forms of the above for a metric named METRIC. */
PK_API int pk_metric__eval(struct pk_catalog *cat, size_t model, const char *metric,
			   pk_mexpr_lookup_fn events, void *ctx, double *out);
PK_API int pk_metric__threshold_exceeded(struct pk_catalog *cat, size_t model, const char *metric,
					 pk_mexpr_lookup_fn events, void *ctx);

/*
 * A metric value as perf prints it: multiplied by the ScaleUnit's number and
 * labelled with its unit ("100%" -> x100, "%"; NULL -> x1, ""). 0 or -EINVAL.
 */
PK_API int pk_metric__scale(const char *scale_unit, double value, double *scaled,
			    const char **unit);

#ifdef __cplusplus
}
#endif
#endif
