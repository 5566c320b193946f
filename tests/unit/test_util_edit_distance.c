/* SPDX-License-Identifier: MIT */
/*
 * test_util_edit_distance.c — pk_edit_distance (util/edit_distance.h), the
 * library's one edit distance: Levenshtein's classic pairs, swaps counted as
 * one edit only with PK_EDIT_SWAPS, ASCII case only with PK_EDIT_NOCASE,
 * lengths rather than NULs, the early stop above a limit, and strings long
 * enough to take heap rows (checked against a plain full-matrix version).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/edit_distance.h"

static size_t dist(const char *a, const char *b, unsigned flags)
{
	return pk_edit_distance(a, strlen(a), b, strlen(b), flags, SIZE_MAX);
}

static void test_levenshtein(void **state)
{
	(void)state;
	assert_int_equal(dist("kitten", "sitting", 0), 3);
	assert_int_equal(dist("flaw", "lawn", 0), 2);
	assert_int_equal(dist("", "abc", 0), 3);
	assert_int_equal(dist("abc", "", 0), 3);
	assert_int_equal(dist("", "", 0), 0);
	assert_int_equal(dist("umask", "umask", 0), 0);
	/* lengths, not NULs: a prefix of each */
	assert_int_equal(pk_edit_distance("cyclesXX", 6, "cycleZ", 6, 0, SIZE_MAX), 1);
}

static void test_swaps_and_case(void **state)
{
	(void)state;
	assert_int_equal(dist("ab", "ba", 0), 2);
	assert_int_equal(dist("ab", "ba", PK_EDIT_SWAPS), 1);
	assert_int_equal(dist("umsak", "umask", PK_EDIT_SWAPS), 1);
	assert_int_equal(dist("inst_retierd.anyy", "inst_retired.any", PK_EDIT_SWAPS), 2);
	/* optimal string alignment: a swapped pair is not edited again */
	assert_int_equal(dist("ca", "abc", PK_EDIT_SWAPS), 3);
	assert_int_equal(dist("UMASK", "umask", 0), 5);
	assert_int_equal(dist("UMASK", "umask", PK_EDIT_NOCASE), 0);
	assert_int_equal(dist("Tma_Info", "tma_info", PK_EDIT_NOCASE | PK_EDIT_SWAPS), 0);
	/* only ASCII letters fold */
	assert_int_equal(dist("_[", "_{", PK_EDIT_NOCASE), 1);
	assert_int_equal(dist("\xc3\x89", "\xc3\xa9", PK_EDIT_NOCASE), 1);
}

static void test_limit(void **state)
{
	(void)state;
	const char *a = "aaaaaaaaaaaaaaaaaaaa", *b = "bbbbbbbbbbbbbbbbbbbb";
	size_t d = pk_edit_distance(a, 20, b, 20, PK_EDIT_SWAPS, 2);
	assert_true(d > 2);
	assert_true(d <= 20);
	/* within the limit the answer is exact */
	assert_int_equal(pk_edit_distance("event", 5, "evnt", 4, PK_EDIT_SWAPS, 2), 1);
	assert_int_equal(pk_edit_distance("period", 6, "perriod", 7, 0, 1), 1);
}

/* the textbook full matrix */
static size_t reference(const char *a, size_t na, const char *b, size_t nb)
{
	size_t *m = malloc((na + 1) * (nb + 1) * sizeof(*m));
	assert_non_null(m);
	for (size_t i = 0; i <= na; i++)
		for (size_t j = 0; j <= nb; j++) {
			size_t *c = &m[i * (nb + 1) + j];
			if (!i || !j) {
				*c = i + j;
				continue;
			}
			size_t d = m[(i - 1) * (nb + 1) + j - 1] + (a[i - 1] != b[j - 1]);
			size_t up = m[(i - 1) * (nb + 1) + j] + 1, left = c[-1] + 1;
			*c = d < up ? (d < left ? d : left) : (up < left ? up : left);
		}
	size_t d = m[na * (nb + 1) + nb];
	free(m);
	return d;
}

static void test_long_heap_rows(void **state)
{
	(void)state;
	enum { N = 700 };
	char *a = malloc(N), *b = malloc(N + 50);
	assert_non_null(a);
	assert_non_null(b);
	unsigned seed = 12345;
	for (size_t i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		a[i] = (char)('a' + (seed >> 16) % 4);
	}
	memcpy(b, a, N);
	for (size_t i = 0; i < N; i += 37)	/* some replacements */
		b[i] = 'z';
	memset(b + N, 'q', 50);			/* and insertions at the end */
	assert_int_equal(pk_edit_distance(a, N, b, N + 50, 0, SIZE_MAX), reference(a, N, b, N + 50));
	assert_int_equal(pk_edit_distance(b, N + 50, a, N, 0, SIZE_MAX), reference(b, N + 50, a, N));
	assert_int_equal(pk_edit_distance(a, N, a, N, 0, SIZE_MAX), 0);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levenshtein),
		cmocka_unit_test(test_swaps_and_case),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_long_heap_rows),
	};
	return cmocka_run_group_tests_name("util_edit_distance", tests, NULL, NULL);
}
