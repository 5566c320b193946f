/* SPDX-License-Identifier: MIT */
/*
 * stat-serve-ratio.h — a metric's MetricExpr split into the numerator and
 * denominator of its ratio, for `stat --serve` (stat-serve-ratio.c).
 */
#ifndef PMUKIT_STAT_SERVE_RATIO_H
#define PMUKIT_STAT_SERVE_RATIO_H

#include <stddef.h>

#include <pmukit/events.h>
#include <pmukit/metric.h>

struct serve_ratio {
	struct pk_mexpr *num, *den;	/* metric references resolved */
};

/*
 * Metric idx of model (pk_catalog__metric) as num / den: 0, or -1 when it is
 * not a ratio (r then empty).
 */
int serve_ratio__new(struct serve_ratio *r, struct pk_catalog *cat, size_t model, size_t idx);
void serve_ratio__fini(struct serve_ratio *r);

/*
 * On a fully parenthesised expression (pk_mexpr__print): "(A / B)",
 * "d_ratio(A, B)", either under "(X + (0 * Y))" paddings. The byte ranges
 * of A and B; 0, or -1 when it is not a ratio.
 */
int serve_ratio__split_text(const char *text, size_t *num_off, size_t *num_len, size_t *den_off,
			    size_t *den_len);

#endif
