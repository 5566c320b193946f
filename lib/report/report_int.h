/* SPDX-License-Identifier: MIT */
/*
 * report/report_int.h — the report's internals shared by its files: columns
 * and sort keys (keys.c), aggregation (hists.c), collapse/cumulate/sort
 * (resort.c), callchain trees (chain.c), stdio printing (print.c) and perf
 * diff (diff.c).
 *
 * Aggregation in two stages, as perf's hist_entry__cmp then __collapse:
 * a sample's context (hists, thread, comm, cpu, weight: the sort keys that
 * do not depend on the address) is interned to a ctx id, its address to a
 * location class (lclass: DSO, symbol or address, by the sort keys), and the
 * entry is the pair (ctx, lclass) in a hash map. At finish entries equal by
 * perf's collapse functions (comm and DSO names, srcline strings) merge.
 *
 * Callchains go into a prefix tree per ctx (caller first, the sample's own
 * location last as a "self" node carrying the period); cumulative values
 * and each entry's callchain tree are derived from it at finish.
 */
#ifndef PMUKIT_REPORT_INT_H
#define PMUKIT_REPORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/report.h>

#include "util/arena.h"
#include "util/buf.h"
#include "util/idmap.h"
#include "util/intern.h"

/* ---- columns (perf's hpp formats) -------------------------------------------------- */

enum rp_col {
	/* value columns (perf's hpp dimensions) */
	RP_COL_OVERHEAD,
	RP_COL_OVERHEAD_SYS,
	RP_COL_OVERHEAD_US,
	RP_COL_OVERHEAD_GUEST_SYS,
	RP_COL_OVERHEAD_GUEST_US,
	RP_COL_CHILDREN,
	RP_COL_SAMPLES,
	RP_COL_PERIOD,
	/* pmukit: TopDown Level 1 and 2 shares of slots (groups led by slots) */
	RP_COL_TD_RETIRING,
	RP_COL_TD_BAD_SPEC,
	RP_COL_TD_FE_BOUND,
	RP_COL_TD_BE_BOUND,
	RP_COL_TD_HEAVY_OPS,
	RP_COL_TD_LIGHT_OPS,
	RP_COL_TD_BR_MISPREDICT,
	RP_COL_TD_MACHINE_CLEARS,
	RP_COL_TD_FETCH_LAT,
	RP_COL_TD_FETCH_BW,
	RP_COL_TD_MEM_BOUND,
	RP_COL_TD_CORE_BOUND,
	RP_COL_NR_VALUE,
	/* sort keys (perf's sort dimensions) */
	RP_KEY_PID = RP_COL_NR_VALUE,
	RP_KEY_COMM,
	RP_KEY_DSO,
	RP_KEY_SYM,
	RP_KEY_CPU,
	RP_KEY_SRCLINE,
	RP_KEY_LOCAL_WEIGHT,
	RP_KEY_WEIGHT,
	RP_KEY_LOCAL_INS_LAT,
	RP_KEY_INS_LAT,
	RP_KEY_LOCAL_P_STAGE_CYC,
	RP_KEY_P_STAGE_CYC,
	RP_KEY_TID,		/* pmukit: perf's pid key under its real name */
	RP_KEY_TRACE,
	RP_KEY_SRCFILE,
	RP_KEY_SYM_SIZE,	/* perf's symbol_size */
	RP_KEY_IPC_NULL,	/* perf report's column after --sort ...symbol... without branch stacks */
	RP_KEY_PARENT,
	RP_KEY_TIME,
	RP_COL_NR,
};

static inline bool rp_col__is_key(int c)
{
	return c >= RP_KEY_PID;
}

static inline bool rp_col__is_topdown(int c)
{
	return c >= RP_COL_TD_RETIRING && c <= RP_COL_TD_CORE_BOUND;
}

/* The index of a column or key by name (perf's prefix match), -1 when unknown. */
int rp_col__lookup(const char *name, size_t len, bool value_cols);
const char *rp_col__name(int c);	/* perf's --sort/-F name */
const char *rp_col__header(int c);	/* the column's header text */

/* ---- aggregation ----------------------------------------------------------------- */

/* A sample's context: the address-independent part of its entry key. */
struct rp_ctx {
	int32_t hists;			/* index in r->hists */
	int32_t cpu;			/* with the cpu key, else 0 */
	const struct pk_thread *thread;	/* with pid/tid keys, else NULL */
	const char *comm;		/* with the comm key, else NULL (interned by the session) */
	const char *trace;		/* with the trace key (interned here), else NULL */
	uint64_t weight[3];		/* with weight keys, else 0 */
	const struct pk_sym *parent;	/* with the parent key: the sample's parent (NULL: [other]) */
	uint64_t time;			/* with the time key: the sample's time bucket */
};

/* A location class: the address-dependent part of an entry key. */
struct rp_lclass {
	struct pk_dso *dso;
	const struct pk_sym *sym;
	uint64_t addr;			/* without a symbol, or with srcline */
	/* a representative location (the first seen), for printing */
	const struct pk_loc *loc;
	const char *srcline;		/* with the srcline key, at finish */
	const char *srcfile;		/* with the srcfile key, at finish */
	/*
	 * A callchain frame's class as perf's cumulative entries key it: its
	 * he->ip is the raw ip (fill_callchain_info), not the map-relative one.
	 */
	bool raw;
	/*
	 * With the srcline key, an unwound frame of an inline chain (pk_loc
	 * inline_frame): its loc id + 1, as perf 6.1 keys these entries by the
	 * node's own srcline (the frames of one address differ); else 0.
	 */
	uint32_t frame;
};

struct rp_stat {
	uint64_t period, nr_events;
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
	uint64_t weight[3];		/* sums of weight, ins_lat, p_stage_cyc */
};

/* s added into d (resort.c): periods, event counts and weight sums */
void rp_stat_merge(struct rp_stat *d, const struct rp_stat *s);

struct rp_entry {
	uint32_t ctx, lclass;
	const struct pk_thread *thread;	/* first sample's (self or cumulative, as perf creates it) */
	uint64_t first_seq;		/* that sample's number (UINT64_MAX: none yet) */
	uint32_t first_pos;		/* made by a callchain frame of it: its place (1, 2...) */
	/* that sample's pk_loc id + 1, or its callchain frame's (first_raw): perf's he->ip, for -v */
	uint32_t first_loc;
	bool first_raw;
	const char *comm;		/* first sample's comm */
	int32_t cpu;
	uint64_t weight[3];		/* first sample's (weight keys) */
	struct rp_stat stat;
	struct rp_stat acc;		/* cumulative (children) */
	uint32_t max_depth;		/* longest callchain added (perf's callchain_root.max_depth) */
	uint32_t merged;		/* collapse: index of the entry it merged into + 1 */
	uint32_t chain;			/* its callchain tree (chain.c), 0 none */
	uint32_t order;			/* collapse order */
	char level;			/* perf's he->level: '.', 'k', ... */
	bool filtered;			/* under --percent-limit */
	uint8_t hidden;			/* filter bits (perf's he->filtered), first sample's */
	bool has_self;			/* created by a sample (not only cumulatively) */
	bool is_dummy;			/* group view: exists only in a member's hists */
	bool srcline_late;		/* perf 6.1 first needs its srcline at print time:
					 * not in the column's width (srcline_width.c) */
	bool srcline_cmp;		/* replay.c: perf's trees compared its srcline */
	/* group view: the members' entries (leader first), r->nr_members[h] of them */
	uint32_t *pairs;
};

/* Per event (perf's struct hists). */
struct rp_hists {
	int attr;
	const char *name;
	bool has_callchain;		/* sample_type has CALLCHAIN */
	bool dwarf;			/* and REGS_USER, STACK_USER: unwound, inline frames */
	bool replayed;			/* entries from perf's trees (replay.c) */
	bool is_leader;			/* a group leader or a lone event */
	int leader;			/* hists index of its leader */
	int nr_members;			/* leader: members including itself */
	int member_idx;			/* position in its group */
	const char *group_name;
	uint64_t nr_samples;
	uint64_t total_period;		/* of the output entries (perf's stats.total_period) */
	uint64_t callchain_period;	/* periods of samples with callchains used */
	/* the same of samples not hidden by a filter (perf's non_filtered stats) */
	uint64_t nr_nf_samples, total_nf_period, callchain_nf_period;
	/* output: entries in order (indexes into r->entries) */
	uint32_t *out;
	size_t nr_out;
	/* TopDown: hists index of each metric's member (-1 none), leader only */
	int td[9];			/* slots, retiring, bad_spec, fe, be, heavy, br_mis, fetch_lat, mem */
	/* public view */
	struct pk_report_section section;
	struct pk_report_entry *pub;
	uint64_t *pub_group;
};

struct rp_run {
	uint32_t id, reps;
};

/*
 * A sample of a hists replayed through perf's trees (replay.c), in order, or
 * a run of alike ones. Its comm is its entry's (the context's where a key
 * takes it).
 */
struct rp_replay_sample {
	uint32_t node;			/* its self node in the prefix tree, or without a
					 * callchain its pk_loc id | RP_SELF */
	uint32_t ctx;			/* its context */
	uint32_t thread;		/* pk_thread id + 1 (a new entry's: "callers first"
					 * holds within one) */
	uint32_t period;		/* UINT32_MAX: in replay_periods */
	uint8_t cpumode;
	uint8_t hidden;			/* its filter bits */
	uint16_t reps;			/* alike samples in a row (all of these fields) */
};

/* a period of UINT32_MAX or more, of replay_seq's record rec */
struct rp_replay_period {
	uint64_t rec, period;
};

/* A callchain job of a replayed entry (chain.c's struct job, with its owner) */
struct rp_replay_job {
	uint32_t entry, node, aux, kind;
	uint64_t hit, count;
};

/* The last callchain added for a context: its locs (callers first) and their tree nodes. */
struct rp_pathcache {
	uint32_t n;
	size_t cap;
	uint32_t *locs, *nodes;
};

/* One node of the per-context prefix tree of callchains. */
struct rp_tnode {
	uint32_t parent;		/* 0: a root (ctx) */
	uint32_t loc;			/* pk_loc id; self nodes: id | RP_SELF */
	uint64_t hit;			/* self nodes: period of the samples ending here */
	uint64_t count;
	uint32_t thread;		/* self nodes: the first sample's thread (pk_thread id + 1) */
	uint64_t seq;			/* self nodes: the first sample's number */
	uint8_t hidden;			/* self nodes: the first sample's filter bits */
};
#define RP_SELF 0x80000000u

struct rp_callchain_param {
	enum { RP_CG_GRAPH_ABS, RP_CG_GRAPH_REL, RP_CG_FLAT, RP_CG_FOLDED, RP_CG_NONE } mode;
	bool caller;			/* order */
	bool order_set;
	enum { RP_CCKEY_FUNCTION, RP_CCKEY_ADDRESS, RP_CCKEY_SRCLINE } key;
	enum { RP_CCVAL_PERCENT, RP_CCVAL_PERIOD, RP_CCVAL_COUNT } value;
	double min_percent;
	bool min_set;			/* given in -g (else --percent-limit sets it, as in perf) */
	uint32_t print_limit;
	bool enabled;			/* use_callchain */
};

struct pk_report {
	struct pk_session *s;
	struct pk_report_opts opts;
	struct rp_callchain_param cg;
	bool children;			/* cumulate_callchain */
	bool children_off;		/* --no-children given (before --hierarchy's default) */
	bool group;			/* event_group */
	bool topdown;
	bool need_chain;		/* callchains resolved for each sample */
	/* columns: output fields and sort list (rp_col values) */
	int fields[32], nr_fields;
	int sorts[32], nr_sorts;
	bool has_key[RP_COL_NR];	/* in the sort list */
	bool field_order;		/* -F given (perf's is_strict_order(field_order)) */
	bool sym_sorted;		/* sym among the --sort keys (perf's hists__has(sym)) */
	bool overhead_self;		/* the Overhead column is called Self (children) */
	bool sort_starts_with_sym;	/* callchain printing skips the entry's own symbol */
	bool ctx_thread, ctx_comm, ctx_cpu, ctx_weight[3], ctx_trace;
	bool all_tracepoints;		/* every attr is a tracepoint: perf's default sort is "trace" */
	struct pk_intern traces;	/* trace_output strings */
	bool lc_dso, lc_sym, lc_addr;
	/* hists, one per attr */
	struct rp_hists *hists;
	size_t nr_hists, cap_hists;
	/* interned contexts and location classes */
	struct pk_buf ctxs;		/* struct rp_ctx[] */
	struct pk_idmap ctx_map;	/* hash -> first ctx id with it (chained by ctx_next) */
	struct pk_buf ctx_next;		/* uint32_t[] */
	struct pk_buf lclasses;		/* struct rp_lclass[] */
	struct pk_idmap lc_map;
	struct pk_buf lc_next;
	struct pk_buf loc_lclass;	/* uint32_t[] by pk_loc id: lclass + 1, 0 unknown */
	struct pk_buf loc_lclass_chain;	/* the same for callchain frames (rp_loc_lclass_chain) */
	/* lclasses equal by perf 6.1's hist_entry__cmp (names, srclines): uint32_t[] cclass + 1 */
	struct pk_buf lc_cclass;
	struct pk_intern cclasses;
	struct pk_idmap cclass_ids;	/* offset in cclasses -> dense id */
	uint32_t nr_cclasses;
	/* entries */
	struct pk_buf entries;		/* struct rp_entry[] */
	struct pk_idmap entry_map;	/* ctx << 32 | lclass -> entry */
	/* callchain prefix tree */
	struct pk_buf tnodes;		/* struct rp_tnode[] (0 unused) */
	struct pk_idmap tmap;		/* parent << 32 | loc -> node */
	struct pk_buf ctx_root;		/* uint32_t[] by ctx: root node */
	struct pk_buf path_cache;	/* struct rp_pathcache[] by ctx: the last sample's path */
	/* the entry of each lclass in the few first contexts (entry + 1), ahead of entry_map */
	struct pk_buf ctx_entries[16];
	/* last-context cache */
	const struct pk_thread *last_thread;
	const char *last_comm;
	int32_t last_cpu;
	int last_hists;
	uint32_t last_ctx;
	bool last_valid;
	bool elide[RP_COL_NR];		/* columns elided: a filter list of one entry */
	/* PERF_SAMPLE_READ: previous value per sample id */
	struct pk_idmap read_ids;
	struct pk_buf read_prev;	/* uint64_t[] */
	uint64_t nr_delivered;		/* samples added (each group member's counts) */
	/* with the srcline key: the samples' self nodes (or lclasses | RP_SELF without
	 * callchains) in order, run-length coded, for perf's addr2line failure limit */
	struct pk_buf srcline_seq;	/* struct rp_run[] */
	/* with the srcline key and no children: the samples' entries (struct rp_run[]) */
	struct pk_buf entry_seq;
	/*
	 * replay.c: the samples in order, of dwarf hists (children) and, where the
	 * sort keys can make perf's comparison no order (replay_sym), of all; the
	 * jobs it made
	 */
	bool replay_sym;
	struct pk_buf replay_seq;	/* struct rp_replay_sample[] */
	struct pk_buf replay_periods;	/* struct rp_replay_period[] */
	struct pk_buf replay_jobs;	/* struct rp_replay_job[] */
	/* chain.c's trees */
	struct rp_chains *chains;
	struct pk_arena arena;
	/* parent.c: the parent key's regex (compiled when the key is used), -U's callchain copy */
	void *parent_re, *ignore_re;
	const struct pk_sym *cur_parent;	/* the sample being added's parent */
	struct pk_buf unresolved_chain;
	bool finished;
	bool decided;			/* children, callchains and columns set from the attrs */
	/* public section list (sections[i] = hists index) */
	int *sections;
	size_t nr_sections;
};

static inline struct rp_entry *rp_entry(const struct pk_report *r, uint32_t i)
{
	return &((struct rp_entry *)r->entries.data)[i];
}

static inline struct rp_ctx *rp_ctx(const struct pk_report *r, uint32_t i)
{
	return &((struct rp_ctx *)r->ctxs.data)[i];
}

/* the trace_output of a context (stored as an offset + 1 into r->traces), NULL: none */
static inline const char *rp_ctx_trace(const struct pk_report *r, const struct rp_ctx *c)
{
	return c->trace ? (const char *)r->traces.buf.data + ((uintptr_t)c->trace - 1) : NULL;
}

static inline struct rp_lclass *rp_lclass(const struct pk_report *r, uint32_t i)
{
	return &((struct rp_lclass *)r->lclasses.data)[i];
}

static inline struct rp_tnode *rp_tnode(const struct pk_report *r, uint32_t i)
{
	return &((struct rp_tnode *)r->tnodes.data)[i];
}

static inline size_t rp_nr_entries(const struct pk_report *r)
{
	return r->entries.len / sizeof(struct rp_entry);
}

/* keys.c: set up columns and the sort list from the options; 0 or -EINVAL (err set) */
int rp_setup_columns(struct pk_report *r, struct pk_error *err);
/* keys.c: parse -g; 0 or -EINVAL */
int rp_parse_callchain(struct rp_callchain_param *p, const char *arg, struct pk_error *err);

/* perf's comparisons of two entries by one key (hist_entry__cmp, __collapse, __sort) */
int64_t rp_key_cmp(const struct pk_report *r, int key, const struct rp_entry *a,
		   const struct rp_entry *b);
int64_t rp_key_collapse(const struct pk_report *r, int key, const struct rp_entry *a,
			const struct rp_entry *b);
int64_t rp_col_sort(const struct pk_report *r, int col, const struct rp_entry *a,
		    const struct rp_entry *b);

/* hists.c: children, callchain order and columns from the attrs known (once); 0 or -errno */
int rp_decide(struct pk_report *r, struct pk_error *err);
/* hists.c: the entry for (ctx, lclass), created when new; NULL on ENOMEM */
struct rp_entry *rp_entry_findnew(struct pk_report *r, uint32_t ctx, uint32_t lclass,
				  uint32_t *idx);
uint32_t rp_loc_lclass(struct pk_report *r, const struct pk_loc *loc);	/* UINT32_MAX: ENOMEM */
/* a callchain frame's class for cumulative entries (raw ip without a symbol or with srcline) */
uint32_t rp_loc_lclass_chain(struct pk_report *r, const struct pk_loc *loc);
/* perf's fill_callchain_info: the level a frame gives its cumulative entry (0: unchanged) */
char rp_chain_level(const struct pk_loc *loc);

/* hists.c: a record interned in store (recsz bytes each) by hash h and eq; its index, -1 ENOMEM */
int64_t rp_intern(struct pk_idmap *map, struct pk_buf *store, struct pk_buf *next, size_t recsz,
		  uint64_t h, const void *rec, bool (*eq)(const void *, const void *));

/* parent.c: compile the parent key's regex (once); 0 or -EINVAL (err set) */
int rp_parent_setup(struct pk_report *r, struct pk_error *err);
void rp_parent_free(struct pk_report *r);
/* parent.c: perf's parent of a sample: the first callchain entry's symbol matching the regex */
const struct pk_sym *rp_parent_of(const struct pk_report *r, const struct pk_resolved *rs,
				  bool dwarf);
/*
 * parent.c: -U: false when the sample is left out (no symbol); else *out is rs or a copy
 * of it (in r) whose callchain has no entry without a symbol. -ENOMEM as -1.
 */
int rp_hide_unresolved(struct pk_report *r, const struct pk_resolved *rs, struct pk_resolved *out);
/* parent.c: --ignore-callees: *out is rs, or rs from its last matching callchain entry on */
void rp_ignore_callees(const struct pk_report *r, const struct pk_resolved *rs, bool dwarf,
		       struct pk_resolved *out);

/* resort.c */
int rp_finish(struct pk_report *r, struct pk_error *err);
/* resort.c: entry si merged into entry di (perf's collapse: values, depth, first sample's bits) */
void rp_entry_merge(struct pk_report *r, uint32_t di, uint32_t si);
/* resort.c: perf's collapse over all sort keys (0: one entry) */
int64_t rp_collapse_all(const struct pk_report *r, const struct rp_entry *a,
			const struct rp_entry *b);

/*
 * collapse_rb.c: whether entries idx[0..k) of one hists are where perf's sort
 * comparison is no order (the symbol key without the DSO key, unresolved
 * addresses of two DSOs beside a symbol), and then their collapse order as
 * perf's trees make it (idx reordered, *k less the merged ones; 0 or -ENOMEM)
 */
bool rp_collapse_mixed(const struct pk_report *r, const uint32_t *idx, size_t k);
int rp_collapse_trees(struct pk_report *r, uint32_t *idx, size_t *k);
/* replay.c: whether hists h's entries come from replaying perf's trees */
bool rp_replay_wanted(const struct pk_report *r, int h);
/* replay.c: hists h's entries as perf's trees make them, in collapse order (*out malloc'd) */
int rp_replay(struct pk_report *r, int h, uint32_t **out, size_t *nr_out);
uint64_t rp_hists_total(const struct pk_report *r, int h);
/* resort.c: perf's hists__total_period: of the shown entries with --percentage relative */
uint64_t rp_hists_pct_total(const struct pk_report *r, int h);

/* chain.c: callchain trees of entries */
int rp_chains_build(struct pk_report *r, bool all);
void rp_chains_free(struct pk_report *r);
int rp_chain_fprintf(struct pk_report *r, const struct rp_entry *e, int h, FILE *fp);
/* chain.c: perf's callchain_list__sym_name for a location */
void rp_chain_sym_name(const struct pk_loc *loc, char *buf, size_t size);

/* hierarchy.c: --hierarchy's header and tree of hists h (column widths w) */
int rp_fprintf_hierarchy(struct pk_report *r, int h, const unsigned *w, bool quiet, FILE *fp);

/* print.c */
int rp_fprintf_hists(struct pk_report *r, int h, FILE *fp, unsigned flags);
/* print.c: one entry's text for a column, padded as perf pads it (no separator) */
int rp_col_snprintf(struct pk_report *r, int col, const struct rp_entry *e, int h, char *buf,
		    size_t size, unsigned width);
/*
 * print.c: a value column's text with the group members' values taken from
 * mem[1..nr_members) (NULL: 0) instead of e's pairs (--hierarchy's nodes)
 */
int rp_col_snprintf_members(struct pk_report *r, int col, const struct rp_entry *e,
			    const struct rp_entry *mem, int h, char *buf, size_t size,
			    unsigned width);
/*
 * print.c: perf's -vv after an entry without a map: its thread's maps
 * ("Map: START-END PGOFF NAME") and "---------- end"; nothing otherwise
 */
void rp_fprintf_maps(struct pk_report *r, const struct rp_entry *e, FILE *fp);
/* print.c: perf's sort__setup_elide (columns of one-entry filter lists), "# comm: X" to fp if not NULL */
void rp_setup_elide(struct pk_report *r, FILE *fp);
/* print.c: column widths (perf's hists__col_len) */
void rp_calc_widths(struct pk_report *r, int h, unsigned *widths);
/* print.c: the same over the entries list[0..n) (entry indexes), none left out (--hierarchy's nodes) */
void rp_calc_widths_of(struct pk_report *r, int h, const uint32_t *list, size_t n, unsigned *widths);
/* print.c: the column headers ("# " lines) and one entry's line (no callchain) as --stdio prints them */
void rp_print_headers(struct pk_report *r, const unsigned *w, FILE *fp);
/* "Samples: N of event 'NAME'" (group: its description, members' samples) and the event count */
void rp_section_head(struct pk_report *r, int h, char *buf, size_t size, uint64_t *total);
void rp_entry_line(struct pk_report *r, int h, const struct rp_entry *e, const unsigned *w,
		   char *line, size_t size);

/* topdown.c */
void rp_topdown_setup(struct pk_report *r);
double rp_topdown_value(const struct pk_report *r, int col, const struct rp_entry *e, int h,
			bool *valid);

/* resort.c: the class of lc under perf 6.1's hist_entry__cmp, a dense id (UINT32_MAX: ENOMEM) */
uint32_t rp_lclass_cclass(struct pk_report *r, uint32_t lc);
/* srcline.c: srclines of every lclass, as perf 6.1 gets them; 0 or -errno */
int rp_prepare_srclines(struct pk_report *r, struct pk_error *err);
/*
 * srcline_width.c: whether perf 6.1 would compare srclines in the entries
 * tree (and the collapse tree) of hists h, replayed over r->entry_seq: known[]
 * (by entry index, roots of collapse) gets 1 for each entry whose srcline perf
 * has computed by then. 0 when not replayed (children, group view).
 */
int rp_srcline_known(struct pk_report *r, int h, const uint32_t *order, size_t n, uint8_t *known);
/* perf's hist_entry__sort(a, b) over the sort keys, marking in known[] (may be NULL)
 * both entries when the srcline key is reached */
int64_t rp_sort_mark(const struct pk_report *r, uint32_t a, uint32_t b, uint8_t *known);
/* srcline of an lclass as perf's map__srcline would give it (cached) */
const char *rp_lclass_srcline(struct pk_report *r, uint32_t lc);
/* srcfile.c: perf's srcfile of an lclass: the file part of a srcline from the debug info, else "" */
const char *rp_lclass_srcfile(struct pk_report *r, uint32_t lc);

#endif
