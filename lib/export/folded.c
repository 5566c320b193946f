/* SPDX-License-Identifier: MIT */
/*
 * export/folded.c — folded stacks ("comm;root;...;leaf count"), the output
 * FlameGraph's stackcollapse-perf.pl gives for the `perf script -F +pid` text
 * of the same samples (comm pid/tid [cpu] time: period event:, then one
 * "ip sym+off (dso)" line per frame, leaf first, "(inlined)" for inlined
 * frames). Its rules are applied to that text as perf would print it, so that
 * the odd cases come out as the script has them too:
 *
 *  - the first frame is the comm, up to the first "<spaces><digits><spaces>"
 *    (a comm "V8 1 x" becomes "V8"), spaces turned into '_'; --pid/--tid add
 *    "-PID" / "-PID/TID" ("?" for a PID of 0, as the script reads "0" as none);
 *  - only the samples of one event: the first sample's, by its last word;
 *  - a frame's "+0x..." offset is dropped; frames starting with '(' are
 *    skipped; a name is split at "->", the pieces after the first marked "_[i]";
 *  - "[unknown]" becomes "[dso-basename]" ("[unknown]" without a dso; with
 *    --addrs "[dso <addr>]");
 *  - ';' becomes ':'; unless it looks like a Go method ".(...).", everything
 *    from the first '(' that does not open "(anonymous namespace)" is cut;
 *    quotes are deleted; in a "java" process a leading 'L' of a name with '/'
 *    is cut;
 *  - --kernel: "_[k]" for dsos starting with '[' or ending in "vmlinux" (not
 *    "[unknown]"); --jit: "_[j]" for /tmp/perf-N.map and jitted-N-N.so;
 *  - one line per distinct stack, values summed, sorted bytewise. The
 *    script's value is the period perf script prints on the sample's line
 *    (PK_EXPORT_VALUE_SCRIPT; 1 where it prints 0); the exporter sums the
 *    value kind it is given.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_int.h"
#include "util/error.h"
#include "util/grow.h"

static int is_ws(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_word(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* ---- the sample header: ^(\S.+?)\s+(\d+) slashes (\d+)* \s+ ----------------------------- */

struct header_match {
	size_t comm_len;		/* $1 */
	size_t pid_off, pid_len;	/* $2 */
	size_t tid_off, tid_len;	/* $3; tid_len 0 when unmatched */
};

static size_t run(const char *s, size_t i, size_t n, int (*cls)(int))
{
	size_t j = i;
	while (j < n && cls((unsigned char)s[j]))
		j++;
	return j - i;
}

static int is_slash(int c) { return c == '/'; }

/* The character classes after the lazy group are disjoint, so greedy runs decide. */
static int match_header(const char *s, size_t n, struct header_match *m)
{
	if (!n || is_ws((unsigned char)s[0]))
		return 0;
	for (size_t k = 2; k <= n; k++) {
		if (s[k - 1] == '\n')
			return 0;
		size_t i = k, w = run(s, i, n, is_ws);
		if (!w)
			continue;
		i += w;
		size_t d1 = run(s, i, n, is_digit);
		if (!d1)
			continue;
		size_t pid = i;
		i += d1;
		i += run(s, i, n, is_slash);
		size_t tid = i, d2 = run(s, i, n, is_digit);
		i += d2;
		if (!run(s, i, n, is_ws))
			continue;
		*m = (struct header_match){ .comm_len = k, .pid_off = pid, .pid_len = d1,
			.tid_off = tid, .tid_len = d2 };
		return 1;
	}
	return 0;
}

/* (\S+):\s*$ — the line's last word less its ':'; the event name's last word, here. */
static const char *event_key(const char *name)
{
	const char *k = name;
	for (const char *c = name; *c; c++)
		if (is_ws((unsigned char)*c))
			k = c + 1;
	return k;
}

/*
 * :\s*(\d*)\s+(\S+):\s*$ — the period and the event of a sample line, searched leftmost.
 * The line must end in ':' (then white space); the word before it is the event, and the
 * digits before that (after a ':' and white space) the period. With the classes
 * disjoint, each colon has at most two ways to match, tried in Perl's order.
 */
struct period_match {
	size_t colon, per_off, per_len, ev_off, ev_len;
};

static int all_nonws(const char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (is_ws((unsigned char)s[i]))
			return 0;
	return from < to;
}

static int match_period(const char *s, size_t n, struct period_match *m)
{
	size_t last = n;
	while (last > 0 && is_ws((unsigned char)s[last - 1]))
		last--;
	if (!last || s[last - 1] != ':')
		return 0;
	size_t colon = last - 1;	/* the event ends there */
	for (size_t c = 0; c < colon; c++) {
		if (s[c] != ':')
			continue;
		size_t i = c + 1, w = run(s, i, n, is_ws), j = i + w, d = run(s, j, n, is_digit);
		size_t k = j + d, w2 = run(s, k, n, is_ws);
		if (w2 && all_nonws(s, k + w2, colon)) {
			*m = (struct period_match){ c, j, d, k + w2, colon - k - w2 };
			return 1;
		}
		if (w && all_nonws(s, j, colon)) {
			*m = (struct period_match){ c, j, 0, j, colon - j };
			return 1;
		}
	}
	return 0;
}

/* ---- a frame line: ^\s*(\w+)\s*(.+) \((\S*)\) ----------------------------------------- */

struct frame_match {
	size_t pc_off, pc_len, func_off, func_len, mod_off, mod_len;
};

/* Perl's backtracking order: each quantifier greedy, longest first. */
static int match_frame(const char *s, size_t n, struct frame_match *m)
{
	size_t a = run(s, 0, n, is_ws);
	size_t wmax = run(s, a, n, is_word);
	for (size_t w = wmax; w >= 1; w--) {
		size_t b = a + w;
		size_t smax = w == wmax ? run(s, b, n, is_ws) : 0;
		for (size_t sp = smax + 1; sp-- > 0;) {
			size_t f = b + sp;
			size_t nl = f;	/* (.+) stops at a newline */
			while (nl < n && s[nl] != '\n')
				nl++;
			for (size_t j = nl >= 2 ? nl - 2 : 0; j >= f + 1 && j + 1 < n; j--) {
				if (s[j] != ' ' || s[j + 1] != '(')
					continue;
				size_t r = j + 2;
				size_t len = 0;
				while (r + len < n && !is_ws((unsigned char)s[r + len]))
					len++;
				while (len > 0 && s[r + len - 1] != ')')
					len--;
				if (!len)
					continue;	/* \S* then ')' needs a ')' in the run */
				*m = (struct frame_match){ .pc_off = a, .pc_len = w, .func_off = f,
					.func_len = j - f, .mod_off = r, .mod_len = len - 1 };
				return 1;
			}
		}
	}
	return 0;
}

/* ---- per-frame rules --------------------------------------------------------------- */

struct folder {
	const struct pk_profile *p;
	const struct pk_xopts *x;
	struct pk_buf line, piece;	/* scratch */
	/* per frame and java-ness: the frame's pieces joined with ';' in `text` */
	uint32_t *off[2], *len[2];
	uint8_t *state[2];		/* 0 not done, 1 no pieces, 2 pieces */
	struct pk_buf text;
	int oom;
};

static void put(struct folder *f, struct pk_buf *b, const void *s, size_t n)
{
	if (pk_buf__append(b, s, n) < 0)
		f->oom = 1;
}

static void puts_(struct folder *f, struct pk_buf *b, const char *s)
{
	put(f, b, s, strlen(s));
}

static int has_at(const char *s, size_t n, size_t i, const char *lit)
{
	size_t l = strlen(lit);
	return i + l <= n && !memcmp(s + i, lit, l);
}

static int contains(const char *s, size_t n, const char *lit)
{
	for (size_t i = 0; i < n; i++)
		if (has_at(s, n, i, lit))
			return 1;
	return 0;
}

/* m:/tmp/perf-\d+\.map: and m:/jitted-\d+-\d+\.so: */
static int is_jit_mod(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j, d;
		if (has_at(s, n, i, "/tmp/perf-")) {
			j = i + 10;
			if ((d = run(s, j, n, is_digit)) && has_at(s, n, j + d, ".map"))
				return 1;
		}
		if (has_at(s, n, i, "/jitted-")) {
			j = i + 8;
			if ((d = run(s, j, n, is_digit)) && s[j + d] == '-') {
				j += d + 1;
				if ((d = run(s, j, n, is_digit)) && has_at(s, n, j + d, ".so"))
					return 1;
			}
		}
	}
	return 0;
}

/* One piece of a frame's name (after the "->" split) into f->piece. */
static void piece_rules(struct folder *f, const char *fn, size_t fl, const char *mod, size_t ml,
			const char *pc, size_t pcl, int idx, int java)
{
	struct pk_buf *b = &f->piece;
	b->len = 0;
	if (fl == 9 && !memcmp(fn, "[unknown]", 9)) {
		const char *base = "unknown";
		size_t bl = 7;
		if (!(ml == 9 && !memcmp(mod, "[unknown]", 9))) {
			base = mod;	/* s/.*\/// */
			bl = ml;
			for (size_t i = 0; i < ml; i++)
				if (mod[i] == '/') {
					base = mod + i + 1;
					bl = ml - i - 1;
				}
		}
		put(f, b, "[", 1);
		put(f, b, base, bl);
		if (f->x->flags & PK_EXPORT_ADDRS) {
			put(f, b, " <", 2);
			put(f, b, pc, pcl);
			put(f, b, ">", 1);
		}
		put(f, b, "]", 1);
	} else {
		put(f, b, fn, fl);
	}
	if (f->oom)
		return;
	char *s = (char *)b->data;
	size_t n = b->len;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ';')
			s[i] = ':';
	/* Go methods (pkg.(*T).M) keep their parentheses: m/\.\(.*\)\./ */
	size_t first = SIZE_MAX, last = SIZE_MAX;
	for (size_t i = 0; i + 1 < n; i++) {
		if (first == SIZE_MAX && s[i] == '.' && s[i + 1] == '(')
			first = i;
		if (s[i] == ')' && s[i + 1] == '.')
			last = i;
	}
	if (!(first != SIZE_MAX && last != SIZE_MAX && last >= first + 2)) {
		for (size_t i = 0; i < n; i++)
			if (s[i] == '(' && !has_at(s, n, i, "(anonymous namespace)")) {
				n = i;
				break;
			}
	}
	size_t o = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[o++] = s[i];
	n = o;
	if (java && memchr(s, '/', n) && n && s[0] == 'L') {
		memmove(s, s + 1, n - 1);
		n--;
	}
	b->len = n;
	if (idx > 0)
		put(f, b, "_[i]", 4);
	else if ((f->x->flags & PK_EXPORT_KERNEL) && ((ml && mod[0] == '[') ||
		 (ml >= 7 && !memcmp(mod + ml - 7, "vmlinux", 7))) && !contains(mod, ml, "unknown"))
		put(f, b, "_[k]", 4);
	else if ((f->x->flags & PK_EXPORT_JIT) && is_jit_mod(mod, ml))
		put(f, b, "_[j]", 4);
}

/* The frame as perf script prints it in a callchain, then the script's rules. */
static void fold_frame(struct folder *f, uint32_t id, int java)
{
	const struct pk_frame_rec *r = pk_profile__frame_rec(f->p, id);
	const char *name = pk_profile__str(f->p, r->name), *dso = pk_profile__str(f->p, r->dso);
	struct pk_buf *l = &f->line;
	char pcs[24];
	l->len = 0;
	snprintf(pcs, sizeof(pcs), "\t%16" PRIx64 " ", r->addr);
	puts_(f, l, pcs);
	if (name) {
		puts_(f, l, name);
		puts_(f, l, "+0x0");
	} else {
		puts_(f, l, "[unknown]");
	}
	if (r->flags & PK_FREC_INLINED) {
		puts_(f, l, " (inlined)");
	} else {
		puts_(f, l, " (");
		puts_(f, l, dso ? dso : "[unknown]");
		puts_(f, l, ")");
	}
	f->state[java][id] = 1;
	struct frame_match m;
	if (f->oom || !match_frame((const char *)l->data, l->len, &m))
		return;	/* "Unrecognized line": the script drops it */
	const char *s = (const char *)l->data;
	const char *fn = s + m.func_off;
	size_t fl = m.func_len;
	/* s/\+0x[\da-f]+$// */
	size_t h = fl;
	while (h > 0 && (is_digit((unsigned char)fn[h - 1]) || (fn[h - 1] >= 'a' && fn[h - 1] <= 'f')))
		h--;
	if (h < fl && h >= 3 && !memcmp(fn + h - 3, "+0x", 3))
		fl = h - 3;
	if (fl && fn[0] == '(')
		return;
	/* split /->/, trailing empty fields dropped */
	size_t ends[256], starts[256], np = 0, st = 0;
	for (size_t i = 0; i <= fl && np < 256; i++) {
		if (i == fl || has_at(fn, fl, i, "->")) {
			starts[np] = st;
			ends[np++] = i;
			st = i + 2;
			i++;
		}
	}
	while (np && starts[np - 1] == ends[np - 1])
		np--;
	if (!np)
		return;
	size_t start = f->text.len;
	for (size_t k = 0; k < np; k++) {
		piece_rules(f, fn + starts[k], ends[k] - starts[k], s + m.mod_off, m.mod_len,
			    s + m.pc_off, m.pc_len, (int)k, java);
		if (k)
			put(f, &f->text, ";", 1);
		put(f, &f->text, f->piece.data, f->piece.len);
	}
	if (f->oom)
		return;
	f->off[java][id] = (uint32_t)start;
	f->len[java][id] = (uint32_t)(f->text.len - start);
	f->state[java][id] = 2;
}

/* ---- samples -------------------------------------------------------------------------- */

/* The header perf script prints for sample i (fields comm,pid,tid,cpu,time,period,event). */
static void sample_header(struct folder *f, struct pk_buf *b, size_t i, int name_width)
{
	const struct pk_profile *p = f->p;
	const struct pk_sample_rec *sr = pk_profile__srec(p, i);
	const struct pk_thread_rec *t = pk_profile__thread_rec(p, sr->thread);
	char tmp[160];
	uint64_t ns = pk_profile__s_time(p, i);
	b->len = 0;
	puts_(f, b, pk_profile__str(p, t->comm));
	snprintf(tmp, sizeof(tmp), " %7d/%-7d [%03d] ", t->pid, t->tid, sr->cpu);
	puts_(f, b, tmp);
	char ts[48];
	snprintf(ts, sizeof(ts), "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns % 1000000000u / 1000u);
	snprintf(tmp, sizeof(tmp), "%12s: %10" PRIu64 " ", ts,
		 pk_profile__s_value(p, i, sr->event).count);
	puts_(f, b, tmp);
	const char *ev = pk_profile__str(p, p->events[sr->event].name);
	snprintf(tmp, sizeof(tmp), "%*s: ", name_width, "");
	size_t el = strlen(ev);
	if ((int)el < name_width)
		put(f, b, tmp, (size_t)name_width - el);
	puts_(f, b, ev);
	puts_(f, b, ": ");
}

/*
 * What the script reads from a sample line of event e: whether the line ends in
 * "EVENT:" (else no filter, and a weight of 1), the event word it filters on (a suffix
 * of the name), and the weight: the printed period, or digits inside the name.
 */
struct ev_rule {
	int matched, from_period;	/* from_period: the weight is the sample's period */
	uint64_t weight;		/* otherwise */
	const char *key;
	size_t key_len;
};

static int event_rules(struct folder *f, int width, struct ev_rule *rules)
{
	const struct pk_profile *p = f->p;
	struct pk_buf b = { 0 };
	for (size_t e = 0; e < p->nr_events; e++) {
		const char *ev = pk_profile__str(p, p->events[e].name);
		size_t el = strlen(ev), pad = (int)el < width ? (size_t)width - el : 0;
		b.len = 0;
		puts_(f, &b, "x 1/1 [000] 0.000000:          1 ");
		size_t time_colon = 20, ev_at = b.len + pad;
		for (size_t k = 0; k < pad; k++)
			put(f, &b, " ", 1);
		puts_(f, &b, ev);
		puts_(f, &b, ": ");
		if (f->oom)
			break;
		struct period_match m;
		struct ev_rule *r = &rules[e];
		*r = (struct ev_rule){ .weight = 1 };
		if (!match_period((const char *)b.data, b.len, &m))
			continue;
		assert(m.ev_off >= ev_at);
		r->matched = 1;
		r->key = ev + (m.ev_off - ev_at);
		r->key_len = m.ev_len;
		r->from_period = m.colon == time_colon;
		if (!r->from_period && m.per_len) {
			char digits[24];
			snprintf(digits, sizeof(digits), "%.*s", (int)(m.per_len < 20 ? m.per_len : 20),
				 (const char *)b.data + m.per_off);
			r->weight = strtoull(digits, NULL, 10);
			r->weight += !r->weight;	/* a period of 0 counts 1 */
		}
	}
	pk_buf__free(&b);
	return f->oom ? -ENOMEM : 0;
}

/* The first frame for a matched header: comm[-pid[/tid]], spaces as '_'. */
static void pname(struct folder *f, struct pk_buf *b, const char *h, const struct header_match *m)
{
	b->len = 0;
	put(f, b, h, m->comm_len);
	unsigned fl = f->x->flags;
	if (fl & (PK_EXPORT_PID | PK_EXPORT_TID)) {
		const char *pid = h + m->pid_off, *tid = h + m->tid_off;
		size_t pl = m->pid_len, tl = m->tid_len;
		if (!tl || (tl == 1 && tid[0] == '0')) {	/* if (not $tid) */
			tid = pid;
			tl = pl;
			pid = "?";
			pl = 1;
		}
		put(f, b, "-", 1);
		put(f, b, pid, pl);
		if (fl & PK_EXPORT_TID) {
			put(f, b, "/", 1);
			put(f, b, tid, tl);
		}
	}
	for (size_t k = 0; k < b->len; k++)
		if (b->data[k] == ' ')
			b->data[k] = '_';
}

struct agg_key {
	uint32_t pname;		/* offset in the pname store */
	uint32_t stack;
};

struct line {
	const char *s;
	size_t len;
	uint64_t count;
};

static int cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* What pk_export__folded aggregates: (process name, stack) keys and their counts. */
struct agg {
	struct pk_intern pnames;
	struct pk_recset keys;
	uint64_t *counts;
	size_t cap_counts, nkeys;
	int64_t *thr_pname;	/* per thread: 0 unknown, -1 per sample, else pname offset + 1 */
	struct ev_rule *rules;
	int width;		/* of the event names */
	const char *filter;	/* the event word kept */
	size_t filter_len;
	struct pk_buf hdr, pn;
};

/* the folder's frame caches, the event rules and the event filter */
static int agg_init(struct folder *f, struct agg *a)
{
	const struct pk_profile *p = f->p;
	const struct pk_xopts *x = f->x;
	size_t nfr = pk_profile__nr_frames(p), nthr = pk_profile__nr_threads(p);
	pk_recset__init(&a->keys, sizeof(struct agg_key));
	for (int j = 0; j < 2; j++) {
		f->off[j] = calloc(nfr ? nfr : 1, sizeof(uint32_t));
		f->len[j] = calloc(nfr ? nfr : 1, sizeof(uint32_t));
		f->state[j] = calloc(nfr ? nfr : 1, 1);
		if (!f->off[j] || !f->len[j] || !f->state[j])
			return -ENOMEM;
	}
	a->thr_pname = calloc(nthr ? nthr : 1, sizeof(*a->thr_pname));
	if (!a->thr_pname)
		return -ENOMEM;
	for (size_t e = 0; e < p->nr_events; e++) {
		size_t l = strlen(pk_profile__str(p, p->events[e].name));
		a->width = (int)l > a->width ? (int)l : a->width;
	}
	a->rules = calloc(p->nr_events ? p->nr_events : 1, sizeof(*a->rules));
	if (!a->rules || event_rules(f, a->width, a->rules))
		return -ENOMEM;
	if (x->event_given) {
		const struct ev_rule *r = &a->rules[x->event];
		a->filter = r->matched ? r->key : event_key(pk_profile__str(p, p->events[x->event].name));
		a->filter_len = r->matched ? r->key_len : strlen(a->filter);
	}
	return 0;
}

/*
 * Sample i: its first frame (the process name, as the script reads it from the
 * header; once per thread when the match does not reach past comm and pid/tid)
 * and the event filter; then its count added to its (first frame, stack) key.
 */
static int agg_sample(struct folder *f, struct agg *a, size_t i)
{
	const struct pk_profile *p = f->p;
	const struct pk_sample_rec *sr = pk_profile__srec(p, i);
	uint32_t t = sr->thread;
	int64_t pref = a->thr_pname[t];
	int need_hdr = pref <= 0;
	struct header_match m = { 0 };
	if (need_hdr) {
		sample_header(f, &a->hdr, i, a->width);
		if (f->oom)
			return -ENOMEM;
		if (!match_header((const char *)a->hdr.data, a->hdr.len, &m))
			return 0;	/* not a sample start for the script: dropped */
	}
	const struct ev_rule *r = &a->rules[sr->event];
	if (r->matched) {
		if (!a->filter) {	/* the first sample's event */
			a->filter = r->key;
			a->filter_len = r->key_len;
		}
		if (r->key_len != a->filter_len || memcmp(r->key, a->filter, a->filter_len))
			return 0;
	}
	if (need_hdr) {
		pname(f, &a->pn, (const char *)a->hdr.data, &m);
		long o = pk_intern__add(&a->pnames, a->pn.data, a->pn.len, 1);
		if (f->oom || o < 0)
			return -ENOMEM;
		if (pref == 0) {
			/* a match inside comm + pid/tid is the same for every sample */
			const struct pk_thread_rec *tr = pk_profile__thread_rec(p, t);
			char tmp[48];
			size_t end = strlen(pk_profile__str(p, tr->comm)) +
				     (size_t)snprintf(tmp, sizeof(tmp), " %7d/%-7d", tr->pid, tr->tid);
			a->thr_pname[t] = m.tid_off + m.tid_len <= end ? o + 1 : -1;
		}
		pref = o + 1;
	}
	struct agg_key k = { .pname = (uint32_t)(pref - 1), .stack = sr->stack };
	int64_t ko = pk_recset__add(&a->keys, &k);
	if (ko < 0)
		return -ENOMEM;
	size_t ki = (size_t)ko;
	if (ki >= a->nkeys) {
		if (PK_GROW(a->counts, a->cap_counts, ki + 1))
			return -ENOMEM;
		a->counts[ki] = 0;
		a->nkeys = ki + 1;
	}
	if (f->x->value != PK_EXPORT_VALUE_SCRIPT || r->from_period)
		a->counts[ki] += pk_export__value(p, i, (int)sr->event, f->x->value);
	else
		a->counts[ki] += r->weight;
	return 0;
}

/* Each key's line (process name;frames, root first), then sorted, equal lines merged. */
static int write_lines(struct folder *f, const struct agg *a, FILE *out)
{
	const struct pk_profile *p = f->p;
	size_t nkeys = a->nkeys;
	struct pk_buf all = { 0 };
	size_t *loff = calloc(nkeys ? nkeys : 1, sizeof(*loff));
	struct line *lines = calloc(nkeys ? nkeys : 1, sizeof(*lines));
	uint32_t *fr = NULL;
	size_t cap_fr = 0;
	int ret = -ENOMEM;
	if (!loff || !lines)
		goto out;
	assert(!nkeys || a->pnames.buf.data);	/* each key's process name is in it */
	for (size_t k = 0; k < nkeys; k++) {
		const struct agg_key *key = pk_recset__get(&a->keys, k);
		const char *pnm = (const char *)a->pnames.buf.data + key->pname;
		int java = !strcmp(pnm, "java");
		size_t depth = pk_profile__stack_depth(p, key->stack);
		if (depth > cap_fr) {
			free(fr);
			cap_fr = depth * 2;
			if (!(fr = malloc(cap_fr * sizeof(*fr))))
				goto out;
		}
		pk_profile__stack_frames(p, key->stack, fr, depth);
		loff[k] = all.len;
		puts_(f, &all, pnm);
		for (size_t d = depth; d-- > 0;) {
			uint32_t id = fr[d];
			if (!f->state[java][id])
				fold_frame(f, id, java);
			if (f->state[java][id] == 2) {
				put(f, &all, ";", 1);
				put(f, &all, f->text.data + f->off[java][id], f->len[java][id]);
			}
		}
		if (f->oom)
			goto out;
		lines[k].len = all.len - loff[k];
		lines[k].count = a->counts[k];
	}
	for (size_t k = 0; k < nkeys; k++)
		lines[k].s = (const char *)all.data + loff[k];
	qsort(lines, nkeys, sizeof(*lines), cmp_line);
	for (size_t k = 0; k < nkeys;) {
		uint64_t c = 0;
		size_t j = k;
		for (; j < nkeys && !cmp_line(&lines[k], &lines[j]); j++)
			c += lines[j].count;
		fwrite(lines[k].s, 1, lines[k].len, out);
		fprintf(out, " %" PRIu64 "\n", c);
		k = j;
	}
	ret = ferror(out) ? -EIO : 0;
out:
	free(fr);
	free(loff);
	free(lines);
	pk_buf__free(&all);
	return ret;
}

int pk_export__folded(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		      struct pk_error *err)
{
	struct folder f = { .p = p, .x = x };
	struct agg a = { 0 };
	int ret = agg_init(&f, &a);
	/* 1: per sample, the first frame and the event filter; aggregate by (first frame, stack) */
	for (size_t i = 0; !ret && i < p->nr_samples; i++)
		ret = agg_sample(&f, &a, i);
	/* 2: the lines */
	if (!ret)
		ret = write_lines(&f, &a, out);
	if (ret == -ENOMEM)
		pk_error__set(err, ret, NULL, 0, 0, "out of memory writing folded stacks");
	else if (ret == -EIO)
		pk_error__set(err, ret, NULL, 0, 0, "write error");
	for (int j = 0; j < 2; j++) {
		free(f.off[j]);
		free(f.len[j]);
		free(f.state[j]);
	}
	pk_buf__free(&f.line);
	pk_buf__free(&f.piece);
	pk_buf__free(&f.text);
	pk_buf__free(&a.hdr);
	pk_buf__free(&a.pn);
	pk_intern__free(&a.pnames);
	pk_recset__free(&a.keys);
	free(a.counts);
	free(a.thr_pname);
	free(a.rules);
	return ret;
}
