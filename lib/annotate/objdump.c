/* SPDX-License-Identifier: MIT */
/*
 * objdump.c — the text `objdump -l -d -S -C --no-show-raw-insn` prints for
 * a symbol's range, built in process: the disassembly from objfile.c, and
 * objdump's show_line() over the library's line tables (pk_dso__srcline):
 * a `func():` line when the function changes, a `/path/file.c:N` line when
 * the line changes, and with -S the source lines not shown yet (up to five
 * lines of context before). perf 6.1 parses this text (lines.c), so the
 * annotation is the one it shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/symbol.h>

#include "annotate_int.h"
#include "util/grow.h"

#define CONTEXT_LINES 5		/* objdump's SHOW_PRECEDING_CONTEXT_LINES */

struct src_file {
	char *name;
	const char *data;	/* the file, mapped */
	size_t mapped, size;	/* size: up to the first NUL, once cut that far */
	size_t scanned;		/* data[0..scanned) is cut into lines[] */
	struct src_line { size_t off, len; } *lines;
	size_t nr, cap;
	unsigned last_line, max_printed;
	bool found;
};

struct gen {
	const struct ann_objdump_args *args;
	struct ann_text *out;
	struct src_file *files;
	size_t nr_files, cap_files;
	char *prev_func;
	unsigned prev_line, prev_discr;
	struct pk_buf line;
};

static int add_line_n(struct gen *g, const char *s, size_t len)
{
	struct ann_text *t = g->out;
	if (PK_GROW(t->lines, t->cap, t->nr + 1))
		return -ENOMEM;
	if (!(t->lines[t->nr] = strndup(s, len)))
		return -ENOMEM;
	t->nr++;
	return 0;
}

static int add_line(struct gen *g, const char *s)
{
	return add_line_n(g, s, strlen(s));
}

/*
 * A source file is mapped, not read: a large generated file's hot function
 * can be its last one. Its lines are cut as far as a lookup needs them; as
 * objdump's, the text ends at the first NUL byte.
 */
static void load_file(struct src_file *f)
{
	int fd = open(f->name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	f->size = (size_t)st.st_size;
	if (f->size) {
		void *m = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			close(fd);
			return;
		}
		f->data = m;
		f->mapped = f->size;
	}
	close(fd);
	f->found = true;
}

/* lines up to n cut (fewer at the end of the text); false when out of memory */
static bool cut_lines(struct src_file *f, size_t n)
{
	while (f->nr < n && f->scanned < f->size) {
		const char *p = f->data + f->scanned;
		size_t left = f->size - f->scanned;
		const char *nl = memchr(p, '\n', left);
		size_t len = nl ? (size_t)(nl - p) : left;
		const char *nul = memchr(p, '\0', len + (nl != NULL));
		if (nul) {
			len = (size_t)(nul - p);
			f->size = f->scanned;	/* the text ends there */
			if (!len)
				break;
		} else {
			f->scanned += len + (nl != NULL);
		}
		if (PK_GROW(f->lines, f->cap, f->nr + 1))
			return false;
		f->lines[f->nr++] = (struct src_line){ (size_t)(p - f->data), len };
	}
	return true;
}

static struct src_file *find_file(struct gen *g, const char *name)
{
	for (size_t i = 0; i < g->nr_files; i++)
		if (!strcmp(g->files[i].name, name))
			return &g->files[i];
	if (PK_GROW(g->files, g->cap_files, g->nr_files + 1))
		return NULL;
	struct src_file *f = &g->files[g->nr_files];
	memset(f, 0, sizeof(*f));
	if (!(f->name = strdup(name)))
		return NULL;
	g->nr_files++;
	load_file(f);
	return f;
}

/* objdump's dump_lines: lines [from, to] that exist. */
static int dump_lines(struct gen *g, struct src_file *f, unsigned from, unsigned to)
{
	if (!cut_lines(f, to))
		return -ENOMEM;
	for (unsigned l = from; l <= to && l <= f->nr; l++)
		if (l >= 1 && add_line_n(g, f->data + f->lines[l - 1].off, f->lines[l - 1].len))
			return -ENOMEM;
	return 0;
}

static int show_source(struct gen *g, const char *file, unsigned line)
{
	struct src_file *f = find_file(g, file);
	if (!f)
		return -ENOMEM;
	if (!f->found || line == f->last_line)
		return 0;
	unsigned l = line - CONTEXT_LINES;
	if (l >= line)
		l = 1;
	if (f->max_printed >= l)
		l = f->max_printed < line ? f->max_printed + 1 : line;
	if (dump_lines(g, f, l, line))
		return -ENOMEM;
	if (f->max_printed < line)
		f->max_printed = line;
	f->last_line = line;
	return 0;
}

static int func_line(struct gen *g, const char *func)
{
	char *dem = ann_objfile__demangle(g->args->obj, func);
	pk_buf__reset(&g->line);
	if (dem)
		pk_buf__printf(&g->line, "%s:", dem);
	else
		pk_buf__printf(&g->line, "%s():", func);
	free(dem);
	pk_buf__putc(&g->line, '\0');
	return g->line.err ? g->line.err : add_line(g, (const char *)g->line.data);
}

static int show_line_at(struct gen *g, const char *func, const char *file, unsigned line, unsigned discr);

/* objdump's show_line() before the instruction at vma. */
static int show_line(struct gen *g, uint64_t vma)
{
	const struct ann_objdump_args *a = g->args;
	struct pk_srcline sl = { .sz = sizeof(sl) };
	const char *func = NULL, *file = NULL;
	unsigned line = 0, discr = 0;
	if (!pk_dso__srcline(a->dso, vma - (uint64_t)a->rip_delta, &sl) && sl.nr_frames) {
		/* objdump's function name: bfd's (the linkage name), demangled with -C */
		func = sl.func_raw ? sl.func_raw : sl.frames[0].func;
		file = sl.frames[0].file;
		line = sl.frames[0].line;
		discr = sl.discriminator;
		if (func && (!*func || !strcmp(func, "??")))
			func = NULL;
	}
	/*
	 * No line: the srcline is addr2line's symbol-table answer. With the DWARF in
	 * a debug file, bfd asks that file's symbols as addr2line does; else objdump
	 * gives it the file's own symbol table only, where addr2line reads the
	 * dynamic symbols of a stripped file too.
	 */
	if (!line && !a->debug_file) {
		/*
		 * But a part of a function split off by the compiler ("f.cold") without
		 * a line row of its own is in f's DWARF ranges: bfd names it f.
		 */
		const char *sym = ann_objfile__func_name(a->obj, vma);
		size_t n = func ? strlen(func) : 0;
		if (!(sym && n && !strncmp(sym, func, n) && sym[n] == '.'))
			func = sym;
	}
	char *relocated = NULL;
	if (a->prefix && file && file[0] == '/') {
		/* objdump's --prefix: the prefix (without its trailing slashes), the path less its first directories */
		size_t plen = strlen(a->prefix);
		while (plen && a->prefix[plen - 1] == '/')
			plen--;
		const char *fname = file;
		int level = 0;
		for (const char *s = file + 1; *s && level < a->prefix_strip; s++)
			if (*s == '/') {
				fname = s;
				level++;
			}
		if (asprintf(&relocated, "%.*s%s", (int)plen, a->prefix, fname) < 0)
			return -ENOMEM;
		file = relocated;
	}
	int rc = show_line_at(g, func, file, line, discr);
	free(relocated);
	return rc;
}

/* show_line's output for the function, file, line and discriminator found */
static int show_line_at(struct gen *g, const char *func, const char *file, unsigned line, unsigned discr)
{
	const struct ann_objdump_args *a = g->args;
	bool new_func = func && (!g->prev_func || strcmp(func, g->prev_func));
	if (new_func) {
		if (func_line(g, func))
			return -ENOMEM;
		g->prev_line = (unsigned)-1;
	}
	if (line > 0 && (line != g->prev_line || discr != g->prev_discr)) {
		pk_buf__reset(&g->line);
		pk_buf__printf(&g->line, "%s:%u", file ? file : "???", line);
		if (discr > 0)
			pk_buf__printf(&g->line, " (discriminator %u)", discr);
		pk_buf__putc(&g->line, '\0');
		if (g->line.err || add_line(g, (const char *)g->line.data))
			return -ENOMEM;
	}
	if (!(a->flags & PK_ANNOTATE_NO_SOURCE) && file && line > 0 && show_source(g, file, line))
		return -ENOMEM;
	if (new_func) {
		free(g->prev_func);
		if (!(g->prev_func = strdup(func)))
			return -ENOMEM;
	}
	if (line > 0)
		g->prev_line = line;
	g->prev_discr = discr;
	return 0;
}

static int on_section(void *ctx, const char *name)
{
	struct gen *g = ctx;
	pk_buf__reset(&g->line);
	pk_buf__printf(&g->line, "Disassembly of section %s:", name);
	pk_buf__putc(&g->line, '\0');
	if (g->line.err || add_line(g, "") || add_line(g, (const char *)g->line.data))
		return -ENOMEM;
	return 0;
}

static int on_header(void *ctx, const char *header)
{
	struct gen *g = ctx;
	pk_buf__reset(&g->line);
	pk_buf__printf(&g->line, "%s:", header);
	pk_buf__putc(&g->line, '\0');
	if (g->line.err || add_line(g, "") || add_line(g, (const char *)g->line.data))
		return -ENOMEM;
	return 0;
}

/* objdump's "%lx:\t" before an instruction, without printf */
static void put_addr(struct pk_buf *b, uint64_t addr)
{
	char d[18];
	size_t k = sizeof(d);
	d[--k] = '\t';
	d[--k] = ':';
	do
		d[--k] = "0123456789abcdef"[addr & 15];
	while ((addr >>= 4));
	pk_buf__add(b, d + k, sizeof(d) - k);
}

static int on_insn(void *ctx, const struct ann_insn *insn)
{
	struct gen *g = ctx;
	if (show_line(g, insn->addr))
		return -ENOMEM;
	pk_buf__reset(&g->line);
	put_addr(&g->line, insn->addr);
	if (g->args->flags & PK_ANNOTATE_ASM_RAW) {
		unsigned i;
		for (i = 0; i < insn->len && i < 7; i++)
			pk_buf__printf(&g->line, "%02x ", insn->bytes[i]);
		for (; i < 7; i++)
			pk_buf__puts(&g->line, "   ");
		pk_buf__putc(&g->line, '\t');
	}
	pk_buf__puts(&g->line, insn->text);
	pk_buf__putc(&g->line, '\0');
	if (g->line.err || add_line(g, (const char *)g->line.data))
		return -ENOMEM;
	/* --show-raw-insn: the bytes past 7 on lines of their own */
	for (unsigned i = 7; (g->args->flags & PK_ANNOTATE_ASM_RAW) && i < insn->len; i += 7) {
		pk_buf__reset(&g->line);
		put_addr(&g->line, insn->addr + i);
		for (unsigned j = i; j < insn->len && j < i + 7; j++)
			pk_buf__printf(&g->line, "%02x ", insn->bytes[j]);
		pk_buf__putc(&g->line, '\0');
		if (g->line.err || add_line(g, (const char *)g->line.data))
			return -ENOMEM;
	}
	return 0;
}

static int on_zeroes(void *ctx)
{
	return add_line(ctx, "\t...");
}

int ann_objdump__text(const struct ann_objdump_args *args, struct ann_text *out)
{
	struct gen g = { .args = args, .out = out, .prev_line = (unsigned)-1 };
	memset(out, 0, sizeof(*out));
	/* objdump's "\nFILE:     file format ...\n\n": the file's line perf skips */
	int rc = add_line(&g, "") ? -ENOMEM : add_line(&g, "");
	static const struct ann_disasm_cbs cbs = { on_section, on_header, on_insn, on_zeroes };
	if (!rc)
		rc = ann_objfile__disasm(args->obj, args->start, args->end, &cbs, &g);
	for (size_t i = 0; i < g.nr_files; i++) {
		free(g.files[i].name);
		if (g.files[i].data)
			munmap((void *)g.files[i].data, g.files[i].mapped);
		free(g.files[i].lines);
	}
	free(g.files);
	free(g.prev_func);
	pk_buf__free(&g.line);
	if (rc)
		ann_text__free(out);
	return rc;
}

void ann_text__free(struct ann_text *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->lines[i]);
	free(t->lines);
	memset(t, 0, sizeof(*t));
}
