/* SPDX-License-Identifier: MIT */
/*
 * symbol/linetab.c — a compile unit's .debug_line program (DWARF 2-5)
 * decoded as binutils 2.40 reads it, since perf 6.1's source lines are
 * binutils' addr2line answers: file names built as its concat_filename
 * (a relative name under its directory, a relative directory under the
 * unit's DW_AT_comp_dir), the file register starting at entry 0 in DWARF 5
 * (binutils' reading; the standard says 1), of rows at one address in a
 * sequence only the last kept, sequences sorted by start with nested ones
 * dropped and overlapping ones trimmed, and a lookup that finds the row
 * at or below the address, never an end of sequence.
 */
#include "symbol/linetab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "util/grow.h"

struct lrow {
	uint64_t addr;
	uint32_t file;		/* index into files, UINT32_MAX: "<unknown>" */
	uint32_t line;
	bool end;
	uint32_t discr;		/* DW_LNE_set_discriminator's (objdump -l prints it) */
};

struct lseq {
	uint64_t low, high;	/* high: the end-of-sequence row's address */
	size_t first, n;	/* rows[first .. first + n), the last is the end row */
	size_t order;
};

struct linetab {
	bool v5;
	char **files;
	size_t nr_files;
	struct lrow *rows;
	size_t nr_rows, cap_rows;
	struct lseq *seqs;
	size_t nr_seqs, cap_seqs;
};

struct rd {
	const uint8_t *p, *end;
	bool swap;
	bool bad;
};

static uint64_t get(struct rd *r, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = r->swap ? i : n - 1 - i;
		v = v << 8 | r->p[k];
	}
	r->p += n;
	return v;
}

static uint64_t uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned sh = 0;
	while (r->p < r->end) {
		uint8_t b = *r->p++;
		if (sh < 64)
			v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return v;
}

static int64_t sleb(struct rd *r)
{
	int64_t v = 0;
	unsigned sh = 0;
	uint8_t b = 0;
	while (r->p < r->end) {
		b = *r->p++;
		if (sh < 64)
			v |= (int64_t)((uint64_t)(b & 0x7f) << sh);
		sh += 7;
		if (!(b & 0x80)) {
			if (sh < 64 && (b & 0x40))	/* sign-extend: -(1 << sh), sh up to 63 */
				v |= (int64_t)(UINT64_MAX << sh);
			return v;
		}
	}
	r->bad = true;
	return v;
}

static const char *cstr(struct rd *r)
{
	const uint8_t *s = r->p;
	const uint8_t *z = memchr(s, 0, (size_t)(r->end - s));
	if (!z) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	r->p = z + 1;
	return (const char *)s;
}

static const char *strsec(const struct pk_dwarf_sec *s, uint64_t off)
{
	if (!s->data || off >= s->size || !memchr(s->data + off, 0, s->size - off))
		return NULL;
	return (const char *)s->data + off;
}

/* one DWARF 5 entry (directory or file): its path and directory index */
static bool read_entry(struct rd *r, const uint64_t (*fmt)[2], size_t nfmt, unsigned offsz,
		       const struct linetab_src *src, const char **path, uint64_t *dir)
{
	*path = NULL;
	*dir = 0;
	for (size_t i = 0; i < nfmt && !r->bad; i++) {
		uint64_t type = fmt[i][0], form = fmt[i][1], v = 0;
		const char *s = NULL;
		switch (form) {
		case DW_FORM_string: s = cstr(r); break;
		case DW_FORM_line_strp: s = strsec(&src->line_str, get(r, offsz)); break;
		case DW_FORM_strp: s = strsec(&src->str, get(r, offsz)); break;
		case DW_FORM_udata: v = uleb(r); break;
		case DW_FORM_data1: v = get(r, 1); break;
		case DW_FORM_data2: v = get(r, 2); break;
		case DW_FORM_data4: v = get(r, 4); break;
		case DW_FORM_data8: v = get(r, 8); break;
		case DW_FORM_data16: get(r, 8); get(r, 8); break;
		case DW_FORM_block: {
			uint64_t n = uleb(r);
			if (n > (uint64_t)(r->end - r->p))
				r->bad = true;
			else
				r->p += n;
			break;
		}
		case DW_FORM_strx1: get(r, 1); break;
		case DW_FORM_strx2: get(r, 2); break;
		case DW_FORM_strx3: get(r, 3); break;
		case DW_FORM_strx4: get(r, 4); break;
		case DW_FORM_strx: uleb(r); break;
		default:
			r->bad = true;	/* a form binutils refuses too */
			return false;
		}
		if (type == DW_LNCT_path)
			*path = s;
		else if (type == DW_LNCT_directory_index)
			*dir = v;
	}
	return !r->bad;
}

struct names {
	const char **v;
	uint64_t *dir;
	size_t n, cap;
};

static int push(struct names *t, const char *s, uint64_t dir)
{
	if (t->n == t->cap) {	/* two arrays, one capacity: the same policy gives both the same */
		size_t cap_v = t->cap, cap_dir = t->cap;
		if (PK_GROW(t->v, cap_v, t->n + 1) || PK_GROW(t->dir, cap_dir, t->n + 1))
			return -ENOMEM;
		t->cap = cap_v < cap_dir ? cap_v : cap_dir;
	}
	t->v[t->n] = s;
	t->dir[t->n++] = dir;
	return 0;
}

/* binutils' concat_filename for entry i (already 0-based) */
static char *concat(const struct names *files, const struct names *dirs, size_t i, bool v5,
		    const char *comp_dir)
{
	if (i >= files->n || !files->v[i])
		return strdup("<unknown>");
	const char *name = files->v[i];
	if (name[0] == '/')
		return strdup(name);
	uint64_t d = files->dir[i];
	if (!v5)
		d--;		/* pre-DWARF 5: directory 0 (wraps) is none */
	const char *sub = d < dirs->n ? dirs->v[d] : NULL, *dirn = NULL;
	if (!sub || sub[0] != '/')
		dirn = comp_dir;
	if (!dirn) {
		dirn = sub;
		sub = NULL;
	}
	if (!dirn)
		return strdup(name);
	size_t len = strlen(dirn) + strlen(name) + (sub ? strlen(sub) + 1 : 0) + 2;
	char *r = malloc(len);
	if (!r)
		return NULL;
	if (sub)
		snprintf(r, len, "%s/%s/%s", dirn, sub, name);
	else
		snprintf(r, len, "%s/%s", dirn, name);
	return r;
}

static int add_row(struct linetab *t, struct lseq *seq, uint64_t addr, uint32_t file, uint32_t line,
		   bool end)
{
	/* binutils keeps the last row at one address (same end flag) of a sequence */
	if (seq->n) {
		struct lrow *last = &t->rows[t->nr_rows - 1];
		if (last->addr == addr && last->end == end) {
			*last = (struct lrow){ addr, file, line, end, 0 };
			return 0;
		}
	}
	if (PK_GROW(t->rows, t->cap_rows, t->nr_rows + 1))
		return -ENOMEM;
	t->rows[t->nr_rows++] = (struct lrow){ addr, file, line, end, 0 };
	seq->n++;
	if (addr < seq->low)
		seq->low = addr;
	return 0;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct lseq *x = a, *y = b;
	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	if (x->high != y->high)
		return x->high > y->high ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

void linetab__free(struct linetab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_files; i++)
		free(t->files[i]);
	free(t->files);
	free(t->rows);
	free(t->seqs);
	free(t);
}

/* a unit's header: what the line program needs to run */
struct lhdr {
	unsigned offsz, addr_size, min_len, max_ops, line_range, opcode_base;
	int line_base;
	bool v5;
	const uint8_t *prog;	/* the program, after the header */
	uint8_t std_len[256];	/* operands of each standard opcode */
};

/* The unit header at off, up to the directory and file tables (r left there). */
static int read_header(struct rd *r, const struct linetab_src *src, uint64_t off, struct lhdr *h)
{
	*r = (struct rd){ src->line.data + off, src->line.data + src->line.size, src->swap, false };
	memset(h, 0, sizeof(*h));
	h->offsz = 4;
	uint64_t unit_len = get(r, 4);
	if (unit_len == 0xffffffff) {
		h->offsz = 8;
		unit_len = get(r, 8);
	}
	if (r->bad || unit_len > (uint64_t)(r->end - r->p))
		return -EINVAL;
	r->end = r->p + unit_len;
	unsigned version = (unsigned)get(r, 2);
	if (version < 2 || version > 5)
		return -EINVAL;
	h->v5 = version >= 5;
	h->addr_size = 8;
	if (h->v5) {
		h->addr_size = (unsigned)get(r, 1);
		get(r, 1);	/* segment selector size */
	}
	uint64_t hlen = get(r, h->offsz);
	if (hlen > (uint64_t)(r->end - r->p))
		return -EINVAL;
	h->prog = r->p + hlen;
	h->min_len = (unsigned)get(r, 1);
	h->max_ops = version >= 4 ? (unsigned)get(r, 1) : 1;
	get(r, 1);	/* default_is_stmt */
	h->line_base = (int8_t)get(r, 1);
	h->line_range = (unsigned)get(r, 1);
	h->opcode_base = (unsigned)get(r, 1);
	for (unsigned i = 1; i < h->opcode_base && !r->bad; i++)
		h->std_len[i] = (uint8_t)get(r, 1);
	return r->bad || !h->max_ops ? -EINVAL : 0;
}

/* DWARF 5: the directory, then the file entry formats and entries */
static int read_tables_v5(struct rd *r, const struct lhdr *h, const struct linetab_src *src,
			  struct names *dirs, struct names *files)
{
	int err = 0;
	for (int pass = 0; pass < 2 && !err; pass++) {
		unsigned nfmt = (unsigned)get(r, 1);
		uint64_t fmt[256][2];
		for (unsigned i = 0; i < nfmt; i++) {
			fmt[i][0] = uleb(r);
			fmt[i][1] = uleb(r);
		}
		uint64_t cnt = uleb(r);
		/* each entry takes input bytes: a count beyond them is a corrupt table */
		if (cnt > (uint64_t)(r->end - r->p) || (cnt && !nfmt))
			return -EINVAL;
		for (uint64_t i = 0; i < cnt && !r->bad && !err; i++) {
			const char *path;
			uint64_t d;
			const uint8_t *before = r->p;
			if (!read_entry(r, (const uint64_t(*)[2])fmt, nfmt, h->offsz, src, &path, &d))
				break;
			if (r->p == before)	/* forms of no size: nothing bounds the count */
				return -EINVAL;
			err = push(pass ? files : dirs, path, d);
		}
	}
	return err;
}

/* DWARF 2-4: include_directories, then file_names (name, dir, mtime, length) */
static int read_tables_old(struct rd *r, struct names *dirs, struct names *files)
{
	const char *s;
	int err = 0;
	while (!r->bad && (s = cstr(r)) && *s && !err)
		err = push(dirs, s, 0);
	while (!r->bad && !err && (s = cstr(r)) && *s) {
		uint64_t d = uleb(r);
		uleb(r);
		uleb(r);
		err = push(files, s, d);
	}
	return err;
}

/* the line program's registers within one sequence */
struct lstate {
	uint64_t addr;
	unsigned op_index;
	uint32_t file;
	int64_t line;
	bool end;
	uint32_t discr;		/* until the next row */
};

/* A row with the state's discriminator (reset after each row, as DWARF says). */
static int add_row_st(struct linetab *t, struct lseq *seq, struct lstate *st, bool end)
{
	int err = add_row(t, seq, st->addr, st->file, (uint32_t)st->line, end);
	if (!err)
		t->rows[t->nr_rows - 1].discr = st->discr;
	st->discr = 0;
	return err;
}

static void advance(struct lstate *st, const struct lhdr *h, uint64_t adv)
{
	st->addr += h->min_len * ((st->op_index + adv) / h->max_ops);
	st->op_index = (unsigned)((st->op_index + adv) % h->max_ops);
}

/* An extended opcode (after its 0): end_sequence, set_address, define_file. */
static int extended_op(struct rd *r, const struct lhdr *h, struct linetab *t, struct lseq *seq,
		       struct lstate *st, struct names *files)
{
	int err = 0;
	uint64_t len = uleb(r);
	if (!len || len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return 0;
	}
	const uint8_t *next = r->p + len;
	unsigned eop = (unsigned)get(r, 1);
	if (eop == DW_LNE_end_sequence) {
		err = add_row_st(t, seq, st, true);
		st->end = true;
	} else if (eop == DW_LNE_set_address) {
		unsigned n = (unsigned)(len - 1);
		st->addr = get(r, n <= 8 ? n : h->addr_size);
		st->op_index = 0;
	} else if (eop == DW_LNE_set_discriminator) {
		st->discr = (uint32_t)uleb(r);
	} else if (eop == DW_LNE_define_file && !h->v5) {
		/* pre-5: a file added as the program runs */
		const char *s = cstr(r);
		uint64_t d = uleb(r);
		err = push(files, s, d);
	}
	r->p = next;
	return err;
}

/* One opcode: a special one adds a row; standard ones move the registers. */
static int one_op(struct rd *r, const struct lhdr *h, struct linetab *t, struct lseq *seq,
		  struct lstate *st, struct names *files)
{
	unsigned op = (unsigned)get(r, 1);
	if (op >= h->opcode_base) {
		unsigned adj = op - h->opcode_base;
		if (!h->line_range) {
			r->bad = true;
			return 0;
		}
		advance(st, h, adj / h->line_range);
		st->line += h->line_base + (int)(adj % h->line_range);
		return add_row_st(t, seq, st, false);
	}
	switch (op) {
	case 0:
		return extended_op(r, h, t, seq, st, files);
	case DW_LNS_copy:
		return add_row_st(t, seq, st, false);
	case DW_LNS_advance_pc:
		advance(st, h, uleb(r));
		break;
	case DW_LNS_advance_line:
		st->line += sleb(r);
		break;
	case DW_LNS_set_file: {
		uint64_t f = uleb(r);
		st->file = h->v5 ? (uint32_t)f : (f ? (uint32_t)(f - 1) : UINT32_MAX);
		break;
	}
	case DW_LNS_negate_stmt:
	case DW_LNS_set_basic_block:
	case DW_LNS_set_prologue_end:
	case DW_LNS_set_epilogue_begin:
		break;
	case DW_LNS_const_add_pc:
		advance(st, h, h->line_range ? (255 - h->opcode_base) / h->line_range : 0);
		break;
	case DW_LNS_fixed_advance_pc:
		st->addr += get(r, 2);
		st->op_index = 0;
		break;
	case DW_LNS_set_column:
	case DW_LNS_set_isa:
		uleb(r);
		break;
	default:	/* unknown opcodes: skip the operands the header gives them */
		for (unsigned i = 0; i < h->std_len[op] && !r->bad; i++)
			uleb(r);
		break;
	}
	return 0;
}

/* The program, sequence by sequence, into t's rows and sequences. */
static int run_program(struct rd *r, const struct lhdr *h, struct linetab *t, struct names *files)
{
	size_t order = 0;
	int err = 0;
	r->p = h->prog;
	while (r->p < r->end && !err) {
		/* binutils: DWARF 5 starts with entry 0, older ones with 1 (entry 0 of its table) */
		struct lstate st = { .line = 1 };
		struct lseq seq = { .low = UINT64_MAX, .first = t->nr_rows, .order = order };
		order++;
		while (!st.end && r->p < r->end && !r->bad && !err)
			err = one_op(r, h, t, &seq, &st, files);
		if (err)
			break;
		if (st.end && seq.n) {
			seq.high = t->rows[t->nr_rows - 1].addr;
			if (PK_GROW(t->seqs, t->cap_seqs, t->nr_seqs + 1))
				return -ENOMEM;
			t->seqs[t->nr_seqs++] = seq;
		}
		if (r->bad)
			break;
	}
	return err;
}

/* file names, as binutils builds them */
static int name_files(struct linetab *t, const struct names *files, const struct names *dirs,
		      const char *comp_dir)
{
	if (!files->n)
		return 0;
	if (!(t->files = calloc(files->n, sizeof(*t->files))))
		return -ENOMEM;
	for (size_t i = 0; i < files->n; i++) {
		t->files[i] = concat(files, dirs, i, t->v5, comp_dir);
		if (!t->files[i])
			return -ENOMEM;
		t->nr_files = i + 1;
	}
	return 0;
}

/* sort sequences; drop nested ones, trim overlapping ones (binutils' sort_line_sequences) */
static void sort_sequences(struct linetab *t)
{
	if (!t->nr_seqs)
		return;
	qsort(t->seqs, t->nr_seqs, sizeof(*t->seqs), cmp_seq);
	size_t n = 1;
	uint64_t last_high = t->seqs[0].high;
	for (size_t i = 1; i < t->nr_seqs; i++) {
		struct lseq s = t->seqs[i];
		if (s.low < last_high) {
			if (s.high <= last_high)
				continue;
			s.low = last_high;
		}
		last_high = s.high;
		t->seqs[n++] = s;
	}
	t->nr_seqs = n;
}

static void names_free(struct names *n)
{
	free(n->v);
	free(n->dir);
}

int linetab__parse(struct linetab **out, const struct linetab_src *src, uint64_t off,
		   const char *comp_dir)
{
	struct rd r;
	struct lhdr h;
	struct names dirs = { 0 }, files = { 0 };
	*out = NULL;
	if (!src->line.data || off >= src->line.size)
		return -EINVAL;
	int err = read_header(&r, src, off, &h);
	if (err)
		return err;
	err = h.v5 ? read_tables_v5(&r, &h, src, &dirs, &files) : read_tables_old(&r, &dirs, &files);
	struct linetab *t = calloc(1, sizeof(*t));
	if (!err && r.bad)
		err = -EINVAL;
	if (!err && !t)
		err = -ENOMEM;
	if (!err) {
		/*
		 * Every row takes at least one byte of the program: room for that
		 * many up front (up to 4M rows), so a large unit's rows are not
		 * copied as the array doubles (untouched room costs no memory).
		 */
		t->v5 = h.v5;
		size_t room = (size_t)(r.end - r.p) + 1;
		if (PK_GROW(t->rows, t->cap_rows, room < (1u << 22) ? room : (1u << 22)))
			err = -ENOMEM;
	}
	if (!err)
		err = run_program(&r, &h, t, &files);	/* define_file may add files */
	if (!err)
		err = name_files(t, &files, &dirs, comp_dir);
	names_free(&dirs);
	names_free(&files);
	if (err) {
		if (t)
			linetab__free(t);
		return err;
	}
	sort_sequences(t);
	*out = t;
	return 0;
}

const char *linetab__file(const struct linetab *t, uint64_t idx)
{
	/* DW_AT_call_file numbers as DW_LNS_set_file's */
	if (!t->v5) {
		if (!idx)
			return NULL;
		idx--;
	}
	return idx < t->nr_files ? t->files[idx] : "<unknown>";
}

bool linetab__lookup(const struct linetab *t, uint64_t addr, const char **file, unsigned *line,
		     unsigned *discr)
{
	size_t lo = 0, hi = t->nr_seqs;
	const struct lseq *seq = NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		seq = &t->seqs[mid];
		if (addr < seq->low)
			hi = mid;
		else if (addr >= seq->high)
			lo = mid + 1;
		else
			break;
	}
	if (!seq || addr < seq->low || addr >= seq->high)
		return false;
	const struct lrow *rows = t->rows + seq->first;
	/* binutils' search over the sequence's rows in their order */
	size_t l = 0, h = seq->n, mid = 0;
	const struct lrow *info = NULL;
	while (l < h) {
		mid = (l + h) / 2;
		info = &rows[mid];
		if (addr < info->addr)
			h = mid;
		else if (mid + 1 < seq->n && addr >= rows[mid + 1].addr)
			l = mid + 1;
		else
			break;
	}
	if (!info || mid + 1 >= seq->n || addr < info->addr || addr >= rows[mid + 1].addr ||
	    info->end)
		return false;
	*file = info->file < t->nr_files ? t->files[info->file] : "<unknown>";
	*line = info->line;
	if (discr)
		*discr = info->discr;
	return true;
}

size_t linetab__nr_seqs(const struct linetab *t)
{
	return t ? t->nr_seqs : 0;
}

void linetab__seq(const struct linetab *t, size_t i, uint64_t *lo, uint64_t *hi)
{
	*lo = t->seqs[i].low;
	*hi = t->seqs[i].high;
}
