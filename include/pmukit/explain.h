/* SPDX-License-Identifier: MIT */
/*
 * pmukit/explain.h — what a perf_event_attr means: which privilege levels it
 * counts (and, on arm64, which exception levels for a VHE host, a non-VHE
 * host and a guest, after Documentation/arch/arm64/perf.rst), arm64 counting
 * thresholds, Intel auto counter reload in words, and which table event a raw
 * configuration is.
 */
#ifndef PMUKIT_EXPLAIN_H
#define PMUKIT_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <pmukit/api.h>
#include <pmukit/events.h>
#include <pmukit/pmu.h>
#include <pmukit/spec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Privilege levels and contexts an attr counts. */
struct pk_levels {
	bool user, kernel, hv;	/* not excluded by exclude_user/kernel/hv */
	bool host, guest;	/* not excluded by exclude_host/guest */
	bool idle;		/* not excluded by exclude_idle */
};
PK_API void pk_explain__levels(const struct perf_event_attr *attr, struct pk_levels *out);
/* "user, kernel and hypervisor; host and guest" into buf. */
PK_API const char *pk_explain__levels_text(const struct pk_levels *l, char *buf, size_t len);

/* Exception levels counted on arm64, per the kind of system perf runs on. */
enum pk_arm64_system {
	PK_ARM64_VHE_HOST,	/* host kernel at EL2 */
	PK_ARM64_NVHE_HOST,	/* host kernel at EL1, hypervisor at EL2 */
	PK_ARM64_GUEST,		/* perf inside a guest: EL2 is never counted */
};
struct pk_arm64_els {
	bool host_el0, host_el1, host_el2;	/* host (or, in a guest, the guest's own) levels */
	bool guest_el0, guest_el1;		/* a KVM guest's levels, seen from the host */
	bool blackout;		/* non-VHE with EL2 counted: host events missed at guest entry/exit */
};
PK_API void pk_explain__arm64_els(const struct perf_event_attr *attr, enum pk_arm64_system sys,
				  struct pk_arm64_els *out);
/* "host EL0, EL2; guest EL0, EL1" into buf. */
PK_API const char *pk_explain__arm64_text(const struct pk_arm64_els *e, enum pk_arm64_system sys,
					  char *buf, size_t len);

/* arm64 FEAT_PMUv3_TH: the threshold terms of pmu decoded from attr. */
struct pk_threshold {
	bool present;		/* the PMU has a threshold format and attr sets it (non-zero) */
	uint64_t value;
	unsigned compare;	/* 0 !=, 1 ==, 2 >=, 3 < */
	bool count;		/* count 1 per qualifying cycle instead of the event's increment */
};
PK_API void pk_explain__threshold(const struct pk_pmu *pmu, const struct perf_event_attr *attr,
				  struct pk_threshold *out);
/* "counts stall_slot by its increment on cycles where it increments by >= 2" */
PK_API const char *pk_explain__threshold_text(const struct pk_threshold *t, const char *event,
					      char *buf, size_t len);

/*
 * Intel ACR: for evsel idx of el, what its overflow reloads and when it
 * samples ("samples when instructions/cycles > 2; its overflow reloads
 * cycles"). Empty string when the event has no acr_mask.
 */
PK_API const char *pk_explain__acr_text(const struct pk_evlist *el, size_t idx, char *buf,
					size_t len);

/*
 * The first table event of model (for a PMU the table names so that pmu
 * matches it) whose encoding gives the same config and config1 on pmu's
 * formats. 0 and the event (out->sz set by the caller, as for pk_catalog__event), or -ENOENT.
 */
PK_API int pk_explain__reverse(struct pk_catalog *cat, size_t model, const struct pk_pmu *pmu,
			       const struct perf_event_attr *attr, struct pk_event *out);

#ifdef __cplusplus
}
#endif
#endif
