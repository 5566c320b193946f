/* SPDX-License-Identifier: MIT */
/*
 * test_attr_json.c — struct perf_event_attr to and from the JSON text of
 * pmukit/attr.h: exact strings for an empty and a full attr, every field
 * round-tripped on its own, sample_period vs sample_freq, hex forms, the
 * inputs pk_attr__from_json() must refuse (values, and text that is not one
 * JSON object), and the internal json-c form (evspec/attr_json.h) agreeing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include <pmukit/attr.h>

#include "evspec/attr_json.h"

/* JSON text of attr (the caller frees it). */
static char *to_text(const struct perf_event_attr *attr)
{
	char *s = NULL;

	assert_int_equal(pk_attr__to_json(attr, &s), 0);
	assert_non_null(s);
	return s;
}

/* pk_attr__from_json(), and the same through json-c and the object form. */
static int from_text(const char *text, struct perf_event_attr *attr)
{
	struct json_object *o = json_tokener_parse(text);
	struct perf_event_attr b;
	int rc;

	assert_non_null(o);
	rc = pk_attr__from_json(text, attr);
	assert_int_equal(attr_json__from_object(o, &b), rc);
	if (!rc)
		assert_memory_equal(attr, &b, sizeof(b));
	json_object_put(o);
	return rc;
}

/* The bitfields, in struct order, written out independently of the library. */
static const char *const bits[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", "mmap_data", "sample_id_all",
	"exclude_host", "exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user",
	"mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward", "namespaces",
	"ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap",
};

static const char zero_text[] =
	"{\"type\":0,\"size\":0,\"config\":\"0x0\",\"config1\":\"0x0\",\"config2\":\"0x0\","
	"\"config3\":\"0x0\",\"sample_period\":0,\"sample_type\":0,\"read_format\":0,"
	"\"disabled\":0,\"inherit\":0,\"pinned\":0,\"exclusive\":0,\"exclude_user\":0,"
	"\"exclude_kernel\":0,\"exclude_hv\":0,\"exclude_idle\":0,\"mmap\":0,\"comm\":0,"
	"\"freq\":0,\"inherit_stat\":0,\"enable_on_exec\":0,\"task\":0,\"watermark\":0,"
	"\"precise_ip\":0,\"mmap_data\":0,\"sample_id_all\":0,\"exclude_host\":0,"
	"\"exclude_guest\":0,\"exclude_callchain_kernel\":0,\"exclude_callchain_user\":0,"
	"\"mmap2\":0,\"comm_exec\":0,\"use_clockid\":0,\"context_switch\":0,"
	"\"write_backward\":0,\"namespaces\":0,\"ksymbol\":0,\"bpf_event\":0,"
	"\"aux_output\":0,\"cgroup\":0,\"text_poke\":0,\"build_id\":0,\"inherit_thread\":0,"
	"\"remove_on_exec\":0,\"sigtrap\":0,\"wakeup_events\":0,\"bp_type\":0,"
	"\"branch_sample_type\":0,\"sample_regs_user\":0,\"sample_stack_user\":0,"
	"\"clockid\":0,\"sample_regs_intr\":0,\"aux_watermark\":0,\"sample_max_stack\":0,"
	"\"aux_sample_size\":0,\"sig_data\":0}";

static void test_zero_exact(void **state)
{
	struct perf_event_attr a, b;
	char *s;

	(void)state;
	memset(&a, 0, sizeof(a));
	s = to_text(&a);
	assert_string_equal(s, zero_text);
	memset(&b, 0xff, sizeof(b));
	assert_int_equal(from_text(s, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	free(s);
}

/* Every field at a distinct non-zero value, u64 extremes included. */
static void fill(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = 0xfffffffe;
	a->size = PERF_ATTR_SIZE_VER7;
	a->config = 0xffffffffffffffffULL;
	a->config1 = 0xABCDEF0123ULL;
	a->config2 = 0x10;
	a->sample_period = 4000;
	a->sample_type = 0x8000000000000001ULL;
	a->read_format = 31;
	a->disabled = 1;
	a->inherit = 1;
	a->pinned = 1;
	a->exclusive = 1;
	a->exclude_user = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->exclude_idle = 1;
	a->mmap = 1;
	a->comm = 1;
	a->freq = 0;
	a->inherit_stat = 1;
	a->enable_on_exec = 1;
	a->task = 1;
	a->watermark = 1;
	a->precise_ip = 3;
	a->mmap_data = 1;
	a->sample_id_all = 1;
	a->exclude_host = 1;
	a->exclude_guest = 1;
	a->exclude_callchain_kernel = 1;
	a->exclude_callchain_user = 1;
	a->mmap2 = 1;
	a->comm_exec = 1;
	a->use_clockid = 1;
	a->context_switch = 1;
	a->write_backward = 1;
	a->namespaces = 1;
	a->ksymbol = 1;
	a->bpf_event = 1;
	a->aux_output = 1;
	a->cgroup = 1;
	a->text_poke = 1;
	a->build_id = 1;
	a->inherit_thread = 1;
	a->remove_on_exec = 1;
	a->sigtrap = 1;
	a->wakeup_events = 0xffffffffU;
	a->bp_type = 7;
	a->branch_sample_type = 0x40001;
	a->sample_regs_user = 0xffffffffffffffffULL;
	a->sample_stack_user = 8192;
	a->clockid = -7;
	a->sample_regs_intr = 0x1ff;
	a->aux_watermark = 65536;
	a->sample_max_stack = 0xffff;
	a->aux_sample_size = 4096;
	a->sig_data = 0x123456789ULL;
}

static const char full_text[] =
	"{\"type\":4294967294,\"size\":128,\"config\":\"0xffffffffffffffff\","
	"\"config1\":\"0xabcdef0123\",\"config2\":\"0x10\",\"config3\":\"0x0\","
	"\"sample_period\":4000,\"sample_type\":9223372036854775809,\"read_format\":31,"
	"\"disabled\":1,\"inherit\":1,\"pinned\":1,\"exclusive\":1,\"exclude_user\":1,"
	"\"exclude_kernel\":1,\"exclude_hv\":1,\"exclude_idle\":1,\"mmap\":1,\"comm\":1,"
	"\"freq\":0,\"inherit_stat\":1,\"enable_on_exec\":1,\"task\":1,\"watermark\":1,"
	"\"precise_ip\":3,\"mmap_data\":1,\"sample_id_all\":1,\"exclude_host\":1,"
	"\"exclude_guest\":1,\"exclude_callchain_kernel\":1,\"exclude_callchain_user\":1,"
	"\"mmap2\":1,\"comm_exec\":1,\"use_clockid\":1,\"context_switch\":1,"
	"\"write_backward\":1,\"namespaces\":1,\"ksymbol\":1,\"bpf_event\":1,"
	"\"aux_output\":1,\"cgroup\":1,\"text_poke\":1,\"build_id\":1,\"inherit_thread\":1,"
	"\"remove_on_exec\":1,\"sigtrap\":1,\"wakeup_events\":4294967295,\"bp_type\":7,"
	"\"branch_sample_type\":262145,\"sample_regs_user\":18446744073709551615,"
	"\"sample_stack_user\":8192,\"clockid\":-7,\"sample_regs_intr\":511,"
	"\"aux_watermark\":65536,\"sample_max_stack\":65535,\"aux_sample_size\":4096,"
	"\"sig_data\":4886718345}";

static void test_full_exact_and_back(void **state)
{
	struct perf_event_attr a, b;
	char *s, *t;

	(void)state;
	fill(&a);
	s = to_text(&a);
	assert_string_equal(s, full_text);
	assert_int_equal(from_text(s, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	t = to_text(&b);
	assert_string_equal(s, t);
	free(s);
	free(t);
}

/* Each bitfield alone: set through JSON, read back, all others stay 0. */
static void test_each_bit(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		unsigned max = strcmp(bits[i], "precise_ip") ? 1 : 3;
		char in[128], want[64];
		struct perf_event_attr a;
		char *s;
		int found = 0;

		snprintf(in, sizeof(in), "{\"%s\":%u}", bits[i], max);
		assert_int_equal(from_text(in, &a), 0);
		s = to_text(&a);
		snprintf(want, sizeof(want), "\"%s\":%u", bits[i], max);
		assert_non_null(strstr(s, want));
		/* every other number in the text is 0 */
		for (const char *p = s; (p = strchr(p, ':')); p++) {
			if (!strncmp(p + 1, "0,", 2) || !strncmp(p + 1, "0}", 2) ||
			    !strncmp(p + 1, "\"0x0\"", 5))
				continue;
			found++;
		}
		assert_int_equal(found, 1);
		/* one more than the width is refused */
		snprintf(in, sizeof(in), "{\"%s\":%u}", bits[i], max + 1);
		assert_int_equal(from_text(in, &a), -EINVAL);
		free(s);
	}
}

static void test_each_plain_field(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "{\"type\":4294967295}", "\"type\":4294967295" },
		{ "{\"size\":136}", "\"size\":136" },
		{ "{\"config\":\"0xABC\"}", "\"config\":\"0xabc\"" },
		{ "{\"config1\":\"0x00ff\"}", "\"config1\":\"0xff\"" },
		{ "{\"config2\":\"0x8000000000000000\"}", "\"config2\":\"0x8000000000000000\"" },
		{ "{\"config3\":\"0x0\"}", "\"config3\":\"0x0\"" },
		{ "{\"sample_period\":18446744073709551615}", "\"sample_period\":18446744073709551615" },
		{ "{\"sample_type\":65536}", "\"sample_type\":65536" },
		{ "{\"read_format\":15}", "\"read_format\":15" },
		{ "{\"wakeup_events\":1}", "\"wakeup_events\":1" },
		{ "{\"bp_type\":3}", "\"bp_type\":3" },
		{ "{\"branch_sample_type\":182273}", "\"branch_sample_type\":182273" },
		{ "{\"sample_regs_user\":16715775}", "\"sample_regs_user\":16715775" },
		{ "{\"sample_stack_user\":4294967295}", "\"sample_stack_user\":4294967295" },
		{ "{\"clockid\":-2147483648}", "\"clockid\":-2147483648" },
		{ "{\"clockid\":2147483647}", "\"clockid\":2147483647" },
		{ "{\"sample_regs_intr\":1}", "\"sample_regs_intr\":1" },
		{ "{\"aux_watermark\":4294967295}", "\"aux_watermark\":4294967295" },
		{ "{\"sample_max_stack\":65535}", "\"sample_max_stack\":65535" },
		{ "{\"aux_sample_size\":7}", "\"aux_sample_size\":7" },
		{ "{\"sig_data\":18446744073709551615}", "\"sig_data\":18446744073709551615" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a;
		char *s;

		assert_int_equal(from_text(cases[i].in, &a), 0);
		s = to_text(&a);
		if (!strstr(s, cases[i].want))
			fail_msg("%s: %s not in %s", cases[i].in, cases[i].want, s);
		free(s);
	}
}

/* The freq bit picks the name of the union member printed. */
static void test_period_or_freq(void **state)
{
	struct perf_event_attr a;
	char *s;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sample_freq = 4000;
	a.freq = 1;
	s = to_text(&a);
	assert_non_null(strstr(s, "\"sample_freq\":4000,"));
	assert_null(strstr(s, "sample_period"));
	free(s);
	a.freq = 0;
	s = to_text(&a);
	assert_non_null(strstr(s, "\"sample_period\":4000,"));
	assert_null(strstr(s, "sample_freq"));
	free(s);

	assert_int_equal(from_text("{\"freq\":1,\"sample_freq\":99}", &a), 0);
	assert_int_equal(a.freq, 1);
	assert_int_equal(a.sample_freq, 99);
	assert_int_equal(from_text("{\"sample_period\":5,\"sample_freq\":5}", &a), 0);
	assert_int_equal(a.sample_period, 5);
	assert_int_equal(from_text("{\"sample_period\":5,\"sample_freq\":6}", &a), -EINVAL);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"{\"bp_addr\":\"0x1000\"}",		/* config1 only */
		"{\"wakeup_watermark\":1}",		/* wakeup_events only */
		"{\"__reserved_1\":0}",
		"{\"cycles\":1}",
		"{\"config\":16}",			/* hex string wanted */
		"{\"config\":\"16\"}",
		"{\"config\":\"0X10\"}",
		"{\"config\":\"0x\"}",
		"{\"config\":\"0x1g\"}",
		"{\"config\":\"0x10000000000000000\"}",	/* 17 digits */
		"{\"config\":\" 0x1\"}",
		"{\"config\":null}",
		"{\"sample_type\":\"0x1\"}",		/* numbers wanted */
		"{\"sample_type\":1.5}",
		"{\"sample_type\":-1}",
		"{\"sample_type\":true}",
		"{\"type\":4294967296}",
		"{\"size\":-1}",
		"{\"sample_max_stack\":65536}",
		"{\"clockid\":2147483648}",
		"{\"clockid\":-2147483649}",
		"{\"disabled\":2}",
		"{\"precise_ip\":4}",
		"[]",
		"1",
#ifndef PERF_ATTR_SIZE_VER8
		"{\"config3\":\"0x1\"}",		/* no config3 in this header */
#endif
	};
	struct perf_event_attr a;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (from_text(bad[i], &a) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
	assert_int_equal(pk_attr__from_json(NULL, &a), -EINVAL);
	assert_int_equal(attr_json__from_object(NULL, &a), -EINVAL);
}

/* Text that is not exactly one JSON object; whitespace around one is fine. */
static void test_text_refused(void **state)
{
	static const char *const bad[] = {
		"", " ", "{", "{\"type\":1", "{\"type\":1}}", "{} x", "{}{}", "{\"type\":1},",
		"null", "\"{}\"", "{\"type\":1,}", "{\"type\":NaN}",
	};
	struct perf_event_attr a;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&a, 0xff, sizeof(a));
		if (pk_attr__from_json(bad[i], &a) != -EINVAL)
			fail_msg("accepted: '%s'", bad[i]);
		for (size_t k = 0; k < sizeof(a); k++)	/* zeroed, not half-filled */
			assert_int_equal(((const unsigned char *)&a)[k], 0);
	}
	assert_int_equal(pk_attr__from_json(" \n{\"type\":2,\"config\":\"0x3\"}\t\n", &a), 0);
	assert_int_equal(a.type, 2);
	assert_int_equal(a.config, 3);
}

/* The object form the CLI embeds prints the same text as the public form. */
static void test_object_form(void **state)
{
	struct perf_event_attr a;
	struct json_object *o = NULL;
	char *s;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.config = 0x1c2;
	a.exclude_kernel = 1;
	assert_int_equal(attr_json__to_object(&a, &o), 0);
	s = to_text(&a);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), s);
	free(s);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_exact),
		cmocka_unit_test(test_full_exact_and_back),
		cmocka_unit_test(test_each_bit),
		cmocka_unit_test(test_each_plain_field),
		cmocka_unit_test(test_period_or_freq),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_text_refused),
		cmocka_unit_test(test_object_form),
	};

	return cmocka_run_group_tests_name("attr_json", tests, NULL, NULL);
}
