/* SPDX-License-Identifier: MIT */
/*
 * evspec/defaults.c — the pass that turns parsed attrs into the ones `perf
 * stat` or `perf record` (6.1) opens: stat's counting attrs (read format,
 * group reads, inherit, enable on exec unless system-wide); record's
 * sampling attrs (default 4000 Hz or -c/-F, sample type, the tracking event,
 * ids when there are several events, leader sampling for :S groups, per-event
 * period/freq/call-graph/branch/inherit/overwrite terms).
 *
 * perf_event_paranoid: perf 6.1 builds every attr as if privileged, opens
 * it, and when the kernel answers EACCES — an unprivileged user (no root, no
 * CAP_PERFMON or CAP_SYS_ADMIN) with kernel.perf_event_paranoid > 1 counting
 * the kernel — retries with exclude_kernel=1 and exclude_hv=1, unless the
 * event excludes user space. The attr perf ends up opening is that retry, so
 * the same rule is applied here, from this machine's state: the process's
 * effective uid and capabilities and /proc/sys/kernel/perf_event_paranoid.
 * $PMUKIT_PERF_PARANOID, when set, replaces the paranoid value (tests pin it
 * to -1: the privileged attrs, as perf run by root opens them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "evspec/evlist_int.h"
#include "util/sysctl.h"

/* --- the command's defaults ---------------------------------------------------------- */

enum cg_mode { CG_NONE, CG_FP, CG_DWARF, CG_LBR };
struct cg {
	bool enabled;
	enum cg_mode mode;
	uint32_t dump_size;
	uint16_t max_stack;
};

/* Registers perf asks for with DWARF unwinding (its PERF_REGS_MASK, the build machine's). */
static uint64_t user_regs_mask(void)
{
#if defined(__x86_64__)
	return ((UINT64_C(1) << 24) - 1) & ~(UINT64_C(0xf) << 12);	/* all but DS, ES, FS, GS */
#elif defined(__aarch64__)
	return (UINT64_C(1) << 33) - 1;
#else
	return 0;
#endif
}

/* The weight -W asks for: perf's arch_evsel__set_sample_weight (x86: the struct). */
static uint64_t weight_bit(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return PERF_SAMPLE_WEIGHT_STRUCT;
#else
	return PERF_SAMPLE_WEIGHT;
#endif
}

static void set_callchain(struct perf_event_attr *a, const struct cg *p)
{
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = p->max_stack;
	if (p->mode == CG_LBR && !a->exclude_user) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	if (p->mode == CG_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= user_regs_mask();
		a->sample_stack_user = p->dump_size;
		a->exclude_callchain_user = 1;
	}
}

static void reset_callchain(struct perf_event_attr *a, const struct cg *p)
{
	a->sample_type &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN;
	if (p->mode == CG_LBR) {
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type &= ~(uint64_t)(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
						     PERF_SAMPLE_BRANCH_HW_INDEX);
	}
	if (p->mode == CG_DWARF)
		a->sample_type &= ~(uint64_t)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
}

struct rec_opts {
	bool user_freq, user_interval, has_cpu, target_none, no_inherit;
	bool sample_addr, sample_weight, sample_cpu;
	bool inherit_stat, switch_events, all_user, all_kernel, delay;
	uint64_t branch_stack;
	uint64_t freq, interval;
	struct cg global;
};

/* perf's evsel__apply_config_terms. */
static void apply_cterms(const struct ev *ev, struct perf_event_attr *a, const struct rec_opts *o,
			 bool track)
{
	struct cg p = { .mode = o->global.enabled ? o->global.mode : CG_NONE };
	const char *cgbuf = NULL;
	uint64_t dump = 0, max_stack = 0;

	for (size_t i = 0; i < ev->nr_cterms; i++) {
		const struct ev_cterm *t = &ev->cterms[i];
		switch (t->kind) {
		case CT_PERIOD:
			if (!(t->weak && o->user_interval)) {
				a->sample_period = t->num;
				a->freq = 0;
				a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
			}
			break;
		case CT_FREQ:
			if (!(t->weak && o->user_freq)) {
				a->sample_freq = t->num;
				a->freq = 1;
				a->sample_type |= PERF_SAMPLE_PERIOD;
			}
			break;
		case CT_TIME:
			if (t->num)
				a->sample_type |= PERF_SAMPLE_TIME;
			else
				a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
			break;
		case CT_CALLGRAPH:
			cgbuf = t->str;
			break;
		case CT_BRANCH:
			if (t->str && strcmp(t->str, "no")) {
				uint64_t mode = a->branch_sample_type;
				a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
				if (!encode_branch_parse(t->str, &mode))
					a->branch_sample_type = mode;
			} else {
				a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
			}
			break;
		case CT_STACK_USER:
			dump = t->num;
			break;
		case CT_MAX_STACK:
			max_stack = t->num;
			break;
		case CT_INHERIT:
			a->inherit = t->num ? 1 : 0;
			break;
		case CT_OVERWRITE:
			a->write_backward = t->num ? 1 : 0;
			break;
		case CT_AUX_OUTPUT:
			a->aux_output = t->num ? 1 : 0;
			break;
		default:
			break;
		}
	}
	if (!cgbuf && !dump && !max_stack)
		return;
	bool sample_address = false;
	if (max_stack) {
		p.max_stack = (uint16_t)max_stack;
		if (!cgbuf)
			cgbuf = "fp";
	}
	if (cgbuf) {
		if (!strcmp(cgbuf, "no")) {
			p.enabled = false;
			p.mode = CG_NONE;
		} else {
			p.enabled = true;
			if (!strcmp(cgbuf, "fp")) {
				p.mode = CG_FP;
			} else if (!strcmp(cgbuf, "dwarf")) {
				p.mode = CG_DWARF;
				p.dump_size = 8192;
				sample_address = true;
			} else {
				p.mode = CG_LBR;
			}
		}
	}
	if (dump)
		p.dump_size = (uint32_t)((dump + 7) & ~UINT64_C(7));
	if (o->global.enabled)
		reset_callchain(a, &o->global);
	if (p.enabled) {
		if (sample_address) {
			a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
			a->mmap_data = track;
		}
		set_callchain(a, &p);
	}
}

static void set_sample_id(struct perf_event_attr *a, bool identifier)
{
	if (identifier) {
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	} else {
		a->sample_type |= PERF_SAMPLE_ID;
	}
	a->read_format |= PERF_FORMAT_ID;
}

/* perf's evsel__config for one event (dummy: the tracking event record adds). */
static void record_config(const struct ev *ev, struct perf_event_attr *a, const struct rec_opts *o,
			  bool leader, size_t nr_members, bool track, bool dummy, int max_precise)
{
	a->sample_id_all = 1;
	a->inherit = !o->no_inherit;
	a->write_backward = 0;
	a->read_format = PERF_FORMAT_LOST;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	if (ev && ev->sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		set_sample_id(a, false);
		if (nr_members > 1) {
			a->read_format |= PERF_FORMAT_GROUP;
			a->inherit = 0;
		}
	}
	if (!a->sample_period || o->user_freq || o->user_interval) {
		if (o->freq) {
			a->freq = 1;
			a->sample_freq = o->freq;
		} else {
			a->sample_period = o->interval;
		}
	}
	if (a->freq)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (o->sample_addr) {
		a->sample_type |= PERF_SAMPLE_ADDR;
		a->mmap_data = track;
	}
	if (o->global.enabled)
		set_callchain(a, &o->global);
	if (o->has_cpu || o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	a->sample_type |= PERF_SAMPLE_TIME;	/* perf's per-CPU default target samples time */
	if (o->sample_addr)
		a->sample_type |= PERF_SAMPLE_DATA_SRC;
	/* -W; and pmukit's :R (retire latency, perf stat --record-tpebs samples it so) */
	if (o->sample_weight || (ev && ev->pub.tpebs))
		a->sample_type |= weight_bit();
	a->task = a->mmap = a->mmap2 = a->comm = track;
	a->ksymbol = a->bpf_event = track;
	a->comm_exec = track;
	a->context_switch = track && o->switch_events;
	if (o->inherit_stat) {	/* -s */
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit_stat = 1;
	}
	if (o->branch_stack) {	/* -b, -j */
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_stack;
	}
	if (o->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	}
	if (o->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
	if (leader)
		a->disabled = 1;
	if (o->target_none && leader && !o->delay)
		a->enable_on_exec = 1;
	if (dummy)	/* record's dummy is enabled at once; -D without CPUs: at exec (perf's) */
		a->disabled = a->enable_on_exec = o->delay && !o->has_cpu;
	(void)max_precise;
	if (ev && ev->precise_max)	/* 3, then perf steps down until the PMU takes it */
		a->precise_ip = ev->max_precise >= 0 && ev->max_precise < 3 ? (unsigned)ev->max_precise : 3;
	a->read_format |= PERF_FORMAT_ID;
	if (ev)
		apply_cterms(ev, a, o, track);
	if (dummy)
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
}

static void configure_stat(struct ev **evs, size_t nr, const struct pk_spec_opts *opts)
{
	bool system_wide = opts->system_wide || !opts->workload;
	if (!system_wide) {
		/* perf stat goes system-wide when every event is uncore (or duration_time) */
		bool all = nr > 0;
		for (size_t i = 0; i < nr && all; i++)
			all = evs[i]->requires_cpu || evs[i]->duration_time;
		system_wide = all;
	}
	for (size_t i = 0; i < nr; i++) {
		struct ev *ev = evs[i];
		struct perf_event_attr *a = &ev->pub.attr;
		const struct ev *ld = evs[ev->pub.leader];
		*a = ev->attr0;
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (ld->pub.nr_members > 1)
			a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
		a->inherit = !opts->no_inherit;
		a->sample_period = 0;
		a->sample_type = PERF_SAMPLE_IDENTIFIER;
		if (ev->pub.leader == i) {
			a->disabled = 1;
			if (!system_wide)
				a->enable_on_exec = 1;
		}
	}
}

static bool configure_record(struct ev **evs, size_t nr, const struct pk_spec_opts *opts,
			     const struct ev_machine *m, struct perf_event_attr *tracking)
{
	enum cg_mode mode = CG_FP;
	if (opts->call_graph_mode == PK_CALL_GRAPH_DWARF)
		mode = CG_DWARF;
	else if (opts->call_graph_mode == PK_CALL_GRAPH_LBR)
		mode = CG_LBR;
	struct rec_opts o = {
		.user_freq = opts->freq != 0,
		.user_interval = opts->period != 0,
		.has_cpu = opts->system_wide || (!opts->workload && !opts->task_target),
		.no_inherit = opts->no_inherit,
		.freq = opts->freq ? opts->freq : 4000,
		.interval = opts->period,
		.global = { .enabled = opts->call_graph, .mode = opts->call_graph ? mode : CG_NONE },
		.sample_addr = opts->sample_addr,
		.sample_weight = opts->sample_weight,
		.sample_cpu = opts->sample_cpu,
		.inherit_stat = opts->inherit_stat,
		.switch_events = opts->switch_events,
		.all_user = opts->all_user,
		.all_kernel = opts->all_kernel,
		.delay = opts->delay,
		.branch_stack = opts->branch_stack,
	};
	if (o.global.mode == CG_DWARF) {
		/* perf: the user stack dump, rounded up to 8; dwarf unwinding wants data addresses */
		uint64_t dump = opts->call_graph_dump ? opts->call_graph_dump : 8192;
		o.global.dump_size = (uint32_t)((dump + 7) & ~UINT64_C(7));
		o.sample_addr = true;
	}
	o.target_none = !o.has_cpu && !opts->task_target;
	if (o.user_interval)
		o.freq = 0;
	if (o.freq > 100000)	/* kernel.perf_event_max_sample_rate's default caps -F */
		o.freq = 100000;
	/* a tracking dummy: system-wide or hybrid */
	bool dummy = o.has_cpu || m->hybrid || o.delay;

	for (size_t i = 0; i < nr; i++) {
		struct ev *ev = evs[i];
		const struct ev *ld = evs[ev->pub.leader];
		ev->pub.attr = ev->attr0;
		record_config(ev, &ev->pub.attr, &o, ev->pub.leader == i, ld->pub.nr_members,
			      !dummy && i == 0, false, m->max_precise);
	}
	/* leader sampling (perf's evsel__config_leader_sampling) */
	for (size_t i = 0; i < nr; i++) {
		struct ev *ev = evs[i];
		const struct ev *ld = evs[ev->pub.leader];
		if (!ld->sample_read)
			continue;
		size_t sampler = ev->pub.leader;
		if ((ld->td == TD_SLOTS || ld->mem_loads_aux) && ld->pub.nr_members > 1)
			sampler = ev->pub.leader + 1;
		if (i == sampler)
			continue;
		struct perf_event_attr *a = &ev->pub.attr;
		bool has_p = false, has_ow = false;
		for (size_t k = 0; k < ev->nr_cterms; k++) {
			has_p |= ev->cterms[k].kind == CT_PERIOD || ev->cterms[k].kind == CT_FREQ;
			has_ow |= ev->cterms[k].kind == CT_OVERWRITE;
		}
		if (!has_p) {
			a->freq = 0;
			a->sample_period = 0;
		}
		if (!has_ow)
			a->write_backward = 0;
		a->sample_type = evs[sampler]->pub.attr.sample_type | ld->pub.attr.sample_type;
	}
	/* the tracking dummy, after the list's events */
	struct perf_event_attr d = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_DUMMY,
				     .size = EV_ATTR_SIZE,
				     .sample_period = 1 };	/* perf: no freq timers for it */
	if (dummy && nr)
		record_config(NULL, &d, &o, true, 1, true, true, m->max_precise);
	/* sample ids: more than one event (the dummy counts) */
	size_t total = nr + (dummy ? 1 : 0);
	if (total > 1 && nr) {
		uint64_t st = evs[0]->pub.attr.sample_type;
		bool differ = dummy && d.sample_type != st;
		for (size_t i = 1; i < nr && !differ; i++)
			differ = evs[i]->pub.attr.sample_type != st;
		for (size_t i = 0; i < nr; i++)
			set_sample_id(&evs[i]->pub.attr, differ);
		if (dummy)
			set_sample_id(&d, differ);
	}
	if (dummy && nr && tracking) {
		*tracking = d;
		return true;
	}
	return false;
}

/* CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in /proc/self/status's CapEff. */
static bool perf_capable(void)
{
	char line[256];
	bool cap = false;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			unsigned long long v = strtoull(line + 7, NULL, 16);
			cap = (v >> 38 & 1) || (v >> 21 & 1);
			break;
		}
	fclose(f);
	return cap;
}

bool defaults_paranoid_excludes_kernel(void)
{
	int paranoid = 2;
	/* the effective uid the process started with: no system call (they are slow in VMs) */
	unsigned long euid = getauxval(AT_EUID);
	if (euid == 0)
		return false;	/* root: privileged whatever the sysctl (or $PMUKIT_PERF_PARANOID) says */
	const char *env = getenv("PMUKIT_PERF_PARANOID");
	if (env && *env) {
		paranoid = atoi(env);
	} else {
		paranoid = pk_sysctl__perf_paranoid();
	}
	if (paranoid <= 1)
		return false;
	return euid != 0 && !perf_capable();
}

/* perf's EACCES retry: the kernel left out unless the event counts the kernel only. */
static void exclude_kernel(struct perf_event_attr *a)
{
	if (!a->exclude_kernel && !a->exclude_user) {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
	}
}

bool encode_configure(struct ev **evs, size_t nr, const struct pk_spec_opts *opts,
		      const struct ev_machine *m, struct perf_event_attr *tracking)
{
	bool track = false;
	if (opts->mode == PK_SPEC_RECORD)
		track = configure_record(evs, nr, opts, m, tracking);
	else
		configure_stat(evs, nr, opts);
	if (!nr || !m->exclude_kernel)
		return track;
	for (size_t i = 0; i < nr; i++)
		exclude_kernel(&evs[i]->pub.attr);
	if (track)
		exclude_kernel(tracking);
	return track;
}
