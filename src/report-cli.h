/* SPDX-License-Identifier: MIT */
/*
 * report-cli.h — what `pmukit report` and `pmukit diff` share in src/: the
 * perf.data header printer of --header / --header-only (report-header.c) and
 * the trace sort key's text (report-trace.c).
 */
#ifndef PMUKIT_REPORT_CLI_H
#define PMUKIT_REPORT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <pmukit/session.h>

#include "script.h"

/*
 * perf's perf_session__fprintf_info: "# ========" ... "# ========\n#\n" with
 * the header and features of the session's file, as perf report --header
 * prints them. A pipe's features are read from the session (up to its
 * end-of-features record). 0 or -1.
 */
int report_header__fprintf(struct pk_session *s, FILE *fp);

/* A tracepoint sample's text for the trace sort key (pk_report_opts.trace_output). */
struct report_trace {
	struct pk_data_reader *rd;	/* the file's reader: its tracing data */
	struct script_trace *t;
	struct obuf ob;			/* 1 MiB: a record's text always fits */
	bool tried;
};
/* pk_report_opts.trace_output, with a struct report_trace as ctx */
const char *report_trace__output(void *ctx, const struct pk_resolved *rs);
void report_trace__free(struct report_trace *c);

int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

#endif
