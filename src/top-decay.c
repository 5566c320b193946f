/* SPDX-License-Identifier: MIT */
/*
 * top-decay.c — perf top's history without -z: at each refresh perf decays
 * its entries' periods by 7/8 (hists__decay_entries) and drops those that
 * reach 0, so that a refresh shows its own samples over the decayed older
 * ones. pmukit top makes a new pk_report each window, so the history is
 * kept here: the window's samples as classes (same thread, comm, cpumode,
 * function and callchain functions: what the report's entries and
 * callchains show; with an address-level sort key such as srcline the same
 * addresses) with their summed period and the first sample's locations, and each window's report gets the older
 * classes added back with their decayed period (one sample each) before it
 * is finished. Then every class's period (and count) becomes
 * (old + this window's) * 7 / 8, as perf's he_stat__decay.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

struct cls {
	int attr;
	uint8_t cpumode;
	int32_t cpu;
	const struct pk_thread *thread;
	const char *comm;
	const struct pk_loc *loc;
	size_t chain_at, nr_chain;	/* in top_decay.chains */
	uint64_t ip, addr, sample_type;
	int32_t pid, tid;
	uint64_t period, count;		/* the older windows', decayed */
	uint64_t cur_period, cur_count;	/* this window's */
};

struct top_decay {
	struct cls *cls;
	size_t nr, cap;
	const struct pk_loc **chains;
	size_t nr_chains, cap_chains;
	uint32_t *slot;			/* open addressing: class index + 1, 0 empty */
	size_t nr_slots;		/* a power of two, at least twice nr */
	bool exact;			/* classes of addresses, not of functions */
};

/* what tells two locations apart: their function (unless exact), else the location */
static uintptr_t key(const struct top_decay *d, const struct pk_loc *l)
{
	return !d->exact && l && l->sym ? (uintptr_t)l->sym : (uintptr_t)l;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t hash_of(const struct top_decay *d, int attr, const struct pk_thread *thread,
			const char *comm, const struct pk_loc *loc, uint8_t cpumode,
			const struct pk_loc *const *chain, size_t nr_chain)
{
	uint64_t h = mix((uint64_t)attr, (uint64_t)(uintptr_t)thread);
	h = mix(h, (uint64_t)(uintptr_t)comm);
	h = mix(h, (uint64_t)key(d, loc) ^ cpumode);
	for (size_t i = 0; i < nr_chain; i++)
		h = mix(h, (uint64_t)key(d, chain[i]));
	return h;
}

static uint64_t hash_cls(const struct top_decay *d, const struct cls *c)
{
	return hash_of(d, c->attr, c->thread, c->comm, c->loc, c->cpumode, d->chains + c->chain_at,
		       c->nr_chain);
}

static bool same(const struct top_decay *d, const struct cls *c, const struct pk_resolved *rs)
{
	if (c->attr != rs->attr || c->thread != rs->thread || c->comm != rs->comm ||
	    key(d, c->loc) != key(d, rs->loc) || c->cpumode != rs->cpumode || c->nr_chain != rs->nr_chain)
		return false;
	for (size_t i = 0; i < c->nr_chain; i++)
		if (key(d, d->chains[c->chain_at + i]) != key(d, rs->chain[i]))
			return false;
	return true;
}

/* the slots again for nr_slots (a power of two above 2 * nr): 0 or -ENOMEM */
static int rehash(struct top_decay *d, size_t nr_slots)
{
	uint32_t *s = calloc(nr_slots, sizeof(*s));
	if (!s)
		return -ENOMEM;
	free(d->slot);
	d->slot = s;
	d->nr_slots = nr_slots;
	for (size_t i = 0; i < d->nr; i++) {
		size_t k = (size_t)hash_cls(d, &d->cls[i]) & (nr_slots - 1);
		while (s[k])
			k = (k + 1) & (nr_slots - 1);
		s[k] = (uint32_t)i + 1;
	}
	return 0;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : 256;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

int top_decay__sample(struct top_decay **dp, const struct pk_resolved *rs, bool exact)
{
	struct top_decay *d = *dp;
	if (!d && !(d = *dp = calloc(1, sizeof(*d))))
		return -ENOMEM;
	d->exact = exact;
	if ((d->nr + 1) * 2 > d->nr_slots && rehash(d, d->nr_slots ? d->nr_slots * 2 : 1024))
		return -ENOMEM;
	size_t k = (size_t)hash_of(d, rs->attr, rs->thread, rs->comm, rs->loc, rs->cpumode, rs->chain,
				   rs->nr_chain) & (d->nr_slots - 1);
	for (; d->slot[k]; k = (k + 1) & (d->nr_slots - 1)) {
		struct cls *c = &d->cls[d->slot[k] - 1];
		if (same(d, c, rs)) {
			c->cur_period += rs->sample->period;
			c->cur_count++;
			return 0;
		}
	}
	if (grow((void **)&d->cls, &d->cap, d->nr + 1, sizeof(*d->cls)) ||
	    grow((void **)&d->chains, &d->cap_chains, d->nr_chains + rs->nr_chain, sizeof(*d->chains)))
		return -ENOMEM;
	const struct pk_sample *smp = rs->sample;
	d->cls[d->nr] = (struct cls){ .attr = rs->attr, .cpumode = rs->cpumode, .cpu = smp->cpu,
		.thread = rs->thread, .comm = rs->comm, .loc = rs->loc, .chain_at = d->nr_chains,
		.nr_chain = rs->nr_chain, .ip = smp->ip, .addr = smp->addr,
		.sample_type = smp->sample_type & ~(uint64_t)PERF_SAMPLE_READ, .pid = smp->pid,
		.tid = smp->tid, .cur_period = smp->period, .cur_count = 1 };
	if (rs->nr_chain)
		memcpy(d->chains + d->nr_chains, rs->chain, rs->nr_chain * sizeof(*rs->chain));
	d->nr_chains += rs->nr_chain;
	d->slot[k] = (uint32_t)++d->nr;
	return 0;
}

int top_decay__add_to(const struct top_decay *d, struct pk_session *s, struct pk_report *r,
		      struct pk_error *err)
{
	for (size_t i = 0; d && i < d->nr; i++) {
		const struct cls *c = &d->cls[i];
		if (!c->period)
			continue;	/* (this window's only: in r already) */
		struct pk_sample smp = { .sample_type = c->sample_type, .ip = c->ip, .pid = c->pid,
					 .tid = c->tid, .addr = c->addr, .cpu = c->cpu, .period = c->period };
		struct pk_resolved rs = { .sz = sizeof(rs), .sample = &smp, .attr = c->attr,
			.data_attr = pk_session__attr(s, c->attr), .thread = c->thread, .comm = c->comm,
			.cpumode = c->cpumode, .loc = c->loc, .nr_chain = c->nr_chain,
			.chain = c->nr_chain ? d->chains + c->chain_at : NULL };
		int rc = pk_report__add(r, &rs, err);
		if (rc)
			return rc;
	}
	return 0;
}

int top_decay__step(struct top_decay *d)
{
	if (!d)
		return 0;
	size_t n = 0, nc = 0;
	for (size_t i = 0; i < d->nr; i++) {
		struct cls c = d->cls[i];
		c.period = (c.period + c.cur_period) * 7 / 8;	/* perf's he_stat__decay */
		c.count = (c.count + c.cur_count) * 7 / 8;
		c.cur_period = c.cur_count = 0;
		if (!c.period)
			continue;	/* perf drops the entries that decayed to 0 */
		if (c.nr_chain)
			memmove(d->chains + nc, d->chains + c.chain_at, c.nr_chain * sizeof(*d->chains));
		c.chain_at = nc;
		nc += c.nr_chain;
		d->cls[n++] = c;
	}
	d->nr = n;
	d->nr_chains = nc;
	return rehash(d, d->nr_slots ? d->nr_slots : 1024);
}

void top_decay__free(struct top_decay *d)
{
	if (!d)
		return;
	free(d->cls);
	free(d->chains);
	free(d->slot);
	free(d);
}
