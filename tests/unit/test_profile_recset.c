/* SPDX-License-Identifier: MIT */
/*
 * test_profile_recset.c — util/recset, the store the profile interns its
 * frames, stack nodes and threads in: dense ids in first-seen order, equal
 * records found again, odd record sizes, growth past many rehashes, and
 * records differing in one field (stack nodes: parent + 1) kept apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/recset.h"

struct node {
	uint32_t frame, parent, depth;
};

static void test_ids(void **state)
{
	(void)state;
	struct pk_recset s;
	pk_recset__init(&s, sizeof(struct node));
	assert_int_equal(pk_recset__nr(&s), 0);
	assert_int_equal(pk_recset__find(&s, &(struct node){ 1, 2, 3 }), -1);	/* empty: no table yet */
	assert_int_equal(pk_recset__add(&s, &(struct node){ 1, 2, 3 }), 0);
	assert_int_equal(pk_recset__add(&s, &(struct node){ 1, 2, 4 }), 1);
	assert_int_equal(pk_recset__add(&s, &(struct node){ 1, 2, 3 }), 0);
	assert_int_equal(pk_recset__find(&s, &(struct node){ 1, 2, 4 }), 1);
	assert_int_equal(pk_recset__find(&s, &(struct node){ 2, 2, 4 }), -1);
	const struct node *n = pk_recset__get(&s, 1);
	assert_int_equal(n->depth, 4);
	assert_int_equal(pk_recset__nr(&s), 2);
	pk_recset__free(&s);
	assert_int_equal(pk_recset__nr(&s), 0);
}

/* 5- and 13-byte records: the tail shorter than a word takes part too */
static void test_odd_sizes(void **state)
{
	(void)state;
	for (size_t size = 1; size <= 13; size += 4) {
		struct pk_recset s;
		pk_recset__init(&s, size);
		unsigned char rec[16];
		for (int i = 0; i < 300; i++) {
			memset(rec, 0, sizeof(rec));
			rec[size - 1] = (unsigned char)i;	/* the last byte only */
			if (size > 1)
				rec[0] = (unsigned char)(i >> 8);
			int64_t want = size == 1 ? (i & 255) : i;
			assert_int_equal(pk_recset__add(&s, rec), want);
		}
		assert_int_equal(pk_recset__nr(&s), size == 1 ? 256 : 300);
		pk_recset__free(&s);
	}
}

/* a million stack-node-like records: every one found again under its id */
static void test_many(void **state)
{
	(void)state;
	struct pk_recset s;
	pk_recset__init(&s, sizeof(struct node));
	const uint32_t n = 1000000;
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(pk_recset__add(&s, &(struct node){ i % 977, i / 3, i % 31 }), i);
	for (uint32_t i = 0; i < n; i += 7) {
		assert_int_equal(pk_recset__find(&s, &(struct node){ i % 977, i / 3, i % 31 }), i);
		const struct node *r = pk_recset__get(&s, i);
		assert_int_equal(r->parent, i / 3);
	}
	assert_int_equal(pk_recset__add(&s, &(struct node){ 5, 5, 5 }), n);	/* not seen before */
	pk_recset__free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_odd_sizes),
		cmocka_unit_test(test_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
