/* SPDX-License-Identifier: MIT */
/*
 * cmd-script.c — `pmukit script`: every sample of a perf.data file as perf
 * script prints it (file or pipe, perf's or pmukit's recordings), over the
 * session layer (pmukit/session.h): options, the per-type field check, the
 * loop. The line format is in script-print.c, -F in script-fields.c,
 * tracepoint text in script-trace.c.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <pmukit/session.h>

#include "script.h"

int cmd_script(int argc, char **argv);

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit script [-i FILE] [-F FIELDS] [--symfs DIR] [options]\n\n"
		"Print the samples of a perf.data file as perf script prints them.\n\n"
		"  -i, --input FILE        perf.data to read (default perf.data; - reads stdin)\n"
		"  -F, --fields LIST       fields to print, as perf: comm,tid,pid,time,cpu,event,\n"
		"                          trace,ip,sym,symoff,dso,addr,period,srcline,misc,\n"
		"                          weight,phys_addr; TYPE:LIST for one event type\n"
		"                          (hw, sw, trace, raw, break); +f / -f add or remove\n"
		"      --symfs DIR         look for binaries and debug files under DIR\n"
		"      --no-demangle       print C++/Rust symbol names as they are in the binary\n"
		"      --full-source-path  srclines with the full file path\n"
		"  -G, --hide-call-graph   do not print callchains\n"
		"      --max-stack N       callchain entries to print (default 127)\n"
		"      --no-inline         unwound (--call-graph dwarf) frames without their\n"
		"                          inline frames\n"
		"      --ns                time stamps in nanoseconds\n"
		"      --header            the file's header first (--header-only: only it)\n"
		"      --show-task-events  COMM, FORK and EXIT records too\n"
		"      --show-mmap-events  MMAP and MMAP2 records too\n"
		"  -j, --threads N         threads for symbol loading (default 2)\n"
		"  -h, --help              this help\n");
}

enum {
	OPT_SYMFS = 0x200, OPT_NO_DEMANGLE, OPT_DEMANGLE, OPT_FULL_PATH, OPT_MAX_STACK, OPT_NS,
	OPT_INLINE, OPT_NO_INLINE, OPT_FORCE, OPT_HEADER, OPT_HEADER_ONLY, OPT_SHOW_TASK,
	OPT_SHOW_MMAP,
};

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "fields", required_argument, NULL, 'F' },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "full-source-path", no_argument, NULL, OPT_FULL_PATH },
	{ "hide-call-graph", no_argument, NULL, 'G' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "ns", no_argument, NULL, OPT_NS },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "force", no_argument, NULL, 'f' },
	{ "threads", required_argument, NULL, 'j' },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "show-task-events", no_argument, NULL, OPT_SHOW_TASK },
	{ "show-mmap-events", no_argument, NULL, OPT_SHOW_MMAP },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Check each attr not checked yet: the first of its output type (perf ignores dummy events). */
static int check_attrs(struct script *sc, size_t *done)
{
	struct pk_data_reader *r = pk_session__reader(sc->s);
	size_t n = pk_data_reader__nr_attrs(r);
	bool has_stat = pk_data_reader__has_feat(r, PK_FEAT_STAT);
	bool has_aux = pk_data_reader__has_feat(r, PK_FEAT_AUXTRACE);
	for (; *done < n; (*done)++) {
		const struct pk_data_attr *a = pk_data_reader__attr(r, *done);
		int t = script__type(a->attr.type);
		if (a->attr.type == PERF_TYPE_SOFTWARE && a->attr.config == PERF_COUNT_SW_DUMMY)
			continue;
		if (sc->checked[t])
			continue;
		sc->checked[t] = true;
		if (pk_data_reader__is_pipe(r) && sc->use_callchain &&
		    (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			/* perf's process_attr: callchain entries need ip and sym */
			if (!(sc->out[t].user_unset_fields & SF_IP))
				sc->out[t].fields |= SF_IP;
			if (!(sc->out[t].user_unset_fields & SF_SYM))
				sc->out[t].fields |= SF_SYM;
		}
		if (script_fields__check(sc, a, pk_session__event_name(sc->s, (int)*done), has_stat,
					 has_aux))
			return -1;
	}
	return 0;
}

static int name_width(struct script *sc)
{
	struct pk_data_reader *r = pk_session__reader(sc->s);
	size_t w = pk_session__aux_name_width(sc->s);	/* perf's AUX decoder's events */
	for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
		const char *n = pk_session__event_name(sc->s, (int)i);
		if (n && strlen(n) > w)
			w = strlen(n);
	}
	return (int)w;
}

/* perf's print_event_with_time: the thread of the record's own pid/tid */
static int print_sideband(struct script *sc, const struct pk_data_event *ev)
{
	struct pk_data_reader *r = pk_session__reader(sc->s);
	int32_t pid = -1, tid = -1;
	uint64_t time = 0;
	switch (ev->type) {
	case PERF_RECORD_COMM:
		pid = ev->u.comm.pid;
		tid = ev->u.comm.tid;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		pid = ev->u.task.pid;
		tid = ev->u.task.tid;
		time = ev->u.task.time;
		break;
	default:
		pid = ev->u.mmap.pid;
		tid = ev->u.mmap.tid;
		break;
	}
	const struct pk_thread *t = tid != -1 ? pk_session__thread(sc->s, pid, tid) : NULL;
	int ai = ev->attr >= 0 ? ev->attr : (pk_data_reader__nr_attrs(r) ? 0 : -1);
	const struct pk_data_attr *a = ai >= 0 ? pk_data_reader__attr(r, (size_t)ai) : NULL;
	if (!sc->name_width)
		sc->name_width = name_width(sc);
	return script__print_sideband(sc, ev, a, t ? t->comm : ":-1", pid, tid, time);
}

static int run(struct script *sc)
{
	struct pk_error err = { 0 };
	const struct pk_data_event *ev;
	struct pk_resolved rs;
	struct pk_data_reader *r = pk_session__reader(sc->s);
	size_t checked = 0;
	int rc;

	if (!pk_data_reader__is_pipe(r)) {
		bool any = false;
		for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++)
			if (pk_data_reader__attr(r, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				any = true;
		if (!any)
			sc->use_callchain = false;
		/* perf: a type given with "-F type:" and nothing else, but no event of it */
		static const char *const tname[] = { "hardware", "software", "tracepoint",
						     "hardware-cache", "unknown", "unknown" };
		for (int t = 0; t < ST_OTHER; t++) {
			if (!sc->out[t].user_set || sc->out[t].wildcard_set || t == ST_SYNTH)
				continue;
			bool have = false;
			for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
				const struct perf_event_attr *at = &pk_data_reader__attr(r, i)->attr;
				if (script__type(at->type) == t &&
				    !(at->type == PERF_TYPE_SOFTWARE && at->config == PERF_COUNT_SW_DUMMY))
					have = true;
			}
			if (!have) {
				fprintf(stderr, "%s events do not exist. "
						"Remove corresponding -F option to proceed.\n", tname[t]);
				return -1;
			}
		}
		if (check_attrs(sc, &checked))
			return -1;
		script_fields__callchain_defaults(sc, r);
		if (pk_data_reader__tracing_data(r, &(size_t){ 0 }))
			(void)script_trace__new(&sc->trace, r);
	}
	while ((rc = pk_session__next(sc->s, &ev, &err)) > 0) {
		if (ev->type == PK_RECORD_HEADER_ATTR) {
			if (check_attrs(sc, &checked)) {
				/* perf: the attr record fails, -EINVAL is the exit status */
				fprintf(stderr, "%#" PRIx64 " [%#x]: failed to process type: %u\n",
					ev->offset, ev->size, ev->type);
				return -EINVAL;
			}
			continue;
		}
		if (ev->type == PK_RECORD_HEADER_FEATURE && sc->header) {
			obuf__flush(&sc->ob);
			pk_session__fprintf_feature(sc->s, stdout, (unsigned)ev->u.feature.feat);
			fflush(stdout);
			continue;
		}
		if (ev->type == PK_RECORD_HEADER_TRACING_DATA && !sc->trace) {
			(void)script_trace__new(&sc->trace, r);
			continue;
		}
		if ((sc->show_task && (ev->type == PERF_RECORD_COMM || ev->type == PERF_RECORD_FORK ||
				       ev->type == PERF_RECORD_EXIT)) ||
		    (sc->show_mmap && (ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2))) {
			if (print_sideband(sc, ev))
				return -1;
			continue;
		}
		if (ev->type != PERF_RECORD_SAMPLE || ev->attr < 0)
			continue;
		uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
			continue;	/* perf filters guest samples without --guest */
		const struct pk_data_attr *a = pk_data_reader__attr(r, (size_t)ev->attr);
		uint32_t f = sc->out[script__type(a->attr.type)].fields;
		if (!f)
			continue;
		unsigned flags = 0;
		if ((f & SF_IP) && sc->use_callchain)
			flags |= PK_RESOLVE_CALLCHAIN;
		if (f & SF_ADDR)
			flags |= PK_RESOLVE_ADDR;
		if (pk_session__resolve(sc->s, ev, flags, &rs, &err))
			break;
		if (!sc->name_width)
			sc->name_width = name_width(sc);
		if (script__print_sample(sc, &rs, a)) {
			obuf__flush(&sc->ob);
			return -1;	/* EPIPE and friends: stop quietly */
		}
	}
	obuf__flush(&sc->ob);
	if (rc < 0 || err.code) {
		char buf[1024];
		fprintf(stderr, "pmukit script: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

int cmd_script(int argc, char **argv)
{
	struct script sc;
	const char *input = NULL, *symfs = NULL;
	unsigned sym_flags = 0, session_flags = 0;
	int nr_threads = 0, c;
	unsigned max_stack = 0;
	int header = 0;
	memset(&sc, 0, sizeof(sc));
	script_fields__defaults(&sc);
	sc.use_callchain = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:F:Gfj:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (script_fields__parse(&sc, optarg))
				return 129;	/* perf's usage exit */
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case OPT_NO_DEMANGLE:
			sym_flags |= PK_SYMBOLIZER_NO_DEMANGLE;
			break;
		case OPT_DEMANGLE:
			sym_flags &= ~PK_SYMBOLIZER_NO_DEMANGLE;
			break;
		case OPT_FULL_PATH:
			sym_flags |= PK_SYMBOLIZER_FULL_SRCLINE;
			break;
		case 'G':
			sc.hide_callchain = true;
			sc.use_callchain = false;
			break;
		case OPT_MAX_STACK:
			max_stack = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case OPT_NS:
			sc.ns = true;
			break;
		case OPT_INLINE:
			session_flags &= ~PK_SESSION_NO_INLINE;
			break;
		case OPT_NO_INLINE:
			/* perf 6.1 expands inline frames in unwound callchains only (dwarf) */
			session_flags |= PK_SESSION_NO_INLINE;
			break;
		case 'f':
			break;
		case 'j':
			nr_threads = atoi(optarg);
			break;
		case OPT_HEADER:
			header = 1;
			break;
		case OPT_SHOW_TASK:
			sc.show_task = true;
			break;
		case OPT_SHOW_MMAP:
			sc.show_mmap = true;
			break;
		case OPT_HEADER_ONLY:
			header = 2;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 129;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmukit script: scripts (%s) are not supported\n", argv[optind]);
		return 129;
	}
	if (!input)
		input = "perf.data";

	struct pk_symbolizer_opts so = { .sz = sizeof(so), .flags = sym_flags };
	struct pk_session_opts o = { .sz = sizeof(o), .flags = session_flags, .symbolizer = &so,
				     .symfs = symfs, .nr_threads = nr_threads, .max_stack = max_stack };
	struct pk_error err = { 0 };
	if (pk_session__open(&sc.s, input, &o, &err)) {
		char buf[1024];
		fprintf(stderr, "pmukit script: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return 255;
	}
	if (obuf__init(&sc.ob, stdout)) {
		pk_session__free(sc.s);
		return 255;
	}
	int rc = 0;
	if (header) {
		/* perf: the header between "# ========" lines, then "#" */
		printf("# ========\n");
		if (pk_session__fprintf_header(sc.s, stdout, &err))
			fprintf(stderr, "pmukit script: %s\n", err.msg);
		printf("# ========\n#\n");
		fflush(stdout);
	}
	sc.header = header != 0;
	if (header != 2)
		rc = run(&sc);
	obuf__free(&sc.ob);
	script__free_caches(&sc);
	script_trace__free(sc.trace);
	pk_session__free(sc.s);
	if (fflush(stdout) && !rc)
		rc = -1;
	return rc ? rc & 0xff : 0;
}
