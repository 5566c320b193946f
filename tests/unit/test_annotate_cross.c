/* SPDX-License-Identifier: MIT */
/*
 * test_annotate_cross.c — the annotate library's in-process disassembly
 * (libopcodes) on the architecture this test is built for, against that
 * architecture's objdump: make check-cross builds it for aarch64 and runs it
 * under qemu-user with OBJDUMP=aarch64-linux-gnu-objdump (where perf itself
 * cannot run); the native build runs it with objdump. The test writes a
 * perf.data with a sample on every instruction of one of its own functions,
 * annotates it, and checks each instruction line (address and text) against
 * `$OBJDUMP -d` of the same range as perf 6.1 reads it (tabs expanded), and each
 * sample on its instruction.
 *
 *   OBJDUMP   the objdump of the test's architecture (default objdump)
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/annotate.h>

#include "test_data_write_util.h"

#define PID 24680
#define MAX_SAMPLES 24

/* a function of a few dozen instructions: a loop, a call, constants */
__attribute__((noinline)) long ac_leaf(long x);
__attribute__((noinline)) long ac_hot(const long *v, int n);
__attribute__((noinline)) long ac_leaf(long x)
{
	return x * 7 + 0x12345;
}
__attribute__((noinline)) long ac_hot(const long *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += v[i] % 13 ? ac_leaf(v[i]) : v[i] >> 3;
	return s ^ 0x5a5a5a5a5a5aL;
}

static char data_path[256];

/* the size of ac_hot from this program's .symtab (nm of the test's architecture is not needed) */
static uint64_t fn_size(const char *path, const char *name)
{
	FILE *f = fopen(path, "rb");
	uint64_t size = 0;
	Elf64_Ehdr eh;
	if (!f)
		return 0;
	if (fread(&eh, sizeof(eh), 1, f) == 1 && eh.e_ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Shdr *sh = calloc(eh.e_shnum, sizeof(*sh));
		if (sh && !fseek(f, (long)eh.e_shoff, SEEK_SET) &&
		    fread(sh, sizeof(*sh), eh.e_shnum, f) == eh.e_shnum)
			for (int i = 0; i < eh.e_shnum && !size; i++) {
				if (sh[i].sh_type != SHT_SYMTAB)
					continue;
				Elf64_Shdr *str = &sh[sh[i].sh_link];
				char *names = malloc(str->sh_size);
				Elf64_Sym *syms = malloc(sh[i].sh_size);
				if (names && syms && !fseek(f, (long)str->sh_offset, SEEK_SET) &&
				    fread(names, 1, str->sh_size, f) == str->sh_size &&
				    !fseek(f, (long)sh[i].sh_offset, SEEK_SET) &&
				    fread(syms, 1, sh[i].sh_size, f) == sh[i].sh_size)
					for (size_t j = 0; j < sh[i].sh_size / sizeof(*syms); j++)
						if (syms[j].st_name < str->sh_size &&
						    !strcmp(names + syms[j].st_name, name))
							size = syms[j].st_size;
				free(names);
				free(syms);
			}
		free(sh);
	}
	fclose(f);
	return size;
}

static uint64_t hot_size;
static int nr_samples;	/* one per 4 bytes of ac_hot, up to MAX_SAMPLES */

/* a sample (period 100 + i) every 4 bytes of ac_hot */
static int write_file(void **state)
{
	(void)state;
	struct pk_error err = { 0 };
	struct text_map text;
	struct pk_buf recs = { 0 };
	struct one_proc_file f;
	const uint64_t id = 9;
	assert_non_null(tmp_path(data_path, sizeof(data_path), "annotate_cross.data"));
	assert_int_equal(own_text((const void *)&ac_hot, &text), 0);
	hot_size = fn_size(text.path, "ac_hot");
	nr_samples = hot_size / 4 < MAX_SAMPLES ? (int)(hot_size / 4) : MAX_SAMPLES;
	assert_true(nr_samples >= 8);
	CHECK_OK(one_proc_file__begin(&f, data_path, id, PID, "across", &text, &recs, &err), &err);
	for (int i = 0; i < nr_samples; i++) {
		struct tsample t = { .ip = (uint64_t)(uintptr_t)&ac_hot + 4 * (uint64_t)i, .pid = PID,
				     .tid = PID, .time = 2000 + (uint64_t)i, .id = id,
				     .period = 100 + (uint64_t)i };
		put_sample(&recs, ONE_PROC_ST, PERF_RECORD_MISC_USER, &t);
	}
	CHECK_OK(one_proc_file__end(&f, &recs, &err), &err);
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\n'))
		s[--l] = '\0';
	return s;
}

/* perf's reading of objdump's line (trimmed): each tab to the next multiple of 8 columns */
static void expand_tabs(const char *s, char *out, size_t len)
{
	size_t n = 0;
	for (; *s && n + 9 < len; s++)
		if (*s != '\t')
			out[n++] = *s;
		else
			do
				out[n++] = ' ';
			while (n % 8);
	out[n] = '\0';
}

/* the instruction lines of objdump -d over [start, end): "addr:\ttext" */
static size_t objdump_insns(const char *path, uint64_t start, uint64_t end, struct pk_buf *out,
			    char ***lines)
{
	const char *objdump = getenv("OBJDUMP") ? getenv("OBJDUMP") : "objdump";
	char cmd[4600];
	snprintf(cmd, sizeof(cmd), "%s -d --no-show-raw-insn --start-address=0x%llx "
		 "--stop-address=0x%llx '%s' 2>/dev/null", objdump, (unsigned long long)start,
		 (unsigned long long)end, path);
	assert_int_equal(run_capture(cmd, out), 0);
	pk_buf__putc(out, '\0');
	size_t n = 0;
	char **v = calloc(out->len, sizeof(*v));
	assert_non_null(v);
	for (char *l = strtok((char *)out->data, "\n"); l; l = strtok(NULL, "\n")) {
		l = trim(l);
		char *colon = strchr(l, ':');
		/* "1234:\tinsn": hex digits then a colon, not "0000000000001234 <ac_hot>:" */
		if (colon && colon > l && strspn(l, "0123456789abcdef") == (size_t)(colon - l))
			v[n++] = l;
	}
	*lines = v;
	return n;
}

static void test_same_as_objdump(void **state)
{
	(void)state;
	char probe[128];
	const char *objdump = getenv("OBJDUMP") ? getenv("OBJDUMP") : "objdump";
	snprintf(probe, sizeof(probe), "%.100s --version >/dev/null 2>&1", objdump);
	if (system(probe)) {
		print_message("# SKIP %s is not installed\n", objdump);
		skip();
	}
	struct pk_session *s;
	struct pk_annotate *a;
	struct pk_error err = { 0 };
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&s, data_path, &so, &err), &err);
	CHECK_OK(pk_annotate__new(&a, s, NULL, &err), &err);
	CHECK_OK(pk_annotate__process(a, &err), &err);
	assert_int_equal(pk_annotate__total_samples(a, 0), (uint64_t)nr_samples);
	struct pk_annotate_entry e = { .sz = sizeof(e) };
	assert_int_equal(pk_annotate__entry(a, 0, 0, &e), 0);
	assert_string_equal(e.sym->name, "ac_hot");
	struct pk_annotation *an;
	CHECK_OK(pk_annotation__new(&an, a, 0, 0, &err), &err);

	struct text_map text;
	assert_int_equal(own_text((const void *)&ac_hot, &text), 0);
	uint64_t start = (uint64_t)(uintptr_t)&ac_hot - text.start + text.pgoff;
	struct pk_buf out = { 0 };
	char **theirs;
	size_t nt = objdump_insns(text.path, start, start + hot_size, &out, &theirs), n = 0;
	uint64_t samples = 0, period = 0;
	for (size_t i = 0; i < pk_annotation__nr_lines(an); i++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		if (l->offset < 0)
			continue;
		char mine[512], tl[512];
		snprintf(tl, sizeof(tl), "%s", l->text);
		snprintf(mine, sizeof(mine), "%llx:\t%s", (unsigned long long)l->addr, trim(tl));
		assert_true(n < nt);
		char want[512], ex[512];
		expand_tabs(theirs[n], ex, sizeof(ex));
		char *colon = strchr(ex, ':');
		snprintf(want, sizeof(want), "%.*s:\t%s", (int)(colon - ex), ex, trim(colon + 1));
		if (strcmp(mine, want)) {
			print_message("instruction %zu: objdump '%s', pmukit '%s'\n", n, want, mine);
			fail();
		}
		/* a sample every 4 bytes: on aarch64, one on each of the first instructions */
		if (l->offset < 4 * (int64_t)nr_samples) {
#ifdef __aarch64__
			assert_int_equal(l->nr_samples[0], 1);
			assert_int_equal(l->period[0], 100 + l->offset / 4);
#endif
		} else {
			assert_int_equal(l->nr_samples[0], 0);
		}
		samples += l->nr_samples[0];
		period += l->period[0];
		n++;
	}
	assert_int_equal(n, nt);
	assert_true(n >= (uint64_t)nr_samples);
	assert_int_equal(samples, (uint64_t)nr_samples);
	assert_int_equal(period, (uint64_t)nr_samples * 100 + (uint64_t)nr_samples * ((uint64_t)nr_samples - 1) / 2);
	free(theirs);
	pk_buf__free(&out);
	pk_annotation__free(an);
	pk_annotate__free(a);
	pk_session__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_objdump),
	};
	return cmocka_run_group_tests(tests, write_file, NULL);
}
