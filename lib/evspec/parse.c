/* SPDX-License-Identifier: MIT */
/*
 * evspec/parse.c — recursive-descent parser of perf's event specifications
 * into the syntax tree of evspec/ast.h, with byte positions, and errors that
 * point at the offending token and say what was expected there.
 *
 * Grammar (blanks between tokens are skipped, as perf does):
 *
 *   list      := element (',' element)*
 *   element   := [NAME] '{' event (',' event)* '}' [':' MODS] | event
 *   event     := head [ '/' [term (',' term)*] '/' ] [':'] [MODS]
 *   head      := NAME                      cycles, l1d.replacement, 'quoted'
 *              | NAME ':' NAME             tracepoint sched:sched_switch
 *              | 'r' HEX                   raw r1a8
 *              | NUM ':' NUM               numeric TYPE:CONFIG (1:1)
 *              | "mem:" NUM ['/' NUM] [':' ACCESS[MODS]]   breakpoint
 *   term      := NAME ['=' VALUE] | '@' NAME ['=' VALUE]
 *   VALUE     := NUM (decimal, 0x hex, DIGITS.DIGITS) | NAME (':' allowed) | 'quoted'
 *   MODS      := letters of "ukhGHIpPSDWebR", each once, 'p' up to 3 times
 *
 * MODS without ':' only directly after the closing '/' (cpu/event=1/k).
 * Numbers are never octal: perf reads "010" as ten.
 *
 * Modifier or tracepoint ("cycles:u" vs "sched:sched_switch"): as in perf,
 * the word after NAME ':' is a modifier string when it is made only of
 * modifier letters ("sched:S" has modifier S), otherwise NAME:WORD is a
 * tracepoint. Unlike perf, which then fails with "parser error", when NAME
 * is one of perf's symbolic events (cycles, task-clock, L1-dcache-loads...)
 * the word must be modifiers, so "cycles:uq" reports "unknown modifier 'q'".
 *
 * Accepted beyond perf 6.1, harmless: ':' between the closing '/' and the
 * modifiers (cpu/event=1/:k; perf accepts it after raw and cache events
 * only), 'quoted' event names (perf 6.12), /terms/ after breakpoints
 * (6.12), 0X hex, the modifier R (6.12). Refused where perf accepts:
 * bytes perf's lexer silently drops ("cycles$", "cycles#"), an unterminated
 * group ("{cycles"), modifiers without ':' after a name, blank or address
 * ("cycles u", "mem:0x1000u"), duplicate breakpoint access ("mem:1:rr", a
 * later EINVAL in perf), "r0x1a8" as an event (perf 6.1: parser error;
 * inside terms it is a raw term, as in perf).
 *
 * Positions are byte offsets into the spec; errors carry the offending
 * token, or offset strlen(spec) with length 1 for an unexpected end.
 */
#include "evspec/ast.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/event_names.h>

#include "evspec/lex.h"
#include "util/error.h"
#include "util/grow.h"

#define SPEC_MAX_LEN (16u << 20)
#define MOD_HINT "valid modifiers: u k h I G H p pp ppp P S D W e b R"
#define SHOW 64		/* at most this many bytes of a word quoted in a message */

#define TRY(x)                    \
	do {                      \
		int rc_ = (x);    \
		if (rc_)          \
			return rc_; \
	} while (0)

/* A growable array that starts in a caller's (stack) buffer; heap set once it moved. */
struct vec {
	void *data;
	size_t n, cap, size;
	bool heap;
};

struct parser {
	struct spec_lexer lx;
	struct spec_ast *ast;
	struct pk_spec_error *err;
	const char *s;		/* the spec (the ast's copy) */
	unsigned end;		/* end of the last consumed token */
	struct vec terms, events, groups;
	struct pk_arena *arena;	/* where the tree goes: the ast's own or the caller's */
	/* the last token peeked (each is looked at a few times before it is consumed) */
	struct spec_token la;
	unsigned la_pos, la_flags;
	bool la_valid;
};

static void *vec_push(struct vec *v)
{
	if (v->n == v->cap) {
		if (pk_grow__realloc(&v->data, &v->cap, v->n + 1, v->size, v->heap ? NULL : v->data))
			return NULL;
		v->heap = true;
	}
	void *p = (char *)v->data + v->n++ * v->size;
	memset(p, 0, v->size);
	return p;
}

static int fail(struct parser *p, unsigned off, unsigned len, const char *hint, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));

static int fail(struct parser *p, unsigned off, unsigned len, const char *hint, const char *fmt,
		...)
{
	char msg[sizeof(p->err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pk_spec_error__set(p->err, -EINVAL, off, len ? len : 1, hint, "%s", msg);
}

static int nomem(struct parser *p)
{
	return pk_spec_error__set(p->err, -ENOMEM, 0, 0, NULL, "out of memory");
}

static bool cached(const struct parser *p, unsigned flags)
{
	return p->la_valid && p->la_pos == p->lx.pos && p->la_flags == flags;
}

static int next(struct parser *p, unsigned flags, struct spec_token *t)
{
	if (cached(p, flags)) {
		*t = p->la;
		p->lx.pos = t->off + t->len;	/* where the lexer would have stopped */
	} else {
		TRY(spec_lexer__next(&p->lx, flags, t, p->err));
	}
	if (t->kind != SPEC_TOK_END)
		p->end = t->off + t->len;
	return 0;
}

static int peek(struct parser *p, unsigned flags, struct spec_token *t)
{
	if (cached(p, flags)) {
		*t = p->la;
		return 0;
	}
	TRY(spec_lexer__peek(&p->lx, flags, t, p->err));
	p->la = *t;
	p->la_pos = p->lx.pos;
	p->la_flags = flags;
	p->la_valid = true;
	return 0;
}

/* The token after the next one (0 flags), or END when it cannot be lexed. */
static void peek2(struct parser *p, struct spec_token *t)
{
	struct spec_lexer copy = p->lx;
	struct pk_spec_error scratch;
	bool have = cached(p, 0);
	if (have) {
		*t = p->la;
		copy.pos = t->off + t->len;
	}
	if ((!have && spec_lexer__next(&copy, 0, t, &scratch)) || t->kind == SPEC_TOK_END ||
	    spec_lexer__next(&copy, 0, t, &scratch)) {
		t->kind = SPEC_TOK_END;
		t->off = p->lx.len;
		t->len = 0;
	}
}

static struct spec_pos pos_of(const struct spec_token *t)
{
	return (struct spec_pos){ t->off, t->len };
}

static const char *text_of(struct parser *p, const struct spec_token *t)
{
	return p->s + t->off;
}

/* A copy of the token's text, quotes removed. */
static char *dup_tok(struct parser *p, const struct spec_token *t)
{
	if (t->kind == SPEC_TOK_QUOTED)
		return pk_arena__strndup(p->arena, p->s + t->off + 1, t->len - 2);
	return pk_arena__strndup(p->arena, p->s + t->off, t->len);
}

static void *arena_copy(struct parser *p, const struct vec *v)
{
	if (!v->n)
		return NULL;
	void *d = pk_arena__alloc(p->arena, v->n * v->size);
	if (d)
		memcpy(d, v->data, v->n * v->size);
	return d;
}

static unsigned shown(unsigned len)
{
	return len > SHOW ? SHOW : len;
}

static bool all_modifiers(const char *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!spec_lex__is_modifier((unsigned char)s[i]))
			return false;
	return n > 0;
}

static bool is_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Start of a tracepoint event or term name: no digit, no '.', '!', '-'. */
static bool ident_start(int c)
{
	return spec_lex__name_start(c) && !spec_lex__is_digit(c);
}

/* perf's lexer keywords: hardware/software/tool symbols and cache events. */
static bool is_symbol_name(const char *name)
{
	uint64_t config;
	return pk_symbols__find(name) || pk_symbols__parse_cache(name, &config) != -ENOENT;
}

static int parse_mods(struct parser *p, struct spec_mods *m, unsigned off, unsigned len)
{
	m->present = true;
	m->pos = (struct spec_pos){ off, len };
	for (unsigned i = off; i < off + len; i++) {
		char c = p->s[i];
		bool *flag;
		switch (c) {
		case 'u': flag = &m->u; break;
		case 'k': flag = &m->k; break;
		case 'h': flag = &m->h; break;
		case 'G': flag = &m->G; break;
		case 'H': flag = &m->H; break;
		case 'I': flag = &m->I; break;
		case 'P': flag = &m->P; break;
		case 'S': flag = &m->S; break;
		case 'D': flag = &m->D; break;
		case 'W': flag = &m->W; break;
		case 'e': flag = &m->e; break;
		case 'b': flag = &m->b; break;
		case 'R': flag = &m->R; break;
		case 'p':
			if (++m->precise > 3)
				return fail(p, i, 1, "at most 3: ppp", "too many 'p' modifiers");
			continue;
		default:
			if (is_letter(c))
				return fail(p, i, 1, MOD_HINT, "unknown modifier '%c'", c);
			return fail(p, i, 1, MOD_HINT, "unexpected '%c' in modifiers", c);
		}
		if (*flag)
			return fail(p, i, 1, NULL, "duplicate modifier '%c'", c);
		*flag = true;
	}
	return 0;
}

/* After ':' where modifiers must follow (groups, after ':' in a tail). */
static int expect_mods(struct parser *p, struct spec_mods *m)
{
	struct spec_token t;
	TRY(next(p, 0, &t));
	if (t.kind != SPEC_TOK_WORD)
		return fail(p, t.off, t.len, MOD_HINT, "expected modifiers after ':'");
	return parse_mods(p, m, t.off, t.len);
}

static int unterminated_terms(struct parser *p, unsigned open)
{
	return fail(p, open, 1, "close the terms with '/'", "unterminated term list");
}

/* '@' NAME ['=' VALUE]: perf's driver config term; str is "NAME[=VALUE]". */
static int parse_drv_cfg(struct parser *p, struct spec_term *term, const struct spec_token *at)
{
	struct spec_token w, eq, v;
	TRY(next(p, 0, &w));
	if (w.kind != SPEC_TOK_WORD || w.off != at->off + 1)
		return fail(p, w.off, w.len, NULL, "expected a driver config name after '@'");
	term->kind = SPEC_TERM_DRV_CFG;
	term->name = "driver-config";
	term->name_pos = pos_of(at);
	TRY(peek(p, 0, &eq));
	size_t n = w.len;
	if (eq.kind == SPEC_TOK_EQ) {
		TRY(next(p, 0, &eq));
		TRY(next(p, SPEC_LEX_VALUE, &v));
		if (v.kind != SPEC_TOK_WORD)
			return fail(p, v.off, v.len, NULL, "expected a value after '='");
		n += 1 + v.len;
	}
	char *s = pk_arena__alloc(p->arena, n + 1);
	if (!s)
		return nomem(p);
	memcpy(s, text_of(p, &w), w.len);
	if (n > w.len) {
		s[w.len] = '=';
		memcpy(s + w.len + 1, text_of(p, &v), v.len);
	}
	term->str = s;
	term->val_pos = (struct spec_pos){ w.off, p->end - w.off };
	return 0;
}

/* NAME ['=' VALUE] or a bare rNNN. Returns with *had_value set. */
static int parse_term(struct parser *p, struct spec_term *term, const struct spec_token *nt,
		      bool *had_value)
{
	struct spec_token t, v;
	term->name = dup_tok(p, nt);
	if (!term->name)
		return nomem(p);
	term->name_pos = pos_of(nt);
	TRY(peek(p, 0, &t));
	*had_value = t.kind == SPEC_TOK_EQ;
	if (!*had_value) {
		uint64_t num = 1;
		enum spec_raw rk = nt->kind == SPEC_TOK_WORD ?
				   spec_lex__raw(text_of(p, nt), nt->len, &num) : SPEC_RAW_NONE;
		if (rk == SPEC_RAW_OVERFLOW)
			return fail(p, nt->off, nt->len, NULL, "raw config too large for 64 bits");
		term->kind = rk == SPEC_RAW_NONE ? SPEC_TERM_FLAG : SPEC_TERM_RAW;
		term->num = rk == SPEC_RAW_NONE ? 1 : num;
		term->fnum = (double)term->num;
		term->str = term->kind == SPEC_TERM_RAW ? term->name : NULL;
		term->val_pos = term->name_pos;
		return 0;
	}
	TRY(next(p, 0, &t));
	TRY(next(p, SPEC_LEX_VALUE, &v));
	term->val_pos = pos_of(&v);
	if (v.kind == SPEC_TOK_QUOTED) {
		term->kind = SPEC_TERM_STR;
		term->quoted = true;
	} else if (v.kind != SPEC_TOK_WORD) {
		return fail(p, v.off, v.len, NULL, "expected a value after '='");
	} else if (spec_lex__is_digit((unsigned char)p->s[v.off])) {
		switch (spec_lex__number(text_of(p, &v), v.len, &term->num, &term->fnum)) {
		case SPEC_NUM_INT:
			break;
		case SPEC_NUM_FLOAT:
			term->is_float = true;
			break;
		case SPEC_NUM_OVERFLOW:
			return fail(p, v.off, v.len, NULL, "term value too large for 64 bits");
		case SPEC_NUM_NONE:
		default:
			return fail(p, v.off, v.len, "numbers are decimal, 0x hex or 0.5; quote names",
				    "invalid number '%.*s'", shown(v.len), text_of(p, &v));
		}
		term->kind = SPEC_TERM_NUM;
	} else if (ident_start((unsigned char)p->s[v.off])) {
		term->kind = SPEC_TERM_STR;
	} else {
		return fail(p, v.off, v.len, "numbers are decimal, 0x hex or 0.5",
			    "expected a value after '='");
	}
	term->str = dup_tok(p, &v);
	return term->str ? 0 : nomem(p);
}

/* After the opening '/' at offset open: terms up to the closing '/'. */
static int parse_terms(struct parser *p, struct spec_event *ev, unsigned open)
{
	struct spec_token t;
	p->terms.n = 0;
	TRY(peek(p, 0, &t));
	if (t.kind == SPEC_TOK_SLASH)
		return next(p, 0, &t);
	for (bool first = true;; first = false) {
		bool had_value = true;
		TRY(next(p, 0, &t));
		if (t.kind == SPEC_TOK_END)
			return unterminated_terms(p, open);
		if (t.kind == SPEC_TOK_WORD && !ident_start((unsigned char)p->s[t.off]))
			return fail(p, t.off, t.len, NULL, "expected a term name");
		if (t.kind != SPEC_TOK_WORD && t.kind != SPEC_TOK_QUOTED && t.kind != SPEC_TOK_AT)
			return fail(p, t.off, t.len, NULL, "%s",
				    first ? "expected a term or the closing '/'"
					  : "expected a term after ','");
		struct spec_term *term = vec_push(&p->terms);
		if (!term)
			return nomem(p);
		term->pos.off = t.off;
		if (t.kind == SPEC_TOK_AT)
			TRY(parse_drv_cfg(p, term, &t));
		else
			TRY(parse_term(p, term, &t, &had_value));
		term->pos.len = p->end - term->pos.off;

		TRY(next(p, 0, &t));
		if (t.kind == SPEC_TOK_SLASH)
			break;
		if (t.kind == SPEC_TOK_END)
			return unterminated_terms(p, open);
		if (t.kind != SPEC_TOK_COMMA)
			return fail(p, t.off, t.len, NULL, "%s",
				    had_value ? "expected ',' or '/' after term"
					      : "expected '=', ',' or '/' after term name");
	}
	ev->nr_terms = p->terms.n;
	ev->terms = arena_copy(p, &p->terms);
	return ev->terms ? 0 : nomem(p);
}

/* Optional /terms/, optional ':', modifiers. */
static int parse_tail(struct parser *p, struct spec_event *ev)
{
	struct spec_token t;
	bool after_slash = false, colon = false;
	TRY(peek(p, 0, &t));
	if (t.kind == SPEC_TOK_SLASH) {
		TRY(next(p, 0, &t));
		TRY(parse_terms(p, ev, t.off));
		ev->slash = after_slash = true;
		if (ev->kind == SPEC_EV_NAME)
			ev->kind = SPEC_EV_SLASH;
		TRY(peek(p, 0, &t));
	}
	if (t.kind == SPEC_TOK_COLON) {
		TRY(next(p, 0, &t));
		colon = true;
		TRY(peek(p, 0, &t));
	}
	if (t.kind == SPEC_TOK_WORD && (colon || after_slash)) {
		TRY(next(p, 0, &t));
		return parse_mods(p, &ev->mods, t.off, t.len);
	}
	if (colon && t.kind != SPEC_TOK_END && t.kind != SPEC_TOK_COMMA &&
	    t.kind != SPEC_TOK_RBRACE)
		return fail(p, t.off, t.len, MOD_HINT, "expected modifiers after ':'");
	return 0;
}

/* NAME already read: tracepoint, slash form or plain name. */
static int parse_named(struct parser *p, struct spec_event *ev, bool may_be_keyword)
{
	struct spec_token t, w;
	TRY(peek(p, 0, &t));
	if (t.kind != SPEC_TOK_COLON)
		return parse_tail(p, ev);
	peek2(p, &w);
	bool word = w.kind == SPEC_TOK_WORD;
	if (!(word && !all_modifiers(text_of(p, &w), w.len)) && w.kind != SPEC_TOK_QUOTED)
		return parse_tail(p, ev);
	if (may_be_keyword && is_symbol_name(ev->name)) {
		/* cycles:WORD: must be modifiers; parse_mods stops at the first bad letter */
		TRY(next(p, 0, &t));
		return expect_mods(p, &ev->mods);
	}
	if (word && !ident_start((unsigned char)p->s[w.off]))
		return fail(p, w.off, w.len, NULL, "expected a tracepoint name or modifiers after ':'");
	TRY(next(p, 0, &t));
	TRY(next(p, 0, &w));
	ev->kind = SPEC_EV_TRACEPOINT;
	ev->tp_event = dup_tok(p, &w);
	if (!ev->tp_event)
		return nomem(p);
	ev->arg_pos = pos_of(&w);
	return parse_tail(p, ev);
}

/* A number word, or an error saying what was expected. */
static int number(struct parser *p, const struct spec_token *t, const char *what, uint64_t *num)
{
	double f;
	enum spec_num k = t->kind == SPEC_TOK_WORD ?
			  spec_lex__number(text_of(p, t), t->len, num, &f) : SPEC_NUM_NONE;
	if (k == SPEC_NUM_INT)
		return 0;
	if (k == SPEC_NUM_OVERFLOW)
		return fail(p, t->off, t->len, NULL, "%s too large for 64 bits", what);
	return fail(p, t->off, t->len, "a decimal or 0x hex number", "expected %s", what);
}

/* mem:ADDR[/LEN][:ACCESS[MODS]] then the tail. */
static int parse_breakpoint(struct parser *p, struct spec_event *ev)
{
	struct spec_token t, w;
	ev->kind = SPEC_EV_BREAKPOINT;
	ev->name = "mem";
	TRY(next(p, 0, &t));	/* ':' */
	TRY(next(p, 0, &t));
	if (t.kind == SPEC_TOK_WORD && !spec_lex__is_digit((unsigned char)p->s[t.off]))
		t.kind = SPEC_TOK_END;	/* a name: "expected ..." below */
	TRY(number(p, &t, "a breakpoint address after 'mem:'", &ev->raw));
	ev->arg_pos = pos_of(&t);

	TRY(peek(p, 0, &t));
	peek2(p, &w);
	if (t.kind == SPEC_TOK_SLASH && w.kind == SPEC_TOK_WORD &&
	    spec_lex__is_digit((unsigned char)p->s[w.off])) {
		TRY(next(p, 0, &t));
		TRY(next(p, 0, &w));
		TRY(number(p, &w, "a breakpoint length", &ev->bp_len));
		ev->bp_len_pos = pos_of(&w);
		TRY(peek(p, 0, &t));
		peek2(p, &w);
	}
	if (t.kind != SPEC_TOK_COLON)
		return parse_tail(p, ev);
	if (w.kind == SPEC_TOK_END || w.kind == SPEC_TOK_COMMA || w.kind == SPEC_TOK_RBRACE)
		return next(p, 0, &t);	/* "mem:0x1000:" as perf */
	if (w.kind != SPEC_TOK_WORD)
		return fail(p, w.off, w.len, "access is r, w, x or a combination",
			    "expected breakpoint access or modifiers after ':'");
	TRY(next(p, 0, &t));
	TRY(next(p, 0, &w));
	unsigned i = 0, n = 0;
	for (; i < w.len && strchr("rwx", p->s[w.off + i]); i++) {
		char c = p->s[w.off + i];
		if (memchr(ev->bp_access, c, n))
			return fail(p, w.off + i, 1, NULL, "duplicate breakpoint access '%c'", c);
		ev->bp_access[n++] = c;
	}
	if (i)
		ev->bp_access_pos = (struct spec_pos){ w.off, i };
	if (i < w.len)	/* modifiers, right after the access letters as perf allows */
		return parse_mods(p, &ev->mods, w.off + i, w.len - i);
	return parse_tail(p, ev);
}

/* TYPE ':' CONFIG then the tail; type already read. */
static int parse_numeric(struct parser *p, struct spec_event *ev, const struct spec_token *tt,
			 uint64_t type)
{
	struct spec_token t;
	ev->kind = SPEC_EV_NUMERIC;
	if (type > UINT32_MAX)
		return fail(p, tt->off, tt->len, NULL, "event type too large for 32 bits");
	ev->numeric_type = (uint32_t)type;
	TRY(peek(p, 0, &t));
	if (t.kind != SPEC_TOK_COLON)
		return fail(p, tt->off, tt->len, "numeric events are TYPE:CONFIG (1:1), raw ones rNNN",
			    "a number alone is not an event");
	TRY(next(p, 0, &t));
	TRY(next(p, 0, &t));
	TRY(number(p, &t, "a config number after ':'", &ev->raw));
	ev->arg_pos = pos_of(&t);
	return parse_tail(p, ev);
}

/* One event; the next token is a WORD or QUOTED. Appended to p->events. */
static int parse_event(struct parser *p)
{
	struct spec_token t;
	struct spec_event *ev = vec_push(&p->events);
	if (!ev)
		return nomem(p);
	TRY(next(p, 0, &t));
	ev->pos.off = t.off;
	ev->name_pos = pos_of(&t);
	const char *w = text_of(p, &t);
	uint64_t num;
	double f;
	enum spec_raw rk;
	int rc;

	if (t.kind == SPEC_TOK_QUOTED) {
		ev->name_quoted = true;
		if (!(ev->name = dup_tok(p, &t)))
			return nomem(p);
		rc = parse_named(p, ev, false);
	} else if (t.len == 3 && !memcmp(w, "mem", 3) && t.off + 3 < p->lx.len && w[3] == ':') {
		rc = parse_breakpoint(p, ev);
	} else if (spec_lex__is_digit((unsigned char)w[0]) &&
		   spec_lex__number(w, t.len, &num, &f) == SPEC_NUM_INT) {
		rc = parse_numeric(p, ev, &t, num);
	} else if (spec_lex__is_digit((unsigned char)w[0]) &&
		   spec_lex__number(w, t.len, &num, &f) == SPEC_NUM_OVERFLOW) {
		return fail(p, t.off, t.len, NULL, "number too large for 64 bits");
	} else if ((rk = spec_lex__raw(w, t.len, &num)) != SPEC_RAW_NONE) {
		if (rk == SPEC_RAW_OVERFLOW)
			return fail(p, t.off, t.len, NULL, "raw config too large for 64 bits");
		if (rk == SPEC_RAW_0X) {
			char hint[sizeof(p->err->hint)];
			snprintf(hint, sizeof(hint), "did you mean 'r%.*s'?", shown(t.len - 3), w + 3);
			return fail(p, t.off, t.len, hint, "raw events are written rNNN, in hex without 0x");
		}
		ev->kind = SPEC_EV_RAW;
		ev->raw = num;
		if (!(ev->name = dup_tok(p, &t)))
			return nomem(p);
		rc = parse_tail(p, ev);
	} else if (!spec_lex__name_start((unsigned char)w[0])) {
		return fail(p, t.off, 1, NULL, "expected an event name, not '%c'", w[0]);
	} else {
		if (!(ev->name = dup_tok(p, &t)))
			return nomem(p);
		rc = parse_named(p, ev, true);	/* is_symbol_name, asked only when it matters */
	}
	if (rc)
		return rc;
	ev->pos.len = p->end - ev->pos.off;
	return 0;
}

static bool event_start(const struct spec_token *t)
{
	return t->kind == SPEC_TOK_WORD || t->kind == SPEC_TOK_QUOTED;
}

/* [NAME] '{' events '}' [':' MODS] */
static int parse_group(struct parser *p, bool named)
{
	struct spec_group g = { .braced = true };
	struct spec_token t, lb;
	if (named) {
		TRY(next(p, 0, &t));
		if (!(g.name = dup_tok(p, &t)))
			return nomem(p);
		g.name_pos = pos_of(&t);
	}
	TRY(next(p, 0, &lb));
	g.pos.off = named ? g.name_pos.off : lb.off;
	p->events.n = 0;
	TRY(peek(p, 0, &t));
	if (t.kind == SPEC_TOK_RBRACE)
		return fail(p, t.off, 1, NULL, "empty group");
	for (bool first = true;; first = false) {
		TRY(peek(p, 0, &t));
		if (t.kind == SPEC_TOK_END)
			return fail(p, lb.off, 1, "add '}' after the last event", "unterminated group");
		if (t.kind == SPEC_TOK_LBRACE)
			return fail(p, t.off, 1, NULL, "groups cannot be nested");
		if (!event_start(&t))
			return fail(p, t.off, t.len, NULL, "expected an event after '%c'",
				    first ? '{' : ',');
		TRY(parse_event(p));
		TRY(next(p, 0, &t));
		if (t.kind == SPEC_TOK_RBRACE)
			break;
		if (t.kind == SPEC_TOK_END)
			return fail(p, lb.off, 1, "add '}' after the last event", "unterminated group");
		if (t.kind == SPEC_TOK_LBRACE)
			return fail(p, t.off, 1, NULL, "groups cannot be nested");
		if (t.kind != SPEC_TOK_COMMA)
			return fail(p, t.off, t.len,
				    t.kind == SPEC_TOK_WORD && all_modifiers(text_of(p, &t), t.len) ?
				    "modifiers follow ':', as in cycles:u" : NULL,
				    "expected ',' or '}' after event");
	}
	TRY(peek(p, 0, &t));
	if (t.kind == SPEC_TOK_COLON) {
		TRY(next(p, 0, &t));
		TRY(expect_mods(p, &g.mods));
	}
	g.pos.len = p->end - g.pos.off;
	g.nr_events = p->events.n;
	if (!(g.events = arena_copy(p, &p->events)))
		return nomem(p);
	struct spec_group *slot = vec_push(&p->groups);
	if (!slot)
		return nomem(p);
	*slot = g;
	return 0;
}

static int parse_list(struct parser *p)
{
	struct spec_token t, t2;
	for (bool first = true;; first = false) {
		TRY(peek(p, 0, &t));
		if (t.kind == SPEC_TOK_RBRACE)
			return fail(p, t.off, 1, NULL, "unexpected '}' (no group is open)");
		if (t.kind != SPEC_TOK_LBRACE && !event_start(&t))
			return fail(p, t.off, t.len, NULL, "%s",
				    first ? "expected an event" : "expected an event after ','");
		bool braced = t.kind == SPEC_TOK_LBRACE;
		if (!braced) {
			peek2(p, &t2);
			braced = t2.kind == SPEC_TOK_LBRACE;
		}
		if (braced) {
			TRY(parse_group(p, t.kind != SPEC_TOK_LBRACE));
		} else {
			p->events.n = 0;
			TRY(parse_event(p));
			struct spec_group *g = vec_push(&p->groups);
			if (!g)
				return nomem(p);
			g->nr_events = 1;
			if (!(g->events = arena_copy(p, &p->events)))
				return nomem(p);
			g->pos = g->events[0].pos;
		}
		TRY(next(p, 0, &t));
		if (t.kind == SPEC_TOK_END)
			break;
		if (t.kind == SPEC_TOK_COMMA)
			continue;
		if (t.kind == SPEC_TOK_RBRACE)
			return fail(p, t.off, 1, NULL, "unexpected '}' (no group is open)");
		const char *hint = NULL;
		if (t.kind == SPEC_TOK_WORD && all_modifiers(text_of(p, &t), t.len))
			hint = braced ? "group modifiers follow ':', as in {a,b}:u"
				      : "modifiers follow ':', as in cycles:u";
		return fail(p, t.off, t.len, hint, "expected ',' or end after %s",
			    braced ? "group" : "event");
	}
	p->ast->nr_groups = p->groups.n;
	p->ast->groups = arena_copy(p, &p->groups);
	return p->ast->groups ? 0 : nomem(p);
}

static int parse(const char *text, struct pk_arena *arena, struct spec_ast *ast,
		 struct pk_spec_error *err)
{
	struct pk_spec_error scratch;
	if (!err)
		err = &scratch;
	memset(err, 0, sizeof(*err));
	if (!ast)
		return pk_spec_error__set(err, -EINVAL, 0, 0, NULL, "no syntax tree to fill");
	memset(ast, 0, sizeof(*ast));
	if (!text)
		return pk_spec_error__set(err, -EINVAL, 0, 0, NULL, "no event spec");
	size_t n = strlen(text);
	if (n > SPEC_MAX_LEN)
		return pk_spec_error__set(err, -EINVAL, 0, 0, NULL, "event spec longer than %u bytes",
				       SPEC_MAX_LEN);

	/* most specs are a few events: their vectors start on the stack */
	struct spec_term terms[8];
	struct spec_event events[4];
	struct spec_group groups[4];
	struct parser p = {
		.ast = ast,
		.err = err,
		.arena = arena ? arena : &ast->arena,
		.terms = { .data = terms, .cap = 8, .size = sizeof(struct spec_term) },
		.events = { .data = events, .cap = 4, .size = sizeof(struct spec_event) },
		.groups = { .data = groups, .cap = 4, .size = sizeof(struct spec_group) },
	};
	const char *copy = arena ? text : pk_arena__strndup(p.arena, text, n);
	int rc;
	if (!copy) {
		rc = nomem(&p);
	} else {
		ast->text = p.s = copy;
		spec_lexer__init(&p.lx, copy, (unsigned)n);
		rc = parse_list(&p);
	}
	if (p.terms.heap)
		free(p.terms.data);
	if (p.events.heap)
		free(p.events.data);
	if (p.groups.heap)
		free(p.groups.data);
	if (rc) {
		spec_ast__free(ast);
		return rc;
	}
	if (err->code || err->msg[0] || err->hint[0])
		memset(err, 0, sizeof(*err));
	return 0;
}

int spec_parse(const char *text, struct spec_ast *ast, struct pk_spec_error *err)
{
	return parse(text, NULL, ast, err);
}

int spec_parse_in(const char *text, struct pk_arena *arena, struct spec_ast *ast,
		  struct pk_spec_error *err)
{
	return parse(text, arena, ast, err);
}

void spec_ast__free(struct spec_ast *ast)
{
	if (!ast)
		return;
	pk_arena__free(&ast->arena);
	memset(ast, 0, sizeof(*ast));
}
