/* SPDX-License-Identifier: MIT */
/*
 * report/print.c — perf report --stdio's text: the section header of each
 * event ("# Samples: ...", "# Event count (approx.): ..."), the column
 * headers and dotted lines with perf's widths (hists__calc_col_len over the
 * shown entries), each entry's columns formatted as perf's hpp and sort
 * entry printers do, and its callchain.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include "report/report_int.h"

static unsigned umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/*
 * perf's dso__symtab_origin, from where the symbols were read: the kernel's
 * kallsyms 'k', a JIT map 'j', the build-id cache's copy 'B' (its debug
 * file 'D'), a .build-id debug file 'b', the file itself 'd', the debug
 * directory's copies 'f' (NAME.debug) and 'u', a .debug/ beside it 'o',
 * another (a .gnu_debuglink) 'l'; no symbol table '!'.
 */
static char symtab_origin(struct pk_dso *d)
{
	if (!d)
		return '!';
	const char *src = pk_dso__symsrc(d);
	if (!src && pk_dso__kind(d) == PK_DSO_USER)
		src = pk_dso__runtime(d);	/* perf: the runtime file stands for the symtab */
	if (!src)
		return '!';
	switch (pk_dso__kind(d)) {
	case PK_DSO_KERNEL:
		return 'k';
	case PK_DSO_PERF_MAP:
		return 'j';
	default:
		break;
	}
	const char *base = strrchr(src, '/');
	base = base ? base + 1 : src;
	/* the build-id cache: DIR/NAME/<build-id>/{elf,vdso,debug} */
	bool in_cache = false;
	if (base - src >= 2) {
		const char *end = base - 1, *start = end;
		while (start > src && start[-1] != '/')
			start--;
		in_cache = end - start >= 16 && strspn(start, "0123456789abcdef") == (size_t)(end - start);
	}
	if (in_cache && (!strcmp(base, "elf") || !strcmp(base, "vdso")))
		return 'B';
	if (in_cache && !strcmp(base, "debug"))
		return 'D';
	if (strstr(src, "/.build-id/"))
		return 'b';
	const char *name = pk_dso__name(d);
	size_t sl = strlen(src), nl = strlen(name);
	if (sl >= nl && !strcmp(src + sl - nl, name))
		return sl == nl || !strstr(src, "/debug/") ? 'd' : 'u';
	if (sl >= nl + 6 && !strncmp(src + sl - nl - 6, name, nl) && !strcmp(src + sl - 6, ".debug"))
		return 'f';
	return strstr(src, "/.debug/") ? 'o' : 'l';
}

static const char *dso_name(const struct pk_report *r, const struct pk_dso *d)
{
	return r->opts.verbose > 0 ? pk_dso__name(d) : pk_dso__short_name(d);
}

static const char *thread_comm(const struct rp_entry *e)
{
	return e->thread && e->thread->comm ? e->thread->comm : "";
}

/*
 * perf's hists__calc_col_len (over the entries list[0..n), those a filter
 * hides left out when skip_hidden) and reset_sort_width
 */
static void calc_widths(struct pk_report *r, int h, const uint32_t *list, size_t n,
			bool skip_hidden, unsigned *w)
{
	memset(w, 0, RP_COL_NR * sizeof(*w));
	const struct rp_hists *hs = &r->hists[h];
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		/* perf's widths count the entries under --percent-limit too, not hidden ones */
		const struct rp_entry *e = rp_entry(r, list[i]);
		if (skip_hidden && e->hidden)
			continue;
		if (skip_hidden && r->opts.exclude_other && !rp_ctx(r, e->ctx)->parent)
			continue;	/* -x: perf's filtered entries take no width */
		any = true;
		const struct rp_lclass *lc = rp_lclass(r, e->lclass);
		const struct pk_loc *loc = lc->loc;
		/* perf's he->ms.sym: the first sample's, whether or not sym is a key */
		const struct pk_sym *sym = lc->sym ? lc->sym : loc->sym;
		if (sym) {
			/* -v: the address and origin letter too (perf's BITS_PER_LONG / 4 + 2 + 3) */
			w[RP_KEY_SYM] = umax(w[RP_KEY_SYM], (unsigned)strlen(sym->name) + 4 +
							    (r->opts.verbose > 0 ? 21 : 0));
		} else {
			w[RP_KEY_SYM] = umax(w[RP_KEY_SYM], 16 + 4 + 2);
			/* unresolved addresses (perf's hists__set_unres_dso_col_len: not with --dsos) */
			if (!(pk_sample_filter__hides(r->opts.filter) & PK_FILTER_DSO))
				w[RP_KEY_DSO] = umax(w[RP_KEY_DSO], 16);
		}
		unsigned cl = (unsigned)strlen(thread_comm(e));
		if (cl > w[RP_KEY_COMM]) {
			w[RP_KEY_COMM] = cl;
			w[RP_KEY_PID] = cl + 8;
		}
		if (loc->map && loc->dso)
			w[RP_KEY_DSO] = umax(w[RP_KEY_DSO], (unsigned)strlen(dso_name(r, loc->dso)));
		const char *tr = rp_ctx_trace(r, rp_ctx(r, e->ctx));
		if (tr)
			w[RP_KEY_TRACE] = umax(w[RP_KEY_TRACE], (unsigned)strlen(tr));
		const struct pk_sym *ps = rp_ctx(r, e->ctx)->parent;
		if (ps)
			w[RP_KEY_PARENT] = umax(w[RP_KEY_PARENT], (unsigned)strlen(ps->name));
		if (r->has_key[RP_KEY_SRCFILE] && lc->srcfile)
			w[RP_KEY_SRCFILE] = umax(w[RP_KEY_SRCFILE], (unsigned)strlen(lc->srcfile));
		if (r->has_key[RP_KEY_SRCLINE] && lc->srcline && !e->srcline_late)
			w[RP_KEY_SRCLINE] = umax(w[RP_KEY_SRCLINE],
						 umax((unsigned)strlen(lc->srcline), 11));
	}
	if (any) {
		w[RP_KEY_CPU] = 3;
		w[RP_KEY_TIME] = 12;
		w[RP_KEY_LOCAL_WEIGHT] = w[RP_KEY_WEIGHT] = 12;
		w[RP_KEY_LOCAL_INS_LAT] = w[RP_KEY_INS_LAT] = 13;
		w[RP_KEY_LOCAL_P_STAGE_CYC] = w[RP_KEY_P_STAGE_CYC] = 13;
	}
	w[RP_KEY_TID] = w[RP_KEY_PID];
	/* the headers' lengths, at print time */
	for (int c = RP_KEY_PID; c < RP_COL_NR; c++)
		w[c] = umax(w[c], (unsigned)strlen(rp_col__header(c)));
	/* value columns: perf's fmt->len, times the group's members */
	int nm = r->group ? hs->nr_members : 1;
	int shown = 0;
	for (int m = 0; m < nm; m++)
		if (r->hists[h + m].nr_samples)
			shown++;
	for (int c = 0; c < RP_COL_NR_VALUE; c++) {
		unsigned len = 8;
		if (c == RP_COL_OVERHEAD_GUEST_SYS || c == RP_COL_OVERHEAD_GUEST_US)
			len = 9;
		else if (c == RP_COL_SAMPLES || c == RP_COL_PERIOD)
			len = 12;
		if (r->group && nm > 1 && !rp_col__is_topdown(c))
			len = umax(len, (unsigned)shown * len);
		w[c] = umax(len, (unsigned)strlen(rp_col__header(c)));
	}
}

void rp_calc_widths(struct pk_report *r, int h, unsigned *w)
{
	calc_widths(r, h, r->hists[h].out, r->hists[h].nr_out, true, w);
}

void rp_calc_widths_of(struct pk_report *r, int h, const uint32_t *list, size_t n, unsigned *w)
{
	calc_widths(r, h, list, n, false, w);
}

/* the fmt->len of a value column (one member's share of its width) */
static unsigned base_len(int c)
{
	if (c == RP_COL_OVERHEAD_GUEST_SYS || c == RP_COL_OVERHEAD_GUEST_US)
		return 9;
	if (c == RP_COL_SAMPLES || c == RP_COL_PERIOD)
		return 12;
	return 8;
}

static uint64_t stat_value(int c, const struct rp_entry *e, bool children)
{
	switch (c) {
	case RP_COL_OVERHEAD:
		return e->stat.period;
	case RP_COL_OVERHEAD_SYS:
		return e->stat.period_sys;
	case RP_COL_OVERHEAD_US:
		return e->stat.period_us;
	case RP_COL_OVERHEAD_GUEST_SYS:
		return e->stat.period_guest_sys;
	case RP_COL_OVERHEAD_GUEST_US:
		return e->stat.period_guest_us;
	case RP_COL_CHILDREN:
		return children ? e->acc.period : 0;
	case RP_COL_SAMPLES:
		return e->stat.nr_events;
	case RP_COL_PERIOD:
		return e->stat.period;
	default:
		return 0;
	}
}

/* mem: the members' entries (--hierarchy's node sums), else e's pairs */
static int value_snprintf(struct pk_report *r, int c, const struct rp_entry *e,
			  const struct rp_entry *mem, int h, char *buf, size_t size, unsigned width)
{
	unsigned len = base_len(c);
	if (rp_col__is_topdown(c))
		len = width;	/* pmukit's columns: right-aligned under their header */
	if (c == RP_COL_CHILDREN && !r->children)
		return snprintf(buf, size, " %*s", (int)len - 1, "N/A");
	if (rp_col__is_topdown(c)) {
		bool valid;
		double v = rp_topdown_value(r, c, e, h, &valid);
		if (!valid)
			return snprintf(buf, size, " %*s", (int)len - 1, "");
		return snprintf(buf, size, " %*.2f%%", (int)len - 2, v);
	}
	int nm = r->group && (e->pairs || mem) ? r->hists[h].nr_members : 1;
	size_t off = 0;
	for (int m = 0; m < nm && off < size; m++) {
		const struct rp_entry *pe = e;
		int hm = h + m;
		if (m) {
			if (!r->hists[hm].nr_samples)
				continue;	/* perf's skip_empty */
			pe = mem ? &mem[m] : e->pairs[m] != UINT32_MAX ? rp_entry(r, e->pairs[m]) : NULL;
		}
		uint64_t v = pe ? stat_value(c, pe, r->children) : 0;
		int n;
		if (c == RP_COL_SAMPLES || c == RP_COL_PERIOD) {
			n = snprintf(buf + off, size - off, " %*" PRIu64, (int)len - 1, v);
		} else {
			uint64_t total = rp_hists_pct_total(r, hm);
			double pct = total ? 100.0 * v / total : 0.0;
			n = snprintf(buf + off, size - off, " %*.2f%%", (int)len - 2, pct);
		}
		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	return (int)(off < size ? off : size - 1);
}

int rp_col_snprintf_members(struct pk_report *r, int col, const struct rp_entry *e,
			    const struct rp_entry *mem, int h, char *buf, size_t size,
			    unsigned width)
{
	return value_snprintf(r, col, e, mem, h, buf, size, width);
}

int rp_col_snprintf(struct pk_report *r, int col, const struct rp_entry *e, int h, char *buf,
		    size_t size, unsigned width)
{
	if (!rp_col__is_key(col))
		return value_snprintf(r, col, e, NULL, h, buf, size, width);
	const struct rp_lclass *lc = rp_lclass(r, e->lclass);
	const struct pk_loc *loc = lc->loc;
	int w = (int)width;
	switch (col) {
	case RP_KEY_PID:
	case RP_KEY_TID: {
		int cw = (int)umax(7, width) - 8;
		return snprintf(buf, size, "%7d:%-*.*s", e->thread ? e->thread->tid : -1, cw, cw,
				thread_comm(e));
	}
	case RP_KEY_COMM:
		return snprintf(buf, size, "%-*.*s", w, w, e->comm ? e->comm : "");
	case RP_KEY_DSO: {
		const char *name = loc->map && loc->dso ? dso_name(r, loc->dso) : "[unknown]";
		return snprintf(buf, size, "%-*.*s", w, w, name);
	}
	case RP_KEY_SYM: {
		int n = 0;
		if (r->opts.verbose > 0) {
			/* perf's he->ip (kernel symbols: unmapped), then the symbols' origin */
			struct pk_dso *d = loc->map ? loc->dso : NULL;
			const struct pk_loc *fl = e->first_loc ?
				pk_session__loc_at(r->s, e->first_loc - 1) : loc;
			bool raw = e->first_loc ? e->first_raw : lc->raw;
			uint64_t rip = raw ? fl->ip : fl->addr;
			if (d && pk_dso__kind(d) == PK_DSO_KERNEL && !raw && fl->map)
				rip = pk_map__unmap_ip(fl->map, rip);
			n = snprintf(buf, size, "%-#*" PRIx64 " %c ", 18, rip, symtab_origin(d));
			if (n < 0 || (size_t)n >= size)
				return n;
		}
		n += snprintf(buf + n, size - (size_t)n, "[%c] ", e->level ? e->level : '.');
		if (n < 0 || (size_t)n >= size)
			return n;
		if (lc->sym && loc->map) {
			if (lc->sym->type == STT_OBJECT)
				n += snprintf(buf + n, size - (size_t)n, "%s+0x%" PRIx64, lc->sym->name,
					      loc->ip - pk_map__unmap_ip(loc->map, lc->sym->start));
			else
				n += snprintf(buf + n, size - (size_t)n, "%.*s%s", w - n, lc->sym->name,
					      lc->sym->inlined ? " (inlined)" : "");
		} else {
			n += snprintf(buf + n, size - (size_t)n, "%-#.*" PRIx64, 16,
				      lc->sym ? loc->addr : lc->addr);
		}
		return n;
	}
	case RP_KEY_CPU:
		return snprintf(buf, size, "%*.*d", w, w, e->cpu);
	case RP_KEY_TRACE: {
		const char *tr = rp_ctx_trace(r, rp_ctx(r, e->ctx));
		return snprintf(buf, size, "%-.*s", w, tr ? tr : "N/A");
	}
	case RP_KEY_SRCLINE:
		return snprintf(buf, size, "%-.*s", w, lc->srcline ? lc->srcline : "??:0");
	case RP_KEY_SRCFILE:
		return snprintf(buf, size, "%-.*s", w, lc->srcfile ? lc->srcfile : "");
	case RP_KEY_SYM_SIZE: {
		const struct pk_sym *sym = lc->sym ? lc->sym : loc->sym;
		if (sym)
			return snprintf(buf, size, "%*d", w, (int)(sym->end - sym->start));
		return snprintf(buf, size, "%*s", w, "unknown");
	}
	case RP_KEY_TIME: {
		uint64_t t = rp_ctx(r, e->ctx)->time;
		char tb[48];
		snprintf(tb, sizeof(tb), "%" PRIu64 ".%06" PRIu64, t / 1000000000, t % 1000000000 / 1000);
		return snprintf(buf, size, "%-.*s", w, tb);
	}
	case RP_KEY_PARENT: {
		const struct pk_sym *ps = rp_ctx(r, e->ctx)->parent;
		return snprintf(buf, size, "%-*.*s", w, w, ps ? ps->name : "[other]");
	}
	case RP_KEY_IPC_NULL:
		return snprintf(buf, size, "%-*s", w, "-      -");
	case RP_KEY_LOCAL_WEIGHT:
		return snprintf(buf, size, "%-*" PRIu64, w, e->weight[0]);
	case RP_KEY_WEIGHT:
		return snprintf(buf, size, "%-*" PRIu64, w, e->weight[0] * e->stat.nr_events);
	case RP_KEY_LOCAL_INS_LAT:
		return snprintf(buf, size, "%-*u", w, (unsigned)e->weight[1]);
	case RP_KEY_INS_LAT:
		return snprintf(buf, size, "%-*" PRIu64, w, e->weight[1] * e->stat.nr_events);
	case RP_KEY_LOCAL_P_STAGE_CYC:
		return snprintf(buf, size, "%-*u", w, (unsigned)e->weight[2]);
	case RP_KEY_P_STAGE_CYC:
		return snprintf(buf, size, "%-*" PRIu64, w, e->weight[2] * e->stat.nr_events);
	default:
		return 0;
	}
}

static const char *header(const struct pk_report *r, int c)
{
	return c == RP_COL_OVERHEAD && r->overhead_self ? "Self" : rp_col__header(c);
}

void rp_print_headers(struct pk_report *r, const unsigned *w, FILE *fp)
{
	fputs("# ", fp);
	bool first = true;
	for (int i = 0; i < r->nr_fields; i++) {
		int c = r->fields[i];
		if (r->elide[c])
			continue;
		if (!first)
			fputs("  ", fp);
		first = false;
		if (rp_col__is_key(c))
			fprintf(fp, "%-*.*s", (int)w[c], (int)w[c], header(r, c));
		else
			fprintf(fp, "%*s", (int)w[c], header(r, c));
	}
	fputs("\n# ", fp);
	first = true;
	for (int i = 0; i < r->nr_fields; i++) {
		if (r->elide[r->fields[i]])
			continue;
		if (!first)
			fputs("  ", fp);
		first = false;
		for (unsigned k = 0; k < w[r->fields[i]]; k++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

void rp_entry_line(struct pk_report *r, int h, const struct rp_entry *e, const unsigned *w,
		   char *line, size_t size)
{
	size_t off = 0;
	for (int i = 0; i < r->nr_fields && off + 2 < size; i++) {
		int c = r->fields[i];
		if (r->elide[c])
			continue;
		memcpy(line + off, "  ", 2);
		off += 2;
		int n = rp_col_snprintf(r, c, e, h, line + off, size - off, w[c]);
		if (n < 0)
			n = 0;
		if ((size_t)n >= size - off)
			n = (int)(size - off - 1);
		/* perf's hist_entry__snprintf_alignment: pad all but the last column */
		if (i + 1 < r->nr_fields && (unsigned)n < w[c]) {
			unsigned pad = w[c] - (unsigned)n;
			if (off + (size_t)n + pad >= size)
				pad = (unsigned)(size - off - (size_t)n - 1);
			memset(line + off + n, ' ', pad);
			n += (int)pad;
		}
		off += (size_t)n;
	}
	line[off] = 0;
}

void rp_fprintf_maps(struct pk_report *r, const struct rp_entry *e, FILE *fp)
{
	if (r->opts.verbose < 2 || rp_lclass(r, e->lclass)->loc->map || !r->s)
		return;
	const struct pk_map *m;
	for (size_t i = 0; e->thread && (m = pk_session__thread_map_at(r->s, e->thread, i)); i++)
		fprintf(fp, "Map: %" PRIx64 "-%" PRIx64 " %" PRIx64 " %s\n", m->start, m->end, m->pgoff,
			m->dso ? pk_dso__name(m->dso) : "");
	fputs("---------- end\n", fp);
}

static int print_entry(struct pk_report *r, int h, const struct rp_entry *e, const unsigned *w,
		       char *line, size_t size, FILE *fp)
{
	rp_entry_line(r, h, e, w, line, size);
	fputs(line, fp);
	fputc('\n', fp);
	int rc = 0;
	if (r->hists[h].has_callchain && r->cg.enabled)
		rc = rp_chain_fprintf(r, e, h, fp);
	rp_fprintf_maps(r, e, fp);
	return rc;
}

static void group_desc(struct pk_report *r, int h, char *buf, size_t size)
{
	const struct rp_hists *hs = &r->hists[h];
	bool forced = !hs->group_name && r->opts.group != PK_REPORT_DEFAULT &&
		      (r->s == NULL ||
		       pk_session__attr(r->s, h)->nr_members <= 1);
	size_t off = 0;
	if (!forced)
		off += (size_t)snprintf(buf, size, "%s { ", hs->group_name ? hs->group_name : "anon group");
	bool first = true;
	for (int m = 0; m < hs->nr_members && off < size; m++) {
		if (!r->hists[h + m].nr_samples)
			continue;
		off += (size_t)snprintf(buf + off, size - off, "%s%s", first ? "" : ", ",
					r->hists[h + m].name);
		first = false;
	}
	if (!forced && off < size)
		snprintf(buf + off, size - off, " }");
}

void rp_section_head(struct pk_report *r, int h, char *buf, size_t size, uint64_t *total_out)
{
	struct rp_hists *hs = &r->hists[h];
	bool rel = r->opts.filter_relative;
	uint64_t nr = rel ? hs->nr_nf_samples : hs->nr_samples;
	uint64_t total = rel ? hs->total_nf_period : hs->total_period;
	char desc[1024];
	const char *name = hs->name;
	if (r->group && hs->nr_members > 1) {
		group_desc(r, h, desc, sizeof(desc));
		name = desc;
		for (int m = 1; m < hs->nr_members; m++) {
			nr += rel ? r->hists[h + m].nr_nf_samples : r->hists[h + m].nr_samples;
			total += rel ? r->hists[h + m].total_nf_period : r->hists[h + m].total_period;
		}
	}
	/* perf's convert_unit */
	double v = (double)nr;
	char unit = ' ';
	if (v > 1000.0)
		v /= 1000.0, unit = 'K';
	if (v > 1000.0)
		v /= 1000.0, unit = 'M';
	if (v > 1000.0)
		v /= 1000.0, unit = 'G';
	snprintf(buf, size, "Samples: %lu%c of event%s '%s'", (unsigned long)v, unit,
		 hs->nr_members > 1 ? "s" : "", name);
	*total_out = total;
}

int rp_fprintf_hists(struct pk_report *r, int h, FILE *fp, unsigned flags)
{
	struct rp_hists *hs = &r->hists[h];
	bool quiet = flags & PK_REPORT_PRINT_QUIET;
	if (!quiet) {
		char head[1280];
		uint64_t total;
		rp_section_head(r, h, head, sizeof(head), &total);
		fprintf(fp, "# %s", head);
		if (r->opts.time_str)
			fprintf(fp, " (time slices: %s)", r->opts.time_str);
		fprintf(fp, "\n# Event count (approx.): %" PRIu64 "\n#\n", total);
	}
	unsigned w[RP_COL_NR];
	rp_calc_widths(r, h, w);
	if (r->opts.hierarchy) {
		int rc = rp_fprintf_hierarchy(r, h, w, quiet, fp);
		fputs("\n\n", fp);
		return rc;
	}
	if (!quiet)
		rp_print_headers(r, w, fp);
	size_t size = 4;
	for (int i = 0; i < r->nr_fields; i++)
		size += w[r->fields[i]] + 2;
	size += 1024 * 4;
	char *line = malloc(size);
	if (!line)
		return -ENOMEM;
	int rc = 0;
	for (size_t i = 0; i < hs->nr_out && !rc; i++) {
		const struct rp_entry *e = rp_entry(r, hs->out[i]);
		if (e->filtered || e->hidden)
			continue;
		rc = print_entry(r, h, e, w, line, size, fp);
	}
	free(line);
	fputs("\n\n", fp);
	return rc;
}

/*
 * perf's sort__setup_elide: a sort key column whose filter list has one
 * entry is elided, "# comm: NAME" said instead (quiet or not); all elided
 * means none is.
 */
void rp_setup_elide(struct pk_report *r, FILE *fp)
{
	static const struct { int col, list; const char *name; } el[] = {
		{ RP_KEY_SYM, PK_FILTER_LIST_SYMBOL, "symbol" },
		{ RP_KEY_DSO, PK_FILTER_LIST_DSO, "dso" },
		{ RP_KEY_COMM, PK_FILTER_LIST_COMM, "comm" },
	};
	memset(r->elide, 0, sizeof(r->elide));
	bool all = true;
	for (int i = 0; i < r->nr_fields; i++) {
		int c = r->fields[i];
		if (!rp_col__is_key(c))
			continue;
		for (size_t k = 0; k < sizeof(el) / sizeof(el[0]); k++) {
			const char *only = el[k].col == c ? pk_sample_filter__only(r->opts.filter,
										   el[k].list) : NULL;
			if (only) {
				if (fp)
					fprintf(fp, "# %s: %s\n", el[k].name, only);
				r->elide[c] = true;
			}
		}
		all &= r->elide[c];
	}
	if (all)
		memset(r->elide, 0, sizeof(r->elide));
}

int pk_report__fprintf_filters(struct pk_report *r, FILE *fp)
{
	rp_setup_elide(r, fp);
	return ferror(fp) ? -EIO : 0;
}

int pk_report__fprintf(struct pk_report *r, FILE *fp, unsigned flags)
{
	if (!r->finished)
		return -EINVAL;
	int rc = rp_chains_build(r, false);
	if (rc)
		return rc;
	bool quiet = flags & PK_REPORT_PRINT_QUIET;
	rp_setup_elide(r, flags & PK_REPORT_PRINT_NO_FILTERS ? NULL : fp);
	if (!quiet)
		fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", pk_report__total_lost_samples(r));
	for (size_t i = 0; i < r->nr_hists && !rc; i++) {
		struct rp_hists *hs = &r->hists[i];
		if (r->group && !hs->is_leader)
			continue;
		if (!hs->nr_samples)
			continue;	/* perf's --skip-empty (its default) */
		rc = rp_fprintf_hists(r, (int)i, fp, flags);
	}
	if (!rc && !quiet && !(flags & PK_REPORT_PRINT_NO_TIP))
		fputs("#\n# (Tip: pmukit report --sort KEYS, -g caller|callee|none, "
		      "--percent-limit N)\n#\n", fp);
	if (!rc && ferror(fp))
		rc = -EIO;
	return rc;
}
