/* SPDX-License-Identifier: MIT */
/*
 * test_data_read_swap.c — perf.data written on a big-endian machine: copies
 * made by the tests' own byte-swapper (test_data_read_swap.h) of files built
 * here and of files recorded here with perf 6.1 (cpu-clock with and without
 * -g, a tracepoint with raw data, -a, --call-graph dwarf, a :S group, pipe
 * mode, every side-band option perf has) read exactly as the originals:
 * every event, field and feature. The bitfields are checked against layouts
 * worked out by hand: the attr flags (precise_ip spans a byte boundary) and
 * a branch entry's flags. Compressed big-endian files too.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "test_data_read_swap.h"

static void same_reading(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			 bool pipe, bool offsets)
{
	char *da = dg_bytes(a, alen, NULL, false, offsets);
	char *db = dg_bytes(b, blen, NULL, false, offsets);
	assert_null(strstr(da, "ERROR"));
	assert_null(strstr(da, "OPEN"));
	assert_string_equal(da, db);
	if (pipe) {	/* through a real pipe as well */
		char *dp = dg_bytes(b, blen, NULL, true, offsets);
		assert_string_equal(da, dp);
		free(dp);
	}
	free(da);
	free(db);
}

static void test_bitfields_by_hand(void **state)
{
	(void)state;
	struct syn s = { 0 };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	a.disabled = 1;
	a.precise_ip = 1;
	a.sample_id_all = 1;	/* bit 18 */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	syn_attr(&s, &a, 128, NULL, NULL, 0);
	struct rb r;
	rb_start(&r, PERF_RECORD_SAMPLE, 0);
	rb_u64(&r, 0x1234);
	rb_u64(&r, 1);
	struct perf_branch_entry e = { .from = 1, .to = 2 };
	e.mispred = 1;
	e.cycles = 0x1234;
	e.priv = 5;
	rb_put(&r, &e, sizeof(e));
	syn_rec(&s, rb_end(&r));
	struct pk_buf b;
	syn_build(&s, &b);
	uint8_t *be = swap_file(b.data, b.len);
	assert_non_null(be);
	/*
	 * A big-endian compiler gives disabled bit 63, precise_ip bits 48..47
	 * (its low bit at 47), sample_id_all (field 18) bit 45; stored most
	 * significant byte first, bits 47 and 45 are in byte 2: 0x80 | 0x20.
	 */
	uint64_t aoff;
	memcpy(&aoff, b.data + 24, 8);
	static const uint8_t flags[8] = { 0x80, 0x00, 0xa0, 0x00, 0, 0, 0, 0 };
	assert_memory_equal(be + aoff + 40, flags, 8);
	/*
	 * The branch flags: mispred bit 63, cycles bits 59..44, priv bits 33..31:
	 * 1 << 63 | 0x1234 << 44 | 5 << 31 = 0x8123400280000000, stored big-endian.
	 */
	uint64_t doff;
	memcpy(&doff, b.data + 40, 8);
	static const uint8_t brf[8] = { 0x81, 0x23, 0x40, 0x02, 0x80, 0, 0, 0 };
	assert_memory_equal(be + doff + 8 + 16 + 16, brf, 8);
	/* and the reader decodes both the same */
	int fd = mem_fd(be, b.len);
	struct pk_data_reader *rd;
	struct pk_error err;
	if (pk_data_reader__open_fd(&rd, fd, "be", NULL, &err))
		fail_msg("%s", err.msg);
	assert_true(pk_data_reader__needs_swap(rd));
	const struct pk_data_attr *pa = pk_data_reader__attr(rd, 0);
	assert_int_equal(pa->attr.disabled, 1);
	assert_int_equal(pa->attr.precise_ip, 1);
	assert_int_equal(pa->attr.sample_id_all, 1);
	assert_int_equal(pa->attr.exclude_kernel, 0);
	const struct pk_data_event *ev;
	assert_int_equal(pk_data_reader__next(rd, &ev, &err), 1);
	assert_int_equal(ev->sample.ip, 0x1234);
	const struct perf_branch_entry *g = &ev->sample.branch.entries[0];
	assert_int_equal(g->mispred, 1);
	assert_int_equal(g->predicted, 0);
	assert_int_equal(g->cycles, 0x1234);
	assert_int_equal(g->priv, 5);
	assert_int_equal(g->to, 2);
	pk_data_reader__free(rd);
	close(fd);
	free(be);
	pk_buf__free(&b);
	syn_free(&s);
}

static void test_rich_swapped(void **state)
{
	(void)state;
	uint8_t extra[24] = { 0x11 };
	for (int pipe = 0; pipe < 2; pipe++)
		for (int big_attr = 0; big_attr < 2; big_attr++) {
			struct pk_buf b;
			rich_build(&b, pipe, big_attr ? 152 : 128, big_attr ? extra : NULL);
			uint8_t *be = swap_file(b.data, b.len);
			assert_non_null(be);
			assert_memory_not_equal(be, b.data, 16);
			same_reading(b.data, b.len, be, b.len, pipe, true);
			free(be);
			pk_buf__free(&b);
		}
}

/* "PERFFILE" (perf before 2.6.37): the byte order from the attr entry size (VER4: 104) */
static void test_v1_swapped(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, false, 104, NULL);
	uint8_t *be = swap_file(b.data, b.len);
	assert_non_null(be);
	memcpy(b.data, "PERFFILE", 8);
	memcpy(be, "PERFFILE", 8);
	same_reading(b.data, b.len, be, b.len, false, true);
	free(be);
	pk_buf__free(&b);
}

static void test_compressed_swapped(void **state)
{
	(void)state;
	static const size_t cuts[] = { 5, 1, 300, 33, 2, 90 };
	for (int pipe = 0; pipe < 2; pipe++)
		for (uint32_t type = PK_RECORD_COMPRESSED; type <= PK_RECORD_COMPRESSED2;
		     type += 2) {
			struct pk_buf b, zn, zb;
			rich_build(&b, pipe, 128, NULL);
			uint8_t *be = swap_file(b.data, b.len);
			recompress_file(b.data, b.len, false, cuts, 6, type, &zn);
			recompress_file(be, b.len, true, cuts, 6, type, &zb);
			/* the compressed sizes differ: compare without offsets */
			same_reading(zn.data, zn.len, zb.data, zb.len, pipe, false);
			char *plain = dg_bytes(b.data, b.len, NULL, false, false);
			char *z = dg_bytes(zb.data, zb.len, NULL, false, false);
			assert_string_equal(plain, z);
			free(plain);
			free(z);
			free(be);
			pk_buf__free(&b);
			pk_buf__free(&zn);
			pk_buf__free(&zb);
		}
}

/* ---- perf 6.1 recordings ---------------------------------------------------------------- */

static char tmpdir[64];

static bool perf_record(const char *name, const char *args, bool pipe)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && perf record -q %s -- sh -c 'i=0; while [ $i -lt 20000 ]; do "
		 "i=$((i+1)); done; ls / >/dev/null' >%s%s 2>%s.err",
		 tmpdir, args, name, pipe ? "" : ".out", name);
	int rc = system(cmd);
	return rc == 0;
}

static uint8_t *slurp(const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)n + 1);
	*len = fread(b, 1, (size_t)n, f);
	fclose(f);
	return b;
}

static void test_perf_recordings_swapped(void **state)
{
	(void)state;
	if (system("perf version >/dev/null 2>&1")) {
		skip();
		return;
	}
	static const struct {
		const char *name, *args;
		bool pipe;
	} recs[] = {
		{ "cc.data", "-e cpu-clock -F 2000 -o cc.data", false },
		{ "g.data", "-e cpu-clock -F 2000 -g -o g.data", false },
		{ "tp.data", "-e sched:sched_switch -R -a -o tp.data", false },
		{ "grp.data", "-e '{task-clock,page-faults}:S' -o grp.data", false },
		{ "dw.data", "--call-graph dwarf,4096 -e cpu-clock -F 500 -o dw.data", false },
		{ "misc.data",
		  "--switch-events --namespaces --all-cgroups -d --data-page-size "
		  "--code-page-size -W --sample-cpu -T --user-regs=ax,bx,sp --intr-regs=ip,sp "
		  "-e cpu-clock -F 2000 -o misc.data",
		  false },
		{ "pipe.data", "-e cpu-clock -F 2000 -g -o -", true },
	};
	size_t done = 0;
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		if (!perf_record(recs[i].name, recs[i].args, recs[i].pipe)) {
			print_message("# perf record %s failed here, skipped\n", recs[i].args);
			continue;
		}
		size_t len = 0;
		uint8_t *b = slurp(recs[i].name, &len);
		assert_non_null(b);
		assert_true(len > 16);
		uint8_t *be = swap_file(b, len);
		if (!be)
			fail_msg("%s: the test's swapper does not understand it", recs[i].name);
		same_reading(b, len, be, len, recs[i].pipe, true);
		/* and compressed, as perf record -z would have written it on that machine */
		static const size_t cuts[] = { 700, 3, 4000, 65 };
		struct pk_buf zn, zb;
		recompress_file(b, len, false, cuts, 4, PK_RECORD_COMPRESSED, &zn);
		recompress_file(be, len, true, cuts, 4, PK_RECORD_COMPRESSED, &zb);
		same_reading(zn.data, zn.len, zb.data, zb.len, recs[i].pipe, false);
		pk_buf__free(&zn);
		pk_buf__free(&zb);
		free(be);
		free(b);
		done++;
	}
	assert_true(done > 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pmukit-swap-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitfields_by_hand),
		cmocka_unit_test(test_rich_swapped),
		cmocka_unit_test(test_v1_swapped),
		cmocka_unit_test(test_compressed_swapped),
		cmocka_unit_test(test_perf_recordings_swapped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
