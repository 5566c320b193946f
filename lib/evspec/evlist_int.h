/* SPDX-License-Identifier: MIT */
/*
 * evspec/evlist_int.h — what the stages behind pk_evlist__add share:
 * resolve.c (AST → events on PMUs; tracepoint.c for tracepoints and
 * breakpoints; alias_terms.c for alias encodings), encode.c (format bits,
 * terms, modifiers), defaults.c (the stat/record configuration pass),
 * rules.c (TopDown, ACR, arm64 thresholds, precise limits) and evlist.c
 * (groups, the public API).
 *
 * An event goes through two states, as in perf: the attr the parser builds
 * (attr0: type, config words, breakpoint fields, modifier bits) plus the
 * "config terms" (period, freq, call-graph...) kept aside; then the attr the
 * command opens, recomputed for the whole list after every add, because some
 * of perf's defaults depend on the list as a whole (stat goes system-wide
 * when every event is uncore; record adds sample ids when there are several).
 */
#ifndef PMUKIT_SPEC_EVLIST_INT_H
#define PMUKIT_SPEC_EVLIST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/alias.h>
#include <pmukit/spec.h>

#include "pmu/lookup.h"
#include "pmu/derived.h"
#include "evspec/ast.h"
#include "util/arena.h"

/* perf_event_attr.size perf 6.1 passes (PERF_ATTR_SIZE_VER7). */
#define EV_ATTR_SIZE 128u
/* With config3 set the kernel must read that far (PERF_ATTR_SIZE_VER8). */
#define EV_ATTR_SIZE_CONFIG3 136u

/* Terms that do not go into config words: perf's "config terms". */
enum ev_cterm_kind {
	CT_PERIOD,
	CT_FREQ,
	CT_TIME,
	CT_CALLGRAPH,
	CT_BRANCH,
	CT_STACK_USER,
	CT_MAX_STACK,
	CT_MAX_EVENTS,
	CT_INHERIT,	/* num: 1 inherit, 0 no-inherit */
	CT_OVERWRITE,	/* num: 1 overwrite, 0 no-overwrite */
	CT_PERCORE,
	CT_AUX_OUTPUT,
	CT_AUX_SAMPLE_SIZE,
	CT_DRV_CFG,
	CT_RATIO_TO_PREV,
};

struct ev_cterm {
	enum ev_cterm_kind kind;
	bool weak;		/* from an alias: -c/-F win over it */
	uint64_t num;
	double fnum;
	const char *str;
	struct spec_pos pos;
};

/* TopDown roles (perf metrics PMUs only, i.e. a core PMU with a slots event). */
enum ev_topdown { TD_NONE, TD_SLOTS, TD_METRIC };

struct ev {
	struct pk_evsel pub;		/* first: what pk_evlist__evsel hands out */
	struct perf_event_attr attr0;	/* as parsed, modifiers applied */
	struct ev_cterm *cterms;
	size_t nr_cterms;
	/* modifier state perf keeps outside the attr */
	bool exclude_GH, sample_read, precise_max, weak_group, bpf_counter;
	/* where it runs */
	const struct pk_pmu *pmu;	/* NULL for symbolic and tracepoint events */
	const char *pmu_name;		/* perf's evsel->pmu_name (NULL when perf has none) */
	const char *perf_name;		/* perf's evsel->name: the event as written, or name= */
	bool requires_cpu;		/* an uncore PMU: opened per CPU of its cpumask */
	bool use_uncore_alias;		/* an alias expanded over uncore PMUs (group split rule) */
	bool tool;			/* duration_time, user_time, system_time */
	bool duration_time;
	enum ev_topdown td;
	bool has_period;		/* an explicit (non-weak) period= or freq= term */
	bool mem_loads_aux;		/* x86 mem-loads-aux: leads as an AUX-like sampler */
	int max_precise;		/* precise_ip limit of its PMU, -1 when none */
};

/* A growable list of events being built by one pk_evlist__add (the first few inline: never copy one). */
struct ev_vec {
	struct ev **v;
	size_t nr, cap;
	struct ev *inl[8];
};
int ev_vec__push(struct ev_vec *vec, struct ev *ev);
void ev_vec__free(struct ev_vec *vec);

/* What one PMU answers to an event name, when known completely (resolve.c). */
struct alias_memo {
	const struct pk_pmu *pmu;
	struct pk_alias_parts parts;
	bool complete;
};

/* State of one pk_evlist__add. */
struct rctx {
	const struct pk_spec_opts *opts;
	const char *text;		/* the spec */
	struct pk_arena *arena;		/* new events and strings (live as long as the list) */
	struct pk_arena *scratch;	/* the syntax tree, expanded terms: freed after the add */
	struct pk_spec_error *err;
	const char *hybrid_only;	/* reparse of "cpu_core/cycles/": that PMU only */
	/* PMUs in the order perf 6.1 meets them (sysfs readdir: kernfs hash order); lazy */
	const struct pk_pmu *const *order;
	size_t nr_order;
	bool have_order, have_facts;
	const struct pk_pmu *hybrid[PK_PMU_MAX_HYBRID];	/* cpu_* core PMUs, in that order */
	size_t nr_hybrid;
	int depth;			/* reparse nesting */
	int max_precise;		/* lowest caps/max_precise of the PMUs, -1 when none (lazy) */
	/* the last name looked up in the model's table, and the answer (resolve.c) */
	const char *tmemo_name;
	struct pk_alias_range tmemo;
	/* what the PMUs an alias name landed on answer to it (resolve.c, add_multi) */
	const char *amemo_name;
	const struct alias_memo *amemo;
	size_t nr_amemo;
	/* the last alias encoding split into terms (they are not changed once built) */
	const char *emem_enc;
	struct spec_pos emem_pos;
	struct spec_term *emem_terms;
	size_t emem_n;
	bool perf_metrics;		/* the PMU of type 4 has a slots event (lazy) */
};
/* The PMU order, and the facts above; 0 or -ENOMEM. */
int rctx_order(struct rctx *rc);
void rctx_facts(struct rctx *rc);

/* Fill err at pos; returns -EINVAL (or code when not 0). */
int rctx_error(struct rctx *rc, int code, struct spec_pos pos, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
struct spec_pos spec_pos_make(unsigned off, unsigned len);

/* --- resolve.c ------------------------------------------------------------ */
int rctx_init(struct rctx *rc, const struct pk_spec_opts *opts, const char *text,
	      struct pk_arena *arena, struct pk_arena *scratch, struct pk_spec_error *err);
void rctx_fini(struct rctx *rc);
/* Append the events one AST event stands for (modifiers applied) to out. */
int resolve_event(struct rctx *rc, const struct spec_event *e, struct ev_vec *out);
/*
 * alias_terms.c: the terms of an alias encoding, each at position at, in the
 * scratch arena (*out NULL or an array of *nr). 0 or -ENOMEM.
 */
int resolve_alias_terms(struct rctx *rc, const char *enc, struct spec_pos at,
			struct spec_term **out, size_t *nr);
/* Append ev (NULL: out of memory) to out. */
int resolve_push(struct rctx *rc, struct ev_vec *out, struct ev *ev);
/* Terms of an event without PMU formats (perf's config_term_common). */
int resolve_common_terms(struct rctx *rc, struct ev *ev, const struct spec_event *e, bool tp);
/* tracepoint.c: mem:ADDR breakpoints, SYS:NAME tracepoints. */
int resolve_breakpoint(struct rctx *rc, const struct spec_event *e, struct ev_vec *out);
int resolve_tracepoint(struct rctx *rc, const struct spec_event *e, struct ev_vec *out);
/* evlist.c: "did you mean 'X'?" for an unknown event name ("" when none). */
const char *resolve_suggest_event(struct rctx *rc, const char *word);

/* --- encode.c ------------------------------------------------------------- */
/* A new event: attr0 zeroed but for size (and exclude_guest, as perf's event_attr_init). */
struct ev *ev_new(struct rctx *rc, const struct spec_event *e);
int ev_add_cterm(struct rctx *rc, struct ev *ev, const struct ev_cterm *ct);
const struct ev_cterm *ev_find_cterm(const struct ev *ev, enum ev_cterm_kind kind);

/* One term after alias expansion, in perf's order. */
struct xterm {
	const struct spec_term *t;	/* as written (alias terms: a synthetic copy) */
	bool weak;			/* came from an alias */
	bool used;			/* consumed as a "?" parameter */
};

/*
 * Terms that are not PMU format terms, as perf's config_term_common: config*
 * set attr0, the rest become config terms. fmt_ok: user terms are left to the
 * PMU (returns 1 for them), else they are an error. 0 handled, 1 left, <0 err.
 */
int encode_common_term(struct rctx *rc, struct ev *ev, const struct xterm *x, bool fmt_ok,
		       bool tracepoint);
/* Index of a perf fixed term name ("period", "call-graph"...), or -1. */
int encode_fixed_index(const char *name);
/* encode_fixed_index(t->name), from t->fixed when it is set. */
int encode_term_fixed(const struct spec_term *t);
/* PMU format terms of xs into attr0's config words (perf_pmu__config). */
int encode_format_terms(struct rctx *rc, struct ev *ev, const struct pk_pmu *pmu,
			struct xterm *xs, size_t n);
/* perf's get_event_modifier + parse_events__modifier_event. group: add=true. */
int encode_modifiers(struct rctx *rc, struct ev *ev, const struct spec_mods *m, bool group,
		     bool is_leader);
/* --- defaults.c ----------------------------------------------------------- */
/* Facts about the machine the configuration pass needs. */
struct ev_machine {
	bool hybrid;		/* cpu_core/cpu_atom: perf record adds a tracking dummy */
	int max_precise;	/* see rctx */
	bool exclude_kernel;	/* perf's paranoid fallback applies (unprivileged, paranoid > 1) */
};
/* Would perf's EACCES fallback exclude the kernel for this process? (reads /proc) */
bool defaults_paranoid_excludes_kernel(void);
/*
 * Recompute every event's attr from attr0 for the command (stat/record).
 * Record mode: true with *tracking the dummy perf record adds after the
 * events when the first event does not track (system-wide, hybrid).
 */
bool encode_configure(struct ev **evs, size_t nr, const struct pk_spec_opts *opts,
		      const struct ev_machine *m, struct perf_event_attr *tracking);
/* perf's parse_branch_str (ORs into *mode); 0 or -EINVAL. */
int encode_branch_parse(const char *s, uint64_t *mode);
/* Bits of a value placed into a (possibly split) mask, as perf's pmu_format_value. */
uint64_t encode_place_bits(uint64_t mask, uint64_t value);
unsigned encode_popcount(uint64_t v);
/* &attr->config, config1, config2 or config3 (NULL for config3 with headers before it). */
__u64 *encode_config_word(struct perf_event_attr *a, int config);
/* "config1:5-16" for a format into buf. */
const char *encode_format_desc(const struct pk_pmu_format *f, char *buf, size_t len);

/* --- rules.c -------------------------------------------------------------- */
/* Per PMU event, after its terms are encoded: arm64 threshold limits. */
int rules_pmu_event(struct rctx *rc, struct ev *ev, const struct pk_pmu *pmu,
		    const struct xterm *xs, size_t n);
/* perf's arch_evlist__leader: slots leads a group that has topdown events. */
size_t rules_group_leader(struct rctx *rc, struct ev **evs, size_t n);
/* Whole-spec checks and derivations on the new events (groups set). */
int rules_check(struct rctx *rc, struct ev **evs, size_t nr);

#endif
