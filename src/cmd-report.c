/* SPDX-License-Identifier: MIT */
/*
 * cmd-report.c — `pmukit report --stdio`: perf report's text for a
 * perf.data file (file or pipe, perf's or pmukit's recordings), over the
 * session (pmukit/session.h) and the report library (pmukit/report.h):
 * options as perf 6.1 takes them, its header lines and errors.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/report.h>
#include <pmukit/session.h>

#include "cli.h"
#include "pager.h"
#include "report-cli.h"
#include "dump.h"
#include "script.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit report [--stdio] [-i FILE] [options]\n\n"
		"Print the profile of a perf.data file as perf report --stdio does.\n\n"
		"  -i, --input FILE          perf.data to read (default perf.data; - reads stdin)\n"
		"      --stdio               text output (the only one)\n"
		"  -s, --sort KEYS           sort keys: comm, pid, tid, dso, sym, srcline, srcfile,\n"
		"                            parent, symbol_size, time, cpu, local_weight, weight,\n"
		"                            ins_lat, p_stage_cyc, retire_lat (+KEYS: added to\n"
		"                            the default comm,dso,sym); with \"symbol\" the IPC\n"
		"                            columns perf adds (- without branch stacks)\n"
		"  -p, --parent REGEX        the parent key's regex (adds the key; default\n"
		"                            ^sys_|^do_page_fault)\n"
		"  -x, --exclude-other       only entries with a parent\n"
		"  -U, --hide-unresolved     leave out samples and callchain entries without\n"
		"                            a symbol\n"
		"      --full-source-path    srclines and srcfiles with the full file path\n"
		"  -G, --inverted            caller-based call graphs (perf's -g caller)\n"
		"      --ignore-callees REGEX  callchains from the last entry matching REGEX:\n"
		"                            its callees left out, the sample counted there\n"
		"      --hierarchy           entries as a tree, one level per sort key (no\n"
		"                            children)\n"
		"      --time-quantum T      the time key's buckets: N[ns|us|ms|s] (default 100ms)\n"
		"  -F, --fields KEYS         output columns: overhead, overhead_children, sample,\n"
		"                            period, td_* and sort keys\n"
		"  -g, --call-graph [ARGS]   graph|flat|fractal|folded|none, threshold, print\n"
		"                            limit, caller|callee, function|address, percent|\n"
		"                            period|count (default graph,0.5,caller with children)\n"
		"      --children            cumulative (Children) values (the default)\n"
		"      --no-children         self values only\n"
		"      --percent-limit N     hide entries (and callchains) under N%%\n"
		"      --group               group members side by side (the default for groups)\n"
		"      --no-group            one section per event\n"
		"      --no-topdown          no TopDown columns for {slots,...,topdown-*} groups\n"
		"  -n, --show-nr-samples     a Samples column\n"
		"      --show-total-period   a Period column\n"
		"      --show-cpu-utilization  sys and usr columns\n"
		"      --header              the file's header before the report\n"
		"      --header-only         the file's header only\n"
		"  -q, --quiet               no header lines\n"
		"      --symfs DIR           look for binaries and debug files under DIR\n"
		"      --no-demangle         C++/Rust symbol names as in the binary\n"
		"      --max-stack N         callchain entries used (default 127)\n"
		"      --no-inline           unwound (--call-graph dwarf) frames without their\n"
		"                            inline frames\n"
		"  -c, --comms LIST          only samples of these comms (others hidden)\n"
		"      --pid LIST            only samples of these pids\n"
		"      --tid LIST            only samples of these tids\n"
		"  -d, --dsos LIST           only samples in these DSOs\n"
		"  -S, --symbols LIST        only samples in these symbols (names or 0xADDR)\n"
		"      --symbol-filter STR   only entries whose symbol contains STR (also the\n"
		"                            one argument after the options, as in perf)\n"
		"  -C, --cpu LIST            only samples on these CPUs (\"0-2,5\")\n"
		"      --time RANGES         only samples in these times: START,STOP (seconds),\n"
		"                            10%%/1, 10%%/1,10%%/3, 0%%-10%%, 0%%-10%%,30%%-40%%\n"
		"      --percentage relative|absolute\n"
		"                            percentages of the shown entries, or of all\n"
		"                            (absolute, the default)\n"
		"  -j, --threads N           threads for symbols and srclines (default 2)\n"
		"  -j, --jobs N              threads for symbols and srclines (default 2)\n"
		"      --stats               counts of each record type and of each event's samples\n"
		"      --tasks               the threads of the recording as a tree (pid, tid, ppid)\n"
		"      --mmaps               --tasks with each process's maps\n"
		"  -D, --dump-raw-trace      every record in hex and decoded, then --stats\n"
		"  -T, --threads             per-thread values of PERF_RECORD_READ (record -s)\n"
		"  -h, --help                this help\n");
}

enum {
	OPT_STDIO = 0x200, OPT_CHILDREN, OPT_NO_CHILDREN, OPT_PERCENT_LIMIT, OPT_GROUP,
	OPT_NO_GROUP, OPT_HEADER, OPT_HEADER_ONLY, OPT_SYMFS, OPT_NO_DEMANGLE, OPT_MAX_STACK,
	OPT_TOTAL_PERIOD, OPT_CPU_UTIL, OPT_TOPDOWN, OPT_NO_TOPDOWN, OPT_TUI, OPT_CALL_GRAPH,
	OPT_NO_CALL_GRAPH, OPT_INLINE, OPT_NO_INLINE, OPT_PID, OPT_TID, OPT_SYMBOL_FILTER, OPT_TIME,
	OPT_PERCENTAGE, OPT_STATS, OPT_TASKS, OPT_MMAPS, OPT_FULL_PATH, OPT_TIME_QUANTUM,
	OPT_IGNORE_CALLEES, OPT_HIERARCHY,
};

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "gtk", no_argument, NULL, OPT_TUI },
	{ "sort", required_argument, NULL, 's' },
	{ "fields", required_argument, NULL, 'F' },
	{ "call-graph", optional_argument, NULL, OPT_CALL_GRAPH },
	{ "no-call-graph", no_argument, NULL, OPT_NO_CALL_GRAPH },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "no-group", no_argument, NULL, OPT_NO_GROUP },
	{ "topdown", no_argument, NULL, OPT_TOPDOWN },
	{ "no-topdown", no_argument, NULL, OPT_NO_TOPDOWN },
	{ "show-nr-samples", no_argument, NULL, 'n' },
	{ "show-total-period", no_argument, NULL, OPT_TOTAL_PERIOD },
	{ "show-cpu-utilization", no_argument, NULL, OPT_CPU_UTIL },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "quiet", no_argument, NULL, 'q' },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "comms", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "dsos", required_argument, NULL, 'd' },
	{ "symbols", required_argument, NULL, 'S' },
	{ "symbol-filter", required_argument, NULL, OPT_SYMBOL_FILTER },
	{ "cpu", required_argument, NULL, 'C' },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "jobs", required_argument, NULL, 'j' },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "tasks", no_argument, NULL, OPT_TASKS },
	{ "mmaps", no_argument, NULL, OPT_MMAPS },
	{ "dump-raw-trace", no_argument, NULL, 'D' },
	{ "threads", no_argument, NULL, 'T' },
	{ "parent", required_argument, NULL, 'p' },
	{ "exclude-other", no_argument, NULL, 'x' },
	{ "hide-unresolved", no_argument, NULL, 'U' },
	{ "full-source-path", no_argument, NULL, OPT_FULL_PATH },
	{ "time-quantum", required_argument, NULL, OPT_TIME_QUANTUM },
	{ "ignore-callees", required_argument, NULL, OPT_IGNORE_CALLEES },
	{ "inverted", no_argument, NULL, 'G' },
	{ "hierarchy", no_argument, NULL, OPT_HIERARCHY },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* tracepoint text for the trace sort key, through pmukit script's libtraceevent setup */
struct trace_ctx {
	struct pk_data_reader *rd;
	struct script_trace *t;
	struct obuf ob;		/* 1 MiB: a record's text always fits */
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
	const struct pk_data_attr *a = rs->data_attr;
	c->ob.buf.len = 0;
	/* perf's get_trace_output leaves the record's cpu 0 */
	if (!a || !script_trace__print(c->t, a->attr.config, 0, rs->sample->raw.data,
				       rs->sample->raw.size, &c->ob) || c->ob.buf.len >= c->ob.buf.cap)
		return NULL;
	return pk_buf__str(&c->ob.buf);
}

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

/* perf's -g takes the next argument unless it is the last or an option */
static int take_call_graph_arg(int argc, char **argv, const char **arg)
{
	if (optind < argc && argv[optind][0] != '-') {
		*arg = argv[optind++];
		return 1;
	}
	*arg = NULL;
	return 0;
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

int cmd_report(int argc, char **argv)
{
	const char *input = NULL, *symfs = NULL, *call_graph = NULL;
	bool header = false, header_only = false, quiet = false, cg_given = false;
	unsigned sym_flags = 0, max_stack = 0, session_flags = 0;
	int nr_threads = 0, c;
	struct report_modes mode = { 0 };
	bool inverted = false;
	struct pk_report_opts ro = { .sz = sizeof(ro) };
	struct pk_sample_filter_opts fo = { .sz = sizeof(fo) };
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:F:g::nqj:fDThc:d:S:C:p:xUG", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			fo.comms = optarg;
			break;
		case OPT_PID:
			fo.pids = optarg;
			break;
		case OPT_TID:
			fo.tids = optarg;
			break;
		case 'd':
			fo.dsos = optarg;
			break;
		case 'S':
			fo.symbols = optarg;
			break;
		case 'C':
			fo.cpus = optarg;
			break;
		case OPT_TIME:
			fo.time = ro.time_str = optarg;
			break;
		case OPT_SYMBOL_FILTER:
			ro.symbol_filter = optarg;
			break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute")) {
				usage(stderr);
				return 129;
			}
			ro.filter_relative = !strcmp(optarg, "relative");
			break;
		case 'i':
			input = optarg;
			break;
		case OPT_STDIO:
			break;
		case OPT_TUI:
			fprintf(stderr, "pmukit report: only --stdio output is available\n");
			return 129;
		case 's':
			ro.sort = optarg;
			break;
		case 'F':
			ro.fields = optarg;
			break;
		case 'g':
		case OPT_CALL_GRAPH:
			cg_given = true;
			call_graph = optarg;
			if (!call_graph)
				take_call_graph_arg(argc, argv, &call_graph);
			if (!call_graph)
				call_graph = "graph,0.5,caller,function,percent";	/* perf's default -g */
			break;
		case OPT_NO_CALL_GRAPH:
			call_graph = "none";
			break;
		case OPT_CHILDREN:
			ro.children = PK_REPORT_ON;
			break;
		case OPT_NO_CHILDREN:
			ro.children = PK_REPORT_OFF;
			break;
		case OPT_PERCENT_LIMIT:
			ro.percent_limit = strtof(optarg, NULL);
			break;
		case OPT_GROUP:
			ro.group = PK_REPORT_ON;
			break;
		case OPT_NO_GROUP:
			ro.group = PK_REPORT_OFF;
			break;
		case OPT_TOPDOWN:
			ro.topdown = PK_REPORT_ON;
			break;
		case OPT_NO_TOPDOWN:
			ro.topdown = PK_REPORT_OFF;
			break;
		case 'n':
			ro.show_nr_samples = true;
			break;
		case OPT_TOTAL_PERIOD:
			ro.show_total_period = true;
			break;
		case OPT_CPU_UTIL:
			ro.show_cpu_utilization = true;
			break;
		case OPT_HEADER:
			header = true;
			break;
		case OPT_HEADER_ONLY:
			header_only = true;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case OPT_NO_DEMANGLE:
			sym_flags |= PK_SYMBOLIZER_NO_DEMANGLE;
			break;
		case OPT_INLINE:
			session_flags &= ~PK_SESSION_NO_INLINE;
			break;
		case OPT_NO_INLINE:
			session_flags |= PK_SESSION_NO_INLINE;
			break;
		case OPT_MAX_STACK:
			max_stack = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'j':
			nr_threads = atoi(optarg);
			break;
		case 'f':
			break;
		case OPT_STATS:
			mode.stats = true;
			break;
		case OPT_TASKS:
			mode.tasks = true;
			break;
		case OPT_MMAPS:
			mode.tasks = mode.mmaps = true;
			break;
		case 'D':
			mode.dump = true;
			break;
		case 'T':
			mode.threads = true;
			break;
		case 'p':
			ro.parent = optarg;
			break;
		case 'x':
			ro.exclude_other = true;
			break;
		case 'U':
			ro.hide_unresolved = true;
			break;
		case OPT_IGNORE_CALLEES:
			ro.ignore_callees = optarg;
			break;
		case OPT_HIERARCHY:
			ro.hierarchy = true;
			break;
		case 'G':
			inverted = true;
			break;
		case OPT_TIME_QUANTUM:
			if (parse_time_quantum(optarg, &ro.time_quantum))
				return 129;
			break;
		case OPT_FULL_PATH:
			sym_flags |= PK_SYMBOLIZER_FULL_SRCLINE;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 129;
		}
	}
	/* perf: one argument left is a symbol filter */
	if (optind + 1 == argc)
		ro.symbol_filter = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "pmukit report: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 129;
	}
	/* perf's --hierarchy: no children, no -F (its usage error, exit status 0 in perf 6.1) */
	if (ro.hierarchy) {
		if (ro.fields) {
			fprintf(stderr, "Error: --hierarchy and --fields options cannot be used together\n");
			return 0;
		}
		ro.children = PK_REPORT_OFF;
	}
	/* perf's -G: caller order, whatever -g said */
	char cg_inv[512];
	if (inverted) {
		snprintf(cg_inv, sizeof(cg_inv), "%s%scaller", call_graph ? call_graph : "",
			 call_graph ? "," : "");
		call_graph = cg_inv;
	}
	ro.call_graph = call_graph;
	/* perf report: "symbol" in --sort adds the IPC columns (ipc_null without branch stacks) */
	char sort_ipc[1024];
	if (ro.sort && strstr(ro.sort, "symbol")) {
		snprintf(sort_ipc, sizeof(sort_ipc), "%s,ipc_null", ro.sort);
		ro.sort = sort_ipc;
	}
	if (!input) {
		struct stat st;
		input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	/* perf's setup_browser: the pager on a terminal, unless reading a pipe */
	if (strcmp(input, "-"))
		pager_setup();

	struct pk_error err = { 0 };
	struct pk_symbolizer_opts so = { .sz = sizeof(so), .flags = sym_flags };
	struct pk_session_opts o = { .sz = sizeof(o), .flags = session_flags, .symbolizer = &so,
				     .symfs = symfs, .nr_threads = nr_threads, .max_stack = max_stack };
	struct pk_session *s = NULL;
	struct pk_report *r = NULL;
	struct read_values *thread_values = NULL;
	int rc = 255;
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
	struct pk_data_reader *rd = pk_session__reader(s);
	/*
	 * perf checks the key names before it prints anything: an unknown one (e.g. sym_size,
	 * whose name is symbol_size) is its usage error, with exit status 0 in perf 6.1
	 */
	struct pk_report *chk = NULL;
	if (pk_report__new(&chk, NULL, &ro, &err) && !strncmp(err.msg, "Unknown --", 10)) {
		fprintf(stderr, "Error:\n%s\n", err.msg);
		pk_session__free(s);
		return 0;
	}
	pk_report__free(chk);
	err = (struct pk_error){ 0 };
	if (header || header_only) {
		if (report_header__fprintf(s, stdout)) {
			pk_session__free(s);
			return 255;
		}
		if (header_only) {
			pk_session__free(s);
			return fflush(stdout) ? 255 : 0;
		}
	} else if (!quiet && !mode.stats && !mode.tasks) {
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n", stdout);
	}
	if (mode.stats || mode.tasks || mode.dump) {
		rc = report_modes__run(s, input, &mode, stdout);
		pk_session__free(s);
		return rc;
	}
	/* perf refuses -g on a file recorded without callchains (not for pipes) */
	if (cg_given && call_graph && strncmp(call_graph, "none", 1) && !pk_session__is_pipe(s)) {
		if (!pk_session__any_sample_type(s, PERF_SAMPLE_CALLCHAIN)) {
			fflush(stdout);
			fprintf(stderr, "Error:\nSelected -g or --branch-history.\n"
					"But no callchain or branch data.\n"
					"Did you call 'perf record' without -g or -b?\n");
			pk_session__free(s);
			return 255;
		}
	}
	/* ... and the parent key without callchains (exit status 0, as perf 6.1's) */
	bool parent = ro.parent || (ro.sort && strstr(ro.sort, "parent")) ||
		      (ro.fields && strstr(ro.fields, "parent"));
	if (parent && !pk_session__is_pipe(s)) {
		if (!pk_session__any_sample_type(s, PERF_SAMPLE_CALLCHAIN)) {
			fflush(stdout);
			fprintf(stderr, "Error:\nSelected --sort parent, but no callchain data. "
					"Did you call 'perf record' without -g?\n");
			pk_session__free(s);
			return 0;
		}
	}
	struct pk_sample_filter *flt = NULL;
	int frc = open_filter(s, &fo, &flt);
	if (frc >= 0) {
		pk_session__free(s);
		return frc;
	}
	ro.filter = flt;
	struct trace_ctx tc = { .rd = rd };
	ro.trace_output = trace_output;
	ro.trace_ctx = &tc;
	if (pk_report__new(&r, s, &ro, &err)) {
		fflush(stdout);
		fprintf(stderr, "Error:\n%s\n", err.msg);
		pk_session__free(s);
		pk_sample_filter__free(flt);
		return 255;	/* (nothing of tc allocated yet) */
	}
	if (pk_report__fprintf_filters(r, stdout)) {
		rc = 255;
		goto out;
	}
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
	if (!nr_entries) {
		/* perf: nothing was added (every sample dropped, or none) */
		fflush(stdout);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
		rc = 0;
		goto out;
	}
	if (pk_report__fprintf(r, stdout, PK_REPORT_PRINT_NO_FILTERS |
						 (quiet ? PK_REPORT_PRINT_QUIET : 0))) {
		rc = 255;
		goto out;
	}
	if (mode.threads)
		read_values__print(thread_values, s, stdout);
	rc = fflush(stdout) ? 255 : 0;
out:
	read_values__free(thread_values);
	pk_report__free(r);
	pk_session__free(s);
	pk_sample_filter__free(flt);
	script_trace__free(tc.t);
	if (tc.ob.buf.data) {
		tc.ob.buf.len = 0;	/* obuf__free writes what is left: nothing here */
		obuf__free(&tc.ob);
	}
	return rc;
}
