/* SPDX-License-Identifier: MIT */
/*
 * cmd-script.c — `pmukit script`: every sample of a perf.data file as perf
 * script prints it (file or pipe, perf's or pmukit's recordings), over the
 * session layer (pmukit/session.h): options, the per-type field check, the
 * loop. The line format is in script-print.c, -F in script-fields.c,
 * tracepoint text in script-trace.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/session.h>

#include "cli-opts.h"
#include "dump.h"
#include "script.h"

int cmd_script(int argc, char **argv);

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
	case PERF_RECORD_NAMESPACES:
		pid = ev->u.namespaces.pid;
		tid = ev->u.namespaces.tid;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_LOST:
	case PERF_RECORD_CGROUP:
		if (ev->has_sample) {
			pid = ev->sample.pid;
			tid = ev->sample.tid;
		}
		break;
	default:
		pid = ev->u.mmap.pid;
		tid = ev->u.mmap.tid;
		break;
	}
	const struct pk_thread *t = tid != -1 ? pk_session__thread(sc->s, pid, tid) : NULL;
	int ai = ev->attr >= 0 ? ev->attr : (pk_data_reader__nr_attrs(r) ? 0 : -1);
	const struct pk_data_attr *a = ai >= 0 ? pk_data_reader__attr(r, (size_t)ai) : NULL;
	/* perf's filter_cpu: the record's cpu, 0 without sample_id_all */
	int32_t cpu = !a ? -1 : a->attr.sample_id_all && ev->has_sample ? (int32_t)ev->sample.cpu : 0;
	if (pk_sample_filter__drop_cpu(sc->filter, cpu))
		return 0;
	if (!sc->name_width)
		sc->name_width = name_width(sc);
	return script__print_sideband(sc, ev, a, t ? t->comm : ":-1", pid, tid, time);
}

/*
 * Before the records of a file (not a pipe): no callchains printed when no
 * event has them; perf's refusal of a -F type none of the events has; each
 * type's fields checked; the callchain defaults; the tracepoint formats.
 */
static int check_file(struct script *sc, struct pk_data_reader *r, size_t *checked)
{
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
	if (check_attrs(sc, checked))
		return -1;
	script_fields__callchain_defaults(sc, r);
	if (pk_data_reader__tracing_data(r, &(size_t){ 0 }))
		(void)script_trace__new(&sc->trace, r);
	return 0;
}

/* The side-band records script prints: --show-task-events, --show-mmap-events... */
static bool is_shown_sideband(const struct script *sc, uint32_t type)
{
	return (sc->show_task && (type == PERF_RECORD_COMM || type == PERF_RECORD_FORK ||
				  type == PERF_RECORD_EXIT)) ||
	       (sc->show_mmap && (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2)) ||
	       (sc->show_switch && (type == PERF_RECORD_SWITCH ||
				    type == PERF_RECORD_SWITCH_CPU_WIDE)) ||
	       (sc->show_ns && type == PERF_RECORD_NAMESPACES) ||
	       (sc->show_lost && type == PERF_RECORD_LOST) ||
	       (sc->show_cgroup && type == PERF_RECORD_CGROUP);
}

/*
 * A sample: filtered, resolved, printed once per delivery. 0 to go on, 1 when
 * resolving failed (err says why), -1 to stop.
 */
static int run_sample(struct script *sc, struct pk_data_reader *r, const struct pk_data_event *ev,
		      struct pk_error *err)
{
	struct pk_resolved rs = { .sz = sizeof(rs) };
	if (pk_sample_filter__drop(sc->filter, ev))
		return 0;	/* --time, -C */
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;	/* perf filters guest samples without --guest */
	const struct pk_data_attr *a = pk_data_reader__attr(r, (size_t)ev->attr);
	uint32_t f = sc->out[script__type(a->attr.type)].fields;
	if (!f)
		return 0;
	unsigned flags = 0;
	if ((f & SF_IP) && sc->use_callchain)
		flags |= PK_RESOLVE_CALLCHAIN;
	if (f & SF_ADDR)
		flags |= PK_RESOLVE_ADDR;
	if (pk_session__resolve(sc->s, ev, flags, &rs, err))
		return 1;
	if (pk_sample_filter__hide(sc->filter, &rs))
		return 0;	/* perf script drops what perf report hides */
	if (!sc->name_width)
		sc->name_width = name_width(sc);
	/* perf delivers a read group's sample once per member whose value moved */
	if (report_stats__add(sc->deliver, sc->s, ev))
		return -1;
	for (size_t i = 0; i < sc->deliver->nr_delivered; i++) {
		const struct report_delivery *d = &sc->deliver->delivered[i];
		struct pk_sample smp = ev->sample;
		smp.id = d->id;
		smp.period = d->period;
		rs.sample = &smp;
		rs.attr = d->attr;
		if (sc->dump) {
			obuf__flush(&sc->ob);
			dump_raw__resolve(sc->dump, ev);
		}
		if (sc->ped && per_event_dump__select(sc->ped, sc, d->attr))
			return -1;
		if (script__print_sample(sc, &rs, pk_data_reader__attr(r, (size_t)d->attr))) {
			obuf__flush(&sc->ob);
			return -1;	/* EPIPE and friends: stop quietly */
		}
	}
	return 0;
}

static int run(struct script *sc)
{
	struct pk_error err = { 0 };
	const struct pk_data_event *ev;
	struct pk_data_reader *r = pk_session__reader(sc->s);
	size_t checked = 0;
	int rc;

	if (!pk_data_reader__is_pipe(r) && check_file(sc, r, &checked))
		return -1;
	while ((rc = pk_session__next(sc->s, &ev, &err)) > 0) {
		if (sc->dump) {
			obuf__flush(&sc->ob);
			dump_raw__event(sc->dump, ev);
		}
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
		if (is_shown_sideband(sc, ev->type)) {
			if (sc->ped)
				per_event_dump__select(sc->ped, sc, -1);
			if (print_sideband(sc, ev))
				return -1;
			continue;
		}
		if (sc->show_round && ev->type == PK_RECORD_FINISHED_ROUND) {
			if (sc->ped)
				per_event_dump__select(sc->ped, sc, -1);
			obuf__flush(&sc->ob);
			fputs("PERF_RECORD_FINISHED_ROUND\n", stdout);
			continue;
		}
		if (ev->type != PERF_RECORD_SAMPLE || ev->attr < 0)
			continue;
		int src = run_sample(sc, r, ev, &err);
		if (src > 0)
			break;
		if (src < 0)
			return -1;
	}
	obuf__flush(&sc->ob);
	if (rc < 0 || err.code) {
		char buf[1024];
		fprintf(stderr, "pmukit script: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

static int fields_cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	if (unset)
		return cli_opts__error(opt, "takes a list of fields");
	return script_fields__parse(opt->value, arg) ? -1 : 0;
}

/* the command line into sc, d, fo and the modes; n >= 0: the arguments left, else CLI_* */
struct script_cli {
	struct cli_data d;
	bool full_path, inl, force, header, header_only, dump, per_event;
};

static int parse_args(int argc, char **argv, struct script *sc, struct script_cli *c,
		      struct pk_sample_filter_opts *fo)
{
	const struct cli_opt opts[] = {
		CLI_DATA_OPTIONS(&c->d),
		CLI_VMLINUX_OPTION(&c->d),
		CLI_CALLBACK('F', "fields", sc, "str",
			     "fields to print: comm,tid,pid,time,cpu,event,trace,ip,sym,symoff,dso,"
			     "addr,period,srcline,misc,weight,phys_addr,brstack,brstacksym; TYPE:LIST "
			     "for one event type (hw, sw, trace, raw, break); +f / -f add or remove",
			     fields_cb),
		CLI_BOOL(0, "full-source-path", &c->full_path, "srclines with the full file path"),
		CLI_BOOL('G', "hide-call-graph", &sc->hide_callchain, "do not print callchains"),
		CLI_BOOL(0, "ns", &sc->ns, "time stamps in nanoseconds"),
		CLI_BOOL(0, "inline", &c->inl, "unwound (--call-graph dwarf) frames with their inline "
			 "frames (the default; --no-inline: without)"),
		CLI_BOOL('f', "force", &c->force, "don't complain, do it"),
		CLI_BOOL(0, "header", &c->header, "the file's header first"),
		CLI_BOOL(0, "header-only", &c->header_only, "the file's header only"),
		CLI_BOOL(0, "show-task-events", &sc->show_task, "COMM, FORK and EXIT records too"),
		CLI_BOOL(0, "show-mmap-events", &sc->show_mmap, "MMAP and MMAP2 records too"),
		CLI_BOOL(0, "show-switch-events", &sc->show_switch, "SWITCH records too"),
		CLI_BOOL(0, "show-namespace-events", &sc->show_ns, "NAMESPACES records too"),
		CLI_BOOL(0, "show-lost-events", &sc->show_lost, "LOST records too"),
		CLI_BOOL(0, "show-cgroup-events", &sc->show_cgroup, "CGROUP records too"),
		CLI_BOOL(0, "show-round-events", &sc->show_round,
			 "FINISHED_ROUND records too (records in file order)"),
		CLI_STRING(0, "time", &fo->time, "str",
			   "only samples in these times: START,STOP (seconds), 10%/1, 10%/1,10%/3, "
			   "0%-10%, 0%-10%,30%-40%"),
		CLI_STRING('C', "cpu", &fo->cpus, "cpu", "only samples (and side-band records) on these CPUs"),
		CLI_STRING('c', "comms", &fo->comms, "comm[,comm...]", "only samples of these comms"),
		CLI_STRING(0, "pid", &fo->pids, "pid[,pid...]", "only samples of these pids"),
		CLI_STRING(0, "tid", &fo->tids, "tid[,tid...]", "only samples of these tids"),
		CLI_STRING('S', "symbols", &fo->symbols, "symbol[,symbol...]",
			   "only samples in these symbols (names or 0xADDR)"),
		CLI_STRING(0, "dsos", &fo->dsos, "dso[,dso...]", "only samples in these DSOs"),
		CLI_BOOL(0, "reltime", &sc->reltime, "times relative to the first sample (--time too)"),
		CLI_BOOL(0, "deltatime", &sc->deltatime, "times relative to the previous sample"),
		CLI_BOOL('D', "dump-raw-trace", &c->dump, "every record in hex and decoded as it is processed"),
		CLI_BOOL(0, "per-event-dump", &c->per_event, "each event's samples to FILE.EVENT.dump"),
		CLI_END(),
	};
	return cli_opts__parse(argc, argv, opts, "pmukit script [<options>]\n\n"
			       "Print the samples of a perf.data file as perf script prints them.", 0);
}

int cmd_script(int argc, char **argv)
{
	struct script sc;
	struct script_cli c = { .inl = true };
	struct pk_sample_filter_opts fo = { .sz = sizeof(fo) };
	memset(&sc, 0, sizeof(sc));
	script_fields__defaults(&sc);
	cli_data__init(&c.d);
	int n = parse_args(argc, argv, &sc, &c, &fo);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (n) {
		fprintf(stderr, "pmukit script: scripts (%s) are not supported\n", argv[0]);
		return 129;
	}
	if (c.d.vmlinux && access(c.d.vmlinux, R_OK)) {	/* perf's symbol__validate_sym_arguments */
		fprintf(stderr, "Invalid file: %s\n", c.d.vmlinux);
		return 255;
	}
	sc.use_callchain = !sc.hide_callchain;
	const char *input = c.d.input;
	int header = c.header_only ? 2 : c.header ? 1 : 0;
	unsigned sym_flags = c.full_path ? PK_SYMBOLIZER_FULL_SRCLINE : 0;
	/* perf 6.1 expands inline frames in unwound callchains only (dwarf) */
	unsigned session_flags = c.inl ? 0 : PK_SESSION_NO_INLINE;
	bool dump = c.dump, per_event = c.per_event;

	if (sc.reltime && sc.deltatime) {
		fprintf(stderr, "reltime and deltatime - the two don't get along well. "
				"Please limit to --reltime or --deltatime.\n");
		return 255;
	}
	fo.reltime = sc.reltime;

	struct pk_symbolizer_opts so = { .sz = sizeof(so), .flags = sym_flags };
	struct pk_session_opts o = { .sz = sizeof(o), .flags = session_flags };
	cli_data__session_opts(&c.d, &o, &so);
	/* perf: --show-round-events processes the records unordered, as stored */
	struct pk_data_reader_opts ro = { .sz = sizeof(ro), .order = PK_DATA_ORDER_FILE,
					  .read_ahead = c.d.jobs != 1 };
	if (sc.show_round)
		o.reader = &ro;
	struct pk_error err = { 0 };
	if (pk_session__open(&sc.s, input, &o, &err)) {
		char buf[1024];
		fprintf(stderr, "pmukit script: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return 255;
	}
	if ((fo.comms || fo.pids || fo.tids || fo.dsos || fo.symbols || fo.cpus || fo.time) &&
	    pk_sample_filter__new(&sc.filter, sc.s, &fo, &err)) {
		/* perf: 0 for the lists, -1 for -C, -EINVAL for --time */
		fprintf(stderr, "%s\n", err.msg);
		struct pk_sample_filter_opts t = fo;
		t.cpus = NULL;
		t.time = NULL;
		struct pk_sample_filter *tf = NULL;
		int rc = 0;
		if (!pk_sample_filter__new(&tf, sc.s, &t, &err)) {
			pk_sample_filter__free(tf);
			t.cpus = fo.cpus;
			rc = pk_sample_filter__new(&tf, sc.s, &t, &err) ? 255 : 234;
			pk_sample_filter__free(tf);
		}
		pk_session__free(sc.s);
		return rc;
	}
	if (obuf__init(&sc.ob, stdout)) {
		pk_sample_filter__free(sc.filter);
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
	struct dump_raw d = { .f = stdout, .s = sc.s, .name = dump_raw__file_name(sc.s, input) };
	struct report_stats deliver = { 0 };
	sc.deliver = &deliver;
	if (dump)
		sc.dump = &d;
	if (per_event && !(sc.ped = per_event_dump__new(sc.s, input))) {
		fprintf(stderr, "Couldn't create the per event dump files\n");
		rc = -1;
	}
	if (header != 2 && !rc)
		rc = run(&sc);
	if (sc.ped)
		per_event_dump__finish(sc.ped, &sc);
	report_stats__free(&deliver);
	obuf__free(&sc.ob);
	script__free_caches(&sc);
	script_trace__free(sc.trace);
	pk_sample_filter__free(sc.filter);
	pk_session__free(sc.s);
	if (fflush(stdout) && !rc)
		rc = -1;
	return rc ? rc & 0xff : 0;
}
