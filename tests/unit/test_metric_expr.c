/* SPDX-License-Identifier: MIT */
/*
 * test_metric_expr.c — the metric expression parser and evaluator: exact
 * values of every operator and function (hand-computed), perf's precedence
 * (thresholds' & and | below < and >), NaN and division rules, errors with
 * offsets, identifiers and their kinds, folding of dead branches; catalog
 * metrics: references, cycles, hybrid PMUs, thresholds; every MetricExpr and
 * MetricThreshold of the built-in tables parsed, every metric of five models
 * evaluated with synthetic counts, and TopDown levels 1 and 2 (Ice Lake,
 * Sapphire Rapids) from known counts giving known percentages.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/events.h>
#include <pmukit/metric.h>

/* --- helpers ------------------------------------------------------------------------ */

struct kv {
	const char *name;
	double v;
};

struct table {
	const struct kv *kv;
	unsigned calls;
};

/* Values by name, for any kind of identifier ("#smt_on", "has_event" names too). */
static int table_lookup(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	struct table *t = ctx;
	t->calls++;
	for (const struct kv *k = t->kv; k && k->name; k++)
		if (!strcmp(k->name, id->name)) {
			*v = k->v;
			return 0;
		}
	return -ENOENT;
}

static const struct kv vars[] = {
	{ "a", 2 }, { "b", 3 }, { "c", 4 }, { "zero", 0 }, { "nan", NAN }, { "#smt_on", 1 },
	{ "#num_cpus", 8 }, { "#slots", 6 }, { "#SMT_on", 1 }, { NULL, 0 },
};

static int eval_with(const char *text, const struct kv *kv, double *out)
{
	struct pk_mexpr *e;
	struct pk_spec_error err;
	int rc = pk_mexpr__parse(&e, text, &err);
	if (rc)
		fail_msg("'%s' does not parse: %s (at %u)", text, err.msg, err.off);
	struct table t = { kv, 0 };
	rc = pk_mexpr__eval(e, table_lookup, &t, out);
	pk_mexpr__free(e);
	return rc;
}

static double ev(const char *text)
{
	double v;
	int rc = eval_with(text, vars, &v);
	if (rc)
		fail_msg("'%s' evaluates with error %d", text, rc);
	return v;
}

#define EQ(text, want)                                                                       \
	do {                                                                                 \
		double got_ = ev(text);                                                      \
		if (!(got_ == (double)(want)))                                               \
			fail_msg("'%s' = %.17g, want %.17g", text, got_, (double)(want));    \
	} while (0)
#define NEAR(text, want)                                                                     \
	do {                                                                                 \
		double got_ = ev(text);                                                      \
		if (!(fabs(got_ - (double)(want)) < 1e-12))                                  \
			fail_msg("'%s' = %.17g, want %.17g", text, got_, (double)(want));    \
	} while (0)
#define ISNAN(text)                                                                          \
	do {                                                                                 \
		double got_ = ev(text);                                                      \
		if (!isnan(got_))                                                            \
			fail_msg("'%s' = %.17g, want NaN", text, got_);                      \
	} while (0)

static void printed(const char *text, const char *want)
{
	struct pk_mexpr *e;
	struct pk_spec_error err;
	char buf[512];
	if (pk_mexpr__parse(&e, text, &err))
		fail_msg("'%s' does not parse: %s", text, err.msg);
	pk_mexpr__print(e, buf, sizeof(buf));
	pk_mexpr__free(e);
	if (strcmp(buf, want))
		fail_msg("'%s' parses as '%s', want '%s'", text, buf, want);
}

/* --- operators and functions ---------------------------------------------------------- */

static void test_numbers(void **state)
{
	(void)state;
	EQ("1", 1);
	EQ("1.5", 1.5);
	EQ(".5", 0.5);
	EQ("5.", 5);
	EQ("1e9", 1e9);
	EQ("1e-3", 1e-3);
	EQ("2.5e2", 250);
	EQ("007", 7);
	ISNAN("NaN");
	/* as in perf, 0x10 and 1E3 are identifiers, not numbers: unknown ones are NaN */
	ISNAN("0x10");
	ISNAN("1E3");
	printed("0x10 + 1e3", "(0x10 + 1000)");
	printed("1e+3", "(1e + 3)");	/* no '+' in perf's exponent */
}

static void test_arith(void **state)
{
	(void)state;
	EQ("7 + 2", 9);
	EQ("7 - 2", 5);
	EQ("7 * 2", 14);
	EQ("7 / 2", 3.5);
	EQ("7 % 3", 1);
	EQ("-7 % 3", -1);	/* C's truncating remainder on longs */
	EQ("7.9 % 3", 1);	/* operands truncated to integers */
	EQ("-3", -3);
	EQ("- -3", 3);
	EQ("-a", -2);
	EQ("a + b * c", 14);
	EQ("a*b+c", 10);	/* no spaces needed */
	/* NaN propagates through + - * < > */
	ISNAN("nan + 1");
	ISNAN("1 - nan");
	ISNAN("nan * 0");
	ISNAN("nan < 1");
	ISNAN("1 > nan");
	ISNAN("-nan");
	/* division by zero is NaN; d_ratio by zero is 0 */
	ISNAN("1 / 0");
	ISNAN("0 / 0");
	ISNAN("a / zero");
	ISNAN("-1 / (b - 3)");
	EQ("d_ratio(1, 0)", 0);
	EQ("d_ratio(0, 0)", 0);
	EQ("d_ratio(a, zero)", 0);
	EQ("d_ratio(1, 4)", 0.25);
	EQ("d_ratio(a, c)", 0.5);
	ISNAN("d_ratio(nan, 2)");
	/* an unknown event is NaN */
	ISNAN("INST_RETIRED.ANY / 2");
	/* % by zero is an error, as perf refuses the metric */
	double v;
	assert_int_equal(eval_with("5 % 0", vars, &v), -EDOM);
	assert_int_equal(eval_with("5 % 0.5", vars, &v), -EDOM);
	assert_int_equal(eval_with("5 % zero", vars, &v), -EDOM);
	ISNAN("nan % 2");
	ISNAN("1e300 % 7");	/* out of a long's range */
	EQ("5 % -1", 0);
}

static void test_compare_logic(void **state)
{
	(void)state;
	EQ("2 < 3", 1);
	EQ("3 < 2", 0);
	EQ("2 < 2", 0);
	EQ("3 > 2", 1);
	EQ("2 > 3", 0);
	EQ("2 > 2", 0);
	EQ("1 | 0", 1);
	EQ("0 | 0", 0);
	EQ("0 | 0.5", 1);
	EQ("2 & 3", 1);
	EQ("2 & 0", 0);
	EQ("0 & 0", 0);
	EQ("1 ^ 1", 0);
	EQ("1 ^ 0", 1);
	EQ("0.5 ^ 0", 1);
	EQ("0 ^ 0", 0);
	EQ("-2 | 0", 1);
	/* perf: a finite operand decides when it can, passes the other through when not */
	ISNAN("nan | 0");
	EQ("nan | 1", 1);
	EQ("1 | nan", 1);
	ISNAN("0 | nan");
	EQ("0 & nan", 0);
	EQ("nan & 0", 0);
	ISNAN("1 & nan");
	ISNAN("nan & 3");
	ISNAN("nan ^ 1");
	ISNAN("nan | nan");
	ISNAN("nan & nan");
	/* unknown events pass through the same way */
	EQ("0 & UNKNOWN", 0);
	EQ("1 | UNKNOWN", 1);
}

static void test_functions(void **state)
{
	(void)state;
	EQ("min(3, 4)", 3);
	EQ("min(4, 3)", 3);
	EQ("max(3, 4)", 4);
	EQ("max(4, 3)", 4);
	EQ("min(-1, -2)", -2);
	EQ("max(-1, -2)", -1);
	EQ("max(1 - (a + b), 0)", 0);
	EQ("min(a, b) + max(a, b)", 5);
	/* C's a < b ? a : b with NaN */
	EQ("min(nan, 1)", 1);
	ISNAN("min(1, nan)");
	EQ("max(nan, 1)", 1);
	ISNAN("max(1, nan)");
	/* literals come from the lookup; #smt_on and #system_tsc_freq in any case */
	EQ("#smt_on", 1);
	EQ("#SMT_on", 1);
	EQ("#num_cpus / #slots * 3", 4);
	/* source_count, has_event and strcmp_cpuid_str ask the lookup by kind */
	static const struct kv kv[] = { { "uncore_imc@cas_count_read@", 100 },
					{ "0x410fd493", 1 }, { "EV", 1 }, { NULL, 0 } };
	struct pk_mexpr *e;
	assert_int_equal(pk_mexpr__parse(&e,
					 "source_count(uncore_imc@cas_count_read@) + "
					 "10 * has_event(EV) + 100 * has_event(NOPE) + "
					 "1000 * strcmp_cpuid_str(0x410fd493)", NULL), 0);
	double v;
	struct table t = { kv, 0 };
	assert_int_equal(pk_mexpr__eval(e, table_lookup, &t, &v), 0);
	assert_true(v == 100 + 10 + 0 + 1000);
	pk_mexpr__free(e);
	/* an unknown cpuid is NaN, as perf's when it cannot read one */
	assert_int_equal(eval_with("strcmp_cpuid_str(0x1)", vars, &v), 0);
	assert_true(isnan(v));
}

static void test_if(void **state)
{
	(void)state;
	EQ("1 if 1 else 2", 1);
	EQ("1 if 0 else 2", 2);
	EQ("1 if -0.5 else 2", 1);
	EQ("1 if nan else 2", 1);	/* perf: only zero takes the else */
	EQ("1 if 0 else 2 if 0 else 3", 3);
	EQ("1 if 0 else 2 if 1 else 3", 2);
	EQ("1 + 2 if 0 else 3 + 4", 7);
	EQ("1 + 2 if 1 else 3 + 4", 3);
	EQ("(1 if 0 else 2) * 3", 6);
	EQ("a if #smt_on else b", 2);
	EQ("a if b > c else c", 4);
	EQ("a if b < c else c", 2);
	/* jevents writes an if inside call arguments in ( ); the bare form is taken too */
	EQ("min(1 if 0 else 5, 4)", 4);
	EQ("max((a if zero else b), 1)", 3);
	/* both branches are evaluated (perf has no short-circuit): errors in either count */
	double v;
	assert_int_equal(eval_with("1 if 1 else 5 % 0", vars, &v), -EDOM);
}

static void test_precedence(void **state)
{
	(void)state;
	printed("a + b * c", "(a + (b * c))");
	printed("(a + b) * c", "((a + b) * c)");
	printed("a - b - c", "((a - b) - c)");
	printed("a / b / c", "((a / b) / c)");
	printed("a / b * c", "((a / b) * c)");
	printed("a % b * c", "((a % b) * c)");
	printed("-a * b", "((-a) * b)");
	printed("a * -b", "(a * (-b))");
	printed("- a + b", "((-a) + b)");
	printed("a + b < c", "((a + b) < c)");
	printed("a < b + c", "(a < (b + c))");
	printed("a < b > c", "((a < b) > c)");
	printed("a < b & c > d", "((a < b) & (c > d))");
	printed("a & b | c & d", "((a & b) | (c & d))");
	printed("a | b ^ c", "(a | (b ^ c))");
	printed("a ^ b & c", "(a ^ (b & c))");
	printed("a & b & c", "((a & b) & c)");
	printed("a + b if c > d else e * f", "((a + b) if (c > d) else (e * f))");
	printed("a if b else c if d else e", "(a if b else (c if d else e))");
	printed("min(a, b) * max(c, d)", "(min(a, b) * max(c, d))");
	printed("d_ratio(a + b, c) / 2", "(d_ratio((a + b), c) / 2)");
	EQ("10 - 4 - 3", 3);
	EQ("64 / 4 / 2", 8);
	EQ("2 + 3 * 4", 14);
	EQ("(2 + 3) * 4", 20);
	EQ("-2 * 3", -6);
	EQ("2 * -3", -6);
	EQ("1 + 2 < 4", 1);
	EQ("4 > 3 > 2", 0);	/* (4 > 3) > 2 */
	EQ("1 | 0 & 0", 1);	/* 1 | (0 & 0); left to right would give 0 */
	EQ("1 ^ 1 & 0", 1);	/* 1 ^ (1 & 0) */
	EQ("0 | 1 ^ 1", 0);	/* 0 | (1 ^ 1) */
	/* the real neoverse-n2 form: strcmp_cpuid_str(X) | strcmp_cpuid_str(Y) ^ 1 */
	static const struct kv kv[] = { { "0x410fd493", 0 }, { "0x410fd490", 1 }, { NULL, 0 } };
	double v;
	assert_int_equal(eval_with("(STALL_SLOT) if (strcmp_cpuid_str(0x410fd493) | "
				   "strcmp_cpuid_str(0x410fd490) ^ 1) else (STALL_SLOT - CPU_CYCLES)",
				   kv, &v), 0);
	assert_true(isnan(v));	/* 0 | (1 ^ 1) = 0: the else branch, unknown events */
}

/* Thresholds: comparisons bind tighter than & and | (Python's precedence would not). */
static void test_threshold_precedence(void **state)
{
	(void)state;
	static const struct kv kv[] = { { "tma_info_frontend_dsb_coverage", 0.5 },
					{ "tma_info_thread_ipc", 2 },
					{ "tma_retiring", 0.5 },
					{ "tma_heavy_operations", 0.2 },
					{ "x", 0.05 },
					{ NULL, 0 } };
	double v;
	assert_int_equal(eval_with("tma_info_frontend_dsb_coverage < 0.7 & "
				   "tma_info_thread_ipc / 4 > 0.35", kv, &v), 0);
	assert_true(v == 1);	/* (0.5 < 0.7) & (0.5 > 0.35) */
	assert_int_equal(eval_with("tma_retiring > 0.7 | tma_heavy_operations > 0.1", kv, &v), 0);
	assert_true(v == 1);	/* 0 | 1 */
	assert_int_equal(eval_with("tma_retiring > 0.7 | tma_heavy_operations > 0.3", kv, &v), 0);
	assert_true(v == 0);
	/* Python would read "0.5 > 0.1 & x < 0.2" as 0.5 > (0.1 & x) < 0.2 */
	assert_int_equal(eval_with("0.5 > 0.1 & x < 0.2", kv, &v), 0);
	assert_true(v == 1);
	assert_int_equal(eval_with("x > 0.2 & (tma_retiring > 0.2 & (tma_heavy_operations > 0.1 & "
				   "tma_info_thread_ipc > 0.2))", kv, &v), 0);
	assert_true(v == 0);
	/* a threshold over an unknown metric: NaN | (0 > 1) -> NaN */
	assert_int_equal(eval_with("missing > 0.7 | tma_retiring > 0.7", kv, &v), 0);
	assert_true(isnan(v));
}

/* --- errors ------------------------------------------------------------------------- */

static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int code;
		unsigned off, len;
		const char *msg;
	} cases[] = {
		{ "", -EINVAL, 0, 0, "empty" },
		{ "   ", -EINVAL, 0, 3, "empty" },
		{ "1 +", -EINVAL, 3, 0, "expected an expression, found end of expression" },
		{ "(1 + 2", -EINVAL, 6, 0, "expected ')' to close '('" },
		{ "1 + 2)", -EINVAL, 5, 1, "')' without '('" },
		{ "a <= b", -EINVAL, 3, 1, "compare with '<' and '>'" },
		{ "a == b", -EINVAL, 2, 1, "no '='" },
		{ "a != b", -EINVAL, 2, 1, "'!='" },
		{ "!a", -EINVAL, 0, 1, "no '!'" },
		{ "#foo + 1", -EINVAL, 0, 4, "unknown literal '#foo'" },
		{ "#NUM_CPUS", -EINVAL, 0, 9, "unknown literal" },
		{ "# + 1", -EINVAL, 0, 1, "'#' must start a literal" },
		{ "min(1)", -EINVAL, 5, 1, "expected ','" },
		{ "min(1, 2, 3)", -EINVAL, 8, 1, "min' takes two arguments" },
		{ "max 1, 2", -EINVAL, 4, 1, "expected '(' after the function name" },
		{ "a and b", -EINVAL, 2, 3, "no 'and'" },
		{ "a or b", -EINVAL, 2, 2, "no 'or'" },
		{ "a b", -EINVAL, 2, 1, "expected an operator or the end, found identifier" },
		{ "1 if 2", -EINVAL, 6, 0, "expected 'else'" },
		{ "a else b", -EINVAL, 2, 4, "'else' without 'if'" },
		{ "a if b if c else d else e", -EINVAL, 7, 2, "expected 'else'" },
		{ "has_event(1 + 2)", -EINVAL, 10, 1, "takes an event name, found number" },
		{ "source_count(#smt_on)", -EINVAL, 13, 7, "takes an event name" },
		{ "a $ b", -EINVAL, 2, 1, "unexpected character '$'" },
		{ "a\\.b", -EINVAL, 1, 1, "escapes only" },
		{ "1e999", -ERANGE, 0, 5, "out of range" },
		{ "a + \x01", -EINVAL, 4, 1, "unexpected byte 0x01" },
		{ "()", -EINVAL, 1, 1, "expected an expression, found ')'" },
		{ "min", -EINVAL, 3, 0, "expected '('" },
		{ "if", -EINVAL, 0, 2, "expected an expression, found 'if'" },
		{ "1 + abs(a)", -EINVAL, 4, 3, "unknown function 'abs'" },
		{ "not a", -EINVAL, 0, 3, "no 'not'" },
		{ "a ! b", -EINVAL, 2, 1, "no '!'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pk_mexpr *e = (struct pk_mexpr *)1;
		struct pk_spec_error err;
		int rc = pk_mexpr__parse(&e, cases[i].text, &err);
		if (rc != cases[i].code || err.code != rc || e != NULL || err.off != cases[i].off ||
		    err.len != cases[i].len || !strstr(err.msg, cases[i].msg))
			fail_msg("'%s': rc %d off %u len %u '%s'; want %d %u %u '%s'", cases[i].text,
				 rc, err.off, err.len, err.msg, cases[i].code, cases[i].off,
				 cases[i].len, cases[i].msg);
	}
	/* nesting and size limits */
	char deep[700];
	memset(deep, '(', 300);
	strcpy(deep + 300, "1");
	memset(deep + 301, ')', 300);
	deep[601] = '\0';
	struct pk_mexpr *e;
	struct pk_spec_error err;
	assert_int_equal(pk_mexpr__parse(&e, deep, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "nested"));
	size_t n = 1200 * 2 + 1;
	char *chain = malloc(n + 1);
	for (size_t i = 0; i < n; i += 2)
		chain[i] = 'a', chain[i + 1] = '+';
	chain[n - 1] = 'a';
	chain[n] = '\0';
	assert_int_equal(pk_mexpr__parse(&e, chain, &err), -E2BIG);
	chain[2 * 900 + 1] = '\0';	/* 900 additions are fine */
	assert_int_equal(pk_mexpr__parse(&e, chain, &err), 0);
	pk_mexpr__free(e);
	free(chain);
	/* NULL error report, NULL text */
	assert_int_equal(pk_mexpr__parse(&e, "1 +", NULL), -EINVAL);
	assert_int_equal(pk_mexpr__parse(&e, NULL, &err), -EINVAL);
}

static void test_error_format(void **state)
{
	(void)state;
	const char *text = "a + b <= c";
	struct pk_mexpr *e;
	struct pk_spec_error err;
	char buf[512];
	assert_int_equal(pk_mexpr__parse(&e, text, &err), -EINVAL);
	pk_spec_error__format(&err, text, buf, sizeof(buf));
	assert_string_equal(buf, "a + b <= c\n       ^\nno '=', '==', '<=', '>=' or '!=' in perf's "
				 "expressions: compare with '<' and '>'");
	/* long texts are windowed around the error */
	char lng[400];
	memset(lng, 'x', 300);
	strcpy(lng + 300, " + + y");
	assert_int_equal(pk_mexpr__parse(&e, lng, &err), -EINVAL);
	assert_int_equal(err.off, 303);
	pk_spec_error__format(&err, lng, buf, sizeof(buf));
	const char *nl = strchr(buf, '\n');
	assert_non_null(nl);
	assert_true(nl - buf < 120);
	assert_int_equal(strncmp(buf, "..", 2), 0);	/* cut ends marked ".." */
	const char *caret = strchr(nl + 1, '^');
	assert_non_null(caret);
	assert_int_equal(buf[caret - (nl + 1)], '+');	/* the caret is under the 2nd '+' */
	/* a small buffer is cut, not overrun */
	pk_spec_error__format(&err, lng, buf, 10);
	assert_int_equal(strlen(buf), 9);
}

/* --- identifiers --------------------------------------------------------------------- */

static void test_ids(void **state)
{
	(void)state;
	const char *text =
		"cpu@INST_RETIRED.ANY@ / INST_RETIRED.ANY:k + topdown\\-retiring"
		" + UNC_CHA_TOR_INSERTS.IA_MISS_DRD\\,config1\\=0x4043300000000 + msr@tsc@ * #smt_on"
		" + source_count(l3_cache_misses) + has_event(cpu_core@TOPDOWN.SLOTS@)"
		" + strcmp_cpuid_str(0x410fd493) + INST_RETIRED.ANY:k + duration_time"
		" + cpu@UOPS_EXECUTED.CORE\\,cmask\\=1@ + #SMT_on + l3_cache_misses";
	static const struct {
		const char *name;
		enum pk_mexpr_id_kind kind;
		const char *written;
	} want[] = {
		{ "cpu@INST_RETIRED.ANY@", PK_MEXPR_ID_EVENT, "cpu@INST_RETIRED.ANY@" },
		{ "INST_RETIRED.ANY:k", PK_MEXPR_ID_EVENT, "INST_RETIRED.ANY:k" },
		{ "topdown-retiring", PK_MEXPR_ID_EVENT, "topdown\\-retiring" },
		{ "UNC_CHA_TOR_INSERTS.IA_MISS_DRD,config1=0x4043300000000", PK_MEXPR_ID_EVENT,
		  "UNC_CHA_TOR_INSERTS.IA_MISS_DRD\\,config1\\=0x4043300000000" },
		{ "msr@tsc@", PK_MEXPR_ID_EVENT, "msr@tsc@" },
		{ "#smt_on", PK_MEXPR_ID_LITERAL, "#smt_on" },
		{ "l3_cache_misses", PK_MEXPR_ID_SOURCE_COUNT, "l3_cache_misses" },
		{ "cpu_core@TOPDOWN.SLOTS@", PK_MEXPR_ID_HAS_EVENT, "cpu_core@TOPDOWN.SLOTS@" },
		{ "0x410fd493", PK_MEXPR_ID_CPUID, "0x410fd493" },
		{ "duration_time", PK_MEXPR_ID_EVENT, "duration_time" },
		{ "cpu@UOPS_EXECUTED.CORE,cmask=1@", PK_MEXPR_ID_EVENT,
		  "cpu@UOPS_EXECUTED.CORE\\,cmask\\=1@" },
		{ "#SMT_on", PK_MEXPR_ID_LITERAL, "#SMT_on" },
		{ "l3_cache_misses", PK_MEXPR_ID_EVENT, "l3_cache_misses" },
	};
	struct pk_mexpr *e;
	struct pk_spec_error err;
	assert_int_equal(pk_mexpr__parse(&e, text, &err), 0);
	assert_string_equal(pk_mexpr__text(e), text);
	assert_int_equal(pk_mexpr__nr_ids(e), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pk_mexpr_id *id = pk_mexpr__id(e, i);
		assert_string_equal(id->name, want[i].name);
		assert_int_equal(id->kind, want[i].kind);
		assert_int_equal(id->len, strlen(want[i].written));
		assert_memory_equal(text + id->off, want[i].written, id->len);
		assert_false(id->runtime_param);
		assert_int_equal(pk_mexpr__find_id(e, id->kind, id->name), (long)i);
	}
	assert_null(pk_mexpr__id(e, 99));
	assert_int_equal(pk_mexpr__find_id(e, PK_MEXPR_ID_METRIC, "x"), -ENOENT);
	assert_int_equal(pk_mexpr__id(e, 5)->literal, PK_MEXPR_LIT_SMT_ON);
	assert_int_equal(pk_mexpr__id(e, 11)->literal, PK_MEXPR_LIT_SMT_ON);
	assert_int_equal(pk_mexpr__id(e, 0)->literal, PK_MEXPR_LIT_NONE);
	/* events as perf's metric code opens them */
	char buf[128];
	assert_int_equal(pk_mexpr_id__event_spec(pk_mexpr__id(e, 0), buf, sizeof(buf)), 21);
	assert_string_equal(buf, "cpu/INST_RETIRED.ANY/");
	pk_mexpr_id__event_spec(pk_mexpr__id(e, 10), buf, sizeof(buf));
	assert_string_equal(buf, "cpu/UOPS_EXECUTED.CORE,cmask=1/");
	pk_mexpr_id__event_spec(pk_mexpr__id(e, 1), buf, sizeof(buf));
	assert_string_equal(buf, "INST_RETIRED.ANY:k");
	pk_mexpr_id__event_spec(pk_mexpr__id(e, 0), buf, 5);
	assert_string_equal(buf, "cpu/");
	pk_mexpr__free(e);

	/* every literal perf knows */
	static const struct {
		const char *name;
		enum pk_mexpr_literal lit;
	} lits[] = {
		{ "#num_cpus", PK_MEXPR_LIT_NUM_CPUS }, { "#num_cpus_online", PK_MEXPR_LIT_NUM_CPUS_ONLINE },
		{ "#system_tsc_freq", PK_MEXPR_LIT_SYSTEM_TSC_FREQ },
		{ "#SYSTEM_TSC_FREQ", PK_MEXPR_LIT_SYSTEM_TSC_FREQ }, { "#smt_on", PK_MEXPR_LIT_SMT_ON },
		{ "#core_wide", PK_MEXPR_LIT_CORE_WIDE }, { "#num_packages", PK_MEXPR_LIT_NUM_PACKAGES },
		{ "#num_dies", PK_MEXPR_LIT_NUM_DIES }, { "#num_cores", PK_MEXPR_LIT_NUM_CORES },
		{ "#slots", PK_MEXPR_LIT_SLOTS }, { "#has_pmem", PK_MEXPR_LIT_HAS_PMEM },
	};
	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		assert_int_equal(pk_mexpr__parse(&e, lits[i].name, &err), 0);
		assert_int_equal(pk_mexpr__id(e, 0)->kind, PK_MEXPR_ID_LITERAL);
		assert_int_equal(pk_mexpr__id(e, 0)->literal, lits[i].lit);
		pk_mexpr__free(e);
	}

	/* '?' is perf's runtime parameter (powerpc hv_24x7 per-chip metrics) */
	struct pk_mexpr_opts opts = { .sz = sizeof(opts), .runtime = 3 };
	assert_int_equal(pk_mexpr__parse_opts(&e, "hv_24x7@PM_PB_VG_PUMP01\\,chip\\=?@ * 2", &opts,
					      &err), 0);
	assert_string_equal(pk_mexpr__id(e, 0)->name, "hv_24x7@PM_PB_VG_PUMP01,chip=3@");
	assert_true(pk_mexpr__id(e, 0)->runtime_param);
	pk_mexpr_id__event_spec(pk_mexpr__id(e, 0), buf, sizeof(buf));
	assert_string_equal(buf, "hv_24x7/PM_PB_VG_PUMP01,chip=3/");
	pk_mexpr__free(e);
	assert_int_equal(pk_mexpr__parse(&e, "a@b\\=?@", &err), 0);	/* default: 0 */
	assert_string_equal(pk_mexpr__id(e, 0)->name, "a@b=0@");
	pk_mexpr__free(e);

	/* keywords are case-sensitive; longer words are identifiers */
	assert_int_equal(pk_mexpr__parse(&e, "MIN + minimum + iff + NaNx + d_ratios", &err), 0);
	assert_int_equal(pk_mexpr__nr_ids(e), 5);
	assert_string_equal(pk_mexpr__id(e, 3)->name, "NaNx");
	pk_mexpr__free(e);
}

static int counting_lookup(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	unsigned *calls = ctx;
	calls[0]++;
	if (!strcmp(id->name, "fail"))
		return -EIO;
	if (!strcmp(id->name, "known") || !strcmp(id->name, "#smt_on")) {
		*v = 5;
		return 0;
	}
	return -ENOENT;
}

static void test_eval_lookup(void **state)
{
	(void)state;
	struct pk_mexpr *e;
	unsigned calls = 0;
	double v;
	/* each identifier asked once, however often it is written */
	assert_int_equal(pk_mexpr__parse(&e, "known + known * known - known / known", NULL), 0);
	assert_int_equal(pk_mexpr__eval(e, counting_lookup, &calls, &v), 0);
	assert_int_equal(calls, 1);
	assert_true(v == 5 + 25 - 1);
	pk_mexpr__free(e);
	/* an error of the lookup stops the evaluation */
	assert_int_equal(pk_mexpr__parse(&e, "known + fail", NULL), 0);
	assert_int_equal(pk_mexpr__eval(e, counting_lookup, &calls, &v), -EIO);
	pk_mexpr__free(e);
	/* an unknown literal fails, unknown events are NaN, unknown has_event is 0 */
	assert_int_equal(pk_mexpr__parse(&e, "#num_cpus", NULL), 0);
	assert_int_equal(pk_mexpr__eval(e, counting_lookup, &calls, &v), -ENOENT);
	pk_mexpr__free(e);
	assert_int_equal(pk_mexpr__parse(&e, "has_event(x) + source_count(known)", NULL), 0);
	assert_int_equal(pk_mexpr__eval(e, counting_lookup, &calls, &v), 0);
	assert_true(v == 5);
	pk_mexpr__free(e);
	assert_int_equal(pk_mexpr__parse(&e, "unknown * 0 + known", NULL), 0);
	assert_int_equal(pk_mexpr__eval(e, counting_lookup, &calls, &v), 0);
	assert_true(isnan(v));
	assert_int_equal(pk_mexpr__eval(e, NULL, NULL, &v), 0);	/* no lookup: all unknown */
	assert_true(isnan(v));
	pk_mexpr__free(e);
	pk_mexpr__free(NULL);
}

/* Which events are needed once literals are known (perf's compute_ids). */
static void needed(const char *text, const struct kv *kv, const char *want)
{
	struct pk_mexpr *e;
	struct pk_spec_error err;
	if (pk_mexpr__parse(&e, text, &err))
		fail_msg("'%s': %s", text, err.msg);
	bool need[32];
	struct table t = { kv, 0 };
	assert_int_equal(pk_mexpr__needed_ids(e, kv ? table_lookup : NULL, &t, need), 0);
	char got[256] = "";
	for (size_t i = 0; i < pk_mexpr__nr_ids(e); i++)
		if (need[i]) {
			strcat(got, *got ? " " : "");
			strcat(got, pk_mexpr__id(e, i)->name);
		}
	pk_mexpr__free(e);
	if (strcmp(got, want))
		fail_msg("'%s' needs '%s', want '%s'", text, got, want);
}

static void test_needed_ids(void **state)
{
	(void)state;
	static const struct kv smt1[] = { { "#smt_on", 1 }, { "E", 1 }, { NULL, 0 } };
	static const struct kv smt0[] = { { "#smt_on", 0 }, { "E", 0 }, { NULL, 0 } };
	needed("A if #smt_on else B", smt1, "A");
	needed("A if #smt_on else B", smt0, "B");
	needed("A if #smt_on else B", NULL, "A B");
	needed("(A + C) / 2 if #smt_on else B * 3", smt1, "A C");
	needed("A if has_event(E) else B", smt1, "A");
	needed("A if has_event(E) else B", smt0, "B");
	needed("A if 1 else B", NULL, "A");
	needed("A if 0 else B", NULL, "B");
	needed("1 if C else 1", NULL, "");	/* both branches the same constant */
	needed("A if C else A", NULL, "A C");
	needed("A * 0", NULL, "A");		/* perf keeps it (the slots trick) */
	needed("A / 0", NULL, "");
	needed("d_ratio(A, 0)", NULL, "");
	needed("d_ratio(A, B)", NULL, "A B");
	needed("0 & A", NULL, "");
	needed("1 & A", NULL, "A");
	needed("1 | A", NULL, "");
	needed("0 | A", NULL, "A");
	needed("A & B", NULL, "A B");
	needed("A ^ 1", NULL, "A");
	needed("min(A, 1)", NULL, "A");
	needed("source_count(A) * B", NULL, "A B");
	needed("#smt_on * 2", smt1, "");
	needed("-A", NULL, "A");
	needed("max(A, B) if #smt_on * 0 else C", smt1, "C");
	needed("(A if #smt_on else B) + (C if #smt_on else D)", smt0, "B D");
}

static void test_print_roundtrip(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"topdown\\-be\\-bound / (topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
		"topdown\\-retiring + topdown\\-be\\-bound) + 5 * INT_MISC.CLEARS_COUNT / "
		"tma_info_thread_slots",
		"(CPU_CLK_UNHALTED.DISTRIBUTED if #SMT_on else tma_info_thread_clks)",
		"100 * (1 - 10 * a / b) * -c % 7 ^ 1 | 0 & d < e > f",
		"min(1e-9, 0.1) + max(1e20, NaN) + d_ratio(source_count(x), has_event(y)) + "
		"strcmp_cpuid_str(0x410fd493)",
		"cpu@UOPS_EXECUTED.CORE\\,cmask\\=1@ - msr@tsc@:u",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct pk_mexpr *e1, *e2;
		char p1[1024], p2[1024];
		assert_int_equal(pk_mexpr__parse(&e1, texts[i], NULL), 0);
		size_t n = pk_mexpr__print(e1, p1, sizeof(p1));
		assert_int_equal(n, strlen(p1));
		if (pk_mexpr__parse(&e2, p1, NULL))
			fail_msg("printed '%s' does not parse", p1);
		pk_mexpr__print(e2, p2, sizeof(p2));
		assert_string_equal(p1, p2);
		assert_int_equal(pk_mexpr__nr_ids(e1), pk_mexpr__nr_ids(e2));
		double v1, v2;
		struct table t = { vars, 0 };
		assert_int_equal(pk_mexpr__eval(e1, table_lookup, &t, &v1), 0);
		assert_int_equal(pk_mexpr__eval(e2, table_lookup, &t, &v2), 0);
		assert_true((isnan(v1) && isnan(v2)) || v1 == v2);
		/* a short buffer: cut and terminated, the full length returned */
		char small[8];
		assert_int_equal(pk_mexpr__print(e1, small, sizeof(small)), n);
		assert_int_equal(strlen(small), 7);
		pk_mexpr__free(e1);
		pk_mexpr__free(e2);
	}
	printed("1e20 + 0.1 + 1e-9", "((1e20 + 0.10000000000000001) + 1.0000000000000001e-09)");
}

static void test_scale(void **state)
{
	(void)state;
	double v;
	const char *unit;
	assert_int_equal(pk_metric__scale("100%", 0.25, &v, &unit), 0);
	assert_true(v == 25);
	assert_string_equal(unit, "%");
	assert_int_equal(pk_metric__scale("1e3per_1k_instr", 0.002, &v, &unit), 0);
	assert_true(fabs(v - 2) < 1e-12);
	assert_string_equal(unit, "per_1k_instr");
	assert_int_equal(pk_metric__scale("9.765625e-4KB", 1024, &v, &unit), 0);
	assert_true(v == 1);
	assert_string_equal(unit, "KB");
	assert_int_equal(pk_metric__scale("1percent of slots", 3, &v, &unit), 0);
	assert_true(v == 3);
	assert_string_equal(unit, "percent of slots");
	assert_int_equal(pk_metric__scale(NULL, 7, &v, &unit), 0);
	assert_true(v == 7);
	assert_string_equal(unit, "");
	assert_int_equal(pk_metric__scale("GHz", 2, &v, &unit), 0);
	assert_true(v == 2);
	assert_string_equal(unit, "GHz");
}

/* --- catalog metrics: a tree of our own ---------------------------------------------- */

static char fixture_dir[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct pk_catalog *fixture_catalog(size_t *model)
{
	char path[256];
	strcpy(fixture_dir, "/tmp/pk_metric_XXXXXX");
	assert_non_null(mkdtemp(fixture_dir));
	snprintf(path, sizeof(path), "%s/x86", fixture_dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/x86/mapfile.csv", fixture_dir);
	write_file(path, "Family-model,Version,Filename,EventType\nGenuineIntel-6-99,v1,cyc,core\n");
	snprintf(path, sizeof(path), "%s/x86/cyc", fixture_dir);
	assert_int_equal(mkdir(path, 0755), 0);
	/* one event too: a model without events trips UBSan in image_build.c's emit_index */
	snprintf(path, sizeof(path), "%s/x86/cyc/pipeline.json", fixture_dir);
	write_file(path, "[{\"EventName\": \"CPU_CLK_UNHALTED.THREAD\", \"EventCode\": \"0x3c\","
			 " \"BriefDescription\": \"Core cycles\"}]\n");
	snprintf(path, sizeof(path), "%s/x86/cyc/metrics.json", fixture_dir);
	write_file(path,
		   "[\n"
		   " {\"MetricName\": \"loop_a\", \"MetricExpr\": \"loop_b + 1\"},\n"
		   " {\"MetricName\": \"loop_b\", \"MetricExpr\": \"2 * LOOP_A\"},\n"
		   " {\"MetricName\": \"self\", \"MetricExpr\": \"self + 1\"},\n"
		   " {\"MetricName\": \"broken\", \"MetricExpr\": \"1 +\"},\n"
		   " {\"MetricName\": \"uses_broken\", \"MetricExpr\": \"broken * 2\"},\n"
		   " {\"MetricName\": \"hy\", \"MetricExpr\": \"cycles\", \"Unit\": \"cpu_core\"},\n"
		   " {\"MetricName\": \"hy\", \"MetricExpr\": \"instructions\", \"Unit\": \"cpu_atom\"},\n"
		   " {\"MetricName\": \"atom_ipc\", \"MetricExpr\": \"hy / cycles\", \"Unit\": \"cpu_atom\"},\n"
		   " {\"MetricName\": \"core_x\", \"MetricExpr\": \"hy * 2\", \"Unit\": \"cpu_core\"},\n"
		   " {\"MetricName\": \"base\", \"MetricExpr\": \"d_ratio(instructions, cycles)\"},\n"
		   " {\"MetricName\": \"mid\", \"MetricExpr\": \"base * 10 + base\","
		   "  \"MetricThreshold\": \"mid > 10 & top < 100\", \"ScaleUnit\": \"100%\"},\n"
		   " {\"MetricName\": \"top\", \"MetricExpr\": \"(mid + base if #smt_on else slots) + "
		   "source_count(cycles)\", \"MetricThreshold\": \"top > 1000\"},\n"
		   " {\"MetricName\": \"nan_thr\", \"MetricExpr\": \"1\", \"MetricThreshold\": \"nope > 1\"}\n"
		   "]\n");
	struct pk_catalog *cat;
	struct pk_error err = { 0 };
	char msg[1024];
	if (pk_catalog__open_dir(&cat, fixture_dir, NULL, &err))
		fail_msg("open_dir: %s", pk_error__format(&err, msg, sizeof(msg)));
	assert_int_equal(pk_catalog__find_model(cat, "cyc", model), 0);
	return cat;
}

static void remove_fixture(void)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/x86/cyc/metrics.json", fixture_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/x86/cyc/pipeline.json", fixture_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/x86/mapfile.csv", fixture_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/x86/cyc", fixture_dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/x86", fixture_dir);
	rmdir(path);
	rmdir(fixture_dir);
}

static const struct kv counts[] = {
	{ "cycles", 1000 }, { "instructions", 3000 }, { "#smt_on", 1 }, { "slots", 7 }, { NULL, 0 },
};

static int counts_lookup(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	struct table *t = ctx;
	if (id->kind == PK_MEXPR_ID_SOURCE_COUNT) {
		*v = 2;
		return 0;
	}
	return table_lookup(t, id, v);
}

static int collect(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	(void)v;
	(void)id;
	(void)ctx;
	return -ENOENT;
}

static int add_name(void *ctx, const struct pk_mexpr_id *id)
{
	char *s = ctx;
	strcat(s, *s ? " " : "");
	if (id->kind == PK_MEXPR_ID_SOURCE_COUNT)
		strcat(s, "#");
	strcat(s, id->name);
	return 0;
}

static size_t metric_idx(struct pk_catalog *cat, size_t model, const char *name, const char *pmu)
{
	struct pk_model md;
	pk_catalog__model(cat, model, &md);
	for (size_t i = 0; i < md.nr_metrics; i++) {
		struct pk_metric m = { .sz = sizeof(m) };
		pk_catalog__metric(cat, model, i, &m);
		if (!strcmp(m.name, name) && (!pmu || !strcmp(m.pmu, pmu)))
			return i;
	}
	fail_msg("no metric %s", name);
	return 0;
}

static void test_catalog_fixture(void **state)
{
	(void)state;
	size_t model;
	struct pk_catalog *cat = fixture_catalog(&model);
	struct table t = { counts, 0 };
	double v;

	/* references through two levels, memoised; the literal and source_count from the lookup */
	assert_int_equal(pk_metric__eval(cat, model, "base", counts_lookup, &t, &v), 0);
	assert_true(v == 3);
	assert_int_equal(pk_metric__eval(cat, model, "mid", counts_lookup, &t, &v), 0);
	assert_true(v == 33);
	assert_int_equal(pk_metric__eval(cat, model, "TOP", counts_lookup, &t, &v), 0);
	assert_true(v == 36 + 2);
	/* thresholds: mid > 10 & top < 100 -> 1; top > 1000 -> 0; over an unknown -> no data */
	assert_int_equal(pk_metric__threshold_exceeded(cat, model, "mid", counts_lookup, &t), 1);
	assert_int_equal(pk_metric__threshold_exceeded(cat, model, "top", counts_lookup, &t), 0);
	assert_int_equal(pk_metric__threshold_exceeded(cat, model, "nan_thr", counts_lookup, &t),
			 -ENODATA);
	assert_int_equal(pk_metric__threshold_exceeded(cat, model, "base", counts_lookup, &t),
			 -ENOENT);
	assert_int_equal(pk_metric__threshold_exceeded(cat, model, "absent", counts_lookup, &t),
			 -ENOENT);

	/* cycles (through a differently cased name too) and self references */
	struct pk_metric_eval *ev;
	const char *which;
	assert_int_equal(pk_metric_eval__new(&ev, cat, model), 0);
	assert_null(pk_metric_eval__error(ev, NULL));
	assert_int_equal(pk_metric_eval__value_name(ev, "loop_a", counts_lookup, &t, &v), -ELOOP);
	assert_non_null(pk_metric_eval__error(ev, &which));
	assert_string_equal(which, "loop_a");
	assert_int_equal(pk_metric_eval__value_name(ev, "loop_b", counts_lookup, &t, &v), -ELOOP);
	assert_int_equal(pk_metric_eval__value_name(ev, "self", counts_lookup, &t, &v), -ELOOP);
	assert_string_equal(which, "self");
	/* an expression that does not parse, directly or through a reference */
	assert_int_equal(pk_metric_eval__value_name(ev, "broken", counts_lookup, &t, &v), -EINVAL);
	const struct pk_spec_error *err = pk_metric_eval__error(ev, &which);
	assert_string_equal(which, "broken");
	assert_int_equal(err->off, 3);
	assert_int_equal(pk_metric_eval__value_name(ev, "uses_broken", counts_lookup, &t, &v),
			 -EINVAL);
	assert_null(pk_metric_eval__expr(ev, metric_idx(cat, model, "broken", NULL)));
	assert_int_equal(pk_metric_eval__value_name(ev, "absent", counts_lookup, &t, &v), -ENOENT);
	assert_int_equal(pk_metric_eval__value(ev, 999, counts_lookup, &t, &v), -ENOENT);

	/* hybrid: a reference resolves to the metric of the same PMU */
	assert_int_equal(pk_metric_eval__value(ev, metric_idx(cat, model, "atom_ipc", NULL),
					       counts_lookup, &t, &v), 0);
	assert_true(v == 3);	/* cpu_atom's hy is instructions */
	assert_int_equal(pk_metric_eval__value(ev, metric_idx(cat, model, "core_x", NULL),
					       counts_lookup, &t, &v), 0);
	assert_true(v == 2000);	/* cpu_core's hy is cycles */
	const struct pk_mexpr *ce = pk_metric_eval__expr(ev, metric_idx(cat, model, "core_x", NULL));
	assert_non_null(ce);
	assert_int_equal(pk_mexpr__id(ce, 0)->kind, PK_MEXPR_ID_METRIC);
	assert_int_equal(pk_mexpr__id(ce, 0)->metric, metric_idx(cat, model, "hy", "cpu_core"));

	/* memoised values stay until reset: new counts change nothing before it */
	static const struct kv counts2[] = { { "cycles", 1000 }, { "instructions", 5000 },
					     { "#smt_on", 1 }, { NULL, 0 } };
	struct table t2 = { counts2, 0 };
	size_t base = metric_idx(cat, model, "base", NULL);
	assert_int_equal(pk_metric_eval__value(ev, base, counts_lookup, &t, &v), 0);
	assert_true(v == 3);
	assert_int_equal(pk_metric_eval__value(ev, base, counts_lookup, &t2, &v), 0);
	assert_true(v == 3);
	pk_metric_eval__reset(ev);
	assert_int_equal(pk_metric_eval__value(ev, base, counts_lookup, &t2, &v), 0);
	assert_true(v == 5);

	/* the events a metric tree needs, through references and its threshold */
	char names[256] = "";
	size_t top = metric_idx(cat, model, "top", NULL), mid = metric_idx(cat, model, "mid", NULL);
	assert_int_equal(pk_metric_eval__for_each_event(ev, top, false, NULL, NULL, add_name, names), 0);
	assert_string_equal(names, "instructions cycles slots #cycles");
	static const struct kv smt0[] = { { "#smt_on", 0 }, { NULL, 0 } };
	struct table t0 = { smt0, 0 };
	names[0] = '\0';
	assert_int_equal(pk_metric_eval__for_each_event(ev, top, false, table_lookup, &t0, add_name,
							names), 0);
	assert_string_equal(names, "slots #cycles");
	names[0] = '\0';
	assert_int_equal(pk_metric_eval__for_each_event(ev, mid, true, collect, NULL, add_name,
							names), 0);
	assert_string_equal(names, "instructions cycles slots #cycles");
	size_t loop = metric_idx(cat, model, "loop_a", NULL);
	names[0] = '\0';
	assert_int_equal(pk_metric_eval__for_each_event(ev, loop, false, NULL, NULL, add_name, names), 0);
	assert_string_equal(names, "");
	pk_metric_eval__free(ev);
	pk_catalog__free(cat);
	remove_fixture();
}

/* --- the real tables ------------------------------------------------------------------ */

static void test_real_tree_parses(void **state)
{
	(void)state;
	struct pk_catalog *cat;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	size_t nexpr = 0, nthr = 0, bad = 0, ids = 0, refs = 0, models = 0;
	for (size_t mi = 0; mi < pk_catalog__nr_models(cat); mi++) {
		struct pk_model md;
		assert_int_equal(pk_catalog__model(cat, mi, &md), 0);
		models += md.nr_metrics > 0;
		for (size_t i = 0; i < md.nr_metrics; i++) {
			struct pk_metric m = { .sz = sizeof(m) };
			assert_int_equal(pk_catalog__metric(cat, mi, i, &m), 0);
			const char *texts[2] = { m.expr, m.threshold };
			for (int k = 0; k < 2; k++) {
				if (!texts[k])
					continue;
				struct pk_mexpr *e;
				struct pk_spec_error err;
				char buf[1024];
				if (pk_mexpr__parse(&e, texts[k], &err)) {
					print_message("FAIL %s/%s %s %s:\n%s\n", md.arch, md.name,
						      m.name, k ? "MetricThreshold" : "MetricExpr",
						      pk_spec_error__format(&err, texts[k], buf,
									     sizeof(buf)));
					bad++;
					continue;
				}
				int n = pk_mexpr__resolve_metrics(e, cat, mi, m.pmu);
				assert_true(n >= 0);
				refs += (size_t)n;
				ids += pk_mexpr__nr_ids(e);
				*(k ? &nthr : &nexpr) += 1;
				pk_mexpr__free(e);
			}
		}
	}
	print_message("real tree: %zu MetricExpr and %zu MetricThreshold parsed in %zu models "
		      "(%zu identifiers, %zu metric references), %zu failed\n",
		      nexpr, nthr, models, ids, refs, bad);
	assert_int_equal(bad, 0);
	assert_true(nexpr > 6000);
	assert_true(nthr > 2000);
	pk_catalog__free(cat);
}

/*
 * Synthetic counts for every event of a model: each event a value of its own
 * (1000..1999 from its name) so that denominators rarely vanish. Each event
 * must be a table event of the model or one the kernel or perf defines
 * (legacy, tool, msr, cstate, topdown, TSX events); others are listed.
 */
struct synth {
	struct pk_catalog *cat;
	size_t model;
	unsigned unknown;
};

static bool kernel_event(const char *name)
{
	static const char *const known[] = {
		"duration_time", "user_time", "system_time", "cycles", "instructions", "branches",
		"branch-misses", "cache-misses", "cache-references", "ref-cycles", "bus-cycles",
		"cpu-cycles", "tsc", "aperf", "mperf", "smi", "pperf", "slots", "cycles-t",
		"cycles-ct", "tx-start", "el-start", "tx-commit", "tx-abort", "el-commit",
		"el-abort", "tx-capacity", "tx-conflict", "el-capacity", "el-conflict",
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcasecmp(name, known[i]))
			return true;
	if (!strncmp(name, "topdown-", 8))
		return true;
	unsigned c;
	char rest[32];
	return sscanf(name, "c%u-residenc%31s", &c, rest) == 2 && !strcmp(rest, "y");
}

static int synth_lookup(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	struct synth *s = ctx;
	switch (id->kind) {
	case PK_MEXPR_ID_LITERAL:
		*v = id->literal == PK_MEXPR_LIT_SMT_ON ? 1 : id->literal == PK_MEXPR_LIT_SLOTS ? 4
		   : id->literal == PK_MEXPR_LIT_SYSTEM_TSC_FREQ ? 2e9 : 8;
		return 0;
	case PK_MEXPR_ID_HAS_EVENT:
		*v = 1;
		return 0;
	case PK_MEXPR_ID_CPUID:
		*v = 0;
		return 0;
	case PK_MEXPR_ID_SOURCE_COUNT:
		*v = 1;
		return 0;
	default:
		break;
	}
	/* "pmu@NAME,terms@", "NAME:mods": the event is NAME; raw "pmu@event=0x..@" is fine */
	char name[512], *evn = name, *p;
	snprintf(name, sizeof(name), "%s", id->name);
	if ((p = strchr(name, '@'))) {
		evn = p + 1;
		if ((p = strrchr(evn, '@')))
			*p = '\0';
		if ((p = strchr(evn, ',')))
			*p = '\0';
	} else if ((p = strchr(name, ':'))) {
		*p = '\0';
	}
	size_t first, count;
	if (!strchr(evn, '=') && !kernel_event(evn) &&
	    pk_catalog__find_event(s->cat, s->model, evn, NULL, &first, &count)) {
		print_message("  unknown event '%s' (written '%s')\n", evn, id->name);
		s->unknown++;
	}
	unsigned h = 5381;
	for (const char *c = id->name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	*v = 1000 + h % 1000;
	return 0;
}

static int count_event(void *ctx, const struct pk_mexpr_id *id)
{
	(void)id;
	++*(size_t *)ctx;
	return 0;
}

static void test_real_models_eval(void **state)
{
	(void)state;
	static const char *const models[] = { "skylake", "icelake", "sapphirerapids", "amdzen4",
					      "neoverse-n1" };
	struct pk_catalog *cat;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	unsigned total_unknown = 0, total_failed = 0;
	for (size_t k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		struct synth s = { cat, 0, 0 };
		assert_int_equal(pk_catalog__find_model(cat, models[k], &s.model), 0);
		struct pk_model md;
		pk_catalog__model(cat, s.model, &md);
		struct pk_metric_eval *ev;
		assert_int_equal(pk_metric_eval__new(&ev, cat, s.model), 0);
		size_t nan = 0, failed = 0, refs = 0, thr = 0, thr_hit = 0, nevents = 0;
		for (size_t i = 0; i < md.nr_metrics; i++) {
			struct pk_metric m = { .sz = sizeof(m) };
			double v;
			pk_catalog__metric(cat, s.model, i, &m);
			int rc = pk_metric_eval__value(ev, i, synth_lookup, &s, &v);
			if (rc) {
				print_message("  FAIL %s/%s: error %d\n", md.name, m.name, rc);
				failed++;
				continue;
			}
			nan += isnan(v);
			const struct pk_mexpr *e = pk_metric_eval__expr(ev, i);
			for (size_t j = 0; j < pk_mexpr__nr_ids(e); j++)
				refs += pk_mexpr__id(e, j)->kind == PK_MEXPR_ID_METRIC;
			if (m.threshold) {
				rc = pk_metric_eval__threshold(ev, i, synth_lookup, &s);
				if (rc < 0 && rc != -ENODATA) {
					print_message("  FAIL %s/%s threshold: error %d\n", md.name,
						      m.name, rc);
					failed++;
				}
				thr++;
				thr_hit += rc == 1;
			}
		}
		/* the events each metric needs (threshold included, #smt_on = 1 folded) */
		for (size_t i = 0; i < md.nr_metrics; i++) {
			int rc = pk_metric_eval__for_each_event(ev, i, true, synth_lookup, &s,
								count_event, &nevents);
			if (rc) {
				print_message("  FAIL %s metric %zu events: error %d\n", md.name, i, rc);
				failed++;
			}
		}
		print_message("%s: %zu metrics evaluated (%zu NaN from zero denominators), %zu "
			      "references, %zu thresholds (%zu exceeded), %zu events opened in all, "
			      "%u unknown events, %zu failures\n", md.name, md.nr_metrics, nan, refs,
			      thr, thr_hit, nevents, s.unknown, failed);
		total_unknown += s.unknown;
		total_failed += (unsigned)failed;
		pk_metric_eval__free(ev);
	}
	assert_int_equal(total_unknown, 0);
	assert_int_equal(total_failed, 0);
	pk_catalog__free(cat);
}

/* --- TopDown from known counts ------------------------------------------------------------ */

struct topdown_case {
	const char *metric;
	double want;		/* fraction; ScaleUnit 100% makes it a percentage */
	int threshold;		/* 1 exceeded, 0 not */
};

static void topdown_check(const char *model_name, const struct kv *kv,
			  const struct topdown_case *cases, size_t n)
{
	struct pk_catalog *cat;
	size_t model;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	assert_int_equal(pk_catalog__find_model(cat, model_name, &model), 0);
	struct pk_metric_eval *ev;
	assert_int_equal(pk_metric_eval__new(&ev, cat, model), 0);
	struct table t = { kv, 0 };
	for (size_t i = 0; i < n; i++) {
		size_t idx;
		struct pk_metric m = { .sz = sizeof(m) };
		double v, pct;
		const char *unit;
		assert_int_equal(pk_catalog__find_metric(cat, model, cases[i].metric, &idx), 0);
		pk_catalog__metric(cat, model, idx, &m);
		int rc = pk_metric_eval__value(ev, idx, table_lookup, &t, &v);
		if (rc || !(fabs(v - cases[i].want) < 1e-12))
			fail_msg("%s %s = %.17g (error %d), want %.17g", model_name, cases[i].metric, v,
				 rc, cases[i].want);
		assert_int_equal(pk_metric__scale(m.unit, v, &pct, &unit), 0);
		assert_string_equal(unit, "%");
		assert_true(fabs(pct - 100 * cases[i].want) < 1e-9);
		rc = pk_metric_eval__threshold(ev, idx, table_lookup, &t);
		if (rc != cases[i].threshold)
			fail_msg("%s %s threshold '%s' gives %d, want %d", model_name, cases[i].metric,
				 m.threshold, rc, cases[i].threshold);
		print_message("  %s %-22s %6.2f%s%s\n", model_name, cases[i].metric, pct, unit,
			      rc == 1 ? "  (past its threshold)" : "");
	}
	pk_metric_eval__free(ev);
	pk_catalog__free(cat);
}

/*
 * Ice Lake: level 1 from the slots + topdown-* group (perf's PERF_METRICS
 * events, already scaled to slots), level 2 from the JSON formulas.
 *   slots 1e6; retiring 250000, bad-spec 100000, fe-bound 350000, be-bound 300000
 *   INT_MISC.CLEARS_COUNT 2000 -> 5 * 2000 / 1e6 = 0.01 moved to backend bound
 *   INT_MISC.UOP_DROPPING 10000 -> 0.01 taken from frontend bound
 *   retiring 0.25; frontend 0.35 - 0.01 = 0.34; backend 0.30 + 0.01 = 0.31;
 *   bad speculation max(1 - (0.34 + 0.31 + 0.25), 0) = 0.10
 *   fetch latency (5 * 42000 - 10000) / 1e6 = 0.20; fetch bandwidth 0.34 - 0.20 = 0.14
 *   branch mispredicts 9000 / (9000 + 1000) * 0.10 = 0.09; machine clears 0.01
 *   memory bound (30000 + 10000) / (50000 + (15000 + 0.25 * 20000) + 10000) * 0.31
 *                = 0.5 * 0.31 = 0.155; core bound 0.31 - 0.155 = 0.155
 *   microcode sequencer 80000 / 100000 * 50000 / 1e6 = 0.04
 *   heavy operations 0.04 + 0.25 * (30000 - 10000) / 100000 = 0.09; light 0.16
 */
static void test_topdown_icelake(void **state)
{
	(void)state;
	static const struct kv kv[] = {
		{ "TOPDOWN.SLOTS", 1e6 },
		{ "topdown-retiring", 250000 },
		{ "topdown-bad-spec", 100000 },
		{ "topdown-fe-bound", 350000 },
		{ "topdown-be-bound", 300000 },
		{ "INT_MISC.CLEARS_COUNT", 2000 },
		{ "INT_MISC.UOP_DROPPING", 10000 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 42000 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 9000 },
		{ "MACHINE_CLEARS.COUNT", 1000 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 30000 },
		{ "EXE_ACTIVITY.BOUND_ON_STORES", 10000 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 50000 },
		{ "EXE_ACTIVITY.1_PORTS_UTIL", 15000 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 20000 },
		{ "UOPS_RETIRED.SLOTS", 80000 },
		{ "UOPS_ISSUED.ANY", 100000 },
		{ "IDQ.MS_UOPS", 50000 },
		{ "UOPS_DECODED.DEC0", 30000 },
		{ "cpu@UOPS_DECODED.DEC0,cmask=1@", 10000 },
		{ "IDQ.MITE_UOPS", 100000 },
		{ "#SMT_on", 1 },
		{ NULL, 0 },
	};
	static const struct topdown_case cases[] = {
		{ "tma_retiring", 0.25, 0 },	/* 0.25 > 0.7 | 0.09 > 0.1 */
		{ "tma_bad_speculation", 0.10, 0 },
		{ "tma_frontend_bound", 0.34, 1 },
		{ "tma_backend_bound", 0.31, 1 },
		{ "tma_heavy_operations", 0.09, 0 },
		{ "tma_light_operations", 0.16, 0 },
		{ "tma_branch_mispredicts", 0.09, 0 },
		{ "tma_machine_clears", 0.01, 0 },
		{ "tma_fetch_latency", 0.20, 1 },	/* 0.20 > 0.1 & 0.34 > 0.15 */
		{ "tma_fetch_bandwidth", 0.14, 0 },
		{ "tma_memory_bound", 0.155, 0 },
		{ "tma_core_bound", 0.155, 1 },		/* 0.155 > 0.1 & 0.31 > 0.2 */
	};
	topdown_check("icelake", kv, cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * Sapphire Rapids: level 2 from the upper half of PERF_METRICS
 * (topdown-heavy-ops, -br-mispredict, -fetch-lat, -mem-bound), the other four
 * by topdown.txt's subtractions (light = retiring - heavy, machine clears =
 * bad speculation - branch mispredicts, fetch bandwidth = frontend - fetch
 * latency, core bound = backend - memory bound). Fields as topdown.txt decodes
 * them: slots 1e6 and each ratio field/0xff of it; here whole percentages.
 */
static void test_topdown_sapphirerapids(void **state)
{
	(void)state;
	static const struct kv kv[] = {
		{ "TOPDOWN.SLOTS", 1e6 },
		{ "topdown-retiring", 250000 },
		{ "topdown-bad-spec", 100000 },
		{ "topdown-fe-bound", 350000 },
		{ "topdown-be-bound", 300000 },
		{ "topdown-heavy-ops", 90000 },
		{ "topdown-br-mispredict", 80000 },
		{ "topdown-fetch-lat", 200000 },
		{ "topdown-mem-bound", 120000 },
		{ "INT_MISC.UOP_DROPPING", 0 },
		{ NULL, 0 },
	};
	static const struct topdown_case cases[] = {
		{ "tma_retiring", 0.25, 0 },
		{ "tma_bad_speculation", 0.10, 0 },
		{ "tma_frontend_bound", 0.35, 1 },
		{ "tma_backend_bound", 0.30, 1 },
		{ "tma_heavy_operations", 0.09, 0 },
		{ "tma_light_operations", 0.25 - 0.09, 0 },
		{ "tma_branch_mispredicts", 0.08, 0 },
		{ "tma_machine_clears", 0.10 - 0.08, 0 },
		{ "tma_fetch_latency", 0.20, 1 },
		{ "tma_fetch_bandwidth", 0.35 - 0.20, 0 },
		{ "tma_memory_bound", 0.12, 0 },
		{ "tma_core_bound", 0.30 - 0.12, 1 },
	};
	topdown_check("sapphirerapids", kv, cases, sizeof(cases) / sizeof(cases[0]));
}

/* perf opens only the live branch: Ice Lake's core clocks with and without SMT. */
static void test_real_needed_events(void **state)
{
	(void)state;
	struct pk_catalog *cat;
	size_t model, idx;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	assert_int_equal(pk_catalog__find_model(cat, "icelake", &model), 0);
	assert_int_equal(pk_catalog__find_metric(cat, model, "tma_info_core_core_clks", &idx), 0);
	struct pk_metric_eval *ev;
	assert_int_equal(pk_metric_eval__new(&ev, cat, model), 0);
	static const struct kv smt1[] = { { "#SMT_on", 1 }, { NULL, 0 } };
	static const struct kv smt0[] = { { "#SMT_on", 0 }, { NULL, 0 } };
	struct table t1 = { smt1, 0 }, t0 = { smt0, 0 };
	char names[256] = "";
	assert_int_equal(pk_metric_eval__for_each_event(ev, idx, false, table_lookup, &t1, add_name,
							names), 0);
	assert_string_equal(names, "CPU_CLK_UNHALTED.DISTRIBUTED");
	names[0] = '\0';
	assert_int_equal(pk_metric_eval__for_each_event(ev, idx, false, table_lookup, &t0, add_name,
							names), 0);
	assert_string_equal(names, "CPU_CLK_UNHALTED.THREAD");
	names[0] = '\0';
	assert_int_equal(pk_metric_eval__for_each_event(ev, idx, false, NULL, NULL, add_name, names),
			 0);
	assert_string_equal(names, "CPU_CLK_UNHALTED.DISTRIBUTED CPU_CLK_UNHALTED.THREAD");
	/* tma_retiring with its threshold (tma_heavy_operations too), as perf opens it */
	assert_int_equal(pk_catalog__find_metric(cat, model, "tma_retiring", &idx), 0);
	names[0] = '\0';
	assert_int_equal(pk_metric_eval__for_each_event(ev, idx, false, table_lookup, &t1, add_name,
							names), 0);
	assert_string_equal(names, "topdown-retiring topdown-fe-bound topdown-bad-spec "
				   "topdown-be-bound TOPDOWN.SLOTS");
	size_t n = 0;
	assert_int_equal(pk_metric_eval__for_each_event(ev, idx, true, table_lookup, &t1,
							count_event, &n), 0);
	assert_true(n > 5);
	pk_metric_eval__free(ev);
	pk_catalog__free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_arith),
		cmocka_unit_test(test_compare_logic),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_if),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_threshold_precedence),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_eval_lookup),
		cmocka_unit_test(test_needed_ids),
		cmocka_unit_test(test_print_roundtrip),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_catalog_fixture),
		cmocka_unit_test(test_real_tree_parses),
		cmocka_unit_test(test_real_models_eval),
		cmocka_unit_test(test_topdown_icelake),
		cmocka_unit_test(test_topdown_sapphirerapids),
		cmocka_unit_test(test_real_needed_events),
	};
	return cmocka_run_group_tests_name("metric_expr", tests, NULL, NULL);
}
