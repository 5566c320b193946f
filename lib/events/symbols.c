/* SPDX-License-Identifier: MIT */
/*
 * events/symbols.c — perf's symbolic hardware/software/tool events and the
 * generic cache event names, as perf spells and encodes them.
 */
#include <pmukit/event_names.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <linux/perf_event.h>

static const struct pk_symbol symbols[] = {
	{ "cpu-cycles", "cycles", PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PK_SYMBOL_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "alignment-faults", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "bpf-output", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CGROUP_SWITCHES },
	{ "context-switches", "cs", PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-clock", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "cpu-migrations", "migrations", PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "dummy", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "emulation-faults", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_EMULATION_FAULTS },
	{ "major-faults", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "minor-faults", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "page-faults", "faults", PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "task-clock", NULL, PK_SYMBOL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "duration_time", NULL, PK_SYMBOL_TOOL, 0, 1 },
	{ "user_time", NULL, PK_SYMBOL_TOOL, 0, 2 },
	{ "system_time", NULL, PK_SYMBOL_TOOL, 0, 3 },
};

size_t pk_symbols__count(void)
{
	return sizeof(symbols) / sizeof(symbols[0]);
}

const struct pk_symbol *pk_symbols__get(size_t idx)
{
	return idx < pk_symbols__count() ? &symbols[idx] : NULL;
}

const struct pk_symbol *pk_symbols__find(const char *name)
{
	/* symbols start with a lower-case letter and have no '.': table names do */
	if (!(name[0] >= 'a' && name[0] <= 'z') || strchr(name, '.'))
		return NULL;
	for (size_t i = 0; i < pk_symbols__count(); i++) {
		const struct pk_symbol *s = &symbols[i];
		if ((s->name[0] == name[0] && !strcmp(s->name, name)) ||
		    (s->alias && s->alias[0] == name[0] && !strcmp(s->alias, name)))
			return s;
	}
	return NULL;
}

/* Aliases per cache, op and result; the first is the canonical spelling. */
static const char *const caches[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const ops[][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const results[][5] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
/* Which ops each cache supports (bit per op), as perf's validity table says. */
static const unsigned char valid_ops[] = { 7, 5, 7, 7, 1, 1, 7 };

#define NR_CACHES (sizeof(caches) / sizeof(caches[0]))
#define NR_OPS (sizeof(ops) / sizeof(ops[0]))
#define NR_RESULTS (sizeof(results) / sizeof(results[0]))

/* Match one of names[] as a prefix of s ending at '-' or NUL; longest match wins. */
static int match_word(const char *const names[5], const char **s)
{
	size_t best = 0;
	for (int i = 0; i < 5 && names[i]; i++) {
		size_t n = strlen(names[i]);
		if (n > best && !strncasecmp(*s, names[i], n) && ((*s)[n] == '-' || !(*s)[n]))
			best = n;
	}
	if (!best)
		return 0;
	*s += best;
	return 1;
}

static int find_word(const char *const table[][5], size_t n, const char **s)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = *s;
		if (match_word(table[i], &p)) {
			*s = p;
			return (int)i;
		}
	}
	return -1;
}

int pk_symbols__parse_cache(const char *name, uint64_t *config)
{
	if (strpbrk(name, "._/:"))	/* cache names are letters, digits and '-' only */
		return -ENOENT;
	const char *s = name;
	int cache = find_word(caches, NR_CACHES, &s);
	if (cache < 0)
		return -ENOENT;
	int op = -1, result = -1;
	/* perf accepts CACHE-OP-RESULT, CACHE-RESULT-OP, CACHE-OP, CACHE-RESULT */
	for (int i = 0; i < 2 && *s == '-'; i++) {
		s++;
		int k;
		if (op < 0 && (k = find_word(ops, NR_OPS, &s)) >= 0)
			op = k;
		else if (result < 0 && (k = find_word(results, NR_RESULTS, &s)) >= 0)
			result = k;
		else
			return -ENOENT;
	}
	if (*s)
		return -ENOENT;
	if (op < 0)
		op = 0;
	if (result < 0)
		result = 0;
	if (!(valid_ops[cache] & (1u << op)))
		return -EINVAL;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)result << 16;
	return 0;
}

size_t pk_symbols__nr_cache(void)
{
	size_t n = 0;
	for (size_t c = 0; c < NR_CACHES; c++)
		n += (size_t)__builtin_popcount(valid_ops[c]) * NR_RESULTS;
	return n;
}

uint64_t pk_symbols__cache(size_t idx, char *buf, size_t len)
{
	for (size_t c = 0; c < NR_CACHES; c++)
		for (size_t o = 0; o < NR_OPS; o++) {
			if (!(valid_ops[c] & (1u << o)))
				continue;
			for (size_t r = 0; r < NR_RESULTS; r++, idx--) {
				if (idx)
					continue;
				if (r == 0)	/* accesses: "L1-dcache-loads" */
					snprintf(buf, len, "%s-%s", caches[c][0], ops[o][1]);
				else
					snprintf(buf, len, "%s-%s-%s", caches[c][0], ops[o][0],
						 results[r][0]);
				return (uint64_t)c | (uint64_t)o << 8 | (uint64_t)r << 16;
			}
		}
	if (len)
		buf[0] = '\0';
	return UINT64_MAX;
}
