/* SPDX-License-Identifier: MIT */
/*
 * test_count_cgroup.c — pk_count_opts.cgroups (perf stat -G): an event
 * counted in a cgroup of our own (made under the cgroup2 mount, or v1's
 * perf_event hierarchy) sees only the tasks in it: a child that context
 * switches 200 times in the cgroup is counted there, not another that
 * switches 1000 times outside it, which the same event without a cgroup
 * (-1) counts too.
 * Skipped where no cgroup can be made (not root, no mount).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/count.h>
#include <pmukit/cpumap.h>
#include <pmukit/spec.h>

static int cgroup_mount(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], mnt[512], type[64], opts[1024], v2[512] = "";
	int found = -1;
	while (f && fscanf(f, "%255s %511s %63s %1023s %*d %*d", dev, mnt, type, opts) == 4) {
		if (!strcmp(type, "cgroup") && strstr(opts, "perf_event")) {
			snprintf(buf, len, "%s", mnt);
			found = 0;
			break;
		}
		if (!strcmp(type, "cgroup2") && !*v2)
			snprintf(v2, sizeof(v2), "%s", mnt);
	}
	if (f)
		fclose(f);
	if (found && *v2) {
		snprintf(buf, len, "%s", v2);
		found = 0;
	}
	return found;
}

/* the kernel has the perf_event cgroup controller (CONFIG_CGROUP_PERF), enabled */
static int perf_event_controller(void)
{
	FILE *f = fopen("/proc/cgroups", "r");
	char name[64];
	int a, b, c, en, found = 0;
	while (f && !found && fscanf(f, "%63s", name) == 1) {
		if (name[0] == '#' || fscanf(f, "%d %d %d", &a, &b, &c) != 3) {
			int ch;
			while ((ch = fgetc(f)) != EOF && ch != '\n')
				;
			continue;
		}
		en = c;
		found = !strcmp(name, "perf_event") && en;
	}
	if (f)
		fclose(f);
	return found;
}

static void test_cgroup(void **state)
{
	(void)state;
	char mnt[512], dir[700], procs[720];
	if (!perf_event_controller() || cgroup_mount(mnt, sizeof(mnt)))
		skip();
	snprintf(dir, sizeof(dir), "%s/pmukit-test-%d", mnt, (int)getpid());
	if (mkdir(dir, 0755))
		skip();
	int cgfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(cgfd >= 0);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);

	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .system_wide = true };
	assert_int_equal(pk_evlist__add(el, "context-switches,context-switches", &so, NULL), 0);
	struct pk_cpu_map *cpus = NULL;
	assert_int_equal(pk_cpu_map__online(NULL, &cpus, NULL), 0);
	int cg[2] = { cgfd, -1 };
	struct pk_count_opts o = { .sz = sizeof(o), .cpus = cpus, .cgroups = cg };
	struct pk_counter *c = NULL;
	struct pk_error err = { 0 };
	int r = pk_counter__open(&c, el, &o, &err);
	if (r)
		print_message("open: %s\n", err.msg);
	assert_int_equal(r, 0);
	close(cgfd);	/* the kernel holds the cgroup */
	assert_int_equal(pk_counter__enable(c, &err), 0);

	pid_t child = fork();
	if (child == 0) {
		FILE *f = fopen(procs, "w");
		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
			_exit(1);
		for (int i = 0; i < 200; i++) {
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);	/* a context switch each */
		}
		_exit(0);
	}
	pid_t outside = fork();	/* five times as many switches, in no cgroup of ours */
	if (outside == 0) {
		for (int i = 0; i < 1000; i++) {
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL);
		}
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(waitpid(outside, &status, 0), outside);
	assert_int_equal(pk_counter__read(c, &err), 0);
	struct pk_count_value in, all;
	assert_int_equal(pk_counter__value(c, 0, &in), 0);
	assert_int_equal(pk_counter__value(c, 1, &all), 0);
	print_message("# context switches: cgroup %llu, all %llu\n", (unsigned long long)in.raw,
		      (unsigned long long)all.raw);
	assert_int_equal(in.status, PK_COUNT_OK);
	assert_true(in.raw >= 200 && in.raw < 600);	/* not the other child's */
	assert_true(all.raw >= in.raw + 1000);
	pk_counter__free(c);
	pk_cpu_map__free(cpus);
	pk_evlist__free(el);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup),
	};
	return cmocka_run_group_tests_name("count_cgroup", tests, NULL, NULL);
}
