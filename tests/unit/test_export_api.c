/* SPDX-License-Identifier: MIT */
/*
 * test_export_api.c — pk_export__write as callers meet it: format names, the
 * options struct (NULL, an older caller's shorter struct, bad sizes and values),
 * errors reported through struct pk_error, write errors, and every format on
 * an empty profile and on one without events.
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

#include <pmukit/export.h>
#include <pmukit/profile.h>

static const enum pk_export_format all[] = {
	PK_EXPORT_FOLDED, PK_EXPORT_PPROF, PK_EXPORT_GECKO, PK_EXPORT_SVG, PK_EXPORT_HTML,
};

static void test_formats(void **state)
{
	(void)state;
	enum pk_export_format f;
	for (size_t i = 0; i < 5; i++) {
		const char *name = pk_export__format_name(all[i]);
		assert_non_null(name);
		assert_int_equal(pk_export__parse_format(name, &f), 0);
		assert_int_equal(f, all[i]);
	}
	assert_int_equal(pk_export__parse_format("firefox", &f), 0);
	assert_int_equal(f, PK_EXPORT_GECKO);
	assert_int_equal(pk_export__parse_format("speedscope", &f), -EINVAL);
	assert_int_equal(pk_export__parse_format(NULL, &f), -EINVAL);
	assert_null(pk_export__format_name((enum pk_export_format)42));
}

static struct pk_profile *small(void)
{
	struct pk_profile *p;
	uint32_t f, s, t;
	assert_int_equal(pk_profile__new(&p), 0);
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock", .unit = "nanoseconds" });
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "faults" });
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "f", .dso = "/x" }, &f);
	pk_profile__intern_stack(p, &f, 1, &s);
	pk_profile__intern_thread(p, 1, 1, "xy", &t);
	pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s, .thread = t, .period = 5 });
	pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s, .thread = t, .period = 7 });
	return p;
}

static char *out_of(const struct pk_profile *p, enum pk_export_format f, const struct pk_export_opts *o,
		    int *ret, struct pk_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	*ret = pk_export__write(p, f, out, o, err);
	fclose(out);
	return buf;
}

/* The options struct grows: fields past an older caller's size take their defaults. */
struct old_opts {
	size_t sz;
	unsigned event_nr;
	enum pk_export_value value;
};

static void test_opts(void **state)
{
	(void)state;
	struct pk_profile *p = small();
	struct pk_error err = { 0 };
	int r, r_;
	char *a = out_of(p, PK_EXPORT_FOLDED, NULL, &r, &err);
	assert_int_equal(r, 0);
	assert_string_equal(a, "xy;f 2\n");	/* defaults: samples counted */
	struct old_opts old = { .sz = sizeof(old), .event_nr = 0, .value = PK_EXPORT_VALUE_SAMPLES };
	char *b = out_of(p, PK_EXPORT_FOLDED, (const struct pk_export_opts *)&old, &r, &err);
	assert_int_equal(r, 0);
	assert_string_equal(b, a);
	free(b);
	b = out_of(p, PK_EXPORT_FOLDED, &(struct pk_export_opts){ .sz = sizeof(struct pk_export_opts),
		.value = PK_EXPORT_VALUE_COUNT }, &r, &err);
	assert_string_equal(b, "xy;f 12\n");
	free(b);
	free(a);

	/* a zeroed struct is the defaults: the first sample's event (here the second one), not event 0 */
	uint32_t f, st, t;
	struct pk_profile *two = NULL;
	assert_int_equal(pk_profile__new(&two), 0);
	pk_profile__add_event(two, &(struct pk_profile_event){ .name = "cpu-clock" });
	pk_profile__add_event(two, &(struct pk_profile_event){ .name = "faults" });
	pk_profile__intern_frame(two, &(struct pk_profile_frame){ .name = "f", .dso = "/x" }, &f);
	pk_profile__intern_stack(two, &f, 1, &st);
	pk_profile__intern_thread(two, 1, 1, "xy", &t);
	pk_profile__add_sample(two, &(struct pk_profile_sample){ .stack = st, .thread = t, .event = 1, .period = 3 });
	pk_profile__add_sample(two, &(struct pk_profile_sample){ .stack = st, .thread = t, .event = 0, .period = 4 });
	pk_profile__add_sample(two, &(struct pk_profile_sample){ .stack = st, .thread = t, .event = 1, .period = 5 });
	char *z = out_of(two, PK_EXPORT_FOLDED, &(struct pk_export_opts){ .sz = sizeof(struct pk_export_opts) },
			 &r_, &err);
	assert_int_equal(r_, 0);
	assert_string_equal(z, "xy;f 2\n");	/* the two samples of event 1 */
	free(z);
	z = out_of(two, PK_EXPORT_FOLDED, &(struct pk_export_opts){ .sz = sizeof(struct pk_export_opts),
		   .event_nr = 1 }, &r_, &err);
	assert_string_equal(z, "xy;f 1\n");	/* event 0, asked for */
	free(z);
	pk_profile__free(two);

	/* errors: a message, a negative errno, no output */
	static const struct {
		struct pk_export_opts o;
		const char *msg;
	} bad[] = {
		{ { .sz = 2 }, "pk_export_opts: bad sz 2" },
		{ { .sz = sizeof(struct pk_export_opts), .event_nr = 3 }, "no event 2" },
		{ { .sz = sizeof(struct pk_export_opts), .value = 9 }, "value" },
		{ { .sz = sizeof(struct pk_export_opts), .gzip_level = 10 }, "gzip" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		a = out_of(p, PK_EXPORT_PPROF, &bad[i].o, &r, &err);
		assert_int_equal(r, -EINVAL);
		assert_int_equal(err.code, -EINVAL);
		assert_non_null(strstr(err.msg, bad[i].msg));
		assert_string_equal(a, "");
		free(a);
	}
	assert_int_equal(pk_export__write(NULL, PK_EXPORT_SVG, stdout, NULL, NULL), -EINVAL);
	assert_int_equal(pk_export__write(p, (enum pk_export_format)99, stdout, NULL, &err), -EINVAL);
	pk_profile__free(p);
}

/* A stream that fails: -EIO, and err says so. */
static ssize_t fail_write(void *c, const char *buf, size_t n)
{
	(void)c;
	(void)buf;
	(void)n;
	errno = ENOSPC;
	return -1;
}

static void test_write_error(void **state)
{
	(void)state;
	struct pk_profile *p = small();
	for (size_t i = 0; i < 5; i++) {
		FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = fail_write });
		setvbuf(f, NULL, _IONBF, 0);
		struct pk_error err = { 0 };
		int r = pk_export__write(p, all[i], f, NULL, &err);
		fclose(f);
		assert_int_equal(r, -EIO);
		assert_non_null(strstr(err.msg, "write"));
	}
	pk_profile__free(p);
}

/* Empty profiles are valid input for every format. */
static void test_empty(void **state)
{
	(void)state;
	struct pk_profile *p;
	assert_int_equal(pk_profile__new(&p), 0);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)	/* an event, still no samples */
			pk_profile__add_event(p, &(struct pk_profile_event){ .name = "e" });
		for (size_t i = 0; i < 5; i++) {
			struct pk_error err = { 0 };
			int r;
			char *a = out_of(p, all[i], NULL, &r, &err);
			if (r)
				print_message("%s: %s\n", pk_export__format_name(all[i]), err.msg);
			assert_int_equal(r, 0);
			if (all[i] == PK_EXPORT_FOLDED)
				assert_string_equal(a, "");
			else
				assert_true(strlen(a) > 0);
			free(a);
		}
	}
	pk_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
