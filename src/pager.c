/* SPDX-License-Identifier: MIT */
/*
 * pager.c — the pager of text printed on a terminal, as perf's setup_pager
 * (tools/lib/subcmd/pager.c) chooses and runs it: `sh -c PAGER` reading a
 * pipe that becomes stdout (and stderr when that is a terminal), started
 * only once the first output arrives (less misbehaves on an empty pipe),
 * waited for at exit so that the shell prompt comes back after it.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"

static bool disabled;
static pid_t pager_pid = -1;

void pager_disable(void)
{
	disabled = true;
}

static void wait_for_pager(void)
{
	if (pager_pid < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);	/* the pager's end of input */
	close(STDERR_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0)
		;
	pager_pid = -1;
}

static void on_signal(int sig)
{
	wait_for_pager();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const char *choose(void)
{
	const char *p = getenv("PERF_PAGER");
	if (!p)
		p = getenv("PAGER");
	if (!p && !access("/usr/bin/pager", X_OK))
		p = "/usr/bin/pager";
	if (!p && !access("/usr/bin/less", X_OK))
		p = "/usr/bin/less";
	if (!p || !*p || !strcmp(p, "cat"))
		return NULL;
	return p;
}

static void run_pager(const char *pager, int in)
{
	dup2(in, STDIN_FILENO);
	close(in);
	/* wait for the first output (or the end of it) before starting less */
	fd_set rd, ex;
	FD_ZERO(&rd);
	FD_ZERO(&ex);
	FD_SET(STDIN_FILENO, &rd);
	FD_SET(STDIN_FILENO, &ex);
	select(1, &rd, NULL, &ex, NULL);
	setenv("LESS", "FRSX", 0);
	execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
	_exit(127);
}

void pager_setup(void)
{
	if (disabled || pager_pid >= 0 || !isatty(STDOUT_FILENO))
		return;
	const char *pager = choose();
	int fd[2];
	if (!pager || pipe(fd))
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (!pid) {
		close(fd[1]);
		run_pager(pager, fd[0]);
	}
	close(fd[0]);
	dup2(fd[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fd[1], STDERR_FILENO);
	close(fd[1]);
	pager_pid = pid;
	static const int sigs[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_signal);
	atexit(wait_for_pager);
}
