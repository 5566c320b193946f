/* SPDX-License-Identifier: MIT */
/*
 * test_selfmon_access.c — "can userspace read counters here, and if not
 * why": every reason of pk_user_access__check on the fake PMU trees under
 * tests/fixtures/sysfs and trees built at run time (x86 rdpmc switch, no
 * hardware PMU, arm64 sysctl on/off/missing, no `rdpmc` format term,
 * heterogeneous systems), this machine's own answer; and the arm64 attr
 * preparation (config1 `rdpmc`/`long` through the format terms, generic
 * types refused on big.LITTLE, pinning, mixed PMUs, CHAIN).
 */
#include <errno.h>
#include <ftw.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/cpuid.h>
#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"

static const char *fixture(char *buf, size_t len, const char *tree)
{
	const char *src = getenv("PMUKIT_SRC");
	snprintf(buf, len, "%s/tests/fixtures/sysfs/%s", src && *src ? src : ".", tree);
	return buf;
}

/* --- trees built at run time ------------------------------------------------------ */

static char tmpdir[256];

static void put(const char *rel, const char *body)
{
	char path[512], *s;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (s = path + strlen(tmpdir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int mk_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pmukit-access-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tmp(void **state)
{
	(void)state;
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static const char *tpath(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", tmpdir, rel);
	return buf;
}

/* --- x86 ----------------------------------------------------------------------------- */

static void test_x86_fixture_ok(void **state)
{
	char root[512];
	struct pk_user_access_opts o = { .sz = sizeof(o), .arch = "x86_64" };
	struct pk_user_access ua;

	(void)state;
	o.sysfs = fixture(root, sizeof(root), "x86-icl");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_OK);
	assert_string_equal(ua.code, "ok");
	assert_string_equal(ua.pmu, "cpu");
	assert_false(ua.probed);	/* a fixture is not this machine */
	assert_non_null(strstr(ua.msg, "static checks pass"));
	/* hybrid: cpu_core, no rdpmc file is not a refusal */
	o.sysfs = fixture(root, sizeof(root), "x86-hybrid");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_OK);
	assert_string_equal(ua.pmu, "cpu_core");
}

static void test_x86_rdpmc_off(void **state)
{
	char root[512];
	struct pk_user_access_opts o = { .sz = sizeof(o), .arch = "x86" };
	struct pk_user_access ua;

	(void)state;
	put("x/cpu/type", "4\n");
	put("x/cpu/rdpmc", "0\n");
	put("x/software/type", "1\n");
	o.sysfs = tpath(root, sizeof(root), "x");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_RDPMC_OFF);
	assert_string_equal(ua.code, "rdpmc-off");
	assert_non_null(strstr(ua.msg, "/cpu/rdpmc is 0"));
	assert_non_null(strstr(ua.fix, "echo 1 >"));
	put("x/cpu/rdpmc", "2\n");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_OK);
}

/* a VM without a virtual PMU: software, tracepoint, breakpoint... only */
static void test_no_hw_pmu(void **state)
{
	char root[512];
	struct pk_user_access_opts o = { .sz = sizeof(o), .arch = "x86" };
	struct pk_user_access ua;

	(void)state;
	put("vm/software/type", "1\n");
	put("vm/tracepoint/type", "2\n");
	put("vm/msr/type", "9\n");
	o.sysfs = tpath(root, sizeof(root), "vm");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_NO_HW_PMU);
	assert_string_equal(ua.code, "no-hw-pmu");
	assert_non_null(strstr(ua.msg, "msr software tracepoint"));
	assert_non_null(strstr(ua.fix, "virtual PMU"));
	o.arch = "arm64";
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_NO_HW_PMU);
	o.sysfs = tpath(root, sizeof(root), "does-not-exist");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_NO_HW_PMU);
	assert_non_null(strstr(ua.msg, "cannot read the PMU tree"));
}

static void test_this_machine(void **state)
{
	struct pk_user_access ua;
	struct stat st;

	(void)state;
	pk_user_access__check(NULL, &ua);
	printf("# this machine: %s: %s%s%s\n", ua.code, ua.msg, ua.fix[0] ? "; fix: " : "",
	       ua.fix);
	assert_non_null(ua.code);
	assert_true(ua.msg[0] != '\0');
	if (!strcmp(pk_cpuid__host_arch(), "x86") &&
	    stat(PK_SYSFS_DEFAULT "/cpu", &st) && stat(PK_SYSFS_DEFAULT "/cpu_core", &st))
		assert_int_equal(ua.status, PK_USER_ACCESS_NO_HW_PMU);
	if (ua.status == PK_USER_ACCESS_OK)
		assert_true(ua.probed);
}

static void test_codes(void **state)
{
	struct pk_user_access_opts o = { .sz = sizeof(o), .arch = "riscv" };
	struct pk_user_access ua;

	(void)state;
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_UNSUPPORTED_ARCH);
	assert_string_equal(ua.code, "unsupported-arch");
	assert_string_equal(pk_user_access__code(PK_USER_ACCESS_SYSCTL_OFF), "sysctl-off");
	assert_string_equal(pk_user_access__code(PK_USER_ACCESS_BAD_VALUE), "bad-value");
	assert_string_equal(pk_user_access__code((enum pk_user_access_status)99), "unknown");
}

/* --- arm64 --------------------------------------------------------------------------- */

/* Pin the thread to its first allowed CPU; returns that CPU. */
static int pin_first(cpu_set_t *saved)
{
	cpu_set_t one;
	int c = 0;

	assert_int_equal(sched_getaffinity(0, sizeof(*saved), saved), 0);
	while (!CPU_ISSET(c, saved))
		c++;
	CPU_ZERO(&one);
	CPU_SET(c, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	return c;
}

static void test_arm64_sysctl(void **state)
{
	char root[512], ctl[512];
	struct pk_user_access_opts o = { .sz = sizeof(o), .arch = "aarch64" };
	struct pk_user_access ua;
	cpu_set_t saved;
	int cpu;

	(void)state;
	o.sysfs = fixture(root, sizeof(root), "arm64-het");
	o.sysctl = tpath(ctl, sizeof(ctl), "perf_user_access");
	put("perf_user_access", "0\n");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_SYSCTL_OFF);
	assert_non_null(strstr(ua.fix, "echo 1 >"));
	assert_non_null(strstr(ua.fix, "kernel.perf_user_access=1"));
	o.sysctl = tpath(ctl, sizeof(ctl), "no-such-sysctl");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_SYSCTL_MISSING);
	assert_non_null(strstr(ua.fix, "5.17"));

	put("perf_user_access", "1\n");
	o.sysctl = tpath(ctl, sizeof(ctl), "perf_user_access");
	cpu = pin_first(&saved);	/* the fixture: armv8_pmuv3_0 0-3, _1 4-7 */
	if (cpu < 8) {
		assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_OK);
		assert_string_equal(ua.pmu, cpu < 4 ? "armv8_pmuv3_0" : "armv8_pmuv3_1");
		assert_false(ua.probed);
	} else {
		assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_HETEROGENEOUS);
	}
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	/* not pinned to one PMU's CPUs (needs a machine with CPUs in both) */
	if (CPU_COUNT(&saved) > 1 && CPU_ISSET(0, &saved) && CPU_ISSET(4, &saved)) {
		assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_HETEROGENEOUS);
		assert_non_null(strstr(ua.fix, "taskset -c 0-3"));
	}
}

static void test_arm64_no_format(void **state)
{
	char root[512], ctl[512];
	struct pk_user_access_opts o = { .sz = sizeof(o), .arch = "arm64" };
	struct pk_user_access ua;

	(void)state;
	put("old/armv8_pmuv3/type", "8\n");
	put("old/armv8_pmuv3/cpus", "0-255\n");
	put("old/armv8_pmuv3/format/event", "config:0-15\n");
	put("on", "1\n");
	o.sysfs = tpath(root, sizeof(root), "old");
	o.sysctl = tpath(ctl, sizeof(ctl), "on");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_NO_RDPMC_FORMAT);
	assert_string_equal(ua.pmu, "armv8_pmuv3");
	/* with the term, homogeneous: fine wherever the thread runs */
	put("old/armv8_pmuv3/format/rdpmc", "config1:1\n");
	assert_int_equal(pk_user_access__check(&o, &ua), PK_USER_ACCESS_OK);
}

static struct pk_pmu_tree *open_tree(const char *root)
{
	struct pk_pmu_tree *t = NULL;
	struct pk_error err;

	assert_int_equal(pk_pmu_tree__open(&t, root, &err), 0);
	return t;
}

static void test_arm64_prepare_het(void **state)
{
	char root[512], why[256];
	struct pk_pmu_tree *t = open_tree(fixture(root, sizeof(root), "arm64-het"));
	struct perf_event_attr a[2];

	(void)state;
	/* a generic type on big.LITTLE: refused */
	memset(a, 0, sizeof(a));
	a[0].type = PERF_TYPE_HARDWARE;
	a[0].config = PERF_COUNT_HW_CPU_CYCLES;
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "0-3", true, why, sizeof(why)),
			 SM_ARM64_GENERIC);
	assert_non_null(strstr(why, "armv8_pmuv3_0/cpu_cycles/"));
	assert_int_equal(a[0].config1, 0);
	/* by the PMU's own type, pinned to its CPUs: config1 rdpmc + long */
	a[0].type = 8;
	a[0].config = 0x11;
	a[1].type = PERF_TYPE_SOFTWARE;
	a[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	assert_int_equal(selfmon_arm64_prepare(a, 2, t, "0-3", true, why, sizeof(why)),
			 SM_ARM64_OK);
	assert_int_equal(a[0].config1, 0x3);
	assert_int_equal(a[0].config, 0x11);
	assert_int_equal(a[1].config1, 0);	/* software events untouched */
	selfmon_arm64_drop_long(a, 2, t);
	assert_int_equal(a[0].config1, 0x2);
	/* without long */
	a[0].config1 = 0;
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "1", false, why, sizeof(why)),
			 SM_ARM64_OK);
	assert_int_equal(a[0].config1, 0x2);
	/* not pinned */
	a[0].config1 = 0;
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "0-7", true, why, sizeof(why)),
			 SM_ARM64_NOT_PINNED);
	assert_non_null(strstr(why, "taskset -c 0-3"));
	assert_int_equal(a[0].config1, 0);
	a[0].type = 9;
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "0-3", true, why, sizeof(why)),
			 SM_ARM64_NOT_PINNED);
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "4,5-7", true, why, sizeof(why)),
			 SM_ARM64_OK);
	/* one group, two core PMUs */
	a[0].type = 8;
	a[1].type = 9;
	a[1].config = 0x8;
	assert_int_equal(selfmon_arm64_prepare(a, 2, t, "0-3", true, why, sizeof(why)),
			 SM_ARM64_MIXED);
	/* the CHAIN event */
	a[0].config = 0x1e;
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "0-3", true, why, sizeof(why)),
			 SM_ARM64_CHAIN);
	/* no hardware event at all */
	a[0].type = PERF_TYPE_SOFTWARE;
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "0-3", true, why, sizeof(why)),
			 SM_ARM64_NO_PMU);
	pk_pmu_tree__free(t);
	/* no tree, or no arm core PMU in it */
	assert_int_equal(selfmon_arm64_prepare(a, 1, NULL, "0", true, why, sizeof(why)),
			 SM_ARM64_NO_PMU);
	t = open_tree(fixture(root, sizeof(root), "x86-icl"));
	assert_int_equal(selfmon_arm64_prepare(a, 1, t, "0", true, why, sizeof(why)),
			 SM_ARM64_NO_PMU);
	pk_pmu_tree__free(t);
}

/* one core PMU: generic types are fine (perf's own user-read test uses them) */
static void test_arm64_prepare_homogeneous(void **state)
{
	char root[512], why[256];
	struct pk_pmu_tree *t;
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE,
				     .config = PERF_COUNT_HW_INSTRUCTIONS };

	(void)state;
	put("homo/armv8_pmuv3_0/type", "8\n");
	put("homo/armv8_pmuv3_0/cpus", "0-255\n");
	put("homo/armv8_pmuv3_0/format/event", "config:0-15\n");
	put("homo/armv8_pmuv3_0/format/long", "config1:0\n");
	put("homo/armv8_pmuv3_0/format/rdpmc", "config1:1\n");
	put("homo/software/type", "1\n");
	t = open_tree(tpath(root, sizeof(root), "homo"));
	assert_int_equal(selfmon_arm64_prepare(&a, 1, t, NULL, true, why, sizeof(why)),
			 SM_ARM64_OK);
	assert_int_equal(a.config1, 0x3);
	assert_int_equal(a.config, PERF_COUNT_HW_INSTRUCTIONS);
	pk_pmu_tree__free(t);
}

static void test_cpulists(void **state)
{
	char buf[256];

	(void)state;
	assert_true(selfmon_cpulist_subset("0-1", "0-3"));
	assert_true(selfmon_cpulist_subset("2,3", "0-3"));
	assert_true(selfmon_cpulist_subset("4-7\n", "0-3,4-7\n"));
	assert_false(selfmon_cpulist_subset("0-4", "0-3"));
	assert_false(selfmon_cpulist_subset("8", "0-3"));
	assert_false(selfmon_cpulist_subset("x", "0-3"));
	assert_false(selfmon_cpulist_subset("3-1", "0-3"));
	assert_false(selfmon_cpulist_subset("0", NULL));
	assert_int_equal(selfmon_affinity_cpulist(buf, sizeof(buf)), 0);
	assert_true(buf[0] >= '0' && buf[0] <= '9');
	assert_true(selfmon_cpulist_subset(buf, "0-4095"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_fixture_ok),
		cmocka_unit_test(test_x86_rdpmc_off),
		cmocka_unit_test(test_no_hw_pmu),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_arm64_sysctl),
		cmocka_unit_test(test_arm64_no_format),
		cmocka_unit_test(test_arm64_prepare_het),
		cmocka_unit_test(test_arm64_prepare_homogeneous),
		cmocka_unit_test(test_cpulists),
	};
	return cmocka_run_group_tests_name("selfmon_access", tests, mk_tmp, rm_tmp);
}
