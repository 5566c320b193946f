/* SPDX-License-Identifier: MIT */
/*
 * record-opts.c — the record options that change the attrs (-c, -F, -g,
 * --call-graph, -W, -d, --sample-cpu, -a, -i, -s, -T, -b, -j/--branch-filter,
 * --switch-events, --all-user, --all-kernel, -D): the callbacks of
 * RECORD_SPEC_OPTIONS (record.h), the one table part `pmukit record` and
 * `pmukit explain --mode record` share, so both parse and encode alike.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <pmukit/spec.h>

#include "cli.h"
#include "record.h"
#include "evspec/evlist_int.h"
#include "util/sysctl.h"

/* A value refused (its message printed): noted for explain's exit status. -1. */
static int refused(struct rec_spec_ctx *x)
{
	x->bad_value = true;
	return -1;
}

/* -F N, or -F max: the kernel's limit, to which a higher N is throttled (perf's warning) */
static int freq(struct rec_spec_ctx *x, const char *arg)
{
	/* checked against the kernel's limit: read once (a /proc file) */
	int max = pk_sysctl__perf_max_sample_rate();
	uint64_t v = (uint64_t)max;
	if ((strcmp(arg, "max") && cli_value__u64(arg, &v)) || !v) {
		x->freq_zero = arg;	/* perf reads it as 0: refused after the parse, unless -c */
		x->spec->freq = 0;
		x->spec->period = 0;
		return 0;
	}
	if (v > (uint64_t)max) {
		fprintf(stderr,
			"warning: Maximum frequency rate (%d Hz) exceeded, throttling from %" PRIu64
			" Hz to %d Hz.\n"
			"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			"         The kernel will lower it when pmukit's interrupts take too long.\n",
			max, v, max);
		v = (uint64_t)max;
	}
	x->spec->freq = v;
	x->spec->period = 0;
	return 0;
}

int record_opt_period_check(struct rec_spec_ctx *x)
{
	if (x->freq_set && x->period_set) {
		fprintf(stderr, "%s: cannot set frequency and period at the same time (-F and -c)\n",
			x->prog);
		return refused(x);
	}
	if (!x->freq_zero || x->spec->freq || x->spec->period)
		return 0;
	fprintf(stderr, "%s: -F needs a positive number, got '%s' (frequency and count are zero, "
		"aborting)\n", x->prog, x->freq_zero);
	return refused(x);
}

/* -c N, -F N: the last one of a kind wins; both kinds are refused after the parse */
int record_opt_period(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_spec_ctx *x = opt->value;
	(void)unset;	/* CLI_NONEG */
	if (opt->short_name == 'F') {
		x->freq_set = true;
		return freq(x, arg);
	}
	x->period_set = true;
	uint64_t v;
	if (cli_value__u64(arg, &v)) {
		fprintf(stderr, "%s: -c needs a positive number, got '%s'\n", x->prog, arg);
		return refused(x);
	}
	x->spec->period = v;
	x->spec->freq = 0;
	return 0;
}

int record_opt_g(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_spec_ctx *x = opt->value;
	(void)arg, (void)unset;
	x->spec->call_graph = true;
	x->spec->call_graph_mode = PK_CALL_GRAPH_FP;
	return 0;
}

/* dwarf's ",SIZE": perf's limit is USHRT_MAX rounded down to 8 */
static int dwarf_size(struct rec_spec_ctx *x, const char *size)
{
	uint64_t sz;
	if (cli_value__u64(size, &sz) || !sz || sz > (65535 & ~7u)) {
		fprintf(stderr, "%s: --call-graph dwarf,SIZE: SIZE from 8 to %u, not '%s'\n", x->prog,
			65535 & ~7u, size);
		return refused(x);
	}
	x->spec->call_graph_dump = (uint32_t)sz;
	return 0;
}

/* --call-graph fp|dwarf[,SIZE]|lbr|no; --no-call-graph */
int record_opt_call_graph(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_spec_ctx *x = opt->value;
	struct pk_spec_opts *o = x->spec;
	if (unset) {
		o->call_graph = false;
		return 0;
	}
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	o->call_graph = true;
	o->call_graph_dump = 0;
	if (n == 5 && !strncmp(arg, "dwarf", 5)) {
		o->call_graph_mode = PK_CALL_GRAPH_DWARF;
		return comma ? dwarf_size(x, comma + 1) : 0;
	}
	if (n == 2 && !strncmp(arg, "fp", 2)) {
		o->call_graph_mode = PK_CALL_GRAPH_FP;
	} else if (n == 3 && !strncmp(arg, "lbr", 3)) {
		o->call_graph_mode = PK_CALL_GRAPH_LBR;
	} else if (n == 2 && !strncmp(arg, "no", 2)) {
		o->call_graph = false;
	} else {
		fprintf(stderr, "%s: --call-graph: fp, dwarf[,SIZE] or lbr, not '%s'\n", x->prog, arg);
		return refused(x);
	}
	if (comma) {
		fprintf(stderr, "%s: --call-graph %.*s takes no size\n", x->prog, (int)n, arg);
		return refused(x);
	}
	return 0;
}

/* -b: any branch; -j (record's; explain's -j is --json) / --branch-filter: these */
int record_opt_branch(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_spec_ctx *x = opt->value;
	uint64_t mode = arg ? 0 : PERF_SAMPLE_BRANCH_ANY;	/* -j: its filters or-ed */
	(void)unset;
	if (arg && encode_branch_parse(arg, &mode)) {
		fprintf(stderr, "%s: -j: branch filters (any, any_call, any_ret, ind_call, "
			"ind_jmp, call, cond, u, k, hv, in_tx, no_tx, abort_tx, save_type, "
			"stack, priv), not '%s'\n", x->prog, arg);
		return refused(x);
	}
	x->spec->branch_stack = mode;
	return 0;
}

/* -D MSECS: 0 none, -1 start disabled (perf's; record refuses it), else milliseconds */
int record_opt_delay(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_spec_ctx *x = opt->value;
	(void)unset;
	if (cli_value__long(arg, 0, -1, LONG_MAX, &x->delay_ms)) {
		fprintf(stderr, "%s: -D: milliseconds (or -1: start disabled), not '%s'\n", x->prog,
			arg);
		return refused(x);
	}
	x->spec->delay = x->delay_ms != 0;
	return 0;
}
