/* SPDX-License-Identifier: MIT */
/*
 * access.c — can this machine read perf counters from userspace, and if not,
 * exactly why? The logic of `pmukit check user-access`: static checks of the
 * PMU tree and the switches the kernel reads (x86: <pmu>/rdpmc; arm64:
 * kernel.perf_user_access, the PMU's `rdpmc` format term, one PMU's CPUs on
 * heterogeneous systems), then, on this machine's own tree, a probe: open an
 * instructions event for the calling thread, map its page, check
 * cap_user_rdpmc and index, and read it twice through the page around some
 * work.
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

#include <pmukit/cpuid.h>
#include <pmukit/pmu.h>
#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"
#include "util/opts.h"

#define SYSCTL_DEFAULT "/proc/sys/kernel/perf_user_access"

static const char *const codes[] = {
	[PK_USER_ACCESS_OK] = "ok",
	[PK_USER_ACCESS_UNSUPPORTED_ARCH] = "unsupported-arch",
	[PK_USER_ACCESS_NO_HW_PMU] = "no-hw-pmu",
	[PK_USER_ACCESS_RDPMC_OFF] = "rdpmc-off",
	[PK_USER_ACCESS_SYSCTL_OFF] = "sysctl-off",
	[PK_USER_ACCESS_SYSCTL_MISSING] = "sysctl-missing",
	[PK_USER_ACCESS_NO_RDPMC_FORMAT] = "no-rdpmc-format",
	[PK_USER_ACCESS_HETEROGENEOUS] = "heterogeneous",
	[PK_USER_ACCESS_OPEN_FAILED] = "open-failed",
	[PK_USER_ACCESS_NO_CAP] = "no-cap",
	[PK_USER_ACCESS_NO_INDEX] = "no-index",
	[PK_USER_ACCESS_BAD_VALUE] = "bad-value",
};

const char *pk_user_access__code(enum pk_user_access_status st)
{
	return (unsigned)st < sizeof(codes) / sizeof(codes[0]) ? codes[st] : "unknown";
}

static int report(struct pk_user_access *out, enum pk_user_access_status st, const char *fix,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int report(struct pk_user_access *out, enum pk_user_access_status st, const char *fix,
		  const char *fmt, ...)
{
	va_list ap;

	out->status = st;
	out->code = pk_user_access__code(st);
	va_start(ap, fmt);
	vsnprintf(out->msg, sizeof(out->msg), fmt, ap);
	va_end(ap);
	snprintf(out->fix, sizeof(out->fix), "%s", fix ? fix : "");
	return st;
}

/* First integer of a small file; -1 when absent or unreadable. */
static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static const char *norm_arch(const char *a)
{
	if (!strcmp(a, "x86") || !strcmp(a, "x86_64") || !strcmp(a, "i386") || !strcmp(a, "i686"))
		return "x86";
	if (!strcmp(a, "arm64") || !strcmp(a, "aarch64"))
		return "arm64";
	return a;
}

static void list_pmus(const struct pk_pmu_tree *t, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pk_pmu_tree__nr_pmus(t) && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      pk_pmu__name(pk_pmu_tree__pmu(t, i)));
}

static const char *const no_pmu_fix =
	"give the machine a PMU: on a VM enable the virtual PMU (QEMU/KVM: -cpu host or "
	"pmu=on; VMware: virtualize CPU performance counters; cloud: a bare-metal or "
	"PMU-enabled instance type)";

/* Some work for a counter to count (the volatile keeps the loop). */
static unsigned spin(unsigned n)
{
	volatile unsigned sink = 0;
	for (unsigned i = 0; i < n; i++)
		sink += i;
	return sink;
}

/* Open, map and read one event of this thread through its page. */
static int probe(struct pk_user_access *out, struct perf_event_attr *attr,
		 const struct pk_selfmon_ops *ops)
{
	struct selfmon_caps caps;
	struct pk_userpage_value a, b;
	const volatile struct perf_event_mmap_page *pc;
	long psz = sysconf(_SC_PAGESIZE);
	void *map;
	int fd, st, rc;

	out->probed = true;
	fd = (int)syscall(__NR_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return report(out, PK_USER_ACCESS_OPEN_FAILED,
			      e == EACCES || e == EPERM ?
			      "lower kernel.perf_event_paranoid (sysctl -w kernel.perf_event_paranoid=2) "
			      "or grant CAP_PERFMON" : NULL,
			      "opening an instructions counter for this thread failed: %s",
			      strerror(e));
	}
	map = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		rc = report(out, PK_USER_ACCESS_OPEN_FAILED, NULL,
			    "mapping the counter's user page failed: %s", strerror(errno));
		close(fd);
		return rc;
	}
	pc = map;
	selfmon_caps_decode(__atomic_load_n(&pc->capabilities, __ATOMIC_ACQUIRE), &caps);
	out->pmc_width = pc->pmc_width;
	out->cap_user_time = caps.user_time;
	if (!caps.user_rdpmc) {
		rc = report(out, PK_USER_ACCESS_NO_CAP, NULL,
			    "the counter opened and mapped, but the kernel set cap_user_rdpmc 0: "
			    "it does not let userspace read this counter");
		goto done;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	(void)spin(100000);
	st = pk_userpage__read(pc, ops, 0, &a);
	(void)spin(1000000);
	if (st == PK_USERPAGE_OK)
		st = pk_userpage__read(pc, ops, 0, &b);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (st == PK_USERPAGE_INDEX0) {
		rc = report(out, PK_USER_ACCESS_NO_INDEX, NULL,
			    "cap_user_rdpmc is set but the page's index stayed 0 while enabled: the "
			    "event is not on a counter (all counters taken, e.g. by the NMI "
			    "watchdog, or a CPU of another PMU type)");
		goto done;
	}
	if (st != PK_USERPAGE_OK) {
		rc = report(out, PK_USER_ACCESS_BAD_VALUE, NULL,
			    "reading through the page failed (status %d)", st);
		goto done;
	}
	if (b.count <= a.count) {
		rc = report(out, PK_USER_ACCESS_BAD_VALUE, NULL,
			    "two reads through the page around 1M loop iterations gave %llu then "
			    "%llu: the counter does not count", (unsigned long long)a.count,
			    (unsigned long long)b.count);
		goto done;
	}
	rc = report(out, PK_USER_ACCESS_OK, NULL,
		    "userspace counter reads work: %llu instructions counted through the page "
		    "(pmc_width %u, cap_user_time %d)",
		    (unsigned long long)(b.count - a.count), out->pmc_width, out->cap_user_time);
done:
	munmap(map, (size_t)psz);
	close(fd);
	return rc;
}

static int check_x86(const struct pk_pmu_tree *t, const char *root, bool do_probe,
		     const struct pk_selfmon_ops *ops, struct pk_user_access *out)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom" };
	const struct pk_pmu *pmu = NULL;
	char path[4096], list[512];
	long rdpmc;

	for (size_t i = 0; i < 3 && !pmu; i++)
		pmu = pk_pmu_tree__find(t, names[i]);
	if (!pmu) {
		list_pmus(t, list, sizeof(list));
		return report(out, PK_USER_ACCESS_NO_HW_PMU, no_pmu_fix,
			      "no hardware PMU: %s has no cpu/cpu_core PMU, only: %s (a virtual "
			      "machine without a virtual PMU, or no x86 PMU driver)", root, list);
	}
	snprintf(out->pmu, sizeof(out->pmu), "%s", pk_pmu__name(pmu));
	snprintf(path, sizeof(path), "%s/%s/rdpmc", root, out->pmu);
	rdpmc = read_long(path);
	if (rdpmc == 0) {
		char fix[256];
		snprintf(fix, sizeof(fix), "echo 1 > %.150s (1: tasks that map their events, the "
			 "default; 2: every task)", path);
		return report(out, PK_USER_ACCESS_RDPMC_OFF, fix,
			      "%s is 0: the kernel refuses rdpmc in userspace", path);
	}
	if (!do_probe)
		return report(out, PK_USER_ACCESS_OK, NULL,
			      "static checks pass: PMU %s, %s is %ld; not probed (not this "
			      "machine's tree or arch)", out->pmu, path, rdpmc);
	{
		struct perf_event_attr a = {
			.type = PERF_TYPE_HARDWARE,
			.size = sizeof(a),
			.config = PERF_COUNT_HW_INSTRUCTIONS,
			.disabled = 1,
			.exclude_kernel = 1,
			.exclude_hv = 1,
		};
		return probe(out, &a, ops);
	}
}

static int check_arm64(const struct pk_pmu_tree *t, const char *root, const char *sysctl,
		       bool do_probe, const struct pk_selfmon_ops *ops,
		       struct pk_user_access *out)
{
	const struct pk_pmu *core[16], *any_core = NULL, *target = NULL;
	size_t ncore = 0;
	char list[512], aff[1024];
	long v;

	for (size_t i = 0; i < pk_pmu_tree__nr_pmus(t); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(t, i);
		if (!pk_pmu__is_core(p))
			continue;
		any_core = p;
		if (pk_pmu__find_format(p, "rdpmc") && ncore < 16)
			core[ncore++] = p;
	}
	if (!any_core) {
		list_pmus(t, list, sizeof(list));
		return report(out, PK_USER_ACCESS_NO_HW_PMU, no_pmu_fix,
			      "no hardware PMU: %s has no core PMU, only: %s", root, list);
	}
	if (!ncore) {
		snprintf(out->pmu, sizeof(out->pmu), "%s", pk_pmu__name(any_core));
		return report(out, PK_USER_ACCESS_NO_RDPMC_FORMAT, "use Linux 5.17 or later",
			      "PMU %s has no `rdpmc` format term: this kernel's PMU driver has no "
			      "userspace access", out->pmu);
	}
	v = read_long(sysctl);
	if (v < 0)
		return report(out, PK_USER_ACCESS_SYSCTL_MISSING, "use Linux 5.17 or later",
			      "%s does not exist or cannot be read", sysctl);
	if (v == 0) {
		char fix[256];
		snprintf(fix, sizeof(fix), "echo 1 > %.150s (or sysctl -w kernel.perf_user_access=1)",
			 sysctl);
		return report(out, PK_USER_ACCESS_SYSCTL_OFF, fix,
			      "%s is 0: userspace access to the counters is disabled", sysctl);
	}
	target = core[0];
	if (ncore > 1) {
		target = NULL;
		if (selfmon_affinity_cpulist(aff, sizeof(aff)) == 0)
			for (size_t k = 0; k < ncore && !target; k++)
				if (selfmon_cpulist_subset(aff, pk_pmu__cpus(core[k])))
					target = core[k];
		if (!target) {
			char fix[256], have[512];
			size_t n = 0;
			have[0] = '\0';
			for (size_t k = 0; k < ncore && n + 1 < sizeof(have); k++)
				n += (size_t)snprintf(have + n, sizeof(have) - n, "%s%s: %s",
						      k ? ", " : "", pk_pmu__name(core[k]),
						      pk_pmu__cpus(core[k]) ? pk_pmu__cpus(core[k]) : "?");
			snprintf(fix, sizeof(fix), "taskset -c %s COMMAND, and open events as %s/EVENT/",
				 pk_pmu__cpus(core[0]) ? pk_pmu__cpus(core[0]) : "CPUS",
				 pk_pmu__name(core[0]));
			return report(out, PK_USER_ACCESS_HETEROGENEOUS, fix,
				      "heterogeneous system (%s): userspace access needs the thread "
				      "pinned to one PMU's CPUs, and this one may run on %s", have, aff);
		}
	}
	snprintf(out->pmu, sizeof(out->pmu), "%s", pk_pmu__name(target));
	if (!do_probe)
		return report(out, PK_USER_ACCESS_OK, NULL,
			      "static checks pass: PMU %s has the rdpmc term, %s is %ld; not probed "
			      "(not this machine's tree or arch)", out->pmu, sysctl, v);
	{
		struct perf_event_attr a = {
			.type = pk_pmu__type(target),
			.size = sizeof(a),
			.config = 0x08,	/* INST_RETIRED */
			.disabled = 1,
			.exclude_kernel = 1,
			.exclude_hv = 1,
		};
		char why[256];
		if (selfmon_arm64_prepare(&a, 1, t, NULL, false, why, sizeof(why)) != SM_ARM64_OK)
			return report(out, PK_USER_ACCESS_HETEROGENEOUS, NULL, "%s", why);
		return probe(out, &a, ops);
	}
}

int pk_user_access__check(const struct pk_user_access_opts *opts, struct pk_user_access *out)
{
	struct pk_user_access_opts copy = { .sz = sizeof(copy) };
	if (PK_OPTS_LOAD(&copy, opts)) {	/* an older caller's struct: the rest stays zero */
		memset(out, 0, sizeof(*out));
		out->code = "bad-opts";
		snprintf(out->msg, sizeof(out->msg), "pk_user_access_opts: bad sz %zu", opts->sz);
		return -EINVAL;
	}
	const struct pk_user_access_opts *o = &copy;
	const char *host = pk_cpuid__host_arch();
	const char *arch = norm_arch(o->arch ? o->arch : host);
	const char *root = o->sysfs ? o->sysfs : PK_SYSFS_DEFAULT;
	const struct pk_selfmon_ops *ops = o->ops ? o->ops : pk_selfmon_ops__native();
	bool do_probe = !o->no_probe && !strcmp(arch, norm_arch(host)) &&
			!strcmp(root, PK_SYSFS_DEFAULT) && ops->read_counter;
	struct pk_pmu_tree *t = NULL;
	struct pk_error err;
	int rc;

	memset(out, 0, sizeof(*out));
	if (strcmp(arch, "x86") && strcmp(arch, "arm64"))
		return report(out, PK_USER_ACCESS_UNSUPPORTED_ARCH, NULL,
			      "pmukit reads counters from userspace on x86 (rdpmc) and arm64 (mrs); "
			      "this is %s", arch);
	if (pk_pmu_tree__open(&t, root, &err))
		return report(out, PK_USER_ACCESS_NO_HW_PMU, no_pmu_fix,
			      "cannot read the PMU tree %s: %s", root, strerror(-err.code));
	if (!strcmp(arch, "x86"))
		rc = check_x86(t, root, do_probe, ops, out);
	else
		rc = check_arm64(t, root, o->sysctl ? o->sysctl : SYSCTL_DEFAULT, do_probe, ops, out);
	pk_pmu_tree__free(t);
	return rc;
}
