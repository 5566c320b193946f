/* SPDX-License-Identifier: MIT */
/*
 * export-cli.h — what `pmukit export` and `pmukit flamegraph` share in src/
 * (cmd-export.c): loading a perf.data file into a profile, writing it in a
 * format, and the --value option; export-push.c: --push to a profile store.
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
int export__load(const char *prog, const struct cli_data *d, unsigned prof_flags,
		 struct pk_profile **out);
/*
 * An HTML page's annotations: --annotate N (the hottest N functions; 0: none),
 * --annotate-size KIB, read from a second pass over d->input (not a pipe).
 */
struct export_annotate {
	const struct cli_data *d;
	int max;
	unsigned kib;
};
#define EXPORT_ANNOTATE_MAX 50
#define EXPORT_ANNOTATE_OPTIONS(a) \
	CLI_INT(0, "annotate", &(a)->max, "n", "html: embed the annotations (instructions and source " \
		"lines with their percents, shown when a frame is clicked) of the n hottest functions " \
		"by self samples (default 50; 0: none; none either when reading a pipe)"), \
	CLI_UINT(0, "annotate-size", &(a)->kib, "kib", "html: at most this much annotation text " \
		 "in the page (default 4096 KiB); functions past it say so")
/*
 * Write p to output ("-" or NULL: stdout), an HTML page with the annotations ann asks for
 * (NULL: none); prints its own message; 0 or -1.
 */
int export__write(const char *prog, const struct pk_profile *p, enum pk_export_format fmt,
		  const char *output, const struct pk_export_opts *eo, const struct export_annotate *ann);
/* --value samples|count|weight into the struct pk_export_opts at opt->value (a cli_opt callback) */
int export__parse_value(const struct cli_opt *opt, const char *arg, bool unset);


/* export --push URL [--app NAME] [--label K=V]... [--tenant ID] (export-push.c) */
struct export_push {
	const char *url, *app, *tenant;
	const char **labels;	/* "K=V", checked */
	size_t nr_labels, cap_labels;
};
/* --label K=V into the struct export_push at opt->value (a cli_opt callback) */
int export_push__label(const struct cli_opt *opt, const char *arg, bool unset);
void export_push__free(struct export_push *o);
/*
 * Without perf's CLOCK_DATA (recorded only with -k), the wall-clock reference:
 * the last sample at input's mtime (as perf's "captured on"), now for a pipe.
 */
void export__wall_clock(struct pk_profile *p, const char *input);
/* An http://HOST[:PORT][/PATH] URL --push can send to; 0, or -1 (said why). */
int export_push__check_url(const char *prog, const char *url);
/* POST the pprof of p to o->url's /ingest; prints its own message; 0 or -1. */
int export_push__send(const char *prog, const struct export_push *o, const struct pk_profile *p,
		      const struct pk_export_opts *eo);

#endif
