/* SPDX-License-Identifier: MIT */
/*
 * tui-annotate.c — the browser's annotate view (perf report's `a`, perf's
 * TUI annotate browser): the selected entry's symbol annotated by the
 * annotate library (pmukit/annotate.h, over a session of its own on the same
 * file), each line as perf 6.1's annotate browser writes it — the percent
 * column, its vertical line, offsets only on jump targets, jumps as the
 * target's offset with an arrow up or down, calls by the callee's name,
 * mov-like operands with the symbol of a %rip comment — the hottest line
 * selected and centred; ↑/↓, PgUp/PgDn, Home/End, TAB/UNTAB (the line of
 * the next lower/higher percent), H (back to it), s (source lines hidden or
 * shown), ENTER on a call (the callee's view), q/ESC/← back.
 */
#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/annotate.h>
#include <pmukit/symbol.h>

#include "tui.h"
#include "util/buf.h"

/* one line of the view */
struct ann_row {
	char *body;		/* after the vertical line */
	int arrow;		/* column of the jump/call/ret arrow in body, -1: none */
	int arrow_ch;		/* 'u', 'd', 'l', 'r' */
	double *pct;		/* per event (instructions) */
	double max;		/* the highest of them */
	bool insn;
	char *call;		/* a call's callee by name (ENTER follows it), else NULL */
};

struct ann_view {
	struct ann_row *rows;
	size_t nr;
	size_t *vis, nr_vis;	/* the rows shown: all, or the instructions only (s) */
	size_t sel, top;	/* in vis */
	bool no_source;		/* s: the source and other text lines hidden */
	size_t *hot, nr_hot;	/* rows with samples, by percent (perf's rb tree of them) */
	long cur_hot, nd;	/* perf's curr_hot and TAB's node in hot, -1: none */
	int nr_ev;
	char title[1024], subtitle[1024];
	char status[512];	/* the bottom line's message, "" for perf's help line */
	const struct ann_ctx *ctx;	/* to annotate a callee (ENTER on a call) */
};

struct ann_ctx;
static int annotate_symbol(const struct ann_ctx *c, const char *sym, const char *dso, char *status,
			   size_t size);

/* perf's x86 instruction table, by the ops that print them (arch/x86 instructions) */
static const char *const jump_names[] = { "ja", "jae", "jb", "jbe", "jc", "jcxz", "je", "jecxz",
	"jg", "jge", "jl", "jle", "jmp", "jna", "jnae", "jnb", "jnbe", "jnc", "jne", "jng", "jnge",
	"jnl", "jnle", "jno", "jnp", "jns", "jnz", "jo", "jp", "jpe", "jpo", "jrcxz", "js", "jz",
	"xbegin", NULL };
static const char *const mov_names[] = { "adc", "add", "addsd", "and", "andpd", "andps", "bsr",
	"bt", "btr", "bts", "cmovae", "cmovbe", "cmove", "cmp", "cmpxch", "cmpxchg", "cs", "divsd",
	"divss", "gs", "imul", "lea", "mov", "movapd", "movaps", "movdqa", "movdqu", "movsb", "movsd",
	"movsl", "movss", "movsw", "movupd", "movups", "movzb", "movzl", "movzw", "mulsd", "mulss",
	"or", "orps", "paddq", "pand", "pcmpeqb", "por", "rcl", "sbb", "sete", "sub", "subsd", "test",
	"tzcnt", "ucomisd", "ucomiss", "vaddsd", "vandpd", "vmovdqa", "vmovq", "vmovsd", "vmulsd",
	"vorpd", "vsubsd", "vucomisd", "xadd", "xchg", "xor", "xorpd", "xorps", NULL };

enum ins_kind { INS_RAW, INS_JUMP, INS_CALL, INS_RET, INS_NOP, INS_MOV, INS_DEC };

static bool in_list(const char *const *l, const char *name)
{
	for (; *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

static enum ins_kind kind_exact(const char *n)
{
	if (in_list(jump_names, n))
		return INS_JUMP;
	if (in_list(mov_names, n))
		return INS_MOV;
	if (!strcmp(n, "call"))
		return INS_CALL;
	if (!strcmp(n, "ret"))
		return INS_RET;
	if (!strcmp(n, "nop"))
		return INS_NOP;
	if (!strcmp(n, "dec") || !strcmp(n, "inc"))
		return INS_DEC;
	return INS_RAW;
}

/* perf's ins__find: the name, else without an x86 suffix (b, w, l, q) */
static enum ins_kind ins_kind(const char *name)
{
	enum ins_kind k = kind_exact(name);
	size_t n = strlen(name);
	if (k != INS_RAW || !n || n >= 32 || !strchr("bwlq", name[n - 1]))
		return k;
	char tmp[32];
	memcpy(tmp, name, n - 1);
	tmp[n - 1] = 0;
	return kind_exact(tmp);
}

/* the symbol of "<name>" or "<name+0x..>" in s (perf: the symbol holding the target) */
static bool target_name(const char *s, char *out, size_t size)
{
	const char *b = strchr(s, '<'), *e = b ? strchr(b, '>') : NULL;
	if (!e)
		return false;
	const char *plus = b + 1;
	while (plus < e && *plus != '+')
		plus++;
	snprintf(out, size, "%.*s", (int)(plus - b - 1), b + 1);
	return true;
}

/* a mov-like operand: the symbol of the %rip comment in place of a %rip operand */
static void mov_operand(const char *raw, size_t len, const char *comment, struct pk_buf *o)
{
	char name[256];
	char op[512];
	snprintf(op, sizeof(op), "%.*s", (int)len, raw);
	if (comment && strstr(op, "(%rip)") && target_name(comment, name, sizeof(name)))
		pk_buf__printf(o, "%s", name);
	else
		pk_buf__printf(o, "%s", op);
}

/*
 * perf 6.1's mov__parse and mov__scnprintf: "name src,dst" split at the first
 * comma, the comment dropped, a %rip operand named by the comment's symbol;
 * false: no comma (perf prints the raw text)
 */
static bool write_mov(const char *name, const char *ops, int w, struct pk_buf *o)
{
	const char *c = strchr(ops, ',');
	if (!c)
		return false;
	const char *t = c + 1;
	while (*t == ' ')
		t++;
	const char *comment = strchr(t, '#');
	const char *end = comment ? comment : t + strlen(t);
	while (end > t && end[-1] == ' ')
		end--;
	pk_buf__printf(o, "%-*s ", w, name);
	mov_operand(ops, (size_t)(c - ops), comment, o);
	pk_buf__printf(o, ",");
	mov_operand(t, (size_t)(end - t), comment, o);
	return true;
}

struct sym_span {
	uint64_t start, end;	/* objdump addresses */
};

/*
 * An instruction as perf's disasm_line__write writes it: the graph (an arrow
 * and a blank, *arrow set, or two blanks) then the instruction.
 */
static void write_insn(const char *text, int w, const struct sym_span *sp, int64_t offset,
		       struct pk_buf *o, int *arrow)
{
	char name[64];
	text += strspn(text, " \t");
	size_t n = strcspn(text, " \t");
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), text);
	const char *ops = text + n;
	while (*ops == ' ' || *ops == '\t')
		ops++;
	enum ins_kind k = ins_kind(name);
	char tn[256];
	*arrow = 0;
	if (k == INS_JUMP) {
		uint64_t addr = strtoull(ops, NULL, 16);
		bool outside = addr < sp->start || addr >= sp->end;
		*arrow = outside ? 'r' : (int64_t)(addr - sp->start) > offset ? 'd' : 'u';
		pk_buf__printf(o, "  ");
		if (!addr)
			pk_buf__printf(o, "%-*s %s", w, name, ops);
		else if (outside && target_name(ops, tn, sizeof(tn)))
			pk_buf__printf(o, "%-*s %s", w, name, tn);
		else if (!outside)
			pk_buf__printf(o, "%-*s %" PRIx64, w, name, addr - sp->start);
		else
			pk_buf__printf(o, "%-*s %s", w, name, ops);
		return;
	}
	if (k == INS_CALL || k == INS_RET)
		*arrow = k == INS_CALL ? 'r' : 'l';
	pk_buf__printf(o, "  ");
	if (k == INS_CALL && target_name(ops, tn, sizeof(tn)) && strtoull(ops, NULL, 16))
		pk_buf__printf(o, "%-*s %s", w, name, tn);
	else if (k == INS_NOP)
		pk_buf__printf(o, "%-*s", w, name);
	else if (k == INS_MOV && write_mov(name, ops, w, o))
		return;
	else if (k == INS_DEC && strchr(ops, '#')) {
		const char *c = strchr(ops, '#'), *e = c;
		while (e > ops && e[-1] == ' ')
			e--;
		pk_buf__printf(o, "%-*s ", w, name);
		mov_operand(ops, (size_t)(e - ops), c, o);
	} else
		pk_buf__printf(o, "%-*s %s", w, name, ops);
}

/* a direct call's callee by name (perf: the symbol holding the target), else NULL */
static char *call_target(const char *text)
{
	char name[64], tn[256];
	text += strspn(text, " \t");
	size_t n = strcspn(text, " \t");
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), text);
	const char *ops = text + n + strspn(text + n, " \t");
	if (ins_kind(name) != INS_CALL || !strtoull(ops, NULL, 16) || !target_name(ops, tn, sizeof(tn)))
		return NULL;
	return strdup(tn);
}

static int hex_width(uint64_t v)
{
	int n = 1;
	while ((v >>= 4))
		n++;
	return n;
}

static void view_free(struct ann_view *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		free(v->rows[i].body);
		free(v->rows[i].pct);
		free(v->rows[i].call);
	}
	free(v->rows);
	free(v->vis);
	free(v->hot);
}

#define VROW(v, p) (&(v)->rows[(v)->vis[p]])

/* the rows shown: all of them, or with s only the instructions */
static void view_filter(struct ann_view *v)
{
	v->nr_vis = 0;
	for (size_t i = 0; i < v->nr; i++)
		if (!v->no_source || v->rows[i].insn)
			v->vis[v->nr_vis++] = i;
}

static int view_hot_order(struct ann_view *v);

/* the rows of annotation an: events attr..attr+nr_ev, symbol at sp */
static int view_build(struct ann_view *v, const struct pk_annotation *an, int attr,
		      const struct sym_span *sp, uint64_t size)
{
	size_t n = pk_annotation__nr_lines(an);
	int w = 0, aw = hex_width(size);
	uint64_t *tot = calloc((size_t)v->nr_ev, sizeof(*tot));
	bool *target = calloc(n ? n : 1, sizeof(*target));
	v->rows = calloc(n ? n : 1, sizeof(*v->rows));
	if (!tot || !target || !v->rows) {
		free(tot);
		free(target);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {	/* widths, totals, jump targets */
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		if (l->offset < 0)
			continue;
		const char *text = l->text + strspn(l->text, " \t");
		int len = (int)strcspn(text, " \t");
		w = len > w ? len : w;
		for (int e = 0; e < v->nr_ev; e++)
			tot[e] += l->period[attr + e];
		char name[64];
		snprintf(name, sizeof(name), "%.*s", len < 63 ? len : 63, text);
		const char *ops = text + len;
		uint64_t a = ins_kind(name) == INS_JUMP ? strtoull(ops + strspn(ops, " \t"), NULL, 16) : 0;
		for (size_t k = 0; a >= sp->start && a < sp->end && k < n; k++)
			if (pk_annotation__line(an, k)->offset == (int64_t)(a - sp->start))
				target[k] = true;
	}
	char buf[4096];
	for (size_t i = 0; i < n; i++, v->nr++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, i);
		struct ann_row *r = &v->rows[i];
		struct pk_buf o;
		pk_buf__init_fixed(&o, buf, sizeof(buf));
		r->arrow = -1;
		if (l->offset < 0) {
			if (l->text && *l->text)
				pk_buf__printf(&o, "%-*s  %s", aw, " ", l->text);
		} else {
			r->insn = true;
			r->pct = calloc((size_t)v->nr_ev, sizeof(double));
			if (!r->pct)
				break;
			for (int e = 0; e < v->nr_ev; e++) {
				r->pct[e] = tot[e] ? 100.0 * (double)l->period[attr + e] / (double)tot[e] : 0;
				r->max = r->pct[e] > r->max ? r->pct[e] : r->max;
			}
			if (target[i])
				pk_buf__printf(&o, "%*" PRIx64 ": ", aw, (uint64_t)l->offset);
			else
				pk_buf__printf(&o, "%-*s  ", aw, " ");
			int ch;
			size_t at = o.len;
			write_insn(l->text, w, sp, l->offset, &o, &ch);
			r->call = call_target(l->text);
			if (ch) {
				r->arrow = (int)at;
				r->arrow_ch = ch;
			}
		}
		r->body = strdup(buf);
		if (!r->body)
			break;
	}
	free(tot);
	free(target);
	v->vis = malloc((n ? n : 1) * sizeof(*v->vis));
	if (v->nr != n || !v->vis)
		return -ENOMEM;
	view_filter(v);
	return view_hot_order(v);
}

/* row (of rows) selected and centred: perf's annotate_browser__set_top */
static void view_center(struct ann_view *v, size_t row)
{
	size_t at = 0;
	while (at + 1 < v->nr_vis && v->vis[at] < row)
		at++;
	size_t back = (size_t)(LINES > 2 ? LINES - 2 : 1) / 2;
	v->sel = at;
	v->top = at > back ? at - back : 0;
}

/* the lines with samples by percent, lowest first, equals in address order (perf's rb tree) */
static int by_percent(const void *pa, const void *pb, void *arg)
{
	const struct ann_view *v = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	if (v->rows[a].max != v->rows[b].max)
		return v->rows[a].max < v->rows[b].max ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int view_hot_order(struct ann_view *v)
{
	v->hot = malloc((v->nr ? v->nr : 1) * sizeof(*v->hot));
	if (!v->hot)
		return -ENOMEM;
	for (size_t i = 0; i < v->nr; i++)
		if (v->rows[i].insn && v->rows[i].max > 0)
			v->hot[v->nr_hot++] = i;
	qsort_r(v->hot, v->nr_hot, sizeof(*v->hot), by_percent, v);
	v->cur_hot = v->nd = v->nr_hot ? (long)v->nr_hot - 1 : -1;
	return 0;
}

/* perf's curr_hot (at first the hottest line) selected and centred; H */
static void view_hottest(struct ann_view *v)
{
	v->nd = v->cur_hot;
	if (v->cur_hot >= 0)
		view_center(v, v->hot[v->cur_hot]);
	else
		v->sel = v->top = 0;
}

/* TAB (d -1: the next lower percent, from the lowest to the hottest) and UNTAB (d 1) */
static void view_step_hot(struct ann_view *v, int d)
{
	if (!v->nr_hot)
		return;
	if (v->nd < 0)
		v->nd = v->cur_hot;
	else
		v->nd = (v->nd + d + (long)v->nr_hot) % (long)v->nr_hot;
	v->cur_hot = v->nd;
	view_center(v, v->hot[v->nd]);
}

/* a line-drawing glyph: UTF-8 where the terminal's locale is (as perf's S-Lang draws), else ACS */
static void glyph(int y, int x, int what)
{
	static const struct { int what; const char *utf8; } g[] = {
		{ 'v', "\u2502" }, { 'u', "\u2191" }, { 'd', "\u2193" }, { 'l', "\u2190" }, { 'r', "\u2192" },
	};
	if (!strcmp(nl_langinfo(CODESET), "UTF-8")) {
		for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++)
			if (g[i].what == what)
				mvaddstr(y, x, g[i].utf8);
		return;
	}
	mvaddch(y, x, what == 'v' ? ACS_VLINE : what == 'u' ? ACS_UARROW : what == 'd' ? ACS_DARROW :
		      what == 'l' ? ACS_LARROW : ACS_RARROW);
}

static void view_draw(const struct ann_view *v)
{
	int pw = 7 * v->nr_ev, rows = LINES > 3 ? LINES - 3 : 1;
	char pct[256];
	erase();
	tui_bar(0, v->title);
	tui_bar(1, v->subtitle);
	for (int y = 0; y < rows && v->top + (size_t)y < v->nr_vis; y++) {
		size_t i = v->top + (size_t)y;
		const struct ann_row *r = VROW(v, i);
		int n = 0;
		if (r->insn && r->max != 0)
			for (int e = 0; e < v->nr_ev; e++)
				n += snprintf(pct + n, sizeof(pct) - (size_t)n, "%6.2f ", r->pct[e]);
		else
			snprintf(pct, sizeof(pct), "%-*s", pw, y == 0 ? "Percent" : " ");
		if (i == v->sel) {
			attron(A_REVERSE);
			mvhline(2 + y, 0, ' ', COLS);
		}
		mvaddnstr(2 + y, 0, pct, COLS);
		mvaddnstr(2 + y, pw + 1, r->body, COLS - pw - 1 > 0 ? COLS - pw - 1 : 0);
		if (r->arrow >= 0 && pw + 1 + r->arrow < COLS)
			glyph(2 + y, pw + 1 + r->arrow, r->arrow_ch);
		if (i == v->sel)
			attroff(A_REVERSE);
		if (pw < COLS)
			glyph(2 + y, pw, 'v');
	}
	mvaddnstr(LINES - 1, 0, v->status[0] ? v->status : "Press 'h' for help on key bindings", COLS);
	move(0, 0);
	refresh();
}

static const char ann_help[] =
	"Keys of the annotate view (perf's annotate browser):\n"
	"\n"
	"UP/DOWN/PGUP/PGDN/SPACE  move the selection; HOME/END: first and last line\n"
	"TAB/UNTAB     the line with the next lower or higher percent\n"
	"H             back to the line TAB/UNTAB last went to (at first the hottest)\n"
	"s             hide or show the source and other text lines\n"
	"ENTER/RIGHT   on a call: the callee's annotation (q back)\n"
	"q/ESC/LEFT    back to the report\n"
	"h/?/F1        this help\n";

/* s: the text lines hidden or shown, the selected line kept on its screen row when it can */
static void toggle_source(struct ann_view *v)
{
	if (!v->nr_vis)
		return;
	size_t row = v->vis[v->sel], offset = v->sel - v->top;
	if (!v->no_source && !v->rows[row].insn) {
		snprintf(v->status, sizeof(v->status), "Only available for assembly lines.");
		return;
	}
	v->no_source = !v->no_source;
	view_filter(v);
	size_t at = 0;
	while (at + 1 < v->nr_vis && v->vis[at] != row)
		at++;
	if (at < offset)
		offset = at;
	v->sel = at;
	v->top = at - offset;
}

/* ENTER on a call: the callee's annotation (perf's annotate_browser__callq) */
static int follow_call(struct ann_view *v)
{
	const struct ann_row *r = v->nr_vis ? VROW(v, v->sel) : NULL;
	if (!r || !r->insn)
		return 0;
	if (!r->call) {
		snprintf(v->status, sizeof(v->status), "The called function was not found.");
		return 0;
	}
	return annotate_symbol(v->ctx, r->call, NULL, v->status, sizeof(v->status));
}

/* the view's keys until q/ESC/←: 0, or -ENOMEM */
static int view_run(struct ann_view *v)
{
	for (;;) {
		size_t rows = (size_t)(LINES > 3 ? LINES - 3 : 1);
		if (v->sel < v->top)
			v->top = v->sel;
		if (v->sel >= v->top + rows)
			v->top = v->sel - rows + 1;
		view_draw(v);
		int k = tui_get_key();
		v->status[0] = 0;
		long d = 0;
		switch (k) {
		case ERR: case 'q': case 27: case KEY_LEFT: case 3:
			return 0;
		case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
			if (follow_call(v) < 0)
				return -ENOMEM;
			break;
		case KEY_DOWN: d = 1; break;
		case KEY_UP: d = -1; break;
		case KEY_NPAGE: case ' ': d = (long)rows; break;
		case KEY_PPAGE: d = -(long)rows; break;
		case KEY_HOME: v->sel = 0; break;
		case KEY_END: v->sel = v->nr_vis ? v->nr_vis - 1 : 0; break;
		case 's': toggle_source(v); break;
		case '\t': case KEY_BTAB: view_step_hot(v, k == '\t' ? -1 : 1); break;
		case 'H': view_hottest(v); break;
		case 'h': case '?': case KEY_F(1): tui_view_text("Help", ann_help); break;
		default: break;
		}
		long s = (long)v->sel + d, n = (long)v->nr_vis;
		v->sel = (size_t)(s < 0 || !n ? 0 : s >= n ? n - 1 : s);
	}
}

/* symbol sym (of DSO dso; NULL: any) among the annotate library's entries: its index, or -1 */
static long find_entry(struct pk_annotate *a, int attr, int nr, const char *sym, const char *dso,
		       struct pk_annotate_entry *ae)
{
	size_t n = nr > 1 ? pk_annotate__nr_group_entries(a, attr, nr) : pk_annotate__nr_entries(a, attr);
	for (size_t i = 0; i < n; i++) {
		*ae = (struct pk_annotate_entry){ .sz = sizeof(*ae) };
		int rc = nr > 1 ? pk_annotate__group_entry(a, attr, nr, i, ae) :
				  pk_annotate__entry(a, attr, i, ae);
		if (!rc && ae->sym && ae->dso && !strcmp(ae->sym->name, sym) &&
		    (!dso || !strcmp(pk_dso__name(ae->dso), dso)))
			return (long)i;
	}
	return -1;
}

/* what an annotate view needs to open another (ENTER on a call) */
struct ann_ctx {
	const struct tui_annotate_src *src;
	struct pk_report *r;
	size_t section;
	int attr, nr_ev;
};

/* the view of annotation an (entry ae) until q/ESC/← */
static int show(const struct ann_ctx *c, struct pk_session *s, const struct pk_annotation *an,
		const struct pk_annotate_entry *ae)
{
	struct ann_view v = { .nr_ev = c->nr_ev, .ctx = c };
	struct sym_span sp = { 0 };
	for (size_t k = 0; k < pk_annotation__nr_lines(an); k++) {
		const struct pk_annotation_line *l = pk_annotation__line(an, k);
		if (l->offset >= 0) {
			sp.start = l->addr - (uint64_t)l->offset;
			break;
		}
	}
	uint64_t symsize = ae->sym->end - ae->sym->start;
	sp.end = sp.start + symsize;
	const struct pk_data_attr *at = pk_session__attr(s, c->attr);
	tui_annotate_title(c->r, c->section, at ? at->attr.sample_freq : 0, v.title, sizeof(v.title));
	snprintf(v.subtitle, sizeof(v.subtitle), "%s  %s [Percent: local period]", ae->sym->name,
		 pk_dso__name(ae->dso));
	int rc = view_build(&v, an, c->attr, &sp, symsize);
	if (!rc) {
		view_hottest(&v);
		rc = view_run(&v);
	}
	view_free(&v);
	return rc;
}

static int annotate_symbol(const struct ann_ctx *c, const char *sym, const char *dso, char *status,
			   size_t size)
{
	struct pk_session_opts so = c->src->opts;
	so.flags |= PK_SESSION_NO_INLINE;
	so.on_event = NULL;
	so.on_event_ctx = NULL;
	struct pk_annotate_opts ao = { .sz = sizeof(ao), .symbol = sym, .dsos = dso };
	struct pk_error err = { 0 };
	struct pk_session *s = NULL;
	struct pk_annotate *a = NULL;
	struct pk_annotation *an = NULL;
	struct pk_annotate_entry ae;
	int rc = pk_session__open(&s, c->src->input, &so, &err);
	if (!rc)
		rc = pk_annotate__new(&a, s, &ao, &err);
	if (!rc)
		rc = pk_annotate__process(a, &err);
	long i = rc ? -1 : find_entry(a, c->attr, c->nr_ev, sym, dso, &ae);
	if (i >= 0)
		rc = c->nr_ev > 1 ? pk_annotation__new_group(&an, a, c->attr, c->nr_ev, (size_t)i, &err) :
				    pk_annotation__new(&an, a, c->attr, (size_t)i, &err);
	if (!rc && an)
		rc = show(c, s, an, &ae);
	else if (!rc)
		snprintf(status, size, "annotate: no samples of %s", sym);
	else
		snprintf(status, size, "Couldn't annotate %s: %s", sym, err.msg[0] ? err.msg : strerror(-rc));
	pk_annotation__free(an);
	pk_annotate__free(a);
	pk_session__free(s);
	return rc == -ENOMEM ? rc : 0;
}

int tui_annotate(const struct tui_annotate_src *src, struct pk_report *r, size_t section,
		 const struct pk_report_entry *e, char *status, size_t size)
{
	const struct pk_report_section *sec = pk_report__section(r, section);
	if (!e || !e->sym || !e->dso || !sec || !src || !src->input)
		return 0;	/* perf: nothing to annotate */
	if (!strcmp(src->input, "-")) {
		snprintf(status, size, "annotate: the samples came through a pipe, they cannot be read again");
		return 0;
	}
	struct ann_ctx c = { src, r, section, sec->attr, e->nr_group > 1 ? (int)e->nr_group : 1 };
	return annotate_symbol(&c, e->sym->name, pk_dso__name(e->dso), status, size);
}

void tui_annotate_title(struct pk_report *r, size_t section, uint64_t freq, char *buf, size_t size)
{
	/* perf's hists__scnprintf_title with show_freq: " N Hz," after the event's name */
	char t[1024];
	if (pk_report__snprintf_title(r, section, t, sizeof(t))) {
		snprintf(buf, size, "no samples");
		return;
	}
	char *p = strstr(t, "', Event count");
	if (!p) {
		snprintf(buf, size, "%s", t);
		return;
	}
	snprintf(buf, size, "%.*s', %" PRIu64 " Hz,%s", (int)(p - t), t, freq, p + 2);
}
