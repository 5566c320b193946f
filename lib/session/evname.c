/* SPDX-License-Identifier: MIT */
/*
 * session/evname.c — perf's name of an event recorded without one (no
 * EVENT_DESC, no EVENT_UPDATE name): evsel__name's rules, the symbolic
 * hardware/software/cache name, "raw 0x...", "mem:ADDR:rw" or the
 * tracepoint's "system:name" from the file's tracing data, then the
 * modifiers perf adds (":u", ":k", ":ppp", ":H"/":G").
 */
#include "session/session_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include <pmukit/event_names.h>

/* perf's evsel__hw_names and evsel__sw_names (index = config) */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

/* perf's evsel__add_modifiers */
static size_t add_modifiers(const struct perf_event_attr *a, char *bf, size_t size, size_t r)
{
	size_t colon = 0;
	bool exclude_guest_default = false;
#define MOD_PRINT(ctx, mod)                                                  \
	do {                                                                 \
		if (!a->exclude_##ctx && r + 1 < size) {                     \
			if (!colon)                                          \
				colon = ++r;                                 \
			r += (size_t)snprintf(bf + r, size - r, "%c", mod); \
		}                                                            \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD_PRINT(kernel, 'k');
		MOD_PRINT(user, 'u');
		MOD_PRINT(hv, 'h');
		exclude_guest_default = true;
	}
	if (a->precise_ip && r + 4 < size) {
		if (!colon)
			colon = ++r;
		r += (size_t)snprintf(bf + r, size - r, "%.*s", (int)a->precise_ip, "ppp");
		exclude_guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == exclude_guest_default) {
		MOD_PRINT(host, 'H');
		MOD_PRINT(guest, 'G');
	}
#undef MOD_PRINT
	if (colon)
		bf[colon - 1] = ':';
	if (r >= size)
		r = size - 1;
	bf[r] = '\0';
	return r;
}

const char *evname__derive(struct pk_session *s, const struct pk_data_attr *da)
{
	const struct perf_event_attr *a = &da->attr;
	char bf[256];
	size_t r = 0;
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (a->config < sizeof(hw_names) / sizeof(hw_names[0]))
			r = (size_t)snprintf(bf, sizeof(bf), "%s", hw_names[a->config]);
		else
			r = (size_t)snprintf(bf, sizeof(bf), "unknown-hardware");
		r = add_modifiers(a, bf, sizeof(bf), r);
		break;
	case PERF_TYPE_SOFTWARE:
		if (a->config < sizeof(sw_names) / sizeof(sw_names[0]))
			r = (size_t)snprintf(bf, sizeof(bf), "%s", sw_names[a->config]);
		else
			r = (size_t)snprintf(bf, sizeof(bf), "unknown-software");
		r = add_modifiers(a, bf, sizeof(bf), r);
		break;
	case PERF_TYPE_HW_CACHE: {
		bool found = false;
		for (size_t i = 0; i < pk_symbols__nr_cache(); i++) {
			if (pk_symbols__cache(i, bf, sizeof(bf)) == a->config) {
				found = true;
				break;
			}
		}
		if (!found)
			snprintf(bf, sizeof(bf), "invalid-cache");
		r = add_modifiers(a, bf, sizeof(bf), strlen(bf));
		break;
	}
	case PERF_TYPE_RAW:
		r = (size_t)snprintf(bf, sizeof(bf), "raw 0x%" PRIx64, (uint64_t)a->config);
		r = add_modifiers(a, bf, sizeof(bf), r);
		break;
	case PERF_TYPE_BREAKPOINT: {
		char rwx[4];
		int n = 0;
		if (a->bp_type & HW_BREAKPOINT_R)
			rwx[n++] = 'r';
		if (a->bp_type & HW_BREAKPOINT_W)
			rwx[n++] = 'w';
		if (a->bp_type & HW_BREAKPOINT_X)
			rwx[n++] = 'x';
		rwx[n] = '\0';
		r = (size_t)snprintf(bf, sizeof(bf), "mem:0x%" PRIx64 ":%s", (uint64_t)a->bp_addr, rwx);
		r = add_modifiers(a, bf, sizeof(bf), r);
		break;
	}
	case PERF_TYPE_TRACEPOINT: {
		const struct pk_tp_format *f = pk_data_reader__tp_format(s->r, a->config);
		if (f)
			snprintf(bf, sizeof(bf), "%s:%s", f->system, f->name);
		else
			snprintf(bf, sizeof(bf), "unknown tracepoint");
		break;
	}
	default:
		snprintf(bf, sizeof(bf), "unknown attr type: %u", a->type);
		break;
	}
	(void)r;
	return pk_arena__strdup(&s->arena, bf);
}
