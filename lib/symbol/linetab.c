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
			*last = (struct lrow){ addr, file, line, end };
			return 0;
		}
	}
	if (PK_GROW(t->rows, t->cap_rows, t->nr_rows + 1))
		return -ENOMEM;
	t->rows[t->nr_rows++] = (struct lrow){ addr, file, line, end };
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

int linetab__parse(struct linetab **out, const struct linetab_src *src, uint64_t off,
		   const char *comp_dir)
{
	*out = NULL;
	if (!src->line.data || off >= src->line.size)
		return -EINVAL;
	struct rd r = { src->line.data + off, src->line.data + src->line.size, src->swap, false };
	unsigned offsz = 4;
	uint64_t unit_len = get(&r, 4);
	if (unit_len == 0xffffffff) {
		offsz = 8;
		unit_len = get(&r, 8);
	}
	if (r.bad || unit_len > (uint64_t)(r.end - r.p))
		return -EINVAL;
	r.end = r.p + unit_len;
	unsigned version = (unsigned)get(&r, 2);
	if (version < 2 || version > 5)
		return -EINVAL;
	unsigned addr_size = 8;
	if (version >= 5) {
		addr_size = (unsigned)get(&r, 1);
		get(&r, 1);	/* segment selector size */
	}
	uint64_t hlen = get(&r, offsz);
	if (hlen > (uint64_t)(r.end - r.p))
		return -EINVAL;
	const uint8_t *prog = r.p + hlen;
	unsigned min_len = (unsigned)get(&r, 1);
	unsigned max_ops = version >= 4 ? (unsigned)get(&r, 1) : 1;
	bool default_stmt = get(&r, 1) != 0;
	(void)default_stmt;
	int line_base = (int8_t)get(&r, 1);
	unsigned line_range = (unsigned)get(&r, 1);
	unsigned opcode_base = (unsigned)get(&r, 1);
	uint8_t std_len[256] = { 0 };
	for (unsigned i = 1; i < opcode_base && !r.bad; i++)
		std_len[i] = (uint8_t)get(&r, 1);
	if (r.bad || !max_ops)
		return -EINVAL;
	struct names dirs = { 0 }, files = { 0 };
	int err = 0;
	bool v5 = version >= 5;
	if (v5) {
		for (int pass = 0; pass < 2 && !err; pass++) {
			unsigned nfmt = (unsigned)get(&r, 1);
			uint64_t fmt[256][2];
			for (unsigned i = 0; i < nfmt; i++) {
				fmt[i][0] = uleb(&r);
				fmt[i][1] = uleb(&r);
			}
			uint64_t cnt = uleb(&r);
			/* each entry takes input bytes: a count beyond them is a corrupt table */
			if (cnt > (uint64_t)(r.end - r.p) || (cnt && !nfmt)) {
				err = -EINVAL;
				break;
			}
			for (uint64_t i = 0; i < cnt && !r.bad && !err; i++) {
				const char *path;
				uint64_t d;
				const uint8_t *before = r.p;
				if (!read_entry(&r, (const uint64_t(*)[2])fmt, nfmt, offsz, src, &path, &d))
					break;
				if (r.p == before) {	/* forms of no size: nothing bounds the count */
					err = -EINVAL;
					break;
				}
				err = push(pass ? &files : &dirs, path, d);
			}
		}
	} else {
		const char *s;
		while (!r.bad && (s = cstr(&r)) && *s && !err)
			err = push(&dirs, s, 0);
		while (!r.bad && !err && (s = cstr(&r)) && *s) {
			uint64_t d = uleb(&r);
			uleb(&r);
			uleb(&r);
			err = push(&files, s, d);
		}
	}
	struct linetab *t = calloc(1, sizeof(*t));
	if (t)
		t->v5 = v5;
	if (!t || err || r.bad) {
		free(t);
		free(dirs.v);
		free(dirs.dir);
		free(files.v);
		free(files.dir);
		return err ? err : r.bad ? -EINVAL : -ENOMEM;
	}
	/* the program; DW_LNE_define_file (pre-5) may add files as it runs */
	r.p = prog;
	size_t order = 0;
	while (r.p < r.end && !err) {
		uint64_t addr = 0;
		unsigned op_index = 0;
		/* binutils: DWARF 5 starts with entry 0, older ones with 1 (entry 0 of its table) */
		uint32_t file = 0;
		int64_t line = 1;
		bool end = false;
		struct lseq seq = { .low = UINT64_MAX, .first = t->nr_rows, .order = order };
		order++;
		while (!end && r.p < r.end && !r.bad && !err) {
			unsigned op = (unsigned)get(&r, 1);
			if (op >= opcode_base) {
				unsigned adj = op - opcode_base;
				if (!line_range) {
					r.bad = true;
					break;
				}
				uint64_t adv = adj / line_range;
				addr += min_len * ((op_index + adv) / max_ops);
				op_index = (unsigned)((op_index + adv) % max_ops);
				line += line_base + (int)(adj % line_range);
				err = add_row(t, &seq, addr, file, (uint32_t)line, false);
				continue;
			}
			switch (op) {
			case 0: {	/* extended */
				uint64_t len = uleb(&r);
				if (!len || len > (uint64_t)(r.end - r.p)) {
					r.bad = true;
					break;
				}
				const uint8_t *next = r.p + len;
				unsigned eop = (unsigned)get(&r, 1);
				if (eop == DW_LNE_end_sequence) {
					err = add_row(t, &seq, addr, file, (uint32_t)line, true);
					end = true;
				} else if (eop == DW_LNE_set_address) {
					unsigned n = (unsigned)(len - 1);
					addr = get(&r, n <= 8 ? n : addr_size);
					op_index = 0;
				} else if (eop == DW_LNE_define_file && !v5) {
					const char *s = cstr(&r);
					uint64_t d = uleb(&r);
					err = push(&files, s, d);
				}
				r.p = next;
				break;
			}
			case DW_LNS_copy:
				err = add_row(t, &seq, addr, file, (uint32_t)line, false);
				break;
			case DW_LNS_advance_pc: {
				uint64_t adv = uleb(&r);
				addr += min_len * ((op_index + adv) / max_ops);
				op_index = (unsigned)((op_index + adv) % max_ops);
				break;
			}
			case DW_LNS_advance_line:
				line += sleb(&r);
				break;
			case DW_LNS_set_file: {
				uint64_t f = uleb(&r);
				file = v5 ? (uint32_t)f : (f ? (uint32_t)(f - 1) : UINT32_MAX);
				break;
			}
			case DW_LNS_set_column:
				uleb(&r);
				break;
			case DW_LNS_negate_stmt:
			case DW_LNS_set_basic_block:
			case DW_LNS_set_prologue_end:
			case DW_LNS_set_epilogue_begin:
				break;
			case DW_LNS_const_add_pc: {
				uint64_t adv = line_range ? (255 - opcode_base) / line_range : 0;
				addr += min_len * ((op_index + adv) / max_ops);
				op_index = (unsigned)((op_index + adv) % max_ops);
				break;
			}
			case DW_LNS_fixed_advance_pc:
				addr += get(&r, 2);
				op_index = 0;
				break;
			case DW_LNS_set_isa:
				uleb(&r);
				break;
			default:
				for (unsigned i = 0; i < std_len[op] && !r.bad; i++)
					uleb(&r);
				break;
			}
		}
		if (err)
			break;
		if (end && seq.n) {
			seq.high = t->rows[t->nr_rows - 1].addr;
			if (PK_GROW(t->seqs, t->cap_seqs, t->nr_seqs + 1)) {
				err = -ENOMEM;
				break;
			}
			t->seqs[t->nr_seqs++] = seq;
		}
		if (r.bad)
			break;
	}
	/* file names, as binutils builds them */
	if (!err && files.n) {
		t->files = calloc(files.n, sizeof(*t->files));
		if (!t->files)
			err = -ENOMEM;
		for (size_t i = 0; !err && i < files.n; i++) {
			t->files[i] = concat(&files, &dirs, i, v5, comp_dir);
			if (!t->files[i])
				err = -ENOMEM;
			t->nr_files = i + 1;
		}
	}
	free(dirs.v);
	free(dirs.dir);
	free(files.v);
	free(files.dir);
	if (err) {
		linetab__free(t);
		return err;
	}
	/* sort sequences; drop nested ones, trim overlapping ones (binutils' sort_line_sequences) */
	if (t->nr_seqs) {
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

bool linetab__lookup(const struct linetab *t, uint64_t addr, const char **file, unsigned *line)
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
