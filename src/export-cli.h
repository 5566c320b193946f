/* SPDX-License-Identifier: MIT */
/*
 * export-cli.h — what `pmukit export` and `pmukit flamegraph` share in src/
 * (cmd-export.c): loading a perf.data file into a profile, writing it in a
 * format, and the --value option.
 */
#ifndef PMUKIT_EXPORT_CLI_H
#define PMUKIT_EXPORT_CLI_H

#include <stdbool.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>

#include "cli-opts.h"

int cmd_export(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
/* Read input into a new profile; prints its own message; 0 or -1. */
int export__load(const char *prog, const char *input, const char *symfs, unsigned sym_flags,
		 unsigned prof_flags, struct pk_profile **out);
/* Write p to output ("-" or NULL: stdout); prints its own message; 0 or -1. */
int export__write(const char *prog, const struct pk_profile *p, enum pk_export_format fmt,
		  const char *output, const struct pk_export_opts *eo);
/* --value samples|count|weight into the struct pk_export_opts at opt->value (a cli_opt callback) */
int export__parse_value(const struct cli_opt *opt, const char *arg, bool unset);

#endif
