/* SPDX-License-Identifier: MIT */
/*
 * test_data_read_writer.c — what pmukit's writer (pmukit/data_write.h)
 * writes, the reader reads back: the rich test records (every sample bit,
 * every side-band record) through the writer in file and pipe mode, with
 * and without zstd, rounds between batches: the same events as the built
 * file (in file order); attrs and their names, groups, command line, version
 * and compression facts from the writer's features; this machine's facts
 * (hostname, nrcpus) as the kernel gives them; in perf's order every record
 * once.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include <cmocka.h>

#include <pmukit/data_write.h>

#include "test_data_read_rich.h"

/* The rich records without the tool records the writer makes itself. */
static void kernel_records(struct pk_buf *out)
{
	struct pk_buf all = { 0 };
	rich_records(&all);
	for (size_t at = 0; at + 8 <= all.len;) {
		uint32_t type;
		uint16_t size;
		memcpy(&type, all.data + at, 4);
		memcpy(&size, all.data + at + 6, 2);
		if (type < 64)
			pk_buf__append(out, all.data + at, size);
		at += size;
		if (type == PK_RECORD_AUXTRACE)
			at += 16;
	}
	pk_buf__free(&all);
}

static void write_file(int fd, bool pipe, int level, const struct pk_buf *recs)
{
	static const char *const argv[] = { "pmukit", "record", "-g" };
	struct pk_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe, .compress_level = level,
					 .argc = 3, .argv = argv, .version = "9.9-test" };
	struct pk_data_writer *w;
	struct pk_error err = { 0 };
	if (pk_data_writer__new(&w, fd, &o, &err))
		fail_msg("writer: %s", err.msg);
	struct syn s = { 0 };
	rich_attrs(&s, 128, NULL);
	static const char *names[] = { "cycles:pp", "page-faults" };
	for (size_t i = 0; i < 2; i++) {
		struct perf_event_attr a;
		memcpy(&a, s.attrs[i].bytes, sizeof(a));
		assert_int_equal(pk_data_writer__add_attr(w, &a, names[i], s.attrs[i].ids,
							  s.attrs[i].nr_ids, &err), 0);
	}
	assert_int_equal(pk_data_writer__add_group(w, 0, 2, "{cycles:pp,page-faults}", &err), 0);
	assert_int_equal(pk_data_writer__begin(w, &err), 0);
	/* the records in three writes, a round after each */
	size_t third = 0, at = 0;
	for (int k = 0; k < 3; k++) {
		size_t end = at;
		while (end < recs->len && (k == 2 || end - at < recs->len / 3 + third)) {
			uint16_t size;
			memcpy(&size, recs->data + end + 6, 2);
			end += size;
		}
		if (end > at)
			assert_int_equal(pk_data_writer__write(w, recs->data + at, end - at, &err), 0);
		assert_int_equal(pk_data_writer__finished_round(w, &err), 0);
		at = end;
	}
	if (pk_data_writer__finish(w, &err))
		fail_msg("finish: %s", err.msg);
	pk_data_writer__free(w);
	syn_free(&s);
}

/* Samples and side-band records of a reading, one line each, in their order. */
static char *kernel_digest(struct pk_data_reader *r)
{
	struct pk_buf b = { 0 };
	const struct pk_data_event *ev;
	struct pk_error err = { 0 };
	int rc;
	while ((rc = pk_data_reader__next(r, &ev, &err)) > 0)
		if (ev->type < 64)
			dg_event(&b, ev, false);
	if (rc < 0)
		dg(&b, "ERROR %s\n", err.msg);
	pk_buf__append(&b, "", 1);
	return (char *)b.data;
}

static void test_writer_round_trip(void **state)
{
	(void)state;
	struct pk_buf recs = { 0 };
	kernel_records(&recs);
	/* what the reader makes of the same records in a file built here */
	struct syn s = { 0 };
	rich_attrs(&s, 128, NULL);
	pk_buf__append(&s.data, recs.data, recs.len);
	struct pk_data_reader_opts fo = { .sz = sizeof(fo), .order = PK_DATA_ORDER_FILE };
	struct pk_buf built;
	syn_build(&s, &built);
	int fd = mem_fd(built.data, built.len);
	struct pk_data_reader *r;
	struct pk_error err;
	assert_int_equal(pk_data_reader__open_fd(&r, fd, "built", &fo, &err), 0);
	char *want = kernel_digest(r);
	pk_data_reader__free(r);
	close(fd);
	assert_null(strstr(want, "ERROR"));
	struct utsname u;
	uname(&u);
	for (int pipe = 0; pipe < 2; pipe++)
		for (int level = 0; level <= 3; level += 3) {
			int wfd = memfd_create("written", MFD_CLOEXEC);
			write_file(wfd, pipe, level, &recs);
			lseek(wfd, 0, SEEK_SET);
			assert_int_equal(pk_data_reader__open_fd(&r, wfd, "written", &fo, &err), 0);
			assert_int_equal(pk_data_reader__is_pipe(r), pipe);
			char *got = kernel_digest(r);
			assert_string_equal(got, want);
			free(got);
			const struct pk_data_env *e = pk_data_reader__env(r);
			assert_string_equal(e->hostname, u.nodename);
			assert_string_equal(e->osrelease, u.release);
			assert_string_equal(e->version, "9.9-test");
			assert_int_equal(e->nr_cmdline, 3);
			assert_string_equal(e->cmdline[2], "-g");
			assert_int_equal(e->nr_cpus_online, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
			assert_int_equal(e->has_compressed, level > 0);
			if (level)
				assert_int_equal(e->comp_level, level);
			assert_int_equal(pk_data_reader__nr_attrs(r), 2);
			assert_string_equal(pk_data_reader__attr(r, 0)->name, "cycles:pp");
			assert_string_equal(pk_data_reader__attr(r, 1)->name, "page-faults");
			assert_int_equal(pk_data_reader__attr(r, 1)->leader, 0);
			assert_int_equal(pk_data_reader__attr(r, 0)->nr_members, 2);
			assert_int_equal(pk_data_reader__attr(r, 0)->attr.sample_type, RICH_T0);
			assert_int_equal(pk_data_reader__attr(r, 1)->ids[0], RICH_ID1);
			if (level)
				assert_true(pk_data_reader__stats(r)->nr_records[PK_RECORD_COMPRESSED] > 0);
			pk_data_reader__free(r);
			/* perf's order: every record once */
			lseek(wfd, 0, SEEK_SET);
			assert_int_equal(pk_data_reader__open_fd(&r, wfd, "written", NULL, &err), 0);
			const struct pk_data_event *ev;
			size_t n = 0;
			while (pk_data_reader__next(r, &ev, &err) > 0)
				n += ev->type < 64 && ev->has_sample;
			assert_int_equal(n, 31);
			pk_data_reader__free(r);
			close(wfd);
		}
	free(want);
	pk_buf__free(&built);
	pk_buf__free(&recs);
	syn_free(&s);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
