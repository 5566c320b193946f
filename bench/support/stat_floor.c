/* SPDX-License-Identifier: MIT */
/*
 * bench/support/stat_floor.c — the least any `stat -e task-clock CMD` can do,
 * as a yardstick for pmukit's start-up: start CMD held before exec (clone
 * sharing memory, a pipe to release it), open one task-clock counter on it
 * with enable_on_exec, release it, wait, read, print one line. No options,
 * no tables, no formatting. Linked statically like the pmukit CLI.
 *
 *   stat_floor CMD [ARGS]
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

struct args {
	char **argv;
	int go;
};

static int child(void *p)
{
	struct args *a = p;
	char c;
	if (read(a->go, &c, 1) != 1)
		_exit(127);
	execvp(a->argv[0], a->argv);
	_exit(127);
}

int main(int argc, char **argv)
{
	static char stack[64 * 1024];
	int gp[2], st;

	if (argc < 2 || pipe2(gp, O_CLOEXEC))
		return 2;
	struct args a = { .argv = argv + 1, .go = gp[0] };
	pid_t pid = clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD, &a);
	if (pid < 0)
		return 2;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr), .config = PERF_COUNT_SW_TASK_CLOCK,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
		.disabled = 1, .inherit = 1, .enable_on_exec = 1, .exclude_guest = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (write(gp[1], "g", 1) != 1)
		return 2;
	close(gp[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	uint64_t v[3] = { 0 };
	if (fd < 0 || read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return 2;
	fprintf(stderr, "%" PRIu64 " task-clock\n", v[0]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
