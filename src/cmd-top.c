/* SPDX-License-Identifier: MIT */
/*
 * cmd-top.c — `pmukit top`: perf top's live profile. The sampling is
 * `pmukit record -o -` run as a child (every perf record option and error
 * in one place, the cycles -> cpu-clock fallback included), its pipe-mode
 * stream read by one session for the whole run (threads, maps and symbols
 * kept). A reader thread, the only user of the session, resolves the
 * samples into the current window's pk_report and ends the window every -d
 * seconds: --stdio prints perf top's frame (top-frame.c), the browser on a
 * terminal (tui-report.c, report_tui__run_live) shows the finished report in
 * place of the last. Each frame shows the samples of its own interval over
 * the older ones decayed by 7/8 a refresh, as perf top's (top-decay.c); with
 * -z its own only.
 * The stream also goes into a file of top's own (top_keep), which the
 * browser's annotate view (a) reads as report reads a pipe-mode perf.data.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/report.h>
#include <pmukit/session.h>

#include "cli-opts.h"
#include "top.h"
#include "tui.h"

#define MAX_EVENTS 64

static _Atomic int top_stop;	/* set by a signal, read by both threads */

static void on_signal(int sig)
{
	(void)sig;
	top_stop = 1;
}

/* -e SPEC, repeatable */
static int opt_event(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct top_cfg *c = opt->value;
	(void)unset;
	if (c->nr_events == MAX_EVENTS)
		return cli_opts__error(opt, "is given too often");
	c->events[c->nr_events++] = arg;
	return 0;
}

/* --children, --no-children */
static int opt_children(const struct cli_opt *opt, const char *arg, bool unset)
{
	(void)arg;
	*(enum pk_report_switch *)opt->value = unset ? PK_REPORT_OFF : PK_REPORT_ON;
	return 0;
}

/* -g (perf top's fp callchains), --call-graph MODE */
static int opt_callgraph(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct top_cfg *c = opt->value;
	c->call_graph = unset ? NULL : arg ? arg : "fp";
	return 0;
}

static int parse_args(int argc, char **argv, struct top_cfg *c)
{
	const struct cli_opt opts[] = {
		CLI_CALLBACK_F('e', "event", c, "event", "event selector, perf syntax (default: "
			       "cycles:P, opened as cpu-clock where there is no hardware PMU)",
			       opt_event, CLI_NONEG),
		CLI_STRING('c', "count", &c->count, "n", "event period to sample"),
		CLI_STRING('F', "freq", &c->freq, "n", "profile at this frequency (default 4000)"),
		CLI_BOOL('a', "all-cpus", &c->all_cpus, "system-wide collection from all CPUs "
			 "(the default)"),
		CLI_STRING('C', "cpu", &c->cpu_list, "cpu", "list of cpus to monitor"),
		CLI_STRING('p', "pid", &c->pid, "pid", "profile events on existing process id"),
		CLI_STRING('t', "tid", &c->tid, "tid", "profile events on existing thread id"),
		CLI_STRING('u', "uid", &c->uid, "user", "user to profile"),
		CLI_CALLBACK_F('g', NULL, c, NULL, "enables call-graph recording and display",
			       opt_callgraph, CLI_NOARG),
		CLI_CALLBACK_F(0, "call-graph", c, "record_mode", "setup and enables call-graph "
			       "(stack chain/backtrace) recording: fp or dwarf", opt_callgraph, 0),
		CLI_CALLBACK_NOARG(0, "children", &c->children,
				   "accumulate callchains of children and show total overhead as well",
				   opt_children),
		CLI_BOOL('K', "hide_kernel_symbols", &c->hide_kernel, "hide kernel symbols"),
		CLI_BOOL('U', "hide_user_symbols", &c->hide_user, "hide user symbols"),
		CLI_STRING('s', "sort", &c->sort, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, ... "
			   "(default dso,symbol)"),
		CLI_INT('d', "delay", &c->delay, "n", "number of seconds to delay between refreshes"),
		CLI_BOOL('z', "zero", &c->zero, "zero history across updates"),
		CLI_INT('E', "entries", &c->entries, "n", "display this many functions"),
		CLI_DOUBLE(0, "percent-limit", &c->percent_limit, "percent",
			   "don't show entries under that percent"),
		CLI_BOOL(0, "stdio", &c->stdio, "use the stdio interface"),
		CLI_BOOL(0, "tui", &c->tui, "use the interactive browser (the default on a terminal)"),
		CLI_END(),
	};
	return cli_opts__parse(argc, argv, opts, "pmukit top [<options>]\n\n"
			       "Sample the system (or -p, -t, -C) live and print its profile every -d "
			       "seconds, as perf top --stdio does.", 0);
}

/* The child's command line: pmukit record -o - with the sampling options. */
static size_t record_argv(const struct top_cfg *c, const char **av, char *mpages, size_t mlen)
{
	size_t n = 0;
	av[n++] = "pmukit";
	av[n++] = "record";
	av[n++] = "-q";
	av[n++] = "-o";
	av[n++] = "-";
	/* 256 KB buffers (perf top's are 512 KB): their wake-ups (at half full) come
	 * often enough for fresh frames (every 0.1 s at -F 4000 -g on two busy CPUs),
	 * and -F 4000 -g loses no samples there (64 KB ones lost some: bench/tui.c) */
	snprintf(mpages, mlen, "%d", 64);
	av[n++] = "-m";
	av[n++] = mpages;
	for (size_t i = 0; i < c->nr_events; i++) {
		av[n++] = "-e";
		av[n++] = c->events[i];
	}
	if (!c->nr_events) {
		av[n++] = "-e";
		av[n++] = "cycles:P";
	}
	if (c->count) {
		av[n++] = "-c";
		av[n++] = c->count;
	} else {
		av[n++] = "-F";
		av[n++] = c->freq ? c->freq : "4000";
	}
	if (c->call_graph) {
		av[n++] = "--call-graph";
		av[n++] = c->call_graph;
	}
	const char *target[][2] = { { "-p", c->pid }, { "-t", c->tid }, { "-u", c->uid },
				    { "-C", c->cpu_list } };
	for (size_t i = 0; i < sizeof(target) / sizeof(target[0]); i++)
		if (target[i][1]) {
			av[n++] = target[i][0];
			av[n++] = target[i][1];
		}
	if (!c->pid && !c->tid && !c->uid)
		av[n++] = "-a";
	av[n] = NULL;
	return n;
}

/* Start the recording child, its stdout a pipe: the pid, or -1 (*fd: the read end). */
static pid_t start_record(const struct top_cfg *c, int *fd)
{
	const char *av[2 * MAX_EVENTS + 32];
	char mpages[16];
	record_argv(c, av, mpages, sizeof(mpages));
	int p[2];
	if (pipe2(p, O_CLOEXEC)) {
		perror("pmukit top: pipe");
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("pmukit top: fork");
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		execv("/proc/self/exe", (char *const *)av);
		perror("pmukit top: exec");
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/*
 * The recording top keeps for the annotate view (a): a tee thread copies the
 * child's pipe-mode stream into the session's pipe and into an unnamed file
 * in TMPDIR (or /tmp), counting the bytes of whole records written. At a,
 * top_snapshot copies those bytes into a named file, read by the annotate
 * view (tui-annotate.c) as report reads a pipe-mode perf.data: the samples
 * of the whole session so far (perf top's annotation also counts them all).
 * The file grows as the session goes (about what `pmukit record -o` of the
 * same options writes) and goes away with top.
 */
struct top_keep {
	int in, out;			/* the child's pipe; the session's pipe (write end) */
	int fd;				/* the stream so far, -1: none kept */
	int err;			/* why none is kept (errno) */
	_Atomic uint64_t whole;		/* bytes of whole records in fd */
	char snap[4096];		/* the annotate view's file, "" until the first a */
	pthread_t th;
	bool running;
};

/* the bytes of the record at off of the kept stream (header.size and what follows), 0: not yet whole */
static uint64_t record_len(int fd, uint64_t off, uint64_t end)
{
	struct perf_event_header h;
	if (off + sizeof(h) > end || pread(fd, &h, sizeof(h), (off_t)off) != (ssize_t)sizeof(h))
		return 0;
	uint64_t len = h.size, extra = 0;
	if (len < sizeof(h))
		return UINT64_MAX;	/* not a stream: nothing more counts as whole */
	if (h.type == 66 && len >= sizeof(h) + 4) {	/* HEADER_TRACING_DATA: the data follows */
		uint32_t n;
		if (pread(fd, &n, sizeof(n), (off_t)(off + sizeof(h))) != (ssize_t)sizeof(n))
			return 0;
		extra = ((uint64_t)n + 7) & ~7ull;
	} else if (h.type == 71 && len >= sizeof(h) + 8) {	/* AUXTRACE: its data follows */
		if (pread(fd, &extra, sizeof(extra), (off_t)(off + sizeof(h))) != (ssize_t)sizeof(extra))
			return 0;
	}
	return off + len + extra <= end ? len + extra : 0;
}

static void *tee_thread(void *arg)
{
	struct top_keep *k = arg;
	static const uint64_t pipe_header = 16;	/* perf's pipe header: magic, size */
	char buf[65536];
	uint64_t pos = 0, next = pipe_header;
	bool broken = false;
	ssize_t n;
	while ((n = read(k->in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t w = 0, c; k->out >= 0 && w < n; w += c)
			if ((c = write(k->out, buf + w, (size_t)(n - w))) < 0) {
				if (errno == EINTR) {
					c = 0;
					continue;
				}
				close(k->out);	/* the session is gone: the child is drained still */
				k->out = -1;
			}
		if (k->fd < 0 || broken)
			continue;
		if (write(k->fd, buf, (size_t)n) != n) {
			broken = true;	/* a full disk: the snapshot keeps what was whole */
			continue;
		}
		pos += (uint64_t)n;
		uint64_t len;
		while (pos >= next && (len = record_len(k->fd, next, pos)) && len != UINT64_MAX)
			next += len;
		if (pos >= pipe_header)
			k->whole = next <= pos ? next : k->whole;
	}
	if (k->out >= 0)
		close(k->out);
	k->out = -1;
	return NULL;
}

/* the tee between the child's pipe *fd and the session: *fd becomes the session's end. 0 or -1 */
static int keep_start(struct top_keep *k, int *fd)
{
	const char *dir = getenv("TMPDIR");
	k->fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	k->err = k->fd < 0 ? errno : 0;
	int p[2];
	if (pipe2(p, O_CLOEXEC)) {
		perror("pmukit top: pipe");
		return -1;
	}
	k->in = *fd;
	k->out = p[1];
	if (pthread_create(&k->th, NULL, tee_thread, k)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	k->running = true;
	*fd = p[0];
	return 0;
}

static void keep_end(struct top_keep *k)
{
	if (k->running)
		pthread_join(k->th, NULL);
	k->running = false;
	if (k->in >= 0)
		close(k->in);
	if (k->fd >= 0)
		close(k->fd);
	if (k->snap[0])
		unlink(k->snap);
}

/* a: the whole records so far into k->snap (the browser's tui_live.snapshot). 0 or -1 */
static int top_snapshot(void *ctx, char *status, size_t size)
{
	struct top_keep *k = ((struct top *)ctx)->keep;
	if (k->fd < 0) {
		snprintf(status, size, "annotate: top keeps no recording here (%s: %s)",
			 getenv("TMPDIR") ? "TMPDIR" : "/tmp", strerror(k->err));
		return -1;
	}
	int out;
	if (!k->snap[0]) {
		const char *dir = getenv("TMPDIR");
		snprintf(k->snap, sizeof(k->snap), "%s/pmukit-top-XXXXXX", dir && *dir ? dir : "/tmp");
		out = mkostemp(k->snap, O_CLOEXEC);
		if (out < 0)
			k->snap[0] = 0;
	} else {
		out = open(k->snap, O_WRONLY | O_TRUNC | O_CLOEXEC);
	}
	uint64_t end = k->whole;
	off_t off = 0;
	int rc = out < 0 ? -1 : 0;
	while (!rc && (uint64_t)off < end) {
		ssize_t c = copy_file_range(k->fd, &off, out, NULL, (size_t)(end - (uint64_t)off), 0);
		if (c <= 0) {
			char buf[65536];
			size_t want = end - (uint64_t)off < sizeof(buf) ? (size_t)(end - (uint64_t)off) :
									 sizeof(buf);
			c = pread(k->fd, buf, want, off);
			rc = c <= 0 || write(out, buf, (size_t)c) != c ? -1 : 0;
			off += c > 0 ? c : 0;
		}
	}
	if (rc || (out >= 0 && close(out)))
		snprintf(status, size, "annotate: cannot copy top's recording: %s", strerror(errno));
	return rc ? -1 : 0;
}

/* perf's symbol__is_idle: kernel idle loops, whose samples perf top leaves out */
static bool is_idle(const struct pk_resolved *rs)
{
	static const char *const idle[] = {
		"acpi_idle_do_entry", "acpi_processor_ffh_cstate_enter", "arch_cpu_idle",
		"cpu_idle", "cpu_startup_entry", "idle_cpu", "intel_idle", "intel_idle_ibrs",
		"default_idle", "native_safe_halt", "enter_idle", "exit_idle", "mwait_idle",
		"mwait_idle_with_hints", "mwait_idle_with_hints.constprop.0", "poll_idle",
		"ppc64_runlatch_off", "pseries_dedicated_idle_sleep", "psw_idle", "psw_idle_exit",
	};
	if (rs->cpumode != PERF_RECORD_MISC_KERNEL || !rs->loc->sym)
		return false;
	for (size_t i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		if (!strcmp(rs->loc->sym->name, idle[i]))
			return true;
	return false;
}

/* One sample into the current window (lock held). */
static int top_sample(struct top *t, const struct pk_data_event *ev, struct pk_error *err)
{
	uint8_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (ev->attr == t->sym_attr) {
		t->samples++;
		t->kernel_samples += mode == PERF_RECORD_MISC_KERNEL;
		t->exact_samples += !!(ev->misc & PERF_RECORD_MISC_EXACT_IP);
	}
	if ((mode == PERF_RECORD_MISC_KERNEL && t->cfg->hide_kernel) ||
	    (mode == PERF_RECORD_MISC_USER && t->cfg->hide_user))
		return 0;
	struct pk_resolved rs = { .sz = sizeof(rs) };
	int rc = pk_session__resolve(t->s, ev, t->cfg->call_graph ? PK_RESOLVE_CALLCHAIN : 0,
				     &rs, err);
	if (rc || is_idle(&rs))
		return rc;
	rc = pk_report__add(t->r, &rs, err);
	/* (the older samples by function, unless a sort key shows their addresses) */
	bool exact = t->cfg->sort && (strstr(t->cfg->sort, "srcline") || strstr(t->cfg->sort, "srcfile") ||
				      strstr(t->cfg->sort, "addr") || strstr(t->cfg->sort, "ip"));
	if (!rc && !t->cfg->zero && (rc = top_decay__sample(&t->decay, &rs, exact)))
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	return rc;
}

static int new_window(struct top *t);

/* Whether the next frame is due, late_ms past its time (and then its successor's time set). */
static bool frame_due(struct top *t, long late_ms)
{
	struct timespec now, due = t->due;
	clock_gettime(CLOCK_MONOTONIC, &now);
	due.tv_sec += late_ms / 1000;
	if ((due.tv_nsec += late_ms % 1000 * 1000000L) >= 1000000000L) {
		due.tv_sec++;
		due.tv_nsec -= 1000000000L;
	}
	if (top_stop || now.tv_sec < due.tv_sec ||
	    (now.tv_sec == due.tv_sec && now.tv_nsec < due.tv_nsec))
		return false;
	/* the frames keep their pace (an idle target's late ones too) */
	t->due.tv_sec += t->cfg->delay;
	if (t->due.tv_sec < now.tv_sec || (t->due.tv_sec == now.tv_sec && t->due.tv_nsec <= now.tv_nsec)) {
		t->due = now;
		t->due.tv_sec += t->cfg->delay;
	}
	return true;
}

/*
 * The window ends (reader thread, lock held): --stdio prints its frame, the
 * browser gets its report finished (t->ready); a fresh window follows.
 * 0 or -1.
 */
static int window_end(struct top *t)
{
	struct pk_error err = { 0 };
	/* perf top without -z: the older samples, decayed, under this window's */
	int rc = t->cfg->zero ? 0 : top_decay__add_to(t->decay, t->s, t->r, &err);
	if (!rc)
		rc = top_decay__step(t->decay);
	if (rc) {
		fprintf(stderr, "pmukit top: %s\n", err.msg[0] ? err.msg : "out of memory");
		pk_report__free(t->r);
		t->r = NULL;
		return -1;
	}
	if (!t->cfg->tui) {
		rc = top_frame__print(t, t->r, stdout);
		pk_report__free(t->r);
	} else if (!(rc = pk_report__finish(t->r, &err))) {
		pk_report__free(t->ready);	/* not taken by the browser: a newer one instead */
		t->ready = t->r;
		t->lost_shown = t->lost;
		t->samples = t->kernel_samples = t->exact_samples = t->lost = 0;
	} else {
		fprintf(stderr, "pmukit top: %s\n", err.msg);
		pk_report__free(t->r);
	}
	t->r = NULL;
	return rc || new_window(t) ? -1 : 0;
}

/*
 * The reader thread: the session's records, samples added to the current
 * window's report, the window ended every -d seconds. The session is used
 * by this thread only (the browser reads finished reports).
 */
static void *reader(void *arg)
{
	struct top *t = arg;
	const struct pk_data_event *ev;
	struct pk_error err = { 0 };
	int rc;
	while ((rc = pk_session__next(t->s, &ev, &err)) > 0) {
		pthread_mutex_lock(&t->lock);
		rc = 0;
		if (!t->event[0] && pk_session__nr_attrs(t->s))
			top_frame__event(t);
		if (ev->type == PERF_RECORD_SAMPLE) {
			rc = top_sample(t, ev, &err);
		} else if (ev->type == PERF_RECORD_LOST) {
			t->lost += ev->u.lost.lost;
			t->lost_total += ev->u.lost.lost;
			t->lost_records++;
		}
		if (!rc && frame_due(t, 0) && window_end(t))
			rc = -EIO;
		pthread_mutex_unlock(&t->lock);
		if (rc)
			break;
	}
	if (rc < 0 && rc != -EIO && !top_stop) {
		char buf[512];
		fprintf(stderr, "pmukit top: %s\n", pk_error__format(&err, buf, sizeof(buf)));
	}
	pthread_mutex_lock(&t->lock);
	if (!rc && !top_stop && !t->cfg->tui && t->r)	/* the end (-p's process exited): the last frame */
		rc = window_end(t);
	t->failed = rc < 0 && !top_stop;
	t->done = true;
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* A fresh window's report (lock held or no reader yet). */
static int new_window(struct top *t)
{
	struct pk_error err = { 0 };
	struct pk_report_opts ro = { .sz = sizeof(ro), .sort = t->cfg->sort ? t->cfg->sort :
							     "dso,sym",
				     .percent_limit = t->cfg->percent_limit,
				     .children = t->cfg->children, .top = true };
	if (!t->cfg->call_graph)
		ro.call_graph = "none";
	if (pk_report__new(&t->r, t->s, &ro, &err)) {
		fprintf(stderr, "pmukit top: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static void nap(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	nanosleep(&ts, NULL);
}

/*
 * --stdio: the reader prints the frames; when no record came for half a
 * second past a frame's time (an idle -p target), a frame of the header
 * alone. A window that has samples is the reader's to print: it is only
 * behind (a loaded machine), so the header alone waits 2 s for it. Until a
 * signal or the end of the recording. 0 or -1.
 */
static int top_loop(struct top *t)
{
	for (;;) {
		nap();
		pthread_mutex_lock(&t->lock);
		bool done = t->done;
		int rc = !done && t->event[0] && frame_due(t, t->samples ? 2000 : 500)
			 ? top_frame__print(t, NULL, stdout) : 0;
		pthread_mutex_unlock(&t->lock);
		if (rc || done || top_stop)
			return rc;
	}
}

/* The browser's next report: the last window's, when it ended since (else NULL). */
static struct pk_report *top_take(void *ctx)
{
	struct top *t = ctx;
	pthread_mutex_lock(&t->lock);
	struct pk_report *r = t->ready;
	t->ready = NULL;
	pthread_mutex_unlock(&t->lock);
	t->pending = r;
	return r;
}

/* the browser is done with a report: an older one, or the newer one it did not show */
static void top_release(void *ctx, struct pk_report *r)
{
	struct top *t = ctx;
	if (r != t->pending)
		t->shown = t->pending;
	t->pending = NULL;
	pk_report__free(r);
}

static bool has_rows(struct top *t, struct pk_report *r)
{
	for (size_t i = 0; r && i < pk_report__nr_sections(r); i++)
		if (pk_report__section(r, i)->attr == t->sym_attr && pk_report__nr_entries(r, i))
			return true;
	return false;
}

/* perf top's title ends with the lost and dropped events (perf drops none here) and [z] */
static void top_title_tail(void *ctx, char *buf, size_t size)
{
	struct top *t = ctx;
	pthread_mutex_lock(&t->lock);
	snprintf(buf, size, " lost: %llu/%llu drop: 0/0%s", (unsigned long long)t->lost_shown,
		 (unsigned long long)t->lost_total, t->cfg->zero ? " [z]" : "");
	pthread_mutex_unlock(&t->lock);
}

/* The browser (tui-report.c) with the last window's report every -d seconds. 0 or -1. */
static int top_tui(struct top *t)
{
	struct pk_report *r = NULL;
	for (;;) {	/* its first screen: once a window had samples */
		pthread_mutex_lock(&t->lock);
		bool done = t->done;
		pthread_mutex_unlock(&t->lock);
		struct pk_report *n = top_take(t);
		if (n) {
			pk_report__free(r);
			r = n;
		}
		if (top_stop || done || has_rows(t, r))
			break;
		nap();
	}
	t->shown = r;
	struct tui_annotate_src ann = { .input = t->keep->snap, .opts = { .sz = sizeof(ann.opts) } };
	struct tui_live live = { .next = top_take, .release = top_release, .ctx = t,
				 .delay_ms = t->cfg->delay * 1000, .ann = &ann,
				 .snapshot = top_snapshot, .tail = top_title_tail };
	const struct pk_data_attr *a = pk_session__attr(t->s, t->sym_attr);
	live.freq = a ? a->attr.sample_freq : 0;	/* (perf: the union's value, -c's period too) */
	int rc = !top_stop && has_rows(t, r) ? report_tui__run_live(r, t->s, &live) : 0;
	pk_report__free(t->shown);
	return rc ? -1 : 0;
}

static int top_run(struct top_cfg *c)
{
	int fd = -1;
	pid_t child = start_record(c, &fd);
	if (child < 0)
		return 255;
	struct top_keep keep = { .in = -1, .out = -1, .fd = -1 };
	if (keep_start(&keep, &fd)) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
		close(fd);
		return 255;
	}
	struct top t = { .cfg = c, .keep = &keep, .sym_attr = 0 };
	pthread_mutex_init(&t.lock, NULL);
	struct pk_error err = { 0 };
	struct pk_session_opts so = { .sz = sizeof(so) };
	int rc = 255, status = 0;
	if (pk_session__open_fd(&t.s, fd, "-", &so, &err)) {
		/* the child said why (its options, the event) */
		if (waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status))
			rc = WEXITSTATUS(status);
		else
			fprintf(stderr, "pmukit top: %s\n", err.msg);
		close(fd);
		keep_end(&keep);
		pthread_mutex_destroy(&t.lock);
		return rc;
	}
	pthread_t th;
	clock_gettime(CLOCK_MONOTONIC, &t.due);
	t.due.tv_sec += c->delay;
	if (new_window(&t) || pthread_create(&th, NULL, reader, &t)) {
		kill(child, SIGTERM);
		goto out;
	}
	rc = (c->tui ? top_tui(&t) : top_loop(&t)) ? 255 : 0;
	kill(child, SIGTERM);	/* its last records drained, then the pipe ends */
	pthread_join(th, NULL);
	if (t.failed)
		rc = 255;
out:
	waitpid(child, &status, 0);
	pk_report__free(t.r);
	pk_report__free(t.ready);
	top_decay__free(t.decay);
	pk_session__free(t.s);
	close(fd);
	keep_end(&keep);
	pthread_mutex_destroy(&t.lock);
	return rc;
}

int cmd_top(int argc, char **argv)
{
	struct top_cfg c = { .delay = 2 };
	int n = parse_args(argc, argv, &c);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (n > 0) {
		fprintf(stderr, "pmukit top: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	if (c.delay < 1) {
		fprintf(stderr, "pmukit top: -d takes a number of seconds, 1 or more\n");
		return 129;
	}
	if (c.count && c.freq) {
		fprintf(stderr, "pmukit top: -c and -F cannot be used together\n");
		return 129;
	}
	/* perf's setup_browser: the browser on a terminal, else (or --stdio) the text */
	c.tui = report_tui__want(c.tui, c.stdio);
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return top_run(&c);
}
