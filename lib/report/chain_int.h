/* SPDX-License-Identifier: MIT */
/*
 * report/chain_int.h — the callchain trees of entries, shared by their
 * builder (chain.c) and printer (chain_print.c). One entry's tree is built
 * at a time, printed and dropped: from the per-context prefix trees, each
 * entry has a list of jobs (a sample path to add, or a prefix subtree to
 * merge), collected once.
 */
#ifndef PMUKIT_REPORT_CHAIN_INT_H
#define PMUKIT_REPORT_CHAIN_INT_H

#include "report/report_int.h"

/* One node of an entry's tree (uncompressed: one frame). */
struct cnode {
	uint32_t loc;			/* the first location added here (its name is printed) */
	uint32_t fkey;
	uint64_t hit, children_hit;
	uint64_t count, children_count;
	uint32_t first_child, nr_children;	/* in rp_chains.kids, after sorting */
	uint32_t parent;
	uint32_t rbpos;			/* replayed trees: its place in perf's rb_root_in */
};

/* perf's match_chain key: DSO and symbol start, or DSO and address (or a string's id) */
struct fkey {
	const struct pk_dso *dso;
	uint64_t addr;
	/*
	 * The symbol's name (NULL: none); inl: the key is that name (an inlined
	 * function, which perf orders by names, its own and the other's)
	 */
	const char *name;
	bool inl;
	bool by_sym;	/* addr is a symbol's start; ip: the first frame's (perf's cnode->ip) */
	uint64_t ip;
};

enum {
	JOB_PATH,	/* a sample's callchain, all of it (print order) */
	JOB_SUBTREE,	/* caller order: a prefix-tree node's subtree, from that frame on */
	JOB_CALLEE,	/* callee order: a sample's callchain from frame aux to the root */
	JOB_CALLER,	/* caller order: a sample's callchain from frame aux to the leaf */
};

struct job {
	uint32_t node;			/* prefix-tree node (self node for paths) */
	uint32_t aux;			/* SUBTREE: excluded cclass; CALLEE, CALLER: first frame */
	uint32_t kind;
	uint64_t hit, count;		/* PATH, CALLEE, CALLER: what the path adds */
};

struct rp_chains {
	/* the tree being printed */
	struct pk_buf nodes;		/* struct cnode[]; 0 unused, 1 the root */
	struct pk_idmap map;		/* node << 32 | fkey -> child */
	uint32_t *kids;			/* children of each node, sorted */
	bool replayed;			/* the tree is chain_rb.c's: siblings' rb order in rbpos */
	/* frame keys */
	struct pk_buf fkeys;		/* struct fkey[] */
	struct pk_idmap fkey_map;	/* hash -> fkey (collisions chained) */
	struct pk_buf fkey_next;
	struct pk_buf loc_fkey;		/* uint32_t[] by loc id: fkey + 1 */
	/* the prefix trees' children, and their depth */
	uint32_t *tfirst, *tkids;
	uint32_t tdepth;
	/* jobs of each entry (by entry index) */
	uint32_t *job_start;		/* nr_entries + 1 */
	struct job *jobs;
	size_t nr_entries;
};

static inline struct cnode *cn(const struct rp_chains *c, uint32_t i)
{
	return &((struct cnode *)c->nodes.data)[i];
}

static inline const struct fkey *fk(const struct rp_chains *c, uint32_t i)
{
	return &((const struct fkey *)c->fkeys.data)[i];
}

/*
 * chain.c: perf's order of siblings in its rb_root_in (match_chain's, the
 * greater first): DSO then address, names where an inlined function is one
 */
int rp_fkey_cmp(const struct fkey *a, const struct fkey *b);
/* chain.c: build entry e's tree (root node 1); 0, 1 when it has none, or -ENOMEM */
int rp_chain_tree(struct pk_report *r, const struct rp_entry *e);
/* chain.c: perf's callchain_srcline text for address and srcline keys */
const char *rp_chain_srcline(struct pk_report *r, const struct pk_loc *loc, char *buf,
			     size_t size);

/* chain.c: the callchain of self node s, callee first, into buf; its length (SIZE_MAX: ENOMEM) */
size_t rp_chain_path_of(struct pk_report *r, uint32_t s, struct pk_buf *buf);
/*
 * chain_rb.c: whether the tree just built has siblings that perf's match_chain
 * does not order (an inlined function beside other frames, an unresolved
 * address beside a symbol of its DSO), and then entry ei's tree rebuilt as
 * perf's red-black trees build it (0 or -ENOMEM)
 */
bool rp_chain_mixed(const struct pk_report *r, const struct rp_chains *c);
int rp_chain_replay(struct pk_report *r, struct rp_chains *c, size_t ei);

#endif
