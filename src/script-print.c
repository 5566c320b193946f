/* SPDX-License-Identifier: MIT */
/*
 * script-print.c — one sample as perf 6.1's perf script prints it
 * (process_event, perf_sample__fprintf_start, sample__fprintf_sym and
 * sample__fprintf_callchain): the columns, their widths and separators,
 * symbol+offset and DSO, callchain lines with user addresses shown as
 * offsets in their binary, srclines with perf's fallback. Formatted by hand
 * into a large buffer, not with printf per field (`make bench`: pmukit_script_ms
 * against perf_script_ms).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "dump.h"
#include "script.h"
#include "util/grow.h"

#define OBUF_CAP (1u << 20)

int obuf__init(struct obuf *b, FILE *f)
{
	memset(b, 0, sizeof(*b));
	b->f = f;
	return pk_buf__reserve(&b->buf, OBUF_CAP);
}

void obuf__flush(struct obuf *b)
{
	if (b->buf.len && !b->err && fwrite(b->buf.data, 1, b->buf.len, b->f) != b->buf.len)
		b->err = true;
	b->buf.len = 0;
}

void obuf__free(struct obuf *b)
{
	obuf__flush(b);
	pk_buf__free(&b->buf);
}

/* Room for n more bytes: flush, and grow for a single piece larger than the buffer. */
static char *room(struct obuf *b, size_t n)
{
	if (b->buf.cap - b->buf.len < n) {
		if (b->f)
			obuf__flush(b);
		if (pk_buf__reserve(&b->buf, n)) {
			b->err = true;
			return NULL;
		}
	}
	return (char *)b->buf.data + b->buf.len;
}

static void put(struct obuf *b, const char *s, size_t n)
{
	char *d = room(b, n);
	if (!d)
		return;
	memcpy(d, s, n);
	b->buf.len += n;
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
		b->buf.len++;
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
	b->buf.len += pad + n;
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
	b->buf.len += n + pad;
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

/* ---- data_src: perf 6.1's perf_script__meminfo_scnprintf ---------------------------- */

struct mem_txt {
	char s[256];
	size_t n;
};

static void mem_cat(struct mem_txt *t, const char *s)
{
	size_t k = strlen(s);
	if (k > sizeof(t->s) - 1 - t->n)
		k = sizeof(t->s) - 1 - t->n;
	memcpy(t->s + t->n, s, k);
	t->n += k;
	t->s[t->n] = 0;
}

/* the names of bits set in m, " or " between them; returns how many */
static int mem_bits(struct mem_txt *t, uint64_t m, const char *const *names, size_t nr, int printed)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			mem_cat(t, " or ");
		mem_cat(t, names[i]);
	}
	return printed;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void mem_lvl(struct mem_txt *t, uint64_t d)
{
	static const char *const lvl[] = { "N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3",
		"Local RAM", "Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached" };
	/* 6.1's PERF_MEM_LVLNUM_* names: 5..8 unnamed ("L%d") */
	static const char *const lvlnum[16] = { [1] = "L1", [2] = "L2", [3] = "L3", [4] = "L4",
		[9] = "CXL", [10] = "I/O", [11] = "Any cache", [12] = "LFB/MAB", [13] = "RAM",
		[14] = "PMEM", [15] = "N/A" };
	/* hops 5..7: perf reads past its table; this machine's perf 6.1 printed "(null)" */
	static const char *const hops[8] = { "N/A", "core, same node", "node, same socket",
		"socket, same board", "board", "(null)", "(null)", "(null)" };
	uint64_t m = d >> 5 & 0x3fff, num = d >> 33 & 15, nhops = d >> 43 & 7;
	size_t start = t->n;
	int printed = 0;
	if (d >> 37 & 1)
		mem_cat(t, "Remote ");
	if (nhops) {
		mem_cat(t, hops[nhops]);
		mem_cat(t, " ");
	} else {
		printed = mem_bits(t, m & ~(uint64_t)6, lvl, NR(lvl), 0);
	}
	if (num) {
		char l[16];
		if (printed++)
			mem_cat(t, " or ");
		snprintf(l, sizeof(l), "L%u", (unsigned)num);
		mem_cat(t, lvlnum[num] ? lvlnum[num] : l);
	}
	if (t->n == start)
		mem_cat(t, "N/A");
	if (m & 2)
		mem_cat(t, " hit");
	if (m & 4)
		mem_cat(t, " miss");
}

static void mem_decode(struct mem_txt *t, uint64_t d)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	uint64_t op = d & 31, lck = d >> 24 & 3, dtlb = d >> 26 & 0x7f, blk = d >> 40 & 7;
	mem_cat(t, "|OP ");
	mem_cat(t, op & 1 ? "N/A" : op & 2 ? "LOAD" : op & 4 ? "STORE" : op & 8 ? "PFETCH" :
		   op & 16 ? "EXEC" : "No");
	mem_cat(t, "|LVL ");
	mem_lvl(t, d);
	mem_cat(t, "|SNP ");
	int n = mem_bits(t, d >> 19 & 31, snoop, NR(snoop), 0);
	if (!mem_bits(t, d >> 38 & 3, snoopx, NR(snoopx), n))
		mem_cat(t, "N/A");
	mem_cat(t, "|TLB ");
	if (!mem_bits(t, dtlb & ~(uint64_t)6, tlb, NR(tlb), 0))
		mem_cat(t, "N/A");
	if (dtlb & 2)
		mem_cat(t, " hit");
	if (dtlb & 4)
		mem_cat(t, " miss");
	mem_cat(t, "|LCK ");
	mem_cat(t, lck & 1 ? "N/A" : lck & 2 ? "Yes" : "No");
	mem_cat(t, "|BLK ");
	if (!blk || blk & 1)
		mem_cat(t, " N/A");
	if (!(blk & 1) && blk & 2)
		mem_cat(t, " Data");
	if (!(blk & 1) && blk & 4)
		mem_cat(t, " Addr");
}

/* perf's data_src__fprintf: "%16lx DECODED" cut at 99 bytes (its 100-byte buffers), left-aligned
 * as wide as the longest one printed so far */
static void put_data_src(struct script *sc, struct obuf *b, uint64_t d)
{
	struct mem_txt t = { .n = 0 };
	char out[128];
	mem_decode(&t, d);
	if (t.n > 99)
		t.s[99] = 0;
	int len = snprintf(out, sizeof(out), "%16" PRIx64 " %s", d, t.s);
	if (len > 99)
		len = 99;
	if (sc->data_src_width < len)
		sc->data_src_width = len;
	put(b, out, (size_t)len);
	for (int i = len; i < sc->data_src_width; i++)
		putc_(b, ' ');
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
	put_hex(b, pk_dso__objdump_addr(l->dso, l->addr), 0);	/* map__rip_2objdump */
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
		b->buf.len += n + pad;
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
		b->buf.len += n + pad;
	}
	put(b, ": ", 2);
}

static void put_misc(struct obuf *b, uint16_t misc, uint32_t type)
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
	if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) &&
	    (misc & PERF_RECORD_MISC_MMAP_DATA))
		m[n++] = 'M';
	if (type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC))
		m[n++] = 'E';
	if ((type == PERF_RECORD_SWITCH || type == PERF_RECORD_SWITCH_CPU_WIDE) &&
	    (misc & PERF_RECORD_MISC_SWITCH_OUT)) {
		m[n++] = 'S';
		if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			m[n++] = 'p';
	}
	put(b, m, (size_t)n);
	/* "%*s" with 6 - n: at least one space */
	for (int i = 0; i < (6 - n > 1 ? 6 - n : 1); i++)
		putc_(b, ' ');
}

/* perf's perf_sample__fprintf_start: comm, pid/tid, cpu, misc, time */
static void put_start(struct script *sc, struct obuf *b, uint32_t f, bool chain, const char *comm,
		      int32_t pid, int32_t tid, int32_t cpu, uint64_t time, uint16_t misc,
		      uint32_t type)
{
	if (f & SF_COMM) {
		if ((f & SF_IP) && chain)
			puts_(b, comm);
		else
			put_rpad(b, comm, 16);
		putc_(b, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		put_int(b, pid, 5, false);
		putc_(b, '/');
		put_int(b, tid, 5, true);
		putc_(b, ' ');
	} else if (f & SF_PID) {
		put_int(b, pid, 5, false);
		putc_(b, ' ');
	} else if (f & SF_TID) {
		put_int(b, tid, 5, false);
		putc_(b, ' ');
	}
	if (f & SF_CPU) {
		putc_(b, '[');
		put_num(b, (uint64_t)(int64_t)cpu, cpu < 0, 10, 3, false, '0');
		put(b, "] ", 2);
	}
	if (f & SF_MISC)
		put_misc(b, misc, type);
	if (f & SF_TIME) {
		/* perf's --reltime (from the first printed) and --deltatime (from the last) */
		uint64_t t = time;
		if (sc->reltime) {
			if (!sc->initial_time)
				sc->initial_time = time;
			t = time - sc->initial_time;
		} else if (sc->deltatime) {
			t = sc->previous_time ? time - sc->previous_time : 0;
			sc->previous_time = time;
		}
		put_time(sc, b, t);
	}
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
		bool inlined = l->sym && l->sym->inlined;
		if ((f & SF_DSO) && !inlined)
			put_dso(b, l, l->map ? l->addr : 0, f & SF_DSOFF);
		if ((f & SF_SRCLINE) && l->inline_frame) {
			/* perf: the inline frame's own srcline, whatever it is */
			put(b, "\n  ", 3);
			puts_(b, pk_session__loc_srcline(sc->s, l));
		} else if (f & SF_SRCLINE) {
			put_srcline(sc, b, l);
		}
		if (inlined)
			puts_(b, " (inlined)");
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
		if (l->id >= c->cap) {	/* two arrays, one capacity: the same policy, the same size */
			size_t cap_off = c->cap, cap_len = c->cap;
			if (PK_GROW(c->off, cap_off, (size_t)l->id + 1) ||
			    PK_GROW(c->len, cap_len, (size_t)l->id + 1)) {
				put_chain_line(sc, b, l, f);	/* no memory for the cache */
				continue;
			}
			size_t ncap = cap_off < cap_len ? cap_off : cap_len;
			memset(c->off + c->cap, 0, (ncap - c->cap) * sizeof(*c->off));
			c->cap = ncap;
		}
		if (!c->off[l->id]) {
			size_t start = c->text.buf.len;
			put_chain_line(sc, &c->text, l, f);
			if (c->text.err) {
				c->text.err = false;
				pk_buf__truncate(&c->text.buf, start);
				put_chain_line(sc, b, l, f);
				continue;
			}
			c->off[l->id] = start + 1;
			c->len[l->id] = (uint32_t)(c->text.buf.len - start);
		}
		put(b, (const char *)c->text.buf.data + c->off[l->id] - 1, c->len[l->id]);
	}
}

void script__free_caches(struct script *sc)
{
	for (int t = 0; t < ST_MAX; t++) {
		free(sc->chain_lines[t].off);
		free(sc->chain_lines[t].len);
		pk_buf__free(&sc->chain_lines[t].text.buf);
		memset(&sc->chain_lines[t], 0, sizeof(sc->chain_lines[t]));
	}
}

static bool addr_correlates_sym(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_PAGE_FAULTS || a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/* perf's print_bstack_flags: "/M/X/A/cycles/type " */
static void put_branch_flags(struct obuf *b, const struct perf_branch_entry *e)
{
	char fl[8] = { '/', !(e->mispred || e->predicted) ? '-' : e->mispred ? 'M' : 'P', '/',
		       e->in_tx ? 'X' : '-', '/', e->abort ? 'A' : '-', '/', 0 };
	puts_(b, fl);
	put_num(b, e->cycles, false, 10, 0, false, ' ');
	putc_(b, '/');
	puts_(b, dump__branch_type(e));
	putc_(b, ' ');
}

/* perf's thread__find_map_fb: by the sample's cpumode, else the address's own */
static const struct pk_loc *branch_loc(struct script *sc, const struct pk_resolved *rs, uint64_t ip)
{
	const struct pk_loc *l = pk_session__loc(sc->s, rs->thread, rs->cpumode, ip);
	if (l && l->map)
		return l;
	uint8_t other = (int64_t)ip < 0 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (other == rs->cpumode)
		return l;
	const struct pk_loc *o = pk_session__loc(sc->s, rs->thread, other, ip);
	return o && o->map ? o : l;
}

/* perf's perf_sample__fprintf_brstack / _brstacksym */
static void put_brstack(struct script *sc, struct obuf *b, const struct pk_resolved *rs,
			uint32_t f)
{
	const struct pk_sample *smp = rs->sample;
	for (uint64_t i = 0; i < smp->branch.nr; i++) {
		const struct perf_branch_entry *e = &smp->branch.entries[i];
		uint64_t ends[2] = { e->from, e->to };
		for (int k = 0; k < 2; k++) {
			const struct pk_loc *l = (f & (SF_DSO | SF_BRSTACKSYM)) ?
				branch_loc(sc, rs, ends[k]) : NULL;
			if (f & SF_BRSTACK) {
				put(b, k ? "/0x" : " 0x", 3);
				put_hex(b, ends[k], 0);
			} else {
				if (k)
					putc_(b, '/');
				put_sym(b, l, l ? l->addr : 0, true);
			}
			if (f & SF_DSO) {
				putc_(b, '(');
				puts_(b, dso_name(l));
				putc_(b, ')');
			}
		}
		put_branch_flags(b, e);
	}
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
	put_start(sc, b, f, chain, rs->comm, smp->pid, smp->tid, smp->cpu, smp->time, rs->ev->misc,
		  PERF_RECORD_SAMPLE);
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
	if (f & SF_DATA_SRC)
		put_data_src(sc, b, smp->data_src);
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
	if ((f & (SF_BRSTACK | SF_BRSTACKSYM)) && (smp->sample_type & PERF_SAMPLE_BRANCH_STACK))
		put_brstack(sc, b, rs, f & SF_BRSTACK ? f & ~SF_BRSTACKSYM : f);
	if (f & SF_PHYS_ADDR)
		put_hex(b, smp->phys_addr, 16);
	putc_(b, '\n');
	sc->nr_printed++;
	return b->err ? -EIO : 0;
}

/* perf_event__fprintf's text for the side-band records perf script can show */
static void put_record(struct obuf *b, const struct pk_data_event *ev)
{
	char line[PATH_MAX + 256];
	int n = 0;
	switch (ev->type) {
	case PERF_RECORD_COMM:
		n = snprintf(line, sizeof(line), "PERF_RECORD_COMM%s: %s:%d/%d\n",
			     ev->u.comm.exec ? " exec" : "", ev->u.comm.comm, ev->u.comm.pid,
			     ev->u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		n = snprintf(line, sizeof(line), "PERF_RECORD_%s(%d:%d):(%d:%d)\n",
			     ev->type == PERF_RECORD_FORK ? "FORK" : "EXIT", ev->u.task.pid,
			     ev->u.task.tid, ev->u.task.ppid, ev->u.task.ptid);
		break;
	case PERF_RECORD_MMAP:
		n = snprintf(line, sizeof(line),
			     "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			     ev->u.mmap.pid, ev->u.mmap.tid, ev->u.mmap.start, ev->u.mmap.len,
			     ev->u.mmap.pgoff, ev->u.mmap.data ? 'r' : 'x', ev->u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2: {
		char mode[5] = {
			(ev->u.mmap.prot & PROT_READ) ? 'r' : '-',
			(ev->u.mmap.prot & PROT_WRITE) ? 'w' : '-',
			(ev->u.mmap.prot & PROT_EXEC) ? 'x' : '-',
			(ev->u.mmap.flags & MAP_SHARED) ? 's' : 'p', 0 };
		if (ev->u.mmap.has_build_id) {
			char bid[2 * 24 + 1];
			for (unsigned i = 0; i < ev->u.mmap.build_id_size && i < 24; i++)
				snprintf(bid + 2 * i, 3, "%02x", ev->u.mmap.build_id[i]);
			bid[2 * (ev->u.mmap.build_id_size < 24 ? ev->u.mmap.build_id_size : 24)] = 0;
			n = snprintf(line, sizeof(line),
				     "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
				     " <%s>]: %s %s\n",
				     ev->u.mmap.pid, ev->u.mmap.tid, ev->u.mmap.start, ev->u.mmap.len,
				     ev->u.mmap.pgoff, bid, mode, ev->u.mmap.filename);
		} else {
			n = snprintf(line, sizeof(line),
				     "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
				     " %02x:%02x %" PRIu64 " %" PRIu64 "]: %s %s\n",
				     ev->u.mmap.pid, ev->u.mmap.tid, ev->u.mmap.start, ev->u.mmap.len,
				     ev->u.mmap.pgoff, ev->u.mmap.maj, ev->u.mmap.min, ev->u.mmap.ino,
				     ev->u.mmap.ino_generation, mode, ev->u.mmap.filename);
		}
		break;
	}
	default:
		return;
	}
	if (n > 0)
		put(b, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

int script__print_sideband(struct script *sc, const struct pk_data_event *ev,
			   const struct pk_data_attr *a, const char *comm, int32_t pid, int32_t tid,
			   uint64_t time)
{
	struct obuf *b = &sc->ob;
	if (a) {
		int type = script__type(a->attr.type);
		uint32_t f = sc->out[type].fields;
		bool chain = sc->use_callchain && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
		int32_t cpu = 0;
		if (a->attr.sample_id_all && ev->has_sample) {
			pid = ev->sample.pid;
			tid = ev->sample.tid;
			cpu = ev->sample.cpu;
			time = ev->sample.time;
		}
		put_start(sc, b, f, chain, comm, pid, tid, cpu, time, ev->misc, ev->type);
	}
	if (ev->type == PERF_RECORD_SWITCH || ev->type == PERF_RECORD_SWITCH_CPU_WIDE ||
	    ev->type == PERF_RECORD_NAMESPACES || ev->type == PERF_RECORD_LOST ||
	    ev->type == PERF_RECORD_CGROUP) {
		obuf__flush(b);
		dump__fprintf_event(b->f, ev);
		return b->err || ferror(b->f) ? -EIO : 0;
	}
	put_record(b, ev);
	return b->err ? -EIO : 0;
}
