/* SPDX-License-Identifier: MIT */
/*
 * session/session_int.h — what the session's files share: the session
 * object, threads and their address spaces (machine.c), interned locations
 * (resolve.c), srclines and the worker pool (srcline.c, work.c), event
 * names (evname.c).
 */
#ifndef PMUKIT_SESSION_INT_H
#define PMUKIT_SESSION_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/session.h>

#include "util/arena.h"
#include "util/u64map.h"

/* perf's PERF_MAX_STACK_DEPTH, the default of --max-stack */
#define SESS_DEFAULT_MAX_STACK 127

/* A map as the session keeps it. */
struct sess_map {
	struct pk_map pub;		/* first: a pk_map * is a sess_map * */
	uint64_t delta;			/* rip = ip - delta (perf's map_ip, linear in ip) */
	const char *filename;		/* as recorded (arena) */
};

/* An address space: the maps of one process (shared by its threads), or the kernel's. */
struct sess_maps {
	struct sess_map **v;		/* sorted by start, not overlapping */
	size_t nr, cap;
	struct sess_maps *next_all;	/* every address space, for freeing */
};

struct sess_thread {
	struct pk_thread pub;		/* first */
	struct sess_maps *maps;
};

/* A location with its lazily computed srcline state. */
struct sess_loc {
	struct pk_loc pub;		/* first */
	uint8_t srcline_done, inlines_done;
	/*
	 * 0: a location of the hash table; d + 1: frame d of the inline chain of
	 * an unwound callchain entry (resolve__append_unwound), not in the table
	 */
	uint16_t depth;
	int inlines_err;
	/* depth 0: id + 1 of the first of its inline frames (they follow in id order), 0 none yet */
	uint32_t inl_first;
	const char *srcline;
	struct pk_srcline inl;
};

/* A slot of the locations' table: the key and its location (NULL: empty). */
struct sess_lslot {
	uint64_t ip;
	const struct pk_map *map;
	struct sess_loc *loc;
	uint8_t cpumode;
};

/* A build-id from the file's table, sorted by filename for lookups. */
struct sess_bid {
	const char *filename;
	uint8_t id[20];		/* a copy: the reader's array moves as pipe-mode build-ids arrive */
	uint8_t size;
	bool kernel;
};

struct sess_workers;
struct sess_unwind;

struct pk_session {
	struct pk_session_opts o;
	struct pk_data_reader *r;
	struct pk_symbolizer *sym;
	bool own_reader;
	char *path;			/* as opened (NULL: an fd) */
	int fd;				/* the fd opened with, or 0 for "-" */
	size_t nr_warned;		/* the reader's warnings printed so far */
	uint32_t aux_type;		/* AUXTRACE_INFO's PERF_AUXTRACE_* (0: none) */
	struct pk_arena arena;		/* threads, maps, comms, names, locs */

	/* threads */
	struct pk_u64map tids;		/* tid -> id in threads */
	struct sess_thread **threads;
	size_t nr_threads, cap_threads;
	struct sess_thread *last_thread;	/* machine__findnew_thread's last (a live one) */
	struct sess_maps *all_maps;	/* every address space (list) */
	struct sess_maps kmaps;		/* the kernel's (host) */
	struct pk_dso *kernel;		/* [kernel.kallsyms] once known */
	struct sess_map *kernel_map;	/* its map in kmaps (modules have their own) */
	bool in_task_record;		/* processing a COMM, FORK or EXIT: threads met are task_seen */
	bool kernel_map_fixed;		/* its end moved to its symbols' (machine__kernel_map_fixup) */
	uint32_t nr_maps;

	/* comms, interned */
	struct pk_u64map comms;		/* string hash -> chain of comm nodes */

	/* build-ids */
	struct sess_bid *bids;
	size_t nr_bids, cap_bids;
	size_t bids_seen;		/* reader entries taken so far */
	bool bids_sorted;

	/* locations */
	struct sess_loc **locs;
	size_t nr_locs, cap_locs;
	struct sess_lslot *lhash;	/* open addressing, at most half full */
	size_t lhash_cap;
	struct sess_map nomap;		/* key for addresses outside every map */

	/* callchain cursor */
	const struct pk_loc **chain;
	size_t cap_chain;
	/*
	 * The addresses of the callchains resolved before, by distance from the
	 * root end: consecutive samples share most of their callers, whose
	 * locations are then taken from here without a map or hash lookup.
	 * Valid for one address space (cc_maps) while no map changes (epoch).
	 */
	struct sess_ccache {
		uint64_t ip;
		const struct pk_loc *loc;	/* NULL: nothing here */
		uint8_t cpumode;
	} *cc;
	size_t cc_nr, cc_cap;
	const struct sess_maps *cc_maps;
	uint64_t cc_epoch;
	uint64_t maps_epoch;		/* bumped whenever a map is added, moved or cut */
	/*
	 * The samples' own addresses: a direct-mapped cache of locations by
	 * (address space, ip, cpumode), each entry valid in its epoch (a sample
	 * then costs no map search and no probe of the locations' table).
	 */
	struct sess_ipcache {
		uint64_t ip, epoch;
		const struct sess_maps *maps;
		const struct pk_loc *loc;	/* NULL: empty */
		uint8_t cpumode;
	} *ipc;
	/* perf's inlined symbols of unwound frames: hash of (symbol, name) -> chain of them */
	struct pk_u64map inline_syms;
	struct sess_unwind *unwind;	/* NULL until a sample has a user stack dump */

	/* event names by attr */
	const char **evnames;
	size_t nr_evnames, cap_evnames;

	/* PERF_RECORD_LOST_SAMPLES counts by attr (perf's per-evsel nr_lost_samples) */
	uint64_t *lost;
	size_t nr_lost, cap_lost;

	struct pk_session_stats st;
	struct sess_workers *workers;	/* NULL with nr_threads 1 */
};

/* attrs.c */
int attrs__lost_samples(struct pk_session *s, const struct pk_data_event *ev);

/* machine.c */
int machine__init(struct pk_session *s);
void machine__fini(struct pk_session *s);
int machine__process(struct pk_session *s, const struct pk_data_event *ev, struct pk_error *err);
struct sess_thread *machine__findnew_thread(struct pk_session *s, int32_t pid, int32_t tid);
struct sess_thread *machine__find_thread(const struct pk_session *s, int32_t tid);
const struct sess_map *maps__find(const struct sess_maps *m, uint64_t addr);
/* perf's thread__find_map: the maps searched for cpumode, level */
const struct sess_maps *machine__maps_for(struct pk_session *s, const struct sess_thread *t,
					  uint8_t cpumode, char *level);
bool machine__kernel_map_fixup(struct pk_session *s);
const char *machine__intern_comm(struct pk_session *s, const char *comm);
void machine__take_build_ids(struct pk_session *s);

/* resolve.c */
const struct pk_loc *resolve__loc(struct pk_session *s, const struct sess_thread *t,
				  uint8_t cpumode, uint64_t ip);
void resolve__fini(struct pk_session *s);
/*
 * An unwound user-space frame at ip appended to s->chain at *n (grown):
 * perf's unwind_entry, with the frame's inline chain in its place as
 * append_inlines puts it (unless PK_SESSION_NO_INLINE). 0 or -ENOMEM.
 */
int resolve__append_unwound(struct pk_session *s, const struct sess_thread *t, uint64_t ip,
			    size_t *n);

/* unwind.c */
/*
 * perf's thread__resolve_callchain_unwind: the user frames of a sample
 * with a register and stack dump, appended to s->chain at *n (callee
 * first, the sample's user ip first). 0, or -ENOMEM.
 */
int unwind__append(struct pk_session *s, const struct sess_thread *t, const struct pk_sample *smp,
		   size_t *n);
void unwind__fini(struct pk_session *s);

/* srcline.c / work.c */
int workers__new(struct pk_session *s);
void workers__free(struct pk_session *s);
/* Load a DSO's symbols in the background (no-op without workers). */
void workers__prefetch(struct pk_session *s, struct pk_dso *d);
/* Run fn(arg, i) for i in [0, n) on the workers and the caller; returns when all are done. */
void workers__run(struct pk_session *s, size_t n, void (*fn)(void *arg, size_t i), void *arg);

/* evname.c */
const char *evname__derive(struct pk_session *s, const struct pk_data_attr *a);

#endif
