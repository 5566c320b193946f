/* SPDX-License-Identifier: MIT */
/*
 * count.c — counting mode over a pk_evlist: perf_event_open per evsel, CPU
 * slot and thread slot (group members through their leader's fd on the same
 * CPU/thread, in evlist order), events placed on CPUs by their PMU, enable/
 * disable through the group leaders, reads with the attr's read_format
 * keeping the previous reading for interval deltas, the package of each CPU
 * slot when a per-package event is counted on CPUs. Values: value.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmukit/count.h>

#include "count/count_int.h"
#include "util/error.h"
#include "util/sysctl.h"
#include "util/opts.h"

/* an opts field, or its default when the caller's struct is older (shorter) */
#define OPT(o, f, dflt) PK_OPTS_GET(o, f, dflt)

static bool not_supported(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == EINVAL || e == ENODEV;
}

static size_t nr_fds(const struct pk_counter *c)
{
	return c->nr_cpus * c->nr_threads;
}

static void close_ev(struct pk_counter *c, size_t i)
{
	struct cnt_ev *ev = &c->ev[i];
	for (size_t k = 0; ev->fds && k < nr_fds(c); k++) {
		if (ev->fds[k].fd >= 0)
			close(ev->fds[k].fd);
		ev->fds[k].fd = -1;
	}
}

void pk_counter__free(struct pk_counter *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		close_ev(c, i);
		free(c->ev[i].fds);
		pk_cpu_map__free(c->ev[i].cpus);
	}
	free(c->ev);
	free(c->cpu);
	pk_cpu_map__free(c->cpus);
	free(c->tid);
	free(c->pkg);
	free(c->buf);
	free(c->vals);
	free(c);
}

static void mark_unsupported(struct pk_counter *c, size_t i, int en)
{
	close_ev(c, i);
	c->ev[i].supported = false;
	c->ev[i].open_errno = en;
}

/* Where each event goes (counting on map): its PMU's placement, members within their leader's. */
static int place(struct pk_counter *c, const struct pk_evlist *el, const struct pk_cpu_map *map,
		 bool cpu_list, const struct pk_pmu_tree *pmus)
{
	struct pk_cpu_map *all = pk_cpu_map__dup(NULL);
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		struct cnt_ev *ev = &c->ev[i];
		int r;
		if (e->pmu && !strcmp(e->pmu, "tool")) {	/* perf computes these once, on CPU 0 */
			int first = pk_cpu_map__cpu(map, 0);
			r = pk_cpu_map__new(&ev->cpus, &first, first >= 0);
		} else {
			const struct pk_pmu *pmu = pmus && e->pmu ? pk_pmu_tree__find(pmus, e->pmu) : NULL;
			r = pk_count__event_cpus(pmu, map, cpu_list, &ev->cpus);
		}
		if (!r && ev->leader != i) {
			struct pk_cpu_map *m;
			if (!(r = pk_cpu_map__intersect(ev->cpus, c->ev[ev->leader].cpus, &m))) {
				pk_cpu_map__free(ev->cpus);
				ev->cpus = m;
			}
		}
		struct pk_cpu_map *u = NULL;
		if (r || (r = pk_cpu_map__merge(all, ev->cpus, &u))) {
			pk_cpu_map__free(all);
			return r;
		}
		pk_cpu_map__free(all);
		all = u;
	}
	c->cpus = all;
	c->nr_cpus = pk_cpu_map__nr(all);
	c->cpu = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(int));
	if (!c->cpu)
		return -ENOMEM;
	for (size_t s = 0; s < c->nr_cpus; s++)
		c->cpu[s] = pk_cpu_map__cpu(all, s);
	return 0;
}

int cnt_set_packages(struct pk_counter *c, const struct pk_topology *t)
{
	free(c->pkg);
	c->pkg = malloc((c->nr_cpus ? c->nr_cpus : 1) * sizeof(*c->pkg));
	if (!c->pkg)
		return -ENOMEM;
	for (size_t s = 0; s < c->nr_cpus; s++) {
		struct pk_cpu_topo ct;
		c->pkg[s] = -1;
		if (c->cpu[s] >= 0 && t && !pk_topology__cpu(t, c->cpu[s], &ct) && ct.socket >= 0 &&
		    ct.die >= 0)
			c->pkg[s] = (long long)((uint64_t)(unsigned)ct.die << 32 | (unsigned)ct.socket);
	}
	return 0;
}

/* Per-package events counted on CPUs: every CPU slot's package, from topo or this machine's. */
static int set_packages(struct pk_counter *c, const struct pk_topology *topo)
{
	bool any = false;
	for (size_t i = 0; i < c->nr; i++)
		any |= c->ev[i].per_pkg;
	if (!any || !c->cpus)
		return 0;
	if (topo)
		return cnt_set_packages(c, topo);
	struct pk_topology *own = NULL;
	pk_topology__read(&own, NULL, NULL);	/* unreadable: every CPU a package of its own */
	int r = cnt_set_packages(c, own);
	pk_topology__free(own);
	return r;
}

/* Is event i opened on CPU slot s? */
static bool placed(const struct pk_counter *c, size_t i, size_t s)
{
	return !c->ev[i].cpus || pk_cpu_map__has(c->ev[i].cpus, c->cpu[s]);
}

/* Root of the initial user namespace, whom kernel.perf_event_paranoid does not limit. */
static bool real_root(void)
{
	char line[128];
	unsigned long inner, outer, count;
	bool init_ns = false;
	if (geteuid() != 0)
		return false;
	FILE *f = fopen("/proc/self/uid_map", "r");
	if (!f)
		return true;	/* no user namespaces here */
	if (fgets(line, sizeof(line), f) && sscanf(line, "%lu %lu %lu", &inner, &outer, &count) == 3)
		init_ns = inner == 0 && outer == 0 && count == 4294967295UL;
	fclose(f);
	return init_ns;
}

static int open_error(struct pk_error *err, int en, const char *name, int cpu, pid_t tid)
{
	char where[64] = "";
	if (cpu >= 0 && tid >= 0)
		snprintf(where, sizeof(where), " (CPU %d, thread %d)", cpu, (int)tid);
	else if (cpu >= 0)
		snprintf(where, sizeof(where), " on CPU %d", cpu);
	if ((en == EACCES || en == EPERM) && real_root())	/* the sysctl does not limit root */
		return pk_error__set(err, -en, NULL, 0, 0, "%s%s: the kernel refuses this event even to "
			"root (%s): some events take only some modifiers (ftrace:function counts the "
			"kernel only), or a lockdown or security policy forbids it", name, where,
			strerror(en));
	if (en == EACCES || en == EPERM)
		return pk_error__set(err, -en, NULL, 0, 0, "%s%s: permission denied (kernel.perf_event_paranoid is %d; "
			"counting other processes' events needs /proc/sys/kernel/"
			"perf_event_paranoid <= 2 for user mode, <= 1 for kernel mode, "
			"<= 0 for CPU-wide, or CAP_PERFMON)", name, where, pk_sysctl__perf_paranoid());
	if (en == ESRCH)
		return pk_error__set(err, -en, NULL, 0, 0, "%s: no such process %d", name, (int)tid);
	if (en == ENOSYS)
		return pk_error__set(err, -en, NULL, 0, 0, "%s: perf_event_open is not available (kernel without "
			"perf events, a seccomp filter, or an emulator)", name);
	return pk_error__set(err, -en, NULL, 0, 0, "%s%s: perf_event_open: %s", name, where, strerror(en));
}

/* Close thread slot t of every event (it exited before we could open it everywhere). */
static void drop_thread(struct pk_counter *c, size_t t)
{
	for (size_t i = 0; i < c->nr; i++)
		for (size_t s = 0; c->ev[i].fds && s < c->nr_cpus; s++) {
			struct cnt_fd *f = cnt_fd(c, i, s, t);
			if (f->fd >= 0)
				close(f->fd);
			f->fd = -1;
		}
}

/* Open event i everywhere it goes. 0, or a fatal -errno with err filled. */
static int open_ev(struct pk_counter *c, size_t i, const struct pk_evsel *e, bool *gone,
		   struct pk_error *err)
{
	struct cnt_ev *ev = &c->ev[i];
	const char *name = e->name ? e->name : "event";

	for (size_t s = 0; s < c->nr_cpus; s++) {
		if (!placed(c, i, s))
			continue;
		for (size_t t = 0; t < c->nr_threads; t++) {
			if (gone[t])
				continue;
			int group_fd = -1;
			if (ev->leader != i) {
				group_fd = cnt_fd(c, ev->leader, s, t)->fd;
				if (group_fd < 0)
					continue;
			}
			struct perf_event_attr attr = e->attr;
			/* perf's fallbacks: the msr PMU refuses exclude_guest, say */
			int fd = ev->cgroup_fd >= 0 && c->cpu[s] >= 0 ?
				pk_perf_open_flags(&attr, ev->cgroup_fd, c->cpu[s], group_fd,
						   PERF_FLAG_PID_CGROUP, &c->open_state) :
				pk_perf_open(&attr, c->tid[t], c->cpu[s], group_fd, &c->open_state);
			if (fd >= 0) {
				cnt_fd(c, i, s, t)->fd = fd;
				continue;
			}
			int en = -fd;
			if (not_supported(en)) {
				mark_unsupported(c, i, en);
				return 0;
			}
			if (en == ESRCH && c->nr_threads > 1 && c->tid[t] > 0) {
				gone[t] = true;	/* perf's ignore_missing_thread */
				drop_thread(c, t);
				continue;
			}
			return open_error(err, en, name, c->cpu[s], c->tid[t]);
		}
	}
	return 0;
}

int pk_counter__open(struct pk_counter **out, const struct pk_evlist *el,
		     const struct pk_count_opts *opts, struct pk_error *err)
{
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_count_opts", opts->sz);
	pid_t pid = OPT(opts, pid, 0);
	const struct pk_cpu_map *map = OPT(opts, cpus, NULL);
	bool cpu_list = OPT(opts, cpu_list, false);
	const pid_t *tids = OPT(opts, tids, NULL);
	size_t nr_tids = tids ? OPT(opts, nr_tids, 0) : 0;
	const struct pk_pmu_tree *pmus = OPT(opts, pmus, NULL);
	const struct pk_topology *topo = OPT(opts, topo, NULL);
	const int *cgroups = OPT(opts, cgroups, NULL);
	struct pk_counter *c = calloc(1, sizeof(*c));
	size_t nr = pk_evlist__nr(el);
	bool *gone = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	if (!c || !(c->ev = calloc(nr ? nr : 1, sizeof(*c->ev))))
		goto oom;
	c->nr = nr;
	c->max_group = 1;
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		struct cnt_ev *ev = &c->ev[i];
		ev->name = e->name;
		ev->leader = e->leader < i ? e->leader : i;	/* leaders come first */
		ev->read_format = e->attr.read_format;
		ev->supported = true;
		ev->per_pkg = e->per_pkg;
		ev->cgroup_fd = cgroups && map ? cgroups[i] : -1;
		if (e->nr_members > c->max_group)
			c->max_group = e->nr_members;
	}
	/* thread slots */
	c->nr_threads = nr_tids ? nr_tids : 1;
	if (!(c->tid = calloc(c->nr_threads, sizeof(pid_t))) || !(gone = calloc(c->nr_threads, 1)))
		goto oom;
	if (nr_tids)
		memcpy(c->tid, tids, nr_tids * sizeof(pid_t));
	else
		c->tid[0] = map ? -1 : pid;
	/* CPU slots */
	if (map) {
		if (place(c, el, map, cpu_list, pmus))
			goto oom;
	} else {
		c->nr_cpus = 1;
		if (!(c->cpu = calloc(1, sizeof(int))))
			goto oom;
		c->cpu[0] = -1;		/* any CPU */
	}
	if (set_packages(c, topo))
		goto oom;
	for (size_t i = 0; i < nr; i++) {
		struct cnt_ev *ev = &c->ev[i];
		if (!(ev->fds = malloc((nr_fds(c) ? nr_fds(c) : 1) * sizeof(*ev->fds))))
			goto oom;
		for (size_t k = 0; k < nr_fds(c); k++)
			ev->fds[k] = (struct cnt_fd){ .fd = -1 };
	}
	for (size_t i = 0; i < nr; i++) {
		struct cnt_ev *ev = &c->ev[i];
		if (ev->leader != i && !c->ev[ev->leader].supported) {
			/* its leader is not here: neither is it */
			mark_unsupported(c, i, c->ev[ev->leader].open_errno);
			continue;
		}
		if (ev->cpus && !pk_cpu_map__nr(ev->cpus)) {	/* none of its PMU's CPUs */
			mark_unsupported(c, i, ENODEV);
			continue;
		}
		if ((ret = open_ev(c, i, pk_evlist__evsel(el, i), gone, err)))
			goto fail;
	}
	bool any = false;
	for (size_t t = 0; t < c->nr_threads; t++)
		any |= !gone[t];
	if (!any) {
		ret = pk_error__set(err, -ESRCH, NULL, 0, 0, "no such process: every thread exited");
		goto fail;
	}
	/* group read: nr, enabled, running, then { value, id, lost } per member */
	c->buf_words = 3 + c->max_group * 3;
	if (!(c->buf = calloc(c->buf_words, sizeof(uint64_t))) ||
	    !(c->vals = calloc(c->max_group, sizeof(*c->vals))))
		goto oom;
	free(gone);
	*out = c;
	return 0;
oom:
	ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
fail:
	free(gone);
	pk_counter__free(c);
	return ret;
}

static int ioctl_leaders(struct pk_counter *c, unsigned long req, const char *what,
			 struct pk_error *err)
{
	for (size_t i = 0; c && i < c->nr; i++) {
		if (c->ev[i].leader != i || !c->ev[i].supported)
			continue;
		for (size_t k = 0; k < nr_fds(c); k++) {
			int fd = c->ev[i].fds[k].fd;
			if (fd >= 0 && ioctl(fd, req, 0) < 0) {
				int en = errno;
				return pk_error__set(err, -en, NULL, 0, 0, "%s: %s: %s",
						     c->ev[i].name ? c->ev[i].name : "event", what,
						     strerror(en));
			}
		}
	}
	return 0;
}

int pk_counter__enable(struct pk_counter *c, struct pk_error *err)
{
	return ioctl_leaders(c, PERF_EVENT_IOC_ENABLE, "enable", err);
}

int pk_counter__disable(struct pk_counter *c, struct pk_error *err)
{
	return ioctl_leaders(c, PERF_EVENT_IOC_DISABLE, "disable", err);
}

static void store(struct cnt_fd *f, const struct pk_count_value *v)
{
	memcpy(f->prev, f->cur, sizeof(f->cur));
	f->cur[0] = v->raw;
	f->cur[1] = v->enabled;
	f->cur[2] = v->running;
}

int pk_counter__read(struct pk_counter *c, struct pk_error *err)
{
	for (size_t i = 0; i < c->nr; i++) {
		struct cnt_ev *ev = &c->ev[i];
		bool group = ev->read_format & PERF_FORMAT_GROUP;

		if (!ev->supported || (group && ev->leader != i))
			continue;
		for (size_t s = 0; s < c->nr_cpus; s++)
			for (size_t t = 0; t < c->nr_threads; t++) {
				struct cnt_fd *f = cnt_fd(c, i, s, t);
				if (f->fd < 0)
					continue;
				ssize_t n = read(f->fd, c->buf, c->buf_words * sizeof(uint64_t));
				if (n < 0) {
					int en = errno;
					return pk_error__set(err, -en, NULL, 0, 0, "read: %s", strerror(en));
				}
				if (!group) {
					struct pk_count_value v;
					if (pk_count__decode(ev->read_format, c->buf, (size_t)n, 1, &v))
						goto short_read;
					store(f, &v);
					continue;
				}
				/* the members opened here, in open order, follow their leader */
				size_t nr = n >= 8 ? (size_t)c->buf[0] : 0, k = 0;
				if (!nr || nr > c->max_group ||
				    pk_count__decode(ev->read_format, c->buf, (size_t)n, nr, c->vals))
					goto short_read;
				for (size_t j = i; j < c->nr && k < nr; j++) {
					struct cnt_fd *m = cnt_fd(c, j, s, t);
					if (c->ev[j].leader != i || m->fd < 0)
						continue;
					store(m, &c->vals[k++]);
				}
				if (k != nr)
					goto short_read;
			}
	}
	return 0;
short_read:
	return pk_error__set(err, -EIO, NULL, 0, 0, "read: unexpected counter data");
}

size_t pk_counter__nr(const struct pk_counter *c)
{
	return c ? c->nr : 0;
}

size_t pk_counter__nr_cpus(const struct pk_counter *c)
{
	return c ? c->nr_cpus : 0;
}

int pk_counter__cpu(const struct pk_counter *c, size_t slot)
{
	return c && slot < c->nr_cpus ? c->cpu[slot] : -1;
}

const struct pk_cpu_map *pk_counter__cpus(const struct pk_counter *c)
{
	return c ? c->cpus : NULL;
}

const struct pk_cpu_map *pk_counter__event_cpus(const struct pk_counter *c, size_t idx)
{
	return c && idx < c->nr ? c->ev[idx].cpus : NULL;
}

size_t pk_counter__nr_threads(const struct pk_counter *c)
{
	return c ? c->nr_threads : 0;
}

pid_t pk_counter__thread(const struct pk_counter *c, size_t slot)
{
	return c && slot < c->nr_threads ? c->tid[slot] : -1;
}
