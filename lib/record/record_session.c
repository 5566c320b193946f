/* SPDX-License-Identifier: MIT */
/*
 * record/record_session.c — a sampling session (pmukit/record.h) as perf record
 * sets one up: every event (the evlist's, then its tracking dummy) opened per
 * CPU slot and thread slot, group members through their leader's fd; one
 * ring buffer per CPU, mmap'd on the first fd opened there, every other fd of
 * that CPU redirected into it (PERF_EVENT_IOC_SET_OUTPUT); ids from
 * PERF_EVENT_IOC_ID; every fd polled (a per-task fd hangs up when its task
 * exits); the rings drained through record/ring.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmukit/count.h>
#include <pmukit/record.h>

#include "record/ring.h"
#include "util/error.h"
#include "util/sysctl.h"
#include "util/opts.h"

#define OPT(o, f, dflt) PK_OPTS_GET(o, f, dflt)

/* perf's default: 512 KiB of data per buffer when perf_event_mlock_kb allows it */
#define DEFAULT_DATA_BYTES (512u * 1024u)

struct rec_ev {
	struct perf_event_attr attr;
	const char *name;
	char *own_name;			/* the name after a fallback */
	size_t leader, nr_members;
	uint64_t acr_mask;
	bool tpebs;
	const char *pmu;
	struct pk_cpu_map *cpus;	/* where it is placed (NULL: every CPU slot) */
	int *fds;			/* [cpu slot * nr_threads + thread slot], -1: none */
	uint64_t *ids;
	size_t nr_ids;
};

struct rec_map {
	struct rec_ring ring;
	void *base;
	int fd;				/* the fd it is mmap'd on */
	int cpu;
};

struct id_ent {
	uint64_t id;
	size_t ev;
};

struct pk_record {
	struct rec_ev *ev;
	size_t nr_ev;
	int *cpu;			/* CPU slots */
	size_t nr_cpus;
	pid_t *tid;			/* thread slots (-1: every task) */
	size_t nr_threads;
	struct rec_map *maps;
	size_t nr_maps;
	size_t map_len;			/* control page + data */
	struct pollfd *pfd;		/* every event fd, then the caller's extra fd */
	bool *pfd_task;			/* the fd follows a task (hangs up when it exits) */
	size_t nr_pfd, task_alive, nr_task_fds;
	struct id_ent *ids;		/* sorted by id */
	size_t nr_ids;
	bool cycles_fallback;		/* opts: refused cycles become cpu-clock */
	size_t nr_fallbacks;
};

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int *fdp(struct pk_record *r, size_t e, size_t s, size_t t)
{
	return &r->ev[e].fds[s * r->nr_threads + t];
}

void pk_record__free(struct pk_record *r)
{
	if (!r)
		return;
	for (size_t m = 0; m < r->nr_maps; m++) {
		ring_fini(&r->maps[m].ring);
		if (r->maps[m].base)
			munmap(r->maps[m].base, r->map_len);
	}
	for (size_t e = 0; r->ev && e < r->nr_ev; e++) {	/* (NULL: open ran out of memory) */
		for (size_t k = 0; r->ev[e].fds && k < r->nr_cpus * r->nr_threads; k++)
			if (r->ev[e].fds[k] >= 0)
				close(r->ev[e].fds[k]);
		free(r->ev[e].fds);
		free(r->ev[e].ids);
		free(r->ev[e].own_name);
		pk_cpu_map__free(r->ev[e].cpus);
	}
	free(r->ev);
	free(r->cpu);
	free(r->tid);
	free(r->maps);
	free(r->pfd);
	free(r->pfd_task);
	free(r->ids);
	free(r);
}

/* This machine's kernel has a core (hardware) PMU: the real sysfs, whatever tree encoded the events. */
static bool machine_has_core(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3",
					     "armv8_pmuv3_0", "armv9_pmuv3", "armv8_cortex_a53" };
	char path[128];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", names[i]);
		if (!access(path, R_OK))
			return true;
	}
	return false;
}

size_t pk_record__features(const struct perf_event_attr *a, uint64_t acr_mask, char *buf,
			   size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
#define ADD(...) do { int w_ = snprintf(buf + used, len - used, __VA_ARGS__); \
		      if (w_ > 0 && (size_t)w_ < len - used) used += (size_t)w_; } while (0)
	bool hw = a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
		  a->type == PERF_TYPE_RAW || a->type >= PERF_TYPE_MAX;
	if (hw && !machine_has_core())
		ADD("; this machine has no hardware PMU (no core PMU under "
		    "/sys/bus/event_source/devices: a VM without a virtual PMU?)");
	if (a->precise_ip)
		ADD("; it asks for precise sampling (precise_ip %u, :p / :P)", (unsigned)a->precise_ip);
	if ((a->sample_type & PERF_SAMPLE_READ) && (a->read_format & PERF_FORMAT_GROUP))
		ADD("; leader sampling ({...}:S: PERF_SAMPLE_READ with PERF_FORMAT_GROUP)");
	if (a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT)
		ADD("; the weight struct (-W or :R, retire latency: PEBS on Intel)");
	else if (a->sample_type & PERF_SAMPLE_WEIGHT)
		ADD("; sample weights (-W)");
	if (acr_mask)
		ADD("; auto counter reload (ACR, mask 0x%llx: Intel PMUs with ACR, Linux 6.16+)",
		    (unsigned long long)acr_mask);
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		ADD("; branch stacks (LBR / BRBE)");
	if (a->sample_type & PERF_SAMPLE_DATA_SRC)
		ADD("; data addresses and sources (-d)");
#undef ADD
	return used;
}

static void features_text(const struct rec_ev *ev, char *buf, size_t len)
{
	pk_record__features(&ev->attr, ev->acr_mask, buf, len);
}

static int open_error(struct pk_record *r, const struct rec_ev *ev, int en, int cpu, pid_t tid,
		      struct pk_error *err)
{
	char feat[768], where[64] = "";
	const char *name = ev->name ? ev->name : "event";
	if (cpu >= 0 && tid > 0)
		snprintf(where, sizeof(where), " (CPU %d, thread %d)", cpu, (int)tid);
	else if (cpu >= 0)
		snprintf(where, sizeof(where), " on CPU %d", cpu);
	features_text(ev, feat, sizeof(feat));
	if (en == EACCES || en == EPERM)
		return pk_error__set(err, -en, NULL, 0, 0,
				     "%s%s: permission denied (kernel.perf_event_paranoid is %d: "
				     "recording other processes or CPUs needs it lower, or "
				     "CAP_PERFMON)%s", name, where, pk_sysctl__perf_paranoid(), feat);
	if (en == ESRCH)
		return pk_error__set(err, -en, NULL, 0, 0, "%s: no such process %d", name, (int)tid);
	if (en == ENOSYS)
		return pk_error__set(err, -en, NULL, 0, 0,
				     "%s: perf_event_open is not available (a kernel without perf "
				     "events, a seccomp filter, or an emulator)", name);
	if (en == EMFILE)
		return pk_error__set(err, -en, NULL, 0, 0,
				     "%s%s: too many open files (raise `ulimit -n`: %zu events x %zu "
				     "CPUs x %zu threads)", name, where, r->nr_ev, r->nr_cpus,
				     r->nr_threads);
	return pk_error__set(err, -en, NULL, 0, 0, "%s%s: the kernel refused the event: %s%s", name,
			     where, strerror(en), feat);
}

/* A copy of one event, and where it goes. */
static int add_ev(struct pk_record *r, size_t i, const struct pk_evsel *e, size_t leader,
		  const struct pk_cpu_map *map, bool cpu_list, const struct pk_pmu_tree *pmus)
{
	struct rec_ev *ev = &r->ev[i];
	ev->attr = e->attr;
	ev->name = e->name;
	ev->leader = leader;
	ev->nr_members = e->nr_members;
	ev->acr_mask = e->acr_mask;
	ev->tpebs = e->tpebs;
	ev->pmu = e->pmu;
	if (!(ev->fds = malloc(r->nr_cpus * r->nr_threads * sizeof(int))))
		return -ENOMEM;
	for (size_t k = 0; k < r->nr_cpus * r->nr_threads; k++)
		ev->fds[k] = -1;
	const struct pk_pmu *pmu = pmus && e->pmu ? pk_pmu_tree__find(pmus, e->pmu) : NULL;
	if (pmu) {
		int rc = pk_count__event_cpus(pmu, map, cpu_list, &ev->cpus);
		if (rc)
			return rc;
	}
	if (leader != i && r->ev[leader].cpus) {
		struct pk_cpu_map *m = NULL;
		int rc = ev->cpus ? pk_cpu_map__intersect(ev->cpus, r->ev[leader].cpus, &m)
				  : (m = pk_cpu_map__dup(r->ev[leader].cpus)) ? 0 : -ENOMEM;
		if (rc)
			return rc;
		pk_cpu_map__free(ev->cpus);
		ev->cpus = m;
	}
	return 0;
}

static bool placed(const struct pk_record *r, size_t e, size_t s)
{
	return !r->ev[e].cpus || pk_cpu_map__has(r->ev[e].cpus, r->cpu[s]);
}

/*
 * perf's name for a software event from its attr: the base name, then the
 * modifiers its attr says (perf's evsel__add_modifiers: k/u/h for the levels
 * counted when one is excluded, p per precise level, H/G when the guest
 * exclusion is not what those imply).
 */
static int modifier_name(char **out, const char *base, const struct perf_event_attr *a)
{
	char mod[16];
	size_t n = 0;
	bool guest_dflt = false;
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mod[n++] = 'k';
		if (!a->exclude_user)
			mod[n++] = 'u';
		if (!a->exclude_hv)
			mod[n++] = 'h';
		guest_dflt = true;
	}
	for (unsigned p = 0; p < a->precise_ip && p < 3; p++)
		mod[n++] = 'p';
	if (a->precise_ip)
		guest_dflt = true;
	if (a->exclude_host || (bool)a->exclude_guest == guest_dflt) {
		if (!a->exclude_host)
			mod[n++] = 'H';
		if (!a->exclude_guest)
			mod[n++] = 'G';
	}
	mod[n] = '\0';
	size_t len = strlen(base) + n + 2;
	if (!(*out = malloc(len)))
		return -ENOMEM;
	snprintf(*out, len, "%s%s%s", base, n ? ":" : "", mod);
	return 0;
}

/*
 * perf record's fallback: hardware cycles the kernel has no PMU for
 * (ENOENT, ENXIO, ENODEV) sample the CPU clock instead, same attr otherwise,
 * renamed from the attr. True when ev was changed (open it again).
 */
static bool cycles_fallback(struct pk_record *r, struct rec_ev *ev, int en)
{
	if (!r->cycles_fallback || (en != ENOENT && en != ENXIO && en != ENODEV) ||
	    ev->attr.type != PERF_TYPE_HARDWARE || ev->attr.config != PERF_COUNT_HW_CPU_CYCLES)
		return false;
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	free(ev->own_name);
	if (modifier_name(&ev->own_name, "cpu-clock", &ev->attr))
		ev->own_name = NULL;
	ev->name = ev->own_name ? ev->own_name : "cpu-clock";
	r->nr_fallbacks++;
	return true;
}

/* Open event e everywhere it goes; a thread gone meanwhile (-p) is dropped. */
static int open_ev(struct pk_record *r, size_t e, bool *gone, struct pk_error *err)
{
	struct rec_ev *ev = &r->ev[e];
	for (size_t s = 0; s < r->nr_cpus; s++) {
		if (!placed(r, e, s))
			continue;
		for (size_t t = 0; t < r->nr_threads; t++) {
			if (gone[t])
				continue;
			int group_fd = -1;
			if (ev->leader != e && (group_fd = *fdp(r, ev->leader, s, t)) < 0)
				continue;
again:;
			struct perf_event_attr attr = ev->attr;
			int fd = sys_perf_event_open(&attr, r->tid[t], r->cpu[s], group_fd);
			if (fd >= 0) {
				*fdp(r, e, s, t) = fd;
				continue;
			}
			int en = errno;
			if (cycles_fallback(r, ev, en))
				goto again;	/* as cpu-clock */
			if (en == ESRCH && r->nr_threads > 1 && r->tid[t] > 0) {
				gone[t] = true;	/* perf's ignore_missing_thread */
				for (size_t k = 0; k <= e; k++)
					for (size_t c = 0; c < r->nr_cpus; c++) {
						int *f = fdp(r, k, c, t);
						if (*f >= 0)
							close(*f);
						*f = -1;
					}
				continue;
			}
			return open_error(r, ev, en, r->cpu[s], r->tid[t], err);
		}
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_ent *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Ring buffers: per CPU slot, the first fd opened there; the others SET_OUTPUT into it. */
static int map_all(struct pk_record *r, size_t data_pages, struct pk_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	r->map_len = (data_pages + 1) * page;
	if (!(r->maps = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*r->maps))))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	for (size_t s = 0; s < r->nr_cpus; s++) {
		struct rec_map *m = NULL;
		for (size_t t = 0; t < r->nr_threads; t++)
			for (size_t e = 0; e < r->nr_ev; e++) {
				int fd = *fdp(r, e, s, t);
				if (fd < 0)
					continue;
				if (m) {
					if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->fd))
						return pk_error__set(err, -errno, NULL, 0, 0,
							"%s on CPU %d: PERF_EVENT_IOC_SET_OUTPUT: %s",
							r->ev[e].name, r->cpu[s], strerror(errno));
					continue;
				}
				m = &r->maps[r->nr_maps];
				void *base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
				if (base == MAP_FAILED) {
					int en = errno;
					return pk_error__set(err, -en, NULL, 0, 0,
						"mmap of a %zu KiB ring buffer on CPU %d: %s%s", data_pages * page / 1024,
						r->cpu[s], strerror(en),
						en == EPERM || en == ENOMEM ?
						" (locked memory beyond kernel.perf_event_mlock_kb and RLIMIT_MEMLOCK: try a smaller -m)" : "");
				}
				m->base = base;
				m->fd = fd;
				m->cpu = r->cpu[s];
				r->nr_maps++;
				if (ring_init(&m->ring, base, (unsigned char *)base + page,
					      (uint64_t)data_pages * page))
					return pk_error__set(err, -EINVAL, NULL, 0, 0, "bad ring buffer size");
			}
	}
	return 0;
}

static int collect_ids(struct pk_record *r, struct pk_error *err)
{
	size_t total = 0;
	for (size_t e = 0; e < r->nr_ev; e++)
		for (size_t k = 0; k < r->nr_cpus * r->nr_threads; k++)
			total += r->ev[e].fds[k] >= 0;
	if (!(r->ids = calloc(total ? total : 1, sizeof(*r->ids))))
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	for (size_t e = 0; e < r->nr_ev; e++) {
		struct rec_ev *ev = &r->ev[e];
		if (!(ev->ids = calloc(r->nr_cpus * r->nr_threads + 1, sizeof(uint64_t))))
			return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		for (size_t k = 0; k < r->nr_cpus * r->nr_threads; k++) {
			uint64_t id;
			if (ev->fds[k] < 0)
				continue;
			if (ioctl(ev->fds[k], PERF_EVENT_IOC_ID, &id))
				return pk_error__set(err, -errno, NULL, 0, 0, "%s: PERF_EVENT_IOC_ID: %s",
						     ev->name, strerror(errno));
			ev->ids[ev->nr_ids++] = id;
			r->ids[r->nr_ids++] = (struct id_ent){ .id = id, .ev = e };
		}
	}
	qsort(r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
	return 0;
}

static int setup_poll(struct pk_record *r)
{
	size_t total = 0;
	for (size_t e = 0; e < r->nr_ev; e++)
		for (size_t k = 0; k < r->nr_cpus * r->nr_threads; k++)
			total += r->ev[e].fds[k] >= 0;
	if (!(r->pfd = calloc(total + 1, sizeof(*r->pfd))) ||
	    !(r->pfd_task = calloc(total + 1, sizeof(*r->pfd_task))))
		return -ENOMEM;
	for (size_t s = 0; s < r->nr_cpus; s++)
		for (size_t t = 0; t < r->nr_threads; t++)
			for (size_t e = 0; e < r->nr_ev; e++) {
				int fd = *fdp(r, e, s, t);
				if (fd < 0)
					continue;
				r->pfd[r->nr_pfd] = (struct pollfd){ .fd = fd, .events = POLLIN };
				r->pfd_task[r->nr_pfd] = r->tid[t] >= 0;
				r->nr_task_fds += r->tid[t] >= 0;
				r->nr_pfd++;
			}
	r->task_alive = r->nr_task_fds;
	return 0;
}

int pk_record__open(struct pk_record **out, const struct pk_evlist *el,
		    const struct pk_record_opts *opts, struct pk_error *err)
{
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_record_opts", opts->sz);
	pid_t pid = OPT(opts, pid, 0);
	const pid_t *tids = OPT(opts, tids, NULL);
	size_t nr_tids = tids ? OPT(opts, nr_tids, 0) : 0;
	const struct pk_cpu_map *cpus = OPT(opts, cpus, NULL);
	bool cpu_list = OPT(opts, cpu_list, false);
	const struct pk_pmu_tree *pmus = OPT(opts, pmus, NULL);
	size_t pages = OPT(opts, mmap_pages, 0);
	bool no_tracking = OPT(opts, no_tracking, false);
	bool fallback = OPT(opts, cycles_fallback, false);
	struct pk_cpu_map *online = NULL;
	bool *gone = NULL;
	int ret;

	*out = NULL;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (!pages)
		pages = DEFAULT_DATA_BYTES / page ? DEFAULT_DATA_BYTES / page : 1;
	if (pages & (pages - 1))
		return pk_error__set(err, -EINVAL, NULL, 0, 0,
				     "ring buffer of %zu pages: the number of data pages must be a power of two",
				     pages);
	size_t nr = pk_evlist__nr(el);
	const struct pk_evsel *track = no_tracking ? NULL : pk_evlist__tracking(el);
	if (!nr)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no events to record");
	for (size_t i = 0; i < nr; i++)
		if (pk_evlist__evsel(el, i)->attr.write_backward)
			return pk_error__set(err, -EOPNOTSUPP, NULL, 0, 0,
					     "%s: overwrite (backward) ring buffers are not supported",
					     pk_evlist__evsel(el, i)->name);
	struct pk_record *r = calloc(1, sizeof(*r));
	if (!r)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	if (!cpus) {
		if ((ret = pk_cpu_map__online(NULL, &online, err)))
			goto fail;
		cpus = online;
		cpu_list = false;
	}
	r->cycles_fallback = fallback;
	r->nr_cpus = pk_cpu_map__nr(cpus);
	r->nr_threads = nr_tids ? nr_tids : 1;
	r->nr_ev = nr + (track ? 1 : 0);
	ret = -ENOMEM;
	if (!(r->cpu = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(int))) ||
	    !(r->tid = calloc(r->nr_threads, sizeof(pid_t))) ||
	    !(r->ev = calloc(r->nr_ev, sizeof(*r->ev))) || !(gone = calloc(r->nr_threads, 1)))
		goto oom;
	for (size_t s = 0; s < r->nr_cpus; s++)
		r->cpu[s] = pk_cpu_map__cpu(cpus, s);
	if (nr_tids)
		memcpy(r->tid, tids, nr_tids * sizeof(pid_t));
	else
		r->tid[0] = pid;
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		if ((ret = add_ev(r, i, e, e->leader < i ? e->leader : i, cpus, cpu_list, pmus)))
			goto oom;
	}
	if (track && (ret = add_ev(r, nr, track, nr, cpus, cpu_list, NULL)))
		goto oom;
	for (size_t e = 0; e < r->nr_ev; e++) {
		struct rec_ev *ev = &r->ev[e];
		if (ev->cpus && !pk_cpu_map__nr(ev->cpus)) {
			char feat[768];
			features_text(ev, feat, sizeof(feat));
			ret = pk_error__set(err, -ENODEV, NULL, 0, 0,
					    "%s: none of the CPUs recorded is one of its PMU's (%s)%s",
					    ev->name ? ev->name : "event", ev->pmu ? ev->pmu : "?", feat);
			goto fail;
		}
		if ((ret = open_ev(r, e, gone, err)))
			goto fail;
	}
	bool any = false;
	for (size_t t = 0; t < r->nr_threads; t++)
		any |= !gone[t];
	if (!any) {
		ret = pk_error__set(err, -ESRCH, NULL, 0, 0, "no such process: every thread exited");
		goto fail;
	}
	if ((ret = map_all(r, pages, err)) || (ret = collect_ids(r, err)))
		goto fail;
	if ((ret = setup_poll(r)))
		goto oom;
	free(gone);
	pk_cpu_map__free(online);
	*out = r;
	return 0;
oom:
	ret = pk_error__set(err, ret ? ret : -ENOMEM, NULL, 0, 0, "out of memory");
fail:
	free(gone);
	pk_cpu_map__free(online);
	pk_record__free(r);
	return ret;
}

size_t pk_record__fallbacks(const struct pk_record *r)
{
	return r ? r->nr_fallbacks : 0;
}

size_t pk_record__nr_events(const struct pk_record *r)
{
	return r ? r->nr_ev : 0;
}

int pk_record__event(const struct pk_record *r, size_t idx, struct pk_record_event *out)
{
	if (!r || idx >= r->nr_ev)
		return -EINVAL;
	const struct rec_ev *ev = &r->ev[idx];
	*out = (struct pk_record_event){ .attr = &ev->attr, .name = ev->name, .leader = ev->leader,
					 .nr_members = ev->nr_members, .ids = ev->ids,
					 .nr_ids = ev->nr_ids };
	return 0;
}

long pk_record__event_of_id(const struct pk_record *r, uint64_t id)
{
	struct id_ent key = { .id = id };
	const struct id_ent *f = r ? bsearch(&key, r->ids, r->nr_ids, sizeof(key), cmp_id) : NULL;
	return f ? (long)f->ev : -1;
}

static int ioctl_leaders(struct pk_record *r, unsigned long req, const char *what,
			 struct pk_error *err)
{
	for (size_t e = 0; e < r->nr_ev; e++) {
		if (r->ev[e].leader != e)
			continue;
		for (size_t k = 0; k < r->nr_cpus * r->nr_threads; k++)
			if (r->ev[e].fds[k] >= 0 && ioctl(r->ev[e].fds[k], req, 0) && errno != ESRCH)
				return pk_error__set(err, -errno, NULL, 0, 0, "%s: %s: %s", r->ev[e].name,
						     what, strerror(errno));
	}
	return 0;
}

int pk_record__set_filter(struct pk_record *r, size_t idx, const char *filter,
			  struct pk_error *err)
{
	if (!r || idx >= r->nr_ev || !filter)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no such event to filter");
	const struct rec_ev *ev = &r->ev[idx];
	for (size_t k = 0; k < r->nr_cpus * r->nr_threads; k++)
		if (ev->fds[k] >= 0 && ioctl(ev->fds[k], PERF_EVENT_IOC_SET_FILTER, filter)) {
			int en = errno;
			return pk_error__set(err, -en, NULL, 0, 0,
					     "failed to set filter \"%s\" on event %s with %d (%s)",
					     filter, ev->name ? ev->name : "?", en, strerror(en));
		}
	return 0;
}

int pk_record__enable(struct pk_record *r, struct pk_error *err)
{
	return ioctl_leaders(r, PERF_EVENT_IOC_ENABLE, "PERF_EVENT_IOC_ENABLE", err);
}

int pk_record__disable(struct pk_record *r, struct pk_error *err)
{
	return ioctl_leaders(r, PERF_EVENT_IOC_DISABLE, "PERF_EVENT_IOC_DISABLE", err);
}

int pk_record__poll(struct pk_record *r, int timeout_ms, int extra_fd)
{
	size_t n = r->nr_pfd;
	r->pfd[n] = (struct pollfd){ .fd = extra_fd, .events = POLLIN };
	if (r->nr_task_fds && !r->task_alive && r->nr_task_fds == r->nr_pfd)
		return PK_RECORD_HUP;
	int rc = poll(r->pfd, n + 1, timeout_ms);
	if (rc < 0)
		return -errno;
	if (!rc)
		return 0;
	bool ready = false;
	for (size_t i = 0; i < n; i++) {
		short re = r->pfd[i].revents;
		if (re & POLLIN)
			ready = true;
		if (re & (POLLHUP | POLLERR)) {
			/* its task is gone: stop watching it (it would stay readable forever) */
			r->pfd[i].fd = -1;
			if (r->pfd_task[i] && r->task_alive)
				r->task_alive--;
		}
	}
	if (extra_fd >= 0 && (r->pfd[n].revents & (POLLIN | POLLHUP | POLLERR)))
		return PK_RECORD_WAKE;
	if (r->nr_task_fds && !r->task_alive && r->nr_task_fds == r->nr_pfd)
		return PK_RECORD_HUP;
	return ready ? PK_RECORD_READY : 0;
}

long long pk_record__drain(struct pk_record *r, pk_record_sink sink, void *ctx,
			   struct pk_error *err)
{
	long long total = 0;
	for (size_t m = 0; m < r->nr_maps; m++) {
		long long n = ring_drain(&r->maps[m].ring, sink, ctx);
		if (n < 0)
			return pk_error__set(err, (int)n, NULL, 0, 0, "%s",
					     n == -ENOMEM ? "out of memory" : strerror((int)-n));
		total += n;
	}
	return total;
}
