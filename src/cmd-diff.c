/* SPDX-License-Identifier: MIT */
/*
 * cmd-diff.c — `pmukit diff [OLD] NEW`: perf diff's default output (the
 * Baseline and Delta Abs columns, entries paired by shared object and
 * symbol), over two sessions and reports (pmukit/report.h).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/report.h>
#include <pmukit/session.h>

#include "report-cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit diff [options] [[OLD] NEW]\n\n"
		"Compare the profiles of two perf.data files as perf diff does: each entry's\n"
		"share in OLD (Baseline) and how much it grew or shrank in NEW (Delta Abs).\n"
		"OLD defaults to perf.data.old, NEW to perf.data.\n\n"
		"  -s, --sort KEYS       pair entries by these keys (default dso,sym)\n"
		"      --stdio           text output (the only one)\n"
		"      --symfs DIR       look for binaries and debug files under DIR\n"
		"  -q, --quiet           no header lines\n"
		"  -j, --threads N       threads for symbols (default 2)\n"
		"  -h, --help            this help\n");
}

enum { OPT_STDIO = 0x200, OPT_SYMFS };

static const struct option longopts[] = {
	{ "sort", required_argument, NULL, 's' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "threads", required_argument, NULL, 'j' },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct side {
	struct pk_session *s;
	struct pk_report *r;
};

static int load(struct side *d, const char *path, const char *sort, const char *symfs,
		int nr_threads)
{
	struct pk_error err = { 0 };
	struct pk_session_opts o = { .sz = sizeof(o), .symfs = symfs, .nr_threads = nr_threads };
	struct pk_report_opts ro = {
		.sz = sizeof(ro), .sort = sort, .children = 0, .group = 0, .topdown = 0,
		.call_graph = "none",
	};
	char buf[1024];
	if (pk_session__open(&d->s, path, &o, &err)) {
		fprintf(stderr, "pmukit diff: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	if (pk_report__new(&d->r, d->s, &ro, &err) || pk_report__process(d->r, &err) ||
	    pk_report__finish(d->r, &err)) {
		fprintf(stderr, "pmukit diff: %s: %s\n", path, pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	const char *sort = "dso,sym", *symfs = NULL;
	int nr_threads = 0, c;
	bool quiet = false;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:qj:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			sort = optarg;
			break;
		case OPT_STDIO:
		case 'f':
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'j':
			nr_threads = atoi(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 129;
		}
	}
	const char *files[2] = { "perf.data.old", "perf.data" };
	int nfiles = argc - optind;
	if (nfiles == 1) {
		files[1] = argv[optind];
	} else if (nfiles == 2) {
		files[0] = argv[optind];
		files[1] = argv[optind + 1];
	} else if (nfiles > 2) {
		fprintf(stderr, "pmukit diff: compares two files (more are not supported)\n");
		return 129;
	}
	struct side d[2] = { { 0 } };
	int rc = 255;
	if (load(&d[0], files[0], sort, symfs, nr_threads) ||
	    load(&d[1], files[1], sort, symfs, nr_threads))
		goto out;
	struct pk_error err = { 0 };
	struct pk_diff_opts dopts = { .sz = sizeof(dopts) };
	FILE *out = stdout;
	char *text = NULL;
	size_t len = 0;
	if (quiet && !(out = open_memstream(&text, &len)))
		goto out;
	if (pk_report__fprintf_diff(d[0].r, d[1].r, files[0], files[1], out, &dopts, &err)) {
		char buf[1024];
		fprintf(stderr, "pmukit diff: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		if (quiet)
			fclose(out), free(text);
		goto out;
	}
	if (quiet) {
		/* -q: the rows only, as perf diff -q prints them */
		fclose(out);
		for (char *line = text, *next; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = 0;
			if (line[0] != '#' && line[0])
				puts(line);
		}
		free(text);
	}
	rc = fflush(stdout) ? 255 : 0;
out:
	for (int i = 0; i < 2; i++) {
		pk_report__free(d[i].r);
		pk_session__free(d[i].s);
	}
	return rc;
}
