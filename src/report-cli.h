/* SPDX-License-Identifier: MIT */
/*
 * report-cli.h — what `pmukit report` and `pmukit diff` share in src/: the
 * perf.data header printer of --header / --header-only (report-header.c).
 */
#ifndef PMUKIT_REPORT_CLI_H
#define PMUKIT_REPORT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <pmukit/session.h>

/*
 * perf's perf_session__fprintf_info: "# ========" ... "# ========\n#\n" with
 * the header and features of the session's file, as perf report --header
 * prints them. A pipe's features are read from the session (up to its
 * end-of-features record). 0 or -1.
 */
int report_header__fprintf(struct pk_session *s, FILE *fp);

int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

#endif
