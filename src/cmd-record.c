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
 * are in record-opts.c (shared with explain).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* ---- the output ---- */

struct out {
	struct pk_data_writer *w;
	struct pk_record_stats *stats;
	const char *path;	/* NULL: stdout pipe */
	int fd;
	struct pk_error err;	/* the first write error */
	bool failed;
};

static int out_sink(void *ctx, const void *recs, size_t len)
{
	struct out *o = ctx;
	int r = pk_data_writer__write(o->w, recs, len, &o->err);
	if (r) {
		o->failed = true;
		return r;
	}
	if (o->stats && pk_record_stats__feed(o->stats, recs, len))
		return -ENOMEM;
	return 0;
}

static int add_dso(void *ctx, int32_t pid, uint16_t misc, const char *filename)
{
	return pk_data_writer__add_dso(ctx, pid, misc, filename);
}

/* perf's backup: an existing non-empty FILE becomes FILE.old. Then open FILE. */
static int open_output(const char *path)
{
	struct stat st;
	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size) {
		size_t n = strlen(path) + 5;
		char *old = malloc(n);
		if (!old)
			return -1;
		snprintf(old, n, "%s.old", path);
		if (rename(path, old)) {
			fprintf(stderr, PROG ": cannot rename %s to %s: %s\n", path, old, strerror(errno));
			free(old);
			return -1;
		}
		free(old);
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fprintf(stderr, PROG ": cannot open %s: %s\n", path, strerror(errno));
	return fd;
}

static int setup_writer(struct out *o, struct pk_record *r, const struct rec_cfg *cfg, int argc,
			char **argv)
{
	const char **av = calloc((size_t)argc + 2, sizeof(*av));
	if (!av)
		return -1;
	av[0] = "pmukit";
	for (int i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	struct pk_data_writer_opts wo = { .sz = sizeof(wo), .pipe = !o->path,
					  .compress_level = cfg->compress, .argc = argc + 1,
					  .argv = av };
	int rc = pk_data_writer__new(&o->w, o->fd, &wo, &o->err);
	free(av);
	if (rc)
		goto fail;
	for (size_t i = 0; i < pk_record__nr_events(r); i++) {
		struct pk_record_event ev;
		pk_record__event(r, i, &ev);
		if (pk_data_writer__add_attr(o->w, ev.attr, ev.name, ev.ids, ev.nr_ids, &o->err))
			goto fail;
	}
	for (size_t i = 0; i < pk_record__nr_events(r); i++) {
		struct pk_record_event ev;
		pk_record__event(r, i, &ev);
		if (ev.leader == i && ev.nr_members > 1 &&
		    pk_data_writer__add_group(o->w, i, ev.nr_members, NULL, &o->err))
			goto fail;
	}
	if (pk_data_writer__begin(o->w, &o->err))
		goto fail;
	return 0;
fail:;
	char buf[1024];
	fprintf(stderr, PROG ": %s: %s\n", o->path ? o->path : "stdout",
		pk_error__format(&o->err, buf, sizeof(buf)));
	return -1;
}

/* The side-band of what ran before: the kernel's map, and the tasks being recorded. */
static int synthesize(struct out *o, struct pk_record *r, const struct rec_cfg *cfg,
		      const pid_t *tids, size_t nr_tids)
{
	struct pk_record_event ev;
	pk_record__event(r, 0, &ev);
	size_t idsz = ev.attr->sample_id_all ? pk_sample__id_size(ev.attr->sample_type) : 0;
	struct pk_error err = { 0 };
	int rc = pk_synth__kernel_mmap(NULL, idsz, out_sink, o, &err);
	if (rc == -EPERM) {
		if (!cfg->quiet)
			fprintf(stderr, PROG ": warning: %s\n", err.msg);
		rc = 0;
	}
	if (rc)
		return rc;
	if (cfg->spec.system_wide) {
		rc = pk_synth__tasks(NULL, NULL, 0, cfg->spec.sample_addr, idsz, out_sink, o, &err);
	} else if (nr_tids) {
		/* the processes of the threads: their maps and every thread */
		pid_t *pids = malloc(nr_tids * sizeof(*pids));
		size_t n = 0;
		if (!pids)
			return -ENOMEM;
		for (size_t i = 0; i < nr_tids; i++) {
			char path[64], buf[256];
			pid_t tgid = tids[i];
			snprintf(path, sizeof(path), "/proc/%d/status", (int)tids[i]);
			FILE *f = fopen(path, "re");
			while (f && fgets(buf, sizeof(buf), f))
				if (!strncmp(buf, "Tgid:", 5)) {
					tgid = (pid_t)atoi(buf + 5);
					break;
				}
			if (f)
				fclose(f);
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = pids[k] == tgid;
			if (!seen)
				pids[n++] = tgid;
		}
		rc = pk_synth__tasks(NULL, pids, n, cfg->spec.sample_addr, idsz, out_sink, o, &err);
		free(pids);
	}
	return rc;
}

static size_t id_size(const struct pk_record *r)
{
	struct pk_record_event ev;
	pk_record__event(r, 0, &ev);
	return ev.attr->sample_id_all ? pk_sample__id_size(ev.attr->sample_type) : 0;
}

static int workload_comm(struct out *o, struct pk_record *r, pid_t pid)
{
	return pk_synth__comm(pid, "perf-exec", id_size(r), out_sink, o, &o->err);
}

/*
 * --switch-output: finish the file (its DSOs' build-ids, the features),
 * rename it FILE.<timestamp>; unless at the end, start FILE again with the
 * attrs and the side-band perf synthesizes for each new file.
 */
static int switch_output(struct out *o, struct pk_record *r, struct rec_cfg *cfg,
			 const pid_t *tids, size_t nr_tids, pid_t wl_pid, int argc, char **argv,
			 bool at_exit)
{
	pk_record_stats__for_each_dso(o->stats, add_dso, o->w);
	if (pk_data_writer__finish(o->w, &o->err))
		return -1;
	pk_data_writer__free(o->w);
	o->w = NULL;
	close(o->fd);
	o->fd = -1;
	if (record_switch_rename(&cfg->sw, o->path, cfg->quiet) || at_exit)
		return at_exit ? 0 : -1;
	pk_record_stats__free(o->stats);
	o->stats = NULL;
	if ((o->fd = open_output(o->path)) < 0 || pk_record_stats__new(&o->stats, r, 0) ||
	    setup_writer(o, r, cfg, argc, argv) || synthesize(o, r, cfg, tids, nr_tids))
		return -1;
	if (wl_pid > 0 && !cfg->spec.system_wide && !cfg->spec.task_target &&
	    pk_synth__tasks(NULL, &wl_pid, 1, cfg->spec.sample_addr, id_size(r), out_sink, o,
			    &o->err))
		return -1;
	if (cfg->sw.time)
		alarm(cfg->sw.time);
	return pk_data_writer__gather(o->w, &o->err) ? -1 : 0;
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
	struct out *o;
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
	struct out *o = u->o;
	struct pk_record *r = u->r;
	struct pk_workload *wl = u->wl;
	struct pk_error err = { 0 };
	bool done = false, hup = false;
	while (!done) {
		long long n = pk_record__drain(r, out_sink, o, &err);
		if (n < 0)
			break;
		if (n > 0 && pk_data_writer__finished_round(o->w, &o->err)) {
			o->failed = true;
			break;
		}
		if (cfg->sw.enabled && (switch_req || (cfg->sw.size &&
		    pk_data_writer__file_bytes(o->w) >= cfg->sw.size))) {
			switch_req = 0;
			if (switch_output(o, r, cfg, u->tids, u->nr_tids, wl ? pk_workload__pid(wl) : -1,
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

int cmd_record(int argc, char **argv)
{
	struct rec_cfg cfg = { .spec = { .sz = sizeof(cfg.spec) } };
	struct cli_env env;
	struct pk_evlist *el = NULL;
	struct pk_record *r = NULL;
	struct pk_workload *wl = NULL;
	struct pk_cpu_map *cpus = NULL;
	pid_t *tids = NULL;
	size_t nr_tids = 0;
	struct out o = { .fd = -1 };
	struct pk_error err = { 0 };
	char ebuf[1024];
	bool help = false;
	int ret = 1, target_rc = 1;

	cli_env__init(&env);
	cfg.specs = calloc((size_t)argc + 1, sizeof(*cfg.specs));
	cfg.filters = calloc((size_t)argc + 1, sizeof(*cfg.filters));
	size_t *filter_ev = calloc((size_t)argc + 1, sizeof(*filter_ev));
	char *uid_list = NULL;
	if (!cfg.specs || !cfg.filters || !filter_ev)
		goto out;
	int prc = record_parse_args(argc, argv, &cfg, &env, &help);
	if (prc) {
		ret = prc == -2 ? 234 : 129;	/* perf's statuses for a bad command line */
		goto out;
	}
	if (help) {
		record_usage(stdout);
		ret = 0;
		goto out;
	}
	if (record_check_args(&cfg) || signals_install())
		goto out;
	if (needs_env(&cfg, &env)) {
		if (cli_env__open(&env, PROG))
			goto out;
		cli_env__add_missing_core(&env);
	}
	/* perf's default event: cycles at the most precise level the PMU takes */
	static const char *const cycles = "cycles:P";
	int brc = build_evlist(&el, &cfg, &env, cfg.nr_specs ? cfg.specs : &cycles,
			       cfg.nr_specs ? cfg.nr_specs : 1, cfg.nr_specs ? filter_ev : NULL);
	if (brc) {
		ret = brc == -2 ? 129 : 1;
		goto out;
	}

	if (env.sysfs && check_tree(el, env.sysfs))
		goto out;

	/* the target; perf 6.1's exit statuses when it cannot make its maps */
	target_rc = 237;
	if (cfg.cpu_list && pk_cpu_map__parse(&cpus, cfg.cpu_list, &err))
		goto target_error;
	if (cpus && offline_cpu(cpus)) {
		ret = target_rc;
		goto out;
	}
	target_rc = 244;
	if (cfg.pid_list && pk_threads__from_pids(cfg.pid_list, NULL, &tids, &nr_tids, &err))
		goto target_error;
	target_rc = 255;
	if (cfg.tid_list && pk_threads__parse(cfg.tid_list, NULL, &tids, &nr_tids, &err))
		goto target_error;
	bool no_user = false;
	if (cfg.uid && !(uid_list = record_uid_pids(cfg.uid, &no_user))) {
		if (no_user)	/* perf's words */
			fprintf(stderr, "Error:\nInvalid User: %s\n", cfg.uid);
		else
			fprintf(stderr, PROG ": -u %s: no process of that user runs\n", cfg.uid);
		goto out;
	}
	if (uid_list && pk_threads__from_pids(uid_list, NULL, &tids, &nr_tids, &err))
		goto target_error;
	/*
	 * -o -: the data goes to the pipe on stdout; the command's own output goes
	 * to stderr, as perf arranges it, so that it cannot corrupt the stream.
	 */
	int pipe_fd = -1;
	bool to_pipe = cfg.output && !strcmp(cfg.output, "-");
	if (to_pipe && ((pipe_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0 ||
			dup2(STDERR_FILENO, STDOUT_FILENO) < 0)) {
		fprintf(stderr, PROG ": -o -: %s\n", strerror(errno));
		goto out;
	}
	if (cfg.argv && pk_workload__start(&wl, cfg.argv, &err))
		goto target_error;
	struct pk_record_opts ro = {
		.sz = sizeof(ro), .pid = wl ? pk_workload__pid(wl) : -1, .tids = tids,
		.nr_tids = nr_tids, .cpus = cpus, .cpu_list = cpus != NULL, .pmus = env.pmus,
		.mmap_pages = cfg.mmap_pages, .cycles_fallback = true,
	};
	if (cfg.spec.system_wide)
		ro.pid = -1;
	int rc = pk_record__open(&r, el, &ro, &err);
	if (!rc && pk_record__fallbacks(r) && cfg.verbose)	/* perf says so only with -v */
		fprintf(stderr, "Warning:\nThe cycles event is not supported, trying to fall back "
			"to cpu-clock-ticks\n");
	if (rc == -EOPNOTSUPP && cfg.spec.branch_stack) {
		/* perf's words when the kernel has no branch stack for the event */
		fprintf(stderr, "Error:\n%s: PMU Hardware or event type doesn't support branch stack "
			"sampling.\n", pk_evlist__evsel(el, 0)->name);
		ret = 255;
		goto out;
	}
	if (rc)
		goto target_error;
	for (size_t s = 0; s < cfg.nr_specs; s++)
		if (cfg.filters[s] && pk_record__set_filter(r, filter_ev[s], cfg.filters[s], &err)) {
			fprintf(stderr, "%s\n", err.msg);
			ret = 255;
			goto out;
		}
	if (cfg.verbose)
		print_attrs(r);

	/* the output */
	o.path = cfg.output && !strcmp(cfg.output, "-") ? NULL : cfg.output ? cfg.output : "perf.data";
	o.fd = o.path ? open_output(o.path) : pipe_fd;
	if (o.fd < 0)
		goto out;
	if (pk_record_stats__new(&o.stats, r, 0)) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	if (setup_writer(&o, r, &cfg, argc, argv))
		goto out;
	if ((rc = synthesize(&o, r, &cfg, tids, nr_tids)))
		goto write_error;

	/* perf names its forked child "perf-exec" until exec, and says so in a COMM */
	if (wl && (rc = workload_comm(&o, r, pk_workload__pid(wl))))
		goto write_error;
	/*
	 * Recording every task, pmukit would sample its own reads of tracefs,
	 * sysfs and caches: read them before the events start (perf reads them
	 * once they have stopped). A workload's events follow it only: read them
	 * while it runs.
	 */
	bool gathered = false, follow_wl = wl && !cfg.spec.system_wide && !cfg.spec.task_target;
	if (!follow_wl) {
		if (pk_data_writer__gather(o.w, &o.err)) {
			o.failed = true;
			goto write_error;
		}
		gathered = true;
	}
	/* go */
	if (!follow_wl && !cfg.delay_ms) {
		if (pk_record__enable(r, &err))
			goto target_error;
	}
	if (wl && pk_workload__go(wl, &err)) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		ret = 127;
		goto finish;
	}
	if (cfg.delay_ms > 0) {	/* -D: perf sleeps, then enables */
		if (!cfg.quiet)
			fprintf(stderr, "Events disabled\n");
		usleep((useconds_t)cfg.delay_ms * 1000);
		if (pk_record__enable(r, &err))
			goto target_error;
		if (!cfg.quiet)
			fprintf(stderr, "Events enabled\n");
	}
	/* the machine's facts for the feature sections, read while the workload runs */
	if (!gathered && pk_data_writer__gather(o.w, &o.err)) {
		o.failed = true;
		goto write_error;
	}
	if (cfg.sw.time)
		alarm(cfg.sw.time);
	struct run u = { .cfg = &cfg, .r = r, .wl = wl, .o = &o, .tids = tids, .nr_tids = nr_tids,
			 .argc = argc, .argv = argv };
	run_loop(&u);
	int status = u.status;
	bool have_status = u.have_status, stopped = u.stopped, size_limit = u.size_limit;
	unsigned long wakeups = u.wakeups;
	/* the end: stop sampling, the last records, the features */
	if (!follow_wl)
		pk_record__disable(r, NULL);
	if (wl && !have_status && size_limit) {
		/* perf ends its workload and exits with its status */
		kill(pk_workload__pid(wl), SIGTERM);
		have_status = pk_workload__wait(wl, false, &status) == 1;
	}
	if (wl && !have_status) {
		pk_workload__free(wl, SIGTERM);	/* perf ends its workload so too */
		wl = NULL;
	}
	if (!o.failed) {
		long long n = pk_record__drain(r, out_sink, &o, &err);
		if (n > 0 && !o.failed && pk_data_writer__finished_round(o.w, &o.err))
			o.failed = true;
	}
	if (o.failed)
		goto write_error;
	ret = have_status ? exit_code(status) : 0;
	if (stopped && !wl && !have_status)
		ret = 0;
	uint64_t wrote = pk_data_writer__file_bytes(o.w);
	if (cfg.sw.enabled) {	/* the last file is renamed too */
		alarm(0);
		if (switch_output(&o, r, &cfg, tids, nr_tids, -1, argc, argv, true)) {
			o.failed = true;
			goto write_error;
		}
	} else {
		pk_record_stats__for_each_dso(o.stats, add_dso, o.w);
		if (pk_data_writer__finish(o.w, &o.err)) {
			o.failed = true;
			goto write_error;
		}
	}
	if (!cfg.quiet) {
		uint64_t lost = pk_record_stats__lost(o.stats);
		fprintf(stderr, "[ pmukit record: Woken up %lu times to write data ]\n", wakeups);
		if (lost)
			fprintf(stderr, PROG ": %" PRIu64 " samples lost in %" PRIu64 " chunks (the ring "
				"buffers were full: a larger -m or a lower -F helps)\n", lost,
				pk_record_stats__lost_records(o.stats));
		fprintf(stderr, "[ pmukit record: Captured and wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			(double)wrote / 1024.0 / 1024.0,
			o.path ? o.path : "(pipe)", pk_record_stats__samples(o.stats));
	}
	goto out;

write_error:
	fprintf(stderr, PROG ": writing %s: %s; recording stopped\n", o.path ? o.path : "stdout",
		o.err.msg[0] ? o.err.msg : strerror(-rc));
	if (o.w)
		pk_data_writer__finish(o.w, NULL);	/* the header for what reached the file */
	ret = 1;
	goto out;
finish:
	if (o.w)
		pk_data_writer__finish(o.w, NULL);
	goto out;
target_error:
	fprintf(stderr, PROG ": %s\n", pk_error__format(&err, ebuf, sizeof(ebuf)));
	ret = target_rc;
out:
	if (wl)
		pk_workload__free(wl, SIGTERM);
	pk_record__free(r);
	pk_data_writer__free(o.w);
	pk_record_stats__free(o.stats);
	if (o.fd > STDOUT_FILENO)
		close(o.fd);
	pk_cpu_map__free(cpus);
	free(tids);
	pk_evlist__free(el);
	free(cfg.specs);
	free(cfg.filters);
	free(filter_ev);
	free(uid_list);
	record_switch_free(&cfg.sw);
	cli_env__close(&env);
	if (got_signal && ret != 1) {
		/* as perf: die of the signal that ended the recording, once the file is complete */
		signal(got_signal, SIG_DFL);
		raise(got_signal);
	}
	return ret;
}
