/* SPDX-License-Identifier: MIT */
/*
 * script-print.c — one sample as perf 6.1's perf script prints it
 * (process_event, perf_sample__fprintf_start, sample__fprintf_sym and
 * sample__fprintf_callchain): the columns, their widths and separators,
 * symbol+offset and DSO, callchain lines with user addresses shown as
 * offsets in their binary, srclines with perf's fallback. Formatted by hand
 * into a large buffer: printf per field is most of perf script's time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "script.h"

#define OBUF_CAP (1u << 20)

int obuf__init(struct obuf *b, FILE *f)
{
	memset(b, 0, sizeof(*b));
	b->f = f;
	b->cap = OBUF_CAP;
	b->p = malloc(b->cap);
	return b->p ? 0 : -ENOMEM;
}

void obuf__flush(struct obuf *b)
{
	if (b->len && !b->err && fwrite(b->p, 1, b->len, b->f) != b->len)
		b->err = true;
	b->len = 0;
}

void obuf__free(struct obuf *b)
{
	obuf__flush(b);
	free(b->p);
	b->p = NULL;
}

/* Room for n more bytes: flush, and grow for a single piece larger than the buffer. */
static char *room(struct obuf *b, size_t n)
{
	if (b->len + n > b->cap && !b->f) {
		size_t ncap = b->cap ? b->cap * 2 : 4096;
		while (ncap < b->len + n)
			ncap *= 2;
		char *np = realloc(b->p, ncap);
		if (!np) {
			b->err = true;
			return NULL;
		}
		b->p = np;
		b->cap = ncap;
	}
	if (b->len + n > b->cap) {
		obuf__flush(b);
		if (n > b->cap) {
			char *np = realloc(b->p, n);
			if (!np) {
				b->err = true;
				return NULL;
			}
			b->p = np;
			b->cap = n;
		}
	}
	return b->p + b->len;
}

static void put(struct obuf *b, const char *s, size_t n)
{
	char *d = room(b, n);
	if (!d)
		return;
	memcpy(d, s, n);
	b->len += n;
}

static void puts_(struct obuf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void putc_(struct obuf *b, char c)
{
	char *d = room(b, 1);
	if (d) {
		*d = c;
		b->len++;
	}
}

/* s right-aligned in width (printf's "%*s") */
static void put_rpad(struct obuf *b, const char *s, size_t width)
{
	size_t n = strlen(s);
	char *d = room(b, (n > width ? n : width));
	if (!d)
		return;
	size_t pad = n < width ? width - n : 0;
	memset(d, ' ', pad);
	memcpy(d + pad, s, n);
	b->len += pad + n;
}

/* digits of v in base (10 or 16, lower case) at the end of buf; returns the start */
static char *fmt_u64(char *end, uint64_t v, unsigned base)
{
	static const char dig[] = "0123456789abcdef";
	char *p = end;
	if (base == 16) {
		do {
			*--p = dig[v & 15];
			v >>= 4;
		} while (v);
		return p;
	}
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

/* "%*<base>" with the number right-aligned, or left-aligned when left (printf's "%-*d") */
static void put_num(struct obuf *b, uint64_t v, bool neg, unsigned base, size_t width, bool left,
		    char padc)
{
	char buf[24];
	char *p = fmt_u64(buf + sizeof(buf), v, base);
	if (neg)
		*--p = '-';
	size_t n = (size_t)(buf + sizeof(buf) - p);
	size_t pad = n < width ? width - n : 0;
	char *d = room(b, n + pad);
	if (!d)
		return;
	if (left) {
		memcpy(d, p, n);
		memset(d + n, padc, pad);
	} else {
		memset(d, padc, pad);
		memcpy(d + pad, p, n);
	}
	b->len += n + pad;
}

static void put_int(struct obuf *b, int64_t v, size_t width, bool left)
{
	bool neg = v < 0;
	put_num(b, neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, neg, 10, width, left, ' ');
}

static void put_hex(struct obuf *b, uint64_t v, size_t width)
{
	put_num(b, v, false, 16, width, false, ' ');
}

/* ---- pieces ------------------------------------------------------------------------ */

static const char *dso_name(const struct pk_loc *l)
{
	return l && l->map && l->dso ? pk_dso__name(l->dso) : "[unknown]";
}

/* perf's __symbol__fprintf_symname_offs (unknown_as_addr off) */
static void put_sym(struct obuf *b, const struct pk_loc *l, uint64_t addr, bool offs)
{
	const struct pk_sym *sym = l ? l->sym : NULL;
	if (!sym) {
		puts_(b, "[unknown]");
		return;
	}
	puts_(b, sym->name);
	if (offs) {
		uint64_t off = addr < sym->end ? addr - sym->start
					      : addr - (l->map ? l->map->start : 0) - sym->start;
		put(b, "+0x", 3);
		put_hex(b, off, 0);
	}
}

/* perf's map__fprintf_dsoname_dsoff: " (dso)" or " (dso+0xoff)" */
static void put_dso(struct obuf *b, const struct pk_loc *l, uint64_t addr, bool dsoff)
{
	put(b, " (", 2);
	puts_(b, dso_name(l));
	if (dsoff && l && l->map && l->dso && pk_dso__kind(l->dso) != PK_DSO_ANON) {
		put(b, "+0x", 3);
		put_hex(b, addr, 0);
	}
	putc_(b, ')');
}

/* perf's map__fprintf_srcline: prefix + srcline, or perf's "dso[addr]" when unknown */
static void put_srcline(struct script *sc, struct obuf *b, const struct pk_loc *l)
{
	if (!l || !l->map || !l->dso)
		return;
	const char *sl = pk_session__loc_srcline(sc->s, l);
	/*
	 * perf 6.1 runs addr2line: "??:?" (a function but no line) becomes its
	 * "??:0", which it does not print; "??:0" (nothing known) or no file to
	 * ask (the kernel, perf-PID.map) prints perf's fallback dso[addr].
	 */
	if (sl) {
		if (strncmp(sl, "??:", 3)) {
			put(b, "\n  ", 3);
			puts_(b, sl);
		}
		return;
	}
	put(b, "\n  ", 3);
	puts_(b, pk_dso__short_name(l->dso));
	putc_(b, '[');
	put_hex(b, l->addr, 0);
	putc_(b, ']');
}

/* "%12s: " of sec.usec, or "%5lu.%09llu: " with --ns */
static void put_time(struct script *sc, struct obuf *b, uint64_t t)
{
	uint64_t secs = t / 1000000000u, ns = t % 1000000000u;
	char buf[48], *end = buf + sizeof(buf), *p;
	if (sc->ns) {
		p = fmt_u64(end, ns, 10);
		while (end - p < 9)
			*--p = '0';
		*--p = '.';
		p = fmt_u64(p, secs, 10);
		size_t n = (size_t)(end - p);
		/* "%5lu" pads the seconds only */
		size_t pad = n < 15 ? 15 - n : 0;
		char *d = room(b, n + pad + 2);
		if (!d)
			return;
		memset(d, ' ', pad);
		memcpy(d + pad, p, n);
		b->len += n + pad;
	} else {
		p = fmt_u64(end, ns / 1000, 10);
		while (end - p < 6)
			*--p = '0';
		*--p = '.';
		p = fmt_u64(p, secs, 10);
		size_t n = (size_t)(end - p), pad = n < 12 ? 12 - n : 0;
		char *d = room(b, n + pad + 2);
		if (!d)
			return;
		memset(d, ' ', pad);
		memcpy(d + pad, p, n);
		b->len += n + pad;
	}
	put(b, ": ", 2);
}

static void put_misc(struct obuf *b, uint16_t misc)
{
	char m[8];
	int n = 0;
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	/* perf tests (misc & X) == X for each mode, so KERNEL|USER (hypervisor) shows all three */
	if ((mode & PERF_RECORD_MISC_KERNEL) == PERF_RECORD_MISC_KERNEL)
		m[n++] = 'K';
	if ((mode & PERF_RECORD_MISC_USER) == PERF_RECORD_MISC_USER)
		m[n++] = 'U';
	if ((mode & PERF_RECORD_MISC_HYPERVISOR) == PERF_RECORD_MISC_HYPERVISOR)
		m[n++] = 'H';
	if ((mode & PERF_RECORD_MISC_GUEST_KERNEL) == PERF_RECORD_MISC_GUEST_KERNEL)
		m[n++] = 'G';
	if ((mode & PERF_RECORD_MISC_GUEST_USER) == PERF_RECORD_MISC_GUEST_USER)
		m[n++] = 'g';
	put(b, m, (size_t)n);
	/* "%*s" with 6 - n: at least one space */
	for (int i = 0; i < (6 - n > 1 ? 6 - n : 1); i++)
		putc_(b, ' ');
}

/* one callchain line (perf's sample__fprintf_callchain for one node) */
static void put_chain_line(struct script *sc, struct obuf *b, const struct pk_loc *l, uint32_t f)
{
	{
		if (f & SF_IP) {
			putc_(b, '\t');
			/* perf 6.1 shows user-space entries as offsets in their binary */
			uint64_t shown = l->map && !l->map->kernel ? l->addr : l->ip;
			put_hex(b, shown, 16);
		}
		if (f & SF_SYM) {
			putc_(b, ' ');
			put_sym(b, l, l->map ? l->addr : 0, f & SF_SYMOFFSET);
		}
		if (f & SF_DSO)
			put_dso(b, l, l->map ? l->addr : 0, f & SF_DSOFF);
		if (f & SF_SRCLINE)
			put_srcline(sc, b, l);
		putc_(b, '\n');
	}
}

/*
 * The callchain, one line per entry. A location's line depends only on the
 * location and the fields, so it is formatted once and copied afterwards.
 */
static void put_callchain(struct script *sc, struct obuf *b, const struct pk_resolved *rs,
			  int type, uint32_t f)
{
	struct line_cache *c = &sc->chain_lines[type];
	for (size_t i = 0; i < rs->nr_chain; i++) {
		const struct pk_loc *l = rs->chain[i];
		if (l->id >= c->cap) {
			size_t ncap = c->cap ? c->cap : 4096;
			while (ncap <= l->id)
				ncap *= 2;
			uint64_t *no = realloc(c->off, ncap * sizeof(*no));
			if (no)
				c->off = no;
			uint32_t *nl = no ? realloc(c->len, ncap * sizeof(*nl)) : NULL;
			if (!nl) {
				put_chain_line(sc, b, l, f);	/* no memory for the cache */
				continue;
			}
			c->len = nl;
			memset(c->off + c->cap, 0, (ncap - c->cap) * sizeof(*no));
			c->cap = ncap;
		}
		if (!c->off[l->id]) {
			size_t start = c->text.len;
			put_chain_line(sc, &c->text, l, f);
			if (c->text.err) {
				c->text.err = false;
				c->text.len = start;
				put_chain_line(sc, b, l, f);
				continue;
			}
			c->off[l->id] = start + 1;
			c->len[l->id] = (uint32_t)(c->text.len - start);
		}
		put(b, c->text.p + c->off[l->id] - 1, c->len[l->id]);
	}
}

void script__free_caches(struct script *sc)
{
	for (int t = 0; t < ST_MAX; t++) {
		free(sc->chain_lines[t].off);
		free(sc->chain_lines[t].len);
		free(sc->chain_lines[t].text.p);
		memset(&sc->chain_lines[t], 0, sizeof(sc->chain_lines[t]));
	}
}

static bool addr_correlates_sym(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_PAGE_FAULTS || a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

int script__print_sample(struct script *sc, const struct pk_resolved *rs,
			 const struct pk_data_attr *a)
{
	struct obuf *b = &sc->ob;
	int type = script__type(a->attr.type);
	uint32_t f = sc->out[type].fields;
	const struct pk_sample *smp = rs->sample;
	if (!f)
		return 0;
	bool chain = sc->use_callchain && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	if (f & SF_COMM) {
		if ((f & SF_IP) && chain) {
			puts_(b, rs->comm);
			putc_(b, ' ');
		} else {
			put_rpad(b, rs->comm, 16);
			putc_(b, ' ');
		}
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		put_int(b, smp->pid, 5, false);
		putc_(b, '/');
		put_int(b, smp->tid, 5, true);
		putc_(b, ' ');
	} else if (f & SF_PID) {
		put_int(b, smp->pid, 5, false);
		putc_(b, ' ');
	} else if (f & SF_TID) {
		put_int(b, smp->tid, 5, false);
		putc_(b, ' ');
	}
	if (f & SF_CPU) {
		putc_(b, '[');
		put_num(b, (uint64_t)(int64_t)smp->cpu, smp->cpu < 0, 10, 3, false, '0');
		put(b, "] ", 2);
	}
	if (f & SF_MISC)
		put_misc(b, rs->ev->misc);
	if (f & SF_TIME)
		put_time(sc, b, smp->time);
	if (f & SF_PERIOD) {
		put_num(b, smp->period, false, 10, 10, false, ' ');
		putc_(b, ' ');
	}
	if (f & SF_EVNAME) {
		const char *n = pk_session__event_name(sc->s, rs->attr);
		put_rpad(b, n ? n : "[unknown]", (size_t)sc->name_width);
		put(b, ": ", 2);
	}
	if ((f & SF_TRACE) && smp->raw.size && sc->trace)
		script_trace__print(sc->trace, a->attr.config, smp->cpu, smp->raw.data, smp->raw.size,
				    b);
	if (f & SF_ADDR) {
		put_hex(b, smp->addr, 16);
		if (addr_correlates_sym(&a->attr)) {
			const struct pk_loc *al = rs->addr_loc;
			if (f & SF_SYM) {
				putc_(b, ' ');
				put_sym(b, al, al ? al->addr : 0, f & SF_SYMOFFSET);
			}
			if (f & SF_DSO)
				put_dso(b, al, al ? al->addr : 0, f & SF_DSOFF);
		}
	}
	if (f & SF_WEIGHT)
		put_num(b, smp->weight, false, 10, 16, false, ' ');
	if (f & SF_INS_LAT)
		put_num(b, smp->weight_var2, false, 10, 16, false, ' ');
	if (f & SF_RETIRE_LAT)
		put_num(b, smp->weight_var3, false, 10, 16, false, ' ');
	if (f & SF_IP) {
		if (chain) {
			putc_(b, '\n');
			put_callchain(sc, b, rs, type, f);
		} else {
			putc_(b, ' ');
			put_hex(b, smp->ip, 16);
			if (f & SF_SYM) {
				putc_(b, ' ');
				put_sym(b, rs->loc, rs->loc->addr, f & SF_SYMOFFSET);
			}
			if (f & SF_DSO)
				put_dso(b, rs->loc, rs->loc->addr, f & SF_DSOFF);
			if (f & SF_SRCLINE)
				put_srcline(sc, b, rs->loc);
		}
	}
	if (f & SF_PHYS_ADDR)
		put_hex(b, smp->phys_addr, 16);
	putc_(b, '\n');
	sc->nr_printed++;
	return b->err ? -EIO : 0;
}
