/* SPDX-License-Identifier: MIT */
/*
 * examples/topdown_region.c — TopDown (Level 1, and Level 2 on Sapphire
 * Rapids and later) of two code regions, read the way topdown.txt shows:
 * a group led by SLOTS with the topdown-* metric events, SLOTS and
 * PERF_METRICS read with rdpmc at both ends of each region, each metric
 * scaled by SLOTS at both points, the registers reset every few seconds.
 *
 *   build/examples/topdown_region
 *
 * Where the CPU has no PERF_METRICS (not Intel Ice Lake or later, AMD, arm64,
 * a VM without a virtual PMU...) it explains why and exits 0. Where rdpmc is
 * not allowed it still works through read(2), with the kernel's counts.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pmukit/selfmon.h>

static const char *const specs[] = {
	/* Level 1 + Level 2 (Sapphire Rapids and later) */
	"{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,"
	"topdown-heavy-ops,topdown-br-mispredict,topdown-fetch-lat,topdown-mem-bound}",
	/* Level 1 (Ice Lake) */
	"{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}",
};

/* A loop with unpredictable branches, and one that chases pointers. */
static unsigned branchy(unsigned n, unsigned seed)
{
	unsigned acc = 0;

	for (unsigned i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		if (seed & 0x10000)
			acc += i;
		else
			acc ^= i;
	}
	return acc;
}

static size_t chase(const size_t *next, size_t steps)
{
	size_t p = 0;

	while (steps--)
		p = next[p];
	return p;
}

int main(void)
{
	struct pk_selfmon *g = NULL;
	struct pk_error err = { 0 };
	struct pk_user_access ua;
	size_t n = 1 << 20, *next, sink = 0;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]) && !g; i++)
		if (pk_selfmon__open(&g, specs[i], NULL, &err))
			g = NULL;
	if (!g || !pk_selfmon__has_topdown(g)) {
		printf("topdown_region: no PERF_METRICS on this machine, nothing to measure.\n"
		       "  TopDown through RDPMC needs an Intel core PMU with the SLOTS fixed counter\n"
		       "  and the PERF_METRICS register (Ice Lake and later; Level 2 from Sapphire\n"
		       "  Rapids), exposed as the slots and topdown-* events.\n");
		if (err.msg[0])
			printf("  opening the TopDown group said:\n    %s\n", err.msg);
		pk_user_access__check(NULL, &ua);
		printf("  pmukit check user-access: %s: %s\n", ua.code, ua.msg);
		pk_selfmon__free(g);
		return 0;
	}
	printf("TopDown group: %zu events, Level 2: %s, read path: %s%s%s\n", pk_selfmon__nr(g),
	       pk_selfmon__topdown_level2(g) ? "yes" : "no",
	       pk_selfmon__path(g) == PK_SELFMON_PATH_USER ? "rdpmc (user page)" : "read(2)",
	       pk_selfmon__path(g) == PK_SELFMON_PATH_USER ? "" : " — ",
	       pk_selfmon__path_reason(g));

	next = malloc(n * sizeof(*next));
	if (!next) {
		pk_selfmon__free(g);
		return 1;
	}
	for (size_t i = 0; i < n; i++)	/* one long cycle with large strides */
		next[i] = (i + 40503) % n;
	pk_selfmon__enable(g);
	for (int round = 0; round < 10; round++) {
		pk_selfmon__region_begin(g, "branchy");
		sink += branchy(2000000, (unsigned)round);
		pk_selfmon__region_end(g, "branchy");
		pk_selfmon__region_begin(g, "pointer-chase");
		sink += chase(next, 2000000);
		pk_selfmon__region_end(g, "pointer-chase");
	}
	pk_selfmon__disable(g);
	pk_selfmon__region_print(g, stdout);
	printf("(checksum %zu)\n", sink);
	free(next);
	pk_selfmon__free(g);
	return 0;
}
