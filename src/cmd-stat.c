/* SPDX-License-Identifier: MIT */
/*
 * cmd-stat.c — `pmukit stat`: fork a command, count its events (enabled at
 * exec), print perf stat's text or CSV output, return the command's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/count.h>
#include <pmukit/spec.h>

#include "cli.h"

#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults," \
		       "cycles,instructions,branches,branch-misses"

struct stat_opts {
	const char **specs;
	size_t nr_specs;
	const char *sep;	/* -x: CSV separator, NULL for text */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit stat [options] [--] COMMAND [ARGS]\n"
		"Run COMMAND and count its events, as perf stat does.\n\n"
		"  -e, --event SPEC      event specification, perf syntax (repeatable); default:\n"
		"                        " DEFAULT_EVENTS "\n"
		"  -x, --field-separator SEP  CSV output: value, unit, event, run time,\n"
		"                        percentage running, metric value, metric unit\n"
		CLI_ENV_HELP
		"  -h, --help            this help\n");
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static bool is_task_clock(const struct pk_evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_TASK_CLOCK || e->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The event name as perf prints it (pk_evsel.name is perf's). */
static const char *ev_name(const struct pk_evsel *e)
{
	return e->name ? e->name : "?";
}

struct metric {
	bool have;
	double val;
	char unit[32];
};

/* perf's shadow metrics for software events: CPUs utilized, and rates per second. */
static void shadow(const struct pk_evsel *e, const struct pk_count_value *v, double task_clock_ns,
		   double elapsed_ns, struct metric *m)
{
	memset(m, 0, sizeof(*m));
	if (v->status != PK_COUNT_OK)
		return;
	if (is_task_clock(e)) {
		if (elapsed_ns > 0) {
			m->have = true;
			m->val = v->scaled / elapsed_ns;
			snprintf(m->unit, sizeof(m->unit), "CPUs utilized");
		}
		return;
	}
	if (task_clock_ns <= 0)
		return;
	double rate = v->scaled / task_clock_ns * 1e9;
	const char *prefix = "";
	if (rate >= 1e9) {
		rate /= 1e9;
		prefix = "G";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		prefix = "M";
	} else if (rate >= 1e3) {
		rate /= 1e3;
		prefix = "K";
	}
	m->have = true;
	m->val = rate;
	snprintf(m->unit, sizeof(m->unit), "%s/sec", prefix);
}

static void print_text(FILE *f, const struct pk_evsel *e, const struct pk_count_value *v,
		       const struct metric *m)
{
	const char *unit = is_task_clock(e) ? "msec" : "";

	if (v->status == PK_COUNT_NOT_SUPPORTED)
		fprintf(f, "%18s %-4s ", "<not supported>", "");
	else if (v->status == PK_COUNT_NOT_COUNTED)
		fprintf(f, "%18s %-4s ", "<not counted>", "");
	else if (is_task_clock(e))
		fprintf(f, "%'18.2f %-4s ", v->scaled / 1e6, unit);
	else
		fprintf(f, "%'18.0f %-4s ", v->scaled, unit);
	fprintf(f, "%-32s", ev_name(e));
	if (m->have)
		fprintf(f, " # %8.3f %-23s", m->val, m->unit);
	else if (v->status == PK_COUNT_OK)
		fprintf(f, "%-35s", "");
	else
		fprintf(f, "%28s", "");
	if (v->status == PK_COUNT_OK && v->running < v->enabled)
		fprintf(f, "  (%.2f%%)", v->percent);
	fputc('\n', f);
}

static void print_csv(FILE *f, const char *sep, const struct pk_evsel *e,
		      const struct pk_count_value *v, const struct metric *m)
{
	if (v->status == PK_COUNT_NOT_SUPPORTED)
		fprintf(f, "<not supported>%s", sep);
	else if (v->status == PK_COUNT_NOT_COUNTED)
		fprintf(f, "<not counted>%s", sep);
	else if (is_task_clock(e))
		fprintf(f, "%.2f%s", v->scaled / 1e6, sep);
	else
		fprintf(f, "%.0f%s", v->scaled, sep);
	fprintf(f, "%s%s%s%s", is_task_clock(e) ? "msec" : "", sep, ev_name(e), sep);
	fprintf(f, "%llu%s%.2f%s", (unsigned long long)v->running, sep, v->percent, sep);
	if (m->have)
		fprintf(f, "%.3f%s%s", m->val, sep, m->unit);
	else
		fprintf(f, "%s", sep);
	fputc('\n', f);
}

static void command_text(const char **argv, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; argv[i] && o + 1 < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s", i ? " " : "", argv[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* Fork argv; the child waits for a byte on *go before exec. Returns the pid or -1. */
static pid_t fork_workload(char **argv, int *go, int *status_fd)
{
	int gp[2], sp[2];
	if (pipe2(gp, O_CLOEXEC))
		return -1;
	if (pipe2(sp, O_CLOEXEC)) {
		close(gp[0]);
		close(gp[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(gp[0]); close(gp[1]); close(sp[0]); close(sp[1]);
		return -1;
	}
	if (!pid) {
		char c;
		close(gp[1]);
		close(sp[0]);
		if (read(gp[0], &c, 1) != 1)
			_exit(127);	/* the parent gave up */
		execvp(argv[0], argv);
		int e = errno;
		if (write(sp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gp[0]);
	close(sp[1]);
	*go = gp[1];
	*status_fd = sp[0];
	return pid;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		CLI_ENV_OPTIONS,
		{ 0 },
	};
	struct stat_opts o = { 0 };
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .workload = true };
	struct cli_env env;
	struct pk_evlist *el = NULL;
	struct pk_counter *cnt = NULL;
	int c, ret = 1;

	cli_env__init(&env);
	setlocale(LC_NUMERIC, "");	/* thousands separators as the locale has them, as perf */
	o.specs = calloc((size_t)argc + 1, sizeof(*o.specs));
	if (!o.specs)
		return 1;
	/* '+': options stop at the command */
	while ((c = getopt_long(argc, argv, "+e:x:h", opts, NULL)) != -1) {
		if (cli_env__option(&env, c, optarg))
			continue;
		switch (c) {
		case 'e': o.specs[o.nr_specs++] = optarg; break;
		case 'x': o.sep = optarg; break;
		case 'h': usage(stdout); ret = 0; goto out;
		default: usage(stderr); goto out;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "pmukit stat: no command given\n");
		usage(stderr);
		goto out;
	}
	if (!o.nr_specs)
		o.specs[o.nr_specs++] = DEFAULT_EVENTS;
	if (cli_env__open(&env, "pmukit stat"))
		goto out;
	so.cat = env.cat;
	so.model = env.have_model ? env.model : PK_NO_MODEL;
	so.pmus = env.pmus;
	el = pk_evlist__new();
	if (!el) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		goto out;
	}
	for (size_t s = 0; s < o.nr_specs; s++) {
		struct pk_spec_error err = { 0 };
		if (pk_evlist__add(el, o.specs[s], &so, &err)) {
			char msg[4096];
			fprintf(stderr, "pmukit stat: invalid event specification\n%s\n",
				pk_spec_error__format(&err, o.specs[s], msg, sizeof(msg)));
			goto out;
		}
	}

	char **cmd = argv + optind;
	int go = -1, status_fd = -1;
	pid_t pid = fork_workload(cmd, &go, &status_fd);
	if (pid < 0) {
		fprintf(stderr, "pmukit stat: cannot start the workload: %s\n", strerror(errno));
		goto out;
	}
	struct pk_error perr = { 0 };
	struct pk_count_opts copts = { .sz = sizeof(copts), .pid = pid, .cpu = -1 };
	if (pk_counter__open(&cnt, el, &copts, &perr)) {
		char msg[1024];
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&perr, msg, sizeof(msg)));
		close(go);	/* the child reads EOF and exits */
		close(status_fd);
		waitpid(pid, NULL, 0);
		goto out;
	}
	/* perf ignores SIGINT while the workload runs: the child gets it, we print */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	double t0 = now_ns();
	if (write(go, "g", 1) != 1) {
		fprintf(stderr, "pmukit stat: cannot start the workload: %s\n", strerror(errno));
	}
	close(go);
	int exec_errno = 0;
	ssize_t n;
	do
		n = read(status_fd, &exec_errno, sizeof(exec_errno));
	while (n < 0 && errno == EINTR);
	close(status_fd);
	int status = 0;
	struct rusage ru = { 0 };
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	double elapsed = now_ns() - t0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (n == (ssize_t)sizeof(exec_errno)) {
		fprintf(stderr, "Workload failed: %s\n", strerror(exec_errno));
		ret = 255;
		goto out;
	}
	if (pk_counter__read(cnt, &perr)) {
		char msg[1024];
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&perr, msg, sizeof(msg)));
		goto out;
	}

	/* perf stat prints on stderr */
	FILE *f = stderr;
	size_t nr = pk_evlist__nr(el);
	double task_clock = 0;
	for (size_t i = 0; i < nr; i++) {
		struct pk_count_value v;
		pk_counter__value(cnt, i, &v);
		if (is_task_clock(pk_evlist__evsel(el, i)) && v.status == PK_COUNT_OK && task_clock == 0)
			task_clock = v.scaled;
	}
	if (!o.sep) {
		char cmdline[1024];
		command_text((const char **)cmd, cmdline, sizeof(cmdline));
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		struct pk_count_value v;
		struct metric m;
		pk_counter__value(cnt, i, &v);
		shadow(e, &v, task_clock, elapsed, &m);
		if (o.sep)
			print_csv(f, o.sep, e, &v, &m);
		else
			print_text(f, e, &v, &m);
	}
	if (!o.sep) {
		fprintf(f, "\n%18.9f seconds time elapsed\n\n", elapsed / 1e9);
		fprintf(f, "%18.9f seconds user\n", (double)ru.ru_utime.tv_sec +
			(double)ru.ru_utime.tv_usec / 1e6);
		fprintf(f, "%18.9f seconds sys\n\n\n", (double)ru.ru_stime.tv_sec +
			(double)ru.ru_stime.tv_usec / 1e6);
	}
	fflush(f);
	if (WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		ret = 128 + WTERMSIG(status);
	else
		ret = 0;
out:
	pk_counter__close(cnt);
	pk_evlist__free(el);
	free(o.specs);
	cli_env__close(&env);
	return ret;
}
