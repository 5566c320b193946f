/* SPDX-License-Identifier: MIT */
/*
 * cmd-evlist.c — `pmukit evlist`: the events of a perf.data file as perf
 * 6.1's `perf evlist` lists them (names; -F their period or frequency; -v
 * every attr field; -g the groups; --trace-fields the tracepoints' fields),
 * over the session's attrs and names (the attr printer is the header's,
 * pk_session__fprintf_attr).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <pmukit/session.h>

#include "cli-opts.h"
#include "cli.h"

int cmd_evlist(int argc, char **argv);


struct evlist_opts {
	bool freq, verbose, group, trace_fields;
};

/* perf's comma_fprintf: ":" before the first detail, "," before the others */
static void sep(bool *first)
{
	fputc(*first ? ':' : ',', stdout);
	*first = false;
}

static void print_trace_fields(struct pk_data_reader *r, const struct perf_event_attr *a,
			       bool *first)
{
	sep(first);
	if (a->type != PERF_TYPE_TRACEPOINT) {
		fputs(" (not a tracepoint)", stdout);
		return;
	}
	const struct pk_tp_format *tf = pk_data_reader__tp_format(r, a->config);
	if (!tf || !tf->nr_fields) {
		fputs(" (no trace field)", stdout);
		return;
	}
	fprintf(stdout, " trace_fields: %s", tf->fields[0].name);
	for (size_t i = 1; i < tf->nr_fields; i++)
		fprintf(stdout, ",%s", tf->fields[i].name);
}

/* perf's evsel__fprintf for one event */
static void print_event(struct pk_session *s, size_t i, const struct evlist_opts *o)
{
	struct pk_data_reader *r = pk_session__reader(s);
	const struct pk_data_attr *a = pk_data_reader__attr(r, i);
	bool first = true;
	if (o->group) {
		if (a->leader != (int)i)
			return;
		int n = a->nr_members > 1 ? a->nr_members : 1;
		if (n > 1)
			printf("%s{", a->group_name ? a->group_name : "");
		for (int m = 0; m < n; m++)
			printf("%s%s", m ? "," : "", pk_session__event_name(s, (int)i + m));
		if (n > 1)
			putchar('}');
		putchar('\n');
		return;
	}
	fputs(pk_session__event_name(s, (int)i), stdout);
	if (o->verbose) {
		pk_session__fprintf_attr(s, stdout, (int)i, PK_ATTR_PRINT_EVLIST);
		first = false;
	} else if (o->freq) {
		sep(&first);
		printf(" %s=%llu", a->attr.freq ? "sample_freq" : "sample_period",
		       (unsigned long long)a->attr.sample_period);
	}
	if (o->trace_fields)
		print_trace_fields(r, &a->attr, &first);
	putchar('\n');
}

static int list(struct pk_session *s, const struct evlist_opts *o)
{
	struct pk_data_reader *r = pk_session__reader(s);
	struct pk_error err = { 0 };
	const struct pk_data_event *ev;
	/* a pipe's attrs come as records: perf reads up to its first feature */
	while (pk_data_reader__is_pipe(r) && pk_session__next(s, &ev, &err) > 0)
		if (ev->type == PK_RECORD_HEADER_FEATURE)
			break;
	bool has_tp = false;
	for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
		print_event(s, i, o);
		has_tp |= pk_data_reader__attr(r, i)->attr.type == PERF_TYPE_TRACEPOINT;
	}
	if (has_tp && !o->trace_fields)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint "
		       "events\n");
	return fflush(stdout) ? 255 : 0;
}

int cmd_evlist(int argc, char **argv)
{
	struct evlist_opts o = { 0 };
	const char *input = "perf.data";
	bool force = false;
	const struct cli_opt opts[] = {
		CLI_STRING('i', "input", &input, "file", "input file name"),
		CLI_BOOL('F', "freq", &o.freq, "show the sample frequency or period of each event"),
		CLI_BOOL('v', "verbose", &o.verbose, "show all the fields of each event's attr"),
		CLI_BOOL('g', "group", &o.group, "show the event groups"),
		CLI_BOOL('f', "force", &force, "don't complain, do it"),
		CLI_BOOL(0, "trace-fields", &o.trace_fields, "show the fields of tracepoint events"),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts, "pmukit evlist [<options>]\n\n"
				"List the events of a perf.data file as perf evlist does.", 0);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (n) {
		fprintf(stderr, "pmukit evlist: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	if (o.group && (o.verbose || o.freq)) {
		fprintf(stderr, "pmukit evlist: --group option is not compatible with other "
				"options\n");
		return 129;
	}
	struct pk_session_opts so = { .sz = sizeof(so), .flags = PK_SESSION_NO_SYMBOLS,
				      .nr_threads = 1 };
	struct pk_session *s;
	struct pk_error err = { 0 };
	if (pk_session__open(&s, input, &so, &err)) {
		char buf[1024];
		fprintf(stderr, "pmukit evlist: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return 255;
	}
	int rc = list(s, &o);
	pk_session__free(s);
	return rc;
}
