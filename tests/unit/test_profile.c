/* SPDX-License-Identifier: MIT */
/*
 * test_profile.c — the in-memory profile (pmukit/profile.h): events, frames
 * interned on every field, stacks as a tree of shared prefixes, threads,
 * samples with per-event values, totals, the wall-clock reference, errors, and
 * a few hundred thousand samples interning to the expected number of stacks,
 * and samples reading back as added through the compact storage's switches.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/profile.h>

static struct pk_profile *new_profile(void)
{
	struct pk_profile *p = NULL;
	assert_int_equal(pk_profile__new(&p), 0);
	assert_non_null(p);
	return p;
}

static void test_events(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	struct pk_profile_event ev;
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock",
		.unit = "nanoseconds", .period = 250000 }), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cycles:u",
		.freq = 4000, .weight_unit = "cycles" }), 1);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "" }), -EINVAL);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = NULL }), -EINVAL);
	assert_int_equal(pk_profile__nr_events(p), 2);
	assert_int_equal(pk_profile__event(p, 1, &ev), 0);
	assert_string_equal(ev.name, "cycles:u");
	assert_string_equal(ev.unit, "count");		/* the default unit */
	assert_string_equal(ev.weight_unit, "cycles");
	assert_int_equal(ev.freq, 4000);
	assert_int_equal(pk_profile__event(p, 0, &ev), 0);
	assert_string_equal(ev.unit, "nanoseconds");
	assert_null(ev.weight_unit);
	assert_int_equal(ev.period, 250000);
	assert_int_equal(pk_profile__event(p, 2, &ev), -EINVAL);
	assert_int_equal(pk_profile__find_event(p, "cycles:u"), 1);
	assert_int_equal(pk_profile__find_event(p, "cycles"), -1);

	/* no new event once samples exist: every sample has one value per event */
	uint32_t t;
	assert_int_equal(pk_profile__intern_thread(p, 1, 1, "x", &t), 0);
	assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .thread = t }), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "late" }), -EBUSY);
	pk_profile__free(p);
}

static void test_frames(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	char name[32] = "compute";
	struct pk_profile_frame base = { .name = name, .dso = "/usr/bin/app", .file = "a.c", .line = 7,
					 .addr = 0x1234 };
	uint32_t a, b, c;
	assert_int_equal(pk_profile__intern_frame(p, &base, &a), 0);
	strcpy(name, "changed");	/* the profile keeps its own copy */
	struct pk_profile_frame f;
	assert_int_equal(pk_profile__frame(p, a, &f), 0);
	assert_string_equal(f.name, "compute");
	assert_string_equal(f.dso, "/usr/bin/app");
	assert_string_equal(f.file, "a.c");
	assert_int_equal(f.line, 7);
	assert_int_equal(f.addr, 0x1234);
	assert_false(f.inlined);
	assert_int_equal(f.kind, PK_FRAME_USER);
	strcpy(name, "compute");
	assert_int_equal(pk_profile__intern_frame(p, &base, &b), 0);
	assert_int_equal(a, b);

	/* every field takes part */
	struct pk_profile_frame v[7];
	for (int i = 0; i < 7; i++)
		v[i] = base;
	v[0].name = "other";
	v[1].dso = "/lib/x.so";
	v[2].file = "b.c";
	v[3].line = 8;
	v[4].inlined = true;
	v[5].kind = PK_FRAME_KERNEL;
	v[6].addr = 0x1235;
	uint32_t ids[7];
	for (int i = 0; i < 7; i++) {
		assert_int_equal(pk_profile__intern_frame(p, &v[i], &ids[i]), 0);
		assert_int_not_equal(ids[i], a);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(ids[i], ids[j]);
	}
	assert_int_equal(pk_profile__nr_frames(p), 8);

	/* unknown names and dsos: NULL and "" are the same */
	assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){ .addr = 9 }, &b), 0);
	assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "", .dso = "",
		.addr = 9 }, &c), 0);
	assert_int_equal(b, c);
	assert_int_equal(pk_profile__frame(p, b, &f), 0);
	assert_null(f.name);
	assert_null(f.dso);
	assert_null(f.file);

	assert_int_equal(pk_profile__frame(p, 1000, &f), -EINVAL);
	assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){ .kind = 7 }, &c), -EINVAL);
	pk_profile__free(p);
}

static void test_stacks(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	uint32_t f[5];
	for (int i = 0; i < 5; i++) {
		char n[8];
		snprintf(n, sizeof(n), "f%d", i);
		assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = n }, &f[i]), 0);
	}
	assert_int_equal(pk_profile__nr_stacks(p), 1);	/* the empty stack */
	uint32_t s0, s1, s2, s3, pushed;
	assert_int_equal(pk_profile__intern_stack(p, NULL, 0, &s0), 0);
	assert_int_equal(s0, 0);
	assert_int_equal(pk_profile__stack_depth(p, 0), 0);
	/* leaf first: f2 <- f1 <- f0 and f3 <- f1 <- f0 share f0 -> f1 */
	assert_int_equal(pk_profile__intern_stack(p, (uint32_t[]){ f[2], f[1], f[0] }, 3, &s1), 0);
	assert_int_equal(pk_profile__intern_stack(p, (uint32_t[]){ f[3], f[1], f[0] }, 3, &s2), 0);
	assert_int_not_equal(s1, s2);
	assert_int_equal(pk_profile__stack_parent(p, s1), pk_profile__stack_parent(p, s2));
	assert_int_equal(pk_profile__nr_stacks(p), 5);	/* root, f0, f0f1, +f2, +f3 */
	assert_int_equal(pk_profile__stack_depth(p, s1), 3);
	assert_int_equal(pk_profile__stack_frame(p, s1), f[2]);
	assert_int_equal(pk_profile__stack_frame(p, s2), f[3]);
	uint32_t mid = pk_profile__stack_parent(p, s1);
	assert_int_equal(pk_profile__stack_frame(p, mid), f[1]);
	assert_int_equal(pk_profile__stack_depth(p, mid), 2);
	assert_true(mid < s1);		/* callers come first */
	uint32_t buf[8];
	assert_int_equal(pk_profile__stack_frames(p, s1, buf, 8), 3);
	assert_int_equal(buf[0], f[2]);
	assert_int_equal(buf[1], f[1]);
	assert_int_equal(buf[2], f[0]);
	assert_int_equal(pk_profile__stack_frames(p, s1, buf, 1), 3);	/* the depth, buf[0] only */
	/* the same stack again, and built root first */
	assert_int_equal(pk_profile__intern_stack(p, (uint32_t[]){ f[2], f[1], f[0] }, 3, &s3), 0);
	assert_int_equal(s3, s1);
	assert_int_equal(pk_profile__stack_push(p, 0, f[0], &pushed), 0);
	assert_int_equal(pk_profile__stack_push(p, pushed, f[1], &pushed), 0);
	assert_int_equal(pk_profile__stack_push(p, pushed, f[2], &pushed), 0);
	assert_int_equal(pushed, s1);
	/* recursion: the same frame at several depths */
	assert_int_equal(pk_profile__intern_stack(p, (uint32_t[]){ f[4], f[4], f[4] }, 3, &s3), 0);
	assert_int_equal(pk_profile__stack_depth(p, s3), 3);
	assert_int_equal(pk_profile__stack_push(p, 999, f[0], &pushed), -EINVAL);
	assert_int_equal(pk_profile__stack_push(p, 0, 999, &pushed), -EINVAL);
	assert_int_equal(pk_profile__intern_stack(p, (uint32_t[]){ 999 }, 1, &s3), -EINVAL);
	pk_profile__free(p);
}

static void test_threads_samples(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "a" }), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "b" }), 1);
	uint32_t t1, t2, t3, f, s;
	assert_int_equal(pk_profile__intern_thread(p, 10, 11, "worker", &t1), 0);
	assert_int_equal(pk_profile__intern_thread(p, 10, 11, "worker", &t2), 0);
	assert_int_equal(t1, t2);
	assert_int_equal(pk_profile__intern_thread(p, 10, 11, "renamed", &t3), 0);	/* after exec */
	assert_int_not_equal(t1, t3);
	struct pk_profile_thread th;
	assert_int_equal(pk_profile__thread(p, t3, &th), 0);
	assert_int_equal(th.pid, 10);
	assert_int_equal(th.tid, 11);
	assert_string_equal(th.comm, "renamed");
	assert_int_equal(pk_profile__thread(p, 77, &th), -EINVAL);

	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "x" }, &f);
	pk_profile__intern_stack(p, &f, 1, &s);
	assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s,
		.thread = t1, .cpu = 3, .event = 1, .time = 500, .period = 40, .weight = 7 }), 0);
	/* a group read: values for both events */
	assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s,
		.thread = t3, .cpu = -1, .event = 0, .time = 400, .period = 999,
		.values = (struct pk_profile_value[]){ { 5, 1 }, { 6, 2 } } }), 0);
	assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = 99, .thread = t1 }), -EINVAL);
	assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .thread = 99 }), -EINVAL);
	assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .thread = t1, .event = 2 }), -EINVAL);
	assert_int_equal(pk_profile__nr_samples(p), 2);

	struct pk_profile_sample got;
	assert_int_equal(pk_profile__sample(p, 0, &got), 0);
	assert_int_equal(got.stack, s);
	assert_int_equal(got.thread, t1);
	assert_int_equal(got.cpu, 3);
	assert_int_equal(got.event, 1);
	assert_int_equal(got.time, 500);
	assert_int_equal(got.period, 40);
	assert_int_equal(got.weight, 7);
	assert_int_equal(got.values[0].count, 0);
	assert_int_equal(got.values[1].count, 40);
	assert_int_equal(got.values[1].weight, 7);
	assert_int_equal(pk_profile__sample(p, 1, &got), 0);
	assert_int_equal(got.cpu, -1);
	assert_int_equal(got.period, 5);	/* values win over .period */
	assert_int_equal(got.values[1].count, 6);
	assert_int_equal(pk_profile__sample(p, 2, &got), -EINVAL);

	struct pk_profile_total tot;
	assert_int_equal(pk_profile__total(p, 0, &tot), 0);
	assert_int_equal(tot.samples, 1);
	assert_int_equal(tot.count, 5);
	assert_int_equal(tot.weight, 1);
	assert_int_equal(pk_profile__total(p, 1, &tot), 0);
	assert_int_equal(tot.samples, 1);
	assert_int_equal(tot.count, 46);
	assert_int_equal(tot.weight, 9);
	assert_int_equal(pk_profile__total(p, 2, &tot), -EINVAL);
	pk_profile__free(p);
}

static void test_clock(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	assert_int_equal(pk_profile__wall_time(p, 100), 0);	/* no reference: unknown */
	pk_profile__set_clock(p, 1000, 1700000000000000000ull);
	assert_int_equal(pk_profile__wall_time(p, 1500), 1700000000000000500ull);
	assert_int_equal(pk_profile__wall_time(p, 900), 1699999999999999900ull);
	pk_profile__free(p);
}

/* 300k samples over 1000 stacks of depth 20 built from 100 functions */
static void test_many(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "e" }), 0);
	uint32_t f[100], t, st[20], s;
	for (int i = 0; i < 100; i++) {
		char n[16];
		snprintf(n, sizeof(n), "fn%d", i);
		assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = n,
			.dso = "/bin/x", .addr = 0x1000u + (unsigned)i }, &f[i]), 0);
	}
	assert_int_equal(pk_profile__intern_thread(p, 1, 1, "x", &t), 0);
	for (uint32_t i = 0; i < 300000; i++) {
		uint32_t k = i % 1000;
		for (int d = 0; d < 20; d++)	/* stacks k share their outer 10 frames with k % 10 */
			st[d] = d >= 10 ? f[(k % 10 + (uint32_t)d) % 100] : f[(k * 7 + (uint32_t)d) % 100];
		assert_int_equal(pk_profile__intern_stack(p, st, 20, &s), 0);
		assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s,
			.thread = t, .time = i, .period = 1 }), 0);
	}
	assert_int_equal(pk_profile__nr_samples(p), 300000);
	/* 10 shared outer parts of 10 nodes, then per stack k its own inner 10 nodes */
	assert_true(pk_profile__nr_stacks(p) <= 1 + 10 * 10 + 1000 * 10);
	struct pk_profile_total tot;
	assert_int_equal(pk_profile__total(p, 0, &tot), 0);
	assert_int_equal(tot.samples, 300000);
	pk_profile__free(p);
}

/*
 * Samples are stored compactly (shared records, 16-bit time steps, 32-bit or full
 * times in the blocks where those do not fit, period and value columns added when
 * first needed): every sample reads back as it was added across those switches:
 * times stepping by more than 16 bits, jumping by more than 32 and going back
 * within a block, a period changing after thousands of equal ones, a weight and
 * then group values arriving late, threads, cpus and events alternating, more
 * than 65536 distinct records (the ids outgrow 16 bits in a chunk, and later
 * chunks start with 32).
 */
static void test_compact_samples(void **state)
{
	(void)state;
	struct pk_profile *p = new_profile();
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "a" }), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "b" }), 1);
	uint32_t fr, st, th[3];
	assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "f" }, &fr), 0);
	assert_int_equal(pk_profile__intern_stack(p, &fr, 1, &st), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pk_profile__intern_thread(p, 10, 10 + i, "t", &th[i]), 0);
	enum { N = 90000 };
	static struct pk_profile_sample want[N];
	static struct pk_profile_value vals[N][2];
	uint64_t t = 1000;
	for (size_t i = 0; i < N; i++) {
		t += i == 1500 ? (1ull << 33) : i == 1600 ? (uint64_t)-(1ll << 34) :
		     i % 100 == 50 ? 100000 : 10000 + i % 7;
		struct pk_profile_sample *s = &want[i];
		*s = (struct pk_profile_sample){ .stack = i % 5 ? st : 0, .thread = th[i % 3],
			.cpu = i < 2000 ? (int32_t)(i % 4) - 1 : (int32_t)i, .event = (uint32_t)(i % 11 == 0), .time = t,
			.period = i < 3000 ? 100 : 100 + i % 3, .weight = i >= 4000 && i % 2 ? i : 0 };
		if (i >= 4500) {
			vals[i][0] = (struct pk_profile_value){ i, 1 };
			vals[i][1] = (struct pk_profile_value){ 2 * i, 0 };
			s->values = vals[i];
		}
		assert_int_equal(pk_profile__add_sample(p, s), 0);
	}
	assert_int_equal(pk_profile__nr_samples(p), N);
	struct pk_profile_total tot[2] = { 0 };
	for (size_t i = 0; i < N; i++) {
		const struct pk_profile_sample *w = &want[i];
		struct pk_profile_sample got;
		assert_int_equal(pk_profile__sample(p, i, &got), 0);
		assert_int_equal(got.stack, w->stack);
		assert_int_equal(got.thread, w->thread);
		assert_int_equal(got.cpu, w->cpu);
		assert_int_equal(got.event, w->event);
		assert_true(got.time == w->time);
		assert_non_null(got.values);
		for (uint32_t e = 0; e < 2; e++) {
			struct pk_profile_value v = w->values ? w->values[e] :
				e == w->event ? (struct pk_profile_value){ w->period, w->weight } :
				(struct pk_profile_value){ 0, 0 };
			assert_true(got.values[e].count == v.count);
			assert_true(got.values[e].weight == v.weight);
			tot[e].samples += w->event == e;
			tot[e].count += v.count;
			tot[e].weight += v.weight;
		}
		assert_true(got.period == got.values[w->event].count);
		assert_true(got.weight == got.values[w->event].weight);
	}
	for (size_t e = 0; e < 2; e++) {
		struct pk_profile_total t2;
		assert_int_equal(pk_profile__total(p, e, &t2), 0);
		assert_true(t2.samples == tot[e].samples && t2.count == tot[e].count &&
			    t2.weight == tot[e].weight);
	}
	pk_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_threads_samples),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_compact_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
