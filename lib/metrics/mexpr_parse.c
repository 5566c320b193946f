/* SPDX-License-Identifier: MIT */
/*
 * metrics/mexpr_parse.c — lexer and recursive-descent parser for perf's metric
 * expressions (MetricExpr, MetricThreshold) with byte positions; the distinct
 * identifiers an expression needs; error formatting. The token rules and the
 * precedence are perf's (see pmukit/metric.h for the language).
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/metric.h>

#include "metrics/mexpr.h"
#include "util/grow.h"
#include "util/opts.h"

enum tok_type {
	T_EOF, T_NUM, T_ID, T_LIT,
	T_IF, T_ELSE, T_MIN, T_MAX, T_DRATIO, T_SOURCE_COUNT, T_HAS_EVENT, T_STRCMP_CPUID,
	T_OR, T_XOR, T_AND, T_LT, T_GT, T_MINUS, T_PLUS, T_STAR, T_SLASH, T_PERCENT,
	T_LPAREN, T_RPAREN, T_COMMA,
};

struct tok {
	enum tok_type type;
	unsigned off, len;
	double num;
};

struct parser {
	const char *s;
	size_t n;
	size_t pos;		/* lexer position */
	struct tok tok;		/* lookahead */
	struct pk_mexpr *e;
	struct pk_spec_error *err;
	int runtime;
	int depth;
	int rc;			/* first error */
	uint32_t *hash;		/* id dedup: index + 1, 0 empty */
	size_t hash_size;
	locale_t c_locale;	/* numbers read as in "C", whatever the process locale */
};

static const struct {
	const char *word;
	enum tok_type type;
} keywords[] = {
	{ "d_ratio", T_DRATIO }, { "max", T_MAX }, { "min", T_MIN }, { "if", T_IF },
	{ "else", T_ELSE }, { "source_count", T_SOURCE_COUNT }, { "has_event", T_HAS_EVENT },
	{ "strcmp_cpuid_str", T_STRCMP_CPUID },
};

static const struct {
	const char *name;
	enum pk_mexpr_literal lit;
	bool any_case;
} literals[] = {
	{ "#num_cpus", PK_MEXPR_LIT_NUM_CPUS, false },
	{ "#num_cpus_online", PK_MEXPR_LIT_NUM_CPUS_ONLINE, false },
	{ "#system_tsc_freq", PK_MEXPR_LIT_SYSTEM_TSC_FREQ, true },
	{ "#smt_on", PK_MEXPR_LIT_SMT_ON, true },
	{ "#core_wide", PK_MEXPR_LIT_CORE_WIDE, false },
	{ "#num_packages", PK_MEXPR_LIT_NUM_PACKAGES, false },
	{ "#num_dies", PK_MEXPR_LIT_NUM_DIES, false },
	{ "#num_cores", PK_MEXPR_LIT_NUM_CORES, false },
	{ "#slots", PK_MEXPR_LIT_SLOTS, false },
	{ "#has_pmem", PK_MEXPR_LIT_HAS_PMEM, false },
};

static const char *const tok_names[] = {
	[T_EOF] = "end of expression", [T_NUM] = "number", [T_ID] = "identifier",
	[T_LIT] = "literal", [T_IF] = "'if'", [T_ELSE] = "'else'", [T_MIN] = "'min'",
	[T_MAX] = "'max'", [T_DRATIO] = "'d_ratio'", [T_SOURCE_COUNT] = "'source_count'",
	[T_HAS_EVENT] = "'has_event'", [T_STRCMP_CPUID] = "'strcmp_cpuid_str'", [T_OR] = "'|'",
	[T_XOR] = "'^'", [T_AND] = "'&'", [T_LT] = "'<'", [T_GT] = "'>'", [T_MINUS] = "'-'",
	[T_PLUS] = "'+'", [T_STAR] = "'*'", [T_SLASH] = "'/'", [T_PERCENT] = "'%'",
	[T_LPAREN] = "'('", [T_RPAREN] = "')'", [T_COMMA] = "','",
};

static int fail(struct parser *p, int code, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(struct parser *p, int code, size_t off, size_t len, const char *fmt, ...)
{
	if (p->rc)
		return p->rc;
	p->rc = code;
	if (p->err) {
		va_list ap;
		p->err->code = code;
		p->err->off = (unsigned)off;
		p->err->len = (unsigned)len;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

/* --- lexer ------------------------------------------------------------------ */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_sym(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

static bool is_lit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == '.' || c == '-';
}

/* Length of the number at s: ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? */
static size_t number_len(const char *s, size_t n)
{
	size_t i = 0, d1, d2 = 0, m;
	bool dot = false;
	while (i < n && is_digit(s[i]))
		i++;
	d1 = i;
	if (i < n && s[i] == '.') {
		dot = true;
		i++;
		while (i < n && is_digit(s[i]))
			i++, d2++;
	}
	if (d1)
		m = d1 + (dot ? 1 + d2 : 0);
	else
		m = dot && d2 ? 1 + d2 : 0;
	if (!m)
		return 0;
	i = m;
	if (i < n && s[i] == 'e') {
		size_t j = i + 1;
		if (j < n && s[j] == '-')
			j++;
		size_t k = j;
		while (k < n && is_digit(s[k]))
			k++;
		if (k > j)
			i = k;
	}
	return i;
}

/* Length of the identifier at s: runs of [0-9a-zA-Z_.:@?] and \- \, \= */
static size_t symbol_len(const char *s, size_t n)
{
	size_t i = 0;
	for (;;) {
		if (i < n && is_sym(s[i]))
			i++;
		else if (i + 1 < n && s[i] == '\\' && (s[i + 1] == '-' || s[i + 1] == ',' ||
						       s[i + 1] == '='))
			i += 2;
		else
			return i;
	}
}

static int bad_char(struct parser *p, size_t at)
{
	const char *s = p->s;
	char c = s[at];
	if (c == '=' || (c == '!' && at + 1 < p->n && s[at + 1] == '='))
		return fail(p, -EINVAL, at, 1,
			    "no '=', '==', '<=', '>=' or '!=' in perf's expressions: compare with '<' and '>'");
	if (c == '\\')
		return fail(p, -EINVAL, at, 1,
			    "'\\' escapes only '-', ',' and '=' in identifiers");
	if (c == '#')
		return fail(p, -EINVAL, at, 1, "'#' must start a literal such as #smt_on");
	if (c == '!' || c == '~')
		return fail(p, -EINVAL, at, 1,
			    "no '%c' in perf's expressions: use 'X if COND else Y' or '^ 1'", c);
	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		return fail(p, -EINVAL, at, 1, "unexpected byte 0x%02x", (unsigned char)c);
	return fail(p, -EINVAL, at, 1, "unexpected character '%c'", c);
}

static int lex(struct parser *p)
{
	const char *s = p->s;
	size_t n = p->n, i = p->pos;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
			 s[i] == '\f' || s[i] == '\v'))
		i++;
	struct tok *t = &p->tok;
	t->off = (unsigned)i;
	t->num = 0;
	if (i >= n) {
		t->type = T_EOF;
		t->len = 0;
		p->pos = i;
		return 0;
	}
	static const char ops[] = "|^&<>-+*/%(),";
	static const enum tok_type op_types[] = { T_OR, T_XOR, T_AND, T_LT, T_GT, T_MINUS,
						  T_PLUS, T_STAR, T_SLASH, T_PERCENT, T_LPAREN,
						  T_RPAREN, T_COMMA };
	const char *op = strchr(ops, s[i]);
	if (op && s[i]) {
		t->type = op_types[op - ops];
		t->len = 1;
		p->pos = i + 1;
		return 0;
	}
	if (s[i] == '#') {
		size_t j = i + 1;
		while (j < n && is_lit(s[j]))
			j++;
		if (j == i + 1)
			return bad_char(p, i);
		t->type = T_LIT;
		t->len = (unsigned)(j - i);
		p->pos = j;
		return 0;
	}
	size_t nl = number_len(s + i, n - i), sl = symbol_len(s + i, n - i);
	if (!nl && !sl)
		return bad_char(p, i);
	/* flex: the longest match wins, the earlier rule (keyword, NaN, number) on a tie */
	if (sl > nl) {
		t->type = T_ID;
		for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
			if (strlen(keywords[k].word) == sl && !memcmp(keywords[k].word, s + i, sl))
				t->type = keywords[k].type;
		if (sl == 3 && !memcmp(s + i, "NaN", 3)) {
			t->type = T_NUM;
			t->num = NAN;
		}
		t->len = (unsigned)sl;
		p->pos = i + sl;
		return 0;
	}
	char small[64], *buf = small;
	if (nl >= sizeof(small) && !(buf = malloc(nl + 1)))
		return fail(p, -ENOMEM, i, nl, "out of memory");
	memcpy(buf, s + i, nl);
	buf[nl] = '\0';
	if (!p->c_locale && !(p->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0))) {
		if (buf != small)
			free(buf);
		return fail(p, -ENOMEM, i, nl, "out of memory");
	}
	errno = 0;
	t->num = strtod_l(buf, NULL, p->c_locale);
	int range = errno;
	if (buf != small)
		free(buf);
	if (range)
		return fail(p, -ERANGE, i, nl, "number out of range");
	t->type = T_NUM;
	t->len = (unsigned)nl;
	p->pos = i + nl;
	return 0;
}

static int next(struct parser *p)
{
	return lex(p);
}

/* --- tree and identifiers --------------------------------------------------------- */

static long add_node(struct parser *p, enum mx_op op, uint32_t a, uint32_t b, uint32_t c,
		     double num)
{
	struct pk_mexpr *e = p->e;
	/* nodes are numbered in 32 bits */
	if (e->nr_nodes >= UINT32_MAX - 1 || PK_GROW(e->nodes, e->cap_nodes, e->nr_nodes + 1))
		return fail(p, -ENOMEM, p->tok.off, 0, "out of memory");
	unsigned h = 0;
	if (op != MX_NUM && op != MX_ID) {
		h = e->nodes[a].height;
		if (op != MX_NEG && e->nodes[b].height > h)
			h = e->nodes[b].height;
		if (op == MX_IF && e->nodes[c].height > h)
			h = e->nodes[c].height;
	}
	if (++h > MX_MAX_HEIGHT)
		return fail(p, -E2BIG, p->tok.off, p->tok.len,
			    "more than %d operators nested (a chain of %d is too long)", MX_MAX_HEIGHT,
			    MX_MAX_HEIGHT);
	e->nodes[e->nr_nodes] = (struct mx_node){ .op = (uint8_t)op, .height = (uint16_t)h,
						  .a = a, .b = b, .c = c, .num = num };
	return (long)e->nr_nodes++;
}

static uint32_t hash_str(enum pk_mexpr_id_kind kind, const char *s)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int rehash(struct parser *p, size_t size)
{
	uint32_t *h = calloc(size, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < p->e->nr_ids; i++) {
		size_t j = hash_str(p->e->ids[i].kind, p->e->ids[i].name) & (size - 1);
		while (h[j])
			j = (j + 1) & (size - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(p->hash);
	p->hash = h;
	p->hash_size = size;
	return 0;
}

/* The id (kind, name), added when new; name is taken over (freed when a duplicate). */
static long add_id(struct parser *p, enum pk_mexpr_id_kind kind, char *name, size_t off,
		   size_t len, bool runtime_param, enum pk_mexpr_literal lit)
{
	struct pk_mexpr *e = p->e;
	if (!name)
		return fail(p, -ENOMEM, off, len, "out of memory");
	if (p->hash_size < 2 * (e->nr_ids + 1) && rehash(p, p->hash_size ? 2 * p->hash_size : 64)) {
		free(name);
		return fail(p, -ENOMEM, off, len, "out of memory");
	}
	size_t j = hash_str(kind, name) & (p->hash_size - 1);
	for (; p->hash[j]; j = (j + 1) & (p->hash_size - 1)) {
		const struct pk_mexpr_id *id = &e->ids[p->hash[j] - 1];
		if (id->kind == kind && !strcmp(id->name, name)) {
			free(name);
			return (long)p->hash[j] - 1;
		}
	}
	if (PK_GROW(e->ids, e->cap_ids, e->nr_ids + 1)) {
		free(name);
		return fail(p, -ENOMEM, off, len, "out of memory");
	}
	e->ids[e->nr_ids] = (struct pk_mexpr_id){ .name = name, .kind = kind, .literal = lit,
						  .off = (unsigned)off, .len = (unsigned)len,
						  .runtime_param = runtime_param,
						  .metric = (size_t)-1 };
	p->hash[j] = (uint32_t)e->nr_ids + 1;
	return (long)e->nr_ids++;
}

/* The identifier token's name: escapes removed, '?' replaced by the runtime value. */
static char *id_name(struct parser *p, const struct tok *t, bool *runtime_param)
{
	char rt[24];
	int rtlen = snprintf(rt, sizeof(rt), "%d", p->runtime);
	size_t q = 0;
	for (size_t i = 0; i < t->len; i++)
		q += p->s[t->off + i] == '?' ? (size_t)rtlen : 1;
	char *out = malloc(q + 1), *d = out;
	if (!out)
		return NULL;
	*runtime_param = false;
	for (size_t i = 0; i < t->len; i++) {
		char c = p->s[t->off + i];
		if (c == '\\')
			c = p->s[t->off + ++i];
		else if (c == '?') {
			memcpy(d, rt, (size_t)rtlen);
			d += rtlen;
			*runtime_param = true;
			continue;
		}
		*d++ = c;
	}
	*d = '\0';
	return out;
}

static long id_node(struct parser *p, enum pk_mexpr_id_kind kind)
{
	const struct tok t = p->tok;
	bool rp = false;
	long id;
	if (kind == PK_MEXPR_ID_LITERAL) {
		enum pk_mexpr_literal lit = PK_MEXPR_LIT_NONE;
		for (size_t k = 0; k < sizeof(literals) / sizeof(literals[0]); k++) {
			const char *w = literals[k].name;
			if (strlen(w) == t.len && (literals[k].any_case ? !strncasecmp(w, p->s + t.off, t.len)
						   : !memcmp(w, p->s + t.off, t.len)))
				lit = literals[k].lit;
		}
		if (lit == PK_MEXPR_LIT_NONE)
			return fail(p, -EINVAL, t.off, t.len,
				    "unknown literal '%.*s' (perf knows #smt_on, #num_cpus, #num_cpus_online, #num_packages, #num_dies, #num_cores, #core_wide, #slots, #system_tsc_freq, #has_pmem)",
				    (int)(t.len > 40 ? 40 : t.len), p->s + t.off);
		id = add_id(p, kind, strndup(p->s + t.off, t.len), t.off, t.len, false, lit);
	} else {
		char *name = id_name(p, &t, &rp);
		id = add_id(p, kind, name, t.off, t.len, rp, PK_MEXPR_LIT_NONE);
	}
	if (id < 0)
		return id;
	if (next(p))
		return p->rc;
	return add_node(p, MX_ID, (uint32_t)id, 0, 0, 0);
}

/* --- parser ------------------------------------------------------------------------- */

static long parse_if(struct parser *p);

static int expect(struct parser *p, enum tok_type type, const char *what)
{
	if (p->tok.type != type)
		return fail(p, -EINVAL, p->tok.off, p->tok.len, "expected %s%s, found %s",
			    tok_names[type], what, tok_names[p->tok.type]);
	return next(p);
}

static int enter(struct parser *p)
{
	if (++p->depth > MX_MAX_DEPTH)
		return fail(p, -EINVAL, p->tok.off, p->tok.len,
			    "nested too deeply (parentheses, calls and unary minus)");
	return 0;
}

static long parse_call(struct parser *p)
{
	enum tok_type fn = p->tok.type;
	const char *name = tok_names[fn];
	if (next(p) || expect(p, T_LPAREN, " after the function name"))
		return p->rc;
	if (fn == T_SOURCE_COUNT || fn == T_HAS_EVENT || fn == T_STRCMP_CPUID) {
		if (p->tok.type != T_ID)
			return fail(p, -EINVAL, p->tok.off, p->tok.len,
				    "%s takes an event name, found %s", name, tok_names[p->tok.type]);
		long a = id_node(p, fn == T_SOURCE_COUNT ? PK_MEXPR_ID_SOURCE_COUNT
					: fn == T_HAS_EVENT ? PK_MEXPR_ID_HAS_EVENT
							    : PK_MEXPR_ID_CPUID);
		if (a < 0 || expect(p, T_RPAREN, " after the name"))
			return p->rc;
		return a;
	}
	long a = parse_if(p);
	if (a < 0 || expect(p, T_COMMA, " between the two arguments"))
		return p->rc;
	long b = parse_if(p);
	if (b < 0)
		return b;
	if (p->tok.type == T_COMMA)
		return fail(p, -EINVAL, p->tok.off, 1, "%s takes two arguments", name);
	if (expect(p, T_RPAREN, " after the second argument"))
		return p->rc;
	enum mx_op op = fn == T_MIN ? MX_MIN : fn == T_MAX ? MX_MAX : MX_DRATIO;
	return add_node(p, op, (uint32_t)a, (uint32_t)b, 0, 0);
}

static long parse_unary(struct parser *p)
{
	long r;
	if (enter(p))
		return p->rc;
	switch (p->tok.type) {
	case T_MINUS:
		if (next(p))
			return p->rc;
		r = parse_unary(p);
		if (r >= 0)
			r = add_node(p, MX_NEG, (uint32_t)r, 0, 0, 0);
		break;
	case T_NUM:
		r = add_node(p, MX_NUM, 0, 0, 0, p->tok.num);
		if (r >= 0 && next(p))
			r = p->rc;
		break;
	case T_ID: {
		const struct tok t = p->tok;
		r = id_node(p, PK_MEXPR_ID_EVENT);
		if (r < 0)
			break;
		if (p->tok.type == T_LPAREN)
			r = fail(p, -EINVAL, t.off, t.len,
				 "unknown function '%.*s' (perf has min, max, d_ratio, source_count, has_event, strcmp_cpuid_str)",
				 (int)(t.len > 40 ? 40 : t.len), p->s + t.off);
		else if (t.len == 3 && !memcmp(p->s + t.off, "not", 3) &&
			 (p->tok.type == T_ID || p->tok.type == T_NUM || p->tok.type == T_LIT))
			r = fail(p, -EINVAL, t.off, t.len,
				 "no 'not' in perf's expressions: use 'X ^ 1' or 'A if X else B'");
		break;
	}
	case T_LIT:
		r = id_node(p, PK_MEXPR_ID_LITERAL);
		break;
	case T_LPAREN:
		if (next(p))
			return p->rc;
		r = parse_if(p);
		if (r >= 0 && expect(p, T_RPAREN, " to close '('"))
			r = p->rc;
		break;
	case T_MIN: case T_MAX: case T_DRATIO:
	case T_SOURCE_COUNT: case T_HAS_EVENT: case T_STRCMP_CPUID:
		r = parse_call(p);
		break;
	default:
		r = fail(p, -EINVAL, p->tok.off, p->tok.len, "expected an expression, found %s",
			 tok_names[p->tok.type]);
	}
	p->depth--;
	return r;
}

/* Binary operators: perf's levels, all left-associative. */
static int prec(enum tok_type t, enum mx_op *op)
{
	switch (t) {
	case T_OR: *op = MX_OR; return 0;
	case T_XOR: *op = MX_XOR; return 1;
	case T_AND: *op = MX_AND; return 2;
	case T_LT: *op = MX_LT; return 3;
	case T_GT: *op = MX_GT; return 3;
	case T_PLUS: *op = MX_ADD; return 4;
	case T_MINUS: *op = MX_SUB; return 4;
	case T_STAR: *op = MX_MUL; return 5;
	case T_SLASH: *op = MX_DIV; return 5;
	case T_PERCENT: *op = MX_MOD; return 5;
	default: return -1;
	}
}

static long parse_bin(struct parser *p, int min_prec)
{
	long lhs = parse_unary(p);
	for (;;) {
		enum mx_op op = MX_ADD;
		int pr = prec(p->tok.type, &op);
		if (lhs < 0 || pr < min_prec)
			return lhs;
		if (next(p))
			return p->rc;
		long rhs = parse_bin(p, pr + 1);
		if (rhs < 0)
			return rhs;
		lhs = add_node(p, op, (uint32_t)lhs, (uint32_t)rhs, 0, 0);
	}
}

/* X [if COND else IF_EXPR] */
static long parse_if(struct parser *p)
{
	if (enter(p))
		return p->rc;
	long r = parse_bin(p, 0);
	if (r >= 0 && p->tok.type == T_IF) {
		long c = -1, e = -1;
		if (next(p) || (c = parse_bin(p, 0)) < 0 ||
		    expect(p, T_ELSE, " after the condition of 'if'") || (e = parse_if(p)) < 0)
			r = p->rc;
		else
			r = add_node(p, MX_IF, (uint32_t)r, (uint32_t)c, (uint32_t)e, 0);
	}
	p->depth--;
	return r;
}

static void trailing_error(struct parser *p)
{
	const struct tok *t = &p->tok;
	const char *w = p->s + t->off;
	if (t->type == T_ID && t->len == 3 && !memcmp(w, "and", 3))
		fail(p, -EINVAL, t->off, t->len, "no 'and' in perf's expressions: use '&'");
	else if (t->type == T_ID && t->len == 2 && !memcmp(w, "or", 2))
		fail(p, -EINVAL, t->off, t->len, "no 'or' in perf's expressions: use '|'");
	else if (t->type == T_ELSE)
		fail(p, -EINVAL, t->off, t->len, "'else' without 'if'");
	else if (t->type == T_IF)
		fail(p, -EINVAL, t->off, t->len,
		     "a condition cannot hold an 'if': put the inner one in ( )");
	else if (t->type == T_RPAREN)
		fail(p, -EINVAL, t->off, t->len, "')' without '('");
	else
		fail(p, -EINVAL, t->off, t->len, "expected an operator or the end, found %s",
		     tok_names[t->type]);
}

void pk_mexpr__free(struct pk_mexpr *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nr_ids; i++)
		free((char *)e->ids[i].name);
	free(e->ids);
	free(e->nodes);
	free(e->text);
	free(e);
}

int pk_mexpr__parse_opts(struct pk_mexpr **out, const char *text,
			 const struct pk_mexpr_opts *opts, struct pk_spec_error *err)
{
	struct parser p = { .s = text, .err = err };
	*out = NULL;
	if (err)
		*err = (struct pk_spec_error){ 0 };
	if (PK_OPTS_CHECK(opts))
		return fail(&p, -EINVAL, 0, 0, "pk_mexpr_opts: bad sz %zu", opts->sz);
	p.runtime = PK_OPTS_GET(opts, runtime, 0);
	if (!text)
		return fail(&p, -EINVAL, 0, 0, "no expression");
	p.n = strlen(text);
	if (p.n > MX_MAX_TEXT)
		return fail(&p, -E2BIG, 0, 0, "expression longer than %u bytes", MX_MAX_TEXT);
	p.e = calloc(1, sizeof(*p.e));
	if (!p.e || !(p.e->text = strdup(text))) {
		free(p.e);
		return fail(&p, -ENOMEM, 0, 0, "out of memory");
	}
	if (!next(&p)) {
		if (p.tok.type == T_EOF)
			fail(&p, -EINVAL, 0, p.n, "empty expression");
		else if (parse_if(&p) >= 0 && p.tok.type != T_EOF)
			trailing_error(&p);
	}
	free(p.hash);
	if (p.c_locale)
		freelocale(p.c_locale);
	if (p.rc) {
		pk_mexpr__free(p.e);
		return p.rc;
	}
	*out = p.e;
	return 0;
}

int pk_mexpr__parse(struct pk_mexpr **out, const char *text, struct pk_spec_error *err)
{
	return pk_mexpr__parse_opts(out, text, NULL, err);
}

const char *pk_mexpr__text(const struct pk_mexpr *e)
{
	return e->text;
}

size_t pk_mexpr__nr_ids(const struct pk_mexpr *e)
{
	return e->nr_ids;
}

const struct pk_mexpr_id *pk_mexpr__id(const struct pk_mexpr *e, size_t idx)
{
	return idx < e->nr_ids ? &e->ids[idx] : NULL;
}

long pk_mexpr__find_id(const struct pk_mexpr *e, enum pk_mexpr_id_kind kind, const char *name)
{
	for (size_t i = 0; i < e->nr_ids; i++)
		if (e->ids[i].kind == kind && !strcmp(e->ids[i].name, name))
			return (long)i;
	return -ENOENT;
}

size_t pk_mexpr_id__event_spec(const struct pk_mexpr_id *id, char *buf, size_t len)
{
	const char *s = id->name, *first = strchr(s, '@'), *last = strrchr(s, '@');
	size_t n = strlen(s);
	if (!len)
		return n;
	size_t k = n < len - 1 ? n : len - 1;
	for (size_t i = 0; i < k; i++)
		buf[i] = (s + i == first || s + i == last) ? '/' : s[i];
	buf[k] = '\0';
	return n;
}
