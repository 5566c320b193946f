/* SPDX-License-Identifier: MIT */
/*
 * stat-live.c — `pmukit stat` counting for real: start the workload (held
 * until the counters are open), count it, or every CPU (-a, -C), or running
 * tasks (-p, -t); print every -I interval, repeat -r times; SIGINT, SIGTERM
 * and SIGHUP stop counting and print what was counted (a signal sent to
 * pmukit itself by kill is passed on to the workload).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/count.h>
#include <pmukit/record.h>	/* pk_workload: the one workload starter */
#include <pmukit/spec.h>

#include "stat-live.h"

/* Signal state: the CLI's, shared with the handlers (the library has none). */
static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t child_pid = -1;
static int wake_pipe[2] = { -1, -1 };

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	(void)uc;
	if (sig != SIGCHLD) {
		got_signal = sig;
		/*
		 * The terminal signals the whole foreground group (si_code > 0);
		 * a kill(2) aimed at pmukit alone is passed on to the workload.
		 */
		if (child_pid > 0 && si && si->si_code <= 0)
			kill((pid_t)child_pid, sig);
	}
	if (wake_pipe[1] >= 0 && write(wake_pipe[1], "x", 1) < 0) {
		/* full pipe: a wake-up is pending anyway */
	}
	errno = saved;
}

static const int handled_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };

static int signals_install(struct sigaction *old)
{
	if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK))
		return -1;
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(handled_signals) / sizeof(handled_signals[0]); i++)
		sigaction(handled_signals[i], &sa, &old[i]);
	return 0;
}

static void signals_restore(const struct sigaction *old)
{
	for (size_t i = 0; i < sizeof(handled_signals) / sizeof(handled_signals[0]); i++)
		sigaction(handled_signals[i], &old[i], NULL);
}

static void wake_drain(void)
{
	char buf[64];
	while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Tool events (duration_time, user_time, system_time) are the command's, not a counter's. */
static void fill_tools(struct stat_live *st, struct stat_cell *cells, double wall_ns,
		       const struct rusage *ru)
{
	for (size_t e = 0; e < st->nr_ev; e++) {
		if (st->tool[e] == STAT_TOOL_NONE)
			continue;
		double v = wall_ns;
		if (st->tool[e] == STAT_TOOL_USER)
			v = ru ? tv_s(&ru->ru_utime) * 1e9 : 0;
		else if (st->tool[e] == STAT_TOOL_SYSTEM)
			v = ru ? tv_s(&ru->ru_stime) * 1e9 : 0;
		/*
		 * perf: a tool event's run time is its own value, and a value of 0
		 * (no system time yet) was never running: <not counted>.
		 */
		for (size_t id = 0; id < st->nr_ids; id++) {
			struct stat_cell *c = &cells[id * st->nr_ev + e];
			*c = (struct stat_cell){ .status = PK_COUNT_OK, .val = id ? 0 : v,
						 .ena = (uint64_t)wall_ns, .run = (uint64_t)wall_ns };
			if (!id) {
				c->ena = c->run = (uint64_t)llround(v);
				if (!c->run)
					c->status = PK_COUNT_NOT_COUNTED;
			}
		}
	}
}

/* ---- one run ---- */

struct run_result {
	double wall_ns;
	struct rusage ru;
	int status;		/* wait status of the workload */
	bool have_status;
	int exec_errno;
	bool stopped;		/* a signal or --interval-count ended it */
	bool fatal;		/* perf fails such a run with 255 */
};

static void print_interval(struct stat_live *st, struct stat_printer *pr, double t_s, double wall_ns)
{
	stat_live__read(st, true);
	fill_tools(st, st->cells, wall_ns, NULL);
	struct stat_frame fr = st->frame;
	fr.interval = t_s;
	fr.wall_ns = st->cfg->interval_ms * 1e6;
	fr.cell = st->cells;
	fr.seq = ++st->seq;
	stat_printer__frame(pr, &fr);	/* which flushes each frame */
	if (st->on_interval)
		st->on_interval(st->on_interval_ctx);
}

/* -p/-t without a command: every counted task has exited (perf then stops too). */
static bool tasks_gone(const struct stat_live *st)
{
	if (!st->tids)
		return false;
	for (size_t i = 0; i < st->nr_tids; i++)
		if (!kill(st->tids[i], 0) || errno != ESRCH)
			return false;
	return true;
}

/* What the counting loop works on: the workload (pid > 0) and its clock, and what it finds. */
struct loop {
	struct pk_workload *wl;
	pid_t pid;
	double t0;		/* counting started (ns) */
	unsigned intervals;	/* -I: printed so far */
	bool child_done;
};

/* -D: counting enabled by hand once the delay is over, with perf's two lines. */
static void delay_then_enable(struct stat_live *st, struct loop *l)
{
	struct pk_error perr = { 0 };
	char msg[1024];
	double until = now_ns() + st->cfg->delay_ms * 1e6;
	for (double left; !got_signal && (left = until - now_ns()) > 0;) {
		struct pollfd pfd = { .fd = wake_pipe[0], .events = POLLIN };
		if (poll(&pfd, 1, (int)ceil(left / 1e6)) > 0)
			wake_drain();
		if (l->pid > 0 && waitpid(l->pid, NULL, WNOHANG | WNOWAIT) == l->pid)
			break;	/* it ended before the delay: nothing was counted */
	}
	if (pk_counter__enable(st->cnt, &perr))
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&perr, msg, sizeof(msg)));
	fprintf(stderr, "Events enabled\n");
	l->t0 = now_ns();
}

/*
 * Count until the workload exits, a signal, the tasks' end (-p/-t),
 * --timeout or --interval-count; print -I's intervals meanwhile.
 */
static void count_loop(struct stat_live *st, struct stat_printer *pr, struct loop *l,
		       struct run_result *rr)
{
	const struct stat_config *cfg = st->cfg;
	double next = cfg->interval_ms > 0 ? l->t0 + cfg->interval_ms * 1e6 : 0;
	/* --timeout: the workload gets SIGTERM, as perf sends it; a target alone stops */
	double deadline = cfg->timeout_ms > 0 ? l->t0 + cfg->timeout_ms * 1e6 : 0;
	bool timed_out = false;
	while (!rr->exec_errno) {
		if (deadline && !timed_out && now_ns() >= deadline) {
			timed_out = true;
			if (l->pid <= 0) {
				rr->stopped = true;
				break;
			}
			kill(l->pid, SIGTERM);
		}
		if (l->pid > 0 && !l->child_done &&
		    pk_workload__wait(l->wl, true, &rr->status) == 1) {
			pk_workload__rusage(l->wl, &rr->ru);
			l->child_done = true;
			rr->have_status = true;
			break;
		}
		if (l->pid <= 0 && (got_signal || tasks_gone(st))) {
			rr->stopped = true;
			break;
		}
		int timeout = l->pid <= 0 && st->tids ? 100 : -1;	/* -p/-t alone: notice the tasks exit */
		if (deadline && !timed_out) {
			int t = (int)ceil((deadline - now_ns()) / 1e6);
			timeout = timeout < 0 || t < timeout ? (t > 0 ? t : 0) : timeout;
		}
		if (next) {
			double left = next - now_ns();
			if (left <= 0) {
				print_interval(st, pr, (now_ns() - l->t0) / 1e9, cfg->interval_ms * 1e6);
				/* as perf: the next interval starts now (late ticks drift, never crowd) */
				next = now_ns() + cfg->interval_ms * 1e6;
				if (cfg->interval_count && ++l->intervals >= cfg->interval_count) {
					rr->stopped = true;
					break;
				}
				continue;
			}
			int t = (int)ceil(left / 1e6);
			timeout = timeout < 0 || t < timeout ? t : timeout;
		}
		struct pollfd pfd = { .fd = wake_pipe[0], .events = POLLIN };
		if (poll(&pfd, 1, timeout) > 0)
			wake_drain();
	}
}

static int run_once(struct stat_live *st, struct stat_printer *pr, struct run_result *rr)
{
	const struct stat_config *cfg = st->cfg;
	struct loop l = { .pid = -1 };
	struct pk_error perr = { 0 };
	char msg[1024];

	memset(rr, 0, sizeof(*rr));
	if (cfg->argv) {
		if (pk_workload__start(&l.wl, cfg->argv, &perr)) {
			fprintf(stderr, "pmukit stat: cannot start the workload: %s\n",
				strerror(-perr.code));
			return -1;
		}
		l.pid = pk_workload__pid(l.wl);
	}
	if (stat_live__open(st, l.pid, &perr)) {
		if (perr.code == STAT_GROUP_UNSUPPORTED) {	/* perf's words, exit 255 */
			fprintf(stderr, "Error:\n%s\n", perr.msg);
			rr->fatal = true;
		} else {
			fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&perr, msg, sizeof(msg)));
		}
		pk_workload__free(l.wl, 0);	/* not let go: it exits before exec */
		return -1;
	}
	child_pid = l.pid;
	l.t0 = now_ns();
	l.child_done = l.pid <= 0;
	/* -D: enabled by hand once the delay is over; -D -1 (perf: by --control) never */
	bool delayed = cfg->delay_ms != 0;
	if (delayed)
		fprintf(stderr, "Events disabled\n");
	else if (st->enable_after_open && pk_counter__enable(st->cnt, &perr))
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&perr, msg, sizeof(msg)));
	if (l.pid > 0 && pk_workload__go(l.wl, &perr))
		rr->exec_errno = -perr.code;	/* "Workload failed: ..." below, as perf */
	if (cfg->delay_ms > 0)
		delay_then_enable(st, &l);
	count_loop(st, pr, &l, rr);
	double t1 = now_ns();
	if (st->enable_after_open || delayed)
		pk_counter__disable(st->cnt, &perr);
	if (l.pid > 0 && !l.child_done) {
		/* --interval-count ran out: perf stops printing and waits for the workload */
		if (pk_workload__wait(l.wl, false, &rr->status) == 1)
			pk_workload__rusage(l.wl, &rr->ru);
		rr->have_status = !rr->exec_errno;
	}
	if (l.wl && cfg->argv && rr->have_status && WIFSIGNALED(rr->status))	/* as perf's psignal() */
		fprintf(stderr, "%s: %s\n", cfg->argv[0], strsignal(WTERMSIG(rr->status)));
	child_pid = -1;
	pk_workload__free(l.wl, 0);	/* reaped */
	rr->wall_ns = t1 - l.t0;
	if (rr->exec_errno)
		return 0;
	if (cfg->interval_ms > 0) {
		/* the last, partial interval, as perf prints it */
		if (!cfg->interval_count || l.intervals < cfg->interval_count)
			print_interval(st, pr, (t1 - l.t0) / 1e9, cfg->interval_ms * 1e6);
	} else {
		stat_live__read(st, false);
	}
	return 0;
}

/* ---- repeats ---- */

struct acc {
	double n, mean, m2;	/* Welford */
	double ena, run;
	enum pk_count_status status;
};

static void acc_add(struct acc *a, const struct stat_cell *c)
{
	if (c->status != PK_COUNT_OK) {
		if (!a->n)
			a->status = c->status;
		return;
	}
	a->status = PK_COUNT_OK;
	a->n++;
	double d = c->val - a->mean;
	a->mean += d / a->n;
	a->m2 += d * (c->val - a->mean);
	a->ena += ((double)c->ena - a->ena) / a->n;
	a->run += ((double)c->run - a->run) / a->n;
}

/* The standard error of the mean (perf's stddev_stats). */
static double acc_stderr(const struct acc *a)
{
	return a->n < 2 ? 0 : sqrt(a->m2 / (a->n - 1) / a->n);
}

/* perf's noise: the standard error relative to the mean, in percent. */
static double acc_noise(const struct acc *a)
{
	return a->mean ? 100.0 * acc_stderr(a) / a->mean : 0;
}

/* The counts of the runs so far: means, noise, elapsed time and rusage. */
static void print_summary(struct stat_live *st, struct stat_printer *pr, const char *target,
			  const struct acc *acc, const struct acc *wall, const struct run_result *rr)
{
	const struct stat_config *cfg = st->cfg;
	size_t cells = st->nr_ev * st->nr_ids;
	stat_printer__header(pr, target);
	for (size_t i = 0; i < cells; i++) {
		struct stat_cell *c = &st->cells[i];
		*c = (struct stat_cell){ .status = acc[i].status, .val = acc[i].mean,
					 .ena = (uint64_t)acc[i].ena, .run = (uint64_t)acc[i].run,
					 .noise = acc_noise(&acc[i]) };
	}
	struct stat_frame fr = st->frame;
	fr.interval = -1;
	fr.wall_ns = wall->mean;
	fr.cell = st->cells;
	fr.seq = ++st->seq;
	st->frame.cell = st->cells;	/* the last frame, for reports */
	fr.user_ns = tv_s(&rr->ru.ru_utime) * 1e9;
	fr.sys_ns = tv_s(&rr->ru.ru_stime) * 1e9;
	stat_printer__frame(pr, &fr);
	stat_printer__footer(pr, wall->mean / 1e9, acc_stderr(wall) / 1e9, tv_s(&rr->ru.ru_utime),
			     tv_s(&rr->ru.ru_stime), st->show_rusage && cfg->runs <= 1);
}

int stat_live__run(struct stat_live *st, struct stat_printer *pr, const char *target, int *exit_code)
{
	const struct stat_config *cfg = st->cfg;
	struct sigaction old[sizeof(handled_signals) / sizeof(handled_signals[0])];
	size_t cells = st->nr_ev * st->nr_ids;
	struct acc *acc = calloc(cells, sizeof(*acc));
	struct acc wall = { 0 };
	struct run_result rr = { 0 };
	int ret = -1, runs = 0;

	if (!acc || signals_install(old)) {
		free(acc);
		fprintf(stderr, "pmukit stat: %s\n", strerror(errno));
		return -1;
	}
	*exit_code = 0;
	/* -r 0: perf repeats until interrupted, printing the counts of each run */
	bool forever = cfg->runs == 0;
	for (long r = 0; forever || r < cfg->runs; r++) {
		if (run_once(st, pr, &rr)) {
			if (rr.fatal)
				*exit_code = 255;
			goto out;
		}
		if (rr.exec_errno) {
			fprintf(stderr, "Workload failed: %s\n", strerror(rr.exec_errno));
			*exit_code = 255;
			ret = 0;
			goto out;
		}
		runs++;
		if (cfg->interval_ms <= 0) {
			fill_tools(st, st->cells, rr.wall_ns, &rr.ru);
			for (size_t i = 0; i < cells; i++)
				acc_add(&acc[i], &st->cells[i]);
			struct stat_cell w = { .status = PK_COUNT_OK, .val = rr.wall_ns };
			acc_add(&wall, &w);
			if (forever) {
				print_summary(st, pr, target, acc, &wall, &rr);
				memset(acc, 0, cells * sizeof(*acc));
				wall = (struct acc){ 0 };
			}
		}
		stat_live__close(st);
		if (got_signal)
			break;	/* Ctrl-C: print what was counted so far */
	}
	if (cfg->interval_ms <= 0 && runs && !forever)
		print_summary(st, pr, target, acc, &wall, &rr);
	if (rr.have_status) {
		if (WIFEXITED(rr.status))
			*exit_code = WEXITSTATUS(rr.status);
		else if (WIFSIGNALED(rr.status) && got_signal)
			*exit_code = 128 + WTERMSIG(rr.status);	/* perf re-raises its own signal */
		/* killed by a signal of its own: perf returns WEXITSTATUS(), 0 */
	} else if (got_signal) {
		*exit_code = 128 + got_signal;
	}
	ret = 0;
out:
	stat_live__close(st);
	signals_restore(old);
	free(acc);
	return ret;
}
