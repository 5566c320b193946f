/* SPDX-License-Identifier: MIT */
/*
 * test_annotate.c — the annotate library (pmukit/annotate.h) on perf.data
 * files this test writes with samples in its own functions: the totals,
 * the symbols' order, each sample on the instruction that holds it, the
 * source positions of the instructions (this file), objdump's headers,
 * the -M intel and --no-source text, the symbol filter (which drops the
 * other samples from the totals, as perf 6.1 does), the --stdio header,
 * a two-event group, no TopDown or weight column on an ordinary recording,
 * kernel samples read before the kernel's symbols (each with its map then),
 * samples summed per thread and address and resolved before a map changes,
 * and the option and index errors. Every expected
 * value comes from the samples written here. And the in-process objdump
 * text (objdump.c over libopcodes and the line tables) against binutils'
 * objdump itself, line for line, on this program and on libc.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/annotate.h>

#include "annotate/annotate_int.h"
#include "test_data_write_util.h"

#define PID 13579

__attribute__((noinline)) int at_leaf(int x);
__attribute__((noinline)) int at_mid(int x);
__attribute__((noinline)) int at_leaf(int x)
{
	return x * 7 + 3;
}
__attribute__((noinline)) int at_mid(int x)
{
	return at_leaf(x) * 2 + 1;
}

#define FN(f, off) ((uint64_t)(uintptr_t)&(f) + (off))

/* code with runs of zero bytes, which objdump prints as "..." (8 or more; fewer than 3 at the end) */
void at_zeroes(void);
__asm__(".text\n.globl at_zeroes\n.type at_zeroes,@function\nat_zeroes:\n ret\n .zero 16\n nop\n"
	" .zero 2\n nop\n .zero 5\n ret\n .zero 2\n.size at_zeroes,.-at_zeroes\n");

static char data_path[256];

/* 3 samples at at_leaf+0 (100 each), 1 at at_leaf+1 (200), 1 at at_mid+0 (50) */
static int write_file(void **state)
{
	(void)state;
	struct pk_error err = { 0 };
	struct text_map text;
	struct pk_buf recs = { 0 };
	struct one_proc_file f;
	const uint64_t id = 7;
	assert_non_null(tmp_path(data_path, sizeof(data_path), "annotate.data"));
	assert_int_equal(own_text((const void *)&at_leaf, &text), 0);
	CHECK_OK(one_proc_file__begin(&f, data_path, id, PID, "atest", &text, &recs, &err), &err);
	const struct { uint64_t ip, period; } s[] = {
		{ FN(at_leaf, 0), 100 }, { FN(at_leaf, 0), 100 }, { FN(at_leaf, 0), 100 },
		{ FN(at_leaf, 1), 200 }, { FN(at_mid, 0), 50 },
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		struct tsample t = { .ip = s[i].ip, .pid = PID, .tid = PID, .time = 2000 + i,
				     .id = id, .period = s[i].period };
		put_sample(&recs, ONE_PROC_ST, PERF_RECORD_MISC_USER, &t);
	}
	CHECK_OK(one_proc_file__end(&f, &recs, &err), &err);
	return 0;
}

struct ann {
	struct pk_session *s;
	struct pk_annotate *a;
	struct pk_error err;
};

static void ann_open(struct ann *p, const struct pk_annotate_opts *o)
{
	memset(p, 0, sizeof(*p));
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&p->s, data_path, &so, &p->err), &p->err);
	CHECK_OK(pk_annotate__new(&p->a, p->s, o, &p->err), &p->err);
	CHECK_OK(pk_annotate__process(p->a, &p->err), &p->err);
}

static void ann_close(struct ann *p)
{
	pk_annotate__free(p->a);
	pk_session__free(p->s);
}

static void test_entries(void **state)
{
	(void)state;
	struct ann p;
	ann_open(&p, NULL);
	assert_int_equal(pk_annotate__total_samples(p.a, 0), 5);
	assert_int_equal(pk_annotate__total_period(p.a, 0), 550);
	assert_int_equal(pk_annotate__nr_entries(p.a, 0), 2);
	struct pk_annotate_entry e = { .sz = sizeof(e) };
	assert_int_equal(pk_annotate__entry(p.a, 0, 0, &e), 0);
	assert_string_equal(e.sym->name, "at_leaf");	/* hottest first */
	assert_int_equal(e.nr_samples, 4);
	assert_int_equal(e.period, 500);
	assert_int_equal(pk_annotate__entry(p.a, 0, 1, &e), 0);
	assert_string_equal(e.sym->name, "at_mid");
	assert_int_equal(e.period, 50);
	assert_int_equal(pk_annotate__entry(p.a, 0, 2, &e), -EINVAL);
	assert_int_equal(pk_annotate__nr_entries(p.a, 5), 0);
	struct pk_annotation *an;
	assert_int_equal(pk_annotation__new(&an, p.a, 0, 9, &p.err), -EINVAL);
	ann_close(&p);
}

/* the lines of at_leaf: the samples on their instructions, the source, the headers */
static void test_lines(void **state)
{
	(void)state;
	struct ann p;
	ann_open(&p, NULL);
	struct pk_annotation *an;
	CHECK_OK(pk_annotation__new(&an, p.a, 0, 0, &p.err), &p.err);
	uint64_t samples = 0, period = 0;
	int64_t last = -1;
	bool section = false, header = false, source = false;
	const struct pk_annotation_line *first = NULL;
	for (size_t i = 0; i < pk_annotation__nr_lines(an); i++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		if (l->offset < 0) {
			section |= !strcmp(l->text, "Disassembly of section .text:");
			header |= strstr(l->text, "<at_leaf>:") != NULL;
			source |= strstr(l->text, "return x * 7 + 3;") != NULL;
			assert_null(l->nr_samples);
			continue;
		}
		if (!first)
			first = l;
		assert_true(l->offset > last);	/* in address order */
		last = l->offset;
		samples += l->nr_samples[0];
		period += l->period[0];
		assert_non_null(l->file);
		assert_non_null(strstr(l->file, "test_annotate.c"));
		assert_non_null(l->srcline);
	}
	assert_true(section && header && source);
	assert_non_null(first);
	assert_int_equal(first->offset, 0);
	/* the 3 samples at +0, and the one at +1 inside the first instruction too unless it is 1 byte */
	assert_true(first->nr_samples[0] >= 3);
	assert_int_equal(samples, 4);
	assert_int_equal(period, 500);
	assert_null(pk_annotation__line(an, pk_annotation__nr_lines(an)));

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct pk_annotation_print_opts po = { .sz = sizeof(po), .percent_type = PK_PERCENT_LOCAL_HITS };
	assert_int_equal(pk_annotation__fprintf(an, f, &po), 0);
	fclose(f);
	assert_non_null(strstr(text, " Percent |\tSource code & Disassembly of test_annotate for cpu-clock "
				     "(4 samples, percent: local hits)\n"));
	free(text);
	pk_annotation__free(an);
	ann_close(&p);
}

/* --stdio2 (PK_ANNOTATE_PRINT_STDIO2): the hists title, at_mid's call by perf's symbol, its return */
static void test_stdio2(void **state)
{
	(void)state;
	struct ann p;
	ann_open(&p, NULL);
	struct pk_annotation *an;
	CHECK_OK(pk_annotation__new(&an, p.a, 0, 1, &p.err), &p.err);	/* at_mid */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct pk_annotation_print_opts po = { .sz = sizeof(po), .flags = PK_ANNOTATE_PRINT_STDIO2 };
	assert_int_equal(pk_annotation__fprintf(an, f, &po), 0);
	fclose(f);
	const char *title = "Samples: 5  of event 'cpu-clock', 100 Hz, Event count (approx.): 550, "
			    "[percent: local period]\nat_mid() /";
	assert_memory_equal(text, title, strlen(title));
	char *second = strchr(strchr(text, '\n') + 1, '\n') + 1;
	assert_memory_equal(second, "Percent ", 8);	/* over a first line without samples */
	char *call = strstr(text, "\xe2\x86\x92 call");	/* "→ call", then perf's symbol */
	assert_non_null(call);
	assert_non_null(strstr(call, " at_leaf"));
	assert_non_null(strstr(text, "\xe2\x86\x90 ret"));	/* "← ret" */
	assert_null(strstr(text, "<at_leaf>"));	/* objdump's target name replaced */
	free(text);
	pk_annotation__free(an);
	ann_close(&p);
}

/* -M intel and --no-source change the text; the symbol filter drops the other samples */
static void test_options(void **state)
{
	(void)state;
	struct pk_annotate_opts o = { .sz = sizeof(o), .disassembler_style = "intel",
				      .flags = PK_ANNOTATE_NO_SOURCE, .symbol = "at_mid" };
	struct ann p;
	ann_open(&p, &o);
	assert_int_equal(pk_annotate__nr_entries(p.a, 0), 1);
	assert_int_equal(pk_annotate__total_period(p.a, 0), 50);
	struct pk_annotation *an;
	CHECK_OK(pk_annotation__new(&an, p.a, 0, 0, &p.err), &p.err);
	size_t nr_insn = 0;
	for (size_t i = 0; i < pk_annotation__nr_lines(an); i++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		assert_null(strstr(l->text, "return at_leaf(x) * 2 + 1;"));	/* no source */
		if (l->offset >= 0) {
			nr_insn++;
			assert_null(strchr(l->text, '%'));	/* no AT&T registers */
		}
	}
	assert_true(nr_insn > 0);
	pk_annotation__free(an);
	ann_close(&p);

	struct pk_annotate *a;
	struct pk_error err = { 0 };
	struct pk_annotate_opts bad = { .sz = 2 };
	assert_int_equal(pk_annotate__new(&a, NULL, &bad, &err), -EINVAL);
}

/* a group of two events: a column each, the leader's symbols in its order */
static void test_group(void **state)
{
	(void)state;
	struct ann p;
	ann_open(&p, NULL);
	/* one event only in this file: a group of it is the event itself */
	assert_int_equal(pk_annotate__nr_group_entries(p.a, 0, 1), 2);
	assert_int_equal(pk_annotate__nr_group_entries(p.a, 0, 2), 0);	/* past the attrs */
	struct pk_annotate_entry e = { .sz = sizeof(e) };
	assert_int_equal(pk_annotate__group_entry(p.a, 0, 1, 1, &e), 0);
	assert_string_equal(e.sym->name, "at_mid");
	struct pk_annotation *an;
	CHECK_OK(pk_annotation__new_group(&an, p.a, 0, 1, 1, &p.err), &p.err);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct pk_annotation_print_opts po = { .sz = sizeof(po), .flags = PK_ANNOTATE_PRINT_NR_SAMPLES };
	assert_int_equal(pk_annotation__fprintf(an, f, &po), 0);
	fclose(f);
	assert_non_null(strstr(text, " Samples |\tSource code & Disassembly of test_annotate for cpu-clock "
				     "(1 samples, percent: local period)\n"));
	assert_non_null(strstr(text, "       1 :   "));	/* the one sample, -n */
	free(text);
	pk_annotation__free(an);
	ann_close(&p);
}

/*
 * An ordinary recording (cpu-clock, no weights, no TopDown group): no
 * TopDown value and no weighted sample on any line, and --stdio's header is
 * perf's, without the extra columns' labels.
 */
static void test_no_extra_columns(void **state)
{
	(void)state;
	struct ann p;
	ann_open(&p, NULL);
	struct pk_annotation *an;
	CHECK_OK(pk_annotation__new(&an, p.a, 0, 0, &p.err), &p.err);
	uint64_t samples = 0;
	for (size_t i = 0; i < pk_annotation__nr_lines(an); i++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		for (int k = 0; k < 4; k++)
			assert_true(isnan(l->topdown[k]));
		assert_int_equal(l->nr_weighted, 0);
		samples += l->offset >= 0 ? l->nr_samples[0] : 0;
	}
	assert_int_equal(samples, 4);	/* at_leaf's samples (+0 and +1: one instruction or two) */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(pk_annotation__fprintf(an, f, NULL), 0);
	fclose(f);
	assert_non_null(strstr(text, " Percent |\tSource code & Disassembly of test_annotate for cpu-clock "));
	assert_null(strstr(text, "AvgWeight"));
	assert_null(strstr(text, "Retire"));
	free(text);
	pk_annotation__free(an);
	ann_close(&p);
}

/* the lines, each trimmed as perf trims them, without objdump's "file format" line */
/* A kernel MMAP of [start, start + len), pid -1. */
static void put_kmmap(struct pk_buf *b, uint64_t start, uint64_t len, uint64_t time, uint64_t id)
{
	size_t at = begin_rec(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put32(b, UINT32_MAX), put32(b, 0);
	put64(b, start), put64(b, len), put64(b, 0xffffffff81000000);	/* pgoff: _text */
	put_str_padded(b, "[kernel.kallsyms]_text");
	put_id_trailer(b, ONE_PROC_ST, UINT32_MAX, time, id);
	end_rec(b, at);
}

/*
 * Kernel samples read before the kernel's symbols are loaded (a session
 * without worker threads loads them only when asked) get the symbol of the
 * map they had when they came: the first ksym_a sample's map is gone when
 * the symbols are read, the second one is in no map.
 */
static void test_kernel_samples(void **state)
{
	(void)state;
	char ks[256], path[256];
	assert_non_null(tmp_path(ks, sizeof(ks), "kallsyms"));
	assert_non_null(tmp_path(path, sizeof(path), "annotate-kernel.data"));
	FILE *kf = fopen(ks, "w");
	assert_non_null(kf);
	fputs("ffffffff81000000 T _text\nffffffff81001000 T ksym_a\nffffffff81001800 T ksym_b\n"
	      "ffffffff81002000 T ksym_c\nffffffff81003000 T _etext\n", kf);
	fclose(kf);
	struct pk_error err = { 0 };
	struct text_map text;
	struct pk_buf recs = { 0 };
	struct one_proc_file f;
	const uint64_t id = 7;
	assert_int_equal(own_text((const void *)&at_leaf, &text), 0);
	CHECK_OK(one_proc_file__begin(&f, path, id, PID, "atest", &text, &recs, &err), &err);
	put_kmmap(&recs, 0xffffffff81000000, 0x2000, 1002, id);
	const struct { uint64_t ip, period; uint16_t misc; } s[] = {
		{ 0xffffffff81001010, 10, PERF_RECORD_MISC_KERNEL },	/* ksym_a */
		{ FN(at_leaf, 0), 100, PERF_RECORD_MISC_USER },
		{ 0xffffffff81001804, 20, PERF_RECORD_MISC_KERNEL },	/* ksym_b */
		{ 0, 0, 0 },						/* the kernel map moves */
		{ 0xffffffff81001010, 40, PERF_RECORD_MISC_KERNEL },	/* in no map now */
		{ 0xffffffff81002008, 80, PERF_RECORD_MISC_KERNEL },	/* ksym_c */
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		if (!s[i].ip) {
			put_kmmap(&recs, 0xffffffff81001800, 0x1000, 2000 + i, id);
			continue;
		}
		struct tsample t = { .ip = s[i].ip, .pid = PID, .tid = PID, .time = 2000 + i,
				     .id = id, .period = s[i].period };
		put_sample(&recs, ONE_PROC_ST, s[i].misc, &t);
	}
	CHECK_OK(one_proc_file__end(&f, &recs, &err), &err);

	struct pk_symbolizer_opts yo = { .sz = sizeof(yo), .kallsyms = ks, .kernel_notes = "",
					 .buildid_dir = "" };
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1, .symbolizer = &yo };
	struct pk_session *ss;
	struct pk_annotate *a;
	CHECK_OK(pk_session__open(&ss, path, &so, &err), &err);
	CHECK_OK(pk_annotate__new(&a, ss, NULL, &err), &err);
	CHECK_OK(pk_annotate__process(a, &err), &err);
	assert_int_equal(pk_annotate__total_samples(a, 0), 5);
	assert_int_equal(pk_annotate__total_period(a, 0), 250);
	static const char *const want[] = { "at_leaf", "ksym_c", "ksym_b", "ksym_a" };
	static const uint64_t want_period[] = { 100, 80, 20, 10 };
	assert_int_equal(pk_annotate__nr_entries(a, 0), 4);
	for (size_t i = 0; i < 4; i++) {
		struct pk_annotate_entry e = { .sz = sizeof(e) };
		assert_int_equal(pk_annotate__entry(a, 0, i, &e), 0);
		assert_string_equal(e.sym->name, want[i]);
		assert_int_equal(e.period, want_period[i]);
		assert_int_equal(e.nr_samples, 1);
	}
	pk_annotate__free(a);
	pk_session__free(ss);
	unlink(path);
	unlink(ks);
}

static size_t trimmed_lines(char *text, char ***out)
{
	size_t n = 0, cap = 0;
	char **v = NULL;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "file format"))
			continue;
		while (*line == ' ' || *line == '\t')
			line++;
		size_t l = strlen(line);
		while (l && (line[l - 1] == ' ' || line[l - 1] == '\t'))
			line[--l] = '\0';
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			char **nv = realloc(v, cap * sizeof(*v));
			assert_non_null(nv);
			v = nv;
		}
		v[n++] = line;
	}
	*out = v;
	return n;
}

/* objdump -l -d -S -C [-M style] of [start, end) of path, and pmukit's, line for line */
static void same_as_objdump(const char *path, uint64_t start, uint64_t end, const char *style)
{
	struct pk_symbolizer *sy;
	struct pk_error err = { 0 };
	struct pk_symbolizer_opts so = { .sz = sizeof(so) };
	CHECK_OK(pk_symbolizer__new(&sy, &so, &err), &err);
	struct pk_dso *d = pk_symbolizer__dso(sy, path, NULL, 0);
	assert_non_null(d);
	pk_dso__find(d, start);
	struct ann_objfile *o;
	CHECK_OK(ann_objfile__open(&o, path, pk_dso__symsrc(d), style, &err), &err);
	struct ann_objdump_args a = {
		.obj = o, .dso = d, .start = start, .end = end, .binary = path,
		.rip_delta = (int64_t)(pk_dso__objdump_addr(d, start) - start),
		.debug_file = pk_dso__symsrc(d) && strcmp(pk_dso__symsrc(d), path),
	};
	struct ann_text t;
	assert_int_equal(ann_objdump__text(&a, &t), 0);
	struct pk_buf mine = { 0 }, theirs = { 0 };
	for (size_t i = 0; i < t.nr; i++) {
		pk_buf__puts(&mine, t.lines[i]);
		pk_buf__putc(&mine, '\n');
	}
	pk_buf__putc(&mine, '\0');
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "objdump %s%s --start-address=0x%llx --stop-address=0x%llx -l -d "
		 "--no-show-raw-insn -S -C '%s' 2>/dev/null", style ? "-M " : "", style ? style : "",
		 (unsigned long long)start, (unsigned long long)end, path);
	assert_int_equal(run_capture(cmd, &theirs), 0);
	char **ml, **tl;
	size_t nm = trimmed_lines((char *)mine.data, &ml), nt = trimmed_lines((char *)theirs.data, &tl);
	for (size_t i = 0; i < nm && i < nt; i++)
		if (strcmp(ml[i], tl[i])) {
			print_message("%s line %zu: objdump '%s', pmukit '%s'\n", path, i, tl[i], ml[i]);
			fail();
		}
	assert_int_equal(nm, nt);
	assert_true(nt > 8);
	free(ml);
	free(tl);
	pk_buf__free(&mine);
	pk_buf__free(&theirs);
	ann_text__free(&t);
	ann_objfile__free(o);
	pk_symbolizer__free(sy);
}

/*
 * Samples are summed per event, thread, mode and address, and resolved in
 * bulk: 20,000 threads of one process (more keys than the largest table holds)
 * sampling at_leaf and at_mid in turn, each counted once; then the text
 * mapping replaced by a file without symbols, and one more sample at
 * at_leaf's address of a thread sampled before: it is in that file now, not
 * in at_leaf (a sum resolved after the MMAP2 would put it there).
 */
static void test_summed_samples(void **state)
{
	(void)state;
	char path[256];
	assert_non_null(tmp_path(path, sizeof(path), "annotate-summed.data"));
	struct pk_error err = { 0 };
	struct text_map text;
	struct pk_buf recs = { 0 };
	struct one_proc_file f;
	const uint64_t id = 7;
	const uint32_t nr_threads = 20000;	/* 40,000 keys: past the largest table, flushed when full */
	assert_int_equal(own_text((const void *)&at_leaf, &text), 0);
	CHECK_OK(one_proc_file__begin(&f, path, id, PID, "atest", &text, &recs, &err), &err);
	const uint64_t time = 2000;	/* the samples', then the MMAP2's and the last sample's */
	for (uint32_t i = 0; i < 2 * nr_threads; i++) {
		struct tsample t = { .ip = i % 2 ? FN(at_mid, 0) : FN(at_leaf, 0), .pid = PID,
				     .tid = PID + i / 2, .time = time + i, .id = id, .period = 1 + i % 2 };
		put_sample(&recs, ONE_PROC_ST, PERF_RECORD_MISC_USER, &t);
	}
	put_mmap2(&recs, ONE_PROC_ST, PID, text.start, text.len, text.pgoff, "/nonexistent/nosyms.so",
		  time + 2 * nr_threads, id);
	struct tsample last = { .ip = FN(at_leaf, 0), .pid = PID, .tid = PID + 1,
				.time = time + 2 * nr_threads + 1, .id = id, .period = 1000 };
	put_sample(&recs, ONE_PROC_ST, PERF_RECORD_MISC_USER, &last);
	CHECK_OK(one_proc_file__end(&f, &recs, &err), &err);

	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	struct pk_session *ss;
	struct pk_annotate *a;
	CHECK_OK(pk_session__open(&ss, path, &so, &err), &err);
	CHECK_OK(pk_annotate__new(&a, ss, NULL, &err), &err);
	CHECK_OK(pk_annotate__process(a, &err), &err);
	assert_int_equal(pk_annotate__total_samples(a, 0), 2 * nr_threads + 1);
	assert_int_equal(pk_annotate__total_period(a, 0), 3 * nr_threads + 1000);
	assert_true(pk_session__nr_threads(ss) >= nr_threads);
	static const char *const want[] = { "at_mid", "at_leaf" };
	static const uint64_t want_period[] = { 2 * nr_threads, nr_threads };
	assert_int_equal(pk_annotate__nr_entries(a, 0), 2);
	for (size_t i = 0; i < 2; i++) {
		struct pk_annotate_entry e = { .sz = sizeof(e) };
		assert_int_equal(pk_annotate__entry(a, 0, i, &e), 0);
		assert_string_equal(e.sym->name, want[i]);
		assert_int_equal(e.period, want_period[i]);
		assert_int_equal(e.nr_samples, nr_threads);
	}
	pk_annotate__free(a);
	pk_session__free(ss);
	unlink(path);
}

static void test_objdump_text(void **state)
{
	(void)state;
	if (system("objdump --version >/dev/null 2>&1")) {
		print_message("# SKIP objdump (binutils) is not installed\n");
		skip();
	}
	struct text_map self, libc;
	assert_int_equal(own_text((const void *)&at_leaf, &self), 0);
	assert_int_equal(own_text((const void *)&printf, &libc), 0);
	/* this program from its first byte (.init, .plt, .text: several sections) */
	uint64_t rip = FN(at_leaf, 0) - self.start + self.pgoff;
	same_as_objdump(self.path, 0, rip + 64, NULL);
	same_as_objdump(self.path, rip & ~(uint64_t)0xfff, rip + 0x400, "intel");
	uint64_t zrip = (uint64_t)(uintptr_t)&at_zeroes - self.start + self.pgoff;
	same_as_objdump(self.path, zrip, zrip + 29, NULL);
	same_as_objdump(self.path, zrip - 64, zrip + 96, NULL);
	/* 16 KiB of libc around printf (its debug file's symbols when installed) */
	uint64_t lrip = (uint64_t)(uintptr_t)&printf - libc.start + libc.pgoff;
	same_as_objdump(libc.path, lrip - 0x2000, lrip + 0x2000, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_stdio2),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_no_extra_columns),
		cmocka_unit_test(test_kernel_samples),
		cmocka_unit_test(test_summed_samples),
		cmocka_unit_test(test_objdump_text),
	};
	return cmocka_run_group_tests(tests, write_file, NULL);
}
