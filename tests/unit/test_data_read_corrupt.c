/* SPDX-License-Identifier: MIT */
/*
 * test_data_read_corrupt.c — truncated and damaged perf.data: files built
 * here (file and pipe mode, compressed, big-endian) cut at every length and
 * with bytes flipped at many places, read to the end in both orders. Each
 * reading either succeeds or fails with a message that starts with the
 * offset ("offset 0x...: ..."); a file-mode file cut anywhere short of its
 * end fails or is read up to the cut with a warning naming the offset (as
 * perf reads a file whose features were cut), a pipe cut between records
 * reads as a shorter pipe, one cut inside a record is read up to it with a
 * warning (a pipe cut short by a full disk). Read with and without the
 * read-ahead thread (which parses samples itself): the same events, every
 * sample field the same. No
 * crash, no hang, nothing read out of bounds (run under ASan with
 * `make check SANITIZE=1`).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_data_read_swap.h"

/* One reading: its result, error, and a digest of every event handed out. */
struct reading {
	int rc;
	struct pk_error err;
	size_t nr;
	uint64_t digest;
	char warn[2][512];	/* the first two warnings, "" when none */
};

static uint64_t mix(uint64_t d, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		d = (d ^ b[i]) * 0x100000001b3ULL;
	return d;
}

/* every decoded field of a sample, the bytes its pointers point at included */
static uint64_t sample_digest(uint64_t d, const struct pk_sample *s)
{
	const uint64_t v[] = { s->sample_type, s->id, s->ip, (uint64_t)s->pid, (uint64_t)s->tid,
			       s->time, s->addr, s->stream_id, (uint64_t)s->cpu, s->cpu_res,
			       s->period, s->read.read_format, s->read.time_enabled,
			       s->read.time_running, s->read.nr, s->read.one.value,
			       s->read.one.id, s->read.one.lost, s->read.stride,
			       s->callchain.nr, s->raw.size, s->branch.nr, s->branch.has_hw_idx,
			       s->branch.hw_idx, s->user_regs.abi, s->user_regs.mask,
			       s->user_regs.nr, s->intr_regs.abi, s->intr_regs.mask,
			       s->intr_regs.nr, s->user_stack.size, s->user_stack.dyn_size,
			       s->weight, s->weight_var2, s->weight_var3, s->data_src,
			       s->transaction, s->phys_addr, s->cgroup, s->data_page_size,
			       s->code_page_size, s->aux.size };
	d = mix(d, v, sizeof(v));
	if (s->read.group)
		d = mix(d, s->read.group, s->read.nr * s->read.stride * 8);
	d = mix(d, s->callchain.ips, s->callchain.nr * 8);
	d = mix(d, s->raw.data, s->raw.size);
	d = mix(d, s->branch.entries, s->branch.nr * sizeof(*s->branch.entries));
	if (s->branch.counters)
		d = mix(d, s->branch.counters, s->branch.nr * 8);
	d = mix(d, s->user_regs.regs, s->user_regs.nr * 8);
	d = mix(d, s->intr_regs.regs, s->intr_regs.nr * 8);
	d = mix(d, s->user_stack.data, s->user_stack.size);
	return mix(d, s->aux.data, s->aux.size);
}

static void read_one(const uint8_t *p, size_t n, bool file_order, size_t window, bool ahead,
		     struct reading *out)
{
	struct pk_data_reader_opts o = { .sz = sizeof(o), .window_bytes = window, .read_ahead = ahead };
	o.order = file_order ? PK_DATA_ORDER_FILE : PK_DATA_ORDER_PERF;
	int fd = mem_fd(p, n);
	struct pk_data_reader *r;
	memset(out, 0, sizeof(*out));
	int rc = pk_data_reader__open_fd(&r, fd, "cut", &o, &out->err);
	if (!rc) {
		const struct pk_data_event *ev;
		while ((rc = pk_data_reader__next(r, &ev, &out->err)) > 0) {
			if (++out->nr > 1000000)
				fail_msg("no end");
			uint64_t v[2] = { ev->type, ev->offset };
			for (int i = 0; i < 2; i++)
				out->digest = (out->digest ^ v[i]) * 0x100000001b3ULL;
			/* parsed by the read-ahead thread or not: the same (the rest is undefined) */
			if (ev->has_sample)
				out->digest = sample_digest(out->digest, &ev->sample);
		}
		for (size_t i = 0; i < 2; i++) {
			const char *w = pk_data_reader__warning(r, i);
			snprintf(out->warn[i], sizeof(out->warn[i]), "%s", w ? w : "");
			if (w && strncmp(w, "cut: offset 0x", 14))
				fail_msg("a warning without the file and offset: %s", w);
		}
		/* what a reader hands out after the records stays usable */
		const struct pk_data_env *e = pk_data_reader__env(r);
		for (uint32_t i = 0; i < e->nr_cmdline; i++)
			assert_non_null(e->cmdline[i]);
		for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++)
			assert_non_null(pk_data_reader__attr(r, i));
		pk_data_reader__free(r);
	}
	close(fd);
	out->rc = rc;
}

/*
 * 1 read to the end, 2 read to the end with a warning, 0 failed with an
 * offset in the message (anything else fails the test). Read twice, the
 * second time with the read-ahead thread: the same events, warnings, end.
 */
static int read_all(const uint8_t *p, size_t n, bool file_order, size_t window)
{
	struct reading a, b;
	read_one(p, n, file_order, window, false, &a);
	read_one(p, n, file_order, window, true, &b);
	if (a.rc != b.rc || a.nr != b.nr || a.digest != b.digest ||
	    (a.rc && strcmp(a.err.msg, b.err.msg)) ||
	    /* after an error the thread may have read further (and warned) */
	    (!a.rc && (strcmp(a.warn[0], b.warn[0]) || strcmp(a.warn[1], b.warn[1])))) {
		print_message("file_order %d window %zu\n", file_order, window);
		fail_msg("read ahead: %d after %zu events (%s), without: %d after %zu (%s)", b.rc,
			 b.nr, b.rc ? b.err.msg : "", a.rc, a.nr, a.rc ? a.err.msg : "");
	}
	if (!a.rc)
		return a.warn[0][0] ? 2 : 1;
	assert_true(a.rc < 0);
	assert_int_equal(a.err.code, a.rc);
	if (strncmp(a.err.msg, "offset ", 7))
		fail_msg("error without an offset: %s", a.err.msg);
	assert_string_equal(a.err.file, "cut");
	return 0;
}

/* record boundaries of a pipe-mode file */
static bool pipe_boundary(const uint8_t *p, size_t len, size_t cut)
{
	size_t at = 16;
	while (at < cut && at + 8 <= len) {
		uint16_t sz;
		uint32_t type;
		memcpy(&type, p + at, 4);
		memcpy(&sz, p + at + 6, 2);
		at += sz;
		if (type == PK_RECORD_AUXTRACE) {
			uint64_t pl;
			memcpy(&pl, p + at - sz + 8, 8);
			at += pl;
		}
	}
	return at == cut;
}

static void cut_everywhere(const uint8_t *p, size_t len, bool pipe)
{
	for (size_t cut = 0; cut < len; cut++) {
		int ok = read_all(p, cut, cut % 2, 1);
		if (!pipe && ok == 1)
			fail_msg("a file-mode file cut at %zu of %zu read without a warning", cut,
				 len);
		if (pipe && cut >= 16 && (ok == 1) != pipe_boundary(p, len, cut))
			fail_msg("pipe cut at %zu: %s", cut, ok == 1 ? "read" : "failed or warned");
	}
	assert_int_equal(read_all(p, len, false, 0), 1);
}

static void flip_many(const uint8_t *p, size_t len, uint64_t seed, size_t tries)
{
	uint8_t *b = malloc(len);
	size_t ok = 0;
	for (size_t t = 0; t < tries; t++) {
		memcpy(b, p, len);
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		size_t at = (size_t)(seed % len);
		switch ((seed >> 40) % 4) {
		case 0:
			b[at] ^= 0xff;
			break;
		case 1:
			b[at] = (uint8_t)(seed >> 32);
			break;
		case 2:	/* a length-like field: large */
			b[at] = 0xff;
			if (at + 1 < len)
				b[at + 1] = 0x7f;
			break;
		default:
			b[at] = 0;
			break;
		}
		ok += read_all(b, len, t % 3 == 0, t % 2 ? 1 : 0) != 0;
	}
	print_message("# %zu of %zu damaged copies still read\n", ok, tries);
	free(b);
}

static void test_cut_file(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, false, 128, NULL);
	cut_everywhere(b.data, b.len, false);
	uint8_t *be = swap_file(b.data, b.len);
	cut_everywhere(be, b.len, false);
	free(be);
	pk_buf__free(&b);
}

static void test_cut_pipe(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, true, 152, (const uint8_t[24]){ 0 });
	cut_everywhere(b.data, b.len, true);
	pk_buf__free(&b);
}

static void test_cut_compressed(void **state)
{
	(void)state;
	static const size_t cuts[] = { 9, 400, 1, 77 };
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pk_buf b, z;
		rich_build(&b, pipe, 128, NULL);
		recompress_file(b.data, b.len, false, cuts, 4, PK_RECORD_COMPRESSED2, &z);
		for (size_t cut = 0; cut < z.len; cut++)
			(void)read_all(z.data, cut, cut % 2, 0);
		pk_buf__free(&b);
		pk_buf__free(&z);
	}
}

static void test_flips(void **state)
{
	(void)state;
	struct pk_buf b, z;
	static const size_t cuts[] = { 200, 3, 1000 };
	for (int pipe = 0; pipe < 2; pipe++) {
		rich_build(&b, pipe, 128, NULL);
		flip_many(b.data, b.len, 0x1234567 + (uint64_t)pipe, 3000);
		uint8_t *be = swap_file(b.data, b.len);
		flip_many(be, b.len, 0x7654321 + (uint64_t)pipe, 2000);
		recompress_file(b.data, b.len, false, cuts, 3, PK_RECORD_COMPRESSED, &z);
		flip_many(z.data, z.len, 0xabcdef + (uint64_t)pipe, 2000);
		free(be);
		pk_buf__free(&z);
		pk_buf__free(&b);
	}
}

/*
 * A file left by a perf killed with -9: the header as written at the start
 * (data size 0, the feature bits set, no features written), the records up
 * to where the kill stopped them. Read up to the last whole record with one
 * warning, the same events as the finished file; cut inside a record, the
 * records before it.
 */
static void test_killed(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, false, 128, NULL);
	struct pk_perf_file_header h;
	memcpy(&h, b.data, sizeof(h));
	size_t end = (size_t)(h.data.offset + h.data.size);
	struct reading full, k;
	read_one(b.data, b.len, false, 0, false, &full);
	assert_int_equal(full.rc, 0);
	assert_string_equal(full.warn[0], "");
	uint8_t *kb = malloc(end);
	memcpy(kb, b.data, end);
	((struct pk_perf_file_header *)kb)->data.size = 0;
	read_one(kb, end, false, 0, false, &k);
	assert_int_equal(k.rc, 0);
	assert_int_equal(k.nr, full.nr);
	assert_true(k.digest == full.digest);
	assert_non_null(strstr(k.warn[0], "data size is 0"));
	assert_string_equal(k.warn[1], "");
	assert_int_equal(read_all(kb, end, true, 1), 2);
	/* cut in the last record: fewer events, the offset of the cut record named */
	read_one(kb, end - 3, false, 0, false, &k);
	assert_int_equal(k.rc, 0);
	assert_true(k.nr < full.nr);
	if (!strstr(k.warn[0], "bytes of a record"))
		fail_msg("warning: %s", k.warn[0]);
	free(kb);
	pk_buf__free(&b);
}

/* sizes that would allocate without bound if believed */
static void test_huge_sizes(void **state)
{
	(void)state;
	struct syn s = { .pipe = true };
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_IP };
	syn_attr(&s, &a, 128, NULL, NULL, 0);
	struct rb r;
	rb_start(&r, PK_RECORD_HEADER_TRACING_DATA, 0);
	rb_u32x2(&r, 200u << 20, 0);	/* 200 MiB of tracing data that is not there */
	syn_rec(&s, rb_end(&r));
	struct pk_buf b;
	syn_build(&s, &b);
	assert_int_equal(read_all(b.data, b.len, false, 0), 0);
	struct pipe_src ps;
	int fd = pipe_open(&ps, b.data, b.len);
	struct pk_data_reader *rd;
	struct pk_error err;
	assert_int_equal(pk_data_reader__open_fd(&rd, fd, "p", NULL, &err), 0);
	const struct pk_data_event *ev;
	int rc;
	while ((rc = pk_data_reader__next(rd, &ev, &err)) > 0)
		;
	assert_true(rc < 0);
	assert_non_null(strstr(err.msg, "short of its data"));
	pk_data_reader__free(rd);
	pipe_close(&ps);
	pk_buf__free(&b);
	syn_free(&s);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_file),       cmocka_unit_test(test_cut_pipe),
		cmocka_unit_test(test_cut_compressed), cmocka_unit_test(test_flips),
		cmocka_unit_test(test_huge_sizes),     cmocka_unit_test(test_killed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
