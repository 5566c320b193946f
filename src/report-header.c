/* SPDX-License-Identifier: MIT */
/*
 * report-header.c — perf report --header / --header-only: the library's
 * header printer (pk_session__fprintf_header, the one perf script --header
 * uses too) between perf's "# ========" lines; a pipe's features are read
 * from the session as they come, up to its end-of-features record.
 */
#include <pmukit/data_read.h>

#include "report-cli.h"

/* perf 6.1's HEADER_LAST_FEATURE, a pipe's end-of-features record: Debian's perf 6.1 knows PMU_CAPS (31) */
#define PERF61_LAST_FEATURE 32

int report_header__fprintf(struct pk_session *s, FILE *fp)
{
	struct pk_error err = { 0 };
	fputs("# ========\n", fp);
	if (pk_session__fprintf_header(s, fp, &err)) {
		fprintf(stderr, "pmukit report: %s\n", err.msg);
		return -1;
	}
	fputs("# ========\n#\n", fp);
	if (!pk_session__is_pipe(s))
		return 0;
	const struct pk_data_event *ev;
	int rc;
	while ((rc = pk_session__next(s, &ev, &err)) > 0) {
		if (ev->type != PK_RECORD_HEADER_FEATURE)
			continue;
		unsigned f = (unsigned)ev->u.feature.feat;
		if (f >= PERF61_LAST_FEATURE)
			break;	/* the end-of-features marker */
		pk_session__fprintf_feature(s, fp, f);
	}
	return rc < 0 ? -1 : 0;
}
