/* sysloop.c — the guest's deterministic syscall workload for `make check-arm64`:
 * `sysloop N` makes N getppid() system calls, so that kernel (and, under VHE, EL2)
 * counts are large next to the user ones. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000;

	for (unsigned long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
