/* SPDX-License-Identifier: MIT */
/*
 * test_expose.c — the Prometheus / OpenMetrics exposition (pmukit/expose.h):
 * the families and their samples in both formats (counters named by their
 * sample in the text format, by their family with "_total" samples, UNIT
 * and "# EOF" in OpenMetrics), label values and HELP escaped as each format
 * requires, events that cannot count as a state set, ratio metrics as
 * numerator and denominator counters and the others as gauges, info
 * metrics, and content negotiation from the Accept header Prometheus sends.
 * (tests/integration/stat_serve.sh feeds real output to promtool and
 * Prometheus.)
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/expose.h>

static char *render(const struct pk_expose_set *s, enum pk_expose_format f)
{
	struct pk_expose_opts o = { .sz = sizeof(o), .format = f };
	struct pk_error err = { 0 };
	char *out = NULL;
	size_t len = 0;
	int r = pk_expose__write(s, &o, &out, &len, &err);
	if (r)
		print_message("pk_expose__write: %s\n", err.msg);
	assert_int_equal(r, 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
	return out;
}

/* text has line as a whole line */
static void has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
	print_message("missing line: %s\nin:\n%s", line, text);
	fail();
}

static void lacks(const char *text, const char *s)
{
	if (strstr(text, s)) {
		print_message("unexpected: %s\nin:\n%s", s, text);
		fail();
	}
}

static const struct pk_expose_label cpu3[] = { { "cpu", "3" } };

static const struct pk_expose_count two_counts[] = {
	{ .event = "context-switches", .pmu = "software", .labels = cpu3, .nr_labels = 1,
	  .value = { .status = PK_COUNT_OK, .raw = 12345678901234ull, .enabled = 2500000000ull,
		     .running = 1250000001ull, .scaled = 1e99 } },
	{ .event = "cycles", .pmu = "cpu", .labels = cpu3, .nr_labels = 1,
	  .value = { .status = PK_COUNT_NOT_SUPPORTED, .open_errno = ENOENT } },
};

static void test_text_counts(void **state)
{
	(void)state;
	struct pk_expose_set s = { .counts = two_counts, .nr_counts = 2, .version = "9.9" };
	char *t = render(&s, PK_EXPOSE_PROMETHEUS);

	has_line(t, "# TYPE pmukit_event_total counter");
	/* raw, never the scaled value */
	has_line(t, "pmukit_event_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 12345678901234");
	has_line(t, "# TYPE pmukit_event_enabled_seconds_total counter");
	has_line(t, "pmukit_event_enabled_seconds_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 2.500000000");
	has_line(t, "pmukit_event_running_seconds_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 1.250000001");
	/* the unsupported event has no count, but a state */
	lacks(t, "pmukit_event_total{event=\"cycles\"");
	has_line(t, "# TYPE pmukit_event_state gauge");
	has_line(t, "pmukit_event_state{event=\"cycles\",pmu=\"cpu\",cpu=\"3\",pmukit_event_state=\"not_supported\"} 1");
	has_line(t, "pmukit_event_state{event=\"cycles\",pmu=\"cpu\",cpu=\"3\",pmukit_event_state=\"counting\"} 0");
	has_line(t, "pmukit_event_state{event=\"context-switches\",pmu=\"software\",cpu=\"3\",pmukit_event_state=\"counting\"} 1");
	has_line(t, "# TYPE pmukit_build_info gauge");
	has_line(t, "pmukit_build_info{version=\"9.9\"} 1");
	/* the text format has no UNIT, no EOF, no info type */
	lacks(t, "# UNIT");
	lacks(t, "# EOF");
	lacks(t, " info\n");
	/* every family has HELP before TYPE */
	for (const char *p = t; (p = strstr(p, "# TYPE ")); p++) {
		const char *name = p + 7;
		size_t n = strcspn(name, " ");
		char help[128];
		snprintf(help, sizeof(help), "# HELP %.*s ", (int)n, name);
		assert_non_null(strstr(t, help));
		assert_true(strstr(t, help) < p);
	}
	free(t);
}

static void test_openmetrics(void **state)
{
	(void)state;
	struct pk_expose_set s = { .counts = two_counts, .nr_counts = 2, .version = "9.9",
				   .cpuid = "GenuineIntel-6-55-4" };
	char *t = render(&s, PK_EXPOSE_OPENMETRICS);

	has_line(t, "# TYPE pmukit_event counter");
	has_line(t, "pmukit_event_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 12345678901234");
	has_line(t, "# TYPE pmukit_event_enabled_seconds counter");
	has_line(t, "# UNIT pmukit_event_enabled_seconds seconds");
	has_line(t, "# UNIT pmukit_event_running_seconds seconds");
	has_line(t, "# TYPE pmukit_event_state stateset");
	has_line(t, "# TYPE pmukit_build info");
	has_line(t, "pmukit_build_info{version=\"9.9\"} 1");
	has_line(t, "# TYPE pmukit_cpuid info");
	has_line(t, "pmukit_cpuid_info{cpuid=\"GenuineIntel-6-55-4\"} 1");
	/* ends with "# EOF" and a newline, once */
	size_t n = strlen(t);
	assert_true(n > 6);
	assert_string_equal(t + n - 6, "# EOF\n");
	assert_ptr_equal(strstr(t, "# EOF"), t + n - 6);
	free(t);
}

/* timestamp_ms: OpenMetrics seconds with 3 decimals, the text format ms; no_eof */
static void test_timestamps(void **state)
{
	(void)state;
	struct pk_expose_set s = { .counts = two_counts, .nr_counts = 2, .version = "9.9" };
	struct pk_expose_metric m = { .metric = "IPC", .value = 1.5, .threshold = 1 };
	struct pk_expose_opts o = { .sz = sizeof(o), .format = PK_EXPOSE_OPENMETRICS,
				    .timestamp_ms = 1764259200042ll, .no_eof = true };
	struct pk_error err = { 0 };
	char *t;

	s.metrics = &m, s.nr_metrics = 1;
	assert_int_equal(pk_expose__write(&s, &o, &t, NULL, &err), 0);
	has_line(t, "pmukit_event_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 12345678901234 1764259200.042");
	has_line(t, "pmukit_event_running_seconds_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 1.250000001 1764259200.042");
	has_line(t, "pmukit_event_state{event=\"cycles\",pmu=\"cpu\",cpu=\"3\",pmukit_event_state=\"not_supported\"} 1 1764259200.042");
	has_line(t, "pmukit_metric_value{metric=\"IPC\"} 1.5 1764259200.042");
	has_line(t, "pmukit_build_info{version=\"9.9\"} 1 1764259200.042");
	lacks(t, "# EOF");
	/* every sample line has it */
	for (const char *p = t; *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");
		if (*p != '#')
			assert_memory_equal(p + n - 15, " 1764259200.042", 15);
	}
	free(t);
	o.format = PK_EXPOSE_PROMETHEUS;
	assert_int_equal(pk_expose__write(&s, &o, &t, NULL, &err), 0);
	has_line(t, "pmukit_event_total{event=\"context-switches\",pmu=\"software\",cpu=\"3\"} 12345678901234 1764259200042");
	has_line(t, "pmukit_metric_threshold_exceeded{metric=\"IPC\"} 1 1764259200042");
	free(t);
	/* an older caller's struct (no timestamp_ms): no timestamps, "# EOF" */
	o.format = PK_EXPOSE_OPENMETRICS;
	o.sz = offsetof(struct pk_expose_opts, timestamp_ms);
	assert_int_equal(pk_expose__write(&s, &o, &t, NULL, &err), 0);
	has_line(t, "pmukit_build_info{version=\"9.9\"} 1");
	assert_non_null(strstr(t, "# EOF\n"));
	free(t);
}

/* label values: \ " and line feed escaped in both formats; HELP: " only in OpenMetrics */
static void test_escaping(void **state)
{
	(void)state;
	static const struct pk_expose_label cg[] = { { "cgroup", "/a\"b\\c\nd" } };
	struct pk_expose_count c = { .event = "tp:ev\"x", .pmu = "p\\q", .labels = cg, .nr_labels = 1,
				     .value = { .status = PK_COUNT_OK, .raw = 7 } };
	struct pk_expose_set s = { .counts = &c, .nr_counts = 1, .version = "v\"1\\\n" };
	const char *want = "pmukit_event_total{event=\"tp:ev\\\"x\",pmu=\"p\\\\q\","
			   "cgroup=\"/a\\\"b\\\\c\\nd\"} 7";

	for (int f = 0; f < 2; f++) {
		char *t = render(&s, (enum pk_expose_format)f);
		has_line(t, want);
		has_line(t, "pmukit_build_info{version=\"v\\\"1\\\\\\n\"} 1");
		free(t);
	}
}

static void test_bad_label(void **state)
{
	(void)state;
	static const struct pk_expose_label bad[][1] = { { { "1cpu", "x" } }, { { "a-b", "x" } },
							 { { "event", "x" } }, { { "__name__", "x" } },
							 { { NULL, "x" } } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pk_expose_count c = { .event = "e", .labels = bad[i], .nr_labels = 1 };
		struct pk_expose_set s = { .counts = &c, .nr_counts = 1 };
		struct pk_error err = { 0 };
		char *out = (char *)1;
		assert_int_equal(pk_expose__write(&s, NULL, &out, NULL, &err), -EINVAL);
		assert_null(out);
		assert_non_null(strstr(err.msg, "label"));
	}
	/* an opts struct from a newer caller asking for something unknown */
	struct { struct pk_expose_opts o; int extra; } big = { { .sz = sizeof(big) }, 1 };
	struct pk_expose_set s = { 0 };
	char *out;
	assert_int_equal(pk_expose__write(&s, &big.o, &out, NULL, NULL), -EINVAL);
}

/* ratios as two counters (a fleet ratio is a ratio of sums), others a gauge */
static void test_metrics(void **state)
{
	(void)state;
	static const struct pk_expose_label s0[] = { { "socket", "0" } };
	struct pk_expose_metric m[] = {
		{ .metric = "tma_retiring", .unit = "%", .scale = 100, .labels = s0, .nr_labels = 1,
		  .ratio = true, .numerator = 1500, .denominator = 4000, .threshold = 1 },
		{ .metric = "IPC", .ratio = true, .numerator = 0.5, .denominator = NAN, .threshold = -1 },
		{ .metric = "cpu_freq_ghz", .unit = "GHz", .value = 2.25, .threshold = 0 },
		{ .metric = "nan_gauge", .value = NAN, .threshold = -1 },
	};
	struct pk_expose_set s = { .metrics = m, .nr_metrics = 4 };

	for (int f = 0; f < 2; f++) {
		char *t = render(&s, (enum pk_expose_format)f);
		has_line(t, f ? "# TYPE pmukit_metric_numerator counter"
			      : "# TYPE pmukit_metric_numerator_total counter");
		has_line(t, "pmukit_metric_numerator_total{metric=\"tma_retiring\",socket=\"0\"} 1500");
		has_line(t, "pmukit_metric_denominator_total{metric=\"tma_retiring\",socket=\"0\"} 4000");
		has_line(t, "pmukit_metric_numerator_total{metric=\"IPC\"} 0.5");
		lacks(t, "pmukit_metric_denominator_total{metric=\"IPC\"}");	/* NaN: left out */
		lacks(t, "pmukit_metric_value{metric=\"tma_retiring\"");	/* no average of ratios */
		has_line(t, "# TYPE pmukit_metric_value gauge");
		has_line(t, "pmukit_metric_value{metric=\"cpu_freq_ghz\"} 2.25");
		lacks(t, "nan_gauge\"}");
		has_line(t, "pmukit_metric_threshold_exceeded{metric=\"tma_retiring\",socket=\"0\"} 1");
		has_line(t, "pmukit_metric_threshold_exceeded{metric=\"cpu_freq_ghz\"} 0");
		lacks(t, "pmukit_metric_threshold_exceeded{metric=\"IPC\"");
		has_line(t, "pmukit_metric_info{metric=\"tma_retiring\",unit=\"%\",scale=\"100\"} 1");
		has_line(t, "pmukit_metric_info{metric=\"IPC\",unit=\"\",scale=\"1\"} 1");
		/* no event families without events */
		lacks(t, "pmukit_event");
		free(t);
	}
}

static void test_negotiate(void **state)
{
	(void)state;
	/* what Prometheus 2.42 sends: OpenMetrics first */
	assert_int_equal(pk_expose__negotiate("application/openmetrics-text;version=1.0.0,"
					      "application/openmetrics-text;version=0.0.1;q=0.75,"
					      "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
			 PK_EXPOSE_OPENMETRICS);
	assert_int_equal(pk_expose__negotiate("application/openmetrics-text; version=1.0.0"),
			 PK_EXPOSE_OPENMETRICS);
	assert_int_equal(pk_expose__negotiate(NULL), PK_EXPOSE_PROMETHEUS);
	assert_int_equal(pk_expose__negotiate("*/*"), PK_EXPOSE_PROMETHEUS);
	assert_int_equal(pk_expose__negotiate("text/plain;version=0.0.4"), PK_EXPOSE_PROMETHEUS);
	assert_int_equal(pk_expose__negotiate("text/plain, application/openmetrics-text;q=0.5"),
			 PK_EXPOSE_PROMETHEUS);
	assert_int_equal(pk_expose__negotiate("application/openmetrics-text;q=0"), PK_EXPOSE_PROMETHEUS);
	assert_string_equal(pk_expose__content_type(PK_EXPOSE_PROMETHEUS),
			    "text/plain; version=0.0.4; charset=utf-8");
	assert_non_null(strstr(pk_expose__content_type(PK_EXPOSE_OPENMETRICS),
			       "application/openmetrics-text; version=1.0.0"));
}

static void test_topology(void **state)
{
	(void)state;
	struct pk_topology *topo = NULL;
	struct pk_error err = { 0 };
	if (pk_topology__read(&topo, NULL, &err))
		skip();
	struct pk_expose_set s = { .topo = topo };
	char *t = render(&s, PK_EXPOSE_OPENMETRICS);
	has_line(t, "# TYPE pmukit_cpu info");
	assert_non_null(strstr(t, "pmukit_cpu_info{cpu=\"0\",socket=\""));
	free(t);
	pk_topology__free(topo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_counts),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_bad_label),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_negotiate),
		cmocka_unit_test(test_topology),
	};
	return cmocka_run_group_tests_name("expose", tests, NULL, NULL);
}
