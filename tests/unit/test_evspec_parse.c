/* SPDX-License-Identifier: MIT */
/*
 * test_evspec_parse.c — the event spec parser (lib/evspec/parse.c, lex.c): every
 * grammar form with its exact tree (kinds, names, numbers, modifier flags,
 * positions), every modifier letter, exact error offsets and messages, the
 * caret formatter, name suggestions, and robustness on hostile input.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/spec.h>

#include "evspec/ast.h"
#include "evspec/suggest.h"
#include "util/edit_distance.h"

/* ---- helpers ---- */

static struct spec_ast ast;

static int teardown(void **state)
{
	(void)state;
	spec_ast__free(&ast);
	return 0;
}

/* Parse s (must succeed) and return event ev of group g. */
static const struct spec_event *ok_at(const char *s, size_t g, size_t ev)
{
	struct pk_spec_error err;
	spec_ast__free(&ast);
	int rc = spec_parse(s, &ast, &err);
	if (rc)
		fail_msg("'%s': off %u: %s (%s)", s, err.off, err.msg, err.hint);
	assert_int_equal(err.code, 0);
	assert_true(g < ast.nr_groups);
	assert_true(ev < ast.groups[g].nr_events);
	return &ast.groups[g].events[ev];
}

/* Parse s, which must be a single lone event. */
static const struct spec_event *ok1(const char *s)
{
	const struct spec_event *e = ok_at(s, 0, 0);
	assert_int_equal(ast.nr_groups, 1);
	assert_false(ast.groups[0].braced);
	assert_int_equal(ast.groups[0].nr_events, 1);
	return e;
}

#define POS(p, o, l)                          \
	do {                                  \
		assert_int_equal((p).off, (o)); \
		assert_int_equal((p).len, (l)); \
	} while (0)

/* The modifier letters set, in the order ukhGHIPSDWebR, then 'p' x precise. */
static const char *mods_str(const struct spec_mods *m)
{
	static char buf[32];
	char *b = buf;
	const struct {
		bool v;
		char c;
	} f[] = { { m->u, 'u' }, { m->k, 'k' }, { m->h, 'h' }, { m->G, 'G' }, { m->H, 'H' },
		  { m->I, 'I' }, { m->P, 'P' }, { m->S, 'S' }, { m->D, 'D' }, { m->W, 'W' },
		  { m->e, 'e' }, { m->b, 'b' }, { m->R, 'R' } };
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i].v)
			*b++ = f[i].c;
	for (int i = 0; i < m->precise; i++)
		*b++ = 'p';
	*b = '\0';
	return buf;
}

struct bad {
	const char *spec;
	unsigned off, len;
	const char *msg;
	const char *hint;	/* NULL: not checked; "" none */
};

static void expect_bad(const struct bad *b)
{
	struct pk_spec_error err;
	struct spec_ast a;
	int rc = spec_parse(b->spec, &a, &err);
	if (rc == 0)
		fail_msg("'%s' parsed, expected \"%s\"", b->spec, b->msg);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(err.code, -EINVAL);
	if (strcmp(err.msg, b->msg) || err.off != b->off || err.len != b->len)
		fail_msg("'%s': got off %u len %u \"%s\", want off %u len %u \"%s\"", b->spec,
			 err.off, err.len, err.msg, b->off, b->len, b->msg);
	if (b->hint)
		assert_string_equal(err.hint, b->hint);
	assert_null(a.groups);	/* left empty */
	assert_int_equal(a.nr_groups, 0);
	assert_null(a.text);
}

/* ---- names and lists ---- */

static void test_names(void **state)
{
	(void)state;
	static const char *const names[] = {
		"cycles", "cpu-cycles", "L1-dcache-load-misses", "l1d.replacement",
		"inst_retired.any", "UNC_CHA_CLOCKTICKS", "cpu_core.x", "sys_enter_*", "a?b",
		"[ab]c", "fp_arith_inst_retired.128b_packed_double", "2x", "topdown-fe-bound",
		"a!b", "task-clock", "duration_time",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct spec_event *e = ok1(names[i]);
		unsigned n = (unsigned)strlen(names[i]);
		assert_int_equal(e->kind, SPEC_EV_NAME);
		assert_string_equal(e->name, names[i]);
		assert_false(e->name_quoted);
		assert_false(e->slash);
		assert_false(e->mods.present);
		assert_int_equal(e->nr_terms, 0);
		assert_null(e->terms);
		POS(e->pos, 0, n);
		POS(e->name_pos, 0, n);
		POS(ast.groups[0].pos, 0, n);
		assert_string_equal(ast.text, names[i]);
	}

	/* quoted names (perf's name_tag): quotes removed, never a tracepoint/raw/mem */
	const struct spec_event *e = ok1("'l1d.replacement'");
	assert_int_equal(e->kind, SPEC_EV_NAME);
	assert_string_equal(e->name, "l1d.replacement");
	assert_true(e->name_quoted);
	POS(e->name_pos, 0, 17);
	e = ok1("'r1a8'");
	assert_int_equal(e->kind, SPEC_EV_NAME);
	assert_string_equal(e->name, "r1a8");
	e = ok1("'a,b:c=d'");
	assert_string_equal(e->name, "a,b:c=d");
	e = ok1("'cpu'/event=1/");
	assert_int_equal(e->kind, SPEC_EV_SLASH);
	assert_string_equal(e->name, "cpu");
	assert_true(e->name_quoted);

	/* trailing ':' is accepted as perf does ("cycles:" names the event) */
	e = ok1("cycles:");
	assert_int_equal(e->kind, SPEC_EV_NAME);
	assert_false(e->mods.present);
	POS(e->pos, 0, 7);
}

static void test_lists(void **state)
{
	(void)state;
	ok_at("cycles,instructions,cache-misses", 0, 0);
	assert_int_equal(ast.nr_groups, 3);
	const char *want[] = { "cycles", "instructions", "cache-misses" };
	const unsigned off[] = { 0, 7, 20 };
	for (size_t i = 0; i < 3; i++) {
		const struct spec_group *g = &ast.groups[i];
		assert_false(g->braced);
		assert_null(g->name);
		assert_int_equal(g->nr_events, 1);
		assert_false(g->mods.present);
		assert_string_equal(g->events[0].name, want[i]);
		POS(g->pos, off[i], strlen(want[i]));
		POS(g->events[0].pos, off[i], strlen(want[i]));
	}

	/* blanks between tokens are skipped, as perf does */
	const struct spec_event *e = ok_at(" cycles ,\tinstructions:u \n", 1, 0);
	assert_int_equal(ast.nr_groups, 2);
	POS(ast.groups[0].events[0].pos, 1, 6);
	POS(e->pos, 10, 14);
	assert_string_equal(mods_str(&e->mods), "u");
	POS(e->mods.pos, 23, 1);
	e = ok1("cycles : u");
	assert_string_equal(mods_str(&e->mods), "u");
	POS(e->pos, 0, 10);
	e = ok1("cpu/ event = 0x3c , umask=1 / k");
	assert_int_equal(e->nr_terms, 2);
	assert_string_equal(e->terms[0].name, "event");
	assert_int_equal(e->terms[0].num, 0x3c);
	POS(e->terms[0].pos, 5, 12);
	POS(e->terms[0].val_pos, 13, 4);
	assert_string_equal(mods_str(&e->mods), "k");

	/* 10000 events */
	size_t n = 10000;
	char *big = malloc(n * 2);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		memcpy(big + 2 * i, "a,", 2);
	big[2 * n - 1] = '\0';
	ok_at(big, n - 1, 0);
	assert_int_equal(ast.nr_groups, n);
	POS(ast.groups[n - 1].pos, 2 * n - 2, 1);
	free(big);
}

static void test_groups(void **state)
{
	(void)state;
	ok_at("{cycles,instructions}", 0, 1);
	const struct spec_group *g = &ast.groups[0];
	assert_int_equal(ast.nr_groups, 1);
	assert_true(g->braced);
	assert_null(g->name);
	assert_int_equal(g->nr_events, 2);
	assert_false(g->mods.present);
	POS(g->pos, 0, 21);
	POS(g->events[0].pos, 1, 6);
	POS(g->events[1].pos, 8, 12);

	ok_at("{cycles,instructions}:S", 0, 0);
	g = &ast.groups[0];
	assert_true(g->mods.present);
	assert_string_equal(mods_str(&g->mods), "S");
	POS(g->mods.pos, 22, 1);
	POS(g->pos, 0, 23);
	assert_false(g->events[0].mods.present);

	ok_at("{cycles:k,cpu/event=0x3c/}:u", 0, 0);
	g = &ast.groups[0];
	assert_string_equal(mods_str(&g->mods), "u");
	assert_string_equal(mods_str(&g->events[0].mods), "k");
	assert_int_equal(g->events[1].kind, SPEC_EV_SLASH);

	/* a single-event group stays braced; mixed lists */
	ok_at("a,{b}:W,c,{d,e}", 3, 1);
	assert_int_equal(ast.nr_groups, 4);
	assert_false(ast.groups[0].braced);
	assert_true(ast.groups[1].braced);
	assert_int_equal(ast.groups[1].nr_events, 1);
	assert_string_equal(mods_str(&ast.groups[1].mods), "W");
	POS(ast.groups[1].pos, 2, 5);
	assert_false(ast.groups[2].braced);
	assert_string_equal(ast.groups[3].events[1].name, "e");

	/* perf's named groups: NAME{...} */
	ok_at("mygroup{cycles,instructions}:u", 0, 0);
	g = &ast.groups[0];
	assert_string_equal(g->name, "mygroup");
	POS(g->name_pos, 0, 7);
	POS(g->pos, 0, 30);
	assert_int_equal(g->nr_events, 2);
	ok_at("'my group'{cycles}", 0, 0);
	assert_string_equal(ast.groups[0].name, "my group");
	POS(ast.groups[0].name_pos, 0, 10);
}

/* ---- modifiers ---- */

static void test_modifiers(void **state)
{
	(void)state;
	const char *letters = "ukhGHIPSDWebR";
	char spec[32], one[2] = { 0 };
	for (const char *c = letters; *c; c++) {
		snprintf(spec, sizeof(spec), "cycles:%c", *c);
		const struct spec_event *e = ok1(spec);
		one[0] = *c;
		assert_true(e->mods.present);
		assert_string_equal(mods_str(&e->mods), one);
		assert_int_equal(e->mods.precise, 0);
		POS(e->mods.pos, 7, 1);
		POS(e->pos, 0, 8);
		/* same letter after a slash form and on a group */
		snprintf(spec, sizeof(spec), "cpu/event=1/%c", *c);
		assert_string_equal(mods_str(&ok1(spec)->mods), one);
		snprintf(spec, sizeof(spec), "{a,b}:%c", *c);
		ok_at(spec, 0, 0);
		assert_string_equal(mods_str(&ast.groups[0].mods), one);
	}
	static const struct {
		const char *spec, *mods;
		int precise;
	} combos[] = {
		{ "cycles:p", "p", 1 },	    { "cycles:pp", "pp", 2 },  { "cycles:ppp", "ppp", 3 },
		{ "cycles:upp", "upp", 2 }, { "cycles:ukR", "ukR", 0 }, { "cycles:pup", "upp", 2 },
		{ "cycles:ukhGHIPSDWebR", "ukhGHIPSDWebR", 0 },
		{ "cycles:Pu", "uP", 0 },   { "instructions:kppp", "kppp", 3 },
	};
	for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
		const struct spec_event *e = ok1(combos[i].spec);
		assert_string_equal(mods_str(&e->mods), combos[i].mods);
		assert_int_equal(e->mods.precise, combos[i].precise);
		POS(e->mods.pos, 7 + (combos[i].spec[0] == 'i') * 6,
		    strlen(combos[i].spec) - 7 - (combos[i].spec[0] == 'i') * 6);
	}
	/* the modifier rule: a suffix made only of modifier letters is a modifier */
	const struct spec_event *e = ok1("sched:S");
	assert_int_equal(e->kind, SPEC_EV_NAME);
	assert_string_equal(e->name, "sched");
	assert_string_equal(mods_str(&e->mods), "S");
	e = ok1("l1d.replacement:ub");
	assert_int_equal(e->kind, SPEC_EV_NAME);
	assert_string_equal(mods_str(&e->mods), "ub");
	/* after the closing '/', with or without ':' */
	e = ok1("cpu/event=1/:k");
	assert_string_equal(mods_str(&e->mods), "k");
	POS(e->mods.pos, 13, 1);
	e = ok1("cpu/event=1/ uk");
	assert_string_equal(mods_str(&e->mods), "uk");
}

static void test_modifier_errors(void **state)
{
	(void)state;
	static const char *const mh = "valid modifiers: u k h I G H p pp ppp P S D W e b R";
	const struct bad bad[] = {
		{ "cycles:q", 7, 1, "unknown modifier 'q'", mh },
		{ "cycles:uq", 8, 1, "unknown modifier 'q'", mh },
		{ "cycles:ukx", 9, 1, "unknown modifier 'x'", mh },
		{ "task-clock:sched_switch", 11, 1, "unknown modifier 's'", mh },
		{ "L1-dcache-loads:u.k", 17, 1, "unexpected '.' in modifiers", mh },
		{ "cycles:pppp", 10, 1, "too many 'p' modifiers", "at most 3: ppp" },
		{ "cycles:uu", 8, 1, "duplicate modifier 'u'", "" },
		{ "cycles:ukk", 9, 1, "duplicate modifier 'k'", "" },
		{ "cycles:RR", 8, 1, "duplicate modifier 'R'", "" },
		{ "cycles:'u'", 7, 3, "expected modifiers after ':'", mh },
		{ "cycles:/x/", 7, 1, "expected modifiers after ':'", mh },
		{ "cycles:u:k", 8, 1, "expected ',' or end after event", "" },
		{ "cycles:u/period=1/", 8, 1, "expected ',' or end after event", "" },
		{ "cpu/event=1/q", 12, 1, "unknown modifier 'q'", mh },
		{ "{a,b}:", 6, 1, "expected modifiers after ':'", mh },
		{ "{a,b}:q", 6, 1, "unknown modifier 'q'", mh },
		{ "{a,b}:uu", 7, 1, "duplicate modifier 'u'", "" },
		{ "{a,b}u", 5, 1, "expected ',' or end after group",
		  "group modifiers follow ':', as in {a,b}:u" },
		{ "cycles u", 7, 1, "expected ',' or end after event",
		  "modifiers follow ':', as in cycles:u" },
		{ "{cycles u}", 8, 1, "expected ',' or '}' after event",
		  "modifiers follow ':', as in cycles:u" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
	/* a trailing ':' after a slash form is accepted like after other events */
	assert_false(ok1("cpu/event=1/:")->mods.present);
}

/* ---- raw and numeric ---- */

static void test_raw(void **state)
{
	(void)state;
	const struct spec_event *e = ok1("r1a8");
	assert_int_equal(e->kind, SPEC_EV_RAW);
	assert_int_equal(e->raw, 0x1a8);
	assert_string_equal(e->name, "r1a8");
	POS(e->name_pos, 0, 4);
	e = ok1("r1A8:u");
	assert_int_equal(e->raw, 0x1a8);
	assert_string_equal(mods_str(&e->mods), "u");
	POS(e->pos, 0, 6);
	e = ok1("rFFFFFFFFFFFFFFFF");
	assert_true(e->raw == UINT64_MAX);
	e = ok1("r0000000000000000001");	/* leading zeros do not count */
	assert_int_equal(e->raw, 1);
	e = ok1("r1a8/period=1000/upp");
	assert_int_equal(e->kind, SPEC_EV_RAW);
	assert_true(e->slash);
	assert_int_equal(e->nr_terms, 1);
	assert_int_equal(e->terms[0].num, 1000);
	assert_string_equal(mods_str(&e->mods), "upp");
	e = ok1("r1a8//:k");
	assert_true(e->slash);
	assert_int_equal(e->nr_terms, 0);
	/* any r + hex word is raw, as in perf's lexer ("read" = 0xead) */
	e = ok1("read");
	assert_int_equal(e->kind, SPEC_EV_RAW);
	assert_int_equal(e->raw, 0xead);
	/* not hex: a name */
	assert_int_equal(ok1("rxy")->kind, SPEC_EV_NAME);
	assert_int_equal(ok1("r")->kind, SPEC_EV_NAME);
	assert_int_equal(ok1("r1a8x")->kind, SPEC_EV_NAME);
	assert_int_equal(ok1("r0x")->kind, SPEC_EV_NAME);

	const struct bad bad[] = {
		{ "r0x1a8", 0, 6, "raw events are written rNNN, in hex without 0x",
		  "did you mean 'r1a8'?" },
		{ "r10000000000000000", 0, 18, "raw config too large for 64 bits", "" },
		/* after a raw event only modifiers may follow ':' (perf: parser error) */
		{ "r1a8:x", 5, 1, "unknown modifier 'x'", NULL },
		{ "r1a8:sched", 5, 1, "unknown modifier 's'", NULL },
		{ "r1a8 u", 5, 1, "expected ',' or end after event",
		  "modifiers follow ':', as in cycles:u" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
}

static void test_numeric(void **state)
{
	(void)state;
	const struct spec_event *e = ok1("1:1");
	assert_int_equal(e->kind, SPEC_EV_NUMERIC);
	assert_int_equal(e->numeric_type, 1);
	assert_int_equal(e->raw, 1);
	assert_null(e->name);
	POS(e->name_pos, 0, 1);
	POS(e->arg_pos, 2, 1);
	POS(e->pos, 0, 3);
	e = ok1("0x4:0x3c");
	assert_int_equal(e->numeric_type, 4);
	assert_int_equal(e->raw, 0x3c);
	POS(e->arg_pos, 4, 4);
	e = ok1("1:1:u");
	assert_string_equal(mods_str(&e->mods), "u");
	POS(e->pos, 0, 5);
	e = ok1("4294967295:18446744073709551615/period=1/k");
	assert_true(e->numeric_type == UINT32_MAX);
	assert_true(e->raw == UINT64_MAX);
	assert_int_equal(e->nr_terms, 1);
	assert_string_equal(mods_str(&e->mods), "k");

	const struct bad bad[] = {
		{ "1", 0, 1, "a number alone is not an event",
		  "numeric events are TYPE:CONFIG (1:1), raw ones rNNN" },
		{ "0x1a8,cycles", 0, 5, "a number alone is not an event", NULL },
		{ "1:", 2, 1, "expected a config number after ':'", "a decimal or 0x hex number" },
		{ "1:x", 2, 1, "expected a config number after ':'", NULL },
		{ "1:0x", 2, 2, "expected a config number after ':'", NULL },
		{ "4294967296:1", 0, 10, "event type too large for 32 bits", "" },
		{ "1:18446744073709551616", 2, 20, "a config number after ':' too large for 64 bits",
		  "" },
		{ "18446744073709551616", 0, 20, "number too large for 64 bits", "" },
		{ "1:1:q", 4, 1, "unknown modifier 'q'", NULL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
}

/* ---- slash forms and terms ---- */

struct want_term {
	const char *name;
	enum spec_term_kind kind;
	uint64_t num;
	const char *str;	/* NULL: must be NULL */
	bool is_float, quoted;
	double fnum;
};

static void check_terms(const char *spec, const char *name, const struct want_term *w, size_t n)
{
	const struct spec_event *e = ok1(spec);
	assert_int_equal(e->kind, SPEC_EV_SLASH);
	assert_true(e->slash);
	assert_string_equal(e->name, name);
	if (e->nr_terms != n)
		fail_msg("'%s': %zu terms, want %zu", spec, e->nr_terms, n);
	for (size_t i = 0; i < n; i++) {
		const struct spec_term *t = &e->terms[i];
		assert_string_equal(t->name, w[i].name);
		assert_int_equal(t->kind, w[i].kind);
		assert_true(t->num == w[i].num);
		if (w[i].str)
			assert_string_equal(t->str, w[i].str);
		else
			assert_null(t->str);
		assert_int_equal(t->is_float, w[i].is_float);
		assert_int_equal(t->quoted, w[i].quoted);
		if (w[i].is_float)
			assert_true(t->fnum == w[i].fnum);
		/* positions: the term's text starts with its name */
		assert_true(t->pos.off + t->pos.len <= strlen(spec));
		assert_true(t->val_pos.off >= t->pos.off);
		assert_true(t->val_pos.off + t->val_pos.len <= t->pos.off + t->pos.len);
	}
}

#define T(n, k, v, s) { .name = n, .kind = k, .num = v, .str = s }
#define TQ(n, k, v, s) { .name = n, .kind = k, .num = v, .str = s, .quoted = true }
#define TF(n, v, s, f) { .name = n, .kind = SPEC_TERM_NUM, .num = v, .str = s, .is_float = true, .fnum = f }
#define CHECK_TERMS(spec, name, ...)                                               \
	do {                                                                       \
		const struct want_term w_[] = { __VA_ARGS__ };                     \
		check_terms(spec, name, w_, sizeof(w_) / sizeof(w_[0]));           \
	} while (0)

static void test_slash_terms(void **state)
{
	(void)state;
	const struct spec_event *e = ok1("cpu/event=0x3c,umask=1/k");
	assert_int_equal(e->kind, SPEC_EV_SLASH);
	assert_string_equal(e->name, "cpu");
	POS(e->name_pos, 0, 3);
	POS(e->pos, 0, 24);
	assert_int_equal(e->nr_terms, 2);
	assert_string_equal(e->terms[0].name, "event");
	assert_int_equal(e->terms[0].kind, SPEC_TERM_NUM);
	assert_int_equal(e->terms[0].num, 0x3c);
	assert_string_equal(e->terms[0].str, "0x3c");
	POS(e->terms[0].pos, 4, 10);
	POS(e->terms[0].name_pos, 4, 5);
	POS(e->terms[0].val_pos, 10, 4);
	POS(e->terms[1].pos, 15, 7);
	POS(e->terms[1].val_pos, 21, 1);
	assert_string_equal(mods_str(&e->mods), "k");
	POS(e->mods.pos, 23, 1);

	CHECK_TERMS("cpu/event=0x3c/", "cpu", T("event", SPEC_TERM_NUM, 0x3c, "0x3c"));
	/* decimal, hex (0x and 0X), and leading zeros decimal as in perf */
	CHECK_TERMS("cpu/a=10,b=0x10,c=0X1f,d=010,e=0,f=18446744073709551615,g=0xffffffffffffffff/",
		    "cpu", T("a", SPEC_TERM_NUM, 10, "10"), T("b", SPEC_TERM_NUM, 16, "0x10"),
		    T("c", SPEC_TERM_NUM, 31, "0X1f"), T("d", SPEC_TERM_NUM, 10, "010"),
		    T("e", SPEC_TERM_NUM, 0, "0"),
		    T("f", SPEC_TERM_NUM, UINT64_MAX, "18446744073709551615"),
		    T("g", SPEC_TERM_NUM, UINT64_MAX, "0xffffffffffffffff"));
	/* flags, strings, quoted strings */
	CHECK_TERMS("cpu/event=1,edge,inv,name=foo,name='cycles',metric-id=foo/", "cpu",
		    T("event", SPEC_TERM_NUM, 1, "1"), T("edge", SPEC_TERM_FLAG, 1, NULL),
		    T("inv", SPEC_TERM_FLAG, 1, NULL), T("name", SPEC_TERM_STR, 0, "foo"),
		    TQ("name", SPEC_TERM_STR, 0, "cycles"),
		    T("metric-id", SPEC_TERM_STR, 0, "foo"));
	CHECK_TERMS("cpu/name='CPU_CLK_UNHALTED.THREAD:cmask=1,x',event='0x10'/", "cpu",
		    TQ("name", SPEC_TERM_STR, 0, "CPU_CLK_UNHALTED.THREAD:cmask=1,x"),
		    TQ("event", SPEC_TERM_STR, 0, "0x10"));
	/* perf's static terms: the parser keeps them generic */
	CHECK_TERMS("cpu/call-graph=dwarf,stack-size=8192,period=100000,freq=1000,config=0x1,"
		    "config1=2,config2=3,config3=4/",
		    "cpu", T("call-graph", SPEC_TERM_STR, 0, "dwarf"),
		    T("stack-size", SPEC_TERM_NUM, 8192, "8192"),
		    T("period", SPEC_TERM_NUM, 100000, "100000"),
		    T("freq", SPEC_TERM_NUM, 1000, "1000"), T("config", SPEC_TERM_NUM, 1, "0x1"),
		    T("config1", SPEC_TERM_NUM, 2, "2"), T("config2", SPEC_TERM_NUM, 3, "3"),
		    T("config3", SPEC_TERM_NUM, 4, "4"));
	CHECK_TERMS("cpu/call-graph=fp,inherit,no-inherit,percore,aux-output,aux-sample-size=4096,"
		    "max-stack=3,overwrite,no-overwrite,driver-config=abc/",
		    "cpu", T("call-graph", SPEC_TERM_STR, 0, "fp"),
		    T("inherit", SPEC_TERM_FLAG, 1, NULL), T("no-inherit", SPEC_TERM_FLAG, 1, NULL),
		    T("percore", SPEC_TERM_FLAG, 1, NULL), T("aux-output", SPEC_TERM_FLAG, 1, NULL),
		    T("aux-sample-size", SPEC_TERM_NUM, 4096, "4096"),
		    T("max-stack", SPEC_TERM_NUM, 3, "3"), T("overwrite", SPEC_TERM_FLAG, 1, NULL),
		    T("no-overwrite", SPEC_TERM_FLAG, 1, NULL),
		    T("driver-config", SPEC_TERM_STR, 0, "abc"));
	/* decimal fractions, ACR and thresholds */
	CHECK_TERMS("cpu/ratio-to-prev=0.5,r=12.25,acr_mask=0x3,percore=1/", "cpu",
		    TF("ratio-to-prev", 0, "0.5", 0.5),
		    TF("r", 12, "12.25", 12.25),
		    T("acr_mask", SPEC_TERM_NUM, 3, "0x3"), T("percore", SPEC_TERM_NUM, 1, "1"));
	CHECK_TERMS("stall_slot/threshold=2,threshold_compare=2,threshold_count/", "stall_slot",
		    T("threshold", SPEC_TERM_NUM, 2, "2"),
		    T("threshold_compare", SPEC_TERM_NUM, 2, "2"),
		    T("threshold_count", SPEC_TERM_FLAG, 1, NULL));
	/* an event alias as a term, and event names written as terms */
	CHECK_TERMS("cpu/l1d.replacement,period=100/", "cpu",
		    T("l1d.replacement", SPEC_TERM_FLAG, 1, NULL),
		    T("period", SPEC_TERM_NUM, 100, "100"));
	CHECK_TERMS("cpu_core/cycles,'topdown-fe-bound',L1-dcache-loads/", "cpu_core",
		    T("cycles", SPEC_TERM_FLAG, 1, NULL),
		    T("topdown-fe-bound", SPEC_TERM_FLAG, 1, NULL),
		    T("L1-dcache-loads", SPEC_TERM_FLAG, 1, NULL));
	/* raw terms: perf makes them the PMU event of that name or config=N */
	CHECK_TERMS("cpu/r1a8,r0x1A8,read/", "cpu", T("r1a8", SPEC_TERM_RAW, 0x1a8, "r1a8"),
		    T("r0x1A8", SPEC_TERM_RAW, 0x1a8, "r0x1A8"),
		    T("read", SPEC_TERM_RAW, 0xead, "read"));
	/* string values may hold ':' '.' '-' '*' as perf's term lexer allows */
	CHECK_TERMS("pmu/a=b:c.d-e*,c=r1a8/", "pmu", T("a", SPEC_TERM_STR, 0, "b:c.d-e*"),
		    T("c", SPEC_TERM_STR, 0, "r1a8"));
	/* perf's driver config terms */
	CHECK_TERMS("cs_etm/@sink0,@cfg2=config/", "cs_etm",
		    T("driver-config", SPEC_TERM_DRV_CFG, 0, "sink0"),
		    T("driver-config", SPEC_TERM_DRV_CFG, 0, "cfg2=config"));
	e = ok1("cs_etm/@sink0/");
	POS(e->terms[0].pos, 7, 6);
	POS(e->terms[0].val_pos, 8, 5);
	/* empty term lists, and slash forms of symbolic events */
	e = ok1("cpu//");
	assert_int_equal(e->kind, SPEC_EV_SLASH);
	assert_int_equal(e->nr_terms, 0);
	assert_true(e->slash);
	POS(e->pos, 0, 5);
	e = ok1("cycles//u");
	assert_int_equal(e->kind, SPEC_EV_SLASH);
	assert_string_equal(mods_str(&e->mods), "u");
	e = ok1("cycles/period=1000/");
	assert_int_equal(e->kind, SPEC_EV_SLASH);
	assert_string_equal(e->name, "cycles");
	/* quoted term names */
	CHECK_TERMS("cpu/'event'=1/", "cpu", T("event", SPEC_TERM_NUM, 1, "1"));
}

static void test_term_errors(void **state)
{
	(void)state;
	const struct bad bad[] = {
		{ "cpu/event=1", 3, 1, "unterminated term list", "close the terms with '/'" },
		{ "cpu/", 3, 1, "unterminated term list", NULL },
		{ "cpu/event=1,", 3, 1, "unterminated term list", NULL },
		{ "cpu/event=", 10, 1, "expected a value after '='", NULL },
		{ "cpu/event=/", 10, 1, "expected a value after '='", NULL },
		{ "cpu/event==1/", 10, 1, "expected a value after '='", NULL },
		{ "cpu/event=-1/", 10, 2, "expected a value after '='",
		  "numbers are decimal, 0x hex or 0.5" },
		{ "cpu/event=.5/", 10, 2, "expected a value after '='", NULL },
		{ "cpu/event=0x1g/", 10, 4, "invalid number '0x1g'",
		  "numbers are decimal, 0x hex or 0.5; quote names" },
		{ "cpu/name=1st/", 9, 3, "invalid number '1st'", NULL },
		{ "cpu/x=1./", 6, 2, "invalid number '1.'", NULL },
		{ "cpu/x=1.2.3/", 6, 5, "invalid number '1.2.3'", NULL },
		{ "cpu/event=18446744073709551616/", 10, 20, "term value too large for 64 bits", "" },
		{ "cpu/event=0x10000000000000000/", 10, 19, "term value too large for 64 bits", "" },
		{ "cpu/x=18446744073709551616.5/", 6, 22, "term value too large for 64 bits", "" },
		{ "cpu/r10000000000000000/", 4, 18, "raw config too large for 64 bits", "" },
		{ "cpu/event=1,/", 12, 1, "expected a term after ','", "" },
		{ "cpu/,/", 4, 1, "expected a term or the closing '/'", "" },
		{ "cpu/=1/", 4, 1, "expected a term or the closing '/'", "" },
		{ "cpu/1=2/", 4, 1, "expected a term name", "" },
		{ "cpu/.x/", 4, 2, "expected a term name", "" },
		{ "cpu/event 1/", 10, 1, "expected '=', ',' or '/' after term name", "" },
		{ "cpu/event=1 umask=2/", 12, 5, "expected ',' or '/' after term", "" },
		{ "cpu/event=1:u/", 10, 3, "invalid number '1:u'", NULL },
		{ "cpu/name=a b/", 11, 1, "expected ',' or '/' after term", "" },
		{ "cpu/event=1{/", 11, 1, "expected ',' or '/' after term", "" },
		{ "cpu/@/", 5, 1, "expected a driver config name after '@'", "" },
		{ "cpu/@ x/", 6, 1, "expected a driver config name after '@'", "" },
		{ "cpu/@x=/", 7, 1, "expected a value after '='", "" },
		{ "cpu/event=1/x", 12, 1, "unknown modifier 'x'", NULL },
		{ "cpu/event=1/,", 13, 1, "expected an event after ','", "" },
		{ "cpu/event=1//", 12, 1, "expected ',' or end after event", "" },
		{ "cpu/event=$/", 10, 1, "unexpected character '$'", "" },
		{ "cpu/event='x/", 10, 1, "unterminated quoted name", "close it with '" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
}

/* ---- breakpoints ---- */

static void test_breakpoints(void **state)
{
	(void)state;
	const struct spec_event *e = ok1("mem:0x1000");
	assert_int_equal(e->kind, SPEC_EV_BREAKPOINT);
	assert_string_equal(e->name, "mem");
	assert_int_equal(e->raw, 0x1000);
	assert_int_equal(e->bp_len, 0);
	assert_string_equal(e->bp_access, "");
	POS(e->name_pos, 0, 3);
	POS(e->arg_pos, 4, 6);
	POS(e->bp_len_pos, 0, 0);
	POS(e->bp_access_pos, 0, 0);
	POS(e->pos, 0, 10);
	assert_int_equal(ok1("mem:4096")->raw, 4096);

	e = ok1("mem:0x1000/8");
	assert_int_equal(e->bp_len, 8);
	POS(e->bp_len_pos, 11, 1);
	POS(e->pos, 0, 12);
	e = ok1("mem:0x1000:rw");
	assert_string_equal(e->bp_access, "rw");
	POS(e->bp_access_pos, 11, 2);
	e = ok1("mem:0x1000/4:x");
	assert_int_equal(e->bp_len, 4);
	assert_string_equal(e->bp_access, "x");
	POS(e->bp_access_pos, 13, 1);
	e = ok1("mem:0x1000:xwr");
	assert_string_equal(e->bp_access, "xwr");
	e = ok1("mem:0x1000:w:u");
	assert_string_equal(e->bp_access, "w");
	assert_string_equal(mods_str(&e->mods), "u");
	POS(e->mods.pos, 13, 1);
	POS(e->pos, 0, 14);
	/* perf also takes modifiers right after the access letters, or alone */
	e = ok1("mem:0x1000:rwuk");
	assert_string_equal(e->bp_access, "rw");
	POS(e->bp_access_pos, 11, 2);
	assert_string_equal(mods_str(&e->mods), "uk");
	POS(e->mods.pos, 13, 2);
	e = ok1("mem:0x1000:u");
	assert_string_equal(e->bp_access, "");
	assert_string_equal(mods_str(&e->mods), "u");
	e = ok1("mem:0x1000:");
	assert_false(e->mods.present);
	/* perf 6.12: terms after the address, length or access */
	e = ok1("mem:0x1000/8/period=1/");
	assert_int_equal(e->bp_len, 8);
	assert_true(e->slash);
	assert_int_equal(e->nr_terms, 1);
	assert_string_equal(e->terms[0].name, "period");
	e = ok1("mem:0x1000:rw/period=1/:u");
	assert_string_equal(e->bp_access, "rw");
	assert_int_equal(e->nr_terms, 1);
	assert_string_equal(mods_str(&e->mods), "u");
	e = ok1("mem:0x1000/name=x/");
	assert_int_equal(e->bp_len, 0);
	assert_int_equal(e->nr_terms, 1);
	ok_at("mem:0x1000:r,mem:0x2000/2:w", 1, 0);
	assert_int_equal(ast.groups[1].events[0].raw, 0x2000);
	assert_int_equal(ast.groups[1].events[0].bp_len, 2);
	/* "mem" without ':' right after it is a name */
	assert_int_equal(ok1("mem")->kind, SPEC_EV_NAME);

	const struct bad bad[] = {
		{ "mem:", 4, 1, "expected a breakpoint address after 'mem:'",
		  "a decimal or 0x hex number" },
		{ "mem:x", 4, 1, "expected a breakpoint address after 'mem:'", NULL },
		{ "mem:0x1g", 4, 4, "expected a breakpoint address after 'mem:'", NULL },
		{ "mem:0x10000000000000000", 4, 19,
		  "a breakpoint address after 'mem:' too large for 64 bits", "" },
		{ "mem:0x1000/8x", 11, 2, "expected a breakpoint length", NULL },
		{ "mem:0x1000:rr", 12, 1, "duplicate breakpoint access 'r'", "" },
		{ "mem:0x1000:rwxr", 14, 1, "duplicate breakpoint access 'r'", "" },
		{ "mem:0x1000:rq", 12, 1, "unknown modifier 'q'", NULL },
		{ "mem:0x1000:/x/", 11, 1, "expected breakpoint access or modifiers after ':'",
		  "access is r, w, x or a combination" },
		{ "mem:0x1000:u/x/", 12, 1, "expected ',' or end after event", "" },
		{ "mem:0x1000/", 10, 1, "unterminated term list", NULL },
		{ "mem:0x1000u", 4, 7, "expected a breakpoint address after 'mem:'", NULL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
	assert_string_equal(ok1("mem:0x1000:w:")->bp_access, "w");
}

/* ---- tracepoints ---- */

static void test_tracepoints(void **state)
{
	(void)state;
	const struct spec_event *e = ok1("sched:sched_switch");
	assert_int_equal(e->kind, SPEC_EV_TRACEPOINT);
	assert_string_equal(e->name, "sched");
	assert_string_equal(e->tp_event, "sched_switch");
	POS(e->name_pos, 0, 5);
	POS(e->arg_pos, 6, 12);
	POS(e->pos, 0, 18);
	assert_false(e->mods.present);
	e = ok1("syscalls:sys_enter_*");
	assert_string_equal(e->name, "syscalls");
	assert_string_equal(e->tp_event, "sys_enter_*");
	e = ok1("sched:sched_switch:u");
	assert_string_equal(mods_str(&e->mods), "u");
	POS(e->mods.pos, 19, 1);
	e = ok1("sched:sched_switch/period=1/k");
	assert_int_equal(e->kind, SPEC_EV_TRACEPOINT);
	assert_int_equal(e->nr_terms, 1);
	assert_string_equal(mods_str(&e->mods), "k");
	e = ok1("xhci-hcd:xhci_dbg_address");
	assert_string_equal(e->name, "xhci-hcd");
	e = ok1("'sched':'sched_switch'");
	assert_int_equal(e->kind, SPEC_EV_TRACEPOINT);
	assert_string_equal(e->tp_event, "sched_switch");
	POS(e->arg_pos, 8, 14);
	/* not all modifier letters: a tracepoint, as perf decides */
	e = ok1("foo:uq");
	assert_int_equal(e->kind, SPEC_EV_TRACEPOINT);
	assert_string_equal(e->tp_event, "uq");
	e = ok1("sched : sched_switch");
	assert_int_equal(e->kind, SPEC_EV_TRACEPOINT);
	ok_at("{sched:sched_switch,sched:sched_wakeup}:S", 0, 1);
	assert_string_equal(ast.groups[0].events[1].tp_event, "sched_wakeup");

	const struct bad bad[] = {
		{ "sched:1x", 6, 2, "expected a tracepoint name or modifiers after ':'", "" },
		{ "sched:sched_switch:x", 19, 1, "unknown modifier 'x'", NULL },
		{ "sched:a:x:c", 8, 1, "unknown modifier 'x'", NULL },
		{ "sched:a:b:c", 9, 1, "expected ',' or end after event", "" },	/* b: modifier */
		{ "cycles:sched_switch", 7, 1, "unknown modifier 's'", NULL },
		{ "instructions:'x'", 13, 3, "expected modifiers after ':'", NULL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
	assert_false(ok1("sched:sched_switch:")->mods.present);
}

/* ---- list-level and lexical errors ---- */

static void test_errors(void **state)
{
	(void)state;
	const struct bad bad[] = {
		{ "", 0, 1, "expected an event", "" },
		{ "   ", 3, 1, "expected an event", "" },
		{ ",", 0, 1, "expected an event", "" },
		{ "cycles,", 7, 1, "expected an event after ','", "" },
		{ ",cycles", 0, 1, "expected an event", "" },
		{ "cycles,,instructions", 7, 1, "expected an event after ','", "" },
		{ "cycles,}", 7, 1, "unexpected '}' (no group is open)", "" },
		{ "}", 0, 1, "unexpected '}' (no group is open)", "" },
		{ "cycles}", 6, 1, "unexpected '}' (no group is open)", "" },
		{ "{}", 1, 1, "empty group", "" },
		{ "{cycles", 0, 1, "unterminated group", "add '}' after the last event" },
		{ "a,{cycles,", 2, 1, "unterminated group", "add '}' after the last event" },
		{ "{,a}", 1, 1, "expected an event after '{'", "" },
		{ "{a,,b}", 3, 1, "expected an event after ','", "" },
		{ "{a,{b}}", 3, 1, "groups cannot be nested", "" },
		{ "{a,foo{b}}", 6, 1, "groups cannot be nested", "" },
		{ "{a}b", 3, 1, "expected ',' or end after group",
		  "group modifiers follow ':', as in {a,b}:u" },
		{ "{a}x", 3, 1, "expected ',' or end after group", "" },
		{ "{a}{b}", 3, 1, "expected ',' or end after group", "" },
		{ "{a/x=1/ q}", 8, 1, "unknown modifier 'q'", NULL },
		{ "cyc les", 4, 3, "expected ',' or end after event", "" },
		{ "cycles$", 6, 1, "unexpected character '$'", "" },
		{ "\"cycles\"", 0, 1, "unexpected character '\"'", "perf's quoted names use single quotes" },
		{ "-cycles", 0, 1, "expected an event name, not '-'", "" },
		{ ".x", 0, 1, "expected an event name, not '.'", "" },
		{ "cyc\x01les", 3, 1, "unexpected byte 0x01", "" },
		{ "cycles\xc3\xa9", 6, 1, "unexpected byte 0xc3", "" },
		{ "'abc", 0, 1, "unterminated quoted name", "close it with '" },
		{ "''", 0, 2, "empty quoted name", "" },
		{ "'a\tb'", 2, 1, "unexpected byte 0x09 in a quoted name", "" },
		{ "cycles=1", 6, 1, "expected ',' or end after event", "" },
		{ "cycles@", 6, 1, "expected ',' or end after event", "" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
	/* accepted: "cycles:" then x; a:x in a group is a tracepoint, a:b has modifier b */
	ok_at("cycles:,x", 1, 0);
	assert_int_equal(ok_at("{a:x}", 0, 0)->kind, SPEC_EV_TRACEPOINT);
	assert_string_equal(mods_str(&ok_at("{a:b}", 0, 0)->mods), "b");

	spec_ast__free(&ast);

	/* NULL arguments */
	struct pk_spec_error err;
	assert_int_equal(spec_parse(NULL, &ast, &err), -EINVAL);
	assert_string_equal(err.msg, "no event spec");
	assert_int_equal(spec_parse("cycles", NULL, &err), -EINVAL);
	assert_int_equal(spec_parse("cycles,", &ast, NULL), -EINVAL);
	assert_int_equal(spec_parse("cycles", &ast, NULL), 0);
	spec_ast__free(&ast);
	spec_ast__free(NULL);
}

/* ---- pk_spec_error__format ---- */

static const char *fmt(const char *spec, unsigned off, unsigned len, const char *msg,
		       const char *hint, char *buf, size_t n)
{
	struct pk_spec_error e = { .code = -EINVAL, .off = off, .len = len };
	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	snprintf(e.hint, sizeof(e.hint), "%s", hint);
	return pk_spec_error__format(&e, spec, buf, n);
}

static void test_format(void **state)
{
	(void)state;
	char buf[512];
	assert_string_equal(fmt("cpu/event=0x3c,umsak=1/", 15, 5, "unknown term 'umsak'",
				"did you mean 'umask'?", buf, sizeof(buf)),
			    "cpu/event=0x3c,umsak=1/\n"
			    "               ^^^^^\n"
			    "unknown term 'umsak' (did you mean 'umask'?)");
	assert_string_equal(fmt("cycles,", 7, 1, "expected an event after ','", "", buf,
				sizeof(buf)),
			    "cycles,\n       ^\nexpected an event after ','");
	/* tabs and control bytes take one column each */
	assert_string_equal(fmt("a,\tb\x01x", 5, 1, "m", "", buf, sizeof(buf)),
			    "a, b?x\n     ^\nm");
	/* offsets past the end are clamped; len 0 shows one caret; len past the end is cut */
	assert_string_equal(fmt("ab", 9, 0, "m", "", buf, sizeof(buf)), "ab\n  ^\nm");
	assert_string_equal(fmt("abcd", 1, 99, "m", "", buf, sizeof(buf)), "abcd\n ^^^\nm");
	assert_string_equal(fmt(NULL, 0, 1, "m", "", buf, sizeof(buf)), "\n^\nm");

	/* a long spec is cut around the error */
	char spec[301];
	for (int i = 0; i < 300; i++)
		spec[i] = (char)('a' + i % 26);
	spec[300] = '\0';
	fmt(spec, 150, 3, "m", "", buf, sizeof(buf));
	char *nl = strchr(buf, '\n');
	assert_non_null(nl);
	assert_int_equal(nl - buf, 2 + 72 + 2);
	assert_memory_equal(buf, "..", 2);
	assert_memory_equal(buf + 2, spec + 150 - 24, 72);
	assert_memory_equal(nl - 2, "..", 2);
	assert_memory_equal(nl + 1, "                          ^^^\n", 30);
	/* error at the very end of a long spec */
	fmt(spec, 300, 1, "m", "", buf, sizeof(buf));
	nl = strchr(buf, '\n');
	assert_int_equal(nl - buf, 74);
	assert_memory_equal(buf + 2, spec + 228, 72);
	assert_int_equal(strspn(nl + 1, " "), 74);
	/* error at the start of a long spec */
	fmt(spec, 0, 500, "m", "", buf, sizeof(buf));
	nl = strchr(buf, '\n');
	assert_int_equal(nl - buf, 74);
	assert_int_equal(strspn(nl + 1, "^"), 72);

	/* small buffers: truncated, NUL-terminated, never overrun */
	char small[8];
	memset(small, 'Z', sizeof(small));
	fmt("cycles:q", 7, 1, "unknown modifier 'q'", "", small, 5);
	assert_string_equal(small, "cycl");
	assert_int_equal(small[5], 'Z');
	assert_string_equal(fmt("x", 0, 1, "m", "", small, 1), "");
	assert_null(pk_spec_error__format(NULL, "x", NULL, 0));
	assert_string_equal(pk_spec_error__format(NULL, "x", small, sizeof(small)), "");

	/* the parser's error, formatted as it is (one struct since the internal copy went) */
	struct pk_spec_error err;
	assert_int_equal(spec_parse("cycles:uq", &ast, &err), -EINVAL);
	assert_string_equal(pk_spec_error__format(&err, "cycles:uq", buf, sizeof(buf)),
			    "cycles:uq\n        ^\nunknown modifier 'q' (valid modifiers: u k h I G "
			    "H p pp ppp P S D W e b R)");
}

/* ---- spec_suggest ---- */

static void test_suggest(void **state)
{
	(void)state;
	static const char *const terms[] = { "event", "umask", "edge", "inv", "cmask", NULL,
					     "period", "config1", "config2" };
	const size_t n = sizeof(terms) / sizeof(terms[0]);
	assert_string_equal(spec_suggest("umsak", terms, n), "umask");	/* swap */
	assert_string_equal(spec_suggest("UMASK", terms, n), "umask");	/* case */
	assert_string_equal(spec_suggest("evnt", terms, n), "event");	/* deletion */
	assert_string_equal(spec_suggest("perriod", terms, n), "period");
	assert_string_equal(spec_suggest("config3", terms, n), "config1");	/* tie: first */
	assert_string_equal(spec_suggest("edg", terms, n), "edge");
	assert_null(spec_suggest("frequency", terms, n));
	assert_null(spec_suggest("x", terms, n));	/* "inv" is 3 away */
	assert_null(spec_suggest("ab", (const char *const[]){ "cd" }, 1));	/* full rewrite */
	assert_null(spec_suggest("", terms, n));
	assert_null(spec_suggest(NULL, terms, n));
	assert_null(spec_suggest("event", NULL, 0));
	/* long words allow more edits: max(2, len/3) */
	static const char *const ev[] = { "inst_retired.any", "l1d.replacement",
					  "UNC_CHA_CLOCKTICKS" };
	assert_string_equal(spec_suggest("inst_retierd.anyy", ev, 3), "inst_retired.any");
	assert_string_equal(spec_suggest("unc_cha_clockticks", ev, 3), "UNC_CHA_CLOCKTICKS");
	assert_string_equal(spec_suggest("l1d_replacemnt", ev, 3), "l1d.replacement");
	assert_null(spec_suggest("l2_rqsts.miss", ev, 3));
	assert_int_equal(pk_edit_distance("kitten", 6, "sitting", 7, PK_EDIT_SWAPS, SIZE_MAX), 3);
	assert_int_equal(pk_edit_distance("ab", 2, "ba", 2, PK_EDIT_SWAPS, SIZE_MAX), 1);
	assert_int_equal(pk_edit_distance("", 0, "abc", 3, PK_EDIT_SWAPS, SIZE_MAX), 3);
	char longw[400];
	memset(longw, 'a', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = '\0';
	assert_null(spec_suggest(longw, terms, n));
}

/* ---- robustness ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Parse s; on success every position lies inside s, on error off <= strlen(s). */
static void parse_any(const char *s)
{
	struct spec_ast a;
	struct pk_spec_error err;
	size_t n = strlen(s);
	int rc = spec_parse(s, &a, &err);
	if (rc) {
		assert_true(rc == -EINVAL);
		assert_true(err.off <= n);
		assert_true(err.len >= 1);
		assert_true(err.msg[0] != '\0');
		char buf[300];
		struct pk_spec_error pe;
		memcpy(&pe, &err, sizeof(pe));
		pk_spec_error__format(&pe, s, buf, sizeof(buf));
		return;
	}
	assert_true(a.nr_groups >= 1);
	for (size_t g = 0; g < a.nr_groups; g++) {
		const struct spec_group *gr = &a.groups[g];
		assert_true(gr->pos.off + gr->pos.len <= n);
		assert_true(gr->nr_events >= 1);
		for (size_t e = 0; e < gr->nr_events; e++) {
			const struct spec_event *ev = &gr->events[e];
			assert_true(ev->pos.off + ev->pos.len <= n);
			assert_true(ev->pos.off >= gr->pos.off);
			assert_true(ev->pos.off + ev->pos.len <= gr->pos.off + gr->pos.len);
			assert_true(ev->mods.precise <= 3);
			for (size_t t = 0; t < ev->nr_terms; t++) {
				const struct spec_term *tm = &ev->terms[t];
				assert_non_null(tm->name);
				assert_true(tm->pos.off >= ev->pos.off);
				assert_true(tm->pos.off + tm->pos.len <= ev->pos.off + ev->pos.len);
			}
		}
	}
	spec_ast__free(&a);
}

static void test_robustness(void **state)
{
	(void)state;
	static const char alphabet[] = "{}/:,='@ \tabcdpukrxmem0123456789xX.-_*?!Sqz";
	char *buf = malloc(65537);
	assert_non_null(buf);
	/* random specs over the grammar's alphabet, short and long */
	for (int i = 0; i < 20000; i++) {
		size_t n = i < 19990 ? rnd() % 40 : 65536;
		for (size_t j = 0; j < n; j++)
			buf[j] = alphabet[rnd() % (sizeof(alphabet) - 1)];
		buf[n] = '\0';
		parse_any(buf);
	}
	/* random bytes, NUL-free */
	for (int i = 0; i < 2000; i++) {
		size_t n = rnd() % 64;
		for (size_t j = 0; j < n; j++)
			buf[j] = (char)(1 + rnd() % 255);
		buf[n] = '\0';
		parse_any(buf);
	}
	/* every prefix of valid specs */
	static const char *const valid[] = {
		"{cpu/event=0x3c,umask=1,name='a:b'/ukpp,sched:sched_switch:u}:S,mem:0x1000/8:rwu",
		"r1a8/period=0.5,@cfg=x/:k,1:1/x/u,foo{'a':'b',c//}:W",
	};
	for (size_t v = 0; v < 2; v++) {
		size_t n = strlen(valid[v]);
		for (size_t j = 0; j <= n; j++) {
			memcpy(buf, valid[v], j);
			buf[j] = '\0';
			parse_any(buf);
		}
		assert_int_equal(spec_parse(valid[v], &ast, NULL), 0);
		spec_ast__free(&ast);
	}
	/* 64 KiB of one character each, and long repeated shapes */
	static const char fill[] = "{}/:,='@ ar0p-";
	for (size_t f = 0; f < sizeof(fill) - 1; f++) {
		memset(buf, fill[f], 65536);
		buf[65536] = '\0';
		parse_any(buf);
	}
	static const char *const unit[] = { "{a,", "a/", "cpu/x=1,", "a:", "mem:1/", "'" };
	for (size_t u = 0; u < sizeof(unit) / sizeof(unit[0]); u++) {
		size_t ul = strlen(unit[u]), n = 0;
		while (n + ul <= 65536) {
			memcpy(buf + n, unit[u], ul);
			n += ul;
		}
		buf[n] = '\0';
		parse_any(buf);
	}
	/* a 64 KiB name and a 64 KiB raw word */
	memset(buf, 'f', 65536);
	buf[0] = 'r';
	buf[65536] = '\0';
	struct pk_spec_error err;
	assert_int_equal(spec_parse(buf, &ast, &err), -EINVAL);
	assert_string_equal(err.msg, "raw config too large for 64 bits");
	assert_int_equal(err.len, 65536);
	buf[0] = 'g';
	assert_int_equal(spec_parse(buf, &ast, &err), 0);
	assert_int_equal(strlen(ast.groups[0].events[0].name), 65536);
	spec_ast__free(&ast);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_names, teardown),
		cmocka_unit_test_teardown(test_lists, teardown),
		cmocka_unit_test_teardown(test_groups, teardown),
		cmocka_unit_test_teardown(test_modifiers, teardown),
		cmocka_unit_test_teardown(test_modifier_errors, teardown),
		cmocka_unit_test_teardown(test_raw, teardown),
		cmocka_unit_test_teardown(test_numeric, teardown),
		cmocka_unit_test_teardown(test_slash_terms, teardown),
		cmocka_unit_test_teardown(test_term_errors, teardown),
		cmocka_unit_test_teardown(test_breakpoints, teardown),
		cmocka_unit_test_teardown(test_tracepoints, teardown),
		cmocka_unit_test_teardown(test_errors, teardown),
		cmocka_unit_test_teardown(test_format, teardown),
		cmocka_unit_test_teardown(test_suggest, teardown),
		cmocka_unit_test_teardown(test_robustness, teardown),
	};
	return cmocka_run_group_tests_name("spec_parse", tests, NULL, NULL);
}
