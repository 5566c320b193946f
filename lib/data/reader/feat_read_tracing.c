/* SPDX-License-Identifier: MIT */
/*
 * data/reader/feat_read_tracing.c — the tracing data perf stores for tracepoint
 * events (FEAT_TRACING_DATA, or a pipe's HEADER_TRACING_DATA record): its
 * header (byte order, long and page size of the recording kernel) and the
 * tracefs "format" text of each event, parsed into fields (name, type,
 * offset, size, signedness, arrays, __data_loc strings) so that RAW sample
 * data can be printed field by field. Layout as perf's trace-event-info.c
 * writes it: magic, version, endian, long size, page size, header_page,
 * header_event, ftrace formats, event formats per system, kallsyms,
 * printk formats, saved cmdlines.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/bsearch.h"
#include "util/grow.h"

struct dr_tracing {
	const uint8_t *data;
	size_t size;
	bool big_endian;
	uint32_t long_size, page_size;
	struct pk_tp_format *fmts;
	size_t nr, cap;
	struct pk_arena arena;
};

/* n bytes (NULL when they are not there). */
static const uint8_t *tbytes(struct dr_cur *c, uint64_t n)
{
	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *p = c->p;
	c->p += n;
	return p;
}

static const char *tstr(struct dr_cur *c)
{
	if (c->bad)
		return NULL;
	const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	if (!nul) {
		c->bad = true;
		return NULL;
	}
	const char *s = (const char *)c->p;
	c->p = nul + 1;
	return s;
}

static bool prefix(const char *s, const char *e, const char *pfx)
{
	size_t n = strlen(pfx);
	return (size_t)(e - s) >= n && !memcmp(s, pfx, n);
}

static unsigned long num_after(const char *s, const char *e, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = s; p + n <= e; p++)
		if (!memcmp(p, key, n))
			return strtoul(p + n, NULL, 10);
	return 0;
}

/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" */
static bool parse_field(struct pk_arena *a, const char *s, const char *e, struct pk_tp_field *f)
{
	const char *d = s + strlen("field:");
	const char *semi = memchr(d, ';', (size_t)(e - d));
	if (!semi)
		return false;
	f->type = pk_arena__strndup(a, d, (size_t)(semi - d));
	const char *ne = semi;
	while (ne > d && ne[-1] == ' ')
		ne--;
	if (ne > d && ne[-1] == ']') {
		const char *lb = ne - 1;
		while (lb > d && *lb != '[')
			lb--;
		f->array_len = (uint32_t)strtoul(lb + 1, NULL, 10);
		f->is_array = true;
		ne = lb;
	}
	const char *nb = ne;
	while (nb > d && (nb[-1] == '_' || (nb[-1] >= '0' && nb[-1] <= '9') ||
			  (nb[-1] >= 'a' && nb[-1] <= 'z') || (nb[-1] >= 'A' && nb[-1] <= 'Z')))
		nb--;
	f->name = pk_arena__strndup(a, nb, (size_t)(ne - nb));
	f->offset = (uint32_t)num_after(semi, e, "offset:");
	f->size = (uint32_t)num_after(semi, e, "size:");
	f->is_signed = num_after(semi, e, "signed:") != 0;
	f->is_dynamic = prefix(d, semi, "__data_loc");
	f->is_pointer = memchr(d, '*', (size_t)(nb - d)) != NULL;
	bool chr = strstr(f->type, "char") != NULL;
	f->is_string = chr && (f->is_dynamic || f->is_array) && !f->is_pointer;
	if (f->is_dynamic)
		f->is_array = false;
	return f->type && f->name;
}

static int parse_format(struct dr_tracing *t, const char *sys, const uint8_t *text, size_t len)
{
	struct pk_arena *a = &t->arena;
	struct pk_tp_format fmt = { 0 };
	struct pk_tp_field fields[256];
	size_t nf = 0, ncommon = 0;
	bool in_format = false, common = true;
	const char *s = (const char *)text, *end = s + len;
	fmt.system = sys;
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		const char *l = s;
		while (l < e && (*l == ' ' || *l == '\t'))
			l++;
		if (prefix(l, e, "name:")) {
			const char *v = l + 5;
			while (v < e && *v == ' ')
				v++;
			fmt.name = pk_arena__strndup(a, v, (size_t)(e - v));
		} else if (prefix(l, e, "ID:")) {
			fmt.id = strtoull(l + 3, NULL, 10);
		} else if (prefix(l, e, "format:")) {
			in_format = true;
		} else if (prefix(l, e, "print fmt:")) {
			const char *v = l + 10;
			while (v < e && *v == ' ')
				v++;
			fmt.print_fmt = pk_arena__strndup(a, v, (size_t)(end - v));
			break;
		} else if (in_format && l == e) {
			if (nf)
				common = false;
		} else if (in_format && prefix(l, e, "field:") && nf < 256) {
			struct pk_tp_field f = { 0 };
			if (!parse_field(a, l, e, &f))
				return -EINVAL;
			fields[nf++] = f;
			if (common)
				ncommon = nf;
		}
		s = e + 1;
	}
	if (!fmt.name)
		return -EINVAL;
	struct pk_tp_field *fv = pk_arena__alloc(a, (nf + 1) * sizeof(*fv));
	if (!fv)
		return -ENOMEM;
	memcpy(fv, fields, nf * sizeof(*fv));
	fmt.common = fv;
	fmt.nr_common = ncommon;
	fmt.fields = fv + ncommon;
	fmt.nr_fields = nf - ncommon;
	if (PK_GROW(t->fmts, t->cap, t->nr + 1))
		return -ENOMEM;
	t->fmts[t->nr++] = fmt;
	return 0;
}

static int cmp_fmt(const void *a, const void *b)
{
	const struct pk_tp_format *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

void dr_tracing_free(struct dr_tracing *t)
{
	if (!t)
		return;
	free(t->fmts);
	pk_arena__free(&t->arena);
	free(t);
}

int dr_tracing_parse(struct pk_data_reader *r, const uint8_t *data, size_t size, uint64_t pos)
{
	dr_tracing_free(r->tracing);
	r->tracing = NULL;
	struct dr_tracing *t = calloc(1, sizeof(*t));
	if (!t)
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	r->tracing = t;
	t->data = data;
	t->size = size;
	struct dr_cur c = { .p = data, .end = data + size };
	static const uint8_t magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint8_t *m = tbytes(&c, 10);
	if (!m || memcmp(m, magic, 10))
		return dr_fail(r, -EINVAL, pos, "tracing data: no \"tracing\" magic");
	const char *version = tstr(&c);
	const uint8_t *hdr = tbytes(&c, 2);
	if (!version || !hdr)
		return dr_fail(r, -EINVAL, pos, "tracing data: truncated header");
	t->big_endian = hdr[0];
	t->long_size = hdr[1];
	c.swap = t->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	t->page_size = dr_cur_u32(&c);
	const uint8_t *tag = tbytes(&c, 12);
	if (!tag || memcmp(tag, "header_page", 12))
		return dr_fail(r, -EINVAL, pos, "tracing data: no header_page");
	tbytes(&c, dr_cur_u64(&c));
	tag = tbytes(&c, 13);
	if (!tag || memcmp(tag, "header_event", 13))
		return dr_fail(r, -EINVAL, pos, "tracing data: no header_event");
	tbytes(&c, dr_cur_u64(&c));
	uint32_t nftrace = dr_cur_u32(&c);
	for (uint32_t i = 0; i < nftrace && !c.bad; i++) {
		uint64_t n = dr_cur_u64(&c);
		const uint8_t *text = tbytes(&c, n);
		if (text && parse_format(t, "ftrace", text, (size_t)n) == -ENOMEM)
			return dr_fail(r, -ENOMEM, pos, "out of memory");
	}
	uint32_t nsys = dr_cur_u32(&c);
	for (uint32_t i = 0; i < nsys && !c.bad; i++) {
		const char *sys = tstr(&c);
		uint32_t cnt = dr_cur_u32(&c);
		const char *sysc = sys ? pk_arena__strdup(&t->arena, sys) : NULL;
		for (uint32_t k = 0; k < cnt && !c.bad; k++) {
			uint64_t n = dr_cur_u64(&c);
			const uint8_t *text = tbytes(&c, n);
			if (!text)
				break;
			int rc = parse_format(t, sysc, text, (size_t)n);
			if (rc == -ENOMEM)
				return dr_fail(r, rc, pos, "out of memory");
			if (rc)
				return dr_fail(r, rc, pos, "tracing data: event format %u of %s has no name",
					       k, sys);
		}
	}
	if (c.bad)
		return dr_fail(r, -EINVAL, pos, "tracing data of %zu bytes is truncated", size);
	/* kallsyms, printk formats, saved cmdlines: not needed */
	if (t->nr)	/* qsort's base may not be NULL, even for no elements */
		qsort(t->fmts, t->nr, sizeof(*t->fmts), cmp_fmt);
	return 0;
}

static bool fmt_before(const void *elem, const void *id)
{
	return ((const struct pk_tp_format *)elem)->id < *(const uint64_t *)id;
}

const struct pk_tp_format *pk_data_reader__tp_format(const struct pk_data_reader *r, uint64_t id)
{
	const struct dr_tracing *t = r->tracing;
	if (!t)
		return NULL;
	size_t lo = pk_bsearch(&id, t->fmts, t->nr, sizeof(*t->fmts), fmt_before);
	return lo < t->nr && t->fmts[lo].id == id ? &t->fmts[lo] : NULL;
}

size_t pk_data_reader__nr_tp_formats(const struct pk_data_reader *r)
{
	return r->tracing ? r->tracing->nr : 0;
}

const struct pk_tp_format *pk_data_reader__tp_format_at(const struct pk_data_reader *r, size_t i)
{
	return r->tracing && i < r->tracing->nr ? &r->tracing->fmts[i] : NULL;
}

const void *pk_data_reader__tracing_data(const struct pk_data_reader *r, size_t *size)
{
	if (size)
		*size = r->tracing ? r->tracing->size : 0;
	return r->tracing ? r->tracing->data : NULL;
}

bool pk_data_reader__tracing_big_endian(const struct pk_data_reader *r)
{
	return r->tracing && r->tracing->big_endian;
}

uint32_t pk_data_reader__tracing_long_size(const struct pk_data_reader *r)
{
	return r->tracing ? r->tracing->long_size : 0;
}
