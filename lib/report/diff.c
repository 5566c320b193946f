/* SPDX-License-Identifier: MIT */
/* report/diff.c — perf diff over two reports. */
#include <errno.h>

#include "report/report_int.h"
#include "util/error.h"

int pk_report__fprintf_diff(struct pk_report *old, struct pk_report *new_, const char *old_name,
			    const char *new_name, FILE *fp, const struct pk_diff_opts *opts,
			    struct pk_error *err)
{
	(void)old; (void)new_; (void)old_name; (void)new_name; (void)fp; (void)opts;
	return pk_error__set(err, -ENOSYS, "", 0, 0, "not yet");
}
