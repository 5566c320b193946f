/* SPDX-License-Identifier: MIT */
/*
 * top.h — what `pmukit top` shares between its files: the command line,
 * the live state (one session, the current window's report, perf top's
 * header counters) and the --stdio frame printer (top-frame.c).
 */
#ifndef PMUKIT_TOP_H
#define PMUKIT_TOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <pmukit/report.h>
#include <pmukit/session.h>

/* the command line of `pmukit top` */
struct top_cfg {
	const char *events[64];
	size_t nr_events;
	const char *count, *freq, *cpu_list, *pid, *tid, *uid, *call_graph, *sort;
	int delay, entries;
	double percent_limit;
	enum pk_report_switch children;	/* --children / --no-children (default: on with -g) */
	bool all_cpus, hide_kernel, hide_user, zero, stdio, tui;
};

/* the live state: the reader thread fills it under lock, the main thread prints it */
struct top_keep;
struct top_decay;

struct top {
	const struct top_cfg *cfg;
	struct top_keep *keep;		/* the recording kept for the annotate view (cmd-top.c) */
	struct pk_session *s;
	struct pk_report *r;		/* the current window's */
	struct pk_report *ready;	/* the browser: the last window's, finished, not yet taken */
	struct pk_report *shown, *pending;	/* the browser's, and the one handed to it */
	pthread_mutex_t lock;
	int sym_attr;			/* the event whose profile is shown (perf's sym_evsel) */
	char event[256];		/* the header's "4000Hz cpu-clock:ppp" (top_frame__event) */
	struct timespec due;		/* the next frame's time */
	uint64_t samples, kernel_samples, exact_samples;	/* this window's */
	uint64_t lost, lost_total, lost_records, lost_warned;
	uint64_t lost_shown;		/* the browser: the last finished window's lost */
	struct top_decay *decay;	/* without -z: the older windows' samples (top-decay.c) */
	bool done, failed;
};

/* The header's event text from the session's attrs (the reader thread, at its first sample). */
void top_frame__event(struct top *t);
/*
 * perf top --stdio's frame: the console clear, "   PerfTop: ..." header,
 * the dotted line, a lost-chunks warning when new, a blank line and the
 * first entries of the window's report r (finished here; NULL: none), as
 * many as -E or the terminal's rows allow; resets the window's counters.
 * 0 or -1.
 */
int top_frame__print(struct top *t, struct pk_report *r, FILE *fp);

/*
 * perf top's decay of older samples (top-decay.c; not with -z): each sample
 * of the window recorded (*d made at the first); at the window's end the
 * older ones added to its report r with their decayed periods, then every
 * period (and count) decayed by 7/8, those at 0 dropped. 0 or a negative errno.
 */
int top_decay__sample(struct top_decay **d, const struct pk_resolved *rs, bool exact);
int top_decay__add_to(const struct top_decay *d, struct pk_session *s, struct pk_report *r,
		      struct pk_error *err);
int top_decay__step(struct top_decay *d);
void top_decay__free(struct top_decay *d);

int cmd_top(int argc, char **argv);

#endif
