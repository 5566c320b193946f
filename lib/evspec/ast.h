/* SPDX-License-Identifier: MIT */
/*
 * evspec/ast.h — the syntax tree of an event specification ("cycles:u",
 * "{cpu/event=0x3c/k,instructions}:S", "mem:0x1000/8:rw", "sched:sched_switch",
 * "stall_slot/threshold=2/"), every node carrying its byte position in the
 * spec so errors can point at it. parse.c builds it; resolve/encode read it.
 * Nothing here knows PMUs or tables: "foo/x=1/" is a slash form whether foo
 * turns out to be a PMU or an event name.
 */
#ifndef PMUKIT_SPEC_AST_H
#define PMUKIT_SPEC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/spec.h>

#include "util/arena.h"

/* A span of the spec: byte offset and length. */
struct spec_pos {
	unsigned off, len;
};

enum spec_term_kind {
	SPEC_TERM_NUM,		/* name=123, name=0x1f, name=0.5 (a bare number is refused, as perf) */
	SPEC_TERM_STR,		/* name=string (name=, call-graph=, metric-id=, event aliases) */
	SPEC_TERM_FLAG,		/* name alone: "edge", "inherit", "no-inherit", "percore", an alias;
				 * num = 1 */
	SPEC_TERM_RAW,		/* "r1a8" or "r0x1a8" alone: name as written, num the hex value; perf
				 * makes it the PMU event of that name when there is one, else config=num */
	SPEC_TERM_DRV_CFG,	/* "@cfg" / "@cfg=val": name "driver-config", str "cfg" / "cfg=val" */
};

struct spec_term {
	const char *name;	/* as written ("event", "config1", "period", "umask"...) */
	enum spec_term_kind kind;
	uint64_t num;		/* SPEC_TERM_NUM */
	double fnum;		/* the same value as written when it has a fraction (ratio-to-prev=0.5);
				 * set for every NUM (and FLAG/RAW) term */
	bool is_float;		/* NUM written DIGITS.DIGITS: num is the integer part */
	const char *str;	/* SPEC_TERM_STR, DRV_CFG; NUM and RAW: the value as written ("0x3c") */
	struct spec_pos pos;	/* the whole term */
	struct spec_pos val_pos; /* the value after '=' (or the name for flags) */
	/* additions (parse.c) */
	struct spec_pos name_pos; /* the name as written (quotes included when quoted) */
	bool quoted;		/* the value was written 'quoted' (STR, even when it looks numeric) */
	int fixed;		/* 0: not worked out; else encode_fixed_index(name) + 2 (1: not one
				 * of perf's fixed terms). Set by the encoder on the terms it
				 * builds from alias encodings; see encode_term_fixed(). */
};

enum spec_event_kind {
	SPEC_EV_NAME,		/* cycles, l1d.replacement, L1-dcache-load-misses, cpu_core.x */
	SPEC_EV_SLASH,		/* NAME/terms/ — a PMU ("cpu/event=1/") or an event ("stall_slot/t=2/") */
	SPEC_EV_RAW,		/* rNNN (hex) */
	SPEC_EV_NUMERIC,	/* TYPE:CONFIG, e.g. 1:1 */
	SPEC_EV_BREAKPOINT,	/* mem:ADDR[/LEN][:rwx] */
	SPEC_EV_TRACEPOINT,	/* SYS:NAME */
};

/* Modifier letters after ':' (or the part after the second '/' of a slash form). */
struct spec_mods {
	bool u, k, h, G, H, I, P, S, D, W, e, b, R;
	int precise;		/* number of 'p' (0-3) */
	bool present;		/* a modifier string was written */
	struct spec_pos pos;	/* of the modifier string */
};

struct spec_event {
	enum spec_event_kind kind;
	const char *name;	/* NAME, PMU-or-event of SLASH, SYS of a tracepoint; RAW: "r1a8";
				 * NUMERIC: NULL; BREAKPOINT: "mem" (quotes removed when quoted) */
	const char *tp_event;	/* tracepoint NAME */
	struct spec_term *terms;	/* terms between the slashes: SLASH, and RAW, NUMERIC,
					 * BREAKPOINT, TRACEPOINT written with /terms/; NAME: none */
	size_t nr_terms;
	uint64_t raw;		/* RAW config; NUMERIC config; BREAKPOINT address */
	uint32_t numeric_type;	/* NUMERIC */
	uint64_t bp_len;	/* BREAKPOINT length (0 = default) */
	char bp_access[4];	/* BREAKPOINT "r", "w", "x", "rw", "" = default */
	struct spec_mods mods;
	struct spec_pos pos;	/* the whole event, modifiers included */
	struct spec_pos name_pos;	/* NAME/SLASH/TRACEPOINT: the name (SYS), quotes
					 * included when quoted; RAW: "rNNN";
					 * NUMERIC: TYPE; BREAKPOINT: "mem" */
	/* additions (parse.c) */
	struct spec_pos arg_pos;	/* TRACEPOINT: NAME; NUMERIC: CONFIG; BREAKPOINT: ADDR */
	struct spec_pos bp_len_pos;	/* BREAKPOINT: LEN ({0,0} when not written) */
	struct spec_pos bp_access_pos;	/* BREAKPOINT: the access letters ({0,0} when none) */
	bool name_quoted;	/* the name was written 'quoted' */
	bool slash;		/* a /terms/ part was written (possibly empty: "cycles//") */
};

/* One element of the top-level comma list: a braced group or a lone event. */
struct spec_group {
	bool braced;		/* written as {...} */
	const char *name;	/* perf's group name: "name{...}" (NULL when none) */
	struct spec_event *events;
	size_t nr_events;
	struct spec_mods mods;	/* group modifiers ("}:S", "}:u") */
	struct spec_pos pos;
	struct spec_pos name_pos;	/* addition: the group name ({0,0} when none) */
};

struct spec_ast {
	struct pk_arena arena;	/* every node and string */
	const char *text;	/* a copy of the spec as given */
	struct spec_group *groups;
	size_t nr_groups;
};

/*
 * Parse errors are struct pk_spec_error (pmukit/spec.h): the offending byte
 * (off may be == strlen(spec) for "unexpected end"), the token's length (>= 1
 * when known), what was expected there, and a hint or "".
 */
/*
 * 0, or -EINVAL (-ENOMEM) with err filled; the ast is left empty on error.
 * ast need not be initialised and is overwritten: free a tree it held first.
 * err may be NULL. The grammar and perf's rules are described in parse.c.
 */
int spec_parse(const char *text, struct spec_ast *ast, struct pk_spec_error *err);
/*
 * The same, the tree's nodes allocated in arena (freed with it; ast->arena
 * stays empty) and ast->text being text itself, not a copy: text must
 * outlive the tree. The event list parses into its scratch arena this way.
 */
int spec_parse_in(const char *text, struct pk_arena *arena, struct spec_ast *ast,
		  struct pk_spec_error *err);
void spec_ast__free(struct spec_ast *ast);

#endif
