/* SPDX-License-Identifier: MIT */
/*
 * test_data_write_feat.c — the feature sections of files built through the
 * writer, as perf 6.1 prints them (`perf report --header-only -I`):
 *   - on this machine, line by line against a perf 6.1 recording made here
 *     (hostname, OS release, arch, CPUs, CPU description and id, memory,
 *     CPU topology with dies, NUMA nodes, PMU mappings, caches, memory
 *     blocks);
 *   - from fixture machines written by the test (opts.sysroot): a 2-socket
 *     x86_64 one (die lists, two NUMA nodes with memory blocks, PMU caps, a
 *     kernel build-id in sys/kernel/notes) and an aarch64 one (MIDR cpuid,
 *     no dies, no cpudesc), and one with offline CPUs and missing files (CPU
 *     topology read back through the reader);
 *   - what the writer is told: the command line, event names, groups, the
 *     clock (CLOCKID/CLOCK_DATA), sample times and build-ids of DSOs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>

#include <pmukit/data_read.h>

#include "test_data_write_util.h"

/* --- a file with one event and a few samples --------------------------------------------- */

struct opts_ex {
	const char *sysroot;
	bool clock;
	const char *dso;		/* add_dso of this path (user) */
	bool kernel_dso;
	bool gather;			/* pk_data_writer__gather() after begin */
	const char *rehost;		/* then the sysroot's hostname changed to this */
};

static void put_file(const char *root, const char *rel, const char *text);

static void write_file(const char *path, const struct opts_ex *x)
{
	const char *argv[] = { "pmukit", "record", "-e", "cpu-clock", "--", "sleep", "1" };
	struct pk_data_writer_opts o = { .sz = sizeof(o), .argc = 7, .argv = argv,
					 .sysroot = x ? x->sysroot : NULL,
					 .use_clockid = x && x->clock, .clockid = CLOCK_MONOTONIC };
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_ID;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 4000, .freq = 1, .sample_type = st, .sample_id_all = 1,
		.read_format = PERF_FORMAT_ID, .use_clockid = x && x->clock,
		.clockid = CLOCK_MONOTONIC,
	};
	struct perf_event_attr b = a;
	b.config = PERF_COUNT_SW_TASK_CLOCK;
	uint64_t ids[] = { 11, 12 }, ids2[] = { 21, 22 };
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", ids, 1, &err), &err);
	CHECK_OK(pk_data_writer__add_ids(w, 0, ids + 1, 1, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &b, "task-clock", ids2, 2, &err), &err);
	CHECK_OK(pk_data_writer__add_group(w, 0, 2, NULL, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	if (x && x->gather)
		CHECK_OK(pk_data_writer__gather(w, &err), &err);
	if (x && x->rehost)
		put_file(x->sysroot, "proc/sys/kernel/hostname", x->rehost);
	struct pk_buf r = { 0 };
	put_comm(&r, st, 77, "feat", 10, 11);
	for (int i = 0; i < 4; i++) {
		struct tsample s = { .ip = 0x400000 + (uint64_t)i, .pid = 77, .tid = 77,
				     .time = 1234567890ULL + 1000000ULL * (uint64_t)i,
				     .id = i % 2 ? 11 : 21, .period = 4000 };
		put_sample(&r, st, PERF_RECORD_MISC_USER, &s);
	}
	CHECK_OK(pk_data_writer__write(w, r.data, r.len, &err), &err);
	if (x && x->dso)
		assert_int_equal(pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_USER, x->dso), 0);
	if (x && x->kernel_dso) {
		assert_int_equal(pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_KERNEL,
							 "[kernel.kallsyms]"), 0);
		assert_int_equal(pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_KERNEL, "[ext4]"), 0);
		/* merged with the first */
		assert_int_equal(pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_KERNEL, "[ext4]"), 0);
		/* no notes for it: left out */
		assert_int_equal(pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_KERNEL, "[xfs]"), 0);
	}
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	pk_buf__free(&r);
	close(fd);
}

static void header_of(const char *path, struct pk_buf *out)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "perf report --header-only -I -i %s", path);
	int st = run_capture(cmd, out);
	if (st)
		print_message("%s\n", (const char *)out->data);
	assert_int_equal(st, 0);
}

/* --- this machine, against perf 6.1 -------------------------------------------------------- */

/* the lines of perf's header that describe the machine: each must be in ours, as it is */
static const char *const machine_lines[] = {
	"# hostname :", "# os release :", "# arch :", "# nrcpus online :", "# nrcpus avail :",
	"# cpudesc :", "# cpuid :", "# total memory :", "# sibling sockets :",
	"# sibling dies    :", "# sibling threads :", "# CPU ", "# pmu mappings:",
	"# node", "#  L", "# memory nodes", "#    ", "# cpu pmu capabilities",
};

static void test_machine_vs_perf(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char theirs[256], ours[256];
	struct pk_buf out = { 0 }, mine = { 0 };

	tmp_path(theirs, sizeof(theirs), "perf-record.data");
	tmp_path(ours, sizeof(ours), "ours.data");
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "perf record -q -o %s -e cpu-clock -- true", theirs);
	if (run_capture(cmd, &out)) {
		print_message("# SKIP perf record does not run here: %s\n", (const char *)out.data);
		pk_buf__free(&out);
		skip();
	}
	header_of(theirs, &out);
	write_file(ours, NULL);
	header_of(ours, &mine);
	int compared = 0;
	for (char *l = (char *)out.data; l && *l;) {
		char *e = strchr(l, '\n');
		if (e)
			*e = '\0';
		for (size_t i = 0; i < sizeof(machine_lines) / sizeof(*machine_lines); i++) {
			if (strncmp(l, machine_lines[i], strlen(machine_lines[i])))
				continue;
			char *free_at = strstr(l, ", free = ");	/* free memory moves */
			if (free_at)
				free_at[0] = '\0';
			assert_output_has(&mine, l);
			compared++;
			break;
		}
		l = e ? e + 1 : NULL;
	}
	print_message("# %d header lines of perf 6.1's recording found in ours\n", compared);
	assert_true(compared >= 12);
	pk_buf__free(&out);
	pk_buf__free(&mine);
}

/* --- what the writer is told ----------------------------------------------------------------- */

static void test_run_facts(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char path[256], exe[4096], want[4200];
	struct pk_buf out = { 0 };
	struct opts_ex x = { .clock = true };

	write_file(tmp_path(path, sizeof(path), "facts.data"), &x);
	header_of(path, &out);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(want, sizeof(want), "# cmdline : %s record -e cpu-clock -- sleep 1 ", exe);
	assert_output_has(&out, want);
	assert_output_has(&out, "# perf version : pmukit");
	assert_output_has(&out, "# event : name = cpu-clock, , id = { 11, 12 }, type = 1");
	assert_output_has(&out, "# event : name = task-clock, , id = { 21, 22 }, type = 1");
	assert_output_has(&out, "# group: {cpu-clock,task-clock}");
	/* the first and the last of the samples' times: 1.234567 and 1.237567 s */
	assert_output_has(&out, "# time of first sample : 1.234567");
	assert_output_has(&out, "# time of last sample : 1.237567");
	assert_output_has(&out, "# sample duration :      3.000 ms");
	/* CLOCK_MONOTONIC's resolution is 1 ns: perf prints 1000 MHz */
	assert_output_has(&out, "# clockid frequency: 1000 MHz");
	assert_output_has(&out, "# clockid: monotonic (1)");
	assert_output_has(&out, "# reference time: ");
	assert_output_lacks(&out, "missing features: TRACING_DATA BUILD_ID HOSTNAME");

	/* the DSO's build-id, read from its ELF note, as perf lists it */
	write_file(path, &(struct opts_ex){ .dso = exe });
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "perf buildid-list -i %s", path);
	assert_int_equal(run_capture(cmd, &out), 0);
	struct pk_buf f = { 0 };
	snprintf(cmd, sizeof(cmd), "readelf -n %s | sed -n 's/.*Build ID: //p'", exe);
	assert_int_equal(run_capture(cmd, &f), 0);
	f.data[strcspn((char *)f.data, "\n")] = '\0';
	assert_true(strlen((char *)f.data) == 40);
	snprintf(want, sizeof(want), "%s %s", (char *)f.data, exe);
	assert_output_has(&out, want);
	pk_buf__free(&f);
	pk_buf__free(&out);
}

/* SAMPLE_TIME over attrs of different sample types: each sample's attr found by its id */
static void test_sample_time_mixed(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char path[256];
	struct pk_buf out = { 0 }, r = { 0 };
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct pk_data_writer_opts o = { .sz = sizeof(o) };
	const uint64_t sa = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	const uint64_t sb = sa | PERF_SAMPLE_CPU | PERF_SAMPLE_ADDR;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 4000, .sample_type = sa, .sample_id_all = 1,
	};
	struct perf_event_attr b = a;
	b.config = PERF_COUNT_SW_PAGE_FAULTS;
	b.sample_type = sb;
	uint64_t ia = 31, ib = 32;
	int fd = open(tmp_path(path, sizeof(path), "mixed.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", &ia, 1, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &b, "page-faults", &ib, 1, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	put_comm(&r, sa, 9, "mixed", 1, 31);
	/* the earliest and the latest come from page-faults, whose time sits further on */
	struct tsample s1 = { .ip = 1, .pid = 9, .tid = 9, .time = 5000000000ULL, .id = 31,
			      .period = 1 };
	struct tsample s2 = { .ip = 2, .pid = 9, .tid = 9, .time = 2000000000ULL, .id = 32,
			      .addr = 0x1000, .cpu = 1, .period = 1 };
	struct tsample s3 = s2;
	s3.time = 9000000000ULL;
	put_sample(&r, sa, PERF_RECORD_MISC_USER, &s1);
	put_sample(&r, sb, PERF_RECORD_MISC_USER, &s2);
	put_sample(&r, sb, PERF_RECORD_MISC_USER, &s3);
	CHECK_OK(pk_data_writer__write(w, r.data, r.len, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	close(fd);
	header_of(path, &out);
	assert_output_has(&out, "# time of first sample : 2.000000\n");
	assert_output_has(&out, "# time of last sample : 9.000000\n");
	pk_buf__free(&out);
	pk_buf__free(&r);
}

/* --- fixture machines ------------------------------------------------------------------------ */

static void put_file(const char *root, const char *rel, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_filef(const char *root, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put_filef(const char *root, const char *text, const char *fmt, ...)
{
	char rel[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	put_file(root, rel, text);
}

/* 2 sockets x 2 cores, one die each, two NUMA nodes; caches L1d/L1i/L2 per CPU, L3 per socket */
static void make_x86_root(const char *root)
{
	struct pk_buf ci = { 0 };
	for (int c = 0; c < 4; c++) {
		char blk[512];
		int n = snprintf(blk, sizeof(blk),
				 "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
				 "model\t\t: 85\nmodel name\t: Intel(R) Xeon(R)   Gold 6148 CPU @ 2.40GHz\n"
				 "stepping\t: 4\n\n", c);
		pk_buf__append(&ci, blk, (size_t)n);
	}
	pk_buf__append(&ci, "", 1);
	put_file(root, "proc/cpuinfo", (char *)ci.data);
	pk_buf__free(&ci);
	put_file(root, "proc/meminfo", "MemTotal:       16384000 kB\nMemFree:         1000 kB\n");
	put_file(root, "proc/sys/kernel/hostname", "fixturehost\n");
	put_file(root, "proc/sys/kernel/osrelease", "6.9.0-fixture\n");
	put_file(root, "proc/sys/kernel/arch", "x86_64\n");
	put_file(root, "sys/devices/system/cpu/present", "0-3\n");
	put_file(root, "sys/devices/system/cpu/online", "0-3\n");
	put_file(root, "sys/devices/system/cpu/possible", "0-3\n");
	for (int c = 0; c < 4; c++) {
		char v[32];
		const char *pkg = c < 2 ? "0-1\n" : "2-3\n";
		snprintf(v, sizeof(v), "%d\n", c / 2);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		put_filef(root, "0\n", "sys/devices/system/cpu/cpu%d/topology/die_id", c);
		snprintf(v, sizeof(v), "%d\n", c % 2);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/core_id", c);
		put_filef(root, pkg, "sys/devices/system/cpu/cpu%d/topology/package_cpus_list", c);
		put_filef(root, pkg, "sys/devices/system/cpu/cpu%d/topology/die_cpus_list", c);
		snprintf(v, sizeof(v), "%d\n", c);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", c);
		static const char *const type[] = { "Data", "Instruction", "Unified", "Unified" };
		static const char *const size[] = { "32K", "32K", "1024K", "28160K" };
		static const char *const level[] = { "1", "1", "2", "3" };
		for (int i = 0; i < 4; i++) {
			const char *d = "sys/devices/system/cpu";
			put_filef(root, level[i], "%s/cpu%d/cache/index%d/level", d, c, i);
			put_filef(root, "64", "%s/cpu%d/cache/index%d/coherency_line_size", d, c, i);
			put_filef(root, "64", "%s/cpu%d/cache/index%d/number_of_sets", d, c, i);
			put_filef(root, "8", "%s/cpu%d/cache/index%d/ways_of_associativity", d, c, i);
			put_filef(root, type[i], "%s/cpu%d/cache/index%d/type", d, c, i);
			put_filef(root, size[i], "%s/cpu%d/cache/index%d/size", d, c, i);
			put_filef(root, i == 3 ? pkg : v, "%s/cpu%d/cache/index%d/shared_cpu_list", d,
				  c, i);
		}
	}
	put_file(root, "sys/devices/system/node/online", "0-1\n");
	put_file(root, "sys/devices/system/node/node0/meminfo",
		 "Node 0 MemTotal:        8192000 kB\nNode 0 MemFree:         4096000 kB\n");
	put_file(root, "sys/devices/system/node/node0/cpulist", "0-1\n");
	put_file(root, "sys/devices/system/node/node1/meminfo",
		 "Node 1 MemTotal:        8192004 kB\nNode 1 MemFree:         2048000 kB\n");
	put_file(root, "sys/devices/system/node/node1/cpulist", "2-3\n");
	put_file(root, "sys/bus/event_source/devices/cpu/type", "4\n");
	put_file(root, "sys/bus/event_source/devices/software/type", "1\n");
	put_file(root, "sys/bus/event_source/devices/uncore_imc_0/type", "13\n");
	put_file(root, "sys/bus/event_source/devices/cpu/caps/branches", "32\n");
	put_file(root, "sys/bus/event_source/devices/cpu/caps/max_precise", "3\n");
	put_file(root, "sys/bus/event_source/devices/intel_pt/type", "10\n");
	put_file(root, "sys/bus/event_source/devices/intel_pt/caps/psb_cyc", "1\n");
	put_file(root, "sys/bus/event_source/devices/intel_pt/caps/mtc_periods", "249\n");
	/* memory blocks 0-2 on node 0, 8 and 10 on node 1; 128 MiB each */
	put_file(root, "sys/devices/system/memory/block_size_bytes", "8000000\n");
	static const int blocks[] = { 0, 1, 2, 8, 10 };
	for (int i = 0; i < 5; i++)
		put_filef(root, "", "sys/devices/system/node/node%d/memory%d/online", i < 3 ? 0 : 1,
			  blocks[i]);
	/* the kernel's notes: one GNU build-id note (namesz 4, descsz 20, type 3) */
	unsigned char notes[12 + 4 + 20];
	uint32_t hdr[3] = { 4, 20, 3 };
	memcpy(notes, hdr, 12);
	memcpy(notes + 12, "GNU", 4);
	for (int i = 0; i < 20; i++)
		notes[16 + i] = (unsigned char)(0xa0 + i);
	char path[1024];
	static const char *const where[] = { "sys/kernel/notes",
					     "sys/module/ext4/notes/.note.gnu.build-id" };
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s", root, where[k]);
		put_file(root, where[k], "");
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		if (k)	/* the module's: other bytes */
			for (int i = 0; i < 20; i++)
				notes[16 + i] = (unsigned char)(0x10 + i);
		fwrite(notes, 1, sizeof(notes), f);
		fclose(f);
	}
}

static void test_fixture_x86(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char root[256], path[256];
	struct pk_buf out = { 0 };

	tmp_path(root, sizeof(root), "root-x86");
	make_x86_root(root);
	write_file(tmp_path(path, sizeof(path), "x86.data"),
		   &(struct opts_ex){ .sysroot = root, .kernel_dso = true });
	header_of(path, &out);
	assert_output_has(&out, "# hostname : fixturehost\n");
	assert_output_has(&out, "# os release : 6.9.0-fixture\n");
	assert_output_has(&out, "# arch : x86_64\n");
	assert_output_has(&out, "# nrcpus online : 4\n");
	assert_output_has(&out, "# nrcpus avail : 4\n");
	/* runs of spaces squashed, as perf does */
	assert_output_has(&out, "# cpudesc : Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz\n");
	assert_output_has(&out, "# cpuid : GenuineIntel,6,85,4\n");
	assert_output_has(&out, "# total memory : 16384000 kB\n");
	assert_output_has(&out, "# sibling sockets : 0-1\n# sibling sockets : 2-3\n");
	assert_output_has(&out, "# sibling dies    : 0-1\n# sibling dies    : 2-3\n");
	assert_output_has(&out, "# sibling threads : 0\n# sibling threads : 1\n"
				"# sibling threads : 2\n# sibling threads : 3\n");
	assert_output_has(&out, "# CPU 0: Core ID 0, Die ID 0, Socket ID 0\n");
	assert_output_has(&out, "# CPU 3: Core ID 1, Die ID 0, Socket ID 1\n");
	assert_output_has(&out, "# node0 meminfo  : total = 8192000 kB, free = 4096000 kB\n");
	assert_output_has(&out, "# node1 meminfo  : total = 8192004 kB, free = 2048000 kB\n");
	assert_output_has(&out, "# node1 cpu list : 2-3\n");
	assert_output_has(&out, "cpu = 4");
	assert_output_has(&out, "software = 1");
	assert_output_has(&out, "uncore_imc_0 = 13");
	assert_output_has(&out, "# cpu pmu capabilities: ");
	assert_output_has(&out, "branches=32");
	assert_output_has(&out, "max_precise=3");
	assert_output_has(&out, "# intel_pt pmu capabilities: ");
	assert_output_has(&out, "psb_cyc=1");
	assert_output_has(&out, "mtc_periods=249");
	assert_output_lacks(&out, "uncore_imc_0 pmu capabilities");
	assert_output_has(&out, "# memory nodes (nr 2, block size 0x8000000):\n"
				"#    0 [384M]: 0-2\n#    1 [256M]: 8,10\n");
	assert_output_has(&out, "#  L1 Data                 32K [0]\n"
				"#  L1 Instruction          32K [0]\n"
				"#  L1 Data                 32K [1]\n");
	assert_output_has(&out, "#  L3 Unified           28160K [0-1]\n"
				"#  L3 Unified           28160K [2-3]\n");
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "perf buildid-list -i %s", path);
	assert_int_equal(run_capture(cmd, &out), 0);
	assert_output_has(&out, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3 [kernel.kallsyms]");
	assert_output_has(&out, "101112131415161718191a1b1c1d1e1f20212223 [ext4]");
	assert_int_equal(count_of(&out, "[ext4]"), 1);
	assert_output_lacks(&out, "[xfs]");
	pk_buf__free(&out);
}

/* gather() reads the machine's facts then, once: finish() writes what it read */
static void test_gather(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char root[256], path[256], path2[256];
	struct pk_buf out = { 0 }, out2 = { 0 };

	tmp_path(root, sizeof(root), "root-gather");
	make_x86_root(root);
	write_file(tmp_path(path, sizeof(path), "gather.data"),
		   &(struct opts_ex){ .sysroot = root, .gather = true, .rehost = "laterhost\n" });
	header_of(path, &out);
	assert_output_has(&out, "# hostname : fixturehost\n");
	assert_output_has(&out, "# cpuid : GenuineIntel,6,85,4\n");
	assert_output_has(&out, "# node1 cpu list : 2-3\n");
	/* without it, finish() reads them */
	make_x86_root(root);
	write_file(tmp_path(path2, sizeof(path2), "nogather.data"),
		   &(struct opts_ex){ .sysroot = root, .rehost = "laterhost\n" });
	header_of(path2, &out2);
	assert_output_has(&out2, "# hostname : laterhost\n");
	pk_buf__free(&out);
	pk_buf__free(&out2);
}

static void test_fixture_arm64(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char root[256], path[256];
	struct pk_buf out = { 0 };

	tmp_path(root, sizeof(root), "root-arm64");
	put_file(root, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"
				       "CPU part\t: 0xd0c\n\nprocessor\t: 1\nBogoMIPS\t: 50.00\n");
	put_file(root, "proc/meminfo", "MemTotal:        4000000 kB\n");
	put_file(root, "proc/sys/kernel/hostname", "armbox\n");
	put_file(root, "proc/sys/kernel/osrelease", "6.1.0-arm64\n");
	put_file(root, "proc/sys/kernel/arch", "aarch64\n");
	put_file(root, "sys/devices/system/cpu/present", "0-1\n");
	put_file(root, "sys/devices/system/cpu/online", "0-1\n");
	for (int c = 0; c < 2; c++) {
		char v[8];
		snprintf(v, sizeof(v), "%d\n", c);
		put_filef(root, "0x00000000410fd0c0\n",
			  "sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", c);
		put_filef(root, "0\n", "sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/core_id", c);
		put_filef(root, "0-1\n", "sys/devices/system/cpu/cpu%d/topology/core_siblings_list", c);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
		/* die files exist on arm64 too: perf writes no dies off x86_64/s390x */
		put_filef(root, "0-1\n", "sys/devices/system/cpu/cpu%d/topology/die_cpus_list", c);
	}
	put_file(root, "sys/bus/event_source/devices/armv8_pmuv3_0/type", "8\n");
	write_file(tmp_path(path, sizeof(path), "arm64.data"), &(struct opts_ex){ .sysroot = root });
	header_of(path, &out);
	assert_output_has(&out, "# arch : aarch64\n");
	assert_output_has(&out, "# cpuid : 0x00000000410fd0c0\n");
	assert_output_has(&out, "# sibling sockets : 0-1\n# sibling threads : 0\n");
	assert_output_has(&out, "# CPU 1: Core ID 1, Socket ID 0\n");
	assert_output_lacks(&out, "sibling dies");
	assert_output_lacks(&out, "# cpudesc");	/* arm64's cpuinfo has no model name */
	assert_output_lacks(&out, "# node0");	/* no NUMA files: left out */
	assert_output_has(&out, "# pmu mappings: armv8_pmuv3_0 = 8\n");
	assert_output_has(&out, "CPUDESC");	/* listed as missing */
	pk_buf__free(&out);
}

/* CPU_TOPOLOGY as perf 6.1 writes it where the files are irregular (checked through our reader,
 * perf or not): CPUs 1 and 3 offline without a topology/ directory, the older
 * thread_siblings_list name only, CPU 2 without die_id: ids -1 where a file is missing, lists
 * of the online CPUs only, each once */
static void test_topology_edges(void **state)
{
	(void)state;
	char root[256], path[256];
	struct pk_data_reader *r = NULL;
	struct pk_error err = { 0 };

	tmp_path(root, sizeof(root), "root-edges");
	put_file(root, "proc/sys/kernel/arch", "x86_64\n");
	put_file(root, "sys/devices/system/cpu/present", "0-3\n");
	put_file(root, "sys/devices/system/cpu/online", "0,2\n");
	for (int c = 0; c < 4; c += 2) {
		char v[8];
		snprintf(v, sizeof(v), "%d\n", c);
		put_filef(root, "0\n", "sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/core_id", c);
		put_filef(root, "0,2\n", "sys/devices/system/cpu/cpu%d/topology/package_cpus_list", c);
		put_filef(root, "0,2\n", "sys/devices/system/cpu/cpu%d/topology/die_cpus_list", c);
		put_filef(root, v, "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
	}
	put_file(root, "sys/devices/system/cpu/cpu0/topology/die_id", "0\n");
	write_file(tmp_path(path, sizeof(path), "edges.data"), &(struct opts_ex){ .sysroot = root });
	CHECK_OK(pk_data_reader__open(&r, path, NULL, &err), &err);
	const struct pk_data_env *e = pk_data_reader__env(r);
	assert_int_equal(e->nr_cpus_avail, 4);
	assert_int_equal(e->nr_cpus_online, 2);
	assert_int_equal(e->nr_core_siblings, 1);
	assert_string_equal(e->core_siblings[0], "0,2");
	assert_int_equal(e->nr_thread_siblings, 2);
	assert_string_equal(e->thread_siblings[0], "0");
	assert_string_equal(e->thread_siblings[1], "2");
	assert_int_equal(e->nr_die_siblings, 1);
	assert_string_equal(e->die_siblings[0], "0,2");
	assert_int_equal(e->nr_cpu_topo, 4);
	static const int32_t want[4][3] = { { 0, 0, 0 }, { -1, -1, -1 }, { 2, 0, -1 },
					    { -1, -1, -1 } };	/* core, socket, die */
	for (int c = 0; c < 4; c++) {
		assert_int_equal(e->cpu_topo[c].core_id, want[c][0]);
		assert_int_equal(e->cpu_topo[c].socket_id, want[c][1]);
		assert_int_equal(e->cpu_topo[c].die_id, want[c][2]);
	}
	pk_data_reader__free(r);
}

static int cleanup(void **state)
{
	(void)state;
	char dir[256], cmd[300];
	tmp_path(dir, sizeof(dir), "");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine_vs_perf),
		cmocka_unit_test(test_run_facts),
		cmocka_unit_test(test_sample_time_mixed),
		cmocka_unit_test(test_fixture_x86),
		cmocka_unit_test(test_fixture_arm64),
		cmocka_unit_test(test_topology_edges),
		cmocka_unit_test(test_gather),
	};
	return cmocka_run_group_tests(tests, NULL, getenv("PK_KEEP") ? NULL : cleanup);
}
