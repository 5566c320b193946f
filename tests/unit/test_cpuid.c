/* SPDX-License-Identifier: MIT */
/*
 * test_cpuid.c — CPU identifiers: reading them (host, fake sysfs/proc files in
 * tests/fixtures/cpu), perf's match rules per arch, the real mapfile.csv rows
 * ($PMUKIT_ARCH_DIR, skipped when absent), shape guessing, distance and cache.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <pmukit/cpuid.h>

#include "events/cpuid_int.h"

#ifndef __has_feature
#define __has_feature(x) 0	/* gcc < 14 */
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

#define ARCH_DIR_DEFAULT "/tmp/linux-source-6.12/tools/perf/pmu-events/arch"

/* ---- helpers ---- */

static const char *fixture(const char *name)
{
	static char path[4096];
	const char *src = getenv("PMUKIT_SRC");
	snprintf(path, sizeof(path), "%s/tests/fixtures/cpu/%s", src ? src : ".", name);
	return path;
}

struct row {
	char cpuid[160];
	char dir[96];
};

struct mapfile {
	char arch[16];
	struct row rows[256];
	size_t n;
};

/* Rows of <arch dir>/<arch>/mapfile.csv as perf reads them (first line and '#' lines skipped). */
static bool mapfile_load(const char *arch, struct mapfile *mf)
{
	const char *dir = getenv("PMUKIT_ARCH_DIR");
	char path[4096], line[512];
	snprintf(path, sizeof(path), "%s/%s/mapfile.csv", dir && *dir ? dir : ARCH_DIR_DEFAULT, arch);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	snprintf(mf->arch, sizeof(mf->arch), "%s", arch);
	mf->n = 0;
	for (unsigned nr = 0; fgets(line, sizeof(line), f); nr++) {
		line[strcspn(line, "\r\n")] = '\0';
		if (nr == 0 || !line[0] || line[0] == '#')
			continue;
		struct row *r = &mf->rows[mf->n];
		if (mf->n < 256 && sscanf(line, "%159[^,],%*[^,],%95[^,],", r->cpuid, r->dir) == 2)
			mf->n++;
	}
	fclose(f);
	return mf->n > 0;
}

static struct mapfile *load_or_skip(const char *arch)
{
	struct mapfile *mf = malloc(sizeof(*mf));
	assert_non_null(mf);
	if (!mapfile_load(arch, mf)) {
		free(mf);
		skip();
	}
	return mf;
}

/* perf's table lookup: the first row whose pattern matches, or -1. */
static int lookup(const struct mapfile *mf, struct pk_cpuid_cache *cache, const char *id)
{
	for (size_t i = 0; i < mf->n; i++) {
		int r = pk_cpuid_cache__match(cache, mf->arch, mf->rows[i].cpuid, id);
		assert_true(r == 0 || r == 1);
		if (r == 0)
			return (int)i;
	}
	return -1;
}

static const char *lookup_dir(const struct mapfile *mf, const char *id)
{
	int i = lookup(mf, NULL, id);
	return i < 0 ? "(none)" : mf->rows[i].dir;
}

static int row_of(const struct mapfile *mf, const char *dir)
{
	for (size_t i = 0; i < mf->n; i++)
		if (!strcmp(mf->rows[i].dir, dir))
			return (int)i;
	fail_msg("no row for %s", dir);
	return -1;
}

/* The row directory with the smallest distance to id (first on ties), or "(none)". */
static const char *closest(const struct mapfile *mf, const char *id, unsigned *dist)
{
	unsigned best = UINT_MAX;
	const char *dir = "(none)";
	for (size_t i = 0; i < mf->n; i++) {
		unsigned d = pk_cpuid__distance(mf->arch, mf->rows[i].cpuid, id);
		if (d < best) {
			best = d;
			dir = mf->rows[i].dir;
		}
	}
	*dist = best;
	return dir;
}

static void closest_eq(const struct mapfile *mf, const char *id, const char *dir, unsigned dist)
{
	unsigned d;
	const char *got = closest(mf, id, &d);
	if (strcmp(got, dir) || d != dist)
		fail_msg("closest to %s: %s at %u, expected %s at %u", id, got, d, dir, dist);
}

/* pk_cpuid__read() of a fixture directory gives expect. */
static void read_eq(const char *arch, const char *dir, int cpu, const char *expect)
{
	char id[128];
	assert_int_equal(pk_cpuid__read(arch, fixture(dir), cpu, id, sizeof(id)), 0);
	assert_string_equal(id, expect);
}

/* pk_cpuid__read() of a fixture directory into a buffer of len bytes. */
static int read_rc(const char *arch, const char *dir, int cpu, size_t len)
{
	char id[128];
	return pk_cpuid__read(arch, fixture(dir), cpu, id, len < sizeof(id) ? len : sizeof(id));
}

/* ---- host ---- */

static void test_host_arch(void **state)
{
	(void)state;
	const char *arch = pk_cpuid__host_arch();
#if defined(__x86_64__) || defined(__i386__)
	assert_string_equal(arch, "x86");
#elif defined(__aarch64__)
	assert_string_equal(arch, "arm64");
#elif defined(__powerpc__)
	assert_string_equal(arch, "powerpc");
#elif defined(__s390x__)
	assert_string_equal(arch, "s390");
#elif defined(__riscv)
	assert_string_equal(arch, "riscv");
#endif
	char id[128];
	int ret = pk_cpuid__host(NULL, -1, id, sizeof(id));
	if (ret == -ENOENT || ret == -ENOTSUP)
		skip();		/* e.g. arm64 without MIDR in sysfs */
	assert_int_equal(ret, 0);
	assert_non_null(pk_cpuid__guess_arch(id));
	assert_string_equal(pk_cpuid__guess_arch(id), arch);
}

static void test_host_x86_equals_proc_cpuinfo(void **state)
{
	(void)state;
#if defined(__x86_64__) || defined(__i386__)
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		skip();
	char line[1024], vendor[64] = "";
	unsigned family = ~0u, model = ~0u, stepping = ~0u, v;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "processor", 9) && vendor[0])
			break;
		if (sscanf(line, "vendor_id : %63s", vendor) == 1)
			continue;
		if (sscanf(line, "cpu family : %u", &v) == 1)
			family = v;
		else if (sscanf(line, "model : %u", &v) == 1)
			model = v;
		else if (sscanf(line, "stepping : %u", &v) == 1)
			stepping = v;
	}
	fclose(f);
	assert_true(vendor[0] && family != ~0u && model != ~0u && stepping != ~0u);
	char expect[128], id[128], from_files[128];
	snprintf(expect, sizeof(expect), "%s-%u-%X-%X", vendor, family, model, stepping);

	assert_int_equal(pk_cpuid__host(NULL, -1, id, sizeof(id)), 0);
	assert_string_equal(id, expect);
	assert_int_equal(pk_cpuid__read("x86", NULL, -1, from_files, sizeof(from_files)), 0);
	assert_string_equal(from_files, expect);
	assert_int_equal(pk_cpuid__read("x86", NULL, 0, from_files, sizeof(from_files)), 0);
	assert_string_equal(from_files, expect);

	/* This VM (AMD EPYC, family 26) is a Zen 5: amdzen5 is its only row. */
	if (!strcmp(vendor, "AuthenticAMD") && family == 26) {
		struct mapfile *mf = load_or_skip("x86");
		assert_string_equal(lookup_dir(mf, id), "amdzen5");
		free(mf);
	}
#else
	skip();
#endif
}

/* cpuid leaf 1 signatures of real CPUs, decoded as perf does. */
static void test_x86_signature(void **state)
{
	(void)state;
	static const struct {
		const char *vendor;
		unsigned eax;
		const char *id;
	} sig[] = {
		{ "GenuineIntel", 0x50654, "GenuineIntel-6-55-4" },	/* Skylake-SP */
		{ "GenuineIntel", 0x50657, "GenuineIntel-6-55-7" },	/* Cascade Lake */
		{ "GenuineIntel", 0x806f8, "GenuineIntel-6-8F-8" },	/* Sapphire Rapids */
		{ "GenuineIntel", 0x906a3, "GenuineIntel-6-9A-3" },	/* Alder Lake */
		{ "GenuineIntel", 0xf29, "GenuineIntel-15-2-9" },	/* Pentium 4 */
		{ "GenuineIntel", 0x695, "GenuineIntel-6-9-5" },	/* Pentium M */
		{ "AuthenticAMD", 0x800f12, "AuthenticAMD-23-1-2" },	/* Zen 1 */
		{ "AuthenticAMD", 0x830f10, "AuthenticAMD-23-31-0" },	/* Zen 2 */
		{ "AuthenticAMD", 0xa00f11, "AuthenticAMD-25-1-1" },	/* Zen 3 */
		{ "AuthenticAMD", 0xb00f21, "AuthenticAMD-26-2-1" },	/* Zen 5 */
		{ "AuthenticAMD", 0x500f20, "AuthenticAMD-20-2-0" },	/* Bobcat (14h) */
	};
	char id[64];
	for (size_t i = 0; i < sizeof(sig) / sizeof(sig[0]); i++) {
		assert_int_equal(pk_cpuid__x86_format(sig[i].vendor, sig[i].eax, id, sizeof(id)), 0);
		assert_string_equal(id, sig[i].id);
	}
	assert_int_equal(pk_cpuid__x86_format("GenuineIntel", 0x50654, id, 19), -ENOBUFS);
}

static void test_host_errors(void **state)
{
	(void)state;
	char id[128];
	assert_int_equal(pk_cpuid__host(NULL, -1, id, 0), -EINVAL);
	assert_int_equal(pk_cpuid__host(NULL, -1, NULL, 10), -EINVAL);
#if defined(__x86_64__) || defined(__i386__)
	assert_int_equal(pk_cpuid__host(NULL, -1, id, 6), -ENOBUFS);
	/* With a cpu_root every arch reads files: here the fake cpuinfo. */
	assert_int_equal(pk_cpuid__host(fixture("x86-skx"), -1, id, sizeof(id)), 0);
	assert_string_equal(id, "GenuineIntel-6-55-4");
#endif
	assert_int_equal(read_rc("nds32", "x86-skx", -1, 128), -ENOTSUP);
	assert_int_equal(read_rc("arm64", "does-not-exist", -1, 128), -ENOENT);
	assert_int_equal(read_rc("riscv", "does-not-exist", -1, 128), -ENOENT);
	/* riscv fields are missing from an x86 cpuinfo */
	assert_int_equal(read_rc("riscv", "x86-skx", -1, 128), -ENOENT);
}

/* ---- reading fixture files ---- */

static void test_read_x86_cpuinfo(void **state)
{
	(void)state;
	read_eq("x86", "x86-skx", -1, "GenuineIntel-6-55-4");
	read_eq("x86", "x86-skx", 1, "GenuineIntel-6-55-4");
	assert_int_equal(read_rc("x86", "x86-skx", 7, 128), -ENOENT);
	assert_int_equal(read_rc("x86", "x86-skx", 0, 19), -ENOBUFS);
	assert_int_equal(read_rc("x86", "x86-skx", 0, 20), 0);
}

static void test_read_arm64_biglittle(void **state)
{
	(void)state;
	read_eq("arm64", "arm64-biglittle", -1, "0x00000000410fd050");
	read_eq("arm64", "arm64-biglittle", 3, "0x00000000410fd050");
	read_eq("arm64", "arm64-biglittle", 4, "0x00000000410fd0d0");
	read_eq("arm64", "arm64-biglittle", 7, "0x00000000410fd0d0");
	assert_int_equal(read_rc("arm64", "arm64-biglittle", 8, 128), -ENOENT);
	assert_int_equal(read_rc("arm64", "arm64-biglittle", 4, 18), -ENOBUFS);
	assert_int_equal(read_rc("arm64", "arm64-biglittle", 4, 19), 0);
#if defined(__aarch64__)
	char id[64];
	assert_int_equal(pk_cpuid__host(fixture("arm64-biglittle"), 5, id, sizeof(id)), 0);
	assert_string_equal(id, "0x00000000410fd0d0");
#endif
	struct mapfile *mf = load_or_skip("arm64");
	assert_string_equal(lookup_dir(mf, "0x00000000410fd050"), "arm/cortex-a55");
	assert_string_equal(lookup_dir(mf, "0x00000000410fd0d0"), "arm/cortex-a77");
	free(mf);
}

static void test_read_arm64_online(void **state)
{
	(void)state;
	/* cpu0-1 offline (their A53 MIDR is ignored), cpu2 has no MIDR: cpu3. */
	read_eq("arm64", "arm64-offline", -1, "0x00000000413fd0c1");
	assert_int_equal(read_rc("arm64", "arm64-offline", 2, 128), -ENOENT);
	read_eq("arm64", "arm64-offline", 0, "0x00000000410fd034");
	/* No online file: the lowest numbered cpuN with a MIDR (cpu2, not cpu10). */
	read_eq("arm64", "arm64-noonline", -1, "0x00000000410fd083");
}

static void test_read_powerpc_riscv(void **state)
{
	(void)state;
	read_eq("powerpc", "powerpc-power9", -1, "0x004e1202");
	read_eq("powerpc", "powerpc-power9", 1, "0x004e1202");
	read_eq("riscv", "riscv-u74", -1, "0x489-0x8000000000000007-0x4210427");
	read_eq("riscv", "riscv-u74", 1, "0x489-0x8000000000000007-0x4210427");
	assert_int_equal(read_rc("riscv", "riscv-u74", 2, 128), -ENOENT);

	struct mapfile *mf = load_or_skip("powerpc");
	assert_string_equal(lookup_dir(mf, "0x004e1202"), "power9");
	assert_true(mapfile_load("riscv", mf));
	assert_string_equal(lookup_dir(mf, "0x489-0x8000000000000007-0x4210427"), "sifive/u74");
	free(mf);
}

static void test_read_s390(void **state)
{
	(void)state;
	read_eq("s390", "s390-z15", -1, "IBM,8561,703,T01,3.6,002f");
	/* z/VM guest: no service_levels, so no counter facility version. */
	read_eq("s390", "s390-z16-zvm", -1, "IBM,3931,702,A02");
	assert_int_equal(read_rc("s390", "s390-z15", -1, 25), -ENOBUFS);
	assert_int_equal(read_rc("s390", "x86-skx", -1, 128), -ENOENT);

	struct mapfile *mf = load_or_skip("s390");
	assert_string_equal(lookup_dir(mf, "IBM,8561,703,T01,3.6,002f"), "cf_z15");
	assert_string_equal(lookup_dir(mf, "IBM,3931,702,A02"), "cf_z16");
	/* z15 needs counter facility 3.6: without it no row fits. */
	assert_string_equal(lookup_dir(mf, "IBM,8561,703,T01"), "(none)");
	free(mf);
}

/* ---- match rules ---- */

static void test_match_x86_rules(void **state)
{
	(void)state;
	/* a pattern with stepping */
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-4"), 0);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-7"), 1);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55"), 1);
	/* three '-' make a pattern full: it never accepts an id without stepping */
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-55(-[01234])?", "GenuineIntel-6-55-3"), 0);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-55(-[01234])?", "GenuineIntel-6-55"), 1);
	assert_int_equal(pk_cpuid__match("riscv", "GenuineIntel-6-55(-[01234])?", "GenuineIntel-6-55"), 0);
	/* a pattern without stepping ignores the id's stepping */
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-8F", "GenuineIntel-6-8F-8"), 0);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-8F", "GenuineIntel-6-8F"), 0);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-8F", "GenuineIntel-6-8F0-8"), 1);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-8F", "GenuineIntel-6-8-8"), 1);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-5", "GenuineIntel-6-55-4"), 1);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-8F", "GenuineIntel-16-8F-8"), 1);
	/* alternatives: the leftmost-longest match must cover the model */
	const char *zen3 = "AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]])";
	assert_int_equal(pk_cpuid__match("x86", zen3, "AuthenticAMD-25-1-1"), 0);
	assert_int_equal(pk_cpuid__match("x86", zen3, "AuthenticAMD-25-21-0"), 0);
	assert_int_equal(pk_cpuid__match("x86", zen3, "AuthenticAMD-25-11-1"), 1);
	/* arch NULL: the id's shape picks the x86 rules; other arches require the whole id */
	assert_int_equal(pk_cpuid__match(NULL, "GenuineIntel-6-8F", "GenuineIntel-6-8F-8"), 0);
	assert_int_equal(pk_cpuid__match("s390", "GenuineIntel-6-8F", "GenuineIntel-6-8F-8"), 1);
	assert_int_equal(pk_cpuid__match("s390", "GenuineIntel-6-8F", "GenuineIntel-6-8F"), 0);
	/* invalid patterns */
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-(55", "GenuineIntel-6-55-4"), -EINVAL);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-[", "GenuineIntel-6-55"), -EINVAL);
	assert_int_equal(pk_cpuid__match("x86", NULL, "GenuineIntel-6-55"), -EINVAL);
	assert_int_equal(pk_cpuid__match("x86", "GenuineIntel-6-55", NULL), -EINVAL);
}

static void test_match_arm64_rules(void **state)
{
	(void)state;
	const char *n1 = "0x00000000410fd0c0";
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x00000000410fd0c0"), 0);
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x00000000411fd0c0"), 0);	/* r1p0 >= r0p0 */
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x00000000413fd0c1"), 0);
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x410fd0c2"), 0);	/* numeric, not textual */
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x00000000410fd0d0"), 1);	/* other part */
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x00000000420fd0c0"), 1);	/* other implementer */
	assert_int_equal(pk_cpuid__match("arm64", n1, "0x00000000410ed0c0"), 1);	/* architecture field */
	/* the id must be at least the pattern's version, compared as rVpR */
	assert_int_equal(pk_cpuid__match("arm64", "0x00000000411fd0c0", "0x00000000410fd0c0"), 1);
	assert_int_equal(pk_cpuid__match("arm64", "0x00000000411fd0c1", "0x00000000411fd0c0"), 1);
	assert_int_equal(pk_cpuid__match("arm64", "0x00000000411fd0c1", "0x00000000411fd0c1"), 0);
	assert_int_equal(pk_cpuid__match("arm64", "0x00000000411fd0c1", "0x00000000412fd0c0"), 0);
	assert_int_equal(pk_cpuid__match("arm64", "0x00000000410fd0c3", "0x00000000411fd0c0"), 0);
	assert_int_equal(pk_cpuid__match("arm64", "0x00000000410fd0c3", "0x00000000410fd0c2"), 1);
	/* arch NULL: a 16-digit MIDR gets the arm64 rules */
	assert_int_equal(pk_cpuid__match(NULL, n1, "0x00000000411fd0c0"), 0);
	assert_int_equal(pk_cpuid__match("arm64", "0xzz", n1), -EINVAL);
	assert_int_equal(pk_cpuid__match("arm64", n1, "cortex"), 1);
}

static void test_match_other_rules(void **state)
{
	(void)state;
	const char *u74 = "0x489-0x8000000000000007-0x[[:xdigit:]]+";
	assert_int_equal(pk_cpuid__match("riscv", u74, "0x489-0x8000000000000007-0x4210427"), 0);
	assert_int_equal(pk_cpuid__match("riscv", u74, "0x489-0x8000000000000008-0x4210427"), 1);
	assert_int_equal(pk_cpuid__match("riscv", u74, "0x489-0x8000000000000007-0x"), 1);
	const char *p9 = "0x004e[[:xdigit:]]{4}";
	assert_int_equal(pk_cpuid__match("powerpc", p9, "0x004e1200"), 0);
	assert_int_equal(pk_cpuid__match("powerpc", p9, "0x004e12000"), 1);
	assert_int_equal(pk_cpuid__match("powerpc", p9, "0x004f1200"), 1);
	const char *z15 = "^IBM.856[12].*3\\.6.[[:xdigit:]]+$";
	assert_int_equal(pk_cpuid__match("s390", z15, "IBM,8561,703,T01,3.6,002f"), 0);
	assert_int_equal(pk_cpuid__match("s390", z15, "IBM,8561,703,T01,3.5,002f"), 1);
	assert_int_equal(pk_cpuid__match(NULL, z15, "IBM,8562,703,T01,3.6,0001"), 0);
}

/* ---- the real mapfiles ---- */


static void test_real_x86_mapfile(void **state)
{
	(void)state;
	struct mapfile *mf = load_or_skip("x86");
	/* skylakex and cascadelakex split model 0x55 by stepping */
	int skx = row_of(mf, "skylakex"), clx = row_of(mf, "cascadelakex");
	assert_int_equal(pk_cpuid__match("x86", mf->rows[skx].cpuid, "GenuineIntel-6-55-4"), 0);
	assert_int_equal(pk_cpuid__match("x86", mf->rows[clx].cpuid, "GenuineIntel-6-55-4"), 1);
	assert_int_equal(pk_cpuid__match("x86", mf->rows[skx].cpuid, "GenuineIntel-6-55-7"), 1);
	assert_int_equal(pk_cpuid__match("x86", mf->rows[clx].cpuid, "GenuineIntel-6-55-7"), 0);
	/* Zen 1 ids also fit the broader Zen 2 row; the first row wins, as in perf */
	assert_int_equal(pk_cpuid__match("x86", mf->rows[row_of(mf, "amdzen2")].cpuid,
					 "AuthenticAMD-23-1-2"), 0);
	free(mf);
}

/* Every row of the real x86 mapfile is the first match of some id. */
static void test_real_x86_every_row_reachable(void **state)
{
	(void)state;
	struct mapfile *mf = load_or_skip("x86");
	struct pk_cpuid_cache *cache = pk_cpuid_cache__new();
	assert_non_null(cache);
	for (size_t i = 0; i < mf->n; i++) {
		char vendor[32];
		unsigned family;
		assert_int_equal(sscanf(mf->rows[i].cpuid, "%31[^-]-%u-", vendor, &family), 2);
		bool reached = false;
		for (unsigned m = 0; m < 256 && !reached; m++) {
			for (unsigned s = 0; s < 16 && !reached; s++) {
				char id[64];
				snprintf(id, sizeof(id), "%s-%u-%X-%X", vendor, family, m, s);
				if (pk_cpuid_cache__match(cache, "x86", mf->rows[i].cpuid, id))
					continue;
				reached = lookup(mf, cache, id) == (int)i;
			}
		}
		if (!reached)
			fail_msg("row %s (%s) is never the first match", mf->rows[i].cpuid, mf->rows[i].dir);
	}
	pk_cpuid_cache__free(cache);
	free(mf);
}

static void test_real_arm64_mapfile(void **state)
{
	(void)state;
	struct mapfile *mf = load_or_skip("arm64");
	for (size_t i = 0; i < mf->n; i++) {
		unsigned long long midr = strtoull(mf->rows[i].cpuid, NULL, 16);
		char id[32];
		/* the row's own MIDR, and the same part at r2p3 */
		assert_string_equal(lookup_dir(mf, mf->rows[i].cpuid), mf->rows[i].dir);
		snprintf(id, sizeof(id), "0x%016llx", midr | 0x200003ull);
		assert_string_equal(lookup_dir(mf, id), mf->rows[i].dir);
	}
	free(mf);
}


/* Each line of fixtures/cpu/mapfile-expect.txt, "arch id dir", is the first row id matches. */
static void test_real_mapfiles_expected(void **state)
{
	(void)state;
	struct mapfile *mf = load_or_skip("x86");
	FILE *f = fopen(fixture("mapfile-expect.txt"), "r");
	assert_non_null(f);
	char line[256], arch[16], id[128], dir[96];
	unsigned checked = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%15s %127s %95s", arch, id, dir) != 3)
			continue;
		if (strcmp(mf->arch, arch))
			assert_true(mapfile_load(arch, mf));
		const char *got = lookup_dir(mf, id);
		if (strcmp(got, dir))
			fail_msg("%s %s: expected %s, got %s", arch, id, dir, got);
		checked++;
	}
	fclose(f);
	free(mf);
	assert_true(checked >= 80);
}

/* ---- guessing ---- */

static void test_guess_arch(void **state)
{
	(void)state;
	assert_string_equal(pk_cpuid__guess_arch("GenuineIntel-6-55-4"), "x86");
	assert_string_equal(pk_cpuid__guess_arch("GenuineIntel-6-8F"), "x86");
	assert_string_equal(pk_cpuid__guess_arch("AuthenticAMD-25-1-1"), "x86");
	assert_string_equal(pk_cpuid__guess_arch("HygonGenuine-24-0-1"), "x86");
	assert_string_equal(pk_cpuid__guess_arch("0x00000000410fd0c0"), "arm64");
	assert_string_equal(pk_cpuid__guess_arch("0x004e1200"), "powerpc");
	assert_string_equal(pk_cpuid__guess_arch("IBM,8561,703,T01,3.6,002f"), "s390");
	assert_string_equal(pk_cpuid__guess_arch("0x489-0x8000000000000007-0x4210427"), "riscv");
	assert_string_equal(pk_cpuid__guess_arch("0x5b7-0x0-0x0"), "riscv");
	assert_null(pk_cpuid__guess_arch(NULL));
	assert_null(pk_cpuid__guess_arch(""));
	assert_null(pk_cpuid__guess_arch("skylake"));
	assert_null(pk_cpuid__guess_arch("0x410fd0c"));
	assert_null(pk_cpuid__guess_arch("0x00000000410fd0cg"));
	assert_null(pk_cpuid__guess_arch("GenuineIntel-6"));
	assert_null(pk_cpuid__guess_arch("GenuineIntel-six-55-4"));
	assert_null(pk_cpuid__guess_arch("GenuineIntel-6-55-4-1"));
	assert_null(pk_cpuid__guess_arch("-6-55-4"));
	assert_null(pk_cpuid__guess_arch("0x489-0x1"));
	/* the family has at most three digits (checked before the fourth is looked at) */
	assert_string_equal(pk_cpuid__guess_arch("GenuineIntel-175-1-2"), "x86");
	assert_null(pk_cpuid__guess_arch("GenuineIntel-1750-1-2"));
	assert_null(pk_cpuid__guess_arch("GenuineIntel-175"));
	assert_null(pk_cpuid__guess_arch("GenuineIntel-17"));
}

/* ---- distance ---- */

static void test_distance_x86(void **state)
{
	(void)state;
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-4"), 0);
	/* same model, other stepping: the closest non-match */
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-55-[56789ABCDEF]",
					     "GenuineIntel-6-55-4"), 1);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-56", "GenuineIntel-6-55-4"), 1);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-8F", "GenuineIntel-6-55-4"), 0x3A);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-(97|9A|B7|BA|BF)",
					     "GenuineIntel-6-99-0"), 1);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-(97|9A|B7|BA|BF)",
					     "GenuineIntel-6-C0"), 1);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-2A", "GenuineIntel-6-0-0"), 0x2A);
	/* optional characters and top-level alternatives do not hide a vendor */
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntelX?-6-55", "GenuineIntel-6-57-0"), 2);
	assert_int_equal(pk_cpuid__distance("x86", "AMD|GenuineIntel-6-55", "GenuineIntel-6-57-0"), 2);
	assert_int_equal(pk_cpuid__distance("x86", "(GenuineIntel)-6-[5]5", "GenuineIntel-6-57-0"), 2);
	/* other vendor or family: unrelated */
	assert_int_equal(pk_cpuid__distance("x86", "AuthenticAMD-25-[[:xdigit:]]+", "GenuineIntel-6-55-4"),
			 UINT_MAX);
	assert_int_equal(pk_cpuid__distance("x86", "AuthenticAMD-25-[[:xdigit:]]+", "AuthenticAMD-26-2-1"),
			 UINT_MAX);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-(55", "GenuineIntel-6-55-4"), UINT_MAX);
	assert_int_equal(pk_cpuid__distance("x86", "GenuineIntel-6-55", "not an id"), UINT_MAX);
	assert_int_equal(pk_cpuid__distance("x86", NULL, "GenuineIntel-6-55-4"), UINT_MAX);

	struct mapfile *mf = load_or_skip("x86");
	/* every real row against a brute force over all models and steppings */
	static const char *const ids[] = { "GenuineIntel-6-99-0", "GenuineIntel-6-55-4",
					   "GenuineIntel-6-0-0", "AuthenticAMD-25-70-1" };
	struct pk_cpuid_cache *cache = pk_cpuid_cache__new();
	assert_non_null(cache);
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		char vendor[32];
		unsigned family, model, stepping;
		assert_int_equal(sscanf(ids[k], "%31[^-]-%u-%x-%x", vendor, &family, &model, &stepping), 4);
		for (size_t i = 0; i < mf->n; i++) {
			const char *pat = mf->rows[i].cpuid;
			unsigned expect = UINT_MAX;
			for (unsigned m = 0; m < 256; m++) {
				for (unsigned s = 0; s < 16; s++) {
					char cand[64];
					snprintf(cand, sizeof(cand), "%s-%u-%X-%X", vendor, family, m, s);
					if (pk_cpuid_cache__match(cache, "x86", pat, cand) == 0) {
						unsigned dm = m > model ? m - model : model - m;
						if (dm < expect)
							expect = dm;
					}
				}
			}
			if (pk_cpuid__match("x86", pat, ids[k]) == 0)
				expect = 0;
			else if (expect == 0)
				expect = 1;
			unsigned got = pk_cpuid__distance("x86", pat, ids[k]);
			if (got != expect)
				fail_msg("%s vs %s: distance %u, brute force %u", ids[k], pat, got, expect);
		}
	}
	pk_cpuid_cache__free(cache);

	closest_eq(mf, "GenuineIntel-6-99-0", "alderlake", 1);
	closest_eq(mf, "GenuineIntel-6-90-1", "sapphirerapids", 1);
	closest_eq(mf, "GenuineIntel-6-C0-1", "alderlake", 1);	/* BF */
	closest_eq(mf, "GenuineIntel-6-55-4", "skylakex", 0);
	closest_eq(mf, "AuthenticAMD-27-0-0", "(none)", UINT_MAX);
	/* the neighbours of an unknown model, nearest first */
	assert_int_equal(pk_cpuid__distance("x86", mf->rows[row_of(mf, "elkhartlake")].cpuid,
					    "GenuineIntel-6-99-0"), 3);
	assert_int_equal(pk_cpuid__distance("x86", mf->rows[row_of(mf, "skylake")].cpuid,
					    "GenuineIntel-6-99-0"), 5);
	free(mf);
}

static void test_distance_arm64_powerpc(void **state)
{
	(void)state;
	assert_int_equal(pk_cpuid__distance("arm64", "0x00000000410fd0c0", "0x00000000413fd0c1"), 0);
	assert_int_equal(pk_cpuid__distance("arm64", "0x00000000410fd0d0", "0x00000000410fd0e0"), 1);
	assert_int_equal(pk_cpuid__distance("arm64", "0x00000000410fd0c0", "0x00000000410fd0e0"), 2);
	assert_int_equal(pk_cpuid__distance("arm64", "0x00000000410fd050", "0x00000000410fd0d0"), 8);
	assert_int_equal(pk_cpuid__distance("arm64", "0x00000000411fd0c0", "0x00000000410fd0c0"), 1);
	assert_int_equal(pk_cpuid__distance("arm64", "0x410fd0c0", "0x00000000510f8000"), UINT_MAX);
	assert_int_equal(pk_cpuid__distance("arm64", "bad", "0x00000000410fd0c0"), UINT_MAX);

	const char *p9 = "0x004e[[:xdigit:]]{4}", *p8 = "0x004[bcd][[:xdigit:]]{4}";
	assert_int_equal(pk_cpuid__distance("powerpc", p9, "0x004e1202"), 0);
	assert_int_equal(pk_cpuid__distance("powerpc", p9, "0x004f1200"), 1);
	assert_int_equal(pk_cpuid__distance("powerpc", p8, "0x004f1200"), 2);
	assert_int_equal(pk_cpuid__distance("powerpc", p8, "0x00401200"), 0xb);
	assert_int_equal(pk_cpuid__distance("powerpc", p9, "0x80200010"), UINT_MAX);
	assert_int_equal(pk_cpuid__distance("powerpc", p9, "0x00000000004f1200"), UINT_MAX);

	struct mapfile *mf = load_or_skip("arm64");
	closest_eq(mf, "0x00000000410fd0e0", "arm/cortex-a77", 1);
	closest_eq(mf, "0x00000000410fd4d0", "arm/cortex-x1", 1);	/* d4c */
	closest_eq(mf, "0x00000000c00fac50", "ampere/ampereonex", 1);
	closest_eq(mf, "0x00000000510f8000", "(none)", UINT_MAX);
	assert_true(mapfile_load("powerpc", mf));
	closest_eq(mf, "0x00830000", "power10", 1);
	closest_eq(mf, "0x004f0100", "power9", 1);
	free(mf);
}

static void test_distance_others(void **state)
{
	(void)state;
	const char *u74 = "0x489-0x8000000000000007-0x[[:xdigit:]]+";
	assert_int_equal(pk_cpuid__distance("riscv", u74, "0x489-0x8000000000000007-0x1"), 0);
	unsigned near = pk_cpuid__distance("riscv", u74, "0x489-0x8000000000000008-0x1");
	unsigned far = pk_cpuid__distance("riscv", u74, "0x489-0x1-0x1");
	assert_true(near >= 1 && near < far && far < UINT_MAX);
	assert_int_equal(pk_cpuid__distance("riscv", u74, "0x5b7-0x0-0x0"), UINT_MAX);
	const char *z15 = "^IBM.856[12].*3\\.6.[[:xdigit:]]+$";
	assert_int_equal(pk_cpuid__distance("s390", z15, "IBM,8561,703,T01,3.6,002f"), 0);
	unsigned d = pk_cpuid__distance("s390", z15, "IBM,8561,703,T01");
	assert_true(d >= 1 && d < UINT_MAX);
}

/* One pass over every row of every real mapfile fits the suggestion budget. */
static void test_distance_speed(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86", "arm64", "powerpc", "s390", "riscv", "nds32" };
	static const char *const ids[] = { "GenuineIntel-6-99-0", "AuthenticAMD-27-0-0",
					   "0x00000000410fd0e0", "0x004f0100", "GenuineIntel-6-0-0" };
	struct mapfile *mf = malloc(6 * sizeof(*mf));
	assert_non_null(mf);
	size_t rows = 0;
	for (int a = 0; a < 6; a++) {
		if (!mapfile_load(arches[a], &mf[a]))
			mf[a].n = 0;
		rows += mf[a].n;
	}
	if (rows < 80) {
		free(mf);
		skip();
	}
	double worst = 0;
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		double best = 1e9;
		for (int rep = 0; rep < 5; rep++) {
			clock_t t0 = clock();	/* CPU time: insensitive to other load */
			unsigned sum = 0;
			for (int a = 0; a < 6; a++)
				for (size_t i = 0; i < mf[a].n; i++)
					sum |= pk_cpuid__distance(mf[a].arch, mf[a].rows[i].cpuid, ids[k]);
			double t = (double)(clock() - t0) * 1e3 / CLOCKS_PER_SEC;
			assert_true(sum != 0);
			if (t < best)
				best = t;
		}
		if (best > worst)
			worst = best;
	}
	free(mf);
	const double budget = SANITIZED ? 25.0 : 5.0;
	if (worst > budget)
		fail_msg("distance over %zu rows took %.2f ms (budget %.1f)", rows, worst, budget);
}

/* ---- cache ---- */

static void test_cache(void **state)
{
	(void)state;
	struct pk_cpuid_cache *cache = pk_cpuid_cache__new();
	assert_non_null(cache);
	/* more patterns than the initial table: one per model, each matching its own id only */
	for (int round = 0; round < 2; round++) {
		for (unsigned m = 0; m < 256; m++) {
			char pat[64], id[64], other[64];
			snprintf(pat, sizeof(pat), "GenuineIntel-6-%X", m);
			snprintf(id, sizeof(id), "GenuineIntel-6-%X-3", m);
			snprintf(other, sizeof(other), "GenuineIntel-6-%X-3", (m + 1) & 0xff);
			assert_int_equal(pk_cpuid_cache__match(cache, "x86", pat, id), 0);
			assert_int_equal(pk_cpuid_cache__match(cache, "x86", pat, other), 1);
		}
	}
	assert_int_equal(pk_cpuid_cache__match(cache, "x86", "GenuineIntel-6-(55", "GenuineIntel-6-55-4"),
			 -EINVAL);
	assert_int_equal(pk_cpuid_cache__match(cache, "x86", "GenuineIntel-6-(55", "GenuineIntel-6-55-4"),
			 -EINVAL);
	assert_int_equal(pk_cpuid_cache__distance(cache, "x86", "GenuineIntel-6-8F", "GenuineIntel-6-5-4"),
			 0x8A);

	/* the same answers as without a cache, over the real rows */
	static const char *const arches[] = { "x86", "arm64", "powerpc", "s390", "riscv" };
	static const char *const ids[] = { "GenuineIntel-6-55-4", "GenuineIntel-6-55-7",
					   "AuthenticAMD-25-1-1",
					   "0x00000000410fd0c0", "0x004e1200", "IBM,8561,703,T01,3.6,002f",
					   "0x489-0x8000000000000007-0x4210427", "GenuineIntel-6-99-0" };
	struct mapfile *mf = malloc(sizeof(*mf));
	assert_non_null(mf);
	for (int a = 0; a < 5; a++) {
		if (!mapfile_load(arches[a], mf))
			continue;
		for (size_t i = 0; i < mf->n; i++) {
			for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
				const char *p = mf->rows[i].cpuid;
				assert_int_equal(pk_cpuid_cache__match(cache, mf->arch, p, ids[k]),
						 pk_cpuid__match(mf->arch, p, ids[k]));
				assert_int_equal(pk_cpuid_cache__distance(cache, mf->arch, p, ids[k]),
						 pk_cpuid__distance(mf->arch, p, ids[k]));
			}
		}
	}
	free(mf);
	pk_cpuid_cache__free(cache);
	pk_cpuid_cache__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_arch),
		cmocka_unit_test(test_host_x86_equals_proc_cpuinfo),
		cmocka_unit_test(test_x86_signature),
		cmocka_unit_test(test_host_errors),
		cmocka_unit_test(test_read_x86_cpuinfo),
		cmocka_unit_test(test_read_arm64_biglittle),
		cmocka_unit_test(test_read_arm64_online),
		cmocka_unit_test(test_read_powerpc_riscv),
		cmocka_unit_test(test_read_s390),
		cmocka_unit_test(test_match_x86_rules),
		cmocka_unit_test(test_match_arm64_rules),
		cmocka_unit_test(test_match_other_rules),
		cmocka_unit_test(test_real_x86_mapfile),
		cmocka_unit_test(test_real_x86_every_row_reachable),
		cmocka_unit_test(test_real_arm64_mapfile),
		cmocka_unit_test(test_real_mapfiles_expected),
		cmocka_unit_test(test_guess_arch),
		cmocka_unit_test(test_distance_x86),
		cmocka_unit_test(test_distance_arm64_powerpc),
		cmocka_unit_test(test_distance_others),
		cmocka_unit_test(test_distance_speed),
		cmocka_unit_test(test_cache),
	};
	return cmocka_run_group_tests_name("cpuid", tests, NULL, NULL);
}
