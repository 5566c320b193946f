/* SPDX-License-Identifier: MIT */
/*
 * record/workload.c — a command started and held before exec until its
 * events are open on its pid (they start at exec: enable_on_exec), then let
 * go; its exec error (ENOENT, EACCES) reported by the parent; reaped.
 *
 * The child is made with clone(CLONE_VM) on a stack of its own: it shares
 * the parent's memory until it execs, as posix_spawn's child does, so no
 * page tables are copied (most of a fork's cost in a VM). Until exec it
 * touches only its stack and makes system calls; every signal is blocked
 * around the clone so no handler of the parent runs in it, and the child
 * resets caught signals to their defaults before restoring the mask.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmukit/record.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>	/* RUNNING_ON_VALGRIND, when installed */
#endif
#endif

#include "util/error.h"

/*
 * Valgrind runs no clone() but a thread's or fork's, and AddressSanitizer and
 * ThreadSanitizer lose track of a child running on a stack of its own: there,
 * fork.
 */
static bool plain_fork(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
	return true;
#endif
#endif
#ifdef RUNNING_ON_VALGRIND
	return RUNNING_ON_VALGRIND;
#else
	return false;
#endif
}

struct pk_workload {
	pid_t pid;
	int go;			/* write a byte: exec now; close: give up */
	int status_fd;		/* the exec's errno, or EOF once it succeeded */
	void *stack;
	size_t stack_len;
	bool released;		/* exec'd or exited: its stack is free */
	bool reaped;
	bool started;		/* go was sent */
	int status;
	struct rusage ru;	/* its resource use, once reaped */
	char name[64];
};

struct child_args {		/* at the top of the child's stack */
	char *const *argv;
	int go, status;		/* the child's pipe ends */
	int close_go, close_status;	/* the parent's ends */
	sigset_t mask;		/* the mask to exec with */
};

static int child_main(void *arg)
{
	struct child_args *a = arg;
	char c;

	close(a->close_go);
	close(a->close_status);
	prctl(PR_SET_NAME, "perf-exec", 0, 0, 0);	/* perf's name for it until exec */
	/* handlers are the parent's code on the parent's data: back to the defaults */
	for (int s = 1; s < NSIG; s++) {
		struct sigaction old;
		if (s == SIGKILL || s == SIGSTOP || sigaction(s, NULL, &old))
			continue;
		if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)
			signal(s, SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, &a->mask, NULL);
	if (read(a->go, &c, 1) != 1)
		_exit(127);	/* the parent gave up */
	execvp(a->argv[0], a->argv);
	int e = errno;
	if (write(a->status, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int pk_workload__start(struct pk_workload **out, char *const *argv, struct pk_error *err)
{
	int gp[2], sp[2], e;
	size_t argc = 0;
	struct pk_workload *w;

	*out = NULL;
	if (!argv || !argv[0])
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no command to run");
	if (!(w = calloc(1, sizeof(*w))))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	snprintf(w->name, sizeof(w->name), "%s", argv[0]);
	while (argv[argc])
		argc++;
	/* execvp's PATH walk and script fallback run on this stack */
	w->stack_len = ((argc + 2) * sizeof(char *) + 64 * 1024 + 4095) & ~(size_t)4095;
	w->stack = mmap(NULL, w->stack_len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
	if (w->stack == MAP_FAILED) {
		e = errno;
		free(w);
		return pk_error__set(err, -e, NULL, 0, 0, "%s: stack for the child: %s", argv[0],
				     strerror(e));
	}
	if (pipe2(gp, O_CLOEXEC))
		goto fail;
	if (pipe2(sp, O_CLOEXEC)) {
		close(gp[0]);
		close(gp[1]);
		goto fail;
	}
	struct child_args *a = (struct child_args *)((char *)w->stack + w->stack_len) - 1;
	*a = (struct child_args){ .argv = argv, .go = gp[0], .status = sp[1], .close_go = gp[1],
				  .close_status = sp[0] };
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &a->mask);
	if (plain_fork()) {
		w->pid = fork();
		if (!w->pid)
			child_main(a);
	} else {
		w->pid = clone(child_main, (void *)((uintptr_t)a & ~(uintptr_t)15), CLONE_VM | SIGCHLD, a);
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &a->mask, NULL);
	close(gp[0]);
	close(sp[1]);
	if (w->pid < 0) {
		close(gp[1]);
		close(sp[0]);
		errno = e;
		goto fail;
	}
	w->go = gp[1];
	w->status_fd = sp[0];
	*out = w;
	return 0;
fail:
	e = errno;
	munmap(w->stack, w->stack_len);
	free(w);
	return pk_error__set(err, -e, NULL, 0, 0, "%s: cannot start: %s", argv[0], strerror(e));
}

pid_t pk_workload__pid(const struct pk_workload *w)
{
	return w ? w->pid : -1;
}

static void release(struct pk_workload *w)
{
	if (!w->released && w->stack)
		munmap(w->stack, w->stack_len);
	w->released = true;
	if (w->go >= 0)
		close(w->go);
	if (w->status_fd >= 0)
		close(w->status_fd);
	w->go = w->status_fd = -1;
}

int pk_workload__wait(struct pk_workload *w, bool nohang, int *status)
{
	if (w->reaped) {
		*status = w->status;
		return 1;
	}
	int st;
	pid_t p;
	do
		p = wait4(w->pid, &st, nohang ? WNOHANG : 0, &w->ru);
	while (p < 0 && errno == EINTR);
	if (p < 0)
		return -errno;
	if (!p)
		return 0;
	w->reaped = true;
	w->status = st;
	release(w);	/* it exited: its stack is no longer in use */
	*status = st;
	return 1;
}

int pk_workload__rusage(const struct pk_workload *w, struct rusage *ru)
{
	if (!w->reaped)
		return -EBUSY;
	*ru = w->ru;
	return 0;
}

int pk_workload__go(struct pk_workload *w, struct pk_error *err)
{
	int e = 0;
	ssize_t n;
	w->started = true;
	if (write(w->go, "g", 1) != 1)
		return pk_error__set(err, -errno, NULL, 0, 0, "%s: cannot start it: %s", w->name,
				     strerror(errno));
	do
		n = read(w->status_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e)) {
		int st;
		pk_workload__wait(w, false, &st);	/* it is on its way to _exit(127) */
		return pk_error__set(err, -e, NULL, 0, 0, "%s: %s", w->name, strerror(e));
	}
	/* EOF: the exec succeeded (the pipe closed on exec), the stack is free */
	if (!w->released && w->stack)
		munmap(w->stack, w->stack_len);
	w->released = true;
	close(w->status_fd);
	w->status_fd = -1;
	return 0;
}

void pk_workload__free(struct pk_workload *w, int sig)
{
	if (!w)
		return;
	if (!w->reaped) {
		int st;
		if (!w->started) {
			close(w->go);	/* it reads EOF and exits */
			w->go = -1;
		} else if (sig) {
			kill(w->pid, sig);
		}
		pk_workload__wait(w, false, &st);
	}
	release(w);
	free(w);
}
