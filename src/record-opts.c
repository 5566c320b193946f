/* SPDX-License-Identifier: MIT */
/*
 * record-opts.c — the record options that change the attrs (-c, -F, -g,
 * --call-graph, -W, -d, --sample-cpu, -a, -i; record's own -s, -b, -j,
 * --switch-events, --all-user, --all-kernel, -D), parsed in one place for
 * `pmukit record` and `pmukit explain --mode record`, so both encode alike;
 * and the values of -D and --max-size.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/spec.h>

#include "cli.h"
#include "record.h"
#include "evspec/evlist_int.h"
#include "util/sysctl.h"

int record_parse_delay(const char *arg, long *ms, const char *prog)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 0);
	if (errno || end == arg || *end || v < -1) {
		fprintf(stderr, "%s: -D: milliseconds (or -1: start disabled), not '%s'\n", prog, arg);
		return -1;
	}
	*ms = v;
	return 0;
}

int record_parse_size(const char *arg, uint64_t *bytes, const char *prog)
{
	/* perf's parse_tag_value: a number and one of B, K, M, G (upper case), nothing else */
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	uint64_t mul = 0;
	switch (*end) {
	case 'B': mul = 1; break;
	case 'K': mul = 1ull << 10; break;
	case 'M': mul = 1ull << 20; break;
	case 'G': mul = 1ull << 30; break;
	default: break;
	}
	if (errno || end == arg || arg[0] == '-' || !mul || end[1]) {
		fprintf(stderr, "%s: a size: a number and B, K, M or G, not '%s'\n", prog, arg);
		return -1;
	}
	*bytes = v * mul;
	return 0;
}

int record_spec_option(struct pk_spec_opts *o, int c, const char *arg, const char *prog)
{
	char *end;
	switch (c) {
	case 'c':
	case 'F': {
		assert(arg);	/* a required argument: scan-build, see cli.h */
		/* -F is checked against the kernel's limit: read once (a /proc file) */
		int max = c == 'F' ? pk_sysctl__perf_max_sample_rate() : 0;
		errno = 0;
		if (c == 'F' && !strcmp(arg, "max")) {	/* perf: the kernel's limit */
			o->freq = (uint64_t)max;
			end = (char *)arg + 3;
		} else {
			*(c == 'c' ? &o->period : &o->freq) = strtoull(arg, &end, 0);
		}
		if (errno || *end || !*arg || arg[0] == '-' || (c == 'F' && !o->freq)) {
			fprintf(stderr, "%s: -%c needs a positive number, got '%s'\n", prog, c, arg);
			return -1;
		}
		if (c == 'F' && o->freq > (uint64_t)max) {
			/* perf throttles -F to the kernel's limit and says so */
			fprintf(stderr,
				"warning: Maximum frequency rate (%d Hz) exceeded, throttling from %" PRIu64
				" Hz to %d Hz.\n"
				"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when pmukit's interrupts take too long.\n",
				max, o->freq, max);
			o->freq = (uint64_t)max;
		}
		if (c == 'c')
			o->freq = 0;
		else
			o->period = 0;
		return 1;
	}
	case 'g':
		o->call_graph = true;
		o->call_graph_mode = PK_CALL_GRAPH_FP;
		return 1;
	case RECORD_OPT_CALL_GRAPH: {
		assert(arg);
		const char *comma = strchr(arg, ',');
		size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
		o->call_graph = true;
		o->call_graph_dump = 0;
		if (n == 2 && !strncmp(arg, "fp", 2)) {
			o->call_graph_mode = PK_CALL_GRAPH_FP;
		} else if (n == 3 && !strncmp(arg, "lbr", 3)) {
			o->call_graph_mode = PK_CALL_GRAPH_LBR;
		} else if (n == 5 && !strncmp(arg, "dwarf", 5)) {
			o->call_graph_mode = PK_CALL_GRAPH_DWARF;
			if (comma) {
				errno = 0;
				unsigned long long sz = strtoull(comma + 1, &end, 0);
				/* perf: at most USHRT_MAX rounded down to 8 */
				if (errno || *end || !sz || sz > (65535 & ~7u)) {
					fprintf(stderr, "%s: --call-graph dwarf,SIZE: SIZE from 8 to %u, "
						"not '%s'\n", prog, 65535 & ~7u, comma + 1);
					return -1;
				}
				o->call_graph_dump = (uint32_t)sz;
			}
			return 1;
		} else if (n == 2 && !strncmp(arg, "no", 2)) {
			o->call_graph = false;
		} else {
			fprintf(stderr, "%s: --call-graph: fp, dwarf[,SIZE] or lbr, not '%s'\n", prog, arg);
			return -1;
		}
		if (comma) {
			fprintf(stderr, "%s: --call-graph %.*s takes no size\n", prog, (int)n, arg);
			return -1;
		}
		return 1;
	}
	case 's': o->inherit_stat = true; return 1;
	case 'T': return 1;	/* perf samples the time anyway */
	case 'b': o->branch_stack = PERF_SAMPLE_BRANCH_ANY; return 1;
	case RECORD_OPT_BRANCH_FILTER: {	/* -j (explain's -j is --json) */
		assert(arg);
		uint64_t mode = 0;
		if (encode_branch_parse(arg, &mode)) {
			fprintf(stderr, "%s: -j: branch filters (any, any_call, any_ret, ind_call, "
				"ind_jmp, call, cond, u, k, hv, in_tx, no_tx, abort_tx, save_type, "
				"stack, priv), not '%s'\n", prog, arg);
			return -1;
		}
		o->branch_stack = mode;
		return 1;
	}
	case RECORD_OPT_SWITCH_EVENTS: o->switch_events = true; return 1;
	case RECORD_OPT_ALL_USER: o->all_user = true; return 1;
	case RECORD_OPT_ALL_KERNEL: o->all_kernel = true; return 1;
	case 'D': {
		long ms;
		assert(arg);
		if (record_parse_delay(arg, &ms, prog))
			return -1;
		o->delay = ms != 0;
		return 1;
	}
	case 'W': o->sample_weight = true; return 1;
	case 'd': o->sample_addr = true; return 1;
	case RECORD_OPT_SAMPLE_CPU: o->sample_cpu = true; return 1;
	case 'a': o->system_wide = true; return 1;
	case 'i': o->no_inherit = true; return 1;
	default: return 0;
	}
}
