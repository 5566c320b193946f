/* SPDX-License-Identifier: MIT */
/*
 * test_session.c — pmukit/session.h on perf.data files built here (with the
 * reader tests' builder): threads (COMM, COMM exec, FORK of a process and
 * of a thread, EXIT, ":TID" before any comm, the idle "swapper"), maps
 * (MMAP2 cutting an older map into the parts it does not cover, maps
 * cloned to a forked process and shared by its threads), locations
 * interned per (map, ip), callchains (markers switching cpumode, an
 * unknown marker discarding the chain, max_stack), symbols and srclines of
 * this test binary itself (serial and on two threads alike), the
 * profile the exporters get, and the file's attrs and lost samples as
 * report asks the session for them (out structs filled within their sz).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pmukit/profile.h>
#include <pmukit/session.h>

#include "test_data_read.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN | \
		     PERF_SAMPLE_PERIOD)

/* the function whose symbol and source line the tests look up */
__attribute__((noinline, used)) int session_marker_fn(int x)
{
	return x * 3 + 1;	/* MARKER-LINE */
}

static char self[4096];
static uint64_t marker_rip;	/* session_marker_fn in this binary's rip space */

/* trailer of side-band records: TID (pid, tid) and TIME */
static void trailer(struct rb *r, uint32_t pid, uint32_t tid, uint64_t time)
{
	rb_u32x2(r, pid, tid);
	rb_u64(r, time);
}

static void comm(struct syn *s, uint32_t pid, uint32_t tid, const char *c, bool exec, uint64_t t)
{
	struct rb r;
	rb_start(&r, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	rb_u32x2(&r, pid, tid);
	rb_str(&r, c);
	trailer(&r, pid, tid, t);
	syn_rec(s, rb_end(&r));
}

static void fork_(struct syn *s, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		  uint32_t type, uint64_t t)
{
	struct rb r;
	rb_start(&r, type, 0);
	rb_u32x2(&r, pid, ppid);
	rb_u32x2(&r, tid, ptid);
	rb_u64(&r, t);
	trailer(&r, pid, tid, t);
	syn_rec(s, rb_end(&r));
}

static void mmap2(struct syn *s, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		  const char *file, uint64_t t)
{
	struct rb r;
	rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	rb_u32x2(&r, pid, pid);
	rb_u64(&r, start);
	rb_u64(&r, len);
	rb_u64(&r, pgoff);
	rb_u32x2(&r, 8, 1);	/* maj, min */
	rb_u64(&r, 42);		/* ino */
	rb_u64(&r, 0);		/* ino generation */
	rb_u32x2(&r, 5 /* PROT_READ|PROT_EXEC */, 2 /* MAP_PRIVATE */);
	rb_str(&r, file);
	trailer(&r, pid, pid, t);
	syn_rec(s, rb_end(&r));
}

/* a kernel MMAP as perf synthesizes it: pid -1, cpumode kernel */
static void kmmap(struct syn *s, uint64_t start, uint64_t len, uint64_t pgoff, const char *name)
{
	struct rb r;
	rb_start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	rb_u32x2(&r, (uint32_t)-1, 0);
	rb_u64(&r, start);
	rb_u64(&r, len);
	rb_u64(&r, pgoff);
	rb_str(&r, name);
	trailer(&r, (uint32_t)-1, 0, 0);
	syn_rec(s, rb_end(&r));
}

static void sample(struct syn *s, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t ip,
		   const uint64_t *chain, size_t n, uint64_t t)
{
	struct rb r;
	rb_start(&r, PERF_RECORD_SAMPLE, misc);
	rb_u64(&r, ip);
	rb_u32x2(&r, pid, tid);
	rb_u64(&r, t);
	rb_u64(&r, 1000);	/* period */
	rb_u64(&r, n);
	for (size_t i = 0; i < n; i++)
		rb_u64(&r, chain[i]);
	syn_rec(s, rb_end(&r));
}

/* PERF_RECORD_LOST_SAMPLES: lost, then the sample id trailer (misc: BPF-filtered or not) */
static void lost_samples(struct syn *s, uint16_t misc, uint64_t lost, uint64_t t)
{
	struct rb r;
	rb_start(&r, PERF_RECORD_LOST_SAMPLES, misc);
	rb_u64(&r, lost);
	trailer(&r, 100, 100, t);
	syn_rec(s, rb_end(&r));
}

#define U PERF_RECORD_MISC_USER
#define K PERF_RECORD_MISC_KERNEL

/* The machine of every test: two processes, a thread, and maps as described above. */
static void build(struct pk_buf *out, bool pipe)
{
	struct syn s = { .pipe = pipe };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
				     .size = sizeof(a), .sample_period = 1000,
				     .sample_type = SAMPLE_TYPE, .sample_id_all = 1,
				     .exclude_guest = 1 };
	uint64_t no_ids[1] = { 0 };
	syn_attr(&s, &a, sizeof(a), NULL, no_ids, 0);
	uint64_t t = 1000;
	/* the kernel, then a module above it */
	kmmap(&s, 0xffffffff81000000ull, 0x1000000, 0xffffffff81000000ull, "[kernel.kallsyms]_text");
	kmmap(&s, 0xffffffffc0000000ull, 0x2000, 0, "/lib/modules/test/mod.ko");
	comm(&s, 100, 100, "parent", false, t++);
	/* a: [0x400000, 0x410000) of a file that is not there */
	mmap2(&s, 100, 0x400000, 0x10000, 0, "/nonexistent/a", t++);
	/* b cuts a into [0x400000, 0x408000) and [0x409000, 0x410000) */
	mmap2(&s, 100, 0x408000, 0x1000, 0x3000, "/nonexistent/b", t++);
	/* this test binary, whole, from file offset 0 */
	mmap2(&s, 100, 0x7f0000000000, 0x1000000, 0, self, t++);
	lost_samples(&s, 0, 5, t++);
	lost_samples(&s, 1u << 15 /* PERF_RECORD_MISC_LOST_SAMPLES_BPF */, 100, t++);
	sample(&s, U, 100, 100, 0x409010, NULL, 0, t++);		/* 0: a's after part */
	sample(&s, U, 100, 100, 0x408010, NULL, 0, t++);		/* 1: b */
	sample(&s, U, 100, 100, 0x400100, NULL, 0, t++);		/* 2: a's before part */
	fork_(&s, 200, 100, 200, 100, PERF_RECORD_FORK, t++);
	sample(&s, U, 200, 200, 0x400100, NULL, 0, t++);		/* 3: cloned map */
	comm(&s, 200, 200, "child", true, t++);
	fork_(&s, 200, 200, 201, 200, PERF_RECORD_FORK, t++);
	uint64_t ch[] = { PERF_CONTEXT_KERNEL, 0xffffffff81001000ull, PERF_CONTEXT_USER,
			  0x409010, 0x400100, 0x7f0000000000ull + marker_rip };
	sample(&s, U, 200, 201, 0x409010, ch, 6, t++);			/* 4: thread, chain */
	uint64_t bad[] = { 0x409010, PERF_CONTEXT_GUEST, 0x400100 };
	sample(&s, U, 100, 100, 0x409010, bad, 3, t++);			/* 5: discarded chain */
	sample(&s, U, 999, 999, 0x1234, NULL, 0, t++);			/* 6: unknown thread */
	sample(&s, U, 100, 100, 0x7f0000000000ull + marker_rip, NULL, 0, t++); /* 7: symbol */
	fork_(&s, 201, 200, 201, 200, PERF_RECORD_EXIT, t++);
	sample(&s, U, 200, 201, 0x409010, NULL, 0, t++);		/* 8: after EXIT */
	sample(&s, K, 0, 0, 0xffffffff81001000ull, NULL, 0, t++);	/* 9: idle, kernel */
	sample(&s, K, 0, 0, 0xffffffffc0001000ull, NULL, 0, t++);	/* 10: in the module */
	lost_samples(&s, 0, 2, t++);
	syn_build(&s, out);
	syn_free(&s);
}

struct run {
	struct pk_session *s;
	int fd;
	struct pk_buf file;
	struct pk_resolved rs[16];
	const struct pk_loc *chains[16][8];
	size_t n;
};

static void open_run(struct run *r, const struct pk_session_opts *o, bool pipe)
{
	struct pk_error err = { 0 };
	memset(r, 0, sizeof(*r));
	build(&r->file, pipe);
	r->fd = mem_fd(r->file.data, r->file.len);
	if (pk_session__open_fd(&r->s, r->fd, "mem", o, &err))
		fail_msg("open: %s", err.msg);
}

/* Resolve every sample (with its callchain), keeping copies. */
static void resolve_all(struct run *r)
{
	const struct pk_data_event *ev;
	struct pk_error err = { 0 };
	int rc;
	while ((rc = pk_session__next(r->s, &ev, &err)) > 0) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		assert_true(r->n < 16);
		struct pk_resolved *rs = &r->rs[r->n];
		rs->sz = sizeof(*rs);
		assert_int_equal(pk_session__resolve(r->s, ev, PK_RESOLVE_CALLCHAIN, rs, &err), 0);
		assert_true(rs->nr_chain <= 8);
		for (size_t i = 0; i < rs->nr_chain; i++)
			r->chains[r->n][i] = rs->chain[i];
		rs->chain = r->chains[r->n];
		rs->ev = NULL;
		rs->sample = NULL;
		r->n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(r->n, 11);
}

static void close_run(struct run *r)
{
	pk_session__free(r->s);
	close(r->fd);
	pk_buf__free(&r->file);
}

static const char *map_file(const struct pk_loc *l)
{
	return l->map ? pk_dso__name(l->dso) : "(none)";
}

static void check_machine(struct run *r)
{
	struct pk_resolved *rs = r->rs;
	/* a's part after b: same DSO, same rip mapping as before the cut */
	assert_string_equal(map_file(rs[0].loc), "/nonexistent/a");
	assert_int_equal(rs[0].loc->map->start, 0x409000);
	assert_int_equal(rs[0].loc->map->end, 0x410000);
	assert_int_equal(rs[0].loc->map->pgoff, 0x9000);
	assert_int_equal(rs[0].loc->addr, 0x9010);
	assert_string_equal(map_file(rs[1].loc), "/nonexistent/b");
	assert_int_equal(rs[1].loc->addr, 0x3010);
	assert_int_equal(rs[2].loc->map->end, 0x408000);
	assert_int_equal(rs[2].loc->addr, 0x100);
	assert_string_equal(rs[0].comm, "parent");
	assert_int_equal(rs[0].loc->level, '.');
	/* the forked process: parent's comm and a copy of its maps (same map objects) */
	assert_string_equal(rs[3].comm, "parent");
	assert_ptr_equal(rs[3].loc, rs[2].loc);
	assert_int_equal(rs[3].thread->ppid, 100);
	/* its thread: the process's comm after exec, the process's maps */
	assert_string_equal(rs[4].comm, "child");
	assert_int_equal(rs[4].thread->pid, 200);
	assert_int_equal(rs[4].thread->tid, 201);
	assert_ptr_equal(rs[4].loc, rs[0].loc);		/* interned per (map, ip) */
	/* unknown thread: perf's ":TID" */
	assert_string_equal(rs[6].comm, ":999");
	assert_null(rs[6].loc->map);
	assert_null(rs[6].loc->sym);
	/* after EXIT the thread is still found (perf 6.1 keeps exited threads) */
	assert_ptr_equal(rs[8].thread, rs[4].thread);
	assert_true(rs[8].thread->exited);
	/* idle: swapper, kernel level */
	assert_string_equal(rs[9].comm, "swapper");
	assert_int_equal(rs[9].loc->level, 'k');
	assert_int_equal(rs[9].loc->cpumode, PERF_RECORD_MISC_KERNEL);
	/* the kernel map from its MMAP: absolute addresses; the module's own map and DSO */
	assert_non_null(rs[9].loc->map);
	assert_int_equal(rs[9].loc->map->start, 0xffffffff81000000ull);
	assert_int_equal(rs[9].loc->map->end, 0xffffffff82000000ull);
	assert_true(rs[9].loc->map->kernel);
	assert_int_equal(rs[9].loc->addr, rs[9].loc->ip);
	assert_non_null(rs[10].loc->map);
	assert_int_equal(rs[10].loc->map->start, 0xffffffffc0000000ull);
	assert_true(rs[10].loc->map->kernel);
	/* a module kallsyms does not cover: named as perf names it, module-relative */
	assert_int_equal(rs[10].loc->addr, 0x1000);
	assert_string_equal(pk_dso__name(rs[10].loc->dso), "[mod]");
	assert_ptr_equal(pk_session__kernel_dso(r->s), rs[9].loc->dso);
	/* comms are interned: equal comms, one pointer */
	assert_ptr_equal(rs[0].comm, rs[2].comm);
	/* ids are dense */
	for (size_t i = 0; i < pk_session__nr_locs(r->s); i++)
		assert_int_equal(pk_session__loc_at(r->s, (uint32_t)i)->id, i);
}

static void check_chains(struct run *r)
{
	struct pk_resolved *rs = r->rs;
	/* markers switch the cpumode and are not entries */
	assert_int_equal(rs[4].nr_chain, 4);
	assert_int_equal(rs[4].chain[0]->cpumode, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(rs[4].chain[0]->ip, 0xffffffff81001000ull);
	assert_int_equal(rs[4].chain[1]->cpumode, PERF_RECORD_MISC_USER);
	assert_ptr_equal(rs[4].chain[1], rs[0].loc);
	assert_ptr_equal(rs[4].chain[2], rs[3].loc);
	assert_non_null(rs[4].chain[3]->sym);
	assert_string_equal(rs[4].chain[3]->sym->name, "session_marker_fn");
	/* an unknown marker discards the chain */
	assert_int_equal(rs[5].nr_chain, 0);
	struct pk_session_stats st = { .sz = sizeof(st) };
	assert_int_equal(pk_session__stats(r->s, &st), 0);
	assert_int_equal(st.nr_corrupt_chains, 1);
	assert_int_equal(st.nr_samples, 11);
}

static void check_symbol(struct run *r)
{
	const struct pk_loc *l = r->rs[7].loc;
	assert_non_null(l->sym);
	assert_string_equal(l->sym->name, "session_marker_fn");
	assert_int_equal(pk_loc__symoff(l), 0);
	assert_string_equal(pk_dso__name(l->dso), self);
}

static void test_machine(void **state)
{
	(void)state;
	struct run r;
	struct pk_session_opts o = { .sz = sizeof(o), .nr_threads = 1 };
	open_run(&r, &o, false);
	resolve_all(&r);
	check_machine(&r);
	check_chains(&r);
	check_symbol(&r);
	close_run(&r);
}

/* pipe mode, two threads: the same answers */
static void test_pipe_threads(void **state)
{
	(void)state;
	struct run r;
	struct pk_session_opts o = { .sz = sizeof(o), .nr_threads = 2 };
	open_run(&r, &o, true);
	resolve_all(&r);
	check_machine(&r);
	check_chains(&r);
	check_symbol(&r);
	close_run(&r);
}

/*
 * What report asks the session about the file: pipe mode, the attrs, which
 * have callchains, lost samples (BPF-filtered ones left out) per attr; the
 * attr in each resolved sample; out structs filled within the caller's sz.
 */
static void check_attrs(bool pipe)
{
	struct run r;
	struct pk_session_opts o = { .sz = sizeof(o), .nr_threads = 1 };
	open_run(&r, &o, pipe);
	assert_int_equal(pk_session__is_pipe(r.s), pipe);
	if (!pipe) {
		assert_int_equal(pk_session__nr_attrs(r.s), 1);
		assert_true(pk_session__any_sample_type(r.s, PERF_SAMPLE_CALLCHAIN));
	}
	assert_false(pk_session__any_sample_type(r.s, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW));
	assert_null(pk_session__attr(r.s, -1));
	assert_null(pk_session__attr(r.s, 1));
	assert_int_equal(pk_session__attr_of_id(r.s, 12345), -1);
	assert_false(pk_session__has_feat(r.s, PK_FEAT_BRANCH_STACK));
	assert_int_equal(pk_session__lost_samples(r.s, -1), 0);

	/* a caller's shorter pk_resolved: nothing past its sz is written */
	const struct pk_data_event *ev;
	struct pk_error err = { 0 };
	while (pk_session__next(r.s, &ev, &err) > 0 && ev->type != PERF_RECORD_SAMPLE)
		;
	assert_int_equal(ev->type, PERF_RECORD_SAMPLE);
	const struct pk_data_attr *sentinel = (const void *)&r;
	struct pk_resolved short_rs = { .sz = offsetof(struct pk_resolved, data_attr),
					.data_attr = sentinel };
	assert_int_equal(pk_session__resolve(r.s, ev, 0, &short_rs, &err), 0);
	assert_int_equal(short_rs.attr, 0);
	assert_ptr_equal(short_rs.data_attr, sentinel);
	struct pk_resolved bad = { .sz = 0 };
	assert_int_not_equal(pk_session__resolve(r.s, ev, 0, &bad, &err), 0);
	/* a lost-samples record before the first sample: counted, the BPF one not */
	assert_int_equal(pk_session__lost_samples(r.s, -1), 5);

	const struct pk_data_attr *a = pk_session__attr(r.s, 0);
	assert_non_null(a);
	assert_int_equal(a->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(pk_session__nr_attrs(r.s), 1);
	assert_true(pk_session__any_sample_type(r.s, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_TID));
	int rc;
	size_t n = 1;
	while ((rc = pk_session__next(r.s, &ev, &err)) > 0) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		struct pk_resolved rs = { .sz = sizeof(rs) };
		assert_int_equal(pk_session__resolve(r.s, ev, 0, &rs, &err), 0);
		assert_ptr_equal(rs.data_attr, a);
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, 11);
	assert_int_equal(pk_session__lost_samples(r.s, -1), 7);
	assert_int_equal(pk_session__lost_samples(r.s, 0), 7);
	assert_int_equal(pk_session__lost_samples(r.s, 1), 0);
	/* the records of each type read (for report --stats) */
	assert_int_equal(pk_session__nr_records(r.s, PERF_RECORD_SAMPLE), 11);
	assert_int_equal(pk_session__nr_records(r.s, PERF_RECORD_LOST_SAMPLES), 3);
	assert_int_equal(pk_session__nr_records(r.s, PERF_RECORD_FORK), 2);
	assert_int_equal(pk_session__nr_records(r.s, PERF_RECORD_EXIT), 1);
	assert_int_equal(pk_session__nr_records(r.s, PERF_RECORD_COMM), 2);
	assert_int_equal(pk_session__nr_records(r.s, PERF_RECORD_THROTTLE), 0);
	assert_int_equal(pk_session__nr_records(r.s, 1000), pk_session__nr_records(r.s, 127));

	struct pk_session_stats st = { .sz = sizeof(st) };
	assert_int_equal(pk_session__stats(r.s, &st), 0);
	assert_int_equal(st.sz, sizeof(st));
	assert_int_equal(st.nr_lost_samples, 7);
	assert_int_equal(st.nr_samples, 11);
	struct pk_session_stats old = { .sz = offsetof(struct pk_session_stats, nr_unresolved_maps),
					.nr_unresolved_maps = 42 };
	assert_int_equal(pk_session__stats(r.s, &old), 0);
	assert_int_equal(old.nr_samples, 11);
	assert_int_equal(old.nr_unresolved_maps, 42);
	struct pk_session_stats none = { .sz = 0 };
	assert_int_equal(pk_session__stats(r.s, &none), -EINVAL);
	close_run(&r);
}

static void test_attrs(void **state)
{
	(void)state;
	check_attrs(false);
	check_attrs(true);
}

static void test_max_stack(void **state)
{
	(void)state;
	struct run r;
	struct pk_session_opts o = { .sz = sizeof(o), .max_stack = 2 };
	open_run(&r, &o, false);
	resolve_all(&r);
	assert_int_equal(r.rs[4].nr_chain, 2);
	assert_int_equal(r.rs[4].chain[1]->ip, 0x409010);
	close_run(&r);
}

/*
 * A line of the marker function in this file, found by reading it: its
 * first instruction is on the line of its body (optimized) or of its
 * declaration (-O0): the line after "which" lines from the top.
 */
static unsigned marker_line(const char *which)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/unit/test_session.c",
		 getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".");
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[512];
	unsigned n = 0, found = 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, which) && !strstr(line, "strstr")) {
			found = n;
			break;
		}
	}
	fclose(f);
	return found;
}

static void test_srclines(void **state)
{
	(void)state;
	unsigned body = marker_line("MARKER-LINE"), decl = marker_line("int session_marker_fn(int x)");
	if (!body || !decl)
		skip();	/* the source is not where PMUKIT_SRC says */
	char expect[64];
	snprintf(expect, sizeof(expect), "test_session.c:%u", body);
	char got[2][64];
	for (int threads = 1; threads <= 2; threads++) {
		struct run r;
		struct pk_session_opts o = { .sz = sizeof(o), .nr_threads = threads };
		struct pk_error err = { 0 };
		open_run(&r, &o, false);
		resolve_all(&r);
		const struct pk_loc *locs[16];
		size_t n = pk_session__nr_locs(r.s);
		for (size_t i = 0; i < n; i++)
			locs[i] = pk_session__loc_at(r.s, (uint32_t)i);
		assert_int_equal(pk_session__prepare_srclines(r.s, locs, n,
							      PK_PREPARE_SRCLINE | PK_PREPARE_INLINES,
							      &err), 0);
		const char *sl = pk_session__loc_srcline(r.s, r.rs[7].loc);
		assert_non_null(sl);
		snprintf(got[threads - 1], sizeof(got[0]), "%s", sl);
		/* a line of the function: declaration, brace or body, by optimization */
		unsigned at = 0;
		assert_int_equal(sscanf(got[threads - 1], "test_session.c:%u", &at), 1);
		if (at < decl || at > body)
			assert_string_equal(got[threads - 1], expect);
		if (threads == 2)
			assert_string_equal(got[0], got[1]);
		struct pk_srcline inl = { .sz = sizeof(inl) };
		assert_int_equal(pk_session__loc_inlines(r.s, r.rs[7].loc, &inl), 0);
		assert_true(inl.nr_frames >= 1);
		assert_string_equal(inl.frames[inl.nr_frames - 1].func, "session_marker_fn");
		/* an older caller's shorter pk_srcline: only what lies within its sz */
		const struct pk_srcline_frame *sentinel = (const void *)&r;
		struct pk_srcline old = { .sz = offsetof(struct pk_srcline, frames),
					  .frames = sentinel };
		assert_int_equal(pk_session__loc_inlines(r.s, r.rs[7].loc, &old), 0);
		assert_int_equal(old.nr_frames, inl.nr_frames);
		assert_ptr_equal(old.frames, sentinel);
		struct pk_srcline none = { .sz = 0 };
		assert_int_equal(pk_session__loc_inlines(r.s, r.rs[7].loc, &none), -EINVAL);
		/* no file behind a: no srcline */
		assert_null(pk_session__loc_srcline(r.s, r.rs[0].loc));
		close_run(&r);
	}
}

/* perf report --tasks' threads: those a COMM, FORK or EXIT record met, not a sample's alone */
static void test_task_seen(void **state)
{
	(void)state;
	struct run r;
	struct pk_session_opts o = { .sz = sizeof(o), .nr_threads = 1 };
	open_run(&r, &o, false);
	resolve_all(&r);
	static const int32_t seen[] = { 0, 100, 200, 201 };
	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		const struct pk_thread *t = pk_session__find_thread(r.s, seen[i]);
		assert_non_null(t);
		assert_true(t->task_seen);
	}
	const struct pk_thread *u = pk_session__find_thread(r.s, 999);	/* sample 6's */
	assert_non_null(u);
	assert_false(u->task_seen);
	close_run(&r);
}

/* a source line looked up on a worker first: the same answer as looked up on first use */
static void test_prefetch_srcline(void **state)
{
	(void)state;
	char got[2][256];
	for (int threads = 1; threads <= 2; threads++) {
		struct run r;
		struct pk_session_opts o = { .sz = sizeof(o), .nr_threads = threads };
		open_run(&r, &o, false);
		resolve_all(&r);
		const struct pk_loc *l = r.rs[7].loc;
		assert_non_null(l->dso);
		if (threads == 2) {
			pk_session__prefetch_srcline(r.s, l->dso, l->addr);
			pk_session__prefetch_srcline(r.s, l->dso, l->addr);	/* cached */
			pk_session__prefetch_srcline(r.s, NULL, 0);	/* nothing */
			pk_session__prefetch_srcline(NULL, l->dso, 0);
		}
		const char *sl = pk_dso__srcline_str(l->dso, l->addr);
		assert_non_null(sl);
		assert_non_null(strstr(sl, "test_session.c:"));
		snprintf(got[threads - 1], sizeof(got[0]), "%s", sl);
		close_run(&r);
	}
	assert_string_equal(got[0], got[1]);
}

static void test_profile(void **state)
{
	(void)state;
	struct run r;
	struct pk_session_opts o = { .sz = sizeof(o) };
	struct pk_error err = { 0 };
	struct pk_profile *p;
	open_run(&r, &o, false);
	assert_int_equal(pk_profile__new(&p), 0);
	assert_int_equal(pk_session__fill_profile(r.s, p, NULL, &err), 0);
	assert_int_equal(pk_profile__nr_events(p), 1);
	struct pk_profile_event ev;
	assert_int_equal(pk_profile__event(p, 0, &ev), 0);
	assert_string_equal(ev.name, "cpu-clock");
	assert_string_equal(ev.unit, "nanoseconds");
	assert_int_equal(pk_profile__nr_samples(p), 11);
	/* sample 4: its chain, leaf first: kernel, a, a, the marker */
	struct pk_profile_sample s;
	assert_int_equal(pk_profile__sample(p, 4, &s), 0);
	uint32_t fr[8];
	assert_int_equal(pk_profile__stack_frames(p, s.stack, fr, 8), 4);
	struct pk_profile_frame f;
	assert_int_equal(pk_profile__frame(p, fr[0], &f), 0);
	assert_int_equal(f.kind, PK_FRAME_KERNEL);
	assert_string_equal(f.dso, "[kernel.kallsyms]");
	assert_int_equal(pk_profile__frame(p, fr[3], &f), 0);
	assert_string_equal(f.name, "session_marker_fn");
	assert_string_equal(f.dso, self);
	struct pk_profile_thread th;
	assert_int_equal(pk_profile__thread(p, s.thread, &th), 0);
	assert_string_equal(th.comm, "child");
	assert_int_equal(th.tid, 201);
	/*
	 * sample 5: its chain was discarded; sample 0: an empty chain recorded.
	 * perf script prints no frame for either, nor does the profile get one.
	 */
	assert_int_equal(pk_profile__sample(p, 5, &s), 0);
	assert_int_equal(s.stack, 0);
	assert_int_equal(pk_profile__sample(p, 0, &s), 0);
	assert_int_equal(pk_profile__stack_depth(p, s.stack), 0);
	pk_profile__free(p);
	close_run(&r);
}

/* session_marker_fn's rip (perf's file-offset space) from the symbolizer itself */
static int find_marker(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	struct pk_symbolizer *sym;
	struct pk_symbolizer_opts so = { .sz = sizeof(so) };
	struct pk_error err = { 0 };
	if (pk_symbolizer__new(&sym, &so, &err))
		return -1;
	struct pk_dso *d = pk_symbolizer__dso(sym, self, NULL, 0);
	for (size_t i = 0; d && i < pk_dso__nr_syms(d); i++)
		if (!strcmp(pk_dso__sym(d, i)->name, "session_marker_fn"))
			marker_rip = pk_dso__sym(d, i)->start;
	pk_symbolizer__free(sym);
	return marker_rip ? 0 : -1;
}

int main(void)
{
	(void)session_marker_fn(1);
	if (find_marker()) {
		fprintf(stderr, "test_session: no symbol for session_marker_fn in %s\n", self);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_pipe_threads),
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_max_stack),
		cmocka_unit_test(test_srclines),
		cmocka_unit_test(test_prefetch_srcline),
		cmocka_unit_test(test_task_seen),
		cmocka_unit_test(test_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
