/* SPDX-License-Identifier: MIT */
/*
 * test_util_grow.c — pk_grow (util/grow.h), the library's one array growth:
 * nothing happens while need fits, growth keeps the elements, at least
 * doubles (n appends, few reallocations) and reaches need in one step; a
 * need whose byte size overflows size_t (or exceeds PTRDIFF_MAX) fails with
 * -ENOMEM and leaves the array and its capacity as they were; an array
 * starting in inline storage (PK_GROW_FROM) moves to the heap with its
 * elements, the inline storage left alone.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/grow.h"

struct elem {
	uint64_t a, b, c;
};

static void test_appends_keep_elements(void **state)
{
	(void)state;
	uint32_t *v = NULL;
	size_t cap = 0, reallocs = 0;
	for (uint32_t i = 0; i < 100000; i++) {
		size_t before = cap;
		assert_int_equal(PK_GROW(v, cap, (size_t)i + 1), 0);
		assert_true(cap >= (size_t)i + 1);
		if (cap != before) {
			reallocs++;
			assert_true(before == 0 || cap >= 2 * before);
		}
		v[i] = i * 7;
	}
	for (uint32_t i = 0; i < 100000; i++)
		assert_int_equal(v[i], i * 7);
	assert_true(reallocs <= 20);
	free(v);
}

static void test_fits_no_realloc(void **state)
{
	(void)state;
	struct elem *v = NULL;
	size_t cap = 0;
	assert_int_equal(PK_GROW(v, cap, 0), 0);	/* nothing needed: nothing allocated */
	assert_null(v);
	assert_int_equal(cap, 0);
	assert_int_equal(PK_GROW(v, cap, 3), 0);
	assert_non_null(v);
	assert_true(cap >= 3);
	struct elem *before = v;
	size_t cap_before = cap;
	assert_int_equal(PK_GROW(v, cap, cap_before), 0);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, cap_before);
	free(v);
}

static void test_big_need_in_one_step(void **state)
{
	(void)state;
	char *v = NULL;
	size_t cap = 0;
	assert_int_equal(PK_GROW(v, cap, 1), 0);
	assert_int_equal(PK_GROW(v, cap, 1000000), 0);	/* beyond twice: exactly reached */
	assert_true(cap >= 1000000);
	v[999999] = 'x';
	free(v);
}

static void test_overflow_fails(void **state)
{
	(void)state;
	struct elem *v = NULL;
	size_t cap = 0;
	assert_int_equal(PK_GROW(v, cap, 4), 0);
	v[3].a = 42;
	struct elem *keep = v;
	size_t keep_cap = cap;
	/* need * elem wraps size_t: must not allocate a small block and say yes */
	size_t wrap = SIZE_MAX / sizeof(*v) + 2;
	assert_true(wrap * sizeof(*v) < sizeof(*v) * 4);	/* it really does wrap */
	assert_int_equal(PK_GROW(v, cap, wrap), -ENOMEM);
	assert_int_equal(PK_GROW(v, cap, SIZE_MAX), -ENOMEM);
	/* fits in size_t, but no object is that large */
	assert_int_equal(PK_GROW(v, cap, (size_t)PTRDIFF_MAX / sizeof(*v) + 1), -ENOMEM);
	assert_ptr_equal(v, keep);
	assert_int_equal(cap, keep_cap);
	assert_int_equal(v[3].a, 42);
	/* byte arrays too */
	unsigned char *b = NULL;
	size_t bcap = 0;
	assert_int_equal(PK_GROW(b, bcap, SIZE_MAX), -ENOMEM);
	assert_null(b);
	assert_int_equal(bcap, 0);
	free(v);
}

static void test_doubling_near_the_limit(void **state)
{
	(void)state;
	/* a capacity past half the limit cannot double: the limit itself is tried, and refused
	 * here by the overflow check before any allocation (need beyond it) */
	struct elem *v = NULL;
	size_t max = (size_t)PTRDIFF_MAX / sizeof(*v);
	size_t cap = 0;
	assert_int_equal(pk_grow(&v, &cap, max + 1, sizeof(*v)), -ENOMEM);
	assert_int_equal(pk_grow(&v, &cap, 0, 0), 0);	/* nothing needed */
	assert_int_equal(pk_grow(&v, &cap, 1, 0), -ENOMEM);	/* no element size: refused */
	assert_null(v);
}

struct small_vec {
	int *v;
	size_t nr, cap;
	int inl[4];
};

static void test_from_inline(void **state)
{
	(void)state;
	struct small_vec s = { .cap = 4 };
	s.v = s.inl;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(PK_GROW_FROM(s.v, s.cap, s.nr + 1, s.inl), 0);
		s.v[s.nr++] = i;
	}
	assert_ptr_equal(s.v, s.inl);	/* fits: still inline */
	assert_int_equal(PK_GROW_FROM(s.v, s.cap, s.nr + 1, s.inl), 0);
	assert_ptr_not_equal(s.v, s.inl);
	assert_true(s.cap >= 8);
	for (int i = 0; i < 4; i++)
		assert_int_equal(s.v[i], i);
	for (int i = 4; i < 1000; i++) {
		assert_int_equal(PK_GROW_FROM(s.v, s.cap, s.nr + 1, s.inl), 0);
		s.v[s.nr++] = i;
	}
	for (int i = 0; i < 1000; i++)
		assert_int_equal(s.v[i], i);
	for (int i = 0; i < 4; i++)
		assert_int_equal(s.inl[i], i);
	/* overflow from inline: refused, still inline */
	struct small_vec t = { .cap = 4 };
	t.v = t.inl;
	assert_int_equal(PK_GROW_FROM(t.v, t.cap, SIZE_MAX / 2, t.inl), -ENOMEM);
	assert_ptr_equal(t.v, t.inl);
	assert_int_equal(t.cap, 4);
	free(s.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends_keep_elements),
		cmocka_unit_test(test_fits_no_realloc),
		cmocka_unit_test(test_big_need_in_one_step),
		cmocka_unit_test(test_overflow_fails),
		cmocka_unit_test(test_doubling_near_the_limit),
		cmocka_unit_test(test_from_inline),
	};
	return cmocka_run_group_tests_name("util_grow", tests, NULL, NULL);
}
