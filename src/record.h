/* SPDX-License-Identifier: MIT */
/*
 * record.h — `pmukit record`'s own pieces shared between its files: the
 * table part of the options that change the attrs (record-opts.c, shared
 * with explain), the --switch-output rotation (record-switch.c) and the
 * command line (record-args.c).
 */
#ifndef PMUKIT_SRC_RECORD_H
#define PMUKIT_SRC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmukit/error.h>
#include <pmukit/spec.h>

#include "cli-opts.h"
#include "export-cli.h"

/*
 * The record options that change the attrs, one table part for `record` and
 * `explain --mode record` (record-opts.c): into *spec; -D's value in delay_ms.
 * jshort: -j's letter (record's --branch-filter; 0 in explain, whose -j is --json).
 */
struct rec_spec_ctx {
	struct pk_spec_opts *spec;
	const char *prog;	/* "pmukit record": messages start with it */
	long delay_ms;		/* -D: 0 none, -1 until enabled, else ms */
	bool timestamp;		/* -T: perf samples the time anyway */
	bool bad_value;		/* a callback refused its value (explain exits 1 then) */
	const char *freq_zero;	/* -F's value when it counts as 0 (checked after the parse) */
	bool freq_set, period_set;	/* -F, -c given */
};
/*
 * After the parse, perf's record_opts__config: -F and -c both given ("cannot set
 * frequency and period at the same time"), or -F 0 (or no number: "frequency and
 * count are zero"): said, bad_value set, -1. perf takes the values and refuses
 * them then, with its status 234 and no usage.
 */
int record_opt_period_check(struct rec_spec_ctx *x);
int record_opt_period(const struct cli_opt *opt, const char *arg, bool unset);
int record_opt_g(const struct cli_opt *opt, const char *arg, bool unset);
int record_opt_call_graph(const struct cli_opt *opt, const char *arg, bool unset);
int record_opt_branch(const struct cli_opt *opt, const char *arg, bool unset);
int record_opt_delay(const struct cli_opt *opt, const char *arg, bool unset);
#define RECORD_SPEC_OPTIONS(x, jshort) \
	CLI_CALLBACK_F('c', "count", (x), "n", "event period to sample", record_opt_period, \
		       CLI_NONEG), \
	CLI_CALLBACK_F('F', "freq", (x), "freq or 'max'", "profile at this frequency (default " \
		       "4000; max: the kernel's limit, perf_event_max_sample_rate)", \
		       record_opt_period, CLI_NONEG), \
	CLI_CALLBACK_F('g', NULL, (x), NULL, "enables call-graph recording (frame pointers)", \
		       record_opt_g, CLI_NOARG | CLI_NONEG), \
	CLI_CALLBACK((0), "call-graph", (x), "record_mode[,record_size]", \
		     "setup and enables call-graph recording: fp, dwarf[,SIZE] (user stack " \
		     "copies of SIZE bytes) or lbr", record_opt_call_graph), \
	CLI_BOOL('a', "all-cpus", &(x)->spec->system_wide, "system-wide collection from all CPUs"), \
	CLI_BOOL('i', "no-inherit", &(x)->spec->no_inherit, "child tasks do not inherit counters"), \
	CLI_BOOL('W', "weight", &(x)->spec->sample_weight, "sample by weight"), \
	CLI_BOOL('d', "data", &(x)->spec->sample_addr, "record the sample addresses (and their " \
		 "data sources)"), \
	CLI_BOOL(0, "sample-cpu", &(x)->spec->sample_cpu, "record the sample cpu"), \
	CLI_BOOL('s', "stat", &(x)->spec->inherit_stat, "per thread counts (inherit_stat, times " \
		 "enabled and running)"), \
	CLI_BOOL('T', "timestamp", &(x)->timestamp, "record the sample timestamps (always sampled)"), \
	CLI_CALLBACK_F('b', "branch-any", (x), NULL, "sample any taken branches (LBR, BRBE)", \
		       record_opt_branch, CLI_NOARG | CLI_NONEG), \
	CLI_CALLBACK_F((jshort), "branch-filter", (x), "branch filter mask", "branch stack filter " \
		       "modes: any, any_call, any_ret, ind_call, ind_jmp, call, cond, u, k, hv, " \
		       "in_tx, no_tx, abort_tx, save_type, stack, priv (comma list)", \
		       record_opt_branch, CLI_NONEG), \
	CLI_BOOL(0, "switch-events", &(x)->spec->switch_events, "record context switch events"), \
	CLI_BOOL(0, "all-user", &(x)->spec->all_user, "configure all used events to run in user " \
		 "space (exclude_kernel)"), \
	CLI_BOOL(0, "all-kernel", &(x)->spec->all_kernel, "configure all used events to run in " \
		 "kernel space (exclude_user)"), \
	CLI_CALLBACK_F('D', "delay", (x), "msecs", "ms to wait before starting measurement after " \
		       "program start", record_opt_delay, CLI_NONEG)

/* --switch-output (record-switch.c) */
struct rec_switch {
	bool enabled, signal;	/* signal: on SIGUSR2 */
	uint64_t size;		/* past this many bytes written (0: not by size) */
	unsigned time;		/* every this many seconds (0: not by time) */
	unsigned max_files;	/* --switch-max-files (0: keep all) */
	char **names;		/* the files kept, a ring of max_files */
	unsigned cur;
	struct export_push push;	/* --push URL [--app, --label, --tenant]: each file sent */
	pid_t *pushers;		/* the `pmukit export --push` children still running */
	size_t nr_pushers, cap_pushers;
};
/* --switch-output[=ARG]: signal (also no ARG), SIZE or TIME. 0 or -1 (message). */
int record_switch_parse(struct rec_switch *s, const char *arg, const char *prog);
/*
 * PATH, finished, becomes PATH.<timestamp>; the oldest beyond max_files is removed.
 * With --push, a `pmukit export --push` child sends the file (not waited for).
 */
int record_switch_rename(struct rec_switch *s, const char *path, bool quiet);
/* Waits for the --push children (each says its own failure), then frees. */
void record_switch_free(struct rec_switch *s);

/* the command line */
struct rec_cfg {
	const char **specs;
	size_t nr_specs;
	struct pk_spec_opts spec;
	const char *cpu_list, *pid_list, *tid_list;
	const char *output;
	int compress;
	size_t mmap_pages;
	bool quiet, verbose;
	char **argv;		/* the command, or NULL */
	char **args;		/* the command line's copy the parse reorders (argv points in it) */
	const char **filters;	/* --filter of specs[i] (its last event), or NULL */
	long delay_ms;		/* -D: 0 none, -1 until enabled (refused), else ms */
	uint64_t max_size;	/* --max-size: bytes of output (0: no limit) */
	const char *uid;	/* -u: a user's processes */
	bool switch_output;	/* --switch-output given, with switch_arg (NULL: signal) */
	const char *switch_arg;
	struct rec_switch sw;	/* --switch-output, --switch-max-files */
};

struct cli_env;
/*
 * perf record's options into cfg (specs and filters sized argc + 1): 0, 1
 * (--help: printed), -1 (a bad command line: perf exits 129) or -2 (a bad
 * --switch-output: perf's 234).
 */
int record_parse_args(int argc, char **argv, struct rec_cfg *cfg, struct cli_env *env);
/* The options together, as perf checks them; the target they imply. 0 or -1 (message). */
int record_check_args(struct rec_cfg *cfg);

/*
 * -u USER (a name or number): the processes USER owns as a -p list
 * ("1,2,3"), or NULL: no such user (*no_user) or none of its processes runs.
 */
char *record_uid_pids(const char *user, bool *no_user);

/* The output (record-out.c): the file or pipe, its writer, what is written first. */
struct pk_data_writer;
struct pk_record;
struct pk_record_stats;
struct rec_out {
	struct pk_data_writer *w;
	struct pk_record_stats *stats;
	const char *path;	/* NULL: stdout pipe */
	int fd;
	struct pk_error err;	/* the first write error */
	bool failed;
};
/* The writer's sink for the records (ctx: the rec_out). */
int record_out_sink(void *ctx, const void *recs, size_t len);
/* A DSO that got samples, for BUILD_ID (ctx: the writer). */
int record_out_add_dso(void *ctx, int32_t pid, uint16_t misc, const char *filename);
/* perf's backup: an existing non-empty PATH becomes PATH.old. Then PATH opened: the fd or -1 (said). */
int record_out_open(const char *path);
/* The writer on o->fd with the events' attrs and groups, begun. 0 or -1 (said). */
int record_out_writer(struct rec_out *o, struct pk_record *r, const struct rec_cfg *cfg, int argc,
		      char **argv);
/* The side-band of what ran before: the kernel's map, and the tasks being recorded. */
int record_out_synthesize(struct rec_out *o, struct pk_record *r, const struct rec_cfg *cfg,
			  const pid_t *tids, size_t nr_tids);
/* The sample id size of the records written (its first event's). */
size_t record_out_id_size(const struct pk_record *r);
/* The workload's COMM, "perf-exec" until it execs, as perf writes it. */
int record_out_comm(struct rec_out *o, struct pk_record *r, pid_t pid);
/*
 * --switch-output: finish the file and rename it; unless at_exit, start it
 * again (wl_pid: the workload's, or -1). 0 or -1.
 */
int record_out_switch(struct rec_out *o, struct pk_record *r, struct rec_cfg *cfg,
		      const pid_t *tids, size_t nr_tids, pid_t wl_pid, int argc, char **argv,
		      bool at_exit);

#endif
