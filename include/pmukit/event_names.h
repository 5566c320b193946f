/* SPDX-License-Identifier: MIT */
/*
 * pmukit/event_names.h — perf's symbolic event names: hardware (cycles,
 * instructions...), software (task-clock, faults...), tool (duration_time)
 * and the generic cache events (L1-dcache-load-misses...), with their
 * perf_event_attr type and config.
 */
#ifndef PMUKIT_EVENT_NAMES_H
#define PMUKIT_EVENT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pk_symbol_kind {
	PK_SYMBOL_HARDWARE,	/* PERF_TYPE_HARDWARE */
	PK_SYMBOL_SOFTWARE,	/* PERF_TYPE_SOFTWARE */
	PK_SYMBOL_TOOL,		/* computed by the tool: duration_time, user_time, system_time */
	PK_SYMBOL_HW_CACHE,	/* PERF_TYPE_HW_CACHE */
};

struct pk_symbol {
	const char *name;
	const char *alias;	/* NULL when none: "cycles" for "cpu-cycles" */
	enum pk_symbol_kind kind;
	uint32_t type;		/* perf_event_attr.type (0 for tool events) */
	uint64_t config;
};

/* Hardware, software and tool symbols in perf's list order (cache events excluded). */
PK_API size_t pk_symbols__count(void);
PK_API const struct pk_symbol *pk_symbols__get(size_t idx);
/* By name or alias, exact (perf's lexer is case-sensitive for these). */
PK_API const struct pk_symbol *pk_symbols__find(const char *name);

/*
 * Generic cache events. Names are CACHE-OP[-RESULT] with perf's aliases
 * ("L1-dcache-load-misses", "l1d-loads", "dTLB-store-miss", "branch-loads"),
 * matched case-insensitively; config = cache | op << 8 | result << 16.
 * Returns 0 or -ENOENT; -EINVAL for a combination perf refuses (L1-icache-stores).
 */
PK_API int pk_symbols__parse_cache(const char *name, uint64_t *config);
/* The canonical names of the valid combinations, in perf list's order. */
PK_API size_t pk_symbols__nr_cache(void);
/* Writes the idx-th canonical name into buf; returns its config. */
PK_API uint64_t pk_symbols__cache(size_t idx, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
