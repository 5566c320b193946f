/* SPDX-License-Identifier: MIT */
/*
 * list-desc.c — what `pmukit list --json` says of the events that have no
 * JSON description of their own: the hardware, software and tool symbols,
 * the generic cache events (described from their three parts) and
 * tracepoints (their tracefs id as perf's encoding).
 */
#include <stdio.h>
#include <string.h>

#include "list.h"

static const char *const symbol_desc[][2] = {
	{ "cpu-cycles", "CPU cycles: core clock ticks while the CPU is not halted" },
	{ "instructions", "Instructions retired" },
	{ "cache-references", "Cache accesses, usually to the last-level cache" },
	{ "cache-misses", "Cache accesses that missed, usually in the last-level cache" },
	{ "branch-instructions", "Branch instructions retired" },
	{ "branch-misses", "Branch instructions whose outcome or target was mispredicted" },
	{ "bus-cycles", "Bus cycles, which may tick at another rate than the core" },
	{ "stalled-cycles-frontend", "Cycles in which the front end (fetch, decode) issued nothing" },
	{ "stalled-cycles-backend", "Cycles in which the back end (execution) retired nothing" },
	{ "ref-cycles", "Reference cycles, at a rate frequency scaling does not change" },
	{ "alignment-faults", "Unaligned memory accesses the kernel fixed up" },
	{ "bpf-output", "Records written by BPF programs (bpf_perf_event_output)" },
	{ "cgroup-switches", "Context switches between tasks of different cgroups" },
	{ "context-switches", "Context switches" },
	{ "cpu-clock", "Time on a per-CPU high-resolution timer, in nanoseconds" },
	{ "cpu-migrations", "Moves of a task from one CPU to another" },
	{ "dummy", "Counts nothing: carries side-band records (mmap, comm) when sampling" },
	{ "emulation-faults", "Instructions the kernel emulated" },
	{ "major-faults", "Page faults that needed I/O" },
	{ "minor-faults", "Page faults served without I/O" },
	{ "page-faults", "Page faults" },
	{ "task-clock", "Time the task ran on a CPU, in nanoseconds" },
	{ "duration_time", "Wall-clock time of the run or of the interval, in nanoseconds" },
	{ "user_time", "CPU time the command spent in user mode, in nanoseconds" },
	{ "system_time", "CPU time the command spent in the kernel, in nanoseconds" },
};

const char *list_symbol_desc(const char *name)
{
	for (size_t i = 0; i < sizeof(symbol_desc) / sizeof(symbol_desc[0]); i++)
		if (!strcmp(symbol_desc[i][0], name))
			return symbol_desc[i][1];
	return NULL;
}

/* "L1-dcache-load-misses": the cache, then the operation, then the result. */
int list_cache_desc(const char *name, char *buf, size_t len)
{
	static const char *const caches[][2] = {
		{ "L1-dcache", "Level 1 data cache" }, { "L1-icache", "Level 1 instruction cache" },
		{ "LLC", "Last-level cache" }, { "dTLB", "Data TLB" }, { "iTLB", "Instruction TLB" },
		{ "branch", "Branch prediction unit" }, { "node", "Local memory (NUMA node)" },
	};
	static const char *const ops[][2] = {
		{ "loads", "loads" }, { "stores", "stores" }, { "prefetches", "prefetches" },
		{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
	};
	for (size_t c = 0; c < sizeof(caches) / sizeof(caches[0]); c++) {
		size_t cl = strlen(caches[c][0]);
		if (strncmp(name, caches[c][0], cl) || name[cl] != '-')
			continue;
		const char *rest = name + cl + 1;
		for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
			size_t ol = strlen(ops[o][0]);
			if (strncmp(rest, ops[o][0], ol))
				continue;
			if (!rest[ol])
				return snprintf(buf, len, "%s: %s", caches[c][1], ops[o][1]) < (int)len ? 0 : -1;
			if (!strcmp(rest + ol, "-misses"))
				return snprintf(buf, len, "%s: %s that missed", caches[c][1], ops[o][1]) <
					       (int)len ? 0 : -1;
		}
	}
	return -1;
}
