/* SPDX-License-Identifier: MIT */
/*
 * session/sample_resolve.c — addresses to locations, and samples as perf 6.1
 * resolves them: machine__resolve (thread from pid/tid, the map of the
 * sample's ip chosen by its cpumode, the symbol) and
 * thread__resolve_callchain_sample with callee order (PERF_CONTEXT_*
 * markers switch the cpumode of the entries after them, starting from
 * user; an unknown marker discards the chain; at most max_stack entries).
 *
 * Locations are interned per (map, ip, cpumode) in a chained hash table
 * whose chains run through the locations themselves, so that a sample whose
 * addresses were seen before costs a few hash probes and no allocation.
 *
 * User frames unwound from a stack dump (unwind.c) are appended after the
 * kernel's entries as perf's unwind_entry appends them: a frame with a
 * symbol whose address has an inline chain becomes that chain's frames
 * (append_inlines), each with perf's inlined symbol (the inlined function's
 * name over the range of the symbol it is in; the symbol itself where the
 * names agree) and the frame's own srcline. Those frames are locations of
 * their own, created once per address after the location of the address.
 */
#include "session/session_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

static uint64_t loc_hash(const void *map, uint64_t ip, uint8_t cpumode)
{
	return pk_u64map__hash(ip ^ ((uint64_t)(uintptr_t)map * UINT64_C(0x9e3779b97f4a7c15)) ^
			       ((uint64_t)cpumode << 56));
}

/* Into the table (open addressing, linear probing): the address's location. */
static void lhash_put(struct sess_lslot *tab, size_t cap, struct sess_loc *l)
{
	size_t b = loc_hash(l->pub.map, l->pub.ip, l->pub.cpumode) & (cap - 1);
	while (tab[b].loc)
		b = (b + 1) & (cap - 1);
	tab[b] = (struct sess_lslot){ .ip = l->pub.ip, .map = l->pub.map, .loc = l,
				      .cpumode = l->pub.cpumode };
}

static int lhash_grow(struct pk_session *s)
{
	size_t ncap = s->lhash_cap ? s->lhash_cap * 2 : 4096;
	struct sess_lslot *nb = calloc(ncap, sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_locs; i++)
		if (!s->locs[i]->depth)	/* an inline frame: found through its address's location */
			lhash_put(nb, ncap, s->locs[i]);
	free(s->lhash);
	s->lhash = nb;
	s->lhash_cap = ncap;
	return 0;
}

/* A location, not in the hash table yet. */
static struct sess_loc *loc_alloc(struct pk_session *s)
{
	if (s->nr_locs >= UINT32_MAX - 1)
		return NULL;
	if (PK_GROW(s->locs, s->cap_locs, s->nr_locs + 1))
		return NULL;
	struct sess_loc *l = pk_arena__alloc(&s->arena, sizeof(*l));
	if (!l)
		return NULL;
	l->pub.id = (uint32_t)s->nr_locs;
	s->locs[s->nr_locs++] = l;
	return l;
}

static struct sess_loc *loc_new(struct pk_session *s, const struct sess_map *map, uint64_t ip,
				uint8_t cpumode, char level)
{
	if (s->nr_locs + 1 > s->lhash_cap / 2 && lhash_grow(s))
		return NULL;
	struct sess_loc *l = loc_alloc(s);
	if (!l)
		return NULL;
	l->pub.ip = ip;
	l->pub.cpumode = cpumode;
	l->pub.level = level;
	if (map) {
		l->pub.map = &map->pub;
		l->pub.dso = map->pub.dso;
		l->pub.addr = ip - map->delta;
		if (l->pub.dso && !(s->o.flags & PK_SESSION_NO_SYMBOLS))
			l->pub.sym = pk_dso__find(l->pub.dso, l->pub.addr);
	} else {
		l->pub.addr = ip;
	}
	lhash_put(s->lhash, s->lhash_cap, l);
	return l;
}

const struct pk_loc *resolve__loc(struct pk_session *s, const struct sess_thread *t,
				  uint8_t cpumode, uint64_t ip)
{
	char level;
	const struct sess_maps *maps = machine__maps_for(s, t, cpumode, &level);
	const struct sess_map *map = maps__find(maps, ip);
	if (!map && level == 'k' && machine__kernel_map_fixup(s))
		map = maps__find(maps, ip);
	const struct pk_map *key = map ? &map->pub : NULL;
	if (s->lhash_cap) {
		size_t mask = s->lhash_cap - 1;
		for (size_t b = loc_hash(key, ip, cpumode) & mask; s->lhash[b].loc; b = (b + 1) & mask) {
			const struct sess_lslot *e = &s->lhash[b];
			if (e->ip == ip && e->map == key && e->cpumode == cpumode)
				return &e->loc->pub;
		}
	}
	struct sess_loc *l = loc_new(s, map, ip, cpumode, level);
	return l ? &l->pub : NULL;
}

void resolve__fini(struct pk_session *s)
{
	unwind__fini(s);
	free(s->locs);
	free(s->lhash);
	free(s->chain);
	free(s->cc);
	free(s->ipc);
	pk_u64map__free(&s->inline_syms);
}

static int chain_reserve(struct pk_session *s, size_t n)
{
	return PK_GROW(s->chain, s->cap_chain, n);
}

/* ---- unwound frames and their inline chains ------------------------------------------ */

/* perf's inlined symbols, interned per (symbol, name) so that equal ones are one pointer */
struct inline_sym {
	struct pk_sym sym;		/* first */
	const struct pk_sym *base;
	struct inline_sym *next;
};

static uint64_t name_hash(const char *name)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * UINT64_C(1099511628211);
	return h;
}

/*
 * perf's new_inline_sym: the symbol itself when the inlined function has
 * its name, else a symbol of that name over the symbol's range marked
 * inlined. The name lives as long as the symbolizer, as the session's DSOs.
 */
static const struct pk_sym *inline_sym(struct pk_session *s, const struct pk_sym *base,
				       const char *name)
{
	if (!strcmp(name, base->name))
		return base;
	uint64_t h = pk_u64map__hash(name_hash(name) ^ (uint64_t)(uintptr_t)base);
	uint64_t *v = pk_u64map__find(&s->inline_syms, h);
	struct inline_sym *head = v ? (struct inline_sym *)(uintptr_t)*v : NULL;
	for (struct inline_sym *i = head; i; i = i->next)
		if (i->base == base && !strcmp(i->sym.name, name))
			return &i->sym;
	struct inline_sym *i = pk_arena__alloc(&s->arena, sizeof(*i));
	if (!i)
		return NULL;
	i->sym = *base;
	i->sym.name = name;
	i->sym.inlined = 1;
	i->base = base;
	i->next = head;
	if (pk_u64map__set(&s->inline_syms, h, (uint64_t)(uintptr_t)i))
		return NULL;
	return &i->sym;
}

/*
 * The frames of l's inline chain as locations (innermost first), created
 * on first use: perf's inline_list entries, each with its function and the
 * srcline addr2line gave that frame ("file:line", "??:0" without a file).
 */
static int inline_locs(struct pk_session *s, struct sess_loc *l, const struct pk_srcline *inl)
{
	if (inl->nr_frames > UINT16_MAX - 1)
		return -ENOMEM;
	uint32_t first = (uint32_t)s->nr_locs;
	for (size_t d = 0; d < inl->nr_frames; d++) {
		const struct pk_srcline_frame *fr = &inl->frames[d];
		const struct pk_sym *sym = inline_sym(s, l->pub.sym, fr->func);
		struct sess_loc *il = sym ? loc_alloc(s) : NULL;
		if (!il)
			return -ENOMEM;
		uint32_t id = il->pub.id;
		il->pub = l->pub;
		il->pub.id = id;
		il->pub.sym = sym;
		il->pub.inline_frame = 1;
		il->depth = (uint16_t)(d + 1);
		il->inl.sz = sizeof(il->inl);
		il->inl.nr_frames = 1;
		il->inl.frames = fr;
		il->inlines_done = 1;
		char line[24];
		snprintf(line, sizeof(line), ":%u", fr->line);
		size_t nf = strlen(fr->file_base), nl = strlen(line);
		char *sl = pk_arena__alloc(&s->arena, nf + nl + 1);
		if (!sl)
			return -ENOMEM;
		memcpy(sl, fr->file_base, nf);
		memcpy(sl + nf, line, nl + 1);
		il->srcline = sl;
		il->srcline_done = 1;
	}
	l->inl_first = first + 1;
	return 0;
}

int resolve__append_unwound(struct pk_session *s, const struct sess_thread *t, uint64_t ip,
			    size_t *n)
{
	/* perf's entry(): the frame looked up as a user address */
	struct sess_loc *l = (struct sess_loc *)resolve__loc(s, t, PERF_RECORD_MISC_USER, ip);
	if (!l)
		return -ENOMEM;
	struct pk_srcline inl = { .sz = sizeof(inl) };
	if (!(s->o.flags & PK_SESSION_NO_INLINE) && l->pub.map && l->pub.sym)
		(void)pk_session__loc_inlines(s, &l->pub, &inl);
	if (chain_reserve(s, *n + (inl.nr_frames ? inl.nr_frames : 1)))
		return -ENOMEM;
	if (!inl.nr_frames) {
		/* no inline chain (addr2line found nothing): the frame itself */
		s->chain[(*n)++] = &l->pub;
		return 0;
	}
	if (!l->inl_first && inline_locs(s, l, &inl))
		return -ENOMEM;
	for (size_t d = 0; d < inl.nr_frames; d++)
		s->chain[(*n)++] = &s->locs[l->inl_first - 1 + d]->pub;
	return 0;
}

size_t pk_session__nr_locs(const struct pk_session *s)
{
	return s->nr_locs;
}

const struct pk_loc *pk_session__loc_at(const struct pk_session *s, uint32_t id)
{
	return id < s->nr_locs ? &s->locs[id]->pub : NULL;
}

const struct pk_loc *pk_session__loc(struct pk_session *s, const struct pk_thread *t,
				     uint8_t cpumode, uint64_t ip)
{
	return resolve__loc(s, (const struct sess_thread *)t, cpumode, ip);
}

#define IPCACHE_SIZE 4096u

/* resolve__loc of a sample's ip through the direct-mapped cache */
static const struct pk_loc *ipcache_loc(struct pk_session *s, const struct sess_thread *t,
					uint8_t cpumode, uint64_t ip)
{
	if (!s->ipc && !(s->ipc = calloc(IPCACHE_SIZE, sizeof(*s->ipc))))
		return resolve__loc(s, t, cpumode, ip);
	struct sess_ipcache *c = &s->ipc[(ip ^ (ip >> 12) ^ cpumode) & (IPCACHE_SIZE - 1)];
	if (c->loc && c->ip == ip && c->maps == t->maps && c->cpumode == cpumode &&
	    c->epoch == s->maps_epoch)
		return c->loc;
	const struct pk_loc *l = resolve__loc(s, t, cpumode, ip);
	*c = (struct sess_ipcache){ .ip = ip, .epoch = s->maps_epoch, .maps = t->maps, .loc = l,
				    .cpumode = cpumode };
	return l;
}

/* The caller cache of resolve_callchain ready for a chain of nr entries of t's address space. */
static int ccache_start(struct pk_session *s, const struct sess_thread *t, uint64_t nr)
{
	if (s->cc_maps != t->maps || s->cc_epoch != s->maps_epoch) {
		s->cc_nr = 0;
		s->cc_maps = t->maps;
		s->cc_epoch = s->maps_epoch;
	}
	if (nr <= s->cc_nr)
		return 0;
	if (PK_GROW(s->cc, s->cc_cap, nr))
		return -ENOMEM;
	memset(s->cc + s->cc_nr, 0, (nr - s->cc_nr) * sizeof(*s->cc));
	s->cc_nr = nr;
	return 0;
}

/* resolve__loc through the caller cache: k is the entry's distance from the root end */
static const struct pk_loc *ccache_loc(struct pk_session *s, const struct sess_thread *t,
				       uint8_t cpumode, uint64_t ip, uint64_t k)
{
	struct sess_ccache *c = &s->cc[k];
	if (c->loc && c->ip == ip && c->cpumode == cpumode && s->cc_epoch == s->maps_epoch)
		return c->loc;
	const struct pk_loc *l = resolve__loc(s, t, cpumode, ip);
	/* a lookup that moved the kernel's map (its fixup) invalidated the cache */
	if (s->cc_epoch == s->maps_epoch)
		*c = (struct sess_ccache){ .ip = ip, .loc = l, .cpumode = cpumode };
	return l;
}

/*
 * perf's thread__resolve_callchain_sample, no branch stacks: the entries into
 * s->chain (callee first), *n of them. Past max_stack entries perf keeps the
 * ones nearest the sample in callee order, those nearest the root in caller
 * order (root_first): it walks the chain from that end.
 */
static int resolve_callchain(struct pk_session *s, const struct sess_thread *t,
			     const struct pk_sample *smp, bool root_first, size_t *nout)
{
	uint64_t nr = smp->callchain.nr;
	const uint64_t *ips = smp->callchain.ips;
	unsigned max_stack = s->o.max_stack ? s->o.max_stack : SESS_DEFAULT_MAX_STACK;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	size_t n = 0, entries = 0;
	uint64_t from = 0;	/* root_first: the first entry kept */
	if (root_first) {
		size_t k = 0;
		for (from = nr; from > 0 && k < max_stack; from--)
			k += ips[from - 1] < PERF_CONTEXT_MAX;
	}
	if (chain_reserve(s, nr < max_stack ? nr : max_stack) || ccache_start(s, t, nr))
		return -ENOMEM;
	for (uint64_t i = 0; i < nr && entries < max_stack; i++) {
		uint64_t ip = ips[i];
		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				continue;
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				continue;
			case PERF_CONTEXT_USER:
				cpumode = PERF_RECORD_MISC_USER;
				continue;
			default:
				if (i < from)
					continue;	/* a part perf does not walk */
				/*
				 * perf: "invalid callchain context", the chain is
				 * discarded (the unwound frames still follow)
				 */
				s->st.nr_corrupt_chains++;
				*nout = 0;
				return 0;
			}
		}
		if (i < from)
			continue;
		entries++;
		const struct pk_loc *l = ccache_loc(s, t, cpumode, ip, nr - 1 - i);
		if (!l)
			return -ENOMEM;
		s->chain[n++] = l;
	}
	*nout = n;
	return 0;
}

/*
 * perf's resolve_lbr_callchain_sample (no --stitch-lbr): for an
 * event recorded with --call-graph lbr (PERF_SAMPLE_BRANCH_CALL_STACK), the
 * kernel's chain up to its PERF_CONTEXT_USER, then the LBR's first target and
 * every entry's source. *nout stays 0 when the chain has no user part among
 * its first max_stack entries: perf then walks it as any other.
 */
static int resolve_lbr_callchain(struct pk_session *s, const struct sess_thread *t,
				 const struct pk_sample *smp, bool root_first, size_t *nout)
{
	uint64_t nr = smp->callchain.nr, u, lbr = smp->branch.nr;
	const uint64_t *ips = smp->callchain.ips;
	unsigned max_stack = s->o.max_stack ? s->o.max_stack : SESS_DEFAULT_MAX_STACK;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	size_t n = 0;
	if (nr > max_stack)
		nr = max_stack;
	for (u = 0; u < nr && ips[u] != PERF_CONTEXT_USER; u++)
		;
	*nout = 0;
	if (u == nr)
		return 0;
	if (chain_reserve(s, (size_t)(u + 2 + lbr)))
		return -ENOMEM;
	/*
	 * The kernel part: perf walks it from the root in caller order, starting
	 * after the PERF_CONTEXT_USER, so its addresses are looked up as the
	 * user's (they print unresolved); callee first, with the kernel's mode.
	 */
	size_t nk = 0;
	for (uint64_t j = 0; j <= u; j++) {
		uint64_t i = root_first ? u - j : j, ip = ips[i];
		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
				  ip == PERF_CONTEXT_HV ? PERF_RECORD_MISC_HYPERVISOR :
				  ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER : cpumode;
			continue;
		}
		if (!(s->chain[nk++] = resolve__loc(s, t, cpumode, ip)))
			return -ENOMEM;
	}
	for (size_t i = 0; root_first && i < nk / 2; i++) {
		const struct pk_loc *l = s->chain[i];
		s->chain[i] = s->chain[nk - 1 - i];
		s->chain[nk - 1 - i] = l;
	}
	n = nk;
	for (uint64_t i = 0; i <= lbr && lbr; i++) {
		uint64_t ip = i ? smp->branch.entries[i - 1].from : smp->branch.entries[0].to;
		if (!(s->chain[n++] = resolve__loc(s, t, PERF_RECORD_MISC_USER, ip)))
			return -ENOMEM;
	}
	*nout = n;
	return 0;
}

/*
 * perf's machine__addr_cpumode: on a machine with one address space for
 * kernel and user (every arch but sparc), an address at or above the
 * kernel's start (x86_64: 2^63; others: the kernel map's start) is the
 * kernel's, any other the user's.
 */
static uint8_t addr_cpumode(struct pk_session *s, uint8_t cpumode, uint64_t addr)
{
	const struct pk_data_env *env = pk_data_reader__env(s->r);
	const char *arch = env && env->arch ? env->arch : "";
	if (!strcmp(arch, "sparc") || !strcmp(arch, "sparc64"))
		return cpumode;
	uint64_t kstart = UINT64_C(1) << 63;
	if (strcmp(arch, "x86_64") && s->kernel_map)
		kstart = s->kernel_map->pub.start;
	bool kernel = addr >= kstart;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_USER:
		return kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
		return kernel ? PERF_RECORD_MISC_GUEST_KERNEL : PERF_RECORD_MISC_GUEST_USER;
	default:
		return cpumode;
	}
}

static int resolve(struct pk_session *s, const struct pk_data_event *ev, unsigned flags,
		   struct pk_resolved *out, struct pk_error *err)
{
	const struct pk_sample *smp = &ev->sample;
	out->ev = ev;
	out->sample = smp;
	out->attr = ev->attr;
	out->data_attr = pk_session__attr(s, ev->attr);
	out->cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	out->addr_loc = NULL;
	out->nr_chain = 0;
	out->chain = s->chain;
	struct sess_thread *t = machine__findnew_thread(s, smp->pid, smp->tid);
	if (!t)
		goto nomem;
	out->thread = &t->pub;
	out->comm = t->pub.comm;
	out->loc = ipcache_loc(s, t, out->cpumode, smp->ip);
	if (!out->loc)
		goto nomem;
	s->st.nr_samples++;
	if (!out->loc->map)
		s->st.nr_unresolved_maps++;
	if ((flags & PK_RESOLVE_ADDR) && (smp->sample_type & PERF_SAMPLE_ADDR)) {
		out->addr_loc = resolve__loc(s, t, out->cpumode, smp->addr);
		if (!out->addr_loc)
			goto nomem;
		/* perf's thread__find_map_fb: no map there, so try the mode the address is in */
		uint8_t am = addr_cpumode(s, out->cpumode, smp->addr);
		if (!out->addr_loc->map && am != out->cpumode &&
		    !(out->addr_loc = resolve__loc(s, t, am, smp->addr)))
			goto nomem;
	}
	if ((flags & PK_RESOLVE_CALLCHAIN) && (smp->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		/* perf's thread__resolve_callchain, callee order: the kernel's, then the unwound */
		size_t n = 0;
		const struct pk_data_attr *a =
			ev->attr >= 0 ? pk_data_reader__attr(s->r, (size_t)ev->attr) : NULL;
		bool lbr = a && (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
			   (smp->sample_type & PERF_SAMPLE_BRANCH_STACK);
		if (lbr && resolve_lbr_callchain(s, t, smp, flags & PK_RESOLVE_CALLER_ORDER, &n))
			goto nomem;
		if (!n && (resolve_callchain(s, t, smp, flags & PK_RESOLVE_CALLER_ORDER, &n) ||
			   unwind__append(s, t, smp, &n)))
			goto nomem;
		out->chain = s->chain;
		out->nr_chain = n;
	}
	return 0;
nomem:
	return pk_error__set(err, -ENOMEM, "", 0, 0, "offset %#llx: out of memory resolving a sample",
			     (unsigned long long)ev->offset);
}

int pk_session__resolve(struct pk_session *s, const struct pk_data_event *ev, unsigned flags,
			struct pk_resolved *out, struct pk_error *err)
{
	if (out->sz < PK_OPTS_MIN_SZ)
		return pk_opts__error(err, "pk_resolved", out->sz);
	if (ev->type != PERF_RECORD_SAMPLE || !ev->has_sample)
		return pk_error__set(err, -EINVAL, "", 0, 0, "offset %#llx: not a sample",
				     (unsigned long long)ev->offset);
	if (out->sz >= sizeof(*out))
		return resolve(s, ev, flags, out, err);
	/* an older caller's shorter struct: only the fields within its sz */
	struct pk_resolved full = { .sz = sizeof(full) };
	int rc = resolve(s, ev, flags, &full, err);
	if (!rc)
		rc = pk_opts__fill(out, &full, sizeof(full));
	return rc;
}
