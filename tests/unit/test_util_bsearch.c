/* SPDX-License-Identifier: MIT */
/*
 * test_util_bsearch.c — pk_bsearch (util/bsearch.h), the library's one binary
 * search, against a linear scan: for every key around every element of sorted
 * arrays with repeats (and the empty array), "before = elem < key" gives the
 * first element not below key and "elem <= key" one past the last at or below
 * it; exact lookups by string.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/bsearch.h"

static bool below(const void *elem, const void *key)
{
	return *(const int *)elem < *(const int *)key;
}

static bool at_or_below(const void *elem, const void *key)
{
	return *(const int *)elem <= *(const int *)key;
}

static void test_bounds(void **state)
{
	(void)state;
	static const int v[] = { 1, 3, 3, 3, 7, 8, 8, 20 };
	for (size_t n = 0; n <= sizeof(v) / sizeof(v[0]); n++) {
		for (int key = -1; key <= 22; key++) {
			size_t lower = 0, upper = 0;
			while (lower < n && v[lower] < key)
				lower++;
			while (upper < n && v[upper] <= key)
				upper++;
			assert_int_equal(pk_bsearch(&key, v, n, sizeof(v[0]), below), lower);
			assert_int_equal(pk_bsearch(&key, v, n, sizeof(v[0]), at_or_below), upper);
		}
	}
	int key = 5;
	assert_int_equal(pk_bsearch(&key, NULL, 0, sizeof(int), below), 0);
}

struct named {
	const char *name;
	int value;
};

static bool name_before(const void *elem, const void *key)
{
	return strcmp(((const struct named *)elem)->name, key) < 0;
}

static const struct named *find(const struct named *v, size_t n, const char *name)
{
	size_t i = pk_bsearch(name, v, n, sizeof(*v), name_before);
	return i < n && !strcmp(v[i].name, name) ? &v[i] : NULL;
}

static void test_exact(void **state)
{
	(void)state;
	static const struct named v[] = {
		{ "cmask", 1 }, { "edge", 2 }, { "event", 3 }, { "inv", 4 }, { "umask", 5 },
	};
	size_t n = sizeof(v) / sizeof(v[0]);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(find(v, n, v[i].name), &v[i]);
	assert_null(find(v, n, "any"));
	assert_null(find(v, n, "evenT"));
	assert_null(find(v, n, "zzz"));
	assert_null(find(v, 0, "edge"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_exact),
	};
	return cmocka_run_group_tests_name("util_bsearch", tests, NULL, NULL);
}
