/* SPDX-License-Identifier: MIT */
/*
 * userpage.c — reading one event through its perf_event_mmap_page, the
 * protocol documented in <linux/perf_event.h>: a sequence-lock loop around
 * index / offset / pmc_width / the capability bits and the time fields, the
 * counter read through a function pointer, the raw value sign-extended from
 * pmc_width, and time_enabled/time_running extended to "now" with
 * time_offset + cyc * time_mult >> time_shift (cyc corrected by
 * time_cycles/time_mask when cap_user_time_short). Also the TopDown pair
 * read (SLOTS and PERF_METRICS under both pages' locks).
 *
 * Ordering: the kernel updates a page with ++lock, the fields, ++lock, on the
 * CPU the task runs on (the reading thread is not running meanwhile), so the
 * protocol needs only compiler barriers. We use acquire loads/fences, which
 * cost nothing on x86 and make the loop correct against a writer on another
 * CPU too (the stress test's writer thread, qemu's threads), and we retry
 * while the lock is odd (an update in flight) — bounded, so a page that never
 * settles sends the read to read(2) instead of spinning forever.
 */
#include <errno.h>
#include <string.h>

#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"

#define LOAD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* The capability bits through the uapi's own bitfields (endian-proof). */
void selfmon_caps_decode(uint64_t capabilities, struct selfmon_caps *c)
{
	struct perf_event_mmap_page p;

	p.capabilities = capabilities;
	c->user_rdpmc = p.cap_user_rdpmc;
	c->user_time = p.cap_user_time;
	c->user_time_zero = p.cap_user_time_zero;
	c->user_time_short = p.cap_user_time_short;
}

int64_t pk_userpage__sign_extend(uint64_t raw, unsigned width)
{
	uint64_t r = raw;
	int64_t out;

	if (width > 0 && width < 64) {
		uint64_t sign = 1ULL << (width - 1);
		r = raw & ((sign << 1) - 1);	/* drop bits above the width */
		r = (r ^ sign) - sign;		/* two's complement extension */
	}
	memcpy(&out, &r, sizeof(out));
	return out;
}

uint64_t pk_userpage__time_delta(uint64_t cyc, uint32_t time_mult, uint16_t time_shift,
				 uint64_t time_offset, bool cap_short, uint64_t time_cycles,
				 uint64_t time_mask)
{
	uint64_t quot, rem, frac;

	if (cap_short)
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	if (time_shift > 63)
		time_shift = 63;	/* callers refuse such pages; keep shifts defined */
	quot = cyc >> time_shift;
	rem = cyc & ((1ULL << time_shift) - 1);
#ifdef __SIZEOF_INT128__
	frac = (uint64_t)(((unsigned __int128)rem * time_mult) >> time_shift);
#else
	frac = (rem * time_mult) >> time_shift;	/* exact while time_shift <= 32 */
#endif
	return time_offset + quot * time_mult + frac;
}

int pk_userpage__read(const volatile struct perf_event_mmap_page *pc,
		      const struct pk_selfmon_ops *ops, unsigned max_retries,
		      struct pk_userpage_value *out)
{
	unsigned limit = max_retries ? max_retries : SELFMON_DEFAULT_RETRIES;
	unsigned retries = 0;

	if (!pc || !ops || !ops->read_counter)
		return PK_USERPAGE_NO_RDPMC;

	for (;;) {
		struct selfmon_caps caps;
		uint32_t seq, index, time_mult = 0;
		uint16_t width, time_shift = 0;
		uint64_t enabled, running, offset, raw = 0, cyc = 0;
		uint64_t time_offset = 0, time_cycles = 0, time_mask = ~0ULL;
		int status = PK_USERPAGE_OK;

		if (retries > limit)
			return PK_USERPAGE_BUSY;
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		if (seq & 1) {		/* an update is being written */
			retries++;
			cpu_relax();
			continue;
		}

		selfmon_caps_decode(LOAD(pc->capabilities), &caps);
		enabled = LOAD(pc->time_enabled);
		running = LOAD(pc->time_running);
		index = LOAD(pc->index);
		offset = (uint64_t)LOAD(pc->offset);
		width = LOAD(pc->pmc_width);
		if (caps.user_time && ops->read_clock) {
			time_mult = LOAD(pc->time_mult);
			time_shift = LOAD(pc->time_shift);
			time_offset = LOAD(pc->time_offset);
			if (caps.user_time_short) {
				time_cycles = LOAD(pc->time_cycles);
				time_mask = LOAD(pc->time_mask);
			}
		} else {
			caps.user_time = 0;
		}

		if (!caps.user_rdpmc)
			status = PK_USERPAGE_NO_RDPMC;
		else if (!index)
			status = PK_USERPAGE_INDEX0;
		else if (width == 0 || width > 64 || (caps.user_time && time_shift > 63))
			status = PK_USERPAGE_BAD_WIDTH;
		else if (!caps.user_time && enabled != running)
			status = PK_USERPAGE_NO_TIME;
		else {
			if (caps.user_time)
				cyc = ops->read_clock(ops->ctx);
			if (ops->read_counter(ops->ctx, index - 1, &raw))
				status = PK_USERPAGE_INSN;
		}

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (LOAD(pc->lock) != seq) {
			retries++;
			continue;
		}
		/* Everything above came from one version of the page. */
		if (status != PK_USERPAGE_OK)
			return status;

		out->count = offset + (uint64_t)pk_userpage__sign_extend(raw, width);
		if (caps.user_time) {
			uint64_t delta = pk_userpage__time_delta(cyc, time_mult, time_shift,
								 time_offset,
								 caps.user_time_short,
								 time_cycles, time_mask);
			enabled += delta;
			running += delta;	/* index != 0: the event is running */
		}
		out->enabled = enabled;
		out->running = running;
		out->index = index;
		out->seq = seq;
		out->retries = retries;
		return PK_USERPAGE_OK;
	}
}

/*
 * SLOTS and PERF_METRICS read back to back, both pages' locks unchanged
 * around the pair (topdown.txt: SLOTS first). The operands are the pages'
 * indexes - 1, which on Ice Lake and later are PK_RDPMC_SLOTS and
 * PK_RDPMC_PERF_METRICS. SLOTS is masked to its pmc_width: it counts up from
 * 0 (the kernel zeroes or restores it), it is not a period to sign-extend.
 */
int selfmon_topdown_pair(const volatile struct perf_event_mmap_page *ps,
			 const volatile struct perf_event_mmap_page *pm,
			 const struct pk_selfmon_ops *ops, unsigned max_retries,
			 struct pk_topdown_sample *s, unsigned *retries_out)
{
	unsigned limit = max_retries ? max_retries : SELFMON_DEFAULT_RETRIES;
	unsigned retries = 0;

	if (!ps || !pm || !ops || !ops->read_counter)
		return PK_USERPAGE_NO_RDPMC;
	for (;;) {
		struct selfmon_caps cs, cm;
		uint32_t seq_s, seq_m, idx_s, idx_m;
		uint16_t width;
		uint64_t slots = 0, metrics = 0;
		int status = PK_USERPAGE_OK;

		if (retries > limit)
			return PK_USERPAGE_BUSY;
		seq_s = __atomic_load_n(&ps->lock, __ATOMIC_ACQUIRE);
		seq_m = __atomic_load_n(&pm->lock, __ATOMIC_ACQUIRE);
		if ((seq_s | seq_m) & 1) {
			retries++;
			cpu_relax();
			continue;
		}
		selfmon_caps_decode(LOAD(ps->capabilities), &cs);
		selfmon_caps_decode(LOAD(pm->capabilities), &cm);
		idx_s = LOAD(ps->index);
		idx_m = LOAD(pm->index);
		width = LOAD(ps->pmc_width);
		if (!cs.user_rdpmc || !cm.user_rdpmc)
			status = PK_USERPAGE_NO_RDPMC;
		else if (!idx_s || !idx_m)
			status = PK_USERPAGE_INDEX0;
		else if (width == 0 || width > 64)
			status = PK_USERPAGE_BAD_WIDTH;
		else if (ops->read_counter(ops->ctx, idx_s - 1, &slots) ||
			 ops->read_counter(ops->ctx, idx_m - 1, &metrics))
			status = PK_USERPAGE_INSN;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (LOAD(ps->lock) != seq_s || LOAD(pm->lock) != seq_m) {
			retries++;
			continue;
		}
		if (retries_out)
			*retries_out = retries;
		if (status != PK_USERPAGE_OK)
			return status;
		if (width < 64)
			slots &= (1ULL << width) - 1;
		s->slots = slots;
		s->metrics = metrics;
		return PK_USERPAGE_OK;
	}
}
