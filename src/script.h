/* SPDX-License-Identifier: MIT */
/*
 * script.h — what the files of `pmukit script` share: the output field
 * sets per event type as perf script keeps them (defaults, -F parsing,
 * the check against each event's sample_type), the output buffer, and the
 * tracepoint printer.
 */
#ifndef PMUKIT_SCRIPT_H
#define PMUKIT_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/session.h>

#include "util/buf.h"

/* perf script's output fields (the bits are pmukit's own) */
enum {
	SF_COMM		= 1u << 0,
	SF_TID		= 1u << 1,
	SF_PID		= 1u << 2,
	SF_TIME		= 1u << 3,
	SF_CPU		= 1u << 4,
	SF_EVNAME	= 1u << 5,
	SF_TRACE	= 1u << 6,
	SF_IP		= 1u << 7,
	SF_SYM		= 1u << 8,
	SF_DSO		= 1u << 9,
	SF_ADDR		= 1u << 10,
	SF_SYMOFFSET	= 1u << 11,
	SF_SRCLINE	= 1u << 12,
	SF_PERIOD	= 1u << 13,
	SF_DATA_SRC	= 1u << 14,
	SF_WEIGHT	= 1u << 15,
	SF_BPF_OUTPUT	= 1u << 16,
	SF_PHYS_ADDR	= 1u << 17,
	SF_MISC		= 1u << 18,
	SF_DSOFF	= 1u << 19,
	SF_DATA_PAGE_SIZE = 1u << 20,
	SF_CODE_PAGE_SIZE = 1u << 21,
	SF_INS_LAT	= 1u << 22,
	SF_RETIRE_LAT	= 1u << 23,
	SF_CGROUP	= 1u << 24,
	SF_BRSTACK	= 1u << 25,	/* branch stack: from/to addresses and flags */
	SF_BRSTACKSYM	= 1u << 26,	/* the same with symbol+offset */
	/* accepted by -F, printed by no pmukit code path (perf needs hardware or tools for them) */
	SF_OTHER	= 1u << 31,
};

/* perf's output types: PERF_TYPE_* (< 6), then synthesized, then anything else */
enum { ST_SYNTH = 6, ST_OTHER = 7, ST_MAX = 8 };

struct script_output {
	bool user_set, wildcard_set;
	uint32_t fields, invalid_fields, user_set_fields, user_unset_fields;
};

/* Output gathered in a pk_buf and written to a FILE in large blocks (no FILE: it grows). */
struct obuf {
	struct pk_buf buf;
	FILE *f;
	bool err;		/* a write or an allocation failed: the rest is dropped */
};

struct script_trace;

/* Callchain lines already formatted, by location id (one cache per output type). */
struct line_cache {
	uint64_t *off;			/* offset + 1 into text; 0: not formatted yet */
	uint32_t *len;
	size_t cap;
	struct obuf text;		/* no FILE: grows */
};

struct script {
	struct script_output out[ST_MAX];
	bool ns;			/* --ns */
	bool hide_callchain;		/* -G */
	bool use_callchain;		/* perf's symbol_conf.use_callchain */
	bool show_task, show_mmap, show_comm;
	bool show_switch, show_ns, show_lost, show_round, show_cgroup;	/* --show-*-events */
	struct dump_raw *dump;		/* -D: each record dumped first (dump.h) */
	struct per_event_dump *ped;	/* --per-event-dump: samples to a file per event */
	struct report_stats *deliver;	/* samples as perf delivers them (read groups split) */
	bool debug_ordering;
	bool header;			/* --header: pipe features as they arrive */
	bool reltime, deltatime;	/* --reltime, --deltatime */
	uint64_t initial_time, previous_time;
	struct pk_sample_filter *filter; /* --time, -C, --comms, --pid, --tid, -S */
	int name_width;
	int data_src_width;		/* the longest data_src text so far (perf's static maxlen) */
	bool checked[ST_MAX];		/* evsel__check_attr done for the type's first event */
	struct pk_session *s;
	struct script_trace *trace;
	struct obuf ob;
	uint64_t nr_printed;
	struct line_cache chain_lines[ST_MAX];
};

static inline int script__type(uint32_t attr_type)
{
	return attr_type < 6 ? (int)attr_type : ST_OTHER;
}

/* script-fields.c */
void script_fields__defaults(struct script *sc);
/* -F FIELDS as perf parses it; 0 or -1 with a message on stderr */
int script_fields__parse(struct script *sc, const char *arg);
/*
 * perf's perf_session__check_output_opt / evsel__check_attr for one event
 * (the first of its type): drop default fields the samples cannot give,
 * refuse user-set ones. 0 or -1 with a message on stderr.
 */
int script_fields__check(struct script *sc, const struct pk_data_attr *a, const char *name,
			 bool has_stat, bool has_auxtrace);
/* after every event is known: tracepoints with callchains print ip, sym, dso */
void script_fields__callchain_defaults(struct script *sc, const struct pk_data_reader *r);

/* script-print.c */
int obuf__init(struct obuf *b, FILE *f);
void obuf__flush(struct obuf *b);
void obuf__free(struct obuf *b);
int script__print_sample(struct script *sc, const struct pk_resolved *rs,
			 const struct pk_data_attr *a);
void script__free_caches(struct script *sc);
/*
 * A side-band record (COMM, FORK, EXIT, MMAP, MMAP2) as perf script
 * --show-task-events/--show-mmap-events prints it; a is the record's attr
 * (NULL: no start columns); comm the thread's; pid/tid/time used when the
 * attr has no sample_id_all.
 */
int script__print_sideband(struct script *sc, const struct pk_data_event *ev,
			   const struct pk_data_attr *a, const char *comm, int32_t pid, int32_t tid,
			   uint64_t time);

/* script-trace.c: tracepoint fields printed with libtraceevent as perf prints them */
int script_trace__new(struct script_trace **t, struct pk_data_reader *r);
void script_trace__free(struct script_trace *t);
/* Append the tracepoint's text (perf's event_format__fprintf) to b; false when unknown. */
bool script_trace__print(struct script_trace *t, uint64_t config, int cpu, const void *raw,
			 uint32_t size, struct obuf *b);

#endif
