/* SPDX-License-Identifier: MIT */
/* cmd-diff.c — `pmukit diff OLD NEW`: perf diff's default output. */
#include <stdio.h>

#include "report-cli.h"

int cmd_diff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pmukit diff: not yet\n");
	return 255;
}
