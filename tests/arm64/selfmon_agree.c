/* selfmon_agree.c — guest program of `make check-arm64` (check 3): opens
 * {instructions:u,cycles:u} with libpmukit's self-monitoring (shared library), runs a
 * 3-instruction loop N times between reads, and prints what the user page (mrs) read
 * next to what read(2) of the same group says at the same moment, as key=value lines
 * for tests/arm64/compare.py. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <pmukit/selfmon.h>

static void spin(unsigned long n)
{
	unsigned long acc = 0;

	if (n)
		__asm__ volatile("1:\n\tsubs %0, %0, #1\n\tadd %1, %1, #1\n\tb.ne 1b\n"
				 : "+r"(n), "+r"(acc) : : "cc");
}

/* read(2) of the group: nr, enabled, running, {value, id}... */
static int group_read(struct pk_selfmon *g, uint64_t *vals, size_t nr)
{
	uint64_t buf[3 + 2 * 8];

	if (nr > 8 || read(pk_selfmon__fd(g, 0), buf, sizeof(buf)) < (ssize_t)((3 + 2 * nr) * 8))
		return -1;
	for (size_t i = 0; i < nr; i++)
		vals[i] = buf[3 + 2 * i];
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	struct pk_selfmon *g;
	struct pk_error err;
	struct pk_selfmon_value a[2], b[2];
	uint64_t r[2];
	int bad = 0;

	if (pk_selfmon__open(&g, "{instructions:u,cycles:u}", NULL, &err)) {
		printf("open_error=%s\n", err.msg);
		return 1;
	}
	printf("path=%s\n", pk_selfmon__path(g) == PK_SELFMON_PATH_USER ? "user" : "syscall");
	printf("reason=%s\n", pk_selfmon__path_reason(g));
	printf("long=%d\n", (int)(pk_selfmon__attr(g, 0)->config1 & 1));
	pk_selfmon__enable(g);
	/* while counting: page, read(2), page must be in order */
	for (int i = 0; i < 5; i++) {
		spin(n / 10);
		if (pk_selfmon__read(g, a, 2) || group_read(g, r, 2) || pk_selfmon__read(g, b, 2)) {
			printf("read_error=%d\n", i);
			return 1;
		}
		if (!(a[0].raw <= r[0] && r[0] <= b[0].raw && a[1].raw <= r[1] && r[1] <= b[1].raw)) {
			printf("order_error=%d %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", i, a[0].raw, r[0], b[0].raw);
			bad = 1;
		}
	}
	pk_selfmon__reset(g);
	pk_selfmon__read(g, a, 2);
	spin(n);
	pk_selfmon__disable(g);
	pk_selfmon__read(g, b, 2);
	group_read(g, r, 2);
	printf("loop_n=%lu\n", n);
	printf("page_instructions=%" PRIu64 "\n", b[0].raw - a[0].raw);
	printf("page_cycles=%" PRIu64 "\n", b[1].raw - a[1].raw);
	printf("page_total_instructions=%" PRIu64 "\n", b[0].raw);
	printf("read_total_instructions=%" PRIu64 "\n", r[0]);
	printf("page_total_cycles=%" PRIu64 "\n", b[1].raw);
	printf("read_total_cycles=%" PRIu64 "\n", r[1]);
	struct pk_selfmon_stats st;
	pk_selfmon__stats(g, &st);
	printf("user_reads=%" PRIu64 "\nsyscall_reads=%" PRIu64 "\nfallbacks=%" PRIu64 "\n",
	       st.user_reads, st.syscall_reads, st.fallbacks);
	pk_selfmon__free(g);
	return bad;
}
