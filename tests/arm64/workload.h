/* workload.h — the start-up of the guest's workloads (tests/arm64/loop.c, sysloop.c): no C library, so
 * that what they execute in user space depends on neither the environment (perf adds
 * PERF_BUILDID_DIR, PREFIX and a PATH entry to its workload's, which changes glibc's
 * start-up by some hundred instructions) nor anything else but their argument.
 * Built with -nostdlib -static: _start passes the initial stack to workload_main(). */
#ifndef PMUKIT_ARM64_WORKLOAD_H
#define PMUKIT_ARM64_WORKLOAD_H

static long workload_syscall1(long nr, long a0)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a0;
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8) : "memory", "cc");
	return x0;
}

/* argv[1] as a decimal number, or def. */
static unsigned long workload_arg(unsigned long *sp, unsigned long def)
{
	unsigned long argc = sp[0], n = 0;
	const char *s = argc > 1 ? (const char *)sp[2] : 0;

	if (!s)
		return def;
	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (unsigned long)(*s - '0');
	return n;
}

__attribute__((noreturn)) void workload_main(unsigned long *sp);

__asm__(".text\n.globl _start\n_start:\n\tmov x0, sp\n\tbl workload_main\n");

__attribute__((noreturn)) static void workload_exit(int code)
{
	for (;;)
		workload_syscall1(94 /* exit_group */, code);
}

#endif
