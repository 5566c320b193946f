/* SPDX-License-Identifier: MIT */
/*
 * test_data_write_util.h — helpers of the perf.data writer's tests
 * (test_data_write*.c): records built in a pk_buf (samples in the kernel's
 * field order for the sample_type given, side-band records with their
 * sample_id_all trailer), this test program's own text mapping (so perf
 * resolves sample addresses to its functions), running perf 6.1 on a file
 * or a pipe and capturing what it prints.
 */
#ifndef TEST_DATA_WRITE_UTIL_H
#define TEST_DATA_WRITE_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmukit/data_write.h>

#include "util/buf.h"

/* --- perf ------------------------------------------------------------------------ */

static inline int have_perf(void)
{
	return system("perf --version >/dev/null 2>&1") == 0;
}

#define SKIP_WITHOUT_PERF()							\
	do {									\
		if (!have_perf()) {						\
			print_message("# SKIP perf (6.1) is not installed\n");	\
			skip();							\
		}								\
	} while (0)

/* Run cmd with sh; its stdout and stderr into out (NUL terminated); the exit status. */
static inline int run_capture(const char *cmd, struct pk_buf *out)
{
	char full[8192];
	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	FILE *p = popen(full, "r");
	out->len = 0;
	if (!p)
		return -1;
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		pk_buf__append(out, chunk, n);
	pk_buf__append(out, "", 1);
	out->len--;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Fails the test, showing the output, when it lacks want. */
#define assert_output_has(out, want)						\
	do {									\
		if (!strstr((const char *)(out)->data, (want))) {		\
			print_message("missing: %s\n--- output:\n%.6000s\n", (want),	\
				      (const char *)(out)->data);		\
			fail();							\
		}								\
	} while (0)

#define assert_output_lacks(out, unwanted)					\
	do {									\
		if (strstr((const char *)(out)->data, (unwanted))) {		\
			print_message("unexpected: %s\n--- output:\n%.6000s\n",	\
				      (unwanted), (const char *)(out)->data);	\
			fail();							\
		}								\
	} while (0)

/* How many times s occurs in the output. */
static inline int count_of(const struct pk_buf *out, const char *s)
{
	int n = 0;
	for (const char *p = (const char *)out->data; (p = strstr(p, s)); p += strlen(s))
		n++;
	return n;
}

/* A fresh file name under a private temporary directory. */
static inline const char *tmp_path(char *buf, size_t len, const char *name)
{
	static char dir[64];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/pk-dw-XXXXXX");
		if (!mkdtemp(dir))
			return NULL;
	}
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* --- records ------------------------------------------------------------------------ */

static inline void put64(struct pk_buf *b, uint64_t v)
{
	pk_buf__append(b, &v, 8);
}

static inline void put32(struct pk_buf *b, uint32_t v)
{
	pk_buf__append(b, &v, 4);
}

/* Start a record; end_rec() fills its size. Returns its offset. */
static inline size_t begin_rec(struct pk_buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	return (size_t)pk_buf__append(b, &h, sizeof(h));
}

static inline void end_rec(struct pk_buf *b, size_t at)
{
	uint16_t size = (uint16_t)(b->len - at);
	memcpy(b->data + at + 6, &size, 2);
}

/* A sample's fields (those its sample_type names are written, in the kernel's order). */
struct tsample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu;
	uint64_t period;
	const uint64_t *read;		/* the read_format words, as many as nr_read */
	size_t nr_read;
	const uint64_t *callchain;	/* ips (with PERF_CONTEXT_* markers) */
	size_t nr_callchain;
	const void *raw;		/* bytes; padded so that u32 size + bytes is 8-aligned */
	uint32_t raw_size;
	const struct perf_branch_entry *branches;
	size_t nr_branches;
	uint64_t weight;		/* PERF_SAMPLE_WEIGHT or _WEIGHT_STRUCT */
	uint64_t data_src;
};

static inline void put_sample(struct pk_buf *b, uint64_t st, uint16_t misc,
			      const struct tsample *s)
{
	size_t at = begin_rec(b, PERF_RECORD_SAMPLE, misc);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, s->id);
	if (st & PERF_SAMPLE_IP)
		put64(b, s->ip);
	if (st & PERF_SAMPLE_TID)
		put32(b, s->pid), put32(b, s->tid);
	if (st & PERF_SAMPLE_TIME)
		put64(b, s->time);
	if (st & PERF_SAMPLE_ADDR)
		put64(b, s->addr);
	if (st & PERF_SAMPLE_ID)
		put64(b, s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(b, s->stream_id);
	if (st & PERF_SAMPLE_CPU)
		put32(b, s->cpu), put32(b, 0);
	if (st & PERF_SAMPLE_PERIOD)
		put64(b, s->period);
	if (st & PERF_SAMPLE_READ)
		pk_buf__append(b, s->read, s->nr_read * 8);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		put64(b, s->nr_callchain);
		pk_buf__append(b, s->callchain, s->nr_callchain * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t padded = (uint32_t)((s->raw_size + 4 + 7) / 8 * 8 - 4);
		static const char zeros[8];
		put32(b, padded);
		pk_buf__append(b, s->raw, s->raw_size);
		pk_buf__append(b, zeros, padded - s->raw_size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		put64(b, s->nr_branches);
		pk_buf__append(b, s->branches, s->nr_branches * sizeof(*s->branches));
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		put64(b, s->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		put64(b, s->data_src);
	end_rec(b, at);
}

/* The sample_id_all trailer of a side-band record: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static inline void put_id_trailer(struct pk_buf *b, uint64_t st, uint32_t pid, uint64_t time,
				  uint64_t id)
{
	if (st & PERF_SAMPLE_TID)
		put32(b, pid), put32(b, pid);
	if (st & PERF_SAMPLE_TIME)
		put64(b, time);
	if (st & PERF_SAMPLE_ID)
		put64(b, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(b, id);
	if (st & PERF_SAMPLE_CPU)
		put64(b, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, id);
}

static inline void put_str_padded(struct pk_buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 7) / 8 * 8;
	static const char zeros[8];
	pk_buf__append(b, s, n);
	pk_buf__append(b, zeros, padded - n);
}

static inline void put_comm(struct pk_buf *b, uint64_t st, uint32_t pid, const char *comm,
			    uint64_t time, uint64_t id)
{
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, pid), put32(b, pid);
	put_str_padded(b, comm);
	put_id_trailer(b, st, pid, time, id);
	end_rec(b, at);
}

static inline void put_mmap2(struct pk_buf *b, uint64_t st, uint32_t pid, uint64_t start,
			     uint64_t len, uint64_t pgoff, const char *file, uint64_t time,
			     uint64_t id)
{
	size_t at = begin_rec(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(b, pid), put32(b, pid);
	put64(b, start), put64(b, len), put64(b, pgoff);
	put64(b, 0), put64(b, 0), put64(b, 0);	/* maj, min, ino, ino_generation */
	put32(b, 5), put32(b, 2);		/* PROT_READ | PROT_EXEC, MAP_PRIVATE */
	put_str_padded(b, file);
	put_id_trailer(b, st, pid, time, id);
	end_rec(b, at);
}

/* --- this program's text -------------------------------------------------------------- */

struct text_map {
	char path[4096];
	uint64_t start, len, pgoff;
};

/* The mapping of this program that holds fn. */
static inline int own_text(const void *fn, struct text_map *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352];
	uintptr_t a = (uintptr_t)fn;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int n = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &s, &e, &off, &n) != 3)
			continue;
		if (a < s || a >= e)
			continue;
		char *p = line + n;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = '\0';
		snprintf(m->path, sizeof(m->path), "%s", p);
		m->start = s, m->len = e - s, m->pgoff = off;
		fclose(f);
		return 0;
	}
	fclose(f);
	return -1;
}

/* --- the writer ------------------------------------------------------------------------- */

#define CHECK_OK(call, err)							\
	do {									\
		int r_ = (call);						\
		if (r_)								\
			print_message("%s: %d %s\n", #call, r_, (err)->msg);	\
		assert_int_equal(r_, 0);					\
	} while (0)

/* --- a file of one process's cpu-clock samples ------------------------------------------ */

#define ONE_PROC_ST	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_PERIOD)

struct one_proc_file {
	struct pk_data_writer *w;
	int fd;
};

/*
 * A cpu-clock file (period 100, attr id id) at path of process pid named comm with its text
 * mapping: the writer begun, the COMM and MMAP2 records (times 1000, 1001) in recs. The
 * caller adds samples with put_sample(recs, ONE_PROC_ST, ...); one_proc_file__end writes.
 */
static inline int one_proc_file__begin(struct one_proc_file *f, const char *path, uint64_t id,
				       uint32_t pid, const char *comm, const struct text_map *text,
				       struct pk_buf *recs, struct pk_error *err)
{
	struct pk_data_writer_opts wo = { .sz = sizeof(wo) };
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = ONE_PROC_ST, .sample_id_all = 1,
	};
	int rc;
	f->w = NULL;
	f->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (f->fd < 0)
		return -errno;
	if ((rc = pk_data_writer__new(&f->w, f->fd, &wo, err)) ||
	    (rc = pk_data_writer__add_attr(f->w, &a, "cpu-clock", &id, 1, err)) ||
	    (rc = pk_data_writer__begin(f->w, err)))
		return rc;
	put_comm(recs, ONE_PROC_ST, pid, comm, 1000, id);
	put_mmap2(recs, ONE_PROC_ST, pid, text->start, text->len, text->pgoff, text->path, 1001, id);
	return 0;
}

/* recs written, the file finished and closed, recs freed */
static inline int one_proc_file__end(struct one_proc_file *f, struct pk_buf *recs,
				     struct pk_error *err)
{
	int rc = pk_data_writer__write(f->w, recs->data, recs->len, err);
	if (!rc)
		rc = pk_data_writer__finish(f->w, err);
	pk_data_writer__free(f->w);
	close(f->fd);
	pk_buf__free(recs);
	return rc;
}

#endif
