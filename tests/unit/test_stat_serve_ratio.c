/* SPDX-License-Identifier: MIT */
/*
 * test_stat_serve_ratio.c — which metric expressions `stat --serve` exports
 * as a numerator and a denominator (src/stat-serve-ratio.c): "A / B" and
 * "d_ratio(A, B)" as pk_mexpr__print writes them, under TopDown's
 * "+ 0 * X" padding; anything else (a product, a sum, an "if", a ratio
 * scaled afterwards) is not a ratio. The split is checked on real
 * expressions: parsed, printed, split, and the halves parsed back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/metric.h>

#include "../../src/stat-serve-ratio.h"

/* expr split into want_num / want_den (NULL: not a ratio), halves as printed */
static void expect(const char *expr, const char *want_num, const char *want_den)
{
	struct pk_mexpr *e = NULL;
	char text[1024];
	size_t no, nl, doff, dl;

	assert_int_equal(pk_mexpr__parse(&e, expr, NULL), 0);
	pk_mexpr__print(e, text, sizeof(text));
	pk_mexpr__free(e);
	int r = serve_ratio__split_text(text, &no, &nl, &doff, &dl);
	if (!want_num) {
		if (r == 0)
			print_message("'%s' (%s) split as a ratio\n", expr, text);
		assert_int_equal(r, -1);
		return;
	}
	if (r)
		print_message("'%s' (%s) not split\n", expr, text);
	assert_int_equal(r, 0);
	char num[512], den[512];
	snprintf(num, sizeof(num), "%.*s", (int)nl, text + no);
	snprintf(den, sizeof(den), "%.*s", (int)dl, text + doff);
	assert_string_equal(num, want_num);
	assert_string_equal(den, want_den);
	/* both halves are expressions again */
	assert_int_equal(pk_mexpr__parse(&e, num, NULL), 0);
	pk_mexpr__free(e);
	assert_int_equal(pk_mexpr__parse(&e, den, NULL), 0);
	pk_mexpr__free(e);
}

static void test_ratios(void **state)
{
	(void)state;
	expect("INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD", "INST_RETIRED.ANY",
	       "CPU_CLK_UNHALTED.THREAD");
	expect("d_ratio(MEM_LOAD_RETIRED.L1_MISS, INST_RETIRED.ANY)", "MEM_LOAD_RETIRED.L1_MISS",
	       "INST_RETIRED.ANY");
	/* TopDown's padding that reads slots without using it, on either side */
	expect("topdown\\-retiring / (topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
	       "topdown\\-retiring + topdown\\-be\\-bound) + 0 * slots",
	       "topdown\\-retiring",
	       "(((topdown\\-fe\\-bound + topdown\\-bad\\-spec) + topdown\\-retiring) + "
	       "topdown\\-be\\-bound)");
	expect("0 * slots + a / b", "a", "b");
	/* a product divided: the product is the numerator */
	expect("a * b / c", "(a * b)", "c");
	/* escaped terms and function calls inside the halves */
	expect("cpu@event\\=0x3c\\,cmask\\=1@ / max(a, b)", "cpu@event\\=0x3c\\,cmask\\=1@",
	       "max(a, b)");
	expect("d_ratio(min(a, b), (c + d))", "min(a, b)", "(c + d)");
}

static void test_not_ratios(void **state)
{
	(void)state;
	expect("a + b", NULL, NULL);
	expect("(a / b) * 100", NULL, NULL);
	expect("1 - a / b", NULL, NULL);
	expect("a / b if #smt_on else c / d", NULL, NULL);
	expect("a", NULL, NULL);
	expect("max(a / b, 0)", NULL, NULL);
	expect("a / b + 1 * c", NULL, NULL);	/* not a zero product */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratios),
		cmocka_unit_test(test_not_ratios),
	};
	return cmocka_run_group_tests_name("stat_serve_ratio", tests, NULL, NULL);
}
