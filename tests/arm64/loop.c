/* loop.c — the guest's deterministic user-space workload for `make check-arm64`:
 * `loop N` runs a 3-instruction loop (subs, add, b.ne) N times, so instructions:u is
 * 3*N plus the few instructions of process start and exit (the kernel's ~15). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	unsigned long acc = 0;

	if (n == 0)
		return 0;
	__asm__ volatile("1:\n\t"
			 "subs %0, %0, #1\n\t"
			 "add %1, %1, #1\n\t"
			 "b.ne 1b\n"
			 : "+r"(n), "+r"(acc) : : "cc");
	return acc == 0;
}
