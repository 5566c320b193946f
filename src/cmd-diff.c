/* SPDX-License-Identifier: MIT */
/*
 * cmd-diff.c — `pmukit diff [FILE...]`: perf diff's --stdio output over the
 * sessions and reports of two or more files (pmukit/report.h): the first is
 * the baseline, the others are compared with it (-c delta-abs, delta, ratio,
 * wdiff:W1,W2), with -p, -F, -b, -o, -q as in perf 6.1, and its errors and
 * exit statuses (129 for a bad option, 255 for a file or order error).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/perf_data.h>
#include <pmukit/report.h>
#include <pmukit/session.h>

#include "report-cli.h"
#include "script.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit diff [options] [[OLD] NEW] | [BASE FILE...]\n\n"
		"Compare the profiles of perf.data files as perf diff does: each entry's\n"
		"share in the first (Baseline) and how it changed in each other file.\n"
		"No file: perf.data.old and perf.data; one file: perf.data.old and it.\n\n"
		"  -c, --compute M       delta-abs (default), delta, ratio or wdiff:W1,W2\n"
		"                        (cycles needs branch stacks: not supported)\n"
		"  -p, --period          show the periods (Base period, Period)\n"
		"  -F, --formula         show the formula of each value\n"
		"  -b, --baseline-only   only the baseline's entries found in another file\n"
		"  -o, --order N         sort first by file N's values (default 1; 0: by baseline)\n"
		"  -s, --sort KEYS       pair entries by these keys (default dso,sym)\n"
		"      --percentage relative|absolute\n"
		"                        percentages of filtered entries (no filters yet)\n"
		"  -q, --quiet           no header lines\n"
		"  -f, --force           do not check the files' owner\n"
		"      --stdio           text output (the only one)\n"
		"      --symfs DIR       look for binaries and debug files under DIR\n"
		"      --kallsyms FILE   kernel symbols from FILE (default /proc/kallsyms)\n"
		"  -j, --threads N       threads for symbols (default 2)\n"
		"  -h, --help            this help\n"
		"Refused (not supported yet): --cycles-hist, --stream, -S, -d, -C, --pid,\n"
		"--tid, --cpu, --time, -t, -v, -D, -m.\n");
}

enum {
	OPT_STDIO = 0x200, OPT_SYMFS, OPT_KALLSYMS, OPT_PERCENTAGE, OPT_CYCLES_HIST, OPT_STREAM,
	OPT_REFUSED,
};

static const struct option longopts[] = {
	{ "compute", required_argument, NULL, 'c' },
	{ "period", no_argument, NULL, 'p' },
	{ "formula", no_argument, NULL, 'F' },
	{ "baseline-only", no_argument, NULL, 'b' },
	{ "order", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "threads", required_argument, NULL, 'j' },
	{ "force", no_argument, NULL, 'f' },
	{ "cycles-hist", no_argument, NULL, OPT_CYCLES_HIST },
	{ "stream", no_argument, NULL, OPT_STREAM },
	{ "symbols", required_argument, NULL, 'S' },
	{ "dsos", required_argument, NULL, 'd' },
	{ "comms", required_argument, NULL, 'C' },
	{ "pid", required_argument, NULL, OPT_REFUSED },
	{ "tid", required_argument, NULL, OPT_REFUSED },
	{ "cpu", required_argument, NULL, OPT_REFUSED },
	{ "time", required_argument, NULL, OPT_REFUSED },
	{ "field-separator", required_argument, NULL, 't' },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "dump-raw-trace", no_argument, NULL, 'D' },
	{ "modules", no_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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

/* perf's OPT_UINTEGER for -o; 0 or -1 (message printed) */
static int parse_order(const char *arg, struct pk_diff_opts *o)
{
	char *end;
	long long v = strtoll(arg, &end, 10);
	if (!*arg || *end) {
		fprintf(stderr, " Error: switch `o' expects a numerical value\n");
		return -1;
	}
	if (v < 0 || v > 0xffffffffLL) {
		fprintf(stderr, " Error: switch `o' expects an unsigned numerical value\n");
		return -1;
	}
	o->order = (unsigned)v;
	o->order_set = true;
	return 0;
}

struct diff_cli {
	struct pk_diff_opts o;
	const char *sort, *symfs, *kallsyms;
	int nr_threads;
	bool cycles_hist, stream;
};

/* the options; 0, or the exit status (-1: --help printed) */
static int parse_args(int argc, char **argv, struct diff_cli *cli)
{
	int c, li = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:pFbo:s:qj:fhS:d:C:t:vDm", longopts, &li)) != -1) {
		switch (c) {
		case 'c':
			if (parse_compute(optarg, &cli->o))
				return usage(stderr), 129;
			break;
		case 'p':
			cli->o.show_period = true;
			break;
		case 'F':
			cli->o.show_formula = true;
			break;
		case 'b':
			cli->o.baseline_only = true;
			break;
		case 'o':
			if (parse_order(optarg, &cli->o))
				return usage(stderr), 129;
			break;
		case 's':
			cli->sort = optarg;
			break;
		case OPT_PERCENTAGE:
			/* no filters yet: both are accepted and change nothing */
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
				return usage(stderr), 129;
			break;
		case OPT_SYMFS:
			cli->symfs = optarg;
			break;
		case OPT_KALLSYMS:
			cli->kallsyms = optarg;
			break;
		case 'q':
			cli->o.quiet = true;
			break;
		case 'j':
			cli->nr_threads = atoi(optarg);
			break;
		case OPT_CYCLES_HIST:
			cli->cycles_hist = true;
			break;
		case OPT_STREAM:
			cli->stream = true;
			break;
		case OPT_STDIO:
		case 'f':
			break;
		case OPT_REFUSED:
			fprintf(stderr, "pmukit diff: --%s is not supported yet\n", longopts[li].name);
			return 129;
		case 'S':
		case 'd':
		case 'C':
		case 't':
		case 'v':
		case 'D':
		case 'm':
			fprintf(stderr, "pmukit diff: -%c is not supported yet\n", c);
			return 129;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return 129;
		}
	}
	if (cli->cycles_hist && cli->o.compute != COMPUTE_CYCLES)
		return usage(stderr), 129;	/* perf: --cycles-hist only with -c cycles */
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
		if (!pk_data_reader__has_feat(pk_session__reader(s[i]), PK_FEAT_BRANCH_STACK))
			return 255;
	fprintf(stderr, "pmukit diff: -c cycles and --stream are not supported yet\n");
	return 255;
}

/* tracepoint text for the trace sort key (as cmd-report.c makes it), one per file */
struct trace_ctx {
	struct pk_data_reader *rd;
	struct script_trace *t;
	struct obuf ob;
	bool tried;
};

static const char *trace_output(void *vctx, const struct pk_resolved *rs)
{
	struct trace_ctx *c = vctx;
	if (!c->tried) {
		c->tried = true;
		if (obuf__init(&c->ob, stdout) || script_trace__new(&c->t, c->rd))
			c->t = NULL;
	}
	if (!c->t)
		return NULL;
	const struct pk_data_attr *a = pk_data_reader__attr(c->rd, (size_t)rs->attr);
	c->ob.buf.len = 0;
	/* perf's get_trace_output leaves the record's cpu 0 */
	if (!a || !script_trace__print(c->t, a->attr.config, 0, rs->sample->raw.data,
				       rs->sample->raw.size, &c->ob) || c->ob.buf.len >= c->ob.buf.cap)
		return NULL;
	return pk_buf__str(&c->ob.buf);
}

static void trace_ctx__free(struct trace_ctx *c)
{
	script_trace__free(c->t);
	if (c->ob.buf.data) {
		c->ob.buf.len = 0;	/* obuf__free writes what is left: nothing here */
		obuf__free(&c->ob);
	}
}

/* each file's report, read to its end; 0 or the exit status */
static int load(struct pk_session *s, const char *path, const struct diff_cli *cli,
		struct trace_ctx *tc, struct pk_report **r)
{
	struct pk_error err = { 0 };
	struct pk_report_opts ro = {
		.sz = sizeof(ro), .sort = cli->sort, .children = 0, .group = 0, .topdown = 0,
		.call_graph = "none", .trace_output = trace_output, .trace_ctx = tc,
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
	struct trace_ctx *tc = calloc(n, sizeof(*tc));
	int rc = s && r && tc ? 0 : 255;
	struct pk_error err = { 0 };
	struct pk_symbolizer_opts yo = { .sz = sizeof(yo), .kallsyms = cli->kallsyms };
	struct pk_session_opts so = { .sz = sizeof(so), .symfs = cli->symfs, .symbolizer = &yo,
				      .nr_threads = cli->nr_threads };
	for (size_t i = 0; i < n && !rc; i++)
		if (pk_session__open(&s[i], files[i], &so, &err))
			rc = fail("", &err);
	if (!rc && (cli->o.compute == COMPUTE_CYCLES || cli->stream))
		rc = branch_stacks(s, n);
	for (size_t i = 0; i < n && !rc; i++)
		rc = load(s[i], files[i], cli, &tc[i], &r[i]);
	if (!rc && pk_report__fprintf_diffs(r, files, n, stdout, &cli->o, &err))
		rc = fail("", &err);
	if (!rc)
		rc = fflush(stdout) ? 255 : 0;
	for (size_t i = 0; i < n && s && r && tc; i++) {
		pk_report__free(r[i]);
		trace_ctx__free(&tc[i]);
		pk_session__free(s[i]);
	}
	free(tc);
	free(r);
	free(s);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cli cli = { .o = { .sz = sizeof(cli.o) }, .sort = "dso,sym" };
	int rc = parse_args(argc, argv, &cli);
	if (rc)
		return rc < 0 ? 0 : rc;
	const char *defaults[2] = { "perf.data.old", "perf.data" };
	const char **files = defaults;
	size_t n = 2;
	if (argc - optind == 1)
		defaults[1] = argv[optind];	/* perf: one file is the new one */
	else if (argc - optind > 1)
		files = (const char **)argv + optind, n = (size_t)(argc - optind);
	if (cli.o.order_set && cli.o.order >= n) {
		fprintf(stderr, "Order option out of limit.\n");
		return 255;
	}
	return run(files, n, &cli);
}
