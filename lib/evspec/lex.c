/* SPDX-License-Identifier: MIT */
/*
 * evspec/lex.c — the lexer of event specifications: words, quoted names and
 * punctuation with their byte positions, and the classifiers for numbers
 * (decimal, 0x hex, decimal fractions) and raw "rNNN" words. It never reads
 * past lx->len and does not depend on the locale.
 */
#include "evspec/lex.h"

#include <errno.h>

#include "util/error.h"

/* Character classes, one table lookup per byte (the lexer runs on every spec). */
enum {
	C_DIGIT = 0x01,
	C_NAME_START = 0x02,	/* letters, digits, _ * ? [ ] */
	C_WORD = 0x04,		/* C_NAME_START plus . ! - */
	C_BLANK = 0x08,
};

#define L4(c) [c] = C_NAME_START | C_WORD
static const unsigned char cls[256] = {
	['0'] = C_DIGIT | C_NAME_START | C_WORD, ['1'] = C_DIGIT | C_NAME_START | C_WORD,
	['2'] = C_DIGIT | C_NAME_START | C_WORD, ['3'] = C_DIGIT | C_NAME_START | C_WORD,
	['4'] = C_DIGIT | C_NAME_START | C_WORD, ['5'] = C_DIGIT | C_NAME_START | C_WORD,
	['6'] = C_DIGIT | C_NAME_START | C_WORD, ['7'] = C_DIGIT | C_NAME_START | C_WORD,
	['8'] = C_DIGIT | C_NAME_START | C_WORD, ['9'] = C_DIGIT | C_NAME_START | C_WORD,
	L4('a'), L4('b'), L4('c'), L4('d'), L4('e'), L4('f'), L4('g'), L4('h'), L4('i'),
	L4('j'), L4('k'), L4('l'), L4('m'), L4('n'), L4('o'), L4('p'), L4('q'), L4('r'),
	L4('s'), L4('t'), L4('u'), L4('v'), L4('w'), L4('x'), L4('y'), L4('z'),
	L4('A'), L4('B'), L4('C'), L4('D'), L4('E'), L4('F'), L4('G'), L4('H'), L4('I'),
	L4('J'), L4('K'), L4('L'), L4('M'), L4('N'), L4('O'), L4('P'), L4('Q'), L4('R'),
	L4('S'), L4('T'), L4('U'), L4('V'), L4('W'), L4('X'), L4('Y'), L4('Z'),
	L4('_'), L4('*'), L4('?'), L4('['), L4(']'),
	['.'] = C_WORD, ['!'] = C_WORD, ['-'] = C_WORD,
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\n'] = C_BLANK, ['\r'] = C_BLANK,
};
#undef L4

bool spec_lex__is_digit(int c)
{
	return c >= 0 && c < 256 && (cls[c] & C_DIGIT);
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_blank(unsigned char c)
{
	return cls[c] & C_BLANK;
}

bool spec_lex__name_start(int c)
{
	return c >= 0 && c < 256 && (cls[c] & C_NAME_START);
}

static bool is_word_char(unsigned char c, unsigned flags)
{
	return (cls[c] & C_WORD) || ((flags & SPEC_LEX_VALUE) && c == ':');
}

bool spec_lex__is_modifier(int c)
{
	switch (c) {
	case 'u': case 'k': case 'h': case 'G': case 'H': case 'I': case 'p':
	case 'P': case 'S': case 'D': case 'W': case 'e': case 'b': case 'R':
		return true;
	default:
		return false;
	}
}

void spec_lexer__init(struct spec_lexer *lx, const char *text, unsigned len)
{
	lx->text = text;
	lx->len = len;
	lx->pos = 0;
}

static int bad_byte(struct pk_spec_error *err, unsigned off, unsigned char c, const char *where)
{
	if (c == '"')
		return pk_spec_error__set(err, -EINVAL, off, 1, "perf's quoted names use single quotes",
				       "unexpected character '\"'%s", where);
	if (c >= 0x20 && c < 0x7f)
		return pk_spec_error__set(err, -EINVAL, off, 1, NULL, "unexpected character '%c'%s", c,
				       where);
	return pk_spec_error__set(err, -EINVAL, off, 1, NULL, "unexpected byte 0x%02x%s", c, where);
}

static int lex_quoted(struct spec_lexer *lx, struct spec_token *tok, struct pk_spec_error *err)
{
	unsigned start = lx->pos, i = start + 1;

	for (; i < lx->len && lx->text[i] != '\''; i++) {
		unsigned char c = (unsigned char)lx->text[i];
		if (c < 0x20 || c >= 0x7f)
			return bad_byte(err, i, c, " in a quoted name");
	}
	if (i >= lx->len)
		return pk_spec_error__set(err, -EINVAL, start, 1, "close it with '",
				       "unterminated quoted name");
	if (i == start + 1)
		return pk_spec_error__set(err, -EINVAL, start, 2, NULL, "empty quoted name");
	tok->kind = SPEC_TOK_QUOTED;
	tok->off = start;
	tok->len = i + 1 - start;
	lx->pos = i + 1;
	return 0;
}

int spec_lexer__next(struct spec_lexer *lx, unsigned flags, struct spec_token *tok,
		     struct pk_spec_error *err)
{
	while (lx->pos < lx->len && is_blank((unsigned char)lx->text[lx->pos]))
		lx->pos++;
	tok->off = lx->pos;
	tok->len = 1;
	if (lx->pos >= lx->len) {
		tok->kind = SPEC_TOK_END;
		tok->len = 0;
		return 0;
	}
	unsigned char c = (unsigned char)lx->text[lx->pos];
	switch (c) {
	case ',': tok->kind = SPEC_TOK_COMMA; break;
	case '{': tok->kind = SPEC_TOK_LBRACE; break;
	case '}': tok->kind = SPEC_TOK_RBRACE; break;
	case '/': tok->kind = SPEC_TOK_SLASH; break;
	case ':': tok->kind = SPEC_TOK_COLON; break;
	case '=': tok->kind = SPEC_TOK_EQ; break;
	case '@': tok->kind = SPEC_TOK_AT; break;
	case '\'':
		return lex_quoted(lx, tok, err);
	default:
		if (!is_word_char(c, flags))
			return bad_byte(err, lx->pos, c, "");
		unsigned end = lx->pos + 1;
		const unsigned char *t = (const unsigned char *)lx->text;
		if (flags & SPEC_LEX_VALUE)
			while (end < lx->len && is_word_char(t[end], flags))
				end++;
		else
			while (end < lx->len && (cls[t[end]] & C_WORD))
				end++;
		tok->kind = SPEC_TOK_WORD;
		tok->len = end - lx->pos;
		lx->pos = end;
		return 0;
	}
	lx->pos++;
	return 0;
}

int spec_lexer__peek(const struct spec_lexer *lx, unsigned flags, struct spec_token *tok,
		     struct pk_spec_error *err)
{
	struct spec_lexer copy = *lx;
	return spec_lexer__next(&copy, flags, tok, err);
}

enum spec_num spec_lex__number(const char *s, unsigned n, uint64_t *num, double *fnum)
{
	uint64_t v = 0;
	unsigned i = 0;

	*num = 0;
	*fnum = 0;
	if (n == 0 || !spec_lex__is_digit((unsigned char)s[0]))
		return SPEC_NUM_NONE;
	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		bool overflow = false;
		if (n == 2)
			return SPEC_NUM_NONE;
		for (i = 2; i < n; i++) {
			int d = hex_value((unsigned char)s[i]);
			if (d < 0)
				return SPEC_NUM_NONE;
			if (v > UINT64_MAX >> 4)
				overflow = true;
			v = v << 4 | (uint64_t)d;
		}
		if (overflow)
			return SPEC_NUM_OVERFLOW;
		*num = v;
		*fnum = (double)v;
		return SPEC_NUM_INT;
	}

	bool overflow = false;
	for (; i < n && spec_lex__is_digit((unsigned char)s[i]); i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		v = v * 10 + d;
	}
	if (i == n) {
		if (overflow)
			return SPEC_NUM_OVERFLOW;
		*num = v;
		*fnum = (double)v;
		return SPEC_NUM_INT;
	}
	if (s[i] != '.' || i + 1 == n)
		return SPEC_NUM_NONE;
	/* A fraction: digits after the point, the first 18 of them significant. */
	double frac = 0, scale = 1;
	unsigned used = 0;
	for (i++; i < n; i++) {
		if (!spec_lex__is_digit((unsigned char)s[i]))
			return SPEC_NUM_NONE;
		if (used < 18) {
			frac = frac * 10 + (s[i] - '0');
			scale *= 10;
			used++;
		}
	}
	if (overflow)
		return SPEC_NUM_OVERFLOW;
	*num = v;
	*fnum = (double)v + frac / scale;
	return SPEC_NUM_FLOAT;
}

enum spec_raw spec_lex__raw(const char *s, unsigned n, uint64_t *num)
{
	enum spec_raw kind = SPEC_RAW_HEX;
	unsigned i = 1;
	uint64_t v = 0;
	bool overflow = false;

	*num = 0;
	if (n < 2 || s[0] != 'r')
		return SPEC_RAW_NONE;
	if (n > 3 && s[1] == '0' && s[2] == 'x') {
		/* "r0x1a8"; but "r0" alone or "r0a" are plain hex */
		kind = SPEC_RAW_0X;
		i = 3;
	}
	for (; i < n; i++) {
		int d = hex_value((unsigned char)s[i]);
		if (d < 0)
			return SPEC_RAW_NONE;
		if (v > UINT64_MAX >> 4)
			overflow = true;
		v = v << 4 | (uint64_t)d;
	}
	if (overflow)
		return SPEC_RAW_OVERFLOW;
	*num = v;
	return kind;
}
