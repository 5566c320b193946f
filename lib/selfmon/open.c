/* SPDX-License-Identifier: MIT */
/*
 * open.c — opening a self-monitoring group: from a spec string (through
 * pk_evlist with perf stat's defaults) or from attrs; the attr overrides
 * (pid 0 / cpu -1, leader disabled, no inherit, read_format
 * GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID); the arm64 user-access
 * bits; perf_event_open with messages that say what to do; and the one
 * choice of read path per group (user pages when every member is mapped with
 * cap_user_rdpmc and the group is the calling thread's on any CPU, read(2)
 * otherwise). Also close and the test hook that swaps in synthetic pages.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmukit/alias.h>
#include <pmukit/selfmon.h>
#include <pmukit/spec.h>

#include "util/error.h"
#include "util/sysctl.h"

#include "selfmon/selfmon_int.h"
#include "util/opts.h"

#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

static _Thread_local const char thread_anchor;

const void *selfmon_thread_anchor(void)
{
	return &thread_anchor;
}

static void open_error(struct pk_error *err, const char *name, int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		pk_error__set(err, -e, NULL, 0, 0, "%s: permission denied (kernel.perf_event_paranoid is %d; "
			"counting your own thread in user mode needs <= 2, kernel mode <= 1, "
			"or CAP_PERFMON)", name, pk_sysctl__perf_paranoid());
		break;
	case ENOENT:
		pk_error__set(err, -e, NULL, 0, 0, "%s: this machine does not have this event (no such PMU "
			"or generic event here)", name);
		break;
	case ENOSYS:
		pk_error__set(err, -e, NULL, 0, 0, "%s: perf_event_open is not available (kernel without "
			"perf events, a seccomp filter, or an emulator)", name);
		break;
	case EOPNOTSUPP:
		pk_error__set(err, -e, NULL, 0, 0, "%s: the PMU does not support this configuration", name);
		break;
	case EMFILE:
		pk_error__set(err, -e, NULL, 0, 0, "%s: too many open files", name);
		break;
	default:
		pk_error__set(err, -e, NULL, 0, 0, "%s: perf_event_open: %s", name, strerror(e));
		break;
	}
}

static int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

static bool is_software_type(uint32_t type)
{
	return type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_TRACEPOINT ||
	       type == PERF_TYPE_BREAKPOINT;
}

int selfmon_topdown_role(const struct perf_event_attr *attr, const char *pmu)
{
	uint64_t umask;

	/* The pseudo events live on the x86 core PMU: type 4 ("cpu", hybrid
	 * "cpu_core"), or a core PMU by name. */
	if (attr->type != PERF_TYPE_RAW &&
	    !(pmu && (!strcmp(pmu, "cpu") || !strcmp(pmu, "cpu_core"))))
		return SM_TD_NONE;
	if (attr->config & ~0xff00ULL)
		return SM_TD_NONE;
	umask = attr->config >> 8 & 0xff;
	if (umask == 0x04)
		return SM_TD_SLOTS;
	if (umask >= 0x80 && umask <= 0x87)
		return (int)(umask - 0x80);
	return SM_TD_NONE;
}

static void detect_topdown(struct pk_selfmon *g, bool level2)
{
	g->topdown = false;
	g->level2 = level2;
	if (g->nr < 2 || g->ev[0].td_role != SM_TD_SLOTS)
		return;
	for (size_t i = 1; i < g->nr; i++) {
		if (g->ev[i].td_role >= 0) {
			if (!g->topdown)
				g->td_metric_ev = i;
			g->topdown = true;
			if (g->ev[i].td_role >= 4)
				g->level2 = true;
		}
	}
}

static void unmap_all(struct pk_selfmon *g)
{
	for (size_t i = 0; i < g->nr; i++) {
		if (g->ev[i].map)
			munmap(g->ev[i].map, g->ev[i].map_len);
		g->ev[i].map = NULL;
		g->ev[i].page = NULL;
	}
}

/*
 * Map every member's user page and decide: the user path needs every member
 * to have cap_user_rdpmc. Returns 0 with g->path set, or -errno when the user
 * path was required and is impossible.
 */
static int choose_path(struct pk_selfmon *g, enum pk_selfmon_path want, struct pk_error *err)
{
	long psz = sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < g->nr; i++) {
		struct sm_event *e = &g->ev[i];
		struct selfmon_caps caps;
		void *p = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, e->fd, 0);

		if (p == MAP_FAILED) {
			snprintf(g->reason, sizeof(g->reason), "%s: cannot map its user page: %s",
				 e->name, strerror(errno));
			goto refuse;
		}
		e->map = p;
		e->map_len = (size_t)psz;
		e->page = p;
		selfmon_caps_decode(__atomic_load_n(&e->page->capabilities, __ATOMIC_ACQUIRE),
				    &caps);
		if (!caps.user_rdpmc) {
			snprintf(g->reason, sizeof(g->reason),
				 "%s: the kernel does not let userspace read it (cap_user_rdpmc 0%s)",
				 e->name, is_software_type(e->attr.type) ?
				 ": a software event has no hardware counter" :
				 ": see `pmukit check user-access`");
			goto refuse;
		}
	}
	g->path = PK_SELFMON_PATH_USER;
	g->reason[0] = '\0';
	return 0;
refuse:
	unmap_all(g);
	if (want == PK_SELFMON_PATH_USER) {
		pk_error__set(err, -EOPNOTSUPP, NULL, 0, 0, "user page reads impossible: %s", g->reason);
		return -EOPNOTSUPP;
	}
	g->path = PK_SELFMON_PATH_SYSCALL;
	return 0;
}

static bool tree_has_l2(const struct pk_pmu_tree *tree)
{
	static const char *const pmus[] = { "cpu", "cpu_core" };

	for (size_t i = 0; tree && i < 2; i++) {
		const struct pk_pmu *p = pk_pmu_tree__find(tree, pmus[i]);
		if (p && pk_pmu__find_alias(p, "topdown-heavy-ops"))
			return true;
	}
	return false;
}

void pk_selfmon__free(struct pk_selfmon *g)
{
	if (!g)
		return;
	unmap_all(g);
	for (size_t i = g->nr; i-- > 0;) {
		if (g->ev[i].fd >= 0)
			close(g->ev[i].fd);
		free(g->ev[i].name);
	}
	selfmon_regions_free(g);
	free(g->ev);
	free(g->rbuf);
	free(g->scratch);
	free(g);
}

/* The common part: attrs are ours to modify, pmus may be NULL. */
/*
 * The read path wanted, lowered to read(2) (the reason in g->reason) when the
 * group is not the calling thread's on any CPU, when this architecture has no
 * counter-read instruction, or (arm64) when userspace may not read the
 * counters; an error when the user path was required. *arm64_long: 64-bit
 * counters were asked for (arm64).
 */
static int choose_want(struct pk_selfmon *g, struct perf_event_attr *attrs, size_t nr,
		       const struct pk_selfmon_opts *o, const struct pk_pmu_tree *tree,
		       enum pk_selfmon_path *want, bool *arm64_long, struct pk_error *err)
{
	int pid = o->has_target ? o->pid : 0;
	int cpu = o->has_target ? o->cpu : -1;
	if (!g->self) {
		if (*want == PK_SELFMON_PATH_USER) {
			pk_error__set(err, -EINVAL, NULL, 0, 0, "user page reads need the calling thread on any CPU "
				"(pid 0, cpu -1), not pid %d cpu %d", pid, cpu);
			return -EINVAL;
		}
		snprintf(g->reason, sizeof(g->reason), "pid %d / cpu %d is not the calling "
			 "thread on any CPU: a counter read in userspace would read the "
			 "wrong counter", pid, cpu);
		*want = PK_SELFMON_PATH_SYSCALL;
	} else if (*want != PK_SELFMON_PATH_SYSCALL && !g->ops.read_counter) {
		if (*want == PK_SELFMON_PATH_USER) {
			pk_error__set(err, -EOPNOTSUPP, NULL, 0, 0, "no userspace counter-read instruction for this "
				"architecture");
			return -EOPNOTSUPP;
		}
		snprintf(g->reason, sizeof(g->reason),
			 "no userspace counter-read instruction for this architecture");
		*want = PK_SELFMON_PATH_SYSCALL;
	}
#if defined(__aarch64__)
	if (*want != PK_SELFMON_PATH_SYSCALL) {
		char why[256];
		int rc = selfmon_arm64_prepare(attrs, nr, tree, NULL, true, why, sizeof(why));
		/* with the sysctl at 0 the page still says cap_user_rdpmc 1 but its index stays 0:
		 * every read would fall back to read(2) (measured on the emulated PMU) */
		if (rc == SM_ARM64_OK && !o->pmus && pk_sysctl__perf_user_access() == 0) {
			snprintf(why, sizeof(why), "kernel.perf_user_access is 0: userspace may not "
				 "read the counters (sysctl -w kernel.perf_user_access=1)");
			rc = SM_ARM64_NO_PMU;
			selfmon_arm64_drop_long(attrs, nr, tree);	/* no EOPNOTSUPP retry below */
		}
		if (rc != SM_ARM64_OK) {
			if (*want == PK_SELFMON_PATH_USER) {
				pk_error__set(err, -EOPNOTSUPP, NULL, 0, 0, "user page reads impossible: %s", why);
				return -EOPNOTSUPP;
			}
			snprintf(g->reason, sizeof(g->reason), "%s", why);
			*want = PK_SELFMON_PATH_SYSCALL;
		} else {
			*arm64_long = true;
		}
	}
#else
	(void)attrs;
	(void)nr;
	(void)tree;
	(void)arm64_long;
#endif
	return 0;
}

/* Event i of the group: its attr as the group reads it, its name, opened and its id read. */
static int open_event(struct pk_selfmon *g, size_t i, struct perf_event_attr *attrs,
		      const char *const *names, const char *const *pmu_names, size_t nr,
		      const struct pk_pmu_tree *tree, int pid, int cpu, bool arm64_long,
		      struct pk_error *err)
{
	struct sm_event *e = &g->ev[i];
	char buf[64];

	e->attr = attrs[i];
	e->attr.size = sizeof(e->attr);
	e->attr.read_format = READ_FORMAT;
	e->attr.disabled = i == 0;
	e->attr.inherit = 0;
	e->attr.enable_on_exec = 0;
	if (names && names[i]) {
		e->name = strdup(names[i]);
	} else {
		snprintf(buf, sizeof(buf), "%u:%#llx", e->attr.type,
			 (unsigned long long)e->attr.config);
		e->name = strdup(buf);
	}
	if (!e->name) {
		pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		return -ENOMEM;
	}
	e->td_role = selfmon_topdown_role(&e->attr, pmu_names ? pmu_names[i] : NULL);

	e->fd = sys_perf_event_open(&e->attr, pid, cpu, i ? g->ev[0].fd : -1);
	if (e->fd < 0 && errno == EOPNOTSUPP && arm64_long) {
		/* the hardware has no 64-bit counters: 32-bit ones, masked by
		 * pmc_width (the seed's "chained events" are never requested) */
		selfmon_arm64_drop_long(&e->attr, 1, tree);
		selfmon_arm64_drop_long(attrs, nr, tree);
		e->fd = sys_perf_event_open(&e->attr, pid, cpu, i ? g->ev[0].fd : -1);
	}
	if (e->fd < 0) {
		int saved = errno;
		open_error(err, e->name, saved);
		return -saved;
	}
	if (ioctl(e->fd, PERF_EVENT_IOC_ID, &e->id) < 0) {
		int rc = -errno;
		pk_error__set(err, rc, NULL, 0, 0, "%s: PERF_EVENT_IOC_ID: %s", e->name, strerror(-rc));
		return rc;
	}
	return 0;
}

static int open_group(struct pk_selfmon **out, struct perf_event_attr *attrs,
		      const char *const *names, const char *const *pmu_names, size_t nr,
		      const struct pk_selfmon_opts *o, const struct pk_pmu_tree *tree,
		      struct pk_error *err)
{
	struct pk_selfmon *g;
	enum pk_selfmon_path want = o->path;
	int pid = o->has_target ? o->pid : 0;
	int cpu = o->has_target ? o->cpu : -1;
	bool arm64_long = false;
	int rc;

	*out = NULL;
	if (nr == 0 || nr > SELFMON_MAX_EVENTS) {
		pk_error__set(err, -EINVAL, NULL, 0, 0, "a group has 1 to %d events, not %zu", SELFMON_MAX_EVENTS, nr);
		return -EINVAL;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		goto nomem;
	g->ev = calloc(nr, sizeof(*g->ev));
	g->rbuf_len = (3 + 2 * nr) * sizeof(uint64_t);
	g->rbuf = malloc(g->rbuf_len);
	g->scratch = calloc(nr, sizeof(*g->scratch));
	if (!g->ev || !g->rbuf || !g->scratch)
		goto nomem;
	g->nr = nr;
	for (size_t i = 0; i < nr; i++)
		g->ev[i].fd = -1;
	g->ops = *(o->ops ? o->ops : pk_selfmon_ops__native());
	g->max_retries = o->max_retries ? o->max_retries : SELFMON_DEFAULT_RETRIES;
	g->owner = selfmon_thread_anchor();
	g->self = pid == 0 && cpu == -1;
	g->td_reset_ns = o->topdown_reset_ns ? o->topdown_reset_ns : SELFMON_TOPDOWN_RESET_NS;

	rc = choose_want(g, attrs, nr, o, tree, &want, &arm64_long, err);
	if (rc)
		goto fail;
	for (size_t i = 0; i < nr; i++) {
		rc = open_event(g, i, attrs, names, pmu_names, nr, tree, pid, cpu, arm64_long, err);
		if (rc)
			goto fail;
	}
	detect_topdown(g, o->topdown_level2 || tree_has_l2(tree));

	if (want == PK_SELFMON_PATH_SYSCALL) {
		g->path = PK_SELFMON_PATH_SYSCALL;
		if (!g->reason[0])
			snprintf(g->reason, sizeof(g->reason), "read(2) requested");
	} else {
		rc = choose_path(g, want, err);
		if (rc)
			goto fail;
	}
	*out = g;
	return 0;
nomem:
	pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	rc = -ENOMEM;
fail:
	pk_selfmon__free(g);
	return rc;
}

/* The caller's options over the defaults (all zero); NULL when its sz is bad. */
static const struct pk_selfmon_opts *opts_or_default(const struct pk_selfmon_opts *opts,
						     struct pk_selfmon_opts *copy)
{
	memset(copy, 0, sizeof(*copy));
	return PK_OPTS_LOAD(copy, opts) ? NULL : copy;
}

int pk_selfmon__open_attrs(struct pk_selfmon **out, const struct perf_event_attr *attrs,
			   const char *const *names, size_t nr,
			   const struct pk_selfmon_opts *opts, struct pk_error *err)
{
	struct pk_selfmon_opts copy;
	const struct pk_selfmon_opts *o = opts_or_default(opts, &copy);
	struct perf_event_attr *a;
	struct pk_pmu_tree *own = NULL;
	const struct pk_pmu_tree *tree;
	int rc;

	if (!o)
		return pk_opts__error(err, "pk_selfmon_opts", opts->sz);
	tree = o->pmus;

	if (!out || (!attrs && nr)) {
		pk_error__set(err, -EINVAL, NULL, 0, 0, "no output or no attrs");
		return -EINVAL;
	}
	a = calloc(nr ? nr : 1, sizeof(*a));
	if (!a) {
		pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		return -ENOMEM;
	}
	if (nr)
		memcpy(a, attrs, nr * sizeof(*a));
#if defined(__aarch64__)
	if (!tree && o->path != PK_SELFMON_PATH_SYSCALL) {
		struct pk_error perr;
		if (pk_pmu_tree__open(&own, NULL, &perr) == 0)
			tree = own;
	}
#endif
	rc = open_group(out, a, names, NULL, nr, o, tree, err);
	pk_pmu_tree__free(own);
	free(a);
	return rc;
}

int pk_selfmon__open(struct pk_selfmon **out, const char *spec,
		     const struct pk_selfmon_opts *opts, struct pk_error *err)
{
	struct pk_selfmon_opts copy;
	const struct pk_selfmon_opts *o = opts_or_default(opts, &copy);
	struct pk_pmu_tree *own = NULL;
	const struct pk_pmu_tree *tree = o ? o->pmus : NULL;
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT };
	struct pk_spec_error serr;
	struct pk_evlist *el = NULL;
	struct perf_event_attr *attrs = NULL;
	const char **names = NULL, **pmus = NULL;
	size_t nr, leaders = 0;
	bool singletons = true;
	int rc;

	if (!out || !spec) {
		pk_error__set(err, -EINVAL, NULL, 0, 0, "no output or no spec");
		return -EINVAL;
	}
	if (!o)
		return pk_opts__error(err, "pk_selfmon_opts", opts->sz);
	*out = NULL;
	if (!tree) {
		struct pk_error perr;
		if (pk_pmu_tree__open(&own, NULL, &perr) == 0)
			tree = own;
	}
	so.cat = o->cat;
	so.model = o->cat ? o->model : PK_NO_MODEL;
	so.pmus = tree;
	so.no_inherit = true;
	el = pk_evlist__new();
	if (!el) {
		rc = -ENOMEM;
		pk_error__set(err, rc, NULL, 0, 0, "out of memory");
		goto out;
	}
	rc = pk_evlist__add(el, spec, &so, &serr);
	if (rc) {
		char buf[1024];
		pk_error__set(err, rc, NULL, 0, 0, "%s", pk_spec_error__format(&serr, spec, buf, sizeof(buf)));
		if (err)
			err->column = serr.off + 1;
		goto out;
	}
	nr = pk_evlist__nr(el);
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *s = pk_evlist__evsel(el, i);
		if (s->pmu && !strcmp(s->pmu, "tool")) {
			rc = -EINVAL;
			pk_error__set(err, rc, NULL, 0, 0, "%s: a tool event is computed by perf (wall clock, rusage), "
				"not counted by the kernel: it has no place in a counter group",
				s->name);
			if (err)
				err->column = s->spec_off + 1;
			goto out;
		}
		if (s->leader == i) {
			leaders++;
			if (s->nr_members > 1)
				singletons = false;
		}
	}
	if (leaders > 1 && !singletons) {
		rc = -EINVAL;
		pk_error__set(err, rc, NULL, 0, 0, "'%s': a self-monitoring group is one {...} group or events "
			"without braces, not %zu groups", spec, leaders);
		goto out;
	}
	attrs = calloc(nr ? nr : 1, sizeof(*attrs));
	names = calloc(nr ? nr : 1, sizeof(*names));
	pmus = calloc(nr ? nr : 1, sizeof(*pmus));
	if (!attrs || !names || !pmus) {
		rc = -ENOMEM;
		pk_error__set(err, rc, NULL, 0, 0, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *s = pk_evlist__evsel(el, i);
		attrs[i] = s->attr;
		names[i] = s->name;
		pmus[i] = s->pmu;
	}
	rc = open_group(out, attrs, names, pmus, nr, o, tree, err);
out:
	free(attrs);
	free(names);
	free(pmus);
	pk_evlist__free(el);
	pk_pmu_tree__free(own);
	return rc;
}

int selfmon__test_inject(struct pk_selfmon *g,
			 const volatile struct perf_event_mmap_page *const *pages,
			 const struct pk_selfmon_ops *ops, const int *td_roles, bool level2)
{
	if (!g || !pages || !ops)
		return -EINVAL;
	unmap_all(g);
	for (size_t i = 0; i < g->nr; i++) {
		g->ev[i].page = pages[i];
		if (td_roles)
			g->ev[i].td_role = td_roles[i];
	}
	g->ops = *ops;
	g->path = PK_SELFMON_PATH_USER;
	g->reason[0] = '\0';
	if (td_roles)
		detect_topdown(g, level2);
	return 0;
}
