/* SPDX-License-Identifier: MIT */
/*
 * cmd-record.c — `pmukit record`: perf record's options over the recording
 * library (pmukit/record.h) and the perf.data writer (pmukit/data_write.h).
 * A command alone runs with its events enabled at exec (perf names it
 * perf-exec until then, in a COMM); with -a/-C/-p/-t/-u the command only sets
 * how long; without one they (or nothing: system-wide, as perf) record until
 * Ctrl-C. The side-band perf synthesizes (kernel map, running tasks) goes
 * first; each pass over the ring buffers ends with FINISHED_ROUND; DSOs that
 * got samples give BUILD_ID. Ctrl-C, SIGTERM, the workload's end,
 * --max-size and a write error all finish a readable file; --switch-output
 * finishes one and starts the next (record-switch.c names them).
 *
 * The command line is record-args.c's; the options that change the attrs
 * are in record-opts.c (shared with explain); the output file, its writer
 * and side-band, and --switch-output's rotation are record-out.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include <pmukit/count.h>
#include <pmukit/data_write.h>
#include <pmukit/record.h>
#include <pmukit/spec.h>

#include "cli.h"
#include "record.h"
#include "evspec/attr_json.h"

#define PROG "pmukit record"

/* ---- signals: the CLI's state (the library has none) ---- */

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t switch_req;	/* --switch-output: SIGUSR2 or SIGALRM */
static volatile sig_atomic_t child_exited;
static int wake_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;
	if (sig == SIGCHLD)
		child_exited = 1;
	else if (sig == SIGUSR2 || sig == SIGALRM)
		switch_req = 1;
	else
		got_signal = sig;
	if (wake_pipe[1] >= 0 && write(wake_pipe[1], "x", 1) < 0) {
		/* full: a wake-up is pending anyway */
	}
	errno = saved;
}

static int signals_install(void)
{
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK))
		return -1;
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe (-o -) is a write error, not death */
	return 0;
}

static void wake_drain(void)
{
	char buf[64];
	while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

/* ---- events ---- */

static int build_evlist(struct pk_evlist **out, struct rec_cfg *cfg, struct cli_env *env,
			const char *const *specs, size_t nr, size_t *filter_ev)
{
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_opts so = cfg->spec;
	so.sz = sizeof(so);
	so.mode = PK_SPEC_RECORD;
	so.cat = env->cat;
	so.model = env->have_model ? env->model : PK_NO_MODEL;
	so.pmus = env->pmus;
	*out = NULL;
	if (!el) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	for (size_t s = 0; s < nr; s++) {
		struct pk_spec_error err = { 0 };
		if (pk_evlist__add(el, specs[s], &so, &err)) {
			char msg[4096];
			fprintf(stderr, PROG ": invalid event specification\n%s\n",
				pk_spec_error__format(&err, specs[s], msg, sizeof(msg)));
			pk_evlist__free(el);
			return -1;
		}
		/* --filter: on the spec's last event, a tracepoint (perf's --filter checks so) */
		size_t last = pk_evlist__nr(el) - 1;
		if (filter_ev && cfg->filters[s]) {
			if (pk_evlist__evsel(el, last)->attr.type != PERF_TYPE_TRACEPOINT) {
				fprintf(stderr, "This CPU does not support address filtering\n");
				pk_evlist__free(el);
				return -2;
			}
			filter_ev[s] = last;
		}
	}
	*out = el;
	return 0;
}

/* -v: each event as opened, one JSON object a line. */
static void print_attrs(const struct pk_record *r)
{
	for (size_t i = 0; i < pk_record__nr_events(r); i++) {
		struct pk_record_event ev;
		json_object *a = NULL;
		if (pk_record__event(r, i, &ev) || attr_json__to_object(ev.attr, &a))
			continue;
		json_object *o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(ev.name ? ev.name : ""));
		json_object_object_add(o, "leader", json_object_new_int((int)ev.leader));
		json_object_object_add(o, "fds", json_object_new_int((int)ev.nr_ids));
		json_object_object_add(o, "attr", a);
		fprintf(stderr, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
}

/*
 * --sysfs names a tree the events were encoded against; the kernel opens
 * them by this machine's PMU types. Every PMU an event names must be this
 * machine's, with the same type, or the attrs mean something else here.
 */
static int check_tree(const struct pk_evlist *el, const char *sysfs)
{
	struct pk_pmu_tree *real = NULL;
	int ret = 0;
	if (pk_pmu_tree__open(&real, NULL, NULL))
		real = NULL;
	for (size_t i = 0; i < pk_evlist__nr(el) && !ret; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		if (!e->pmu)
			continue;
		const struct pk_pmu *p = real ? pk_pmu_tree__find(real, e->pmu) : NULL;
		char feat[768];
		if (p && pk_pmu__type(p) == (e->attr.type >= PERF_TYPE_MAX ? e->attr.type
						: pk_pmu__type(p)))
			continue;
		pk_record__features(&e->attr, e->acr_mask, feat, sizeof(feat));
		fprintf(stderr, PROG ": %s: PMU '%s' of --sysfs %s is not this machine's (%s): "
			"events can only be recorded on the PMUs this kernel has%s\n",
			e->name, e->pmu, sysfs, p ? "another type here" : "none here", feat);
		ret = -1;
	}
	pk_pmu_tree__free(real);
	return ret;
}

/*
 * Software and tool events alone encode the same without the tables and the
 * PMU tree (not reading them is start-up time: `make bench`, record_startup_*),
 * unless the machine is hybrid: then perf record adds its tracking dummy, which the
 * encoder learns from the tree. pk_spec__needs_context answers for stat;
 * record differs from it only by that dummy.
 */
static bool needs_env(const struct rec_cfg *cfg, const struct cli_env *env)
{
	if (!cfg->nr_specs || env->sysfs || env->cpuid || env->events_dir)
		return true;
	if (!access("/sys/bus/event_source/devices/cpu_core", F_OK) ||
	    !access("/sys/bus/event_source/devices/cpu_atom", F_OK))
		return true;
	for (size_t i = 0; i < cfg->nr_specs; i++)
		if (pk_spec__needs_context(cfg->specs[i], PK_SPEC_STAT))
			return true;
	return false;
}

/* -C: every CPU must be online (perf cannot set up its data streams otherwise); 0 or -1 (said) */
static int offline_cpu(const struct pk_cpu_map *cpus)
{
	struct pk_cpu_map *online = NULL;
	struct pk_error err = { 0 };
	if (pk_cpu_map__online(NULL, &online, &err))
		return 0;	/* not known: the open says */
	int rc = 0;
	for (size_t i = 0; i < pk_cpu_map__nr(cpus) && !rc; i++) {
		int cpu = pk_cpu_map__cpu(cpus, i);
		if (pk_cpu_map__idx(online, cpu) < 0) {
			fprintf(stderr, PROG ": -C: CPU %d is not online\n", cpu);
			rc = -1;
		}
	}
	pk_cpu_map__free(online);
	return rc;
}

/* What a wait status means as an exit code. */
static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/* What one recording's loop works on and finds. */
struct run {
	struct rec_cfg *cfg;
	struct pk_record *r;
	struct pk_workload *wl;
	struct rec_out *o;
	const pid_t *tids;
	size_t nr_tids;
	int argc;
	char **argv;
	int status;		/* the workload's wait status, with have_status */
	bool have_status, stopped, size_limit;
	unsigned long wakeups;
};

/*
 * Drain, write, rotate (--switch-output), and wait for the kernel's wake-ups
 * until a signal, the workload's end, the targets' end or --max-size.
 */
static void run_loop(struct run *u)
{
	struct rec_cfg *cfg = u->cfg;
	struct rec_out *o = u->o;
	struct pk_record *r = u->r;
	struct pk_workload *wl = u->wl;
	struct pk_error err = { 0 };
	bool done = false, hup = false;
	while (!done) {
		long long n = pk_record__drain(r, record_out_sink, o, &err);
		if (n < 0)
			break;
		if (n > 0 && pk_data_writer__finished_round(o->w, &o->err)) {
			o->failed = true;
			break;
		}
		if (cfg->sw.enabled && (switch_req || (cfg->sw.size &&
		    pk_data_writer__file_bytes(o->w) >= cfg->sw.size))) {
			switch_req = 0;
			if (record_out_switch(o, r, cfg, u->tids, u->nr_tids, wl ? pk_workload__pid(wl) : -1,
					  u->argc, u->argv, false)) {
				o->failed = true;
				break;
			}
		}
		if (cfg->max_size && pk_data_writer__file_bytes(o->w) >= cfg->max_size) {
			if (!cfg->quiet)
				fprintf(stderr, "[ perf record: perf size limit reached (%" PRIu64 " KB), "
					"stopping session ]\n", pk_data_writer__file_bytes(o->w) >> 10);
			u->size_limit = true;
			break;
		}
		if (got_signal) {
			u->stopped = true;
			break;
		}
		if (wl && child_exited) {
			child_exited = 0;
			if (pk_workload__wait(wl, !hup, &u->status) == 1) {
				u->have_status = true;
				break;
			}
		}
		int p = pk_record__poll(r, -1, wake_pipe[0]);
		u->wakeups++;	/* perf counts every return of its poll */
		if (p == PK_RECORD_WAKE)
			wake_drain();
		else if (p == PK_RECORD_HUP && (!wl || cfg->spec.task_target))
			done = true;	/* every task recorded is gone (-p, -t) */
		else if (p == PK_RECORD_HUP)
			child_exited = hup = true;	/* it has exited: reap it (a blocking wait) */
	}
}

/* One `pmukit record`: what its steps set up, and the exit status so far. */
struct rec {
	struct rec_cfg cfg;
	struct cli_env env;
	struct pk_evlist *el;
	struct pk_record *r;
	struct pk_workload *wl;
	struct pk_cpu_map *cpus;
	pid_t *tids;
	size_t nr_tids;
	size_t *filter_ev;	/* --filter: the event of each spec's filter */
	char *uid_list;		/* -u: its processes as a -p list */
	struct rec_out o;
	struct pk_error err;
	int pipe_fd;		/* -o -: stdout, moved away from the command's output */
	int argc;
	char **argv;
	int ret;		/* the exit status */
	int target_rc;		/* perf 6.1's exit status when the step at hand fails */
	bool follow_wl;		/* the events follow the workload alone (enabled at its exec) */
};

/* A step failed in the library: its message, perf 6.1's exit status for the step. -1. */
static int target_error(struct rec *s)
{
	char ebuf[1024];
	fprintf(stderr, PROG ": %s\n", pk_error__format(&s->err, ebuf, sizeof(ebuf)));
	s->ret = s->target_rc;
	return -1;
}

/* Writing failed: said, and the header written for what reached the file. -1. */
static int write_error(struct rec *s, int rc)
{
	fprintf(stderr, PROG ": writing %s: %s; recording stopped\n",
		s->o.path ? s->o.path : "stdout", s->o.err.msg[0] ? s->o.err.msg : strerror(-rc));
	if (s->o.w)
		pk_data_writer__finish(s->o.w, NULL);
	s->ret = 1;
	return -1;
}

/* The command line, the tables and PMU tree if the events need them, the events. */
static int rec_setup(struct rec *s)
{
	struct rec_cfg *cfg = &s->cfg;
	size_t n = (size_t)s->argc + 1;
	cfg->specs = calloc(n, sizeof(*cfg->specs));
	cfg->filters = calloc(n, sizeof(*cfg->filters));
	s->filter_ev = calloc(n, sizeof(*s->filter_ev));
	if (!cfg->specs || !cfg->filters || !s->filter_ev)
		return -1;
	int prc = record_parse_args(s->argc, s->argv, cfg, &s->env);
	if (prc) {
		/* --help, or perf's statuses for a bad command line */
		s->ret = prc == 1 ? 0 : prc == -2 ? 234 : 129;
		return -1;
	}
	if (record_check_args(cfg) || signals_install())
		return -1;
	if (needs_env(cfg, &s->env)) {
		if (cli_env__open(&s->env, PROG))
			return -1;
		cli_env__add_missing_core(&s->env);
	}
	/* perf's default event: cycles at the most precise level the PMU takes */
	static const char *const cycles = "cycles:P";
	int brc = build_evlist(&s->el, cfg, &s->env, cfg->nr_specs ? cfg->specs : &cycles,
			       cfg->nr_specs ? cfg->nr_specs : 1, cfg->nr_specs ? s->filter_ev : NULL);
	if (brc) {
		s->ret = brc == -2 ? 129 : 1;
		return -1;
	}
	if (s->env.sysfs && check_tree(s->el, s->env.sysfs))
		return -1;
	return 0;
}

/* The target's CPUs and threads; perf 6.1's exit statuses when it cannot make its maps. */
static int rec_target(struct rec *s)
{
	struct rec_cfg *cfg = &s->cfg;
	s->target_rc = 237;
	if (cfg->cpu_list && pk_cpu_map__parse(&s->cpus, cfg->cpu_list, &s->err))
		return target_error(s);
	if (s->cpus && offline_cpu(s->cpus)) {
		s->ret = s->target_rc;
		return -1;
	}
	s->target_rc = 244;
	if (cfg->pid_list && pk_threads__from_pids(cfg->pid_list, NULL, &s->tids, &s->nr_tids, &s->err))
		return target_error(s);
	s->target_rc = 255;
	if (cfg->tid_list && pk_threads__parse(cfg->tid_list, NULL, &s->tids, &s->nr_tids, &s->err))
		return target_error(s);
	bool no_user = false;
	if (cfg->uid && !(s->uid_list = record_uid_pids(cfg->uid, &no_user))) {
		if (no_user)	/* perf's words */
			fprintf(stderr, "Error:\nInvalid User: %s\n", cfg->uid);
		else
			fprintf(stderr, PROG ": -u %s: no process of that user runs\n", cfg->uid);
		return -1;
	}
	if (s->uid_list && pk_threads__from_pids(s->uid_list, NULL, &s->tids, &s->nr_tids, &s->err))
		return target_error(s);
	return 0;
}

/* The workload (not yet running), the events opened, their filters. */
static int rec_open(struct rec *s)
{
	struct rec_cfg *cfg = &s->cfg;
	/*
	 * -o -: the data goes to the pipe on stdout; the command's own output goes
	 * to stderr, as perf arranges it, so that it cannot corrupt the stream.
	 */
	bool to_pipe = cfg->output && !strcmp(cfg->output, "-");
	if (to_pipe && ((s->pipe_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0 ||
			dup2(STDERR_FILENO, STDOUT_FILENO) < 0)) {
		fprintf(stderr, PROG ": -o -: %s\n", strerror(errno));
		return -1;
	}
	if (cfg->argv && pk_workload__start(&s->wl, cfg->argv, &s->err))
		return target_error(s);
	struct pk_record_opts ro = {
		.sz = sizeof(ro), .pid = s->wl ? pk_workload__pid(s->wl) : -1, .tids = s->tids,
		.nr_tids = s->nr_tids, .cpus = s->cpus, .cpu_list = s->cpus != NULL,
		.pmus = s->env.pmus, .mmap_pages = cfg->mmap_pages, .cycles_fallback = true,
	};
	if (cfg->spec.system_wide)
		ro.pid = -1;
	int rc = pk_record__open(&s->r, s->el, &ro, &s->err);
	if (!rc && pk_record__fallbacks(s->r) && cfg->verbose)	/* perf says so only with -v */
		fprintf(stderr, "Warning:\nThe cycles event is not supported, trying to fall back "
			"to cpu-clock-ticks\n");
	if (rc == -EOPNOTSUPP && cfg->spec.branch_stack) {
		/* perf's words when the kernel has no branch stack for the event */
		fprintf(stderr, "Error:\n%s: PMU Hardware or event type doesn't support branch stack "
			"sampling.\n", pk_evlist__evsel(s->el, 0)->name);
		s->ret = 255;
		return -1;
	}
	if (rc)
		return target_error(s);
	for (size_t i = 0; i < cfg->nr_specs; i++)
		if (cfg->filters[i] && pk_record__set_filter(s->r, s->filter_ev[i], cfg->filters[i],
							     &s->err)) {
			fprintf(stderr, "%s\n", s->err.msg);
			s->ret = 255;
			return -1;
		}
	if (cfg->verbose)
		print_attrs(s->r);
	return 0;
}

/* The output: the file (or pipe), its header and attrs, the side-band of what ran before. */
static int rec_output(struct rec *s)
{
	struct rec_cfg *cfg = &s->cfg;
	struct rec_out *o = &s->o;
	int rc;
	o->path = cfg->output && !strcmp(cfg->output, "-") ? NULL
		  : cfg->output ? cfg->output : "perf.data";
	o->fd = o->path ? record_out_open(o->path) : s->pipe_fd;
	if (o->fd < 0)
		return -1;
	if (pk_record_stats__new(&o->stats, s->r, 0)) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	if (record_out_writer(o, s->r, cfg, s->argc, s->argv))
		return -1;
	if ((rc = record_out_synthesize(o, s->r, cfg, s->tids, s->nr_tids)))
		return write_error(s, rc);
	/* perf names its forked child "perf-exec" until exec, and says so in a COMM */
	if (s->wl && (rc = record_out_comm(o, s->r, pk_workload__pid(s->wl))))
		return write_error(s, rc);
	return 0;
}

/* Go: the events enabled (now, at the workload's exec, or after -D), the workload run. */
static int rec_start(struct rec *s)
{
	struct rec_cfg *cfg = &s->cfg;
	/*
	 * Recording every task, pmukit would sample its own reads of tracefs,
	 * sysfs and caches: read them before the events start (perf reads them
	 * once they have stopped). A workload's events follow it only: read them
	 * while it runs.
	 */
	s->follow_wl = s->wl && !cfg->spec.system_wide && !cfg->spec.task_target;
	if (!s->follow_wl && pk_data_writer__gather(s->o.w, &s->o.err)) {
		s->o.failed = true;
		return write_error(s, 0);
	}
	if (!s->follow_wl && !cfg->delay_ms && pk_record__enable(s->r, &s->err))
		return target_error(s);
	if (s->wl && pk_workload__go(s->wl, &s->err)) {
		fprintf(stderr, PROG ": %s\n", s->err.msg);
		if (s->o.w)
			pk_data_writer__finish(s->o.w, NULL);
		s->ret = 127;
		return -1;
	}
	if (cfg->delay_ms > 0) {	/* -D: perf sleeps, then enables */
		if (!cfg->quiet)
			fprintf(stderr, "Events disabled\n");
		usleep((useconds_t)cfg->delay_ms * 1000);
		if (pk_record__enable(s->r, &s->err))
			return target_error(s);
		if (!cfg->quiet)
			fprintf(stderr, "Events enabled\n");
	}
	/* the machine's facts for the feature sections, read while the workload runs */
	if (s->follow_wl && pk_data_writer__gather(s->o.w, &s->o.err)) {
		s->o.failed = true;
		return write_error(s, 0);
	}
	if (cfg->sw.time)
		alarm(cfg->sw.time);
	return 0;
}

/* The end: sampling stopped, the workload ended or reaped, the last records drained. */
static void rec_stop(struct rec *s, struct run *u)
{
	struct pk_error err = { 0 };
	if (!s->follow_wl)
		pk_record__disable(s->r, NULL);
	if (s->wl && !u->have_status && u->size_limit) {
		/* perf ends its workload and exits with its status */
		kill(pk_workload__pid(s->wl), SIGTERM);
		u->have_status = pk_workload__wait(s->wl, false, &u->status) == 1;
	}
	if (s->wl && !u->have_status) {
		pk_workload__free(s->wl, SIGTERM);	/* perf ends its workload so too */
		s->wl = NULL;
	}
	if (!s->o.failed) {
		long long n = pk_record__drain(s->r, record_out_sink, &s->o, &err);
		if (n > 0 && !s->o.failed && pk_data_writer__finished_round(s->o.w, &s->o.err))
			s->o.failed = true;
	}
}

/* perf's summary lines (pmukit's name in them), and the samples lost, on stderr */
static void rec_summary(const struct rec *s, unsigned long wakeups, uint64_t wrote)
{
	uint64_t lost = pk_record_stats__lost(s->o.stats);
	fprintf(stderr, "[ pmukit record: Woken up %lu times to write data ]\n", wakeups);
	if (lost)
		fprintf(stderr, PROG ": %" PRIu64 " samples lost in %" PRIu64 " chunks (the ring "
			"buffers were full: a larger -m or a lower -F helps)\n", lost,
			pk_record_stats__lost_records(s->o.stats));
	fprintf(stderr, "[ pmukit record: Captured and wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
		(double)wrote / 1024.0 / 1024.0, s->o.path ? s->o.path : "(pipe)",
		pk_record_stats__samples(s->o.stats));
}

/* Record until the end, finish the file (or the last --switch-output one), sum up. */
static void rec_run(struct rec *s)
{
	struct rec_cfg *cfg = &s->cfg;
	struct rec_out *o = &s->o;
	struct run u = { .cfg = cfg, .r = s->r, .wl = s->wl, .o = o, .tids = s->tids,
			 .nr_tids = s->nr_tids, .argc = s->argc, .argv = s->argv };
	run_loop(&u);
	rec_stop(s, &u);
	if (o->failed) {
		write_error(s, 0);
		return;
	}
	s->ret = u.have_status ? exit_code(u.status) : 0;
	uint64_t wrote = pk_data_writer__file_bytes(o->w);
	if (cfg->sw.enabled) {	/* the last file is renamed too */
		alarm(0);
		if (record_out_switch(o, s->r, cfg, s->tids, s->nr_tids, -1, s->argc, s->argv, true)) {
			o->failed = true;
			write_error(s, 0);
			return;
		}
	} else {
		pk_record_stats__for_each_dso(o->stats, record_out_add_dso, o->w);
		if (pk_data_writer__finish(o->w, &o->err)) {
			o->failed = true;
			write_error(s, 0);
			return;
		}
	}
	if (!cfg->quiet)
		rec_summary(s, u.wakeups, wrote);
}

static void rec_free(struct rec *s)
{
	if (s->wl)
		pk_workload__free(s->wl, SIGTERM);
	pk_record__free(s->r);
	pk_data_writer__free(s->o.w);
	pk_record_stats__free(s->o.stats);
	if (s->o.fd > STDOUT_FILENO)
		close(s->o.fd);
	pk_cpu_map__free(s->cpus);
	free(s->tids);
	pk_evlist__free(s->el);
	free(s->cfg.specs);
	free(s->cfg.filters);
	free(s->cfg.args);
	free(s->filter_ev);
	free(s->uid_list);
	record_switch_free(&s->cfg.sw);
	cli_env__close(&s->env);
}

int cmd_record(int argc, char **argv)
{
	struct rec s = { .cfg = { .spec = { .sz = sizeof(s.cfg.spec) } }, .o = { .fd = -1 },
			 .pipe_fd = -1, .argc = argc, .argv = argv, .ret = 1 };
	cli_env__init(&s.env);
	if (!rec_setup(&s) && !rec_target(&s) && !rec_open(&s) && !rec_output(&s) &&
	    !rec_start(&s))
		rec_run(&s);
	rec_free(&s);
	if (got_signal && s.ret != 1) {
		/* as perf: die of the signal that ended the recording, once the file is complete */
		signal(got_signal, SIG_DFL);
		raise(got_signal);
	}
	return s.ret;
}
