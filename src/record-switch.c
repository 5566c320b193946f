/* SPDX-License-Identifier: MIT */
/*
 * record-switch.c — perf record's --switch-output: when to rotate the output
 * (on SIGUSR2, past SIZE bytes written, every TIME), and the rotation's
 * naming as perf's: the finished FILE renamed FILE.<timestamp> (local time,
 * %Y%m%d%H%M%S and hundredths of a second), the last one too at the end;
 * --switch-max-files N removes the oldest beyond N. cmd-record.c finishes
 * one file and starts the next. --push URL: each renamed file is sent by a
 * `pmukit export --format pprof --push URL` child (export-push.c), so that
 * reading the file and the network never hold up the recording; the
 * children are reaped at each switch and waited for at the end.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli-opts.h"
#include "record.h"
#include "util/grow.h"

int record_switch_parse(struct rec_switch *s, const char *arg, const char *prog)
{
	static const uint64_t size_mult[] = { 1, 1ull << 10, 1ull << 20, 1ull << 30 };
	static const uint64_t time_mult[] = { 1, 60, 3600, 86400 };
	uint64_t v;
	s->enabled = true;
	if (!arg || !strcmp(arg, "signal")) {
		s->signal = true;
		return 0;
	}
	if (!cli_value__tag(arg, "BKMG", size_mult, &v) && v) {
		s->size = v;
		return 0;
	}
	if (!cli_value__tag(arg, "smhd", time_mult, &v) && v) {
		s->time = (unsigned)v;
		return 0;
	}
	fprintf(stderr, "%s: --switch-output: 'signal', a size (a number and B, K, M or G) or "
		"a time (a number and s, m, h or d), not '%s'\n", prog, arg);
	return -1;
}

extern char **environ;

/* Reap the pushers that are done (all of them, waiting, when wait is set). */
static void reap_pushers(struct rec_switch *s, bool wait)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nr_pushers; i++) {
		int st;
		pid_t r;
		do
			r = waitpid(s->pushers[i], &st, wait ? 0 : WNOHANG);
		while (r < 0 && errno == EINTR);
		if (r == 0)
			s->pushers[k++] = s->pushers[i];	/* still running */
	}
	s->nr_pushers = k;
}

/* `pmukit export --format pprof -i NAME --push URL ...`, not waited for. */
static void push_file(struct rec_switch *s, const char *name)
{
	const struct export_push *o = &s->push;
	size_t n = 0;
	const char **argv = malloc((12 + 2 * o->nr_labels) * sizeof(*argv));
	reap_pushers(s, false);
	if (!argv || PK_GROW(s->pushers, s->cap_pushers, s->nr_pushers + 1)) {
		fprintf(stderr, "pmukit record: --push %s: out of memory\n", name);
		free(argv);
		return;
	}
	static const char *const head[] = { "pmukit", "export", "--format", "pprof", "-i" };
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		argv[n++] = head[i];
	argv[n++] = name;
	argv[n++] = "--push";
	argv[n++] = o->url;
	if (o->app) {
		argv[n++] = "--app";
		argv[n++] = o->app;
	}
	for (size_t i = 0; i < o->nr_labels; i++) {
		argv[n++] = "--label";
		argv[n++] = o->labels[i];
	}
	if (o->tenant) {
		argv[n++] = "--tenant";
		argv[n++] = o->tenant;
	}
	argv[n] = NULL;
	pid_t pid;
	int err = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, (char *const *)argv, environ);
	if (err)
		fprintf(stderr, "pmukit record: --push %s: %s\n", name, strerror(err));
	else
		s->pushers[s->nr_pushers++] = pid;
	free(argv);
}

int record_switch_rename(struct rec_switch *s, const char *path, bool quiet)
{
	struct timeval tv;
	struct tm tm;
	char stamp[32], *name;
	size_t n = strlen(path) + sizeof(stamp) + 4;
	if (!(name = malloc(n)))
		return -ENOMEM;
	/* two switches within a hundredth of a second: the second waits (perf's would overwrite) */
	for (int tries = 0; tries < 3; tries++) {
		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
		snprintf(name, n, "%s.%s%02u", path, stamp, (unsigned)(tv.tv_usec / 10000));
		if (access(name, F_OK))
			break;
		usleep(10000);
	}
	bool renamed = !rename(path, name);
	if (!renamed)
		fprintf(stderr, "Failed to rename %s to %s\n", path, name);
	if (!quiet)
		fprintf(stderr, "[ perf record: Dump %s ]\n", name);
	if (renamed && s->push.url)
		push_file(s, name);
	if (!s->max_files) {
		free(name);
		return 0;
	}
	if (!s->names && !(s->names = calloc(s->max_files, sizeof(*s->names)))) {
		free(name);
		return -ENOMEM;
	}
	/* perf's ring of names: the slot after the last, its old file removed */
	s->cur = s->cur + 1 >= s->max_files ? 0 : s->cur + 1;
	if (s->names[s->cur]) {
		remove(s->names[s->cur]);
		free(s->names[s->cur]);
	}
	s->names[s->cur] = name;
	return 0;
}

void record_switch_free(struct rec_switch *s)
{
	reap_pushers(s, true);
	free(s->pushers);
	s->pushers = NULL;
	s->nr_pushers = s->cap_pushers = 0;
	export_push__free(&s->push);
	for (unsigned i = 0; s->names && i < s->max_files; i++)
		free(s->names[i]);
	free(s->names);
	s->names = NULL;
}
