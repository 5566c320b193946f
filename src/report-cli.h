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
 * the file's header and features, as perf report --header prints them.
 * 0 or -1 (message printed).
 */
int report_header__fprintf(struct pk_session *s, FILE *fp, bool header_only);

int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

#endif
