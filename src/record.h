/* SPDX-License-Identifier: MIT */
/*
 * record.h — `pmukit record`'s own pieces shared between its files: the
 * option codes of perf record's long-only options (record-opts.c parses
 * those that change the attrs) and the --switch-output rotation
 * (record-switch.c).
 */
#ifndef PMUKIT_SRC_RECORD_H
#define PMUKIT_SRC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <pmukit/spec.h>

/* long-only options (0x180, 0x181 are cli.h's) */
enum {
	RECORD_OPT_SWITCH_EVENTS = 0x182,
	RECORD_OPT_ALL_USER,
	RECORD_OPT_ALL_KERNEL,
	RECORD_OPT_FILTER,
	RECORD_OPT_MAX_SIZE,
	RECORD_OPT_SWITCH_OUTPUT,
	RECORD_OPT_SWITCH_MAX_FILES,
	RECORD_OPT_BRANCH_FILTER,
};

/* --switch-output (record-switch.c) */
struct rec_switch {
	bool enabled, signal;	/* signal: on SIGUSR2 */
	uint64_t size;		/* past this many bytes written (0: not by size) */
	unsigned time;		/* every this many seconds (0: not by time) */
	unsigned max_files;	/* --switch-max-files (0: keep all) */
	char **names;		/* the files kept, a ring of max_files */
	unsigned cur;
};
/* --switch-output[=ARG]: signal (also no ARG), SIZE or TIME. 0 or -1 (message). */
int record_switch_parse(struct rec_switch *s, const char *arg, const char *prog);
/* PATH, finished, becomes PATH.<timestamp>; the oldest beyond max_files is removed. */
int record_switch_rename(struct rec_switch *s, const char *path, bool quiet);
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
	const char **filters;	/* --filter of specs[i] (its last event), or NULL */
	long delay_ms;		/* -D: 0 none, -1 until enabled (refused), else ms */
	uint64_t max_size;	/* --max-size: bytes of output (0: no limit) */
	const char *uid;	/* -u: a user's processes */
	struct rec_switch sw;	/* --switch-output, --switch-max-files */
};

struct cli_env;
void record_usage(FILE *f);
/*
 * perf record's options into cfg (specs sized argc + 1). 0, -1 (a bad
 * command line: perf exits 129) or -2 (a bad --switch-output: perf's 234).
 */
int record_parse_args(int argc, char **argv, struct rec_cfg *cfg, struct cli_env *env, bool *help);
/* The options together, as perf checks them; the target they imply. 0 or -1 (message). */
int record_check_args(struct rec_cfg *cfg);

/*
 * -u USER (a name or number): the processes USER owns as a -p list
 * ("1,2,3"), or NULL: no such user (*no_user) or none of its processes runs.
 */
char *record_uid_pids(const char *user, bool *no_user);

/* -D/--delay MSECS: 0 none, -1 start disabled (perf's), else milliseconds. 0 or -1 (message). */
int record_parse_delay(const char *arg, long *ms, const char *prog);
/* --max-size SIZE: a number and B, K, M or G (perf's parse_output_max_size). 0 or -1 (message). */
int record_parse_size(const char *arg, uint64_t *bytes, const char *prog);

#endif
