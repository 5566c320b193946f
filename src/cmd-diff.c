/* SPDX-License-Identifier: MIT */
/*
 * cmd-diff.c — `pmukit diff [FILE...]`: perf diff's --stdio output over the
 * sessions and reports of two or more files (pmukit/report.h): the first is
 * the baseline, the others are compared with it (-c delta-abs, delta, ratio,
 * wdiff:W1,W2), with -p, -F, -b, -o, -q, -v, the sample filters (-S, -d,
 * -C/--comms, --pid, --tid, --cpu, --time: one string for every file, or
 * OLD:NEW absolute ranges) and --percentage as in perf 6.1, and its errors
 * and exit statuses (129 for a bad option, 255 for a file or order error,
 * 234 for a bad time string).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/perf_data.h>
#include <pmukit/report.h>
#include <pmukit/session.h>

#include "cli-opts.h"
#include "report-cli.h"
#include "script.h"

enum { COMPUTE_CYCLES = 100 };

/* perf's setup_compute: "delta", "delta-abs", "ratio", "wdiff:W1,W2", "cycles"; 0 or -1 */
static int parse_compute(const char *str, struct pk_diff_opts *o)
{
	static const struct {
		const char *name;
		int compute;
	} names[] = {
		{ "delta", PK_DIFF_DELTA },	{ "ratio", PK_DIFF_RATIO },
		{ "wdiff", PK_DIFF_WDIFF },	{ "delta-abs", PK_DIFF_DELTA_ABS },
		{ "cycles", COMPUTE_CYCLES },
	};
	const char *colon = strchr(str, ':');
	size_t len = colon ? (size_t)(colon - str) : strlen(str);
	if (colon && len >= 50)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i].name) != len || strncmp(str, names[i].name, len))
			continue;
		o->compute = names[i].compute;
		const char *arg = colon ? colon + 1 : NULL;
		if (o->compute != PK_DIFF_WDIFF) {
			if (!arg)
				return 0;
			fprintf(stderr, "Failed: extra option specified '%s'", arg);
			return -1;
		}
		const char *comma = arg ? strchr(arg, ',') : NULL;
		if (comma && comma[1]) {
			o->wdiff_w1 = strtol(arg, NULL, 10);
			o->wdiff_w2 = strtol(comma + 1, NULL, 10);
			if (o->wdiff_w1 && o->wdiff_w2)
				return 0;
		}
		fprintf(stderr, "Failed: wrong weight data, use 'wdiff:w1,w2'\n");
		return -1;
	}
	fprintf(stderr, "Failed: '%s' is not computation method (use 'delta','ratio' or 'wdiff')\n",
		str);
	return -1;
}

struct diff_cli {
	struct pk_diff_opts o;
	const char *sort, *symfs, *kallsyms;
	int nr_threads;
	bool cycles_hist, stream, filter_relative;
	struct pk_sample_filter_opts fo;	/* -S, -d, -C (comms), --pid, --tid, --cpu, --time */
};

static int compute_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	(void)unset;
	return parse_compute(arg, opt->value);
}

/* --percentage relative|absolute: the shares of the entries the filters leave, or of all */
static int percentage_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	if (unset || (strcmp(arg, "relative") && strcmp(arg, "absolute")))
		return cli_opts__error(opt, "is relative or absolute");
	*(bool *)opt->value = !strcmp(arg, "relative");
	return 0;
}

#define NOT_YET(s, l) CLI_REFUSED(s, l, "not supported yet")

/* the options; 0, or the exit status (-1: --help printed); *nr_files: the files, left in argv */
static int parse_args(int argc, char **argv, struct diff_cli *cli, int *nr_files)
{
	bool stdio = false, force = false;
	unsigned order = 1;	/* perf's default: sorted first by the first compared file */
	const struct cli_opt opts[] = {
		CLI_CALLBACK('c', "compute", &cli->o,
			     "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs),cycles",
			     "entries differential computation selection", compute_cb),
		CLI_BOOL('p', "period", &cli->o.show_period, "show period values"),
		CLI_BOOL('F', "formula", &cli->o.show_formula, "show formula"),
		CLI_BOOL('b', "baseline-only", &cli->o.baseline_only,
			 "show only items with match in baseline"),
		CLI_UINT('o', "order", &order, "n",
			 "sort first by this file's values (0: the baseline's; default 1)"),
		CLI_STRING('s', "sort", &cli->sort, "key[,key2...]",
			   "pair entries by these keys (default dso,sym)"),
		CLI_CALLBACK(0, "percentage", &cli->filter_relative, "relative|absolute",
			     "how to display percentage of filtered entries", percentage_cb),
		CLI_BOOL('q', "quiet", &cli->o.quiet, "no header lines"),
		CLI_BOOL('f', "force", &force, "don't complain, do it"),
		CLI_BOOL(0, "stdio", &stdio, "text output (the only one)"),
		CLI_STRING(0, "symfs", &cli->symfs, "directory",
			   "look for files with symbols relative to this directory"),
		CLI_STRING(0, "kallsyms", &cli->kallsyms, "file", "kernel symbols from this file"),
		CLI_INT('j', "threads", &cli->nr_threads, "n", "threads for symbols (default 2)"),
		CLI_BOOL(0, "cycles-hist", &cli->cycles_hist, "cycles histograms (with -c cycles)"),
		CLI_BOOL(0, "stream", &cli->stream, "hot streams comparison"),
		CLI_STRING('d', "dsos", &cli->fo.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		CLI_STRING('C', "comms", &cli->fo.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		CLI_STRING('S', "symbols", &cli->fo.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		CLI_STRING(0, "pid", &cli->fo.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		CLI_STRING(0, "tid", &cli->fo.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		CLI_STRING(0, "cpu", &cli->fo.cpus, "cpu", "list of cpus to profile"),
		CLI_STRING(0, "time", &cli->fo.time, "str",
			   "time span (percent or absolute timestamps; OLD_RANGE:NEW_RANGE per file)"),
		CLI_INCR('v', "verbose", &cli->o.verbose,
			 "be more verbose (show symbol address, etc)"),
		NOT_YET('t', "field-separator"),
		NOT_YET('D', "dump-raw-trace"), NOT_YET('m', "modules"),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts,
				"pmukit diff [<options>] [old_file] [new_file] | [base_file file...]\n\n"
				"Compare the profiles of perf.data files as perf diff does: each entry's\n"
				"share in the first (Baseline) and how it changed in each other file.\n"
				"No file: perf.data.old and perf.data; one file: perf.data.old and it.\n"
				"(-c cycles needs branch stacks: not supported.)", 0);
	if (n < 0)
		return n == CLI_HELP ? -1 : 129;
	if (cli->o.quiet)
		cli->o.verbose = 0;	/* perf's perf_quiet_option: -q silences -v, in any order */
	cli->o.order = order;
	cli->o.order_set = true;
	if (cli->cycles_hist && cli->o.compute != COMPUTE_CYCLES)
		return 129;	/* perf: --cycles-hist only with -c cycles */
	*nr_files = n;
	return 0;
}

static int fail(const char *what, struct pk_error *err)
{
	char buf[1024];
	fprintf(stderr, "pmukit diff: %s%s\n", what, pk_error__format(err, buf, sizeof(buf)));
	return 255;
}

/* -c cycles, --stream: perf needs branch stacks in every file, and stops quietly without */
static int branch_stacks(struct pk_session **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!pk_session__has_feat(s[i], PK_FEAT_BRANCH_STACK))
			return 255;
	fprintf(stderr, "pmukit diff: -c cycles and --stream are not supported yet\n");
	return 255;
}

/*
 * --time for file i: the whole string, or with a ':' (absolute ranges per
 * file, perf's "a.b,c.d:a.b,c.d") its i-th part; NULL when there is none
 * (perf 6.1 crashes there: pmukit says the string is invalid).
 */
static const char *time_part(const char *str, size_t i, char *buf, size_t size)
{
	if (!strchr(str, ':'))
		return str;
	for (; i && str; i--) {
		str = strchr(str, ':');
		str = str ? str + 1 : NULL;
	}
	if (!str)
		return NULL;
	size_t len = strcspn(str, ":");
	if (!len || len >= size)
		return NULL;
	memcpy(buf, str, len);
	buf[len] = 0;
	return buf;
}

/* file i's sample filter (*f stays NULL without one); 0 or the exit status */
static int open_filter(struct pk_session *s, const struct diff_cli *cli, size_t i,
		       struct pk_sample_filter **f)
{
	const struct pk_sample_filter_opts *fo = &cli->fo;
	if (!fo->comms && !fo->pids && !fo->tids && !fo->dsos && !fo->symbols && !fo->cpus &&
	    !fo->time)
		return 0;
	struct pk_sample_filter_opts t = *fo;
	char buf[1024];
	struct pk_error err = { 0 };
	if (fo->time && !(t.time = time_part(fo->time, i, buf, sizeof(buf)))) {
		fprintf(stderr, "Invalid time string\n");
		return 234;	/* perf: -EINVAL */
	}
	if (!pk_sample_filter__new(f, s, &t, &err))
		return 0;
	fprintf(stderr, "%s\n", err.msg);
	/* perf: a bad time string -EINVAL, a bad CPU list -1 */
	return !strcmp(err.msg, "Invalid time string") ? 234 : 255;
}

/* each file's report, read to its end; 0 or the exit status */
static int load(struct pk_session *s, const char *path, const struct diff_cli *cli,
		struct report_trace *tc, const struct pk_sample_filter *f, struct pk_report **r)
{
	struct pk_error err = { 0 };
	struct pk_report_opts ro = {
		.sz = sizeof(ro), .sort = cli->sort, .children = PK_REPORT_OFF, .group = PK_REPORT_OFF,
		.topdown = PK_REPORT_OFF,
		.call_graph = "none", .trace_output = report_trace__output, .trace_ctx = tc,
		.filter = f, .filter_relative = cli->filter_relative, .verbose = cli->o.verbose,
	};
	tc->rd = pk_session__reader(s);
	if (pk_report__new(r, s, &ro, &err)) {
		/* a bad --sort key: perf's usage error */
		int rc = fail("", &err);
		return err.code == -EINVAL ? 129 : rc;
	}
	if (pk_report__process(*r, &err) || pk_report__finish(*r, &err)) {
		char what[1100];
		snprintf(what, sizeof(what), "%s: ", path);
		return fail(what, &err);
	}
	return 0;
}

static int run(const char **files, size_t n, struct diff_cli *cli)
{
	struct pk_session **s = calloc(n, sizeof(*s));
	struct pk_report **r = calloc(n, sizeof(*r));
	struct report_trace *tc = calloc(n, sizeof(*tc));
	struct pk_sample_filter **f = calloc(n, sizeof(*f));
	int rc = s && r && tc && f ? 0 : 255;
	struct pk_error err = { 0 };
	struct pk_symbolizer_opts yo = { .sz = sizeof(yo), .kallsyms = cli->kallsyms };
	struct pk_session_opts so = { .sz = sizeof(so), .symfs = cli->symfs, .symbolizer = &yo,
				      .nr_threads = cli->nr_threads };
	for (size_t i = 0; i < n && !rc; i++)
		if (pk_session__open(&s[i], files[i], &so, &err))
			rc = fail("", &err);
	if (!rc && (cli->o.compute == COMPUTE_CYCLES || cli->stream))
		rc = branch_stacks(s, n);
	for (size_t i = 0; i < n && !rc; i++) {
		rc = open_filter(s[i], cli, i, &f[i]);
		if (!rc)
			rc = load(s[i], files[i], cli, &tc[i], f[i], &r[i]);
	}
	if (!rc && pk_report__fprintf_diffs(r, files, n, stdout, &cli->o, &err))
		rc = fail("", &err);
	if (!rc)
		rc = fflush(stdout) ? 255 : 0;
	for (size_t i = 0; i < n && s && r && tc && f; i++) {
		pk_report__free(r[i]);
		report_trace__free(&tc[i]);
		pk_sample_filter__free(f[i]);
		pk_session__free(s[i]);
	}
	free(f);
	free(tc);
	free(r);
	free(s);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cli cli = { .o = { .sz = sizeof(cli.o) }, .sort = "dso,sym", .fo = { .sz = sizeof(cli.fo) } };
	int nr_files = 0;
	int rc = parse_args(argc, argv, &cli, &nr_files);
	if (rc)
		return rc < 0 ? 0 : rc;
	const char *defaults[2] = { "perf.data.old", "perf.data" };
	const char **files = defaults;
	size_t n = 2;
	if (nr_files == 1)
		defaults[1] = argv[0];	/* perf: one file is the new one */
	else if (nr_files > 1)
		files = (const char **)argv, n = (size_t)nr_files;
	if (cli.o.order_set && cli.o.order >= n) {
		fprintf(stderr, "Order option out of limit.\n");
		return 255;
	}
	return run(files, n, &cli);
}
