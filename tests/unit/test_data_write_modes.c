/* SPDX-License-Identifier: MIT */
/*
 * test_data_write_modes.c — the writer's modes and failures, checked with
 * perf 6.1: pipe mode read by perf from a real pipe (samples, header
 * features, build-ids sent at the end); zstd compression (one large write
 * split into chunks perf can decompress, smaller than the raw data, pipe
 * and file); a writer killed before finish(), compressed or not; write
 * errors (a full device, a file size limit in the middle of the data, a
 * pipe nobody reads) that are reported with a message, stick, and leave a
 * file perf reads up to the last whole record; attrs larger than this
 * build's (the layout newer perf writes); calls out of order.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "test_data_write_util.h"

#define PID 4711
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	    PERF_SAMPLE_PERIOD)

__attribute__((noinline)) int md_one(int x);
__attribute__((noinline)) int md_two(int x);
__attribute__((noinline)) int md_one(int x)
{
	return x + 11;
}
__attribute__((noinline)) int md_two(int x)
{
	return x * 13;
}

static struct pk_data_writer *new_writer(int fd, bool pipe_mode, int level)
{
	struct pk_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe_mode,
					 .compress_level = level };
	struct pk_error err = { 0 };
	struct pk_data_writer *w = NULL;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 4000, .freq = 1, .sample_type = ST, .sample_id_all = 1,
		.read_format = PERF_FORMAT_ID,
	};
	uint64_t ids[] = { 1, 2 };

	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", ids, 2, &err), &err);
	return w;
}

/* COMM + MMAP2 of this program, then n samples alternating md_one / md_two (period 1000 + i) */
static void build_records(struct pk_buf *b, long first, long n, bool sideband)
{
	struct text_map t;
	if (sideband) {
		assert_int_equal(own_text((const void *)&md_one, &t), 0);
		put_comm(b, ST, PID, "modes", 100, 1);
		put_mmap2(b, ST, PID, t.start, t.len, t.pgoff, t.path, 101, 1);
	}
	for (long i = first; i < first + n; i++) {
		struct tsample s = { .ip = (uint64_t)(uintptr_t)(i % 2 ? &md_two : &md_one) + 2,
				     .pid = PID, .tid = PID, .time = 1000 + (uint64_t)i,
				     .id = 1 + (uint64_t)(i % 2), .period = 1000 + (uint64_t)(i % 5) };
		put_sample(b, ST, PERF_RECORD_MISC_USER, &s);
	}
}

/* "SAMPLE events: N" of perf report -D's totals (-1 when perf fails) */
static long perf_samples(const char *path, struct pk_buf *out)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "perf report -D -i %s 2>/dev/null | sed -n 's/^ *SAMPLE events: *//p' | head -1",
		 path);
	if (run_capture(cmd, out))
		return -1;
	return out->len ? atol((const char *)out->data) : -1;
}

/* --- pipe mode ------------------------------------------------------------------------------ */

/* run cmd with its stdin the read end of a pipe the writer fills; its output into out */
static void through_pipe(const char *cmd, int level, long n, struct pk_buf *out)
{
	char outpath[256], full[1024];
	int p[2];

	tmp_path(outpath, sizeof(outpath), "pipe.out");
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[1]);
		dup2(p[0], 0);
		snprintf(full, sizeof(full), "(%s) > %s 2>&1", cmd, outpath);
		execl("/bin/sh", "sh", "-c", full, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	struct pk_data_writer *w = new_writer(p[1], true, level);
	struct pk_error err = { 0 };
	struct text_map t;
	struct pk_buf r = { 0 };
	assert_int_equal(own_text((const void *)&md_one, &t), 0);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	build_records(&r, 0, n, true);
	CHECK_OK(pk_data_writer__write(w, r.data, r.len, &err), &err);
	CHECK_OK(pk_data_writer__finished_round(w, &err), &err);
	assert_int_equal(pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_USER, t.path), 0);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	close(p[1]);
	pk_buf__free(&r);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	snprintf(full, sizeof(full), "cat %s", outpath);
	run_capture(full, out);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		print_message("%s\n", (const char *)out->data);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_pipe(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct pk_buf out = { 0 };

	through_pipe("perf script -F comm,tid,event,period,ip,sym -i -", 0, 6, &out);
	assert_int_equal(count_of(&out, "modes  4711 "), 6);
	/* line i: the period, the address and the function sample i was written with */
	const char *line = (const char *)out.data;
	for (int i = 0; i < 6; i++, line = strchr(line, '\n') + 1) {
		char period[32], at[64];
		snprintf(period, sizeof(period), "%10d cpu-clock: ", 1000 + i % 5);
		snprintf(at, sizeof(at), " %llx %s\n",
			 (unsigned long long)(uintptr_t)(i % 2 ? &md_two : &md_one) + 2,
			 i % 2 ? "md_two" : "md_one");
		const char *e = strchr(line, '\n');
		assert_non_null(e);
		char *l = strndup(line, (size_t)(e - line + 1));
		if (!strstr(l, period) || !strstr(l, at))
			print_message("line %d: %s (want %s ... %s)\n", i, l, period, at);
		assert_true(strstr(l, period) && strstr(l, at));
		free(l);
	}
	through_pipe("perf report --header-only -i -", 0, 2, &out);
	assert_output_has(&out, "# event : name = cpu-clock, , id = { 1, 2 }");
	assert_output_has(&out, "# hostname : ");
	assert_output_has(&out, "# pmu mappings: ");
	/* the build-id record sent at the end */
	through_pipe("perf buildid-list -i -", 0, 2, &out);
	struct text_map t;
	assert_int_equal(own_text((const void *)&md_one, &t), 0);
	assert_output_has(&out, t.path);
	assert_true(strspn((const char *)out.data, "0123456789abcdef") == 40);
	/* compressed, down the pipe */
	through_pipe("perf report -D -i - 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE'", 3, 3000, &out);
	assert_int_equal(atol((const char *)out.data), 3000);
	pk_buf__free(&out);
}

/* --- compression ----------------------------------------------------------------------------- */

static void write_all_at_once(const char *path, int level, long n, uint64_t *data_b, uint64_t *file_b,
			      off_t *size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct pk_error err = { 0 };
	struct pk_buf r = { 0 };
	struct stat sb;

	assert_true(fd >= 0);
	struct pk_data_writer *w = new_writer(fd, false, level);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	build_records(&r, 0, n, true);
	CHECK_OK(pk_data_writer__write(w, r.data, r.len, &err), &err);	/* one large write */
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	*data_b = pk_data_writer__data_bytes(w);
	*file_b = pk_data_writer__file_bytes(w);
	assert_int_equal(*data_b, r.len);
	pk_data_writer__free(w);
	pk_buf__free(&r);
	assert_int_equal(fstat(fd, &sb), 0);
	*size = sb.st_size;
	close(fd);
}

static void test_compressed(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char raw[256], z[256];
	struct pk_buf out = { 0 };
	uint64_t rd, rf, zd, zf;
	off_t rs, zs;
	const long n = 40000;	/* 2.6 MB of samples: several chunks */

	write_all_at_once(tmp_path(raw, sizeof(raw), "raw.data"), 0, n, &rd, &rf, &rs);
	write_all_at_once(tmp_path(z, sizeof(z), "z.data"), 1, n, &zd, &zf, &zs);
	print_message("# %llu bytes of records: %lld bytes raw, %lld compressed (%llu stored)\n",
		      (unsigned long long)zd, (long long)rs, (long long)zs, (unsigned long long)zf);
	assert_int_equal(rd, zd);
	assert_int_equal(rf, rd);
	assert_true(zf * 4 < zd);
	assert_true(zs * 4 < rs);
	assert_int_equal(perf_samples(raw, &out), n);
	assert_int_equal(perf_samples(z, &out), n);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s", z);
	assert_int_equal(run_capture(cmd, &out), 0);
	char want[96];
	snprintf(want, sizeof(want), "# compressed : Zstd, level = 1, ratio = %d",
		 (int)((double)zd / (double)zf + 0.5));
	assert_output_has(&out, want);
	/* the same samples, decoded: periods and functions as written */
	snprintf(cmd, sizeof(cmd), "perf report --stdio -F sym,period -i %s", z);
	assert_int_equal(run_capture(cmd, &out), 0);
	/* md_one gets the even i: periods 1000 + i % 5 sum to n/2 * 1002 */
	snprintf(want, sizeof(want), "%ld", n / 2 * 1002);
	assert_output_has(&out, want);
	assert_output_has(&out, "md_one");
	assert_output_has(&out, "md_two");
	pk_buf__free(&out);
}

/* --- a writer that dies --------------------------------------------------------------------- */

/* the child writes in rounds of 100 samples, then dies after `die_after` samples */
static void killed(const char *path, int level, long die_after)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		struct pk_error err = { 0 };
		struct pk_buf r = { 0 };
		struct pk_data_writer *w = new_writer(fd, false, level);
		if (pk_data_writer__begin(w, &err))
			_exit(2);
		build_records(&r, 0, 0, true);
		if (pk_data_writer__write(w, r.data, r.len, &err))
			_exit(3);
		for (long i = 0; i < die_after; i++) {
			r.len = 0;
			build_records(&r, i, 1, false);
			if (pk_data_writer__write(w, r.data, r.len, &err))
				_exit(4);
			if ((i + 1) % 100 == 0 && pk_data_writer__finished_round(w, &err))
				_exit(5);
		}
		kill(getpid(), SIGKILL);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

static void test_killed(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char path[256];
	struct pk_buf out = { 0 };

	/* every whole write is on disk and counted by the header */
	killed(tmp_path(path, sizeof(path), "killed.data"), 0, 555);
	assert_int_equal(perf_samples(path, &out), 555);
	/* compressed: what the last round flushed, readable without finish() */
	killed(tmp_path(path, sizeof(path), "killed-z.data"), 1, 555);
	assert_int_equal(perf_samples(path, &out), 500);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s", path);
	assert_int_equal(run_capture(cmd, &out), 0);
	assert_output_has(&out, "# compressed : Zstd, level = 1");
	assert_output_has(&out, "# event : name = cpu-clock");
	pk_buf__free(&out);
}

/* --- write errors ----------------------------------------------------------------------------- */

static void test_device_full(void **state)
{
	(void)state;
	int fd = open("/dev/full", O_RDWR);
	if (fd < 0)
		skip();
	struct pk_error err = { 0 };
	struct pk_data_writer *w = new_writer(fd, false, 0);
	struct pk_buf r = { 0 };

	assert_int_equal(pk_data_writer__begin(w, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "No space left on device"));
	build_records(&r, 0, 1, false);
	memset(&err, 0, sizeof(err));
	/* the error sticks: later calls return it, with its message */
	assert_int_equal(pk_data_writer__write(w, r.data, r.len, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "No space left on device"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(pk_data_writer__finished_round(w, &err), -ENOSPC);
	assert_int_equal(pk_data_writer__finish(w, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "No space left on device"));
	pk_data_writer__free(w);
	pk_buf__free(&r);
	close(fd);
}

static void test_file_size_limit(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	char path[256], msg[600];
	int p[2];

	tmp_path(path, sizeof(path), "limit.data");
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {	/* files stop growing at 64 KiB: writes past it fail with EFBIG */
		struct rlimit rl = { 65536, 65536 };
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		struct pk_error err = { 0 }, e2 = { 0 };
		struct pk_buf r = { 0 };
		struct pk_data_writer *w = new_writer(fd, false, 0);
		int rc = pk_data_writer__begin(w, &err);
		build_records(&r, 0, 0, true);
		rc = rc ? rc : pk_data_writer__write(w, r.data, r.len, &err);
		long i = 0;
		for (; !rc && i < 100000; i++) {	/* 3 samples a write: tears one */
			r.len = 0;
			build_records(&r, 3 * i, 3, false);
			rc = pk_data_writer__write(w, r.data, r.len, &err);
		}
		/* sticky: the next write and finish say the same */
		int again = pk_data_writer__write(w, r.data, r.len, &e2);
		int fin = pk_data_writer__finish(w, &e2);
		dprintf(p[1], "%d %d %d %ld %s", rc, again, fin, i, err.msg);
		_exit(0);
	}
	close(p[1]);
	ssize_t n = read(p[0], msg, sizeof(msg) - 1);
	close(p[0]);
	waitpid(pid, NULL, 0);
	assert_true(n > 0);
	msg[n] = '\0';
	print_message("# %s\n", msg);
	int rc, again, fin;
	long writes;
	assert_int_equal(sscanf(msg, "%d %d %d %ld", &rc, &again, &fin, &writes), 4);
	assert_int_equal(rc, -EFBIG);
	assert_int_equal(again, -EFBIG);
	assert_int_equal(fin, -EFBIG);
	assert_non_null(strstr(msg, "File too large"));
	/*
	 * perf reads every sample of the writes that succeeded and the whole
	 * ones of the write that failed (48 bytes a sample), nothing torn
	 */
	const char *part = strstr(msg, "(");
	unsigned long done = 0;
	assert_non_null(part);
	assert_int_equal(sscanf(part, "(%lu of 144 bytes written", &done), 1);
	struct pk_buf out = { 0 };
	assert_int_equal(perf_samples(path, &out), 3 * (writes - 1) + (long)(done / 48));
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_true(sb.st_size <= 65536);
	pk_buf__free(&out);
}

static void test_broken_pipe(void **state)
{
	(void)state;
	int p[2];
	struct pk_error err = { 0 };

	assert_int_equal(pipe(p), 0);
	close(p[0]);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	struct pk_data_writer *w = new_writer(p[1], true, 0);
	assert_int_equal(pk_data_writer__begin(w, &err), -EPIPE);
	assert_non_null(strstr(err.msg, "Broken pipe"));
	pk_data_writer__free(w);
	close(p[1]);
	signal(SIGPIPE, old);
}

/* --- attrs larger than this build's (perf 6.3+ write 136 bytes) --------------------------------- */

static void test_larger_attr(void **state)
{
	(void)state;
	char path[256];
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct pk_data_writer_opts o = { .sz = sizeof(o) };
	/* a 136-byte attr: config3 (0x3333) after the 128 bytes this header knows */
	uint64_t big[17] = { 0 };
	struct perf_event_attr a = { .type = PERF_TYPE_RAW, .size = 136, .config = 0xc0,
				     .sample_type = ST, .sample_period = 1000 };
	memcpy(big, &a, sizeof(a));
	big[16] = 0x3333;
	struct perf_event_attr small = a;
	small.size = PERF_ATTR_SIZE_VER5;	/* 112: shorter, padded up to the largest */
	uint64_t id1 = 5, id2[] = { 6, 7 };
	int fd = open(tmp_path(path, sizeof(path), "big.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, (const struct perf_event_attr *)big, "big", &id1, 1,
					  &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &small, "small", id2, 2, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);

	struct pk_perf_file_header h;
	assert_int_equal(pread(fd, &h, sizeof(h), 0), sizeof(h));
	assert_true(h.magic == PK_PERF_MAGIC2);
	assert_int_equal(h.size, sizeof(h));
	assert_int_equal(h.attr_size, 136 + 16);
	assert_int_equal(h.attrs.size, 2 * (136 + 16));
	unsigned char e[2][152];
	assert_int_equal(pread(fd, e, sizeof(e), (off_t)h.attrs.offset), sizeof(e));
	struct perf_event_attr e0, e1;
	memcpy(&e0, e[0], sizeof(e0));
	memcpy(&e1, e[1], sizeof(e1));
	assert_int_equal(e0.size, 136);
	assert_int_equal(e1.size, 136);	/* every entry as large as the largest, zero padded */
	uint64_t c3, zero[3];
	memcpy(&c3, e[0] + 128, 8);
	assert_int_equal(c3, 0x3333);
	memcpy(zero, e[1] + 112, 24);
	assert_true(!zero[0] && !zero[1] && !zero[2]);
	struct pk_perf_file_section ids;
	memcpy(&ids, e[1] + 136, sizeof(ids));
	assert_int_equal(ids.size, 16);
	uint64_t got[2];
	assert_int_equal(pread(fd, got, 16, (off_t)ids.offset), 16);
	assert_true(got[0] == 6 && got[1] == 7);
	close(fd);
	/* perf 6.1 knows 128 bytes and refuses the file, as it refuses perf 6.3's */
	if (have_perf()) {
		struct pk_buf out = { 0 };
		char cmd[512];
		snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s", path);
		assert_int_not_equal(run_capture(cmd, &out), 0);
		pk_buf__free(&out);
	}
}

/* --- calls out of order ------------------------------------------------------------------------ */

static void test_misuse(void **state)
{
	(void)state;
	char path[256];
	int fd = open(tmp_path(path, sizeof(path), "misuse.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct pk_error err = { 0 };
	struct pk_buf r = { 0 };
	struct pk_data_writer *w = NULL;
	struct pk_data_writer_opts o = { .sz = sizeof(o) };

	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	build_records(&r, 0, 2, false);
	assert_int_equal(pk_data_writer__begin(w, &err), -EINVAL);	/* no attrs */
	pk_data_writer__free(w);
	w = new_writer(fd, false, 0);
	assert_int_equal(pk_data_writer__write(w, r.data, r.len, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "before begin()"));
	assert_int_equal(pk_data_writer__add_group(w, 0, 2, NULL, &err), -EINVAL);	/* 1 attr */
	struct perf_event_attr bad = { .size = 12 };
	assert_int_equal(pk_data_writer__add_attr(w, &bad, "x", NULL, 0, &err), -EINVAL);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	struct perf_event_attr a = { .size = sizeof(a) };
	assert_int_equal(pk_data_writer__add_attr(w, &a, "late", NULL, 0, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "after begin()"));
	/* a torn record is refused, and does not stick */
	assert_int_equal(pk_data_writer__write(w, r.data, r.len - 8, &err), -EINVAL);
	CHECK_OK(pk_data_writer__write(w, r.data, r.len, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	assert_int_equal(pk_data_writer__finish(w, &err), -EINVAL);
	pk_data_writer__free(w);
	close(fd);
	/* a pipe in file mode */
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pk_data_writer__new(&w, p[1], &o, &err), -ESPIPE);
	assert_null(w);
	close(p[0]);
	close(p[1]);
	pk_buf__free(&r);
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
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_device_full),
		cmocka_unit_test(test_file_size_limit),
		cmocka_unit_test(test_broken_pipe),
		cmocka_unit_test(test_larger_attr),
		cmocka_unit_test(test_misuse),
	};
	return cmocka_run_group_tests(tests, NULL, getenv("PK_KEEP") ? NULL : cleanup);
}
