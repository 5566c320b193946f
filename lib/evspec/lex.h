/* SPDX-License-Identifier: MIT */
/*
 * evspec/lex.h — the tokens of an event specification and the small
 * classifiers the parser needs (numbers, raw "rNNN" words, modifier
 * letters).
 *
 * Words are maximal runs of perf's name characters: letters, digits and
 * "_*?[].!-" (and ':' when lexing a term value, as perf's term lexer does).
 * Quoted names are '...' (perf's name_tag). Blanks between tokens are
 * skipped, as perf does; any other byte is an error, where perf would
 * silently drop it.
 */
#ifndef PMUKIT_SPEC_LEX_H
#define PMUKIT_SPEC_LEX_H

#include <stdbool.h>
#include <stdint.h>

#include "evspec/ast.h"

enum spec_tok_kind {
	SPEC_TOK_END,		/* end of the spec */
	SPEC_TOK_WORD,		/* cycles, l1d.replacement, 0x3c, r1a8, sys_enter_* */
	SPEC_TOK_QUOTED,	/* 'text' (off/len include the quotes) */
	SPEC_TOK_COMMA,
	SPEC_TOK_LBRACE,
	SPEC_TOK_RBRACE,
	SPEC_TOK_SLASH,
	SPEC_TOK_COLON,
	SPEC_TOK_EQ,
	SPEC_TOK_AT,
};

struct spec_token {
	enum spec_tok_kind kind;
	unsigned off, len;	/* END: off = length of the spec, len = 0 */
};

struct spec_lexer {
	const char *text;
	unsigned len;		/* bytes of text (no NUL inside) */
	unsigned pos;		/* next byte to read */
};

/* Lexing flags. */
#define SPEC_LEX_VALUE 0x1u	/* a term value: ':' is part of words ("call-graph=dwarf:x") */

void spec_lexer__init(struct spec_lexer *lx, const char *text, unsigned len);
/* The next token; 0, or -EINVAL with err filled (stray byte, bad quote). */
int spec_lexer__next(struct spec_lexer *lx, unsigned flags, struct spec_token *tok,
		     struct pk_spec_error *err);
/* The next token without consuming it. */
int spec_lexer__peek(const struct spec_lexer *lx, unsigned flags, struct spec_token *tok,
		     struct pk_spec_error *err);

/* perf's modifier letters: u k h G H I p P S D W e b R. */
bool spec_lex__is_modifier(int c);
/* A character that may start a name (not '.', '!', '-'). Digits included. */
bool spec_lex__name_start(int c);
bool spec_lex__is_digit(int c);

enum spec_num {
	SPEC_NUM_NONE,		/* not a number: "0x", "1a", "0x1g", "1." */
	SPEC_NUM_INT,		/* decimal (leading zeros are decimal, as in perf) or 0x/0X hex */
	SPEC_NUM_FLOAT,		/* DIGITS.DIGITS: num = integer part, fnum the value */
	SPEC_NUM_OVERFLOW,	/* well formed but more than 64 bits */
};
enum spec_num spec_lex__number(const char *s, unsigned n, uint64_t *num, double *fnum);

enum spec_raw {
	SPEC_RAW_NONE,		/* not r + hex digits */
	SPEC_RAW_HEX,		/* r1a8 */
	SPEC_RAW_0X,		/* r0x1a8 */
	SPEC_RAW_OVERFLOW,	/* r + more than 64 bits of hex */
};
enum spec_raw spec_lex__raw(const char *s, unsigned n, uint64_t *num);

#endif
