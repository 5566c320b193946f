/* SPDX-License-Identifier: MIT */
/*
 * stat-target.c — what `pmukit stat` counts and how it is aggregated: the
 * workload, the CPUs of -a/-C (with the topology for -A, --per-core,
 * --per-die, --per-socket) or the tasks of -p/-t (each a line with
 * --per-thread, or every thread of the machine with -a --per-thread); the
 * counters opened on them, read per slot and summed per aggregation id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <linux/perf_event.h>

#include "stat-live.h"
#include "util/error.h"
#include "util/perf_open.h"

/* Which of perf's tool events e is ("duration_time:u" too), or STAT_TOOL_NONE. */
static enum stat_tool tool_of(const struct pk_evsel *e)
{
	if (!e->pmu || strcmp(e->pmu, "tool") || !e->name)
		return STAT_TOOL_NONE;
	if (!strncmp(e->name, "duration_time", 13))
		return STAT_TOOL_DURATION;
	if (!strncmp(e->name, "user_time", 9))
		return STAT_TOOL_USER;
	if (!strncmp(e->name, "system_time", 11))
		return STAT_TOOL_SYSTEM;
	return STAT_TOOL_NONE;
}

/* One fd per thread and event (-a --per-thread): the soft limit on open files up to the hard one. */
static void raise_nofile(size_t want)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= want + 64 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static int build_events(struct stat_live *st)
{
	st->nr_ev = pk_evlist__nr(st->el);
	st->ev = calloc(st->nr_ev ? st->nr_ev : 1, sizeof(*st->ev));
	st->tool = calloc(st->nr_ev ? st->nr_ev : 1, sizeof(*st->tool));
	if (!st->ev || !st->tool)
		return -1;
	for (size_t i = 0; i < st->nr_ev; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(st->el, i);
		struct stat_ev *ev = &st->ev[i];

		ev->name = e->name ? e->name : "?";
		ev->pmu = e->pmu;
		ev->kind = pk_shadow__kind_of_attr(&e->attr);
		ev->ctx = pk_shadow__ctx_of_attr(&e->attr);
		/* an alias's unit and scale (power/energy-pkg/: Joules, 2.3e-10) */
		ev->scale = e->scale > 0 ? e->scale : 1;
		ev->unit = e->unit ? e->unit : "";
		ev->frac = e->unit || ev->scale != 1;
		/*
		 * perf gives cpu-clock and task-clock msec; written as PMU terms
		 * ("software/config=1/") the PMU alias's unit replaces it: none.
		 */
		if (ev->kind == PK_SHADOW_NSECS && !strchr(ev->name, '/')) {
			ev->unit = "msec";
			ev->scale = 1e-6;
			ev->frac = true;
		}
		enum stat_tool t = tool_of(e);
		if (t != STAT_TOOL_NONE) {
			st->tool[i] = (unsigned char)t;
			ev->tool = true;
			ev->unit = "ns";
			ev->kind = PK_SHADOW_OTHER;
		}
	}
	return 0;
}

static enum pk_stat_aggr mode_of(enum stat_aggr a)
{
	switch (a) {
	case STAT_AGGR_CPU: return PK_STAT_AGGR_CPU;
	case STAT_AGGR_CORE: return PK_STAT_AGGR_CORE;
	case STAT_AGGR_DIE: return PK_STAT_AGGR_DIE;
	case STAT_AGGR_SOCKET: return PK_STAT_AGGR_SOCKET;
	case STAT_AGGR_THREAD: return PK_STAT_AGGR_THREAD;
	default: return PK_STAT_AGGR_GLOBAL;
	}
}

/* --per-thread: an id per thread slot, labelled "comm-tid" as perf, comm read now. */
static int build_thread_ids(struct stat_live *st)
{
	st->mode = PK_STAT_AGGR_THREAD;
	st->nr_ids = st->nr_tids;
	st->aggr = calloc(st->nr_tids + 1, sizeof(*st->aggr));
	st->ids = calloc(st->nr_tids + 1, sizeof(*st->ids));
	if (!st->aggr || !st->ids)
		return -1;
	for (size_t i = 0; i < st->nr_tids; i++) {
		char comm[64];
		if (pk_thread__comm(NULL, st->tids[i], comm, sizeof(comm)))
			snprintf(comm, sizeof(comm), "?");	/* gone already */
		st->aggr[i] = (struct pk_aggr_id){ -1, -1, -1, -1, -1, (int)i };
		snprintf(st->ids[i].label, sizeof(st->ids[i].label), "%s-%d", comm, (int)st->tids[i]);
		st->ids[i].cpu = -1;
		st->ids[i].nr = 1;
	}
	return 0;
}

static int cmp_tid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The aggregation ids (topology keys, or threads) and their labels. */
static int build_ids(struct stat_live *st)
{
	size_t nr = 0;

	if (st->cfg->aggr == STAT_AGGR_THREAD && st->tids)
		return build_thread_ids(st);
	st->mode = st->cpus && st->topo ? mode_of(st->cfg->aggr) : PK_STAT_AGGR_GLOBAL;
	if (st->mode == PK_STAT_AGGR_GLOBAL) {
		st->aggr = calloc(1, sizeof(*st->aggr));
		nr = 1;
	} else if (pk_topology__aggr_ids(st->topo, st->mode, st->cpus, &st->aggr, &nr)) {
		return -1;
	}
	st->ids = calloc(nr + 1, sizeof(*st->ids));
	if (!st->aggr || !st->ids)
		return -1;
	st->nr_ids = nr;
	for (size_t i = 0; i < nr; i++) {
		struct stat_id *id = &st->ids[i];
		pk_aggr_id__format(&st->aggr[i], st->mode, id->label, sizeof(id->label));
		id->cpu = st->mode == PK_STAT_AGGR_CPU ? st->aggr[i].cpu : -1;
		id->nr = 1;
		if (st->mode == PK_STAT_AGGR_GLOBAL)
			id->nr = st->cpus ? (int)pk_cpu_map__nr(st->cpus) : 1;
	}
	return 0;
}

int stat_live__init(struct stat_live *st, const struct stat_config *cfg, const struct cli_env *env,
		    const struct pk_evlist *el)
{
	struct pk_error err = { 0 };
	char msg[1024];

	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->env = env;
	st->el = el;
	if (build_events(st))
		goto nomem;
	if (cfg->cgroups) {	/* -G: perf's i-th cgroup for the i-th event */
		if (serve_cgroups__open(&st->cg, cfg->cgroups, st->nr_ev, cfg->cgroup_nr_ev)) {
			stat_live__fini(st);
			return -1;	/* said why */
		}
		for (size_t i = 0; i < st->nr_ev; i++)
			st->ev[i].cgroup = st->cg.name[i];
	}
	if (cfg->aggr == STAT_AGGR_THREAD && cfg->system_wide && !cfg->cpu_list) {
		/* perf's -a --per-thread: every thread of the machine, each on any CPU */
		if (pk_threads__all(NULL, &st->tids, &st->nr_tids, &err))
			goto fail;
		raise_nofile(st->nr_tids * st->nr_ev);
		st->enable_after_open = true;
	} else if (cfg->system_wide || cfg->cpu_list) {
		struct pk_cpu_map *online = NULL;
		if (pk_cpu_map__online(NULL, &online, &err))
			goto fail;
		if (cfg->cpu_list) {
			struct pk_cpu_map *want = NULL;
			if (pk_cpu_map__parse(&want, cfg->cpu_list, &err)) {
				pk_cpu_map__free(online);
				fprintf(stderr, "pmukit stat: -C %s: %s\n", cfg->cpu_list, err.msg);
				return -1;
			}
			if (!pk_cpu_map__is_subset(online, want)) {
				fprintf(stderr, "pmukit stat: -C %s: not every CPU is online\n", cfg->cpu_list);
				pk_cpu_map__free(online);
				pk_cpu_map__free(want);
				return -1;
			}
			pk_cpu_map__free(online);
			online = want;
		}
		st->cpus = online;
		if (cfg->aggr != STAT_AGGR_GLOBAL && pk_topology__read(&st->topo, NULL, &err))
			goto fail;
		st->enable_after_open = true;
	} else {
		if (cfg->pid_list || cfg->tid_list) {
			int r = cfg->pid_list ?
				pk_threads__from_pids(cfg->pid_list, NULL, &st->tids, &st->nr_tids, &err) :
				pk_threads__parse(cfg->tid_list, NULL, &st->tids, &st->nr_tids, &err);
			if (r)
				goto fail;
			/* perf's thread map lists them ascending: rows of equal counts in that order */
			if (cfg->aggr == STAT_AGGR_THREAD)
				qsort(st->tids, st->nr_tids, sizeof(*st->tids), cmp_tid);
			st->enable_after_open = true;
		} else {
			st->show_rusage = true;
		}
	}
	if (build_ids(st))
		goto nomem;
	st->cells = calloc(st->nr_ev * st->nr_ids + 1, sizeof(*st->cells));
	if (!st->cells)
		goto nomem;
	st->frame = (struct stat_frame){ .nr_ev = st->nr_ev, .nr_id = st->nr_ids, .ev = st->ev,
					 .id = st->ids, .interval = -1,
					 .skip_zero = st->mode == PK_STAT_AGGR_THREAD && cfg->system_wide };
	return 0;
nomem:
	fprintf(stderr, "pmukit stat: out of memory\n");
	stat_live__fini(st);
	return -1;
fail:
	fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&err, msg, sizeof(msg)));
	stat_live__fini(st);
	return -1;
}

void stat_live__fini(struct stat_live *st)
{
	stat_live__close(st);
	free(st->ev);
	free(st->tool);
	free(st->cells);
	free(st->aggr);
	free(st->ids);
	free(st->tids);
	pk_cpu_map__free(st->cpus);
	pk_topology__free(st->topo);
	serve_cgroups__close(&st->cg);
	memset(st, 0, sizeof(*st));
}

void stat_live__target(const struct stat_live *st, char *buf, size_t len)
{
	const struct stat_config *cfg = st->cfg;

	if (cfg->system_wide)
		snprintf(buf, len, "'system wide'");
	else if (cfg->cpu_list)
		snprintf(buf, len, "'CPU(s) %s'", cfg->cpu_list);
	else if (cfg->pid_list)
		snprintf(buf, len, "process id '%s'", cfg->pid_list);
	else if (cfg->tid_list)
		snprintf(buf, len, "thread id '%s'", cfg->tid_list);
	else {
		size_t o = snprintf(buf, len, "'");
		for (size_t i = 0; cfg->argv && cfg->argv[i] && o + 2 < len; i++) {
			int w = snprintf(buf + o, len - o, "%s%s", i ? " " : "", cfg->argv[i]);
			if (w < 0)
				break;
			o += (size_t)w;
		}
		if (o + 2 > len)
			o = len - 2;
		snprintf(buf + o, len - o, "'");
	}
}

int stat_live__open(struct stat_live *st, pid_t workload, struct pk_error *err)
{
	struct pk_count_opts o = {
		.sz = sizeof(o),
		.pid = workload,	/* ignored with cpus or tids */
		.cpus = st->cpus,
		.cpu_list = st->cfg->cpu_list != NULL,
		.tids = st->tids,
		.nr_tids = st->nr_tids,
		.pmus = st->env->pmus,
		.topo = st->topo,	/* NULL: the library reads it for per-package events */
		.cgroups = st->cg.fd,	/* -G */
	};
	stat_live__close(st);
	int r = pk_counter__open(&st->cnt, st->el, &o, err);
	if (r)
		return r;
	/*
	 * perf's stat_handle_error: an event the machine lacks is <not supported>,
	 * unless it leads a group of several, which ends the run.
	 */
	for (size_t i = 0; i < st->nr_ev; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(st->el, i);
		struct pk_count_value v;
		if (e->leader != i || e->nr_members < 2 || pk_counter__value(st->cnt, i, &v) ||
		    v.status != PK_COUNT_NOT_SUPPORTED || v.open_errno == ENODEV)
			continue;
		char why[512];
		pk_perf_open__strerror(&e->attr, st->ev[i].name, v.open_errno, st->cpus != NULL, why,
				       sizeof(why));
		stat_live__close(st);
		return pk_error__set(err, STAT_GROUP_UNSUPPORTED, NULL, 0, 0, "%s", why);
	}
	return 0;
}

void stat_live__close(struct stat_live *st)
{
	pk_counter__free(st->cnt);
	st->cnt = NULL;
}

void stat_live__read(struct stat_live *st, bool delta)
{
	struct pk_error err = { 0 };
	struct timespec ts;

	if (pk_counter__read(st->cnt, &err)) {
		char msg[1024];
		fprintf(stderr, "pmukit stat: %s\n", pk_error__format(&err, msg, sizeof(msg)));
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	st->read_ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	stat_live__cells(st, delta);
}

void stat_live__cells(struct stat_live *st, bool delta)
{
	for (size_t id = 0; id < st->nr_ids; id++)
		for (size_t e = 0; e < st->nr_ev; e++) {
			struct pk_count_value v;
			unsigned nr = 0;
			struct stat_cell *c = &st->cells[id * st->nr_ev + e];
			int r = pk_counter__value_aggr(st->cnt, e, st->topo, st->mode, &st->aggr[id],
						       delta ? PK_COUNT_DELTA : 0, &v, &nr);
			if (r) {	/* not on these CPUs (uncore, hybrid): perf prints nothing */
				*c = (struct stat_cell){ .status = PK_COUNT_NOT_COUNTED };
				/* a thread that exited before it was opened: perf drops it */
				if (st->mode == PK_STAT_AGGR_THREAD && r == -ENOENT)
					st->ids[id].hidden = true;
				continue;
			}
			*c = (struct stat_cell){ .status = v.status, .val = v.scaled, .ena = v.enabled,
						 .run = v.running };
			if (st->mode != PK_STAT_AGGR_GLOBAL && st->mode != PK_STAT_AGGR_CPU && nr)
				st->ids[id].nr = (int)nr;
		}
}
