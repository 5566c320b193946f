/* SPDX-License-Identifier: MIT */
/*
 * test_util_rbtree.c — the index-based red-black tree (util/rbtree.h):
 * insertion by callback and by a caller's own descent (pk_rbtree__link) give
 * the same tree; erasure is Linux's (a node with two children is replaced by
 * its in-order successor: the shape perf's symbol tree has, pinned on a small
 * tree); random inserts (many equal keys) and erasures keep a valid tree
 * whose in-order walk is the sorted multiset of the keys left; erasing all
 * leaves an empty tree; pk_rbtree__check rejects a red-red link, a wrong
 * parent link and unequal black heights. pk_rbtree__find_or_link with a
 * three-way comparison returns the node of an equal key, else links the new
 * one where pk_rbtree__insert would (the same shape), and pk_rbtree__find
 * says where.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/rbtree.h"

#define MAX 2000

struct keyed {
	struct pk_rbnode n[MAX];
	uint64_t key[MAX];
	uint32_t root;
};

static bool goes_left(void *ctx, uint32_t node, uint32_t other)
{
	const struct keyed *k = ctx;
	return k->key[node] < k->key[other];
}

/* the caller's own descent, as symbol/symtab.c does it */
static void link_key(struct keyed *k, uint32_t idx)
{
	uint32_t parent = PK_RB_NIL, cur = k->root;
	bool left = false;
	while (cur != PK_RB_NIL) {
		parent = cur;
		left = k->key[idx] < k->key[cur];
		cur = left ? k->n[cur].left : k->n[cur].right;
	}
	pk_rbtree__link(k->n, &k->root, idx, parent, left);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* 10..70 inserted in order, then 40 (two children) erased: its successor 50 takes its place */
static void test_erase_takes_successor(void **state)
{
	(void)state;
	static struct keyed k;
	k.root = PK_RB_NIL;
	for (uint32_t i = 0; i < 7; i++) {
		k.key[i] = (i + 1) * 10;
		pk_rbtree__insert(k.n, &k.root, i, goes_left, &k);
		assert_true(pk_rbtree__check(k.n, k.root) > 0);
	}
	/* 20B(10B, 40R(30B, 60B(50R, 70R))) */
	assert_int_equal(k.root, 1);
	assert_int_equal(k.n[1].right, 3);
	assert_true(k.n[3].red);
	assert_int_equal(k.n[5].left, 4);
	pk_rbtree__erase(k.n, &k.root, 3);
	assert_int_equal(k.n[3].left, PK_RB_NIL);
	assert_int_equal(k.n[3].right, PK_RB_NIL);
	assert_int_equal(k.n[3].parent, PK_RB_NIL);
	/* 20B(10B, 50R(30B, 60B(-, 70R))) */
	assert_int_equal(k.root, 1);
	assert_int_equal(k.n[1].right, 4);
	assert_true(k.n[4].red);
	assert_int_equal(k.n[4].left, 2);
	assert_int_equal(k.n[4].right, 5);
	assert_int_equal(k.n[5].left, PK_RB_NIL);
	assert_int_equal(k.n[5].right, 6);
	assert_int_equal(pk_rbtree__check(k.n, k.root), 3);
}

/* random keys with many duplicates, random erasures, down to an empty tree */
static void test_random_insert_erase(void **state)
{
	(void)state;
	static struct keyed a, b;
	static uint64_t want[MAX];
	static bool live[MAX];
	unsigned seed = 4242;
	for (int round = 0; round < 30; round++) {
		uint32_t n = 1 + (uint32_t)round * 67 % MAX;
		a.root = b.root = PK_RB_NIL;
		for (uint32_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			a.key[i] = b.key[i] = (seed >> 8) % (n / 3 + 1);
			pk_rbtree__insert(a.n, &a.root, i, goes_left, &a);
			link_key(&b, i);
			live[i] = true;
		}
		/* both insertions give one tree */
		assert_memory_equal(a.n, b.n, n * sizeof(a.n[0]));
		assert_int_equal(a.root, b.root);
		for (uint32_t left = n; left > 0;) {
			assert_true(pk_rbtree__check(a.n, a.root) > 0);
			size_t nw = 0;
			for (uint32_t i = 0; i < n; i++)
				if (live[i])
					want[nw++] = a.key[i];
			qsort(want, nw, sizeof(want[0]), cmp_u64);
			size_t got = 0;
			for (uint32_t i = pk_rbtree__first(a.n, a.root); i != PK_RB_NIL;
			     i = pk_rbtree__next(a.n, i)) {
				assert_true(got < nw);
				assert_int_equal(a.key[i], want[got++]);
			}
			assert_int_equal(got, nw);
			/* erase a quarter of what is left (at least one) */
			for (uint32_t e = left / 4 + 1; e > 0 && left > 0;) {
				seed = seed * 1103515245u + 12345u;
				uint32_t i = (seed >> 8) % n;
				if (!live[i])
					continue;
				pk_rbtree__erase(a.n, &a.root, i);
				live[i] = false;
				left--;
				e--;
			}
		}
		assert_int_equal(a.root, PK_RB_NIL);
		assert_int_equal(pk_rbtree__first(a.n, a.root), PK_RB_NIL);
		assert_int_equal(pk_rbtree__check(a.n, a.root), 1);
	}
}

static void test_check_rejects(void **state)
{
	(void)state;
	static struct keyed k;
	k.root = PK_RB_NIL;
	for (uint32_t i = 0; i < 3; i++) {
		k.key[i] = i;
		pk_rbtree__insert(k.n, &k.root, i, goes_left, &k);
	}
	/* 1B(0R, 2R) */
	assert_int_equal(pk_rbtree__check(k.n, k.root), 2);
	k.n[2].parent = 0;
	assert_int_equal(pk_rbtree__check(k.n, k.root), -1);
	k.n[2].parent = 1;
	k.n[1].red = true;	/* red root, red children */
	assert_int_equal(pk_rbtree__check(k.n, k.root), -1);
	k.n[1].red = false;
	k.n[0].red = false;	/* black heights 2 and 1 */
	assert_int_equal(pk_rbtree__check(k.n, k.root), -1);
}

struct probe {
	const struct keyed *k;
	uint64_t key;
};

/* perf's cmp(existing, new): < 0 sends the new key left */
static int64_t cmp3(void *ctx, uint32_t node)
{
	const struct probe *p = ctx;
	return p->key < p->k->key[node] ? -1 : p->key > p->k->key[node];
}

/* random keys with repeats: each distinct key gets one node, shaped as insert's */
static void test_find_or_link(void **state)
{
	(void)state;
	static struct keyed a, b;
	a.root = b.root = PK_RB_NIL;
	uint32_t first[64], nb = 0;
	for (int i = 0; i < 64; i++)
		first[i] = PK_RB_NIL;
	srand(7);
	for (uint32_t i = 0; i < 1000; i++) {
		a.key[i] = (uint64_t)(rand() % 64);
		struct probe p = { &a, a.key[i] };
		uint32_t parent;
		bool left;
		uint32_t f = pk_rbtree__find(a.n, a.root, cmp3, &p, &parent, &left);
		/* not found: an empty slot, where the key's node goes */
		assert_true(f != PK_RB_NIL || (parent == PK_RB_NIL ? a.root == PK_RB_NIL
					       : (left ? a.n[parent].left : a.n[parent].right) == PK_RB_NIL));
		uint32_t got = pk_rbtree__find_or_link(a.n, &a.root, i, cmp3, &p);
		assert_int_equal(got, f == PK_RB_NIL ? i : f);
		if (first[a.key[i]] == PK_RB_NIL) {
			assert_int_equal(f, PK_RB_NIL);
			first[a.key[i]] = i;
			/* the same key into b by insert: the same tree */
			b.key[i] = a.key[i];
			pk_rbtree__insert(b.n, &b.root, i, goes_left, &b);
			nb++;
		} else {
			assert_int_equal(got, first[a.key[i]]);
		}
		assert_true(pk_rbtree__check(a.n, a.root) > 0);
	}
	assert_int_equal(a.root, b.root);
	uint32_t n = 0;
	uint64_t last = 0;
	for (uint32_t x = pk_rbtree__first(a.n, a.root); x != PK_RB_NIL; x = pk_rbtree__next(a.n, x)) {
		assert_true(n == 0 || a.key[x] > last);
		assert_int_equal(a.n[x].left, b.n[x].left);
		assert_int_equal(a.n[x].right, b.n[x].right);
		assert_int_equal(a.n[x].red, b.n[x].red);
		last = a.key[x];
		n++;
	}
	assert_int_equal(n, nb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_erase_takes_successor),
		cmocka_unit_test(test_random_insert_erase),
		cmocka_unit_test(test_check_rejects),
		cmocka_unit_test(test_find_or_link),
	};
	return cmocka_run_group_tests_name("util_rbtree", tests, NULL, NULL);
}
