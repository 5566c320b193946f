/* sysloop.c — the guest's deterministic syscall workload for `make check-arm64`:
 * `sysloop N` makes N getppid() system calls, so that kernel (under VHE: EL2) counts are
 * large next to the user ones (no C library: workload.h). */
#include "workload.h"

void workload_main(unsigned long *sp)
{
	unsigned long n = workload_arg(sp, 10000);

	for (unsigned long i = 0; i < n; i++)
		workload_syscall1(173 /* getppid */, 0);
	workload_exit(0);
}
