/* loop.c — the guest's deterministic user-space workload for `make check-arm64`:
 * `loop N` runs a 3-instruction loop (subs, add, b.ne) N times: instructions:u is 3*N
 * plus the handful of instructions of _start and exit (no C library: workload.h). */
#include "workload.h"

void workload_main(unsigned long *sp)
{
	unsigned long n = workload_arg(sp, 1000000), acc = 0;

	if (n)
		__asm__ volatile("1:\n\t"
				 "subs %0, %0, #1\n\t"
				 "add %1, %1, #1\n\t"
				 "b.ne 1b\n"
				 : "+r"(n), "+r"(acc) : : "cc");
	workload_exit(acc == 0);
}
