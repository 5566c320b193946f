// SPDX-License-Identifier: MIT
/*
 * stat-serve.c — `pmukit stat --serve ADDR`: the counters of -e, -M,
 * --topdown on the target of -a, -C, -p, -t, aggregated as -A, --per-core,
 * --per-die, --per-socket, --per-thread say, opened once and read each time
 * Prometheus scrapes /metrics (no timer of our own); the exposition is the
 * library's (pmukit/expose.h), the HTTP side serve/http.c (libmicrohttpd).
 * The main thread only waits for SIGINT/SIGTERM; the counters count in the
 * kernel whatever the clients do. The same families, set up once, are what
 * -I --openmetrics and --push write at each interval (stat_serve__new,
 * stat-serve-out.c).
 *
 * The static pmukit has no HTTP server (libmicrohttpd cannot be linked
 * statically on Debian: see serve/http.h): there, serve_http__start is a
 * null weak symbol and --serve runs build/pmukit-serve, the same CLI linked
 * dynamically, with the same command line.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/cpuid.h>
#include <pmukit/expose.h>
#include <pmukit/metric.h>
#include <pmukit/metricgroup.h>

#include "serve/http.h"
#include "stat-serve-cgroup.h"
#include "stat-serve-ratio.h"
#include "stat-serve.h"

#define MAX_LABELS 3

struct serve {
	struct stat_live *st;
	struct stat_metrics *sm;
	struct cli_env *env;
	pthread_mutex_t lock;
	double t0;				/* start, CLOCK_MONOTONIC ns (duration_time) */
	struct pk_topology *topo;		/* pmukit_cpu_info; NULL when unreadable */
	char cpuid[128];			/* pmukit_cpuid_info: --cpuid's, or this CPU's */
	bool *skip;				/* [ev]: a tool event, or a name already listed */
	struct pk_expose_label (*labels)[MAX_LABELS];	/* [id] */
	size_t *nr_labels;			/* [id] */
	char (*lval)[MAX_LABELS][32];		/* [id]: their values */
	struct pk_expose_count *counts;		/* [id * nr_ev + ev] */
	/* metrics */
	struct pk_metricgroup *mg;
	size_t nr_metrics;
	long *event_of;				/* [ev]: metricgroup event, or -1 */
	struct pk_metricgroup_value *mval;	/* [metric] */
	struct pk_expose_metric *metrics;	/* [id * nr_metrics + m] */
	struct serve_ratio *ratio;		/* [metric]: num and den, or empty (a gauge) */
	struct pk_metric_eval **meval;		/* [metric]: its references' values */
	size_t cur_id;				/* the id being evaluated */
	const struct serve_cgroups *cg;		/* -G: st's; cg->fd NULL without */
	struct pk_expose_label (*evlab)[MAX_LABELS + 1];	/* -G: [id * nr_ev + ev] */
};

int stat_serve__check(const struct stat_config *cfg)
{
	const char *why = NULL;

	if (cfg->cgroups && !cfg->system_wide && !cfg->cpu_list)
		why = "-G: cgroup monitoring only available in system-wide mode (-a, -C)";
	else if ((cfg->openmetrics_path || cfg->push_url) && (cfg->interval_ms <= 0 || cfg->serve))
		why = "--openmetrics and --push write each -I interval: they need -I, not --serve";
	else if ((cfg->openmetrics_path || cfg->push_url) && cfg->runs != 1)
		why = "--openmetrics and --push: the counts of one run (no -r)";
	else if (!cfg->serve)
		return 0;
	else if (cfg->argv)
		why = "--serve counts CPUs (-a, -C) or running tasks (-p, -t), not a command";
	else if (cfg->interval_ms > 0 || cfg->runs > 1 || cfg->counts_path || cfg->null_run ||
		 cfg->sep || cfg->json || cfg->timeout_ms > 0 || cfg->delay_ms > 0)
		why = "--serve: counts are read at each scrape: no -I, -r, --counts, -n, -x, -j, "
		      "--timeout or -D";
	if (!why)
		return 0;
	fprintf(stderr, "pmukit stat: %s\n", why);
	return -1;
}

/* The static CLI: run pmukit-serve (beside this executable) with our command line. */
static int run_sibling(void)
{
	char exe[PATH_MAX], cmdline[65536];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t len = f ? fread(cmdline, 1, sizeof(cmdline) - 1, f) : 0;
	char *argv[1024];
	size_t argc = 0;

	if (f)
		fclose(f);
	if (n <= 0 || !len || len == sizeof(cmdline) - 1) {
		fprintf(stderr, "pmukit stat: --serve: cannot read /proc/self\n");
		return 1;
	}
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	strcpy(slash ? slash + 1 : exe, "pmukit-serve");
	cmdline[len] = 0;
	for (size_t off = 0; off < len && argc + 1 < sizeof(argv) / sizeof(argv[0]);
	     off += strlen(cmdline + off) + 1)
		argv[argc++] = cmdline + off;
	argv[argc] = NULL;
	execv(exe, argv);
	fprintf(stderr, "pmukit stat: --serve runs %s (the exporter, linked with libmicrohttpd): %s\n",
		exe, strerror(errno));
	return 1;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void add_label(struct serve *sv, size_t id, const char *name, const char *fmt, int v)
{
	size_t k = sv->nr_labels[id]++;
	snprintf(sv->lval[id][k], sizeof(sv->lval[id][k]), fmt, v);
	sv->labels[id][k] = (struct pk_expose_label){ name, sv->lval[id][k] };
}

/* The labels of each aggregation id: cpu; socket, die, core; thread ("comm-tid"). */
static void build_labels(struct serve *sv)
{
	const struct stat_live *st = sv->st;

	for (size_t id = 0; id < st->nr_ids; id++) {
		const struct pk_aggr_id *a = &st->aggr[id];
		switch (st->mode) {
		case PK_STAT_AGGR_CPU:
			add_label(sv, id, "cpu", "%d", a->cpu);
			break;
		case PK_STAT_AGGR_CORE:
		case PK_STAT_AGGR_DIE:
		case PK_STAT_AGGR_SOCKET:
			add_label(sv, id, "socket", "%d", a->socket);
			if (st->mode != PK_STAT_AGGR_SOCKET)
				add_label(sv, id, "die", "%d", a->die);
			if (st->mode == PK_STAT_AGGR_CORE)
				add_label(sv, id, "core", "%d", a->core);
			break;
		case PK_STAT_AGGR_THREAD:
			sv->labels[id][0] = (struct pk_expose_label){ "thread", st->ids[id].label };
			sv->nr_labels[id] = 1;
			break;
		default:
			break;
		}
	}
}

/* An event listed twice (-e cycles -M IPC opens cycles twice) is one series: the first. */
static void mark_skips(struct serve *sv)
{
	const struct stat_live *st = sv->st;

	for (size_t e = 0; e < st->nr_ev; e++) {
		sv->skip[e] = st->ev[e].tool;
		for (size_t k = 0; k < e && !sv->skip[e]; k++)
			sv->skip[e] = !strcmp(st->ev[k].name, st->ev[e].name) &&
				      (!sv->cg->name || sv->cg->name[k] == sv->cg->name[e] ||
				       (sv->cg->name[k] && sv->cg->name[e] &&
					!strcmp(sv->cg->name[k], sv->cg->name[e]))) &&
				      !strcmp(st->ev[k].pmu ? st->ev[k].pmu : "",
					      st->ev[e].pmu ? st->ev[e].pmu : "");
	}
}

/* pk_metricgroup_count_fn: event idx in the current id, the sum of its evsels (scaled). */
static int metric_count(void *ctx, size_t idx, double *value, unsigned *sources)
{
	struct serve *sv = ctx;
	const struct stat_live *st = sv->st;
	const struct pk_metricgroup_event *ev = pk_metricgroup__event(sv->mg, idx);
	double sum = 0;
	unsigned n = 0;
	bool any = false, supported = false;

	if (ev->tool) {
		if (strcmp(ev->id, "duration_time"))
			return -ENOENT;
		*value = (now_ns() - sv->t0) / 1e9;
		return 0;
	}
	for (size_t e = 0; e < st->nr_ev; e++) {
		if (sv->event_of[e] != (long)idx)
			continue;
		const struct stat_cell *c = &st->cells[sv->cur_id * st->nr_ev + e];
		any = true;
		if (c->status == PK_COUNT_NOT_SUPPORTED)
			continue;
		supported = true;
		if (c->status == PK_COUNT_OK)
			sum += c->val;
		n++;
	}
	if (!any)
		return -ENOENT;
	*value = supported ? sum : NAN;
	*sources = n ? n : 1;
	return 0;
}

/* The machine facts of metric expressions (#smt_on ...), from the topology. */
static int literal(const struct serve *sv, enum pk_mexpr_literal l, double *v)
{
	const struct pk_topology *t = sv->topo;
	if (!t)
		return -ENOENT;
	switch (l) {
	case PK_MEXPR_LIT_SMT_ON: *v = pk_topology__smt_on(t); return 0;
	case PK_MEXPR_LIT_NUM_CPUS: *v = pk_topology__num_cpus(t); return 0;
	case PK_MEXPR_LIT_NUM_CPUS_ONLINE: *v = pk_topology__num_cpus_online(t); return 0;
	case PK_MEXPR_LIT_NUM_PACKAGES: *v = pk_topology__nr_packages(t); return 0;
	case PK_MEXPR_LIT_NUM_DIES: *v = pk_topology__nr_dies(t); return 0;
	case PK_MEXPR_LIT_NUM_CORES: *v = pk_topology__nr_cores(t); return 0;
	case PK_MEXPR_LIT_CORE_WIDE: *v = sv->st->cpus && pk_topology__smt_on(t); return 0;
	default: return -ENOENT;
	}
}

struct ratio_ctx {
	struct serve *sv;
	struct pk_metric_eval *mev;
};

/* pk_mexpr_lookup_fn of a ratio's halves: events as the metrics read them. */
static int ratio_lookup(void *ctx, const struct pk_mexpr_id *id, double *value)
{
	struct ratio_ctx *rc = ctx;
	struct serve *sv = rc->sv;
	long ev = -1;

	switch (id->kind) {
	case PK_MEXPR_ID_EVENT:
	case PK_MEXPR_ID_SOURCE_COUNT:
	case PK_MEXPR_ID_HAS_EVENT:
		for (size_t i = 0; i < pk_metricgroup__nr_events(sv->mg) && ev < 0; i++)
			if (!strcasecmp(pk_metricgroup__event(sv->mg, i)->id, id->name) ||
			    pk_metricgroup__event_matches(sv->mg, i, id->name))
				ev = (long)i;
		if (id->kind == PK_MEXPR_ID_HAS_EVENT) {
			*value = ev >= 0;
			return 0;
		}
		unsigned src = 1;
		double v = NAN;
		int r = ev < 0 ? -ENOENT : metric_count(sv, (size_t)ev, &v, &src);
		*value = id->kind == PK_MEXPR_ID_SOURCE_COUNT ? src : v;
		return r;
	case PK_MEXPR_ID_METRIC:
		return rc->mev ? pk_metric_eval__value(rc->mev, id->metric, ratio_lookup, ctx, value)
			       : -ENOENT;
	case PK_MEXPR_ID_LITERAL:
		return literal(sv, id->literal, value);
	default:
		return -ENOENT;
	}
}

/*
 * Metric m of the current id as its numerator and denominator, when they
 * give back its value (value: unscaled); else it stays a gauge.
 */
static void fill_ratio(struct serve *sv, size_t m, double value, struct pk_expose_metric *out)
{
	struct ratio_ctx rc = { sv, sv->meval[m] };
	double num = NAN, den = NAN;

	if (!sv->ratio[m].num)
		return;
	if (rc.mev)
		pk_metric_eval__reset(rc.mev);
	if (pk_mexpr__eval(sv->ratio[m].num, ratio_lookup, &rc, &num) ||
	    pk_mexpr__eval(sv->ratio[m].den, ratio_lookup, &rc, &den))
		return;
	/* a split that does not give the metric back (d_ratio(x, 0) is 0) is not used */
	if (den != 0 && !isnan(value) && fabs(num / den - value) > 1e-9 * fmax(1, fabs(value)))
		return;
	out->ratio = true;
	out->numerator = num;
	out->denominator = den;
}

static void fill_metrics(struct serve *sv, size_t id)
{
	sv->cur_id = id;
	int r = pk_metricgroup__eval(sv->mg, metric_count, sv, sv->mval);
	for (size_t m = 0; m < sv->nr_metrics; m++) {
		const struct pk_metricgroup_metric *mm = pk_metricgroup__metric(sv->mg, m);
		const struct pk_metricgroup_value *v = &sv->mval[m];
		double scaled = 1;
		const char *unit = "";
		pk_metric__scale(mm->scale_unit, 1.0, &scaled, &unit);
		sv->metrics[id * sv->nr_metrics + m] = (struct pk_expose_metric){
			.metric = mm->name, .unit = unit, .scale = scaled,
			.labels = sv->labels[id], .nr_labels = sv->nr_labels[id],
			.value = r || v->error ? NAN : v->scaled,
			.threshold = r || v->error ? -1 : v->threshold,
		};
		if (!r && !v->error)
			fill_ratio(sv, m, v->value, &sv->metrics[id * sv->nr_metrics + m]);
	}
}

/* The families of st's cells (cumulative, scaled) and counters as last read, into *body. */
static int expose(struct serve *sv, const struct pk_expose_opts *o, char **body, size_t *len)
{
	struct stat_live *st = sv->st;
	struct pk_error err = { 0 };
	size_t nr = 0;

	for (size_t id = 0; id < st->nr_ids; id++) {
		if (st->ids[id].hidden)
			continue;
		for (size_t e = 0; e < st->nr_ev; e++) {
			struct pk_count_value v;
			unsigned n;
			if (sv->skip[e] || pk_counter__value_aggr(st->cnt, e, st->topo, st->mode,
								  &st->aggr[id], 0, &v, &n))
				continue;	/* not on these CPUs */
			sv->counts[nr++] = (struct pk_expose_count){
				.event = st->ev[e].name, .pmu = st->ev[e].pmu,
				.labels = sv->labels[id], .nr_labels = sv->nr_labels[id], .value = v };
			if (sv->evlab && sv->cg->name[e]) {	/* -G: the id's labels and cgroup */
				struct pk_expose_label *l = sv->evlab[id * st->nr_ev + e];
				size_t k = sv->nr_labels[id];
				memcpy(l, sv->labels[id], k * sizeof(*l));
				l[k] = (struct pk_expose_label){ "cgroup", sv->cg->name[e] };
				sv->counts[nr - 1].labels = l;
				sv->counts[nr - 1].nr_labels = k + 1;
			}
		}
		if (sv->mg)
			fill_metrics(sv, id);
	}
	struct pk_expose_set s = {
		.counts = sv->counts, .nr_counts = nr,
		.metrics = sv->metrics, .nr_metrics = sv->mg ? st->nr_ids * sv->nr_metrics : 0,
		.cpuid = *sv->cpuid ? sv->cpuid : NULL, .topo = sv->topo,
	};
	if (pk_expose__write(&s, o, body, len, &err)) {
		fprintf(stderr, "pmukit stat: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* serve_http_fn: read the counters, write the families. */
static int scrape(void *ctx, const char *accept, char **body, size_t *len, const char **ctype)
{
	struct serve *sv = ctx;
	struct pk_expose_opts o = { .sz = sizeof(o), .format = pk_expose__negotiate(accept) };

	pthread_mutex_lock(&sv->lock);
	stat_live__read(sv->st, false);	/* the scaled cells, for the metrics */
	int r = expose(sv, &o, body, len);
	pthread_mutex_unlock(&sv->lock);
	if (r)
		return -1;
	*ctype = pk_expose__content_type(o.format);
	return 0;
}

static int serve_init(struct serve *sv, size_t first_metric_ev)
{
	const struct stat_live *st = sv->st;
	struct pk_error err = { 0 };
	size_t nr_ids = st->nr_ids ? st->nr_ids : 1;

	if (pk_topology__read(&sv->topo, NULL, &err))
		sv->topo = NULL;
	if (sv->env->cpuid_used)
		snprintf(sv->cpuid, sizeof(sv->cpuid), "%s", sv->env->cpuid_used);
	else if (pk_cpuid__host(NULL, -1, sv->cpuid, sizeof(sv->cpuid)))
		sv->cpuid[0] = 0;
	sv->skip = calloc(st->nr_ev + 1, sizeof(*sv->skip));
	sv->labels = calloc(nr_ids, sizeof(*sv->labels));
	sv->nr_labels = calloc(nr_ids, sizeof(*sv->nr_labels));
	sv->lval = calloc(nr_ids, sizeof(*sv->lval));
	sv->counts = calloc(nr_ids * (st->nr_ev + 1), sizeof(*sv->counts));
	sv->event_of = calloc(st->nr_ev + 1, sizeof(*sv->event_of));
	if (!sv->skip || !sv->labels || !sv->nr_labels || !sv->lval || !sv->counts || !sv->event_of)
		return -1;
	build_labels(sv);
	if (st->cg.fd) {
		if (!(sv->evlab = calloc(nr_ids * st->nr_ev + 1, sizeof(*sv->evlab))))
			return -1;
	}
	mark_skips(sv);
	if (sv->sm) {
		sv->mg = stat_metrics__group(sv->sm);
		sv->nr_metrics = pk_metricgroup__nr_metrics(sv->mg);
		for (size_t e = 0; e < st->nr_ev; e++)
			sv->event_of[e] = e < first_metric_ev ? -1 :
				pk_metricgroup__event_at(sv->mg, pk_evlist__evsel(st->el, e)->spec_off);
		sv->mval = calloc(sv->nr_metrics + 1, sizeof(*sv->mval));
		sv->metrics = calloc(nr_ids * sv->nr_metrics + 1, sizeof(*sv->metrics));
		sv->ratio = calloc(sv->nr_metrics + 1, sizeof(*sv->ratio));
		sv->meval = calloc(sv->nr_metrics + 1, sizeof(*sv->meval));
		if (!sv->mval || !sv->metrics || !sv->ratio || !sv->meval)
			return -1;
		for (size_t m = 0; m < sv->nr_metrics; m++) {
			const struct pk_metricgroup_metric *mm = pk_metricgroup__metric(sv->mg, m);
			/* a metric with modifiers (IPC:u) reads modified events: a gauge */
			if (mm->modifier ||
			    serve_ratio__new(&sv->ratio[m], sv->env->cat, mm->model, mm->idx))
				continue;
			if (pk_metric_eval__new(&sv->meval[m], sv->env->cat, mm->model))
				sv->meval[m] = NULL;
		}
	}
	return 0;
}

static void serve_fini(struct serve *sv)
{
	pk_topology__free(sv->topo);
	free(sv->skip);
	free(sv->labels);
	free(sv->nr_labels);
	free(sv->lval);
	free(sv->counts);
	free(sv->event_of);
	free(sv->mval);
	free(sv->metrics);
	for (size_t m = 0; m < sv->nr_metrics && sv->ratio; m++) {
		serve_ratio__fini(&sv->ratio[m]);
		if (sv->meval)
			pk_metric_eval__free(sv->meval[m]);
	}
	free(sv->ratio);
	free(sv->meval);
	free(sv->evlab);
}

/* SIGINT, SIGTERM, SIGHUP: a byte down this pipe wakes the main thread (CLI state). */
static int stop_pipe[2] = { -1, -1 };

static void on_stop(int sig)
{
	int saved = errno;
	(void)sig;
	if (write(stop_pipe[1], "x", 1) < 0) {
		/* full: a wake-up is pending anyway */
	}
	errno = saved;
}

/*
 * Count and serve until SIGINT, SIGTERM or SIGHUP. The signals are caught
 * (not left to sigwait): whichever thread gets one (a sanitizer's or
 * valgrind's own), the handler wakes the main thread. A background job of a
 * shell starts with SIGINT ignored: it is caught anyway; an ignored SIGHUP
 * (nohup) stays ignored.
 */
static int serve_loop(struct serve *sv, int fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESTART }, old[3];
	struct serve_http *h = NULL;
	char why[256], c;
	sigset_t set, mask;

	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK)) {
		close(fd);
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	for (size_t i = 0; i < 3; i++) {
		sigaction(sigs[i], NULL, &old[i]);
		if (sigs[i] != SIGHUP || old[i].sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
		sigaddset(&set, sigs[i]);
	}
	signal(SIGPIPE, SIG_IGN);	/* a client gone mid-response */
	/* the server's thread is born with them blocked: they come to this one */
	pthread_sigmask(SIG_BLOCK, &set, &mask);
	int r = serve_http__start(&h, fd, scrape, sv, why, sizeof(why));
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (r) {
		fprintf(stderr, "pmukit stat: --serve: %s\n", why);
		close(fd);
	} else {
		struct pollfd p = { .fd = stop_pipe[0], .events = POLLIN };
		while (poll(&p, 1, -1) < 0 && errno == EINTR)
			;
		while (read(stop_pipe[0], &c, 1) > 0)
			;
		serve_http__stop(h);
	}
	for (size_t i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return r ? 1 : 0;
}

/*
 * stat_live__open without perf's rule that an unsupported group leader ends
 * the run: an exporter keeps serving, the group's events in the state
 * metric as not_supported (a machine without the PMU answers like the others).
 */
static int serve_open(struct stat_live *st, struct pk_error *err)
{
	struct pk_count_opts o = {
		.sz = sizeof(o),
		.cpus = st->cpus,
		.cpu_list = st->cfg->cpu_list != NULL,
		.tids = st->tids,
		.nr_tids = st->nr_tids,
		.pmus = st->env->pmus,
		.topo = st->topo,
		.cgroups = st->cg.fd,
	};
	stat_live__close(st);
	return pk_counter__open(&st->cnt, st->el, &o, err);
}

int stat_serve__run(struct stat_live *st, struct stat_metrics *sm, size_t first_metric_ev,
		    struct cli_env *env)
{
	struct serve sv = { .st = st, .sm = sm, .env = env, .lock = PTHREAD_MUTEX_INITIALIZER,
			    .cg = &st->cg };
	struct pk_error err = { 0 };
	char msg[1024];
	int ret = 1, fd = -1;

	if (!serve_http__start)
		return run_sibling();
	if (serve_init(&sv, first_metric_ev)) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		goto out;
	}
	fd = serve_http__listen(st->cfg->serve);	/* a bad ADDR before anything is opened */
	if (fd < 0)
		goto out;
	if (serve_open(st, &err)) {
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&err, msg, sizeof(msg)));
		goto out;
	}
	if (st->enable_after_open && pk_counter__enable(st->cnt, &err)) {
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&err, msg, sizeof(msg)));
		goto out;
	}
	sv.t0 = now_ns();
	ret = serve_loop(&sv, fd);
	fd = -1;
out:
	if (fd >= 0)
		close(fd);
	stat_live__close(st);
	serve_fini(&sv);
	return ret;
}

/* ---- the same families for -I --openmetrics and --push (stat-serve-out.c) ---- */

struct serve *stat_serve__new(struct stat_live *st, struct stat_metrics *sm, size_t first_metric_ev,
			      struct cli_env *env)
{
	struct serve *sv = calloc(1, sizeof(*sv));

	if (!sv)
		return NULL;
	*sv = (struct serve){ .st = st, .sm = sm, .env = env, .cg = &st->cg, .t0 = now_ns() };
	pthread_mutex_init(&sv->lock, NULL);
	if (serve_init(sv, first_metric_ev)) {
		stat_serve__free(sv);
		return NULL;
	}
	return sv;
}

int stat_serve__expose(struct serve *sv, const struct pk_expose_opts *o, char **body, size_t *len)
{
	stat_live__cells(sv->st, false);	/* cumulative, from the interval's read */
	return expose(sv, o, body, len);
}

void stat_serve__free(struct serve *sv)
{
	if (!sv)
		return;
	serve_fini(sv);
	pthread_mutex_destroy(&sv->lock);
	free(sv);
}
