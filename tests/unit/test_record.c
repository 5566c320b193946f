/* SPDX-License-Identifier: MIT */
/*
 * test_record.c — the recording session (pmukit/record.h) for real on
 * software events: a program sampling itself (task-clock, every CPU, one
 * ring each) gets samples whose ids are the session's; a workload held
 * before exec starts its events at exec (the COMM exec record is there, its
 * exit status comes back); an exec failure is reported; the tracking dummy
 * exists exactly when the evlist is system-wide. Side-band synthesized from
 * a fixture /proc (built here) and the stream reader (samples, losses, DSOs
 * hit through MMAP2/FORK/exec) on records built here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/record.h>
#include <pmukit/spec.h>

static struct pk_evlist *evlist(const char *spec, const struct pk_spec_opts *o)
{
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error se;
	assert_non_null(el);
	assert_int_equal(pk_evlist__add(el, spec, o, &se), 0);
	return el;
}

/* perf_event_open works here (a kernel with perf events, no seccomp filter)? */
static bool can_record(void)
{
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .task_target = true };
	struct pk_evlist *el = evlist("task-clock", &o);
	struct pk_record *r;
	struct pk_error err;
	int rc = pk_record__open(&r, el, &(struct pk_record_opts){ .sz = sizeof(struct pk_record_opts) }, &err);
	pk_evlist__free(el);
	if (rc)
		return false;
	pk_record__free(r);
	return true;
}

#define NEED_PERF() do { if (!can_record()) { print_message("# no perf_event_open here\n"); skip(); } } while (0)

struct sink {
	struct pk_record *r;
	struct pk_record_stats *st;
	uint64_t samples, bad_ids, comm_exec, bytes;
	pid_t pid;
};

static int sink(void *ctx, const void *recs, size_t len)
{
	struct sink *s = ctx;
	const unsigned char *p = recs, *end = p + len;
	s->bytes += len;
	while (p < end) {
		const struct perf_event_header *h = (const void *)p;
		assert_true(h->size >= sizeof(*h) && h->size <= end - p);
		if (h->type == PERF_RECORD_SAMPLE) {
			s->samples++;
			/* task-clock alone: IP|TID|TIME|ID? the id is where sample_type puts it */
			struct pk_record_event ev;
			pk_record__event(s->r, 0, &ev);
			const uint64_t *w = (const uint64_t *)(h + 1);
			size_t i = 0;
			uint64_t st = ev.attr->sample_type;
			if (st & PERF_SAMPLE_IDENTIFIER)
				i++;
			i += !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			     !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
			if (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) {
				uint64_t id = st & PERF_SAMPLE_IDENTIFIER ? w[0] : w[i];
				s->bad_ids += pk_record__event_of_id(s->r, id) < 0;
			}
		}
		if (h->type == PERF_RECORD_COMM && (h->misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    ((const uint32_t *)(h + 1))[0] == (uint32_t)s->pid)
			s->comm_exec++;
		p += h->size;
	}
	if (s->st)
		assert_int_equal(pk_record_stats__feed(s->st, recs, len), 0);
	return 0;
}

static void burn_ms(double ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	volatile uint64_t x = 0;
	do {
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i * x + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

static int count_dso(void *ctx, int32_t pid, uint16_t misc, const char *name)
{
	(void)pid;
	(void)misc;
	(void)name;
	(*(int *)ctx)++;
	return 0;
}

/* Sanitizer builds: a calloc() too large returns NULL, as glibc's does, instead of aborting. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/*
 * A thread list too long to allocate: -ENOMEM, the half-built session freed. Its event
 * array was not allocated yet; the cleanup once walked it all the same (scan-build).
 */
static void test_open_oom(void **state)
{
	(void)state;
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .task_target = true };
	struct pk_evlist *el = evlist("task-clock", &o);
	static const pid_t tid = 1;
	struct pk_record_opts ro = { .sz = sizeof(ro), .tids = &tid, .nr_tids = SIZE_MAX / 2 };
	struct pk_record *r = NULL;
	struct pk_error err = { 0 };
	assert_int_equal(pk_record__open(&r, el, &ro, &err), -ENOMEM);
	assert_null(r);
	pk_evlist__free(el);
}

static void test_self(void **state)
{
	(void)state;
	NEED_PERF();
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .task_target = true,
				  .period = 100000 };
	struct pk_evlist *el = evlist("task-clock,page-faults", &o);
	struct pk_record *r;
	struct pk_error err = { 0 };
	struct pk_record_opts ro = { .sz = sizeof(ro), .pid = 0, .mmap_pages = 8 };
	assert_int_equal(pk_record__open(&r, el, &ro, &err), 0);
	assert_int_equal(pk_record__nr_events(r), 2);	/* no tracking dummy for a task */
	struct pk_record_event ev;
	assert_int_equal(pk_record__event(r, 0, &ev), 0);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	assert_int_equal(ev.nr_ids, (size_t)cpus);	/* one fd per CPU */
	assert_true(ev.attr->disabled);
	assert_int_equal(pk_record__event_of_id(r, ev.ids[0]), 0);
	struct sink s = { .r = r };
	assert_int_equal(pk_record_stats__new(&s.st, r, 0), 0);
	assert_int_equal(pk_record__enable(r, &err), 0);
	burn_ms(60);
	/* page faults: touch fresh pages */
	size_t len = 64 << 12;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (size_t i = 0; i < len; i += 4096)
		m[i] = 1;
	munmap(m, len);
	assert_int_equal(pk_record__disable(r, &err), 0);
	assert_true(pk_record__drain(r, sink, &s, &err) > 0);
	print_message("# %llu samples, %llu lost\n", (unsigned long long)s.samples, (unsigned long long)pk_record_stats__lost(s.st));
	/* 60 ms of this thread's CPU time, a sample every 100 us of it: about 600 */
	assert_true(s.samples + pk_record_stats__lost(s.st) > 450);
	assert_true(s.samples + pk_record_stats__lost(s.st) < 800);
	assert_int_equal(s.bad_ids, 0);
	assert_int_equal(pk_record_stats__samples(s.st), s.samples);
	assert_int_equal(pk_record__drain(r, sink, &s, &err), 0);	/* drained */
	pk_record_stats__free(s.st);
	pk_record__free(r);
	pk_evlist__free(el);
}

static void test_workload(void **state)
{
	(void)state;
	NEED_PERF();
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .workload = true };
	struct pk_evlist *el = evlist("task-clock", &o);
	assert_true(pk_evlist__evsel(el, 0)->attr.enable_on_exec);
	assert_null(pk_evlist__tracking(el));
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; exit 3", NULL };
	struct pk_workload *w;
	struct pk_error err = { 0 };
	assert_int_equal(pk_workload__start(&w, argv, &err), 0);
	struct pk_record *r;
	struct pk_record_opts ro = { .sz = sizeof(ro), .pid = pk_workload__pid(w) };
	assert_int_equal(pk_record__open(&r, el, &ro, &err), 0);
	struct sink s = { .r = r, .pid = pk_workload__pid(w) };
	assert_int_equal(pk_record_stats__new(&s.st, r, 0), 0);
	assert_int_equal(pk_workload__go(w, &err), 0);
	int status = 0;
	while (pk_workload__wait(w, true, &status) == 0) {
		int p = pk_record__poll(r, 20, -1);
		assert_true(p >= 0);
		assert_true(pk_record__drain(r, sink, &s, &err) >= 0);
	}
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_true(pk_record__drain(r, sink, &s, &err) >= 0);
	assert_int_equal(s.comm_exec, 1);	/* enabled at exec: the exec's COMM is recorded */
	assert_true(s.samples > 0);
	/* its samples fell in sh, libc or the kernel: DSOs hit */
	int nd = 0;
	pk_record_stats__for_each_dso(s.st, count_dso, &nd);
	assert_true(nd > 0);
	pk_record_stats__free(s.st);
	pk_record__free(r);
	pk_workload__free(w, 0);
	pk_evlist__free(el);
}

static void test_exec_error(void **state)
{
	(void)state;
	char *argv[] = { "/nonexistent/pmukit-no-such-command", NULL };
	struct pk_workload *w;
	struct pk_error err = { 0 };
	assert_int_equal(pk_workload__start(&w, argv, &err), 0);
	assert_int_equal(pk_workload__go(w, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "No such file"));
	int status;
	assert_int_equal(pk_workload__wait(w, false, &status), 1);
	assert_int_equal(WEXITSTATUS(status), 127);
	pk_workload__free(w, 0);
	/* given up before exec: freed without running it */
	char *argv2[] = { "true", NULL };
	assert_int_equal(pk_workload__start(&w, argv2, &err), 0);
	pk_workload__free(w, 0);
}

static void test_tracking(void **state)
{
	(void)state;
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .system_wide = true };
	struct pk_evlist *el = evlist("cpu-clock", &o);
	const struct pk_evsel *t = pk_evlist__tracking(el);
	assert_non_null(t);
	assert_string_equal(t->name, "dummy:HG");
	assert_int_equal(t->attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(t->attr.config, PERF_COUNT_SW_DUMMY);
	/* the side-band goes to it, not to the event */
	assert_true(t->attr.mmap && t->attr.comm && t->attr.task && t->attr.mmap2);
	assert_false(pk_evlist__evsel(el, 0)->attr.mmap);
	assert_false(t->attr.disabled);
	/* both sample CPU with -a, their ids tell them apart */
	assert_true(t->attr.sample_type & PERF_SAMPLE_CPU);
	pk_evlist__free(el);
	/* stat mode: none */
	o.mode = PK_SPEC_STAT;
	el = evlist("cpu-clock", &o);
	assert_null(pk_evlist__tracking(el));
	pk_evlist__free(el);
}

/* -D: a tracking dummy that starts at exec, the event itself not; --switch-events on it. */
static void test_delay_switch(void **state)
{
	(void)state;
	struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .workload = true,
				  .delay = true, .switch_events = true, .inherit_stat = true };
	struct pk_evlist *el = evlist("cpu-clock", &o);
	const struct pk_evsel *t = pk_evlist__tracking(el);
	const struct pk_evsel *e = pk_evlist__evsel(el, 0);
	assert_non_null(t);
	assert_true(t->attr.disabled && t->attr.enable_on_exec && t->attr.context_switch);
	assert_true(e->attr.disabled);
	assert_false(e->attr.enable_on_exec);
	assert_false(e->attr.mmap || e->attr.context_switch);
	assert_true(e->attr.inherit_stat);
	assert_true(e->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	pk_evlist__free(el);
}

/*
 * perf record's fallback: cycles the kernel cannot count sample cpu-clock, named from the
 * attr as perf names it. Where cycles opens (a hardware PMU), nothing falls back.
 */
static void test_cycles_fallback(void **state)
{
	(void)state;
	static const char *const specs[] = { "cycles:u", "cycles:k", "cycles:P", "cycles" };
	static const char *const names[] = { "cpu-clock:uH", "cpu-clock:k", "cpu-clock:ppp",
					     "cpu-clock" };
	for (size_t i = 0; i < 4; i++) {
		struct pk_spec_opts o = { .sz = sizeof(o), .mode = PK_SPEC_RECORD, .workload = true };
		struct pk_evlist *el = evlist(specs[i], &o);
		struct pk_record_opts ro = { .sz = sizeof(ro), .pid = 0, .cycles_fallback = true };
		struct pk_record *r = NULL;
		struct pk_error err = { 0 };
		assert_int_equal(pk_record__open(&r, el, &ro, &err), 0);
		struct pk_record_event ev;
		assert_int_equal(pk_record__event(r, 0, &ev), 0);
		if (pk_record__fallbacks(r)) {
			assert_int_equal(ev.attr->type, PERF_TYPE_SOFTWARE);
			assert_int_equal(ev.attr->config, PERF_COUNT_SW_CPU_CLOCK);
			assert_string_equal(ev.name, names[i]);
		} else {
			assert_int_equal(ev.attr->type, PERF_TYPE_HARDWARE);
		}
		pk_record__free(r);
		/* without the option: refused where there is no PMU */
		ro.cycles_fallback = false;
		int rc = pk_record__open(&r, el, &ro, &err);
		assert_true(rc == 0 || rc == -ENOENT || rc == -ENODEV || rc == -ENXIO ||
			    rc == -EOPNOTSUPP);
		pk_record__free(r);
		pk_evlist__free(el);
	}
}

/* ---- synthesized side-band ---- */

static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

struct recs {
	unsigned char buf[16384];
	size_t len;
};

static int keep(void *ctx, const void *recs, size_t len)
{
	struct recs *r = ctx;
	assert_true(r->len + len <= sizeof(r->buf));
	memcpy(r->buf + r->len, recs, len);
	r->len += len;
	return 0;
}

static const struct perf_event_header *nth(const struct recs *r, size_t n)
{
	size_t off = 0;
	for (size_t i = 0; off < r->len; i++) {
		const struct perf_event_header *h = (const void *)(r->buf + off);
		if (i == n)
			return h;
		off += h->size;
	}
	return NULL;
}

static void test_synth(void **state)
{
	(void)state;
	char dir[] = "/tmp/pmukit-synth-XXXXXX";
	assert_non_null(mkdtemp(dir));
	put_file(dir, "kallsyms", "0000000000000000 A fixed_percpu_data\n"
				  "ffffffff81000000 T _stext\nffffffff81000000 T _text\n"
				  "ffffffff81000010 T other\n");
	put_file(dir, "42/stat", "42 (my (prog) x) S 7 42 42 0 -1\n");
	put_file(dir, "42/task/42/comm", "my (prog) x\n");
	put_file(dir, "42/task/43/comm", "worker\n");
	put_file(dir, "42/task/42/maps",
		 "55d0a0000000-55d0a0002000 r--p 00000000 fe:00 1234 /usr/bin/prog\n"
		 "55d0a0002000-55d0a0005000 r-xp 00002000 fe:00 1234 /usr/bin/prog\n"
		 "7f0000000000-7f0000021000 rw-p 00000000 00:00 0 \n"
		 "7fff00000000-7fff00002000 r-xp 00000000 00:00 0 [vdso]\n");
	struct recs rs = { .len = 0 };
	struct pk_error err = { 0 };
	size_t idsz = pk_sample__id_size(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					 PERF_SAMPLE_IDENTIFIER);
	assert_int_equal(idsz, 24);
	assert_int_equal(pk_synth__kernel_mmap(dir, idsz, keep, &rs, &err), 0);
	const struct perf_event_header *h = nth(&rs, 0);
	assert_int_equal(h->type, PERF_RECORD_MMAP);
	assert_int_equal(h->misc, PERF_RECORD_MISC_KERNEL);
	const uint64_t *w = (const void *)(h + 1);
	assert_int_equal(((const uint32_t *)w)[0], UINT32_MAX);	/* pid -1 */
	assert_int_equal(w[1], 0xffffffff81000000ULL);
	assert_int_equal(w[3], 0xffffffff81000000ULL);	/* pgoff: _text */
	assert_string_equal((const char *)(w + 4), "[kernel.kallsyms]_text");
	assert_int_equal(h->size, 8 + 32 + 24 + idsz);
	assert_int_equal(w[(h->size - 8) / 8 - 1], 0);	/* the trailer is zero */

	pid_t pid = 42;
	assert_int_equal(pk_synth__tasks(dir, &pid, 1, false, idsz, keep, &rs, &err), 0);
	/* FORK 42 from 7, COMM, MMAP2 x2 (exec maps), then FORK 43 from 42, COMM */
	h = nth(&rs, 1);
	assert_int_equal(h->type, PERF_RECORD_FORK);
	const uint32_t *f = (const void *)(h + 1);
	assert_int_equal(f[0], 42);
	assert_int_equal(f[1], 7);
	assert_int_equal(f[2], 42);
	h = nth(&rs, 2);
	assert_int_equal(h->type, PERF_RECORD_COMM);
	assert_string_equal((const char *)(h + 1) + 8, "my (prog) x");
	h = nth(&rs, 3);
	assert_int_equal(h->type, PERF_RECORD_MMAP2);
	assert_int_equal(h->misc, PERF_RECORD_MISC_USER);
	w = (const void *)(h + 1);
	assert_int_equal(w[1], 0x55d0a0002000ULL);
	assert_int_equal(w[2], 0x3000);
	assert_int_equal(w[3], 0x2000);
	assert_int_equal(((const uint32_t *)w)[8], 0xfe);	/* maj */
	assert_int_equal(w[5], 1234);	/* ino */
	assert_int_equal(((const uint32_t *)w)[14], PROT_READ | PROT_EXEC);
	assert_int_equal(((const uint32_t *)w)[15], MAP_PRIVATE);
	assert_string_equal((const char *)(w + 8), "/usr/bin/prog");
	h = nth(&rs, 4);
	assert_string_equal((const char *)(h + 1) + 64, "[vdso]");
	h = nth(&rs, 5);
	assert_int_equal(h->type, PERF_RECORD_FORK);
	f = (const void *)(h + 1);
	assert_int_equal(f[1], 42);	/* a thread: from its process */
	assert_int_equal(f[2], 43);
	h = nth(&rs, 6);
	assert_int_equal(h->type, PERF_RECORD_COMM);
	assert_null(nth(&rs, 7));
	/* with data maps: the rw-p anon map too, as //anon with MMAP_DATA */
	rs.len = 0;
	assert_int_equal(pk_synth__tasks(dir, &pid, 1, true, idsz, keep, &rs, &err), 0);
	h = nth(&rs, 4);
	assert_int_equal(h->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	assert_string_equal((const char *)(h + 1) + 64, "//anon");
	/* a vanished pid is skipped */
	pid_t gone = 99;
	rs.len = 0;
	assert_int_equal(pk_synth__tasks(dir, &gone, 1, false, idsz, keep, &rs, &err), 0);
	assert_int_equal(rs.len, 0);
	/* the COMM perf synthesizes for its forked child */
	rs.len = 0;
	assert_int_equal(pk_synth__comm(77, "perf-exec", idsz, keep, &rs, &err), 0);
	h = nth(&rs, 0);
	assert_int_equal(h->type, PERF_RECORD_COMM);
	assert_int_equal(h->misc, 0);
	assert_int_equal(h->size, 8 + 8 + 16 + idsz);
	assert_int_equal(((const uint32_t *)(h + 1))[0], 77);
	assert_int_equal(((const uint32_t *)(h + 1))[1], 77);
	assert_string_equal((const char *)(h + 1) + 8, "perf-exec");
	/* hidden kernel addresses */
	put_file(dir, "kallsyms", "0000000000000000 T _stext\n0000000000000000 T _text\n");
	assert_int_equal(pk_synth__kernel_mmap(dir, idsz, keep, &rs, &err), -EPERM);
	assert_non_null(strstr(err.msg, "kptr_restrict"));
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* ---- the stream reader ---- */

static size_t add(unsigned char *buf, size_t off, uint32_t type, uint16_t misc, const uint64_t *w,
		  size_t nw, const char *str)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	size_t sl = str ? (strlen(str) + 8) & ~(size_t)7 : 0;
	h.size = (uint16_t)(8 + nw * 8 + sl);
	memcpy(buf + off, &h, 8);
	memcpy(buf + off + 8, w, nw * 8);
	memset(buf + off + 8 + nw * 8, 0, sl);
	if (str)
		memcpy(buf + off + 8 + nw * 8, str, strlen(str));
	return off + h.size;
}

struct names {
	char v[8][64];
	int n;
};

static int name_of(void *ctx, int32_t pid, uint16_t misc, const char *filename)
{
	struct names *n = ctx;
	assert_int_equal(pid, -1);
	snprintf(n->v[n->n++], 64, "%s%s", misc == PERF_RECORD_MISC_KERNEL ? "k:" : "u:", filename);
	return 0;
}

static void test_stats(void **state)
{
	(void)state;
	unsigned char b[4096];
	size_t o = 0;
	/* sample_type IP|TID|CALLCHAIN, one event */
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	/* pid 10: /bin/a at 0x1000-0x3000, /lib/c at 0x10000-0x20000 */
	uint64_t m1[] = { 10 | (10ULL << 32), 0x1000, 0x2000, 0, 0, 0, 0, 0 };
	o = add(b, o, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, m1, 8, "/bin/a");
	uint64_t m2[] = { 10 | (10ULL << 32), 0x10000, 0x10000, 0, 0, 0, 0, 0 };
	o = add(b, o, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, m2, 8, "/lib/c");
	uint64_t m3[] = { 10 | (10ULL << 32), 0x30000, 0x1000, 0, 0, 0, 0, 0 };
	o = add(b, o, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, m3, 8, "/lib/unhit");
	/* a sample in /bin/a whose user callchain goes through /lib/c */
	uint64_t s1[] = { 0x1500, 10 | (10ULL << 32), 3, (uint64_t)PERF_CONTEXT_USER, 0x1500, 0x10100 };
	o = add(b, o, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s1, 6, NULL);
	/* a kernel sample */
	uint64_t s2[] = { 0xffffffff81000100ULL, 10 | (10ULL << 32), 0 };
	o = add(b, o, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, s2, 3, NULL);
	/* pid 11 forks from 10 and samples in the inherited /lib/c... */
	uint64_t fk[] = { 11 | (10ULL << 32), 11 | (10ULL << 32), 0 };
	o = add(b, o, PERF_RECORD_FORK, 0, fk, 3, NULL);
	/* ...pid 10 execs: its maps are gone (a sample there finds nothing) */
	uint64_t cm[] = { 10 | (10ULL << 32) };
	o = add(b, o, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, cm, 1, "new");
	uint64_t s3[] = { 0x30010, 10 | (10ULL << 32), 0 };
	o = add(b, o, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s3, 3, NULL);
	uint64_t lost[] = { 5, 17 };
	o = add(b, o, PERF_RECORD_LOST, 0, lost, 2, NULL);
	uint64_t lost2[] = { 3 };
	o = add(b, o, PERF_RECORD_LOST_SAMPLES, 0, lost2, 1, NULL);
	struct pk_record_stats *s;
	assert_int_equal(pk_record_stats__new(&s, NULL, st), 0);
	assert_int_equal(pk_record_stats__feed(s, b, o), 0);
	assert_int_equal(pk_record_stats__samples(s), 3);
	assert_int_equal(pk_record_stats__lost(s), 20);
	assert_int_equal(pk_record_stats__lost_records(s), 2);
	struct names n = { .n = 0 };
	pk_record_stats__for_each_dso(s, name_of, &n);
	assert_int_equal(n.n, 3);
	assert_string_equal(n.v[0], "u:/bin/a");
	assert_string_equal(n.v[1], "u:/lib/c");
	assert_string_equal(n.v[2], "k:[kernel.kallsyms]");
	/* the child inherited the maps: a sample of 11 in /lib/unhit counts */
	o = 0;
	uint64_t s4[] = { 0x30010, 11 | (11ULL << 32), 0 };
	o = add(b, o, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s4, 3, NULL);
	assert_int_equal(pk_record_stats__feed(s, b, o), 0);
	n.n = 0;
	pk_record_stats__for_each_dso(s, name_of, &n);
	assert_int_equal(n.n, 4);
	assert_string_equal(n.v[2], "u:/lib/unhit");
	pk_record_stats__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracking),
		cmocka_unit_test(test_delay_switch),
		cmocka_unit_test(test_cycles_fallback),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_workload),
		cmocka_unit_test(test_exec_error),
		cmocka_unit_test(test_synth),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_open_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
