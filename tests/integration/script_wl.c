/* script_wl.c — the workload the script/flamegraph/export tests record: a few
 * functions calling each other (frame pointers kept), with an inlined loop. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define LEAF(n)                                                             \
	__attribute__((noinline)) void leaf##n(unsigned long k)            \
	{                                                                   \
		for (unsigned long i = 0; i < k; i++)                       \
			sink += i * n;                                      \
	}
LEAF(0) LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5)

static inline __attribute__((always_inline)) void mix(unsigned long k)
{
	for (unsigned long i = 0; i < k; i++)
		sink ^= i;
}

__attribute__((noinline)) void middle(unsigned long k)
{
	leaf1(k);
	leaf2(k);
	mix(k);
}

__attribute__((noinline)) void outer(unsigned long k)
{
	middle(k);
	leaf3(k);
	leaf4(k * 2);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	for (unsigned long j = 0; j < n; j++) {
		outer(100000);
		leaf0(50000);
		leaf5(30000);
	}
	printf("%lu\n", sink);
	return 0;
}
