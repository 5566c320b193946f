/* SPDX-License-Identifier: MIT */
/*
 * test_util_opts.c — the one options idiom (util/opts.h): NULL opts take the
 * defaults; an older, smaller struct gets the defaults for the fields it lacks;
 * an equal size is used as is; a newer, larger struct is accepted when its
 * tail past the library's sizeof is zero and refused (-EINVAL) otherwise; sz
 * below the sz field is refused. Then the same through public functions
 * (pk_mexpr__parse_opts, pk_symbolizer__new, pk_data_writer__new), and
 * pk_opts__fill writing no byte past a caller's smaller out struct.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/data_write.h>
#include <pmukit/metric.h>
#include <pmukit/symbol.h>

#include "util/opts.h"

/* the library's struct, an older caller's and a newer caller's (no padding) */
struct v2 {
	size_t sz;
	long a;
	long b;
};
struct v1 {
	size_t sz;
	long a;
};
struct v3 {
	size_t sz;
	long a;
	long b;
	long c;
};

/* a library function taking struct v2 opts: a defaults to 1, b to 2 */
static int lib_get(const struct v2 *opts, long *a, long *b)
{
	int rc = PK_OPTS_CHECK(opts);
	if (rc)
		return rc;
	*a = PK_OPTS_GET(opts, a, 1);
	*b = PK_OPTS_GET(opts, b, 2);
	return 0;
}

/* the same through PK_OPTS_LOAD into a defaulted copy */
static int lib_load(const struct v2 *opts, long *a, long *b)
{
	struct v2 o = { .sz = sizeof(o), .a = 1, .b = 2 };
	int rc = PK_OPTS_LOAD(&o, opts);
	if (rc)
		return rc;
	assert_int_equal(o.sz, sizeof(struct v2));
	*a = o.a;
	*b = o.b;
	return 0;
}

typedef int (*lib_fn)(const struct v2 *, long *, long *);
static const lib_fn fns[] = { lib_get, lib_load };

static void test_null(void **state)
{
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		long a = 0, b = 0;
		assert_int_equal(fns[i](NULL, &a, &b), 0);
		assert_int_equal(a, 1);
		assert_int_equal(b, 2);
	}
	assert_int_equal(pk_opts__check(NULL, 0, sizeof(struct v2)), 0);
}

static void test_smaller(void **state)
{
	(void)state;
	/* an older caller's struct, with garbage right after it */
	struct {
		struct v1 o;
		long garbage[4];
	} old = { .o = { .sz = sizeof(struct v1), .a = 10 }, .garbage = { 77, 77, 77, 77 } };
	for (size_t i = 0; i < 2; i++) {
		long a = 0, b = 0;
		assert_int_equal(fns[i]((const struct v2 *)(const void *)&old.o, &a, &b), 0);
		assert_int_equal(a, 10);
		assert_int_equal(b, 2);	/* not the garbage past sz */
	}
	/* the sz field alone: every default */
	struct v1 bare = { .sz = sizeof(size_t), .a = 10 };
	for (size_t i = 0; i < 2; i++) {
		long a = 0, b = 0;
		assert_int_equal(fns[i]((const struct v2 *)(const void *)&bare, &a, &b), 0);
		assert_int_equal(a, 1);
		assert_int_equal(b, 2);
	}
}

static void test_too_small(void **state)
{
	(void)state;
	struct v2 o = { .sz = 0, .a = 5, .b = 6 };
	for (size_t i = 0; i < 2; i++) {
		long a = -1, b = -1;
		for (size_t sz = 0; sz < sizeof(size_t); sz++) {
			o.sz = sz;
			assert_int_equal(fns[i](&o, &a, &b), -EINVAL);
		}
		assert_int_equal(a, -1);
	}
}

static void test_equal(void **state)
{
	(void)state;
	struct v2 o = { .sz = sizeof(o), .a = 5, .b = 6 };
	for (size_t i = 0; i < 2; i++) {
		long a = 0, b = 0;
		assert_int_equal(fns[i](&o, &a, &b), 0);
		assert_int_equal(a, 5);
		assert_int_equal(b, 6);
	}
}

static void test_larger(void **state)
{
	(void)state;
	struct v3 n;
	memset(&n, 0, sizeof(n));	/* padding too: the tail is compared byte by byte */
	n.sz = sizeof(n);
	n.a = 5;
	n.b = 6;
	for (size_t i = 0; i < 2; i++) {
		long a = 0, b = 0;
		/* a newer caller that leaves the new field zero: accepted */
		assert_int_equal(fns[i]((const struct v2 *)(const void *)&n, &a, &b), 0);
		assert_int_equal(a, 5);
		assert_int_equal(b, 6);
		/* one that asks for something this library does not know: refused */
		n.c = 1;
		assert_int_equal(fns[i]((const struct v2 *)(const void *)&n, &a, &b), -EINVAL);
		n.c = 0;
	}
	/* every byte of the tail counts, not only whole fields */
	unsigned char buf[sizeof(struct v2) + 8] = { 0 };
	for (size_t k = sizeof(struct v2); k < sizeof(buf); k++) {
		assert_int_equal(pk_opts__check(buf, sizeof(buf), sizeof(struct v2)), 0);
		buf[k] = 0x80;
		assert_int_equal(pk_opts__check(buf, sizeof(buf), sizeof(struct v2)), -EINVAL);
		/* a byte past the caller's own sz is not the caller's */
		assert_int_equal(pk_opts__check(buf, k, sizeof(struct v2)), 0);
		buf[k] = 0;
	}
}

/* public functions taking opts refuse a bad sz the same way */
static void test_public(void **state)
{
	(void)state;
	struct {
		struct pk_mexpr_opts o;
		uint64_t tail;
	} m = { .o = { .sz = sizeof(m), .runtime = 1 }, .tail = 0 };
	struct pk_mexpr *e;
	struct pk_spec_error merr;
	assert_int_equal(pk_mexpr__parse_opts(&e, "a + 1", &m.o, &merr), 0);
	pk_mexpr__free(e);
	m.tail = 1;
	assert_int_equal(pk_mexpr__parse_opts(&e, "a + 1", &m.o, &merr), -EINVAL);
	assert_null(e);
	assert_non_null(strstr(merr.msg, "sz"));
	m.o.sz = 0;
	assert_int_equal(pk_mexpr__parse_opts(&e, "a + 1", &m.o, &merr), -EINVAL);

	struct {
		struct pk_symbolizer_opts o;
		uint64_t tail;
	} s;
	memset(&s, 0, sizeof(s));
	s.o.sz = sizeof(s);
	struct pk_symbolizer *sym;
	struct pk_error err;
	assert_int_equal(pk_symbolizer__new(&sym, &s.o, &err), 0);
	pk_symbolizer__free(sym);
	s.tail = 1;
	assert_int_equal(pk_symbolizer__new(&sym, &s.o, &err), -EINVAL);
	assert_null(sym);
	assert_int_equal(err.code, -EINVAL);

	int fd = open("/dev/null", O_WRONLY);
	assert_true(fd >= 0);
	struct pk_data_writer_opts wo = { .sz = 1 };
	struct pk_data_writer *w;
	assert_int_equal(pk_data_writer__new(&w, fd, &wo, &err), -EINVAL);
	assert_null(w);
	close(fd);
}

/* pk_opts__fill: an older caller's out struct gets the fields it has, no byte more */
static void test_fill(void **state)
{
	(void)state;
	const struct v3 src = { .sz = sizeof(src), .a = 5, .b = 6, .c = 7 };
	struct {
		struct v1 o;
		unsigned char canary[16];
	} old;
	memset(&old, 0xa5, sizeof(old));
	old.o.sz = sizeof(old.o);
	assert_int_equal(pk_opts__fill(&old.o, &src, sizeof(src)), 0);
	assert_int_equal(old.o.sz, sizeof(struct v1));	/* the caller's, kept */
	assert_int_equal(old.o.a, 5);
	for (size_t i = 0; i < sizeof(old.canary); i++)
		assert_int_equal(old.canary[i], 0xa5);

	struct v3 same = { .sz = sizeof(same) };
	assert_int_equal(pk_opts__fill(&same, &src, sizeof(src)), 0);
	assert_int_equal(same.c, 7);

	struct v1 bad = { .sz = 3 };
	assert_int_equal(pk_opts__fill(&bad, &src, sizeof(src)), -EINVAL);
	assert_int_equal(bad.a, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null),	 cmocka_unit_test(test_smaller),
		cmocka_unit_test(test_too_small), cmocka_unit_test(test_equal),
		cmocka_unit_test(test_larger),	 cmocka_unit_test(test_public),
		cmocka_unit_test(test_fill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
