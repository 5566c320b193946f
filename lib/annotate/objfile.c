/* SPDX-License-Identifier: MIT */
/*
 * objfile.c — an object file opened with libbfd and disassembled with
 * binutils' libopcodes, as objdump -d does it: the same symbol table
 * (the .symtab, else the dynamic one, plus the synthetic @plt symbols,
 * sorted and searched by objdump's rules) so that the addresses inside
 * instructions print as objdump prints them ("1440 <leaf_13+0x30>").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_int.h"
#include "util/error.h"

#ifdef PK_NO_LIBOPCODES
/*
 * A build without binutils' libraries (-DPK_NO_LIBOPCODES; the aarch64
 * cross build links binutils-dev:arm64's, see check-cross): annotate says so.
 */
int ann_objfile__open(struct ann_objfile **out, const char *path, const char *debug,
		      const char *style, struct pk_error *err)
{
	(void)debug, (void)style;
	*out = NULL;
	return pk_error__set(err, -ENOTSUP, path, 0, 0, "%s: built without libopcodes", path);
}
void ann_objfile__free(struct ann_objfile *o)
{
	(void)o;
}
int ann_objfile__disasm(struct ann_objfile *o, uint64_t start, uint64_t end,
			const struct ann_disasm_cbs *cbs, void *ctx)
{
	(void)o, (void)start, (void)end, (void)cbs, (void)ctx;
	return -ENOTSUP;
}
const char *ann_objfile__func_name(const struct ann_objfile *o, uint64_t vma)
{
	(void)o, (void)vma;
	return NULL;
}
char *ann_objfile__demangle(const struct ann_objfile *o, const char *name)
{
	(void)o, (void)name;
	return NULL;
}
#else
#define PACKAGE "pmukit"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <dis-asm.h>
#include <libiberty/demangle.h>

struct ann_objfile {
	bfd *abfd;
	bfd *debug;		/* the separate debug file objdump -S follows, or NULL */
	asymbol **syms;		/* the file's symbols (or its dynamic ones) */
	asymbol **dynsyms;
	asymbol *synth;		/* bfd_get_synthetic_symtab's */
	asymbol **sorted;	/* objdump's sorted_syms */
	long nsorted;
	char *style;
	arelent **dynrels;	/* the dynamic relocations, by address (GOT slots' symbols) */
	long nr_dynrels;
	struct pk_buf text;	/* the instruction being printed */
	asection *sec;		/* the section being disassembled */
	asection *sorted_for;	/* the section sorted is in the order for */
	bool mapping_syms;	/* Arm: $x/$d/$a/$t symbols are not valid (the target's symbol_is_valid) */
	long nr_syms;		/* the file's (and debug file's) own symbols: bfd's find_nearest_line's */
};

/* The start of bfd's elf_symbol_type (elf-bfd.h is not installed): its Elf_Internal_Sym. */
struct ann_elf_sym {
	asymbol symbol;
	bfd_vma st_value, st_size;
	unsigned long st_name;
	unsigned char st_info, st_other;
};

static bfd_vma sym_size(const asymbol *s)
{
	if (s->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC))
		return 0;
	if (bfd_get_flavour(bfd_asymbol_bfd(s)) != bfd_target_elf_flavour)
		return 0;
	return ((const struct ann_elf_sym *)s)->st_size;
}

static bool file_symbol(const asymbol *s, const char *n, size_t l)
{
	return (s->flags & BSF_FILE) || (l > 2 && n[l - 2] == '.' && (n[l - 1] == 'o' || n[l - 1] == 'a'));
}

static int flag_order(flagword a, flagword b, flagword bit, int first)
{
	if ((a & bit) == (b & bit))
		return 0;
	return (a & bit) ? first : -first;
}

/* objdump's compare_symbols, with the section being disassembled (sec: its name first). */
static int cmp_syms(const void *ap, const void *bp, void *sec)
{
	const asymbol *a = *(const asymbol *const *)ap, *b = *(const asymbol *const *)bp;
	bfd_vma av = bfd_asymbol_value(a), bv = bfd_asymbol_value(b);
	if (av != bv)
		return av > bv ? 1 : -1;
	if (sec) {
		const char *sn = bfd_section_name((const asection *)sec);
		bool as = !strcmp(bfd_section_name(a->section), sn), bs = !strcmp(bfd_section_name(b->section), sn);
		if (as != bs)
			return as ? -1 : 1;
	}
	const char *an = bfd_asymbol_name(a), *bn = bfd_asymbol_name(b);
	size_t anl = strlen(an), bnl = strlen(bn);
	bool af = strstr(an, "gnu_compiled") || strstr(an, "gcc2_compiled");
	bool bf = strstr(bn, "gnu_compiled") || strstr(bn, "gcc2_compiled");
	if (af != bf)
		return af ? 1 : -1;
	af = file_symbol(a, an, anl);
	bf = file_symbol(b, bn, bnl);
	if (af != bf)
		return af ? 1 : -1;
	int r;
	if ((r = flag_order(a->flags, b->flags, BSF_SECTION_SYM, 1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_DEBUGGING, 1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_FUNCTION, -1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_OBJECT, -1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_LOCAL, 1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_GLOBAL, -1)))
		return r;
	bfd_vma asz = sym_size(a), bsz = sym_size(b);
	if (asz != bsz)
		return asz > bsz ? -1 : 1;
	if (an[0] == '.' && bn[0] != '.')
		return 1;
	if (an[0] != '.' && bn[0] == '.')
		return -1;
	return strcmp(an, bn);
}

static bool sym_useful(const asymbol *s)
{
	if (!s->name || !s->name[0])
		return false;
	if (s->flags & (BSF_DEBUGGING | BSF_SECTION_SYM))
		return false;
	return !bfd_is_und_section(s->section) && !bfd_is_com_section(s->section);
}

static asymbol **read_syms(bfd *abfd, bool dynamic, long *n)
{
	long sz = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd) : bfd_get_symtab_upper_bound(abfd);
	*n = 0;
	if (sz <= 0)
		return NULL;
	asymbol **v = malloc((size_t)sz);
	if (!v)
		return NULL;
	*n = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, v) : bfd_canonicalize_symtab(abfd, v);
	if (*n < 0)
		*n = 0;
	return v;
}

/* objdump's dump_bfd + disassemble_data: the sorted symbol table. */
static int load_syms(struct ann_objfile *o)
{
	long nsyms = 0, ndyn = 0, nsynth = 0, nextra = 0;
	if (bfd_get_file_flags(o->abfd) & HAS_SYMS)
		o->syms = read_syms(o->abfd, false, &nsyms);
	/* objdump -S follows the debug link: that file's symbols after the file's own */
	asymbol **extra = o->debug ? read_syms(o->debug, false, &nextra) : NULL;
	if (extra && nextra) {
		asymbol **all = realloc(o->syms, sizeof(*all) * (size_t)(nsyms + nextra + 1));
		if (!all) {
			free(extra);
			return -ENOMEM;
		}
		memcpy(all + nsyms, extra, sizeof(*all) * (size_t)nextra);
		o->syms = all;
		nsyms += nextra;
	}
	free(extra);
	o->nr_syms = nsyms;
	o->dynsyms = read_syms(o->abfd, true, &ndyn);
	nsynth = bfd_get_synthetic_symtab(o->abfd, nsyms, o->syms, ndyn, o->dynsyms, &o->synth);
	if (nsynth < 0)
		nsynth = 0;
	asymbol **base = nsyms ? o->syms : o->dynsyms;
	long nbase = nsyms ? nsyms : ndyn;
	o->sorted = malloc(sizeof(*o->sorted) * (size_t)(nbase + nsynth + 1));
	if (!o->sorted)
		return -ENOMEM;
	long n = 0;
	for (long i = 0; i < nbase; i++)
		if (sym_useful(base[i]))
			o->sorted[n++] = base[i];
	for (long i = 0; i < nsynth; i++)
		if (sym_useful(&o->synth[i]))
			o->sorted[n++] = &o->synth[i];
	qsort_r(o->sorted, (size_t)n, sizeof(*o->sorted), cmp_syms, NULL);
	o->nsorted = n;
	return 0;
}

static int cmp_rels(const void *ap, const void *bp)
{
	const arelent *a = *(const arelent *const *)ap, *b = *(const arelent *const *)bp;
	if (a->address != b->address)
		return a->address > b->address ? 1 : -1;
	return (uintptr_t)a > (uintptr_t)b ? 1 : (uintptr_t)a < (uintptr_t)b ? -1 : 0;
}

/* objdump's dynamic relocations, sorted by address (compare_relocs) */
static int load_dynrels(struct ann_objfile *o)
{
	long sz = bfd_get_dynamic_reloc_upper_bound(o->abfd);
	if (sz <= 0 || !o->dynsyms)
		return 0;
	if (!(o->dynrels = malloc((size_t)sz)))
		return -ENOMEM;
	o->nr_dynrels = bfd_canonicalize_dynamic_reloc(o->abfd, o->dynrels, o->dynsyms);
	if (o->nr_dynrels < 0)
		o->nr_dynrels = 0;
	qsort(o->dynrels, (size_t)o->nr_dynrels, sizeof(*o->dynrels), cmp_rels);
	return 0;
}

int ann_objfile__open(struct ann_objfile **out, const char *path, const char *debug,
		      const char *style, struct pk_error *err)
{
	*out = NULL;
	bfd_init();
	struct ann_objfile *o = calloc(1, sizeof(*o));
	if (!o)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	o->abfd = bfd_openr(path, NULL);
	if (!o->abfd || !bfd_check_format(o->abfd, bfd_object)) {
		ann_objfile__free(o);
		return pk_error__set(err, -ENOEXEC, path, 0, 0, "%s: not an object file bfd can read", path);
	}
	if (debug && strcmp(debug, path)) {
		o->debug = bfd_openr(debug, NULL);
		if (o->debug && !bfd_check_format(o->debug, bfd_object)) {
			bfd_close(o->debug);
			o->debug = NULL;
		}
	}
	enum bfd_architecture arch = bfd_get_arch(o->abfd);
	o->mapping_syms = arch == bfd_arch_arm || arch == bfd_arch_aarch64;
	if (load_syms(o) || load_dynrels(o) || (style && !(o->style = strdup(style)))) {
		ann_objfile__free(o);
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	*out = o;
	return 0;
}

void ann_objfile__free(struct ann_objfile *o)
{
	if (!o)
		return;
	free(o->sorted);
	free(o->dynrels);
	free(o->synth);
	free(o->syms);
	free(o->dynsyms);
	free(o->style);
	pk_buf__free(&o->text);
	if (o->abfd)
		bfd_close(o->abfd);
	if (o->debug)
		bfd_close(o->debug);
	free(o);
}

/* the target's symbol_is_valid: Arm's mapping symbols are not */
static bool sym_valid(const struct ann_objfile *o, const asymbol *sym)
{
	const char *n = bfd_asymbol_name(sym);
	return !(o->mapping_syms && n[0] == '$' && strchr("axdt", n[1]) && (!n[2] || n[2] == '.'));
}

/* objdump's sym_ok: in sec (the same section, or one of that name in another file: the debug file) */
static bool sym_ok(const struct ann_objfile *o, bool want_section, long place, asection *sec)
{
	const asymbol *sym = o->sorted[place];
	if (want_section) {
		if (sym->section->owner == sec->owner && sym->section != sec)
			return false;
		if (strcmp(bfd_section_name(sym->section), bfd_section_name(sec)))
			return false;
	}
	return sym_valid(o, sym);
}

/* The symbol a GOT slot's dynamic relocation names (objdump prints that one), or NULL. */
static asymbol *dynrel_sym(const struct ann_objfile *o, bfd_vma vma)
{
	long lo = 0, hi = o->nr_dynrels;
	while (lo < hi) {	/* the first relocation at or past vma */
		long mid = (lo + hi) / 2;
		if (o->dynrels[mid]->address < vma)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < o->nr_dynrels && o->dynrels[lo]->address == vma; lo++) {
		arelent *rel = o->dynrels[lo];
		if (rel->sym_ptr_ptr && *rel->sym_ptr_ptr && !bfd_is_abs_section((*rel->sym_ptr_ptr)->section))
			return *rel->sym_ptr_ptr;
	}
	return NULL;
}

/*
 * objdump's find_symbol_for_address: the symbol at or before vma (one in sec
 * among equals), in sec when require_sec; a GOT slot's relocation symbol.
 * NULL: none. *place: its index in sorted (-1 for a relocation's symbol).
 */
static asymbol *find_sym(const struct ann_objfile *o, bfd_vma vma, asection *sec, bool require_sec,
			 long *place)
{
	long min = 0, max = o->nsorted;
	*place = -1;
	if (!max)
		return NULL;
	while (min + 1 < max) {
		long mid = (min + max) / 2;
		bfd_vma v = bfd_asymbol_value(o->sorted[mid]);
		if (v > vma)
			max = mid;
		else if (v < vma)
			min = mid;
		else {
			min = mid;
			break;
		}
	}
	long at = min;
	while (at > 0 && bfd_asymbol_value(o->sorted[at]) == bfd_asymbol_value(o->sorted[at - 1]))
		at--;
	for (min = at; min < o->nsorted && bfd_asymbol_value(o->sorted[min]) ==
	     bfd_asymbol_value(o->sorted[at]); min++)
		if (sym_ok(o, true, min, sec)) {
			*place = min;
			return o->sorted[min];
		}
	bool want = require_sec || ((bfd_get_file_flags(o->abfd) & HAS_RELOC) && vma >= bfd_section_vma(sec) &&
				    vma < bfd_section_vma(sec) + bfd_section_size(sec));
	if (!sym_ok(o, want, at, sec)) {
		long i, found = o->nsorted;
		for (i = min - 1; i >= 0; i--) {
			if (!sym_ok(o, want, i, sec))
				continue;
			if (found == o->nsorted)
				found = i;
			if (bfd_asymbol_value(o->sorted[i]) != bfd_asymbol_value(o->sorted[found]))
				break;
			found = i;
		}
		if (found != o->nsorted) {
			at = found;
		} else {
			for (i = at + 1; i < o->nsorted; i++)
				if (sym_ok(o, want, i, sec)) {
					at = i;
					break;
				}
		}
		if (!sym_ok(o, want, at, sec))
			return NULL;
	}
	*place = at;
	/* objdump compares the symbol's section-relative value with vma here */
	if (!want && o->sorted[at]->value != vma && !(o->sorted[at]->flags & BSF_SYNTHETIC) &&
	    o->nr_dynrels && o->dynrels[0]->address <= vma && o->dynrels[o->nr_dynrels - 1]->address >= vma) {
		asymbol *r = dynrel_sym(o, vma);
		if (r)
			return r;
	}
	return o->sorted[at];
}

static void print_value(struct pk_buf *b, bfd *abfd, bfd_vma v, bool skip_zeroes)
{
	char tmp[32];
	bfd_sprintf_vma(abfd, tmp, v);
	const char *p = tmp;
	if (skip_zeroes) {
		while (*p == '0')
			p++;
		if (!*p)
			p--;
	}
	pk_buf__puts(b, p);
}

static void print_symname(struct pk_buf *b, bfd *abfd, asymbol *sym)
{
	const char *name = bfd_asymbol_name(sym);
	char *dem = name[0] ? bfd_demangle(abfd, name, DMGL_ANSI | DMGL_PARAMS) : NULL;
	pk_buf__puts(b, dem ? dem : name);
	free(dem);
	bool hidden = false;
	const char *ver = NULL;
	if (!(sym->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC)))
		ver = bfd_get_symbol_version_string(abfd, sym, true, &hidden);
	if (bfd_is_und_section(bfd_asymbol_section(sym)))
		hidden = true;
	if (ver && *ver)
		pk_buf__printf(b, hidden ? "@%s" : "@@%s", ver);
}

/* objdump_print_addr_with_sym */
static void print_addr_sym(struct pk_buf *b, struct ann_objfile *o, asection *sec, asymbol *sym,
			   bfd_vma vma, bool skip_zeroes)
{
	print_value(b, o->abfd, vma, skip_zeroes);
	pk_buf__putc(b, ' ');
	pk_buf__putc(b, '<');
	bfd_vma base;
	if (!sym) {
		pk_buf__puts(b, bfd_section_name(sec));
		base = bfd_section_vma(sec);
	} else {
		print_symname(b, o->abfd, sym);
		base = bfd_asymbol_value(sym);
		/* an undefined symbol (a relocation's) has no value to be relative to */
		if ((bfd_get_file_flags(o->abfd) & (EXEC_P | DYNAMIC)) && bfd_is_und_section(sym->section))
			base = vma;
	}
	if (base > vma) {
		pk_buf__puts(b, "-0x");
		print_value(b, o->abfd, base - vma, true);
	} else if (vma > base) {
		pk_buf__puts(b, "+0x");
		print_value(b, o->abfd, vma - base, true);
	}
	pk_buf__putc(b, '>');
}

static void print_address(bfd_vma vma, struct disassemble_info *info)
{
	struct ann_objfile *o = info->application_data;
	if (o->nsorted < 1) {
		pk_buf__puts(&o->text, "0x");
		print_value(&o->text, o->abfd, vma, true);
		return;
	}
	long place;
	print_addr_sym(&o->text, o, o->sec, find_sym(o, vma, o->sec, false, &place), vma, true);
}

/*
 * the disassembler's text: most of its calls are "%.*s" (i386's styled
 * pieces), "%s", "%c" or a plain string, appended as they are
 */
static int text_vprintf(struct pk_buf *b, const char *fmt, va_list ap)
{
	if (!strcmp(fmt, "%.*s")) {
		int n = va_arg(ap, int);
		const char *s = va_arg(ap, const char *);
		return pk_buf__add(b, s, n < 0 ? strlen(s) : strnlen(s, (size_t)n));
	}
	if (fmt[0] == '%' && fmt[1] && !fmt[2]) {
		if (fmt[1] == 's')
			return pk_buf__puts(b, va_arg(ap, const char *));
		if (fmt[1] == 'c')
			return pk_buf__putc(b, (char)va_arg(ap, int));
	}
	if (!strchr(fmt, '%'))
		return pk_buf__puts(b, fmt);
	return pk_buf__vprintf(b, fmt, ap);
}

static int text_printf(void *stream, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = text_vprintf(stream, fmt, ap);
	va_end(ap);
	return rc;
}

static int text_styled(void *stream, enum disassembler_style style, const char *fmt, ...)
{
	(void)style;
	va_list ap;
	va_start(ap, fmt);
	int rc = text_vprintf(stream, fmt, ap);
	va_end(ap);
	return rc;
}

#define SKIP_ZEROES 8		/* objdump's skip_zeroes: a run of zeroes this long is "..." */
#define SKIP_ZEROES_AT_END 3	/* and a shorter one at the end of the range */

static int disasm_range(struct ann_objfile *o, struct disassemble_info *info, disassembler_ftype dis,
			bfd_vma pc, bfd_vma stop, const struct ann_disasm_cbs *cbs, void *ctx)
{
	const uint8_t *data = info->buffer - info->buffer_vma;	/* indexed by address */
	while (pc < stop) {
		bfd_vma z = pc;
		while (z < stop && !data[z])
			z++;
		if (z - pc >= SKIP_ZEROES || (z == stop && z - pc < SKIP_ZEROES_AT_END)) {
			/* more code follows: skip zeroes by fours (an instruction may start with one) */
			if (z != stop)
				z = pc + ((z - pc) & ~(bfd_vma)3);
			int rc = cbs->zeroes(ctx);
			if (rc)
				return rc;
			pc = z;
			continue;
		}
		pk_buf__reset(&o->text);
		int n = dis(pc, info);
		if (n <= 0)
			n = 1;
		if (o->text.err)
			return o->text.err;
		pk_buf__putc(&o->text, '\0');
		struct ann_insn insn = {
			.addr = pc, .text = (const char *)o->text.data, .bytes = data + pc, .len = (unsigned)n,
		};
		int rc = cbs->insn(ctx, &insn);
		if (rc)
			return rc;
		pc += (bfd_vma)n;
	}
	return 0;
}

/* objdump's is_valid_next_sym: a later symbol of a section of this name */
static bool next_sym_ok(const struct ann_objfile *o, const asymbol *next, const asymbol *sym, asection *sec)
{
	return !strcmp(bfd_section_name(next->section), bfd_section_name(sec)) &&
	       bfd_asymbol_value(next) > bfd_asymbol_value(sym) && sym_valid(o, next);
}

/* objdump's disassemble_section over [start, stop) of sec: a header at each symbol, its instructions */
static int disasm_section(struct ann_objfile *o, struct disassemble_info *info, disassembler_ftype dis,
			  asection *sec, bfd_vma start, bfd_vma stop, const struct ann_disasm_cbs *cbs,
			  void *ctx)
{
	long place;
	asymbol *sym = find_sym(o, start, sec, true, &place);
	int rc = cbs->section(ctx, bfd_section_name(sec));
	for (bfd_vma addr = start; !rc && addr < stop;) {
		pk_buf__reset(&o->text);
		print_addr_sym(&o->text, o, sec, sym, addr, false);
		pk_buf__putc(&o->text, '\0');
		rc = o->text.err ? o->text.err : cbs->header(ctx, (const char *)o->text.data);
		asymbol *next = NULL;
		if (sym && bfd_asymbol_value(sym) > addr) {
			next = sym;
		} else if (sym) {
			while (place >= 0 && place < o->nsorted && !next_sym_ok(o, o->sorted[place], sym, sec))
				place++;
			next = place >= 0 && place < o->nsorted ? o->sorted[place] : NULL;
		}
		bfd_vma nextstop = sym && bfd_asymbol_value(sym) > addr ? bfd_asymbol_value(sym)
				   : next ? bfd_asymbol_value(next) : stop;
		if (nextstop > stop || nextstop <= addr)
			nextstop = stop;
		if (!rc)
			rc = disasm_range(o, info, dis, addr, nextstop, cbs, ctx);
		addr = nextstop;
		sym = next;
	}
	return rc;
}

static int disasm_in(struct ann_objfile *o, asection *sec, bfd_vma start, bfd_vma stop,
		     const struct ann_disasm_cbs *cbs, void *ctx)
{
	/* only the range's bytes: the disassembly reads forward from start, never past stop */
	bfd_vma svma = bfd_section_vma(sec);
	size_t len = (size_t)(stop - start);
	uint8_t *bytes = malloc(len ? len : 1);
	if (!bytes)
		return -ENOMEM;
	if (!bfd_get_section_contents(o->abfd, sec, bytes, (file_ptr)(start - svma), len)) {
		free(bytes);
		return -EIO;
	}
	struct disassemble_info info;
	init_disassemble_info(&info, &o->text, text_printf, text_styled);
	info.arch = bfd_get_arch(o->abfd);
	info.mach = bfd_get_mach(o->abfd);
	info.flavour = bfd_get_flavour(o->abfd);
	info.endian = bfd_big_endian(o->abfd) ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	info.endian_code = info.endian;
	info.disassembler_options = o->style;
	info.print_address_func = print_address;
	info.application_data = o;
	info.buffer = bytes;
	info.buffer_vma = start;
	info.buffer_length = len;
	info.section = sec;
	info.symtab = o->sorted;
	info.symtab_size = (int)o->nsorted;
	/*
	 * objdump sorts its symbols again for each section, that section's first
	 * among equals: sorted once per section here (a stable sort of a sorted
	 * array changes nothing).
	 */
	if (o->sorted_for != sec)
		qsort_r(o->sorted, (size_t)o->nsorted, sizeof(*o->sorted), cmp_syms, sec);
	o->sec = o->sorted_for = sec;
	disassemble_init_for_target(&info);
	disassembler_ftype dis = disassembler(info.arch, info.endian == BFD_ENDIAN_BIG, info.mach, o->abfd);
	int rc = dis ? disasm_section(o, &info, dis, sec, start, stop, cbs, ctx) : -ENOTSUP;
	disassemble_free_target(&info);
	free(bytes);
	return rc;
}

int ann_objfile__disasm(struct ann_objfile *o, uint64_t start, uint64_t end,
			const struct ann_disasm_cbs *cbs, void *ctx)
{
	int rc = -ENOENT;
	/* objdump --start-address --stop-address: every code section they meet, in order */
	for (asection *s = o->abfd->sections; s; s = s->next) {
		if (!(s->flags & SEC_CODE) || !(s->flags & SEC_HAS_CONTENTS) || !bfd_section_size(s))
			continue;
		bfd_vma lo = bfd_section_vma(s), hi = lo + bfd_section_size(s);
		bfd_vma a = start > lo ? start : lo, b = end < hi ? end : hi;
		if (a >= b)
			continue;
		if ((rc = disasm_in(o, s, a, b, cbs, ctx)))
			return rc;
	}
	return rc == -ENOENT ? 0 : rc;
}

/*
 * The function bfd's find_nearest_line falls back to without line tables
 * (its elf_find_function: of the file's own symbols in the section being
 * disassembled that may be functions, the last at or before vma, the
 * largest among equals; no size check), raw name; NULL: none.
 */
const char *ann_objfile__func_name(const struct ann_objfile *o, uint64_t vma)
{
	const asymbol *best = NULL;
	bfd_vma best_size = 0;
	for (long i = 0; i < o->nr_syms; i++) {
		const asymbol *s = o->syms[i];
		if ((s->flags & (BSF_SECTION_SYM | BSF_FILE | BSF_OBJECT | BSF_THREAD_LOCAL | BSF_RELC |
				 BSF_SRELC)) || s->section != o->sec)
			continue;
		bfd_vma size = sym_size(s);
		const struct ann_elf_sym *e = (const struct ann_elf_sym *)s;
		/* annobin's hidden local notype markers are not functions */
		if (!size && (s->flags & (BSF_LOCAL | BSF_GLOBAL)) == BSF_LOCAL &&
		    bfd_get_flavour(bfd_asymbol_bfd(s)) == bfd_target_elf_flavour &&
		    (e->st_info & 0xf) == 0 /* STT_NOTYPE */ && (e->st_other & 3) == 2 /* STV_HIDDEN */)
			continue;
		if (!size)
			size = 1;
		bfd_vma v = bfd_asymbol_value(s);
		if (v > vma)
			continue;
		if (!best || v > bfd_asymbol_value(best) || (v == bfd_asymbol_value(best) && size > best_size)) {
			best = s;
			best_size = size;
		}
	}
	return best ? bfd_asymbol_name(best) : NULL;
}

/* objdump -C's demangling of a function name (malloc'd), NULL when not mangled. */
char *ann_objfile__demangle(const struct ann_objfile *o, const char *name)
{
	return bfd_demangle(o->abfd, name, DMGL_ANSI | DMGL_PARAMS);
}
#endif
