/* SPDX-License-Identifier: MIT */
/*
 * test_symbol.c — the symbolizer's parts with inputs the tests build
 * themselves: perf's symbol fix-ups (zero sizes, the choice among aliases),
 * the red-black tree perf answers overlapping symbols from (shape checked
 * as a valid tree through random inserts and erasures, and the _init/.plt
 * overlap perf 6.1 was seen to answer with _init, tests/integration/
 * symbol_perf.sh), perf-PID.map and kallsyms parsing (bad lines, modules,
 * types), the kernel DSO's build-id rule (running kernel, build-id cache,
 * mismatch: nothing) and relocation, maps to DSOs (anonymous, JIT, vdso,
 * heap), the options struct's size, errors, and threads symbolizing this
 * test binary and libc at once (answers equal to one thread's).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/symbol.h>

#include "symbol/linetab.h"
#include "symbol/symbol_int.h"
#include "util/buf.h"

static struct pk_symbolizer *new_symbolizer(const struct pk_symbolizer_opts *o)
{
	struct pk_symbolizer *s = NULL;
	struct pk_error err = { 0 };
	assert_int_equal(pk_symbolizer__new(&s, o, &err), 0);
	assert_non_null(s);
	return s;
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static const struct pk_sym *sym_named(const struct pk_sym_table *t, const char *name)
{
	for (size_t i = 0; i < pk_sym_table__nr(t); i++)
		if (!strcmp(pk_sym_table__sym(t, i)->name, name))
			return pk_sym_table__sym(t, i);
	return NULL;
}

/* perf's symbols__fixup_end and choose_best_symbol, one rule at a time */
static void test_fixups(void **state)
{
	(void)state;
	struct pk_sym_table t;
	symtab__init(&t);
	/* zero-sized: ends where the next starts; the last one at the next page past its start */
	assert_int_equal(symtab__add(&t, 0x100, 0, STB_GLOBAL, STT_FUNC, "a", 1), 0);
	assert_int_equal(symtab__add(&t, 0x180, 0x10, STB_GLOBAL, STT_FUNC, "b", 1), 0);
	assert_int_equal(symtab__add(&t, 0x1234, 0, STB_GLOBAL, STT_FUNC, "last", 4), 0);
	/* aliases at 0x200: sized beats zero-sized */
	assert_int_equal(symtab__add(&t, 0x200, 0, STB_GLOBAL, STT_FUNC, "zero_alias_longer", 17), 0);
	assert_int_equal(symtab__add(&t, 0x200, 8, STB_GLOBAL, STT_FUNC, "sized", 5), 0);
	/* at 0x300: global beats weak beats local, whatever the order */
	assert_int_equal(symtab__add(&t, 0x300, 8, STB_WEAK, STT_FUNC, "weak_one", 8), 0);
	assert_int_equal(symtab__add(&t, 0x300, 8, STB_LOCAL, STT_FUNC, "local_one", 9), 0);
	assert_int_equal(symtab__add(&t, 0x300, 8, STB_GLOBAL, STT_FUNC, "glob", 4), 0);
	/* at 0x400: fewer leading underscores, then the longer name */
	assert_int_equal(symtab__add(&t, 0x400, 8, STB_GLOBAL, STT_FUNC, "__libc_x", 8), 0);
	assert_int_equal(symtab__add(&t, 0x400, 8, STB_GLOBAL, STT_FUNC, "x", 1), 0);
	assert_int_equal(symtab__add(&t, 0x400, 8, STB_GLOBAL, STT_FUNC, "xy", 2), 0);
	/* at 0x500: equal in everything: the first one stays; SyS aliases lose */
	assert_int_equal(symtab__add(&t, 0x500, 8, STB_GLOBAL, STT_FUNC, "SyS_read", 8), 0);
	assert_int_equal(symtab__add(&t, 0x500, 8, STB_GLOBAL, STT_FUNC, "sys_read", 8), 0);
	assert_true(symtab__check(&t) > 0);
	assert_int_equal(symtab__fixup(&t, false), 0);
	assert_true(symtab__check(&t) > 0);
	assert_int_equal(symtab__finish(&t), 0);
	assert_int_equal(pk_sym_table__nr(&t), 7);
	const struct pk_sym *s = sym_named(&t, "a");
	assert_non_null(s);
	assert_int_equal(s->end, 0x180);
	assert_int_equal(sym_named(&t, "last")->end, 0x3000);	/* roundup(0x1234, 4096) + 4096 */
	assert_non_null(sym_named(&t, "sized"));
	assert_null(sym_named(&t, "zero_alias_longer"));
	assert_non_null(sym_named(&t, "glob"));
	assert_non_null(sym_named(&t, "xy"));
	assert_non_null(sym_named(&t, "sys_read"));
	/* lookups: start <= addr < end */
	assert_string_equal(symtab__find(&t, 0x17f)->name, "a");
	assert_string_equal(symtab__find(&t, 0x180)->name, "b");
	assert_null(symtab__find(&t, 0x190));
	assert_string_equal(symtab__find(&t, 0x2fff)->name, "last");
	assert_null(symtab__find(&t, 0x3000));
	symtab__fini(&t);
}

/*
 * Inserts at or above the highest start skip the walk down the tree: the
 * tree is the walk's, node for node, on runs of ascending starts (equal ones
 * among them) broken by lower ones, and after duplicates left it.
 */
static void test_sorted_inserts(void **state)
{
	(void)state;
	struct pk_sym_table fast, walk;
	symtab__init(&fast);
	symtab__init(&walk);
	unsigned seed = 777;
	uint64_t start = 0x1000;
	for (int i = 0; i < 3000; i++) {
		seed = seed * 1103515245u + 12345u;
		/* 1 in 10 lower (some just below the highest), some equal */
		uint64_t at = (seed >> 8) % 10 == 0 ? (seed >> 12) % 2 ? start - 16 - 1 : (seed >> 4) % start
						      : start;
		start += (seed >> 16) % 4 == 0 || i == 1499 ? 0 : 16;	/* 1500 is 1499's duplicate */
		char name[32];
		int len = snprintf(name, sizeof(name), "s%d", i);
		assert_int_equal(symtab__add(&fast, at, 8, STB_GLOBAL, STT_FUNC, name, (size_t)len), 0);
		walk.last = PK_RB_NIL;	/* the walk every time */
		assert_int_equal(symtab__add(&walk, at, 8, STB_GLOBAL, STT_FUNC, name, (size_t)len), 0);
		if (i == 1500) {	/* the highest leaves the tree */
			assert_int_equal(symtab__fixup(&fast, false), 0);
			assert_int_equal(symtab__fixup(&walk, false), 0);
		}
	}
	assert_true(symtab__check(&fast) > 0);
	assert_int_equal(fast.root, walk.root);
	assert_int_equal(fast.nr_nodes, walk.nr_nodes);
	for (size_t i = 0; i < fast.nr_nodes; i++) {
		assert_int_equal(fast.rb[i].left, walk.rb[i].left);
		assert_int_equal(fast.rb[i].right, walk.rb[i].right);
		assert_int_equal(fast.rb[i].parent, walk.rb[i].parent);
		assert_int_equal(fast.rb[i].red, walk.rb[i].red);
	}
	symtab__fini(&fast);
	symtab__fini(&walk);
}

/* random inserts and duplicate erasures keep a valid red-black tree */
static void test_rbtree(void **state)
{
	(void)state;
	unsigned seed = 12345;
	for (int round = 0; round < 20; round++) {
		struct pk_sym_table t;
		symtab__init(&t);
		int n = 50 + round * 60;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			uint64_t start = (seed >> 8) % (uint64_t)(n / 2 + 1) * 16;	/* many equal starts */
			char name[32];
			int len = snprintf(name, sizeof(name), "s%d", i);
			assert_int_equal(symtab__add(&t, start, (seed >> 4) % 3 ? 8 : 0,
						     (uint8_t)((seed >> 12) % 3), STT_FUNC, name, (size_t)len), 0);
			assert_true(symtab__check(&t) > 0);
		}
		assert_int_equal(symtab__fixup(&t, false), 0);
		assert_true(symtab__check(&t) > 0);
		assert_int_equal(symtab__finish(&t), 0);
		for (size_t i = 1; i < pk_sym_table__nr(&t); i++)
			assert_true(pk_sym_table__sym(&t, i - 1)->start < pk_sym_table__sym(&t, i)->start);
		for (size_t i = 0; i < pk_sym_table__nr(&t); i++) {
			const struct pk_sym *s = pk_sym_table__sym(&t, i);
			const struct pk_sym *f = symtab__find(&t, s->start);
			assert_non_null(f);
			assert_true(f->start <= s->start);
		}
		symtab__fini(&t);
	}
}

/*
 * perf 6.1 on the fixture programs: a zero-sized _init stretched to the next
 * symbol covers the @plt entries inserted after the fix-ups; perf's tree
 * search meets _init first there (tests/integration/symbol_perf.sh).
 */
static void test_overlap_as_perf(void **state)
{
	(void)state;
	struct pk_sym_table t;
	symtab__init(&t);
	assert_int_equal(symtab__add(&t, 0x1000, 0, STB_GLOBAL, STT_FUNC, "_init", 5), 0);
	assert_int_equal(symtab__add(&t, 0x1060, 0x90, STB_GLOBAL, STT_FUNC, "main", 4), 0);
	assert_int_equal(symtab__add(&t, 0x10f0, 0x22, STB_GLOBAL, STT_FUNC, "_start", 6), 0);
	assert_int_equal(symtab__fixup(&t, false), 0);
	assert_int_equal(symtab__add(&t, 0x1030, 0x10, STB_GLOBAL, STT_FUNC, "printf@plt", 10), 0);
	assert_int_equal(symtab__finish(&t), 0);
	assert_string_equal(symtab__find(&t, 0x1036)->name, "_init");
	assert_int_equal(pk_sym_table__nr(&t), 4);
	symtab__fini(&t);
}

static void test_perf_map(void **state)
{
	(void)state;
	static const char text[] =
		"garbage\n"
		"\n"
		"7f0000001000\n"			/* no size: skipped */
		"7f0000001000 20 jit_one\n"
		"zz 10 not_hex\n"			/* start 0, "z 10 not_hex" too short? no: size from "z" */
		"0x7f0000002000 0x40 Lcom/x/Y;->m(I)V with spaces\n"
		"7f0000003000 10 ab\n"			/* name shorter than perf's len + 2 rule allows */
		"7f0000004000 8 last_no_newline";	/* perf drops the last character */
	struct pk_sym_table *t = NULL;
	assert_int_equal(pk_sym_table__parse_perf_map(&t, text, sizeof(text) - 1), 0);
	const struct pk_sym *s = pk_sym_table__find(t, 0x7f0000001010);
	assert_non_null(s);
	assert_string_equal(s->name, "jit_one");
	assert_int_equal(s->end - s->start, 0x20);
	s = pk_sym_table__find(t, 0x7f000000203f);
	assert_non_null(s);
	assert_string_equal(s->name, "Lcom/x/Y;->m(I)V with spaces");
	assert_null(pk_sym_table__find(t, 0x7f0000002040));
	s = pk_sym_table__find(t, 0x7f0000004000);
	assert_non_null(s);
	assert_string_equal(s->name, "last_no_newlin");
	for (size_t i = 0; i < pk_sym_table__nr(t); i++) {
		assert_string_not_equal(pk_sym_table__sym(t, i)->name, "");
		assert_null(strchr(pk_sym_table__sym(t, i)->name, '\n'));
	}
	pk_sym_table__free(t);
	/* empty and newline-only input */
	assert_int_equal(pk_sym_table__parse_perf_map(&t, "", 0), 0);
	assert_int_equal(pk_sym_table__nr(t), 0);
	pk_sym_table__free(t);
	assert_int_equal(pk_sym_table__parse_perf_map(&t, "\n\n\n", 3), 0);
	assert_int_equal(pk_sym_table__nr(t), 0);
	pk_sym_table__free(t);
}

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 t local_fn\n"
	"ffffffff81001100 W weak_fn\n"
	"ffffffff81001200 r rodata_thing\n"	/* r: not kept */
	"ffffffff81001300 D data_thing\n"
	"ffffffff81001400 T $arm_mapping\n"	/* '$' names: not kept */
	"ffffffff81001500 T last_kernel_fn\n"
	"bad line\n"
	"ffffffffc0001000 t mod_fn\t[snd_mod]\n"
	"ffffffffc0001100 T mod_fn2\t[snd_mod]\n";

static void test_kallsyms_parse(void **state)
{
	(void)state;
	struct pk_sym_table *t = NULL;
	assert_int_equal(pk_sym_table__parse_kallsyms(&t, kallsyms_text, sizeof(kallsyms_text) - 1), 0);
	/* _text and _stext at one address: the longer name */
	assert_string_equal(pk_sym_table__find(t, 0xffffffff81000010)->name, "_stext");
	assert_string_equal(pk_sym_table__find(t, 0xffffffff810010ff)->name, "local_fn");
	assert_string_equal(pk_sym_table__find(t, 0xffffffff81001250)->name, "weak_fn");
	assert_string_equal(pk_sym_table__find(t, 0xffffffff81001450)->name, "data_thing");
	/* the last kernel symbol before a module one ends at the next page (perf's boundary rule) */
	const struct pk_sym *s = pk_sym_table__find(t, 0xffffffff81001500);
	assert_string_equal(s->name, "last_kernel_fn");
	assert_int_equal(s->end, 0xffffffff81003000);
	assert_null(pk_sym_table__find(t, 0xffffffff81003000));
	/* module symbols: the "\t[module]" is cut off */
	assert_string_equal(pk_sym_table__find(t, 0xffffffffc0001050)->name, "mod_fn");
	assert_string_equal(pk_sym_table__find(t, 0xffffffffc0001100)->name, "mod_fn2");
	assert_null(sym_named(t, "rodata_thing"));
	assert_null(sym_named(t, "$arm_mapping"));
	pk_sym_table__free(t);
}

/* a symbol in the last page of the address space ends at its top, not before it starts
 * (fuzz_symbol_text: the page after it wrapped to 0) */
static void test_kallsyms_top(void **state)
{
	(void)state;
	static const char text[] = "fffffffffffff005 t near_top\n0000000000000009 t low\n";
	struct pk_sym_table *t = NULL;
	assert_int_equal(pk_sym_table__parse_kallsyms(&t, text, sizeof(text) - 1), 0);
	const struct pk_sym *s = pk_sym_table__find(t, 0xfffffffffffff100);
	assert_non_null(s);
	assert_string_equal(s->name, "near_top");
	assert_true(s->end == UINT64_MAX);
	for (size_t i = 0; i < pk_sym_table__nr(t); i++)
		assert_true(pk_sym_table__sym(t, i)->end >= pk_sym_table__sym(t, i)->start);
	pk_sym_table__free(t);
}

/*
 * A kallsyms file of ~1 MB (lines of every length, modules, duplicates, bad
 * lines) read from a file, which is parsed while a thread of its own reads it
 * in 64 KiB steps: the same table as parsing the whole text at once.
 */
static void test_kernel_streamed(void **state)
{
	(void)state;
	struct pk_buf b = { 0 };
	uint64_t x = 88172645463325252ULL;
	for (unsigned i = 0; i < 30000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		static const char types[] = "TtWwDdBbrA";
		uint64_t addr = 0xffffffff81000000ULL + (uint64_t)i * 0x40 - (x % 3 == 0 ? 0x40 : 0);
		char name[300];
		size_t nl = 1 + (size_t)(x >> 20) % 200;
		for (size_t k = 0; k < nl; k++)
			name[k] = (char)('a' + (x >> (k % 40)) % 26);
		name[nl] = 0;
		if (i % 997 == 5)
			assert_true(pk_buf__printf(&b, "not a symbol line %u\n", i) >= 0);
		else if (i > 25000)
			assert_true(pk_buf__printf(&b, "%016llx %c %s\t[mod%u]\n",
						   (unsigned long long)(addr + 0x3f000000ULL),
						   types[x % 10], name, i / 1000) >= 0);
		else
			assert_true(pk_buf__printf(&b, "%016llx %c %s\n", (unsigned long long)addr,
						   types[x % 10], name) >= 0);
	}
	assert_true(b.len > 3 * 65536);
	char dir[] = "/tmp/pk_symbol_ksXXXXXX";
	assert_non_null(mkdtemp(dir));
	char ks[256];
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	write_file(ks, b.data, b.len);
	struct pk_sym_table *t = NULL;
	assert_int_equal(pk_sym_table__parse_kallsyms(&t, (const char *)b.data, b.len), 0);
	struct pk_symbolizer_opts o = { .sz = sizeof(o), .kallsyms = ks, .kernel_notes = "/nonexistent" };
	struct pk_symbolizer *s = new_symbolizer(&o);
	struct pk_dso *k = pk_symbolizer__kernel(s, NULL, 0);
	assert_true(pk_sym_table__nr(t) > 10000);
	assert_int_equal(pk_dso__nr_syms(k), pk_sym_table__nr(t));
	for (size_t i = 0; i < pk_sym_table__nr(t); i++) {
		const struct pk_sym *a = pk_sym_table__sym(t, i), *c = pk_dso__sym(k, i);
		assert_string_equal(a->name, c->name);
		assert_true(a->start == c->start && a->end == c->end);
	}
	pk_symbolizer__free(s);
	pk_sym_table__free(t);
	pk_buf__free(&b);
	unlink(ks);
	rmdir(dir);
}

/* a kernel build-id note as /sys/kernel/notes holds it */
static void write_notes(const char *path, const uint8_t *bid)
{
	unsigned char buf[64] = { 0 };
	uint32_t nsz = 4, dsz = 20, type = 3;
	memcpy(buf, &nsz, 4);
	memcpy(buf + 4, &dsz, 4);
	memcpy(buf + 8, &type, 4);
	memcpy(buf + 12, "GNU", 4);
	memcpy(buf + 16, bid, 20);
	write_file(path, buf, 36);
}

static void test_kernel(void **state)
{
	(void)state;
	char dir[] = "/tmp/pk_symbol_kXXXXXX";
	assert_non_null(mkdtemp(dir));
	char ks[256], notes[256], cache[256], cachefile[512];
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(notes, sizeof(notes), "%s/notes", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	write_file(ks, kallsyms_text, sizeof(kallsyms_text) - 1);
	uint8_t running[20], other[20];
	for (int i = 0; i < 20; i++) {
		running[i] = (uint8_t)(0xa0 + i);
		other[i] = (uint8_t)(0x10 + i);
	}
	write_notes(notes, running);
	struct pk_symbolizer_opts o = { .sz = sizeof(o), .kallsyms = ks, .kernel_notes = notes,
					 .buildid_dir = cache };
	struct pk_symbolizer *s = new_symbolizer(&o);
	/* the running kernel's build-id: kallsyms */
	struct pk_dso *k = pk_symbolizer__kernel(s, running, 20);
	assert_int_equal(pk_dso__kind(k), PK_DSO_KERNEL);
	assert_string_equal(pk_dso__name(k), "[kernel.kallsyms]");
	assert_string_equal(pk_dso__find(k, 0xffffffff81001010)->name, "local_fn");
	/* no recorded build-id: kallsyms as well */
	assert_non_null(pk_dso__find(pk_symbolizer__kernel(s, NULL, 0), 0xffffffff81001010));
	/* another kernel, nothing cached: no symbols */
	struct pk_dso *k2 = pk_symbolizer__kernel(s, other, 20);
	assert_null(pk_dso__find(k2, 0xffffffff81001010));
	assert_int_equal(pk_dso__load_error(k2), -EILSEQ);
	/* the map of a kernel sample goes to the kernel DSO, with identity addresses */
	struct pk_sym_map m = { .start = 0xffffffff81000000, .len = 0x1000000, .pgoff = 0xffffffff81000000,
				.filename = "[kernel.kallsyms]_text", .build_id = running, .build_id_size = 20 };
	assert_ptr_equal(pk_symbolizer__map_dso(s, &m), k);
	assert_int_equal(pk_sym_map__map_ip(&m, 0xffffffff81001010), 0xffffffff81001010);
	pk_symbolizer__free(s);

	/* the other kernel's kallsyms in the build-id cache, as perf record leaves it */
	char h[41];
	for (int i = 0; i < 20; i++)
		sprintf(h + 2 * i, "%02x", other[i]);
	snprintf(cachefile, sizeof(cachefile), "%s/[kernel.kallsyms]", cache);
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(mkdir(cachefile, 0755), 0);
	snprintf(cachefile, sizeof(cachefile), "%s/[kernel.kallsyms]/%s", cache, h);
	assert_int_equal(mkdir(cachefile, 0755), 0);
	snprintf(cachefile, sizeof(cachefile), "%s/[kernel.kallsyms]/%s/kallsyms", cache, h);
	static const char other_text[] = "ffffffff82000000 T other_kernel_fn\n";
	write_file(cachefile, other_text, sizeof(other_text) - 1);
	s = new_symbolizer(&o);
	k2 = pk_symbolizer__kernel(s, other, 20);
	assert_string_equal(pk_dso__find(k2, 0xffffffff82000010)->name, "other_kernel_fn");
	/* KASLR: recorded _text at 0xffffffff90000000, kallsyms has it at 0xffffffff81000000 */
	k = pk_symbolizer__kernel(s, running, 20);
	assert_int_equal(pk_dso__kernel_reloc(k, "_text", 0xffffffff90000000), 0);
	assert_string_equal(pk_dso__find(k, 0xffffffff90001010)->name, "local_fn");
	assert_int_equal(pk_dso__kernel_reloc(k, "_text", 0), -EBUSY);
	pk_symbolizer__free(s);

	/* --symfs: perf does not read local kallsyms then */
	o.symfs = dir;
	s = new_symbolizer(&o);
	assert_null(pk_dso__find(pk_symbolizer__kernel(s, running, 20), 0xffffffff81001010));
	pk_symbolizer__free(s);

	unlink(cachefile);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_maps(void **state)
{
	(void)state;
	char dir[] = "/tmp/pk_symbol_mXXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	static const char jit[] = "7f0000001000 20 jit_fn\n";
	write_file(path, jit, sizeof(jit) - 1);
	struct pk_symbolizer_opts o = { .sz = sizeof(o), .perf_map_dir = dir };
	struct pk_symbolizer *s = new_symbolizer(&o);

	/* anonymous executable memory: /tmp/perf-PID.map, identity addresses */
	struct pk_sym_map m = { .start = 0x7f0000000000, .len = 0x10000, .pgoff = 0, .filename = "//anon",
				.pid = 4242, .prot = PROT_READ | PROT_EXEC };
	struct pk_dso *d = pk_symbolizer__map_dso(s, &m);
	assert_int_equal(pk_dso__kind(d), PK_DSO_PERF_MAP);
	assert_string_equal(pk_dso__name(d), "/tmp/perf-4242.map");
	assert_string_equal(pk_dso__short_name(d), "[JIT] tid 4242");
	uint64_t rip = pk_sym_map__map_ip(&m, 0x7f0000001008);
	assert_int_equal(rip, 0x7f0000001008);
	assert_string_equal(pk_dso__find(d, rip)->name, "jit_fn");
	/* the same map again: the same DSO */
	assert_ptr_equal(pk_symbolizer__map_dso(s, &m), d);
	/* not executable: no DSO symbols; the heap too */
	m.prot = PROT_READ | PROT_WRITE;
	d = pk_symbolizer__map_dso(s, &m);
	assert_int_equal(pk_dso__kind(d), PK_DSO_ANON);
	assert_null(pk_dso__find(d, 0x7f0000001008));
	m.filename = "[heap]";
	assert_int_equal(pk_dso__kind(pk_symbolizer__map_dso(s, &m)), PK_DSO_ANON);
	/* a file: rip = ip - start + pgoff; the vdso: pgoff ignored */
	struct pk_sym_map f = { .start = 0x555555554000, .len = 0x1000, .pgoff = 0x1000,
				.filename = "/nonexistent/prog", .prot = PROT_EXEC };
	assert_int_equal(pk_sym_map__map_ip(&f, 0x555555554010), 0x1010);
	d = pk_symbolizer__map_dso(s, &f);
	assert_int_equal(pk_dso__kind(d), PK_DSO_USER);
	assert_string_equal(pk_dso__short_name(d), "prog");
	assert_null(pk_dso__find(d, 0x1010));
	assert_int_equal(pk_dso__load_error(d), -ENOENT);
	struct pk_srcline sl = { .sz = sizeof(sl) };
	assert_int_not_equal(pk_dso__srcline(d, 0x1010, &sl), 0);
	assert_int_equal(sl.nr_frames, 0);
	assert_null(pk_dso__srcline_str(d, 0x1010));
	f.filename = "[vdso]";
	assert_int_equal(pk_sym_map__map_ip(&f, 0x555555554010), 0x10);
	assert_int_equal(pk_dso__kind(pk_symbolizer__map_dso(s, &f)), PK_DSO_VDSO);
	/* not an ELF file */
	f.filename = path;
	d = pk_symbolizer__map_dso(s, &f);
	assert_null(pk_dso__find(d, 0x10));
	assert_int_equal(pk_dso__load_error(d), -ENOEXEC);
	pk_symbolizer__free(s);
	unlink(path);
	rmdir(dir);
}

/* an older caller's smaller options struct: the new fields take their defaults */
static void test_opts_size(void **state)
{
	(void)state;
	struct pk_symbolizer_opts o = { .sz = offsetof(struct pk_symbolizer_opts, debug_dir),
					.flags = PK_SYMBOLIZER_NO_DEMANGLE, .kallsyms = "/nonexistent" };
	struct pk_symbolizer *s = new_symbolizer(&o);
	pk_symbolizer__free(s);
	pk_symbolizer__free(NULL);
}

/* the vdso of this process stands in when no build-id is recorded */
static void test_vdso(void **state)
{
	(void)state;
	struct pk_symbolizer_opts o = { .sz = sizeof(o), .buildid_dir = "" };
	struct pk_symbolizer *s = new_symbolizer(&o);
	struct pk_sym_map m = { .start = 0x7fff0000, .len = 0x2000, .filename = "[vdso]", .prot = PROT_EXEC };
	struct pk_dso *d = pk_symbolizer__map_dso(s, &m);
	size_t n = pk_dso__nr_syms(d);
	if (n) {
		bool found = false;
		for (size_t i = 0; i < n; i++)
			found |= strstr(pk_dso__sym(d, i)->name, "gettime") != NULL;
		assert_true(found);
	}
	pk_symbolizer__free(s);
}

struct job {
	struct pk_symbolizer *s;
	const char *path;
	size_t n;
	const char **want;	/* name of the symbol found at each symbol's start, then srcline */
	size_t bad;
};

static void *run(void *p)
{
	struct job *j = p;
	struct pk_dso *d = pk_symbolizer__dso(j->s, j->path, NULL, 0);
	for (size_t i = 0; i < j->n; i++) {
		const struct pk_sym *s = pk_dso__sym(d, i);
		const struct pk_sym *f = s ? pk_dso__find(d, s->start) : NULL;
		const char *src = s ? pk_dso__srcline_str(d, s->start) : NULL;
		if (!f || strcmp(f->name, j->want[2 * i]) ||
		    strcmp(src ? src : "-", j->want[2 * i + 1]))
			j->bad++;
	}
	return NULL;
}

/* expected answers from a symbolizer used by one thread only */
static const char **answers(const char *path, size_t *n)
{
	struct pk_symbolizer *s = new_symbolizer(NULL);
	struct pk_dso *d = pk_symbolizer__dso(s, path, NULL, 0);
	*n = pk_dso__nr_syms(d);
	if (*n > 3000)
		*n = 3000;
	const char **w = calloc(2 * *n + 2, sizeof(*w));
	assert_non_null(w);
	for (size_t i = 0; i < *n; i++) {
		const struct pk_sym *sy = pk_dso__sym(d, i);
		const char *src = pk_dso__srcline_str(d, sy->start);
		w[2 * i] = strdup(pk_dso__find(d, sy->start)->name);
		w[2 * i + 1] = strdup(src ? src : "-");
	}
	pk_symbolizer__free(s);
	return w;
}

static void test_threads(void **state)
{
	(void)state;
	char self[4096];
	ssize_t l = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(l > 0);
	self[l] = '\0';
	const char *libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	if (access(libc, R_OK))
		libc = self;
	size_t n1, n2;
	const char **w1 = answers(self, &n1), **w2 = answers(libc, &n2);
	assert_true(n1 > 10);
	/* one shared symbolizer: two threads per DSO, two DSOs */
	struct pk_symbolizer *s = new_symbolizer(NULL);
	struct job jobs[4] = {
		{ s, self, n1, w1, 0 }, { s, libc, n2, w2, 0 }, { s, self, n1, w1, 0 }, { s, libc, n2, w2, 0 },
	};
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run, &jobs[i]), 0);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(jobs[i].bad, 0);
	}
	pk_symbolizer__free(s);
	for (size_t i = 0; i < 2 * n1; i++)
		free((void *)w1[i]);
	for (size_t i = 0; i < 2 * n2; i++)
		free((void *)w2[i]);
	free(w1);
	free(w2);
}

/* this test's own functions, symbolized from its -g build */
static __attribute__((noipa)) int marker_function(int x)
{
	return x * 3 + 1;
}

/*
 * A DWARF 5 line table header whose file entry format lists no forms but
 * whose count is huge (found by fuzz_symbol_elf): refused as corrupt, not
 * grown to a gigabyte of empty entries.
 */
static void test_linetab_bounded(void **state)
{
	(void)state;
	static const uint8_t in[] = {
		0x52, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3d,
		0xea, 0x00, 0x00, 0x00, 0x02, 0xde, 0xde, 0x2e, 0xde, 0xde, 0xde, 0xde, 0x3f, 0x3d,
		0x00, 0x00, 0x00, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde,
		0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde,
		0xde, 0xde, 0xde, 0x9d, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde,
		0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0x22, 0x1b, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0xea, 0x00, 0x00, 0x02, 0xde, 0xde, 0xde,
		0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde,
		0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0xde, 0x00, 0x00, 0x00
	};
	struct linetab_src src = { .line = { in, sizeof(in) }, .line_str = { in, sizeof(in) },
				   .str = { in, sizeof(in) } };
	struct linetab *lt = NULL;
	assert_int_equal(linetab__parse(&lt, &src, 0, "/comp/dir"), -EINVAL);
	assert_null(lt);
}

static void test_self(void **state)
{
	(void)state;
	char self[4096];
	ssize_t l = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(l > 0);
	self[l] = '\0';
	struct pk_symbolizer *s = new_symbolizer(NULL);
	struct pk_dso *d = pk_symbolizer__dso(s, self, NULL, 0);
	assert_int_equal(pk_dso__load_error(d), 0);
	const struct pk_sym *m = NULL;
	for (size_t i = 0; i < pk_dso__nr_syms(d) && !m; i++)
		if (!strcmp(pk_dso__sym(d, i)->name, "marker_function"))
			m = pk_dso__sym(d, i);
	assert_non_null(m);
	assert_int_equal(marker_function(1), 4);
	struct pk_srcline sl = { .sz = sizeof(sl) };
	assert_int_equal(pk_dso__srcline(d, m->start, &sl), 0);
	assert_true(sl.nr_frames >= 1);
	assert_string_equal(sl.frames[0].file_base, "test_symbol.c");
	assert_string_equal(sl.frames[0].func, "marker_function");
	pk_symbolizer__free(s);
}

/*
 * A line program whose DW_LNS_advance_line has a 9-byte SLEB128 (-2^63): its sign once
 * extended by shifting a signed 1 by 63 (undefined; `make check SANITIZE=1` stopped at it).
 */
static void test_linetab_long_sleb(void **state)
{
	(void)state;
	static const uint8_t hdr[] = {
		1, 1, 0xfb, 14, 13,			/* min_inst, is_stmt, line_base, range, opcode_base */
		0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1,	/* standard opcode lengths */
		0,					/* no include directories */
		'a', '.', 'c', 0, 0, 0, 0, 0,		/* one file */
	};
	static const uint8_t prog[] = {
		0x00, 9, 0x02, 0x00, 0x10, 0, 0, 0, 0, 0, 0,	/* DW_LNE_set_address 0x1000 */
		0x03, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, /* advance_line */
		0x01,						/* DW_LNS_copy */
		0x02, 4,					/* DW_LNS_advance_pc 4 */
		0x00, 1, 0x01,					/* DW_LNE_end_sequence */
	};
	uint8_t sec[128];
	uint32_t hlen = sizeof(hdr), ulen = 2 + 4 + sizeof(hdr) + sizeof(prog);
	uint16_t version = 3;
	size_t n = 0;
	memcpy(sec + n, &ulen, 4), n += 4;
	memcpy(sec + n, &version, 2), n += 2;
	memcpy(sec + n, &hlen, 4), n += 4;
	memcpy(sec + n, hdr, sizeof(hdr)), n += sizeof(hdr);
	memcpy(sec + n, prog, sizeof(prog)), n += sizeof(prog);
	const struct linetab_src src = { .line = { sec, n } };
	struct linetab *t;
	assert_int_equal(linetab__parse(&t, &src, 0, NULL), 0);
	assert_int_equal(linetab__nr_seqs(t), 1);
	uint64_t lo, hi;
	linetab__seq(t, 0, &lo, &hi);
	assert_true(lo == 0x1000 && hi == 0x1004);
	linetab__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixups),
		cmocka_unit_test(test_rbtree),
		cmocka_unit_test(test_sorted_inserts),
		cmocka_unit_test(test_overlap_as_perf),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_kallsyms_parse),
		cmocka_unit_test(test_kallsyms_top),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_kernel_streamed),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_opts_size),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_linetab_bounded),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_linetab_long_sleb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
