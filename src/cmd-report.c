/* SPDX-License-Identifier: MIT */
/*
 * cmd-report.c — `pmukit report --stdio`: perf report's text for a
 * perf.data file (file or pipe, perf's or pmukit's recordings), over the
 * session (pmukit/session.h) and the report library (pmukit/report.h):
 * options as perf 6.1 takes them, its header lines and errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/report.h>
#include <pmukit/session.h>

#include "cli-opts.h"
#include "cli.h"
#include "pager.h"
#include "report-cli.h"
#include "dump.h"
#include "script.h"
#include "tui.h"

static int fail(const char *what, const struct pk_error *err)
{
	char buf[1024];
	fprintf(stderr, "pmukit report: %s%s\n", what, pk_error__format(err, buf, sizeof(buf)));
	return 255;
}

/* perf's --time-quantum: N with ns (the default unit), us, ms or s */
static int parse_time_quantum(const char *arg, uint64_t *q)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 0);
	if (end == arg)
		goto bad;
	if (!v) {
		fprintf(stderr, "time quantum cannot be 0");
		return -1;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "", 1 }, { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*q = v * units[i].mul;
			return 0;
		}
bad:
	fprintf(stderr, "Cannot parse time quantum `%s'\n", arg);
	return -1;
}

/*
 * The sample filters in perf's order: the lists (perf's symbol__init; a bad
 * one ends the command with status 0), --time (-EINVAL), and -C, which perf
 * checks after it has printed the filter lines (status 0). -1: set up; -2:
 * only the CPU list is bad (*f holds the rest); else the exit status.
 */
static int open_filter(struct pk_session *s, const struct pk_sample_filter_opts *fo,
		       struct pk_sample_filter **f)
{
	struct pk_error err = { 0 };
	if (!fo->comms && !fo->pids && !fo->tids && !fo->dsos && !fo->symbols && !fo->cpus &&
	    !fo->time)
		return -1;
	struct pk_sample_filter_opts t = *fo;
	t.cpus = NULL;
	if (pk_sample_filter__new(f, s, &t, &err)) {
		fflush(stdout);
		fprintf(stderr, "%s\n", err.msg);
		t.time = NULL;
		struct pk_sample_filter *lf = NULL;
		int lists_bad = pk_sample_filter__new(&lf, s, &t, &err);
		pk_sample_filter__free(lf);
		return lists_bad ? 0 : 234;
	}
	if (!fo->cpus)
		return -1;
	struct pk_sample_filter *all = NULL;
	if (pk_sample_filter__new(&all, s, fo, &err)) {
		fflush(stdout);
		fprintf(stderr, "%s\n", err.msg);
		return -2;
	}
	pk_sample_filter__free(*f);
	*f = all;
	return -1;
}

/* the command line of `pmukit report` */
struct report_cli {
	struct cli_data d;
	struct pk_report_opts ro;
	struct pk_sample_filter_opts fo;
	struct report_modes mode;
	const char *call_graph;
	bool cg_given, header, header_only, quiet, inl, full_path, inverted, stdio, force, tui;
};

/* --children, --group, --topdown and their --no- forms */
static int switch_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	(void)arg;
	*(enum pk_report_switch *)opt->value = unset ? PK_REPORT_OFF : PK_REPORT_ON;
	return 0;
}

/* -g [ARGS] (perf's default when none follows), --no-call-graph */
static int call_graph_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct report_cli *c = opt->value;
	c->call_graph = unset ? "none" : arg;
	c->cg_given |= !unset;
	return 0;
}

static int percentage_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	bool *relative = opt->value;
	if (unset || (strcmp(arg, "relative") && strcmp(arg, "absolute")))
		return cli_opts__error(opt, "is relative or absolute");
	*relative = !strcmp(arg, "relative");
	return 0;
}

static int time_quantum_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	if (unset)
		return cli_opts__error(opt, "takes a time");
	return parse_time_quantum(arg, opt->value);
}

static int parse_args(int argc, char **argv, struct report_cli *c)
{
	struct pk_report_opts *ro = &c->ro;
	struct pk_sample_filter_opts *fo = &c->fo;
	const struct cli_opt opts[] = {
		CLI_DATA_OPTIONS(&c->d),
		CLI_VMLINUX_OPTION(&c->d),
		CLI_BOOL(0, "stdio", &c->stdio, "use the stdio interface (on a terminal too)"),
		CLI_BOOL(0, "tui", &c->tui, "use the interactive browser (the default on a terminal)"),
		CLI_REFUSED(0, "gtk", "only --stdio output is available"),
		CLI_REFUSED(0, "mem-mode", "the memory access view (sort keys mem, snoop, tlb, locked, "
			    "dcacheline) is not supported yet"),
		CLI_REFUSED('b', "branch-stack", "the branch view needs branch stacks, which no PMU "
			    "here records: not supported yet"),
		CLI_REFUSED(0, "branch-history", "the branch view needs branch stacks, which no PMU "
			    "here records: not supported yet"),
		CLI_REFUSED(0, "stitch-lbr", "LBR stitching is not supported yet"),
		CLI_REFUSED(0, "itrace", "AUX traces (Intel PT, Arm SPE, CoreSight) are not decoded"),
		CLI_BOOL('f', "force", &c->force, "don't complain, do it"),
		CLI_BOOL('q', "quiet", &c->quiet, "do not show any header lines"),
		CLI_INCR('v', "verbose", &c->ro.verbose,
			 "be more verbose (show symbol address, etc)"),
		CLI_BOOL(0, "header", &c->header, "show the data header"),
		CLI_BOOL(0, "header-only", &c->header_only, "show only the data header"),
		CLI_GROUP(""),
		CLI_STRING('s', "sort", &ro->sort, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, srcfile, "
			   "symbol_size, time, local_weight, weight, ins_lat, p_stage_cyc, retire_lat, "
			   "trace (+KEYS: added to the default comm,dso,sym)"),
		CLI_STRING('F', "fields", &ro->fields, "key[,keys...]",
			   "output field(s): overhead, overhead_children, sample, period, td_* and "
			   "sort keys"),
		{ .type = CLI_OPT_CALLBACK, .short_name = 'g', .long_name = "call-graph", .value = c,
		  .argh = "print_type,threshold[,print_limit],order,sort_key[,branch],value",
		  .help = "graph, flat, fractal, folded or none; threshold; print limit; caller or "
			  "callee; function or address; percent, period or count",
		  .flags = CLI_LASTARG_DEFAULT, .cb = call_graph_cb,
		  .def = "graph,0.5,caller,function,percent" },
		CLI_CALLBACK_NOARG(0, "children", &ro->children,
				   "accumulate callchains of children and show total overhead as well",
				   switch_cb),
		CLI_DOUBLE(0, "percent-limit", &ro->percent_limit, "percent",
			   "don't show entries under that percent"),
		CLI_CALLBACK_NOARG(0, "group", &ro->group, "show event group information together",
				   switch_cb),
		CLI_CALLBACK_NOARG(0, "topdown", &ro->topdown,
				   "TopDown columns for {slots,...,topdown-*} groups (the default)",
				   switch_cb),
		CLI_BOOL('n', "show-nr-samples", &ro->show_nr_samples, "show a column with the number of samples"),
		CLI_BOOL(0, "show-total-period", &ro->show_total_period, "show a column with the sum of periods"),
		CLI_BOOL(0, "show-cpu-utilization", &ro->show_cpu_utilization, "show sample percentage for different cpu modes"),
		CLI_BOOL(0, "inline", &c->inl, "unwound (--call-graph dwarf) frames with their inline frames"),
		CLI_BOOL(0, "full-source-path", &c->full_path, "show full source file name path for source lines"),
		CLI_STRING('p', "parent", &ro->parent, "regex", "regex filter to identify parent"),
		CLI_BOOL('x', "exclude-other", &ro->exclude_other, "only display entries with parent-match"),
		CLI_BOOL('U', "hide-unresolved", &ro->hide_unresolved, "only display entries resolved to a symbol"),
		CLI_STRING(0, "ignore-callees", &ro->ignore_callees, "regex",
			   "ignore callees of these functions in call graphs"),
		CLI_BOOL('G', "inverted", &c->inverted, "alias for inverted call graph"),
		CLI_BOOL(0, "hierarchy", &ro->hierarchy, "show entries in a hierarchy"),
		CLI_CALLBACK(0, "time-quantum", &ro->time_quantum, "time (ms|us|ns|s)",
			     "set time quantum for time sort key (default 100ms)", time_quantum_cb),
		CLI_GROUP(""),
		CLI_STRING('c', "comms", &fo->comms, "comm[,comm...]", "only consider symbols in these comms"),
		CLI_STRING(0, "pid", &fo->pids, "pid[,pid...]", "only consider symbols in these pids"),
		CLI_STRING(0, "tid", &fo->tids, "tid[,tid...]", "only consider symbols in these tids"),
		CLI_STRING('d', "dsos", &fo->dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		CLI_STRING('S', "symbols", &fo->symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		CLI_STRING(0, "symbol-filter", &ro->symbol_filter, "filter",
			   "only show symbols that (partially) match with this filter"),
		CLI_STRING('C', "cpu", &fo->cpus, "cpu", "list of cpus to profile"),
		CLI_STRING(0, "time", &fo->time, "str", "time to display (START,STOP; 10%/1; 0%-10%...)"),
		CLI_CALLBACK(0, "percentage", &ro->filter_relative, "relative|absolute",
			     "how to display percentage of filtered entries", percentage_cb),
		CLI_GROUP(""),
		CLI_BOOL(0, "stats", &c->mode.stats, "display event stats"),
		CLI_BOOL(0, "tasks", &c->mode.tasks, "display recorded tasks"),
		CLI_BOOL(0, "mmaps", &c->mode.mmaps, "display recorded tasks memory maps"),
		CLI_BOOL('D', "dump-raw-trace", &c->mode.dump, "dump raw trace in ASCII"),
		CLI_BOOL('T', "threads", &c->mode.threads, "show per-thread event counters"),
		CLI_END(),
	};
	return cli_opts__parse(argc, argv, opts, "pmukit report [<options>]\n\n"
			       "Print the profile of a perf.data file as perf report --stdio does.", 0);
}

/*
 * What the options imply before the file is read: perf's lone symbol filter argument,
 * --hierarchy's rules, -G, --sort symbol's IPC columns, the input. -1, or the exit status.
 */
static int prepare(struct report_cli *c, int nargs, char **args, char *cg_inv, size_t cg_len,
		   char *sort_ipc, size_t sort_len)
{
	struct pk_report_opts *ro = &c->ro;
	/* perf: one argument left is a symbol filter */
	if (nargs == 1)
		ro->symbol_filter = args[0];
	if (nargs > 1) {
		fprintf(stderr, "pmukit report: unexpected argument '%s'\n", args[0]);
		return 129;
	}
	c->mode.tasks |= c->mode.mmaps;
	ro->time_str = c->fo.time;
	if (c->quiet)
		ro->verbose = 0;	/* perf's perf_quiet_option: -q silences -v, in any order */
	/* perf's --hierarchy: no children, no -F (its usage error, exit status 0 in perf 6.1) */
	if (ro->hierarchy) {
		if (ro->fields) {
			fprintf(stderr, "Error: --hierarchy and --fields options cannot be used together\n");
			return 0;
		}
		if (ro->children == PK_REPORT_ON)	/* off, the order as with it (the library's) */
			ro->children = PK_REPORT_DEFAULT;
	}
	/* perf's -G: caller order, whatever -g said */
	if (c->inverted) {
		snprintf(cg_inv, cg_len, "%s%scaller", c->call_graph ? c->call_graph : "",
			 c->call_graph ? "," : "");
		c->call_graph = cg_inv;
	}
	ro->call_graph = c->call_graph;
	/* perf report: "symbol" in --sort adds the IPC columns (ipc_null without branch stacks) */
	if (ro->sort && strstr(ro->sort, "symbol")) {
		snprintf(sort_ipc, sort_len, "%s,ipc_null", ro->sort);
		ro->sort = sort_ipc;
	}
	if (!c->d.input) {
		struct stat st;
		c->d.input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	return -1;
}

/*
 * What perf checks and prints first: an unknown key name (e.g. sym_size, whose
 * name is symbol_size) is its usage error, with exit status 0 in perf 6.1;
 * then the header (--header, --header-only) or the hint about it.
 * -1 to go on, else the exit status.
 */
static int keys_and_header(const struct report_cli *c, struct pk_session *s,
			   const struct pk_report_opts *ro)
{
	struct pk_error err = { 0 };
	struct pk_report *chk = NULL;
	if (pk_report__new(&chk, NULL, ro, &err) && !strncmp(err.msg, "Unknown --", 10)) {
		fprintf(stderr, "Error:\n%s\n", err.msg);
		return 0;
	}
	pk_report__free(chk);
	if (c->header || c->header_only) {
		if (report_header__fprintf(s, stdout))
			return 255;
		if (c->header_only)
			return fflush(stdout) ? 255 : 0;
	} else if (!c->quiet && !c->mode.stats && !c->mode.tasks && !c->tui) {
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n", stdout);
	}
	return -1;
}

/*
 * perf refuses the parent key and -g on a file recorded without callchains
 * (in that order; exit status 0, as perf 6.1's); not for pipes. -1 to go on,
 * else the exit status.
 */
static int need_callchains(const struct report_cli *c, struct pk_session *s,
			   const struct pk_report_opts *ro)
{
	if (pk_session__is_pipe(s) || pk_session__any_sample_type(s, PERF_SAMPLE_CALLCHAIN))
		return -1;
	/* perf's report__setup_sample_type: the parent key first */
	bool parent = ro->parent || (ro->sort && strstr(ro->sort, "parent")) ||
		      (ro->fields && strstr(ro->fields, "parent"));
	if (parent) {
		fflush(stdout);
		fprintf(stderr, "Error:\nSelected --sort parent, but no callchain data. "
				"Did you call 'perf record' without -g?\n");
		return 0;
	}
	if (c->cg_given && c->call_graph && strncmp(c->call_graph, "none", 1)) {
		fflush(stdout);
		fprintf(stderr, "Error:\nSelected -g or --branch-history.\n"
				"But no callchain or branch data.\n"
				"Did you call 'perf record' without -g or -b?\n");
		return 0;	/* perf 6.1's status too */
	}
	return -1;
}

/*
 * The profile: filtered, processed, printed, then -T's counts (*thread_values:
 * made by the session's on_event as the records go by). The exit status.
 */
static int profile(const struct report_cli *c, struct pk_session *s,
		   const struct pk_report_opts *opts, struct read_values *const *thread_values)
{
	struct pk_report_opts ro = *opts;
	struct pk_sample_filter *flt = NULL;
	int frc = open_filter(s, &c->fo, &flt);
	if (frc >= 0)
		return frc;
	struct pk_error err = { 0 };
	struct pk_report *r = NULL;
	int rc = 255;
	ro.filter = flt;
	struct report_trace tc = { .rd = pk_session__reader(s) };
	ro.trace_output = report_trace__output;
	ro.trace_ctx = &tc;
	if (pk_report__new(&r, s, &ro, &err)) {
		fflush(stdout);
		fprintf(stderr, "Error:\n%s\n", err.msg);
		pk_sample_filter__free(flt);
		return 255;	/* (nothing of tc allocated yet) */
	}
	if (pk_report__fprintf_filters(r, stdout))
		goto out;
	if (frc == -2) {
		fflush(stdout);
		fprintf(stderr, "Error:\nfailed to set cpu bitmap\n");
		rc = 0;
		goto out;
	}
	if (pk_report__process(r, &err) || pk_report__finish(r, &err)) {
		rc = fail("", &err);
		goto out;
	}
	size_t nr_entries = 0;
	for (size_t i = 0; i < pk_report__nr_sections(r); i++)
		nr_entries += pk_report__nr_entries(r, i);
	/*
	 * perf 6.1 sets up --hierarchy's levels for the events it has when it
	 * parses the options: a pipe's come later, levelless, and nothing is added
	 */
	if (ro.hierarchy && pk_session__is_pipe(s))
		nr_entries = 0;
	if (!nr_entries) {
		/* perf: nothing was added (every sample dropped, or none) */
		fflush(stdout);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", c->d.input);
		rc = 0;
		goto out;
	}
	if (c->tui) {
		/* the annotate view (a) reads the file again with report's session options */
		struct tui_annotate_src src = { .input = c->d.input,
			.opts = { .sz = sizeof(src.opts), .flags = c->inl ? 0 : PK_SESSION_NO_INLINE } };
		struct pk_symbolizer_opts so = { .sz = sizeof(so),
			.flags = c->full_path ? PK_SYMBOLIZER_FULL_SRCLINE : 0 };
		cli_data__session_opts(&c->d, &src.opts, &so);
		rc = report_tui__run(r, s, &src);
		goto out;
	}
	if (pk_report__fprintf(r, stdout, PK_REPORT_PRINT_NO_FILTERS |
						 (c->quiet ? PK_REPORT_PRINT_QUIET : 0)))
		goto out;
	if (c->mode.threads)
		read_values__print(*thread_values, s, stdout);
	rc = fflush(stdout) ? 255 : 0;
out:
	pk_report__free(r);
	pk_sample_filter__free(flt);
	report_trace__free(&tc);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_cli c = { .ro = { .sz = sizeof(c.ro) }, .fo = { .sz = sizeof(c.fo) },
				.inl = true };
	char cg_inv[512], sort_ipc[1024];
	cli_data__init(&c.d);
	c.d.input = NULL;	/* none given: stdin when it is a pipe, else perf.data */
	int n = parse_args(argc, argv, &c);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (c.d.vmlinux && access(c.d.vmlinux, R_OK)) {	/* perf's symbol__validate_sym_arguments */
		fprintf(stderr, "Invalid file: %s\n", c.d.vmlinux);
		return 234;
	}
	int prc = prepare(&c, n, argv, cg_inv, sizeof(cg_inv), sort_ipc, sizeof(sort_ipc));
	if (prc >= 0)
		return prc;
	struct pk_report_opts ro = c.ro;
	const char *input = c.d.input;
	struct report_modes mode = c.mode;
	/* perf's setup_browser: the browser on a terminal (tui.h), else the pager unless reading a pipe */
	c.tui = report_tui__want(c.tui, c.stdio || c.header || c.header_only ||
					mode.stats || mode.tasks || mode.dump || mode.threads);
	if (!c.tui && strcmp(input, "-"))
		pager_setup();

	struct pk_error err = { 0 };
	struct pk_symbolizer_opts so = { .sz = sizeof(so),
					 .flags = c.full_path ? PK_SYMBOLIZER_FULL_SRCLINE : 0 };
	struct pk_session_opts o = { .sz = sizeof(o), .flags = c.inl ? 0 : PK_SESSION_NO_INLINE };
	cli_data__session_opts(&c.d, &o, &so);
	struct pk_session *s = NULL;
	struct read_values *thread_values = NULL;
	if (mode.stats && mode.tasks) {
		fprintf(stderr, "Error: --tasks and --mmaps can't be used together with --stats\n");
		return 0;	/* perf 6.1's exit status */
	}
	if (mode.stats || mode.tasks || mode.dump)
		o.flags |= PK_SESSION_NO_SYMBOLS;	/* maps and DSOs only: no symbol is printed */
	if (mode.threads) {
		o.on_event = read_values__on_event;
		o.on_event_ctx = &thread_values;
	}
	if (pk_session__open(&s, input, &o, &err))
		return fail("", &err);
	int rc = keys_and_header(&c, s, &ro);
	if (rc < 0 && (mode.stats || mode.tasks || mode.dump))
		rc = report_modes__run(s, input, &mode, stdout);
	if (rc < 0)
		rc = need_callchains(&c, s, &ro);
	if (rc < 0)
		rc = profile(&c, s, &ro, &thread_values);
	read_values__free(thread_values);
	pk_session__free(s);
	return rc;
}
