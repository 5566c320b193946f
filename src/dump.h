/* SPDX-License-Identifier: MIT */
/*
 * dump.h — what report and script share for perf's record-level views:
 * record type names, the event-type counts of --stats (report-tasks.c), the
 * thread tree of --tasks / --mmaps (report-tasks.c), and the raw dump of
 * -D / --dump-raw-trace (dump-raw.c).
 */
#ifndef PMUKIT_DUMP_H
#define PMUKIT_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/session.h>

/* perf 6.1's perf_event__name: "MMAP", "FINISHED_ROUND", ...; "UNKNOWN" */
const char *dump__type_name(uint32_t type);

/*
 * Counts of what a whole reading saw, per event: SAMPLE and LOST_SAMPLES.
 * A PERF_SAMPLE_READ sample counts for each event whose value moved since
 * its previous sample (perf's deliver_sample_value: one delivery each).
 */
struct report_stats {
	uint64_t *nr_samples, *nr_lost;	/* per attr index */
	size_t nr;
	struct {
		uint64_t id, value;
	} *last;			/* the last read value of each id */
	size_t nr_last, cap_last;
	size_t nr_delivered;		/* deliveries of the last sample added: */
	struct report_delivery {
		int attr;		/* the event it is delivered to */
		uint64_t id, period;	/* perf's sample->id and ->period for it */
	} *delivered;
	size_t cap_delivered;
	/*
	 * perf report's branch mode (a file with branch stacks, not --stats):
	 * a sample with a branch stack counts once per branch entry
	 */
	bool branch_mode;
};
/* Count one event (samples and lost samples per attr); 0 or -ENOMEM. */
int report_stats__add(struct report_stats *st, const struct pk_session *s,
		      const struct pk_data_event *ev);
/* perf's stats_print: "Aggregated stats:" then each event's counts. */
void report_stats__print(struct report_stats *st, struct pk_session *s, FILE *f);
void report_stats__free(struct report_stats *st);
/* the modes of report that replace its profile, and -T */
struct report_modes {
	bool stats, tasks, mmaps, dump, threads;
};
/* --stats, --tasks, --mmaps, -D: read the session and print; 0 or 255. */
int report_modes__run(struct pk_session *s, const char *input, const struct report_modes *m,
		      FILE *f);

/* -T: the values of PERF_RECORD_READ per thread and event (perf's perf_read_values) */
struct read_values;
/* A session hook (pk_session_opts.on_event) that collects them into *ctx. */
void read_values__on_event(void *ctx, struct pk_session *s, const struct pk_data_event *ev);
/* perf's perf_read_values_display (pretty); v NULL: none collected (the heading only). */
void read_values__print(const struct read_values *v, struct pk_session *s, FILE *f);
void read_values__free(struct read_values *v);

/* -D: one record as perf dumps it when it processes it (report: the "unhandled!" lines too) */
struct dump_raw {
	FILE *f;
	struct pk_session *s;
	const char *name;	/* after '@': the input as given, "pipe" for pipe-mode data */
	bool report;
};
void dump_raw__event(struct dump_raw *d, const struct pk_data_event *ev);
/* perf's machine__resolve lines for a sample delivered: " ... thread:", " ...... dso:" */
void dump_raw__resolve(struct dump_raw *d, const struct pk_data_event *ev);
/*
 * perf's perf_event__fprintf for the side-band records script shows and
 * put_record (script-print.c) does not: SWITCH, SWITCH_CPU_WIDE,
 * NAMESPACES, LOST, CGROUP.
 */
void dump__fprintf_event(FILE *f, const struct pk_data_event *ev);
/* perf 6.1's get_branch_type: "COND", ...; "" for none (6.1 names no EXTEND_ABI new type) */
const char *dump__branch_type(const struct perf_branch_entry *e);
/* perf's name of the input in the dump */
const char *dump_raw__file_name(struct pk_session *s, const char *path);

/* script --per-event-dump (dump-per-event.c) */
struct script;
struct per_event_dump;
/* The files of the events known so far; NULL when one cannot be created. */
struct per_event_dump *per_event_dump__new(struct pk_session *s, const char *input);
/* Output to attr's file (counting a sample), or to stdout for attr -1; 0 or -1. */
int per_event_dump__select(struct per_event_dump *p, struct script *sc, int attr);
/* Close the files, print perf's "[ perf script: Wrote ... ]" lines, free p. */
void per_event_dump__finish(struct per_event_dump *p, struct script *sc);

#endif
