/* SPDX-License-Identifier: MIT */
/*
 * symbol/srcline.c — source lines and inline frames (libdw), answering what
 * perf 6.1's `addr2line -e FILE -i -f` (binutils 2.40) answers, without a
 * process: FILE is the DSO's symbol source (else the DSO itself); the
 * address is the rip plus .text's sh_addr - sh_offset (perf's
 * map__rip_2objdump); the DWARF is FILE's or the separate file its build-id
 * or .gnu_debuglink names in the debug directory.
 *
 * For an address in an allocated section: the line is the last line-table
 * row at or below it in the compile unit covering it (none past the end of
 * a sequence); the function is the smallest DW_TAG_subprogram/
 * inlined_subroutine range holding it (the later DIE on a tie), named by
 * its linkage name, else its DW_AT_name (C: as is; other languages: the
 * ELF symbol there, as binutils does); when that function is inlined, each
 * caller follows, at DW_AT_call_file:DW_AT_call_line. Without DWARF there,
 * binutils' symbol-table answer: the closest preceding function symbol of
 * that section (its size breaking ties), and the STT_FILE before it as the
 * file (line unknown). Nothing at all: no frames (addr2line's "??").
 * Answers are cached per address.
 */
#include "symbol/symbol_int.h"
#include "symbol/linetab.h"
#include "symbol/a2l.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <zlib.h>

#include "util/bsearch.h"
#include "util/grow.h"
#include "util/opts.h"

/* one function DIE (subprogram, inlined_subroutine, entry_point) */
struct func {
	Dwarf_Off off;
	int parent;		/* enclosing function, -1 */
	bool inlined;
	bool named;		/* name/is_linkage resolved */
	bool is_linkage;
	const char *name;	/* raw (mangled) */
	uint64_t low;		/* first range's low (binutils' arange.low) */
	uint64_t call_file;	/* DW_AT_call_file, resolved through the unit's line table */
	unsigned call_line;
};

struct frange {
	uint64_t lo, hi, maxhi;	/* maxhi: largest hi of ranges[0..i] */
	int func;
};

struct cu {
	Dwarf_Off off;
	bool scanned;
	int lang;
	int version;
	const char *comp_dir;
	bool lt_tried;
	struct linetab *lt;
	Dwarf_Die die;
	struct func *funcs;
	size_t nr_funcs, cap_funcs;
	struct frange *ranges;
	size_t nr_ranges, cap_ranges;
};

struct cu_range {
	uint64_t lo, hi;
	size_t cu;
};

struct entry {
	uint64_t pc;
	size_t nr;
	struct pk_srcline_frame *frames;
	const char *str;	/* perf's srcline string, NULL when nothing found */
	unsigned discr;		/* frame 0's discriminator */
	const char *raw_func;	/* frame 0's function as in the debug info (linkage name) */
};

struct srcline_cache {
	int err;
	struct pk_elf file;	/* what addr2line reads: sections, symbols */
	struct pk_elf dwfile;	/* a separate debug file, when used */
	Dwarf *dw;
	struct linetab_src lsrc;
	struct cu *cus;
	size_t nr_cus;
	struct cu_range *cur;	/* the units' own ranges, sorted */
	size_t nr_cur;
	struct cu_range *seqr;	/* line sequences of the units read so far */
	size_t nr_seqr, cap_seqr;
	bool seqr_dirty;
	struct bsym *syms;	/* sorted by (shndx, value, order) */
	size_t nr_syms;
	struct bsym *dsyms;	/* the separate debug file's: binutils' DWARF code looks there */
	size_t nr_dsyms;
	bool syms_tried;	/* syms and dsyms are indexed at their first use (index_syms) */
	struct entry *tab;	/* open addressing on pc */
	size_t cap, used;
	struct pk_arena arena;
	unsigned flags;
	/* keep_memo's strings, by kind and source pointer */
	struct { const char *src, *kept; } memo[4][16];
};

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* binutils' mangle_style() == 0: DW_AT_name is the linkage name */
static bool lang_plain(int lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Cobol74: case DW_LANG_Cobol85:
	case DW_LANG_Fortran77: case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_C99:
	case DW_LANG_UPC: case DW_LANG_C11: case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

/* --- opening ---------------------------------------------------------------- */

static int cmp_cur(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : (x->cu > y->cu) - (x->cu < y->cu);
}

static int index_cus(struct srcline_cache *c)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half ver;
	uint8_t ut;
	Dwarf_Die cudie, sub;
	size_t cap = 0, capr = 0;
	while (dwarf_get_units(c->dw, cu, &next, &ver, &ut, &cudie, &sub) == 0) {
		cu = next;
		if (ut != DW_UT_compile && ut != DW_UT_skeleton)
			continue;
		if (PK_GROW(c->cus, cap, c->nr_cus + 1))
			return -ENOMEM;
		struct cu *u = &c->cus[c->nr_cus];
		memset(u, 0, sizeof(*u));
		u->off = dwarf_dieoffset(&cudie);
		u->die = cudie;
		u->lang = dwarf_srclang(&cudie);
		u->version = ver;
		Dwarf_Attribute a;
		u->comp_dir = dwarf_attr(&cudie, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
		Dwarf_Addr b, lo, hi;
		ptrdiff_t o = 0;
		while ((o = dwarf_ranges(&cudie, o, &b, &lo, &hi)) > 0) {
			if (hi <= lo)
				continue;
			if (PK_GROW(c->cur, capr, c->nr_cur + 1))
				return -ENOMEM;
			c->cur[c->nr_cur++] = (struct cu_range){ lo, hi, c->nr_cus };
		}
		c->nr_cus++;
	}
	qsort(c->cur, c->nr_cur, sizeof(*c->cur), cmp_cur);
	return 0;
}

static struct srcline_cache *cache_open(struct pk_dso *d)
{
	struct srcline_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->file.fd = c->dwfile.fd = -1;
	c->flags = d->owner->o.flags;
	c->cap = 1024;
	c->tab = calloc(c->cap, sizeof(*c->tab));
	if (!c->tab) {
		free(c);
		return NULL;
	}
	/* perf's dso__name(): no addr2line for [..] and /tmp/perf- names */
	const char *name = d->symsrc ? d->symsrc : d->name;
	bool vmlinux = d->kind == PK_DSO_KERNEL && d->runtime;	/* -k's file */
	if ((d->kind != PK_DSO_USER && !vmlinux) || name[0] == '[' || !strncmp(name, "/tmp/perf-", 10)) {
		c->err = -ENOENT;
		return c;
	}
	/* (perf runs addr2line on the long name itself, not under --symfs, when no symbol file was found) */
	if ((c->err = pkelf__open(&c->file, name)))
		return c;
	Elf *dwelf = NULL;
	if (a2l__has_dwarf(c->file.elf))
		dwelf = c->file.elf;
	else if (a2l__open_separate(&c->file, &c->dwfile, d->owner))
		dwelf = c->dwfile.elf;
	if (dwelf) {
		c->dw = dwarf_begin_elf(dwelf, DWARF_C_READ, NULL);
		if (c->dw) {
			/* libdw has decompressed SHF_COMPRESSED sections in place by now */
			static const char *const nm[] = { ".debug_line", ".debug_line_str", ".debug_str" };
			struct pk_dwarf_sec *sec[] = { &c->lsrc.line, &c->lsrc.line_str, &c->lsrc.str };
			for (int i = 0; i < 3; i++) {
				Elf_Scn *scn = pkelf__section(dwelf, nm[i], NULL, NULL);
				Elf_Data *dd = scn ? elf_getdata(scn, NULL) : NULL;
				if (dd && dd->d_buf) {
					sec[i]->data = dd->d_buf;
					sec[i]->size = dd->d_size;
				}
			}
			GElf_Ehdr eh;
			c->lsrc.swap = gelf_getehdr(dwelf, &eh) &&
				       (eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
			if (index_cus(c))
				c->err = -ENOMEM;
		}
	}
	return c;
}

void srcline__free(struct srcline_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_cus; i++) {
		free(c->cus[i].funcs);
		free(c->cus[i].ranges);
		linetab__free(c->cus[i].lt);
	}
	free(c->cus);
	free(c->cur);
	free(c->seqr);
	free(c->syms);
	free(c->dsyms);
	if (c->dw)
		dwarf_end(c->dw);
	pkelf__close(&c->dwfile);
	pkelf__close(&c->file);
	free(c->tab);
	pk_arena__free(&c->arena);
	free(c);
}

/* --- functions of a CU -------------------------------------------------------- */

static int add_func(struct cu *u, Dwarf_Die *die, int parent)
{
	if (PK_GROW(u->funcs, u->cap_funcs, u->nr_funcs + 1))
		return -ENOMEM;
	int idx = (int)u->nr_funcs;
	struct func *f = &u->funcs[u->nr_funcs++];
	memset(f, 0, sizeof(*f));
	f->off = dwarf_dieoffset(die);
	f->parent = parent;
	f->inlined = dwarf_tag(die) == DW_TAG_inlined_subroutine;
	f->low = UINT64_MAX;
	Dwarf_Attribute a;
	Dwarf_Word w;
	f->call_file = UINT64_MAX;
	if (dwarf_attr(die, DW_AT_call_file, &a) && !dwarf_formudata(&a, &w))
		f->call_file = w;
	if (dwarf_attr(die, DW_AT_call_line, &a) && !dwarf_formudata(&a, &w))
		f->call_line = (unsigned)w;
	Dwarf_Addr b, lo, hi;
	ptrdiff_t o = 0;
	bool first = true;
	while ((o = dwarf_ranges(die, o, &b, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;	/* binutils drops empty ranges, also as the first one */
		if (first) {
			f->low = lo;
			first = false;
		}
		if (PK_GROW(u->ranges, u->cap_ranges, u->nr_ranges + 1))
			return -ENOMEM;
		u->ranges[u->nr_ranges++] = (struct frange){ lo, hi, hi, idx };
	}
	return idx;
}

static int cmp_frange(const void *a, const void *b)
{
	const struct frange *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->func > y->func) - (x->func < y->func);
}

/*
 * Whether a DIE of this tag can hold a function DIE with code: every DIE is
 * walked, as binutils walks them, except the subtrees that cannot (a C
 * struct's members, a parameter's or an enumeration's children...): a large
 * program's type DIEs are most of its DIEs. C++ and other languages keep
 * their class bodies (member functions).
 */
static bool may_hold_code(int tag, int lang)
{
	switch (tag) {
	case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_class_type:
		return !(lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
			 lang == DW_LANG_C11);
	case DW_TAG_member: case DW_TAG_formal_parameter: case DW_TAG_variable:
	case DW_TAG_enumeration_type: case DW_TAG_enumerator: case DW_TAG_array_type:
	case DW_TAG_subrange_type: case DW_TAG_subroutine_type: case DW_TAG_base_type:
	case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
	case DW_TAG_typedef: case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_atomic_type: case DW_TAG_call_site:
	case DW_TAG_call_site_parameter: case DW_TAG_GNU_call_site:
	case DW_TAG_GNU_call_site_parameter: case DW_TAG_unspecified_parameters:
	case DW_TAG_template_type_parameter: case DW_TAG_template_value_parameter:
	case DW_TAG_label:
		return false;
	default:
		return true;
	}
}

static int scan_cu(struct cu *u)
{
	u->scanned = true;
	/* depth-first over every DIE; a stack of (die, enclosing function) */
	struct { Dwarf_Die die; int func; } stack[256];
	int sp = 0;
	Dwarf_Die child;
	if (dwarf_child(&u->die, &child) != 0)
		return 0;
	stack[sp].die = child;
	stack[sp++].func = -1;
	while (sp > 0) {
		Dwarf_Die die = stack[sp - 1].die;
		int parent = stack[sp - 1].func;
		/* replace the top with the next sibling before descending */
		Dwarf_Die sib;
		if (dwarf_siblingof(&die, &sib) == 0)
			stack[sp - 1].die = sib;
		else
			sp--;
		int tag = dwarf_tag(&die), me = parent;
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_entry_point) {
			me = add_func(u, &die, parent);
			if (me < 0)
				return me;
		}
		if (may_hold_code(tag, u->lang) && dwarf_haschildren(&die) &&
		    sp < (int)(sizeof(stack) / sizeof(stack[0])) &&
		    dwarf_child(&die, &child) == 0) {
			stack[sp].die = child;
			stack[sp++].func = me;
		}
	}
	qsort(u->ranges, u->nr_ranges, sizeof(*u->ranges), cmp_frange);
	for (size_t i = 1; i < u->nr_ranges; i++)
		if (u->ranges[i - 1].maxhi > u->ranges[i].maxhi)
			u->ranges[i].maxhi = u->ranges[i - 1].maxhi;
	return 0;
}

/* binutils' lookup_address_in_function_table: the smallest range, the later DIE on a tie */
static bool frange_starts_by(const void *elem, const void *pc)
{
	return ((const struct frange *)elem)->lo <= *(const uint64_t *)pc;
}

static int find_func(struct cu *u, uint64_t pc)
{
	size_t lo = pk_bsearch(&pc, u->ranges, u->nr_ranges, sizeof(*u->ranges), frange_starts_by);
	int best = -1;
	uint64_t best_len = UINT64_MAX;
	for (size_t i = lo; i > 0; i--) {
		const struct frange *r = &u->ranges[i - 1];
		if (r->maxhi <= pc)
			break;
		if (pc >= r->hi)
			continue;
		uint64_t len = r->hi - r->lo;
		if (len < best_len || (len == best_len && r->func > best)) {
			best = r->func;
			best_len = len;
		}
	}
	return best;
}

static void func_name(struct srcline_cache *c, struct cu *u, struct func *f)
{
	if (f->named)
		return;
	f->named = true;
	Dwarf_Die die;
	if (!dwarf_offdie(c->dw, f->off, &die))
		return;
	Dwarf_Attribute a;
	const char *n = NULL;
	if (dwarf_attr_integrate(&die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(&die, DW_AT_MIPS_linkage_name, &a))
		n = dwarf_formstring(&a);
	if (n) {
		f->name = n;
		f->is_linkage = true;
		return;
	}
	f->name = dwarf_diename(&die);
	if (!f->name && dwarf_attr_integrate(&die, DW_AT_name, &a))
		f->name = dwarf_formstring(&a);
	f->is_linkage = f->name && lang_plain(u->lang);
}

/* --- one lookup ----------------------------------------------------------------- */

struct raw_frame {
	const char *func, *file;
	unsigned line;
	unsigned discr;		/* the line table row's discriminator (frame 0) */
};

/* of the ranges in r[0..n) (sorted) holding pc, the first unit's index; SIZE_MAX: none */
static bool cu_range_starts_by(const void *elem, const void *pc)
{
	return ((const struct cu_range *)elem)->lo <= *(const uint64_t *)pc;
}

static size_t range_cu(const struct cu_range *r, size_t n, uint64_t pc)
{
	size_t lo = pk_bsearch(&pc, r, n, sizeof(*r), cu_range_starts_by);
	size_t best = SIZE_MAX;
	for (size_t i = lo; i > 0 && lo - i <= 64; i--)
		if (pc < r[i - 1].hi && r[i - 1].cu < best)
			best = r[i - 1].cu;
	return best;
}

/*
 * The unit holding pc: by the units' own ranges (binutils walks units in
 * order: the first), else by the line sequences of units already read.
 */
static struct cu *find_cu(struct srcline_cache *c, uint64_t pc)
{
	size_t best = range_cu(c->cur, c->nr_cur, pc);
	if (best == SIZE_MAX && c->nr_seqr) {
		if (c->seqr_dirty) {
			qsort(c->seqr, c->nr_seqr, sizeof(*c->seqr), cmp_cur);
			c->seqr_dirty = false;
		}
		best = range_cu(c->seqr, c->nr_seqr, pc);
	}
	return best == SIZE_MAX ? NULL : &c->cus[best];
}

/*
 * binutils adds each line sequence's range to its unit's once it has read
 * the unit's line table: from then on (only) addresses between functions
 * find that unit too.
 */
static void add_seq_ranges(struct srcline_cache *c, struct cu *u)
{
	size_t n = linetab__nr_seqs(u->lt), cui = (size_t)(u - c->cus);
	if (!n)
		return;
	if (PK_GROW(c->seqr, c->cap_seqr, c->nr_seqr + n))
		return;
	for (size_t i = 0; i < n; i++) {
		uint64_t lo, hi;
		linetab__seq(u->lt, i, &lo, &hi);
		if (hi > lo)
			c->seqr[c->nr_seqr++] = (struct cu_range){ lo, hi, cui };
	}
	c->seqr_dirty = true;
}

/*
 * The symbol tables binutils asks, sorted at their first use: a C program
 * with DWARF names its functions without them.
 */
static void index_syms(struct srcline_cache *c)
{
	if (c->syms_tried)
		return;
	c->syms_tried = true;
	if (a2l__index_syms(c->file.elf, &c->syms, &c->nr_syms))
		c->nr_syms = 0;
	if (c->dwfile.elf && a2l__index_syms(c->dwfile.elf, &c->dsyms, &c->nr_dsyms)) {
		free(c->dsyms);
		c->dsyms = NULL;
		c->nr_dsyms = 0;
	}
}

/* the debug file's section of the main file's section shndx: the one of that name */
static size_t dshndx(struct srcline_cache *c, size_t shndx)
{
	size_t a, b;
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(c->file.elf, shndx);
	if (elf_getshdrstrndx(c->file.elf, &a) || elf_getshdrstrndx(c->dwfile.elf, &b) || !scn ||
	    !gelf_getshdr(scn, &sh))
		return SIZE_MAX;
	const char *name = elf_strptr(c->file.elf, a, sh.sh_name);
	size_t idx;
	return name && pkelf__section(c->dwfile.elf, name, NULL, &idx) ? idx : SIZE_MAX;
}

/*
 * Nothing in the DWARF: binutils' DWARF reader still asks the symbol table
 * it keeps (the separate debug file's when the DWARF is there) and
 * answers with that symbol and its STT_FILE, before the caller's own
 * symbol-table fallback would.
 */
static size_t stash_sym(struct srcline_cache *c, uint64_t pc, size_t shndx, struct raw_frame *out)
{
	const struct bsym *s = NULL;
	index_syms(c);
	if (c->dsyms) {
		size_t d = dshndx(c, shndx);
		s = d != SIZE_MAX ? a2l__find_sym(c->dsyms, c->nr_dsyms, d, pc) : a2l__find_sym(c->syms, c->nr_syms, shndx, pc);
	} else {
		s = a2l__find_sym(c->syms, c->nr_syms, shndx, pc);
	}
	if (!s)
		return 0;
	out[0] = (struct raw_frame){ s->name, s->file, 0, 0 };
	return 1;
}

static size_t lookup_dwarf(struct srcline_cache *c, uint64_t pc, size_t shndx,
			   struct raw_frame *out, size_t max)
{
	struct cu *u = find_cu(c, pc);
	if (!u)
		return stash_sym(c, pc, shndx, out);
	if (!u->scanned && scan_cu(u))
		return 0;
	if (!u->lt_tried) {
		u->lt_tried = true;
		Dwarf_Attribute a;
		Dwarf_Word off;
		if (dwarf_attr(&u->die, DW_AT_stmt_list, &a) && !dwarf_formudata(&a, &off) &&
		    !linetab__parse(&u->lt, &c->lsrc, off, u->comp_dir))
			add_seq_ranges(c, u);
	}
	const char *file = NULL;
	unsigned line = 0, discr = 0;
	bool have_line = u->lt && linetab__lookup(u->lt, pc, &file, &line, &discr);
	int fi = find_func(u, pc);
	if (!have_line && fi < 0)
		return stash_sym(c, pc, shndx, out);
	struct func *f = fi >= 0 ? &u->funcs[fi] : NULL;
	const char *name = NULL;
	if (f) {
		func_name(c, u, f);
		name = f->name;
	}
	if (!f || !f->is_linkage) {
		/* binutils asks the symbol table (the debug file's, when the DWARF is there); a symbol at
		 * the function's start renames it */
		index_syms(c);
		size_t dsec = c->dsyms ? dshndx(c, shndx) : SIZE_MAX;
		const struct bsym *s = dsec != SIZE_MAX ? a2l__find_sym(c->dsyms, c->nr_dsyms, dsec, pc)
							: a2l__find_sym(c->syms, c->nr_syms, shndx, pc);
		if (s)
			name = s->name;
		if (f) {
			if (s && s->value == f->low)
				f->name = s->name;
			f->is_linkage = true;
		}
	}
	size_t n = 0;
	out[n++] = (struct raw_frame){ name, file, line, discr };
	/* the inline chain */
	for (struct func *g = f, *caller; g && g->inlined && g->parent >= 0 && n < max; g = caller) {
		caller = &u->funcs[g->parent];
		func_name(c, u, caller);
		const char *cf = u->lt && g->call_file != UINT64_MAX ? linetab__file(u->lt, g->call_file) : NULL;
		out[n++] = (struct raw_frame){ caller->name, cf, g->call_line, 0 };
	}
	return n;
}

static size_t lookup(struct srcline_cache *c, uint64_t pc, struct raw_frame *out, size_t max)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(c->file.elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (pc < sh.sh_addr || pc >= sh.sh_addr + sh.sh_size)
			continue;
		size_t shndx = elf_ndxscn(scn);
		size_t n = c->dw ? lookup_dwarf(c, pc, shndx, out, max) : 0;
		if (n)
			return n;
		index_syms(c);
		const struct bsym *s = a2l__find_sym(c->syms, c->nr_syms, shndx, pc);
		if (s) {
			out[0] = (struct raw_frame){ s->name, s->file, 0, 0 };
			return 1;
		}
	}
	return 0;
}

/* --- the cache ------------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static struct entry *slot(struct srcline_cache *c, uint64_t pc, bool *found)
{
	size_t m = c->cap - 1, i = mix(pc) & m;
	while (c->tab[i].frames || c->tab[i].str || c->tab[i].nr == SIZE_MAX) {
		if (c->tab[i].pc == pc) {
			*found = true;
			return &c->tab[i];
		}
		i = (i + 1) & m;
	}
	*found = false;
	return &c->tab[i];
}

static int grow(struct srcline_cache *c)
{
	size_t cap = c->cap * 2;
	struct entry *old = c->tab, *n = calloc(cap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	size_t oc = c->cap;
	c->tab = n;
	c->cap = cap;
	for (size_t i = 0; i < oc; i++) {
		if (!old[i].frames && !old[i].str && old[i].nr != SIZE_MAX)
			continue;
		bool f;
		*slot(c, old[i].pc, &f) = old[i];
	}
	free(old);
	return 0;
}

static const char *keep(struct srcline_cache *c, const char *s)
{
	return s ? pk_arena__strdup(&c->arena, s) : NULL;
}

enum { KEEP_RAW, KEEP_FUNC, KEEP_FILE, KEEP_BASE };

/*
 * keep() of a string derived from src (KEEP_FUNC: demangled; KEEP_BASE: the
 * file's base name unless full paths are asked for), remembered by src's
 * address: the line tables' file names and the functions' names live as
 * long as the cache, and an instruction's are mostly its neighbours'.
 */
static const char *keep_memo(struct srcline_cache *c, unsigned kind, const char *src)
{
	if (!src)
		return NULL;
	size_t h = ((uintptr_t)src >> 3) % (sizeof(c->memo[0]) / sizeof(c->memo[0][0]));
	if (c->memo[kind][h].src == src)
		return c->memo[kind][h].kept;
	const char *kept;
	if (kind == KEEP_FUNC) {
		char *dm = demangle__sym(src, c->flags);
		kept = keep(c, dm ? dm : src);
		free(dm);
	} else {
		kept = keep(c, kind == KEEP_BASE && !(c->flags & PK_SYMBOLIZER_FULL_SRCLINE) ? base(src) : src);
	}
	if (kept) {
		c->memo[kind][h].src = src;
		c->memo[kind][h].kept = kept;
	}
	return kept;
}

/* "file:line" in the arena */
static const char *keep_file_line(struct srcline_cache *c, const char *file, unsigned line)
{
	char num[16];
	size_t k = sizeof(num);
	do
		num[--k] = (char)('0' + line % 10);
	while ((line /= 10));
	size_t n = strlen(file);
	char *s = pk_arena__alloc(&c->arena, n + 1 + (sizeof(num) - k) + 1);
	if (!s)
		return NULL;
	memcpy(s, file, n);
	s[n] = ':';
	memcpy(s + n + 1, num + k, sizeof(num) - k);
	s[n + 1 + sizeof(num) - k] = '\0';
	return s;
}

static int fill(struct srcline_cache *c, struct entry *e, uint64_t pc)
{
	struct raw_frame raw[1024];
	size_t n = lookup(c, pc, raw, sizeof(raw) / sizeof(raw[0]));
	e->pc = pc;
	e->nr = n;
	e->discr = n ? raw[0].discr : 0;
	e->raw_func = n && raw[0].func ? keep_memo(c, KEEP_RAW, raw[0].func) : NULL;
	if (!n) {
		e->nr = SIZE_MAX;	/* "looked up, nothing": occupies the slot */
		return 0;
	}
	e->frames = pk_arena__alloc(&c->arena, n * sizeof(*e->frames));
	if (!e->frames)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct pk_srcline_frame *f = &e->frames[i];
		f->func = keep_memo(c, KEEP_FUNC, raw[i].func && *raw[i].func ? raw[i].func : "??");
		/* addr2line prints "??" for no file; perf then reads the name "??" */
		const char *path = raw[i].file;
		f->file = keep_memo(c, KEEP_FILE, path);
		f->file_base = keep_memo(c, KEEP_BASE, path ? path : "??");
		f->line = raw[i].line;
		if (!f->func || !f->file_base || (raw[i].file && !f->file))
			return -ENOMEM;
	}
	e->str = keep_file_line(c, e->frames[0].file_base, e->frames[0].line);
	return e->str ? 0 : -ENOMEM;
}

static struct entry *get(struct pk_dso *d, uint64_t rip, int *err)
{
	if (!d->src) {
		d->src = cache_open(d);
		if (!d->src) {
			*err = -ENOMEM;
			return NULL;
		}
	}
	struct srcline_cache *c = d->src;
	uint64_t pc = rip + d->text_offset;
	if (c->err && !c->file.elf) {
		*err = c->err;
		return NULL;
	}
	bool found;
	struct entry *e = slot(c, pc, &found);
	if (found)
		return e;
	if ((c->used + 1) * 2 > c->cap) {
		if ((*err = grow(c)))
			return NULL;
		e = slot(c, pc, &found);
	}
	*err = fill(c, e, pc);
	if (*err) {
		memset(e, 0, sizeof(*e));
		return NULL;
	}
	c->used++;
	return e;
}

int pk_dso__srcline(struct pk_dso *d, uint64_t rip, struct pk_srcline *out)
{
	struct pk_srcline full = { .sz = sizeof(full) };
	if (out->sz < PK_OPTS_MIN_SZ)
		return -EINVAL;
	if (!d) {
		pk_opts__fill(out, &full, sizeof(full));
		return -EINVAL;
	}
	pk_dso__find(d, rip);	/* loads the symbols: which file, text offset */
	pthread_mutex_lock(&d->lock);
	int err = 0;
	struct entry *e = get(d, rip, &err);
	if (e && e->nr != SIZE_MAX) {
		full.nr_frames = e->nr;
		full.frames = e->frames;
		full.discriminator = e->discr;
		full.func_raw = e->raw_func;
	}
	pthread_mutex_unlock(&d->lock);
	pk_opts__fill(out, &full, sizeof(full));	/* only the fields within out->sz */
	return e ? 0 : err;
}

const char *pk_dso__srcline_str(struct pk_dso *d, uint64_t rip)
{
	if (!d)
		return NULL;
	pk_dso__find(d, rip);
	pthread_mutex_lock(&d->lock);
	int err = 0;
	struct entry *e = get(d, rip, &err);
	const char *s = e ? e->str : NULL;
	pthread_mutex_unlock(&d->lock);
	return s;
}
