/* SPDX-License-Identifier: MIT */
/*
 * test_cpumap.c — CPU maps (pmukit/cpumap.h): perf's list syntax (what perf
 * 6.1 accepts for -C: ranges, trailing comma, any order; what it refuses:
 * "1-0", "0,0"), errors pointing at the offending byte, lookups, set
 * operations, printing back as the kernel does, and the online/present files
 * of fake roots (tests/fixtures/topology) and of this machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/cpumap.h>

static const char *fixture(char *buf, size_t len, const char *tree)
{
	const char *src = getenv("PMUKIT_SRC");
	snprintf(buf, len, "%s/tests/fixtures/topology/%s", src && *src ? src : ".", tree);
	return buf;
}

/* parse list, expect the CPUs in want[0..n) */
static void expect_cpus(const char *list, const int *want, size_t n)
{
	struct pk_cpu_map *m = NULL;
	struct pk_error err = { 0 };
	int r = pk_cpu_map__parse(&m, list, &err);
	if (r)
		print_message("'%s': %s\n", list, err.msg);
	assert_int_equal(r, 0);
	assert_int_equal(pk_cpu_map__nr(m), n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(pk_cpu_map__cpu(m, i), want[i]);
		assert_int_equal(pk_cpu_map__idx(m, want[i]), (int)i);
	}
	pk_cpu_map__free(m);
}

static void test_parse(void **state)
{
	(void)state;
	expect_cpus("0", (int[]){ 0 }, 1);
	expect_cpus("0-3", (int[]){ 0, 1, 2, 3 }, 4);
	expect_cpus("0-3,5,8-9", (int[]){ 0, 1, 2, 3, 5, 8, 9 }, 7);
	expect_cpus("0-1,", (int[]){ 0, 1 }, 2);		/* perf accepts the trailing comma */
	expect_cpus("9,1,4-5", (int[]){ 1, 4, 5, 9 }, 4);	/* any order, sorted */
	expect_cpus("3-3", (int[]){ 3 }, 1);
	expect_cpus("007", (int[]){ 7 }, 1);
	expect_cpus("65535", (int[]){ 65535 }, 1);
}

/* parse list, expect -EINVAL with the bad byte at off and msg containing what */
static void expect_error(const char *list, unsigned off, const char *what)
{
	struct pk_cpu_map *m = (struct pk_cpu_map *)&m;
	struct pk_error err = { 0 };
	assert_int_equal(pk_cpu_map__parse(&m, list, &err), -EINVAL);
	assert_null(m);
	assert_int_equal(err.code, -EINVAL);
	if (err.column != off + 1 || !strstr(err.msg, what))
		print_message("'%s': column %u, msg '%s'\n", list, err.column, err.msg);
	assert_int_equal(err.column, off + 1);
	assert_non_null(strstr(err.msg, what));
	char at[32];
	snprintf(at, sizeof(at), "at offset %u", off);
	assert_non_null(strstr(err.msg, at));
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("1-0", 2, "ends below its start");	/* perf refuses it too */
	expect_error("0,0", 2, "CPU 0 listed twice");		/* perf refuses it too */
	expect_error("0-3,2-5", 4, "CPU 2 listed twice");	/* overlapping ranges */
	expect_error("a", 0, "expected a CPU number, got 'a'");
	expect_error(" 0", 0, "got ' '");
	expect_error("0x1", 1, "expected ',' or '-', got 'x'");
	expect_error("0-", 2, "expected the end of the range, got end of list");
	expect_error("0,,1", 2, "expected a CPU number, got ','");
	expect_error("0-3;5", 3, "got ';'");
	expect_error("1,2\n", 3, "byte 0x0a");
	expect_error("65536", 0, "too large");
	expect_error("0-99999999999", 2, "too large");
	expect_error(",1", 0, "expected a CPU number");

	struct pk_cpu_map *m = NULL;
	struct pk_error err = { 0 };
	assert_int_equal(pk_cpu_map__parse(&m, "", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_equal(pk_cpu_map__parse(&m, NULL, NULL), -EINVAL);	/* err optional */
}

static struct pk_cpu_map *map_of(const char *list)
{
	struct pk_cpu_map *m = NULL;
	assert_int_equal(pk_cpu_map__parse(&m, list, NULL), 0);
	return m;
}

static void expect_format(const struct pk_cpu_map *m, const char *want)
{
	char buf[128];
	assert_int_equal(pk_cpu_map__format(m, buf, sizeof(buf)), strlen(want));
	assert_string_equal(buf, want);
}

static void test_ops(void **state)
{
	(void)state;
	struct pk_cpu_map *a = map_of("0-5,8"), *b = map_of("4-9"), *x = NULL, *u = NULL;

	assert_true(pk_cpu_map__has(a, 8) && !pk_cpu_map__has(a, 7) && !pk_cpu_map__has(a, -1));
	assert_int_equal(pk_cpu_map__idx(a, 8), 6);
	assert_int_equal(pk_cpu_map__cpu(a, 7), -1);
	assert_int_equal(pk_cpu_map__intersect(a, b, &x), 0);
	expect_format(x, "4-5,8");
	assert_int_equal(pk_cpu_map__merge(a, b, &u), 0);
	expect_format(u, "0-9");
	assert_true(pk_cpu_map__is_subset(u, a) && pk_cpu_map__is_subset(a, x));
	assert_false(pk_cpu_map__is_subset(a, b));
	pk_cpu_map__free(x);

	/* disjoint: empty intersection, printed as "" */
	struct pk_cpu_map *c = map_of("10-11");
	assert_int_equal(pk_cpu_map__intersect(a, c, &x), 0);
	assert_int_equal(pk_cpu_map__nr(x), 0);
	expect_format(x, "");
	assert_true(pk_cpu_map__is_subset(a, x));
	assert_false(pk_cpu_map__equal(a, x));

	/* new(): any order, duplicates merged; a negative CPU refused */
	struct pk_cpu_map *n = NULL, *d;
	assert_int_equal(pk_cpu_map__new(&n, (int[]){ 8, 0, 5, 1, 2, 3, 4, 5 }, 8), 0);
	assert_true(pk_cpu_map__equal(n, a));
	assert_int_equal(pk_cpu_map__new(&d, (int[]){ 1, -1 }, 2), -EINVAL);
	d = pk_cpu_map__dup(n);
	assert_true(pk_cpu_map__equal(d, a));
	assert_int_equal(pk_cpu_map__nr(NULL), 0);

	pk_cpu_map__free(a);
	pk_cpu_map__free(b);
	pk_cpu_map__free(c);
	pk_cpu_map__free(x);
	pk_cpu_map__free(u);
	pk_cpu_map__free(n);
	pk_cpu_map__free(d);
}

static void test_format(void **state)
{
	(void)state;
	/* the kernel's list form: runs of two or more as ranges */
	const char *lists[] = { "0", "0-1", "0,2", "0-3,5,8-9", "1,3,5-7,9", "100-102,65535" };
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct pk_cpu_map *m = map_of(lists[i]);
		expect_format(m, lists[i]);
		pk_cpu_map__free(m);
	}
	/* snprintf-like: the needed length, a terminated prefix */
	struct pk_cpu_map *m = map_of("0-3,5,8-9");
	char small[6];
	memset(small, 'x', sizeof(small));
	assert_int_equal(pk_cpu_map__format(m, small, sizeof(small)), 9);
	assert_true(strlen(small) < sizeof(small));
	assert_int_equal(strncmp(small, "0-3,5,8-9", strlen(small)), 0);
	assert_int_equal(pk_cpu_map__format(m, NULL, 0), 9);
	pk_cpu_map__free(m);
}

static void test_files(void **state)
{
	(void)state;
	char root[1024];
	struct pk_cpu_map *m = NULL;
	struct pk_error err = { 0 };

	/* a root with an offline CPU: online 0-1,3, present 0-3 (files end with a newline) */
	fixture(root, sizeof(root), "offline");
	assert_int_equal(pk_cpu_map__online(root, &m, &err), 0);
	expect_format(m, "0-1,3");
	pk_cpu_map__free(m);
	assert_int_equal(pk_cpu_map__present(root, &m, &err), 0);
	expect_format(m, "0-3");
	pk_cpu_map__free(m);

	/* a missing root: -ENOENT naming the file */
	assert_int_equal(pk_cpu_map__online("/nonexistent/cpu", &m, &err), -ENOENT);
	assert_null(m);
	assert_string_equal(err.file, "/nonexistent/cpu/online");

	/* a bad file: the position in it */
	char tmp[] = "/tmp/pk-cpumap-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0-2,x\n", 6), 6);
	close(fd);
	assert_int_equal(pk_cpu_map__read(&m, tmp, &err), -EINVAL);
	assert_string_equal(err.file, tmp);
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 5);
	/* an empty file (as /sys/devices/system/cpu/offline with every CPU online) */
	fd = open(tmp, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "\n", 1), 1);
	close(fd);
	assert_int_equal(pk_cpu_map__read(&m, tmp, &err), 0);
	assert_int_equal(pk_cpu_map__nr(m), 0);
	pk_cpu_map__free(m);
	unlink(tmp);

	/* this machine: as many online CPUs as sysconf says, numbered as the files say */
	assert_int_equal(pk_cpu_map__online(NULL, &m, &err), 0);
	assert_int_equal(pk_cpu_map__nr(m), (size_t)sysconf(_SC_NPROCESSORS_ONLN));
	for (size_t i = 0; i < pk_cpu_map__nr(m); i++) {
		char p[128];
		snprintf(p, sizeof(p), PK_CPU_ROOT_DEFAULT "/cpu%d", pk_cpu_map__cpu(m, i));
		assert_int_equal(access(p, F_OK), 0);
	}
	char buf[256];
	pk_cpu_map__format(m, buf, sizeof(buf));
	print_message("# online CPUs here: %s\n", buf);
	pk_cpu_map__free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests_name("cpumap", tests, NULL, NULL);
}
