/* SPDX-License-Identifier: MIT */
/*
 * pmukit/session.h — perf's "machine" over a perf.data reader and a
 * symbolizer: the threads of the recording (COMM, FORK, EXIT), each
 * process's maps (MMAP/MMAP2, overlaps split as perf splits them), the
 * kernel's maps ([kernel.kallsyms], modules, relocated as perf relocates
 * them), the file's build-ids; and the resolution of a sample as perf 6.1
 * resolves it (cpumode from header.misc, thread, map, DSO, symbol, offset,
 * callchain with PERF_CONTEXT_* markers, srcline and inline frames).
 *
 *   struct pk_session *s;
 *   struct pk_session_opts o = { .sz = sizeof(o), .symfs = NULL };
 *   const struct pk_data_event *ev;
 *   struct pk_resolved rs;
 *   if (pk_session__open(&s, "perf.data", &o, &err)) die(&err);
 *   while ((rc = pk_session__next(s, &ev, &err)) > 0) {   // side-band applied
 *           if (ev->type != PERF_RECORD_SAMPLE)
 *                   continue;
 *           if (pk_session__resolve(s, ev, PK_RESOLVE_CALLCHAIN, &rs, &err)) die(&err);
 *           printf("%s %d %s\n", rs.thread->comm, rs.thread->tid,
 *                  rs.loc->sym ? rs.loc->sym->name : "[unknown]");
 *           for (size_t i = 0; i < rs.nr_chain; i++)
 *                   use(rs.chain[i]);                      // callee first
 *   }
 *   pk_session__free(s);
 *
 * Locations. Every address the session resolves becomes a pk_loc, interned
 * per (map, ip) (and per cpumode for addresses outside every map): the same
 * ip in the same map gives the same pointer and the same dense id for the
 * life of the session, so aggregation can key on pointers or ids and the
 * symbol search runs once per distinct address. Resolving a sample
 * allocates nothing once its addresses have been seen.
 *
 * Threads. With opts.nr_threads > 1 (the default is 2), the reader reads
 * ahead in a thread of its own (pk_data_reader_opts.read_ahead: fetching,
 * decompressing and ordering the records), and work that is independent of
 * the order of the records runs on worker threads: the symbol tables of the
 * kernel and of every mapped code file are loaded in the background as their
 * MMAP records arrive (each once), and
 * pk_session__prepare_srclines() computes the srclines or inline frames of
 * many locations at once (one DSO per worker at a time). Results never
 * depend on the number of threads.
 *
 * Lifetimes. The event and the pk_resolved filled for it are valid until
 * the next pk_session__next(); threads, maps, locs, DSOs, symbols and every
 * string they hold live until pk_session__free(). The session owns its
 * reader and symbolizer (both reachable for direct use). One session is
 * used by one thread at a time.
 */
#ifndef PMUKIT_SESSION_H
#define PMUKIT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/api.h>
#include <pmukit/data_read.h>
#include <pmukit/error.h>
#include <pmukit/symbol.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_session;

/* pk_session_opts.flags */
enum {
	/* No symbol tables: locs get map and DSO only (sym NULL). */
	PK_SESSION_NO_SYMBOLS	= 1u << 0,
	/*
	 * Forget a thread at its EXIT (perf 6.12's default); without it an
	 * exited thread stays findable by its tid, as perf 6.1 keeps it.
	 */
	PK_SESSION_DROP_EXITED	= 1u << 1,
	/*
	 * Unwound user frames (--call-graph dwarf) without their inline
	 * frames (perf --no-inline); by default each is its inline chain.
	 */
	PK_SESSION_NO_INLINE	= 1u << 2,
};

/* Fields past sz (an older caller's struct) take their defaults. */
struct pk_session_opts {
	size_t sz;			/* sizeof(struct pk_session_opts) */
	unsigned flags;			/* PK_SESSION_* */
	/*
	 * The reader's options (order, queue and window sizes, read-ahead);
	 * NULL: defaults, with read_ahead unless nr_threads is 1.
	 */
	const struct pk_data_reader_opts *reader;
	/*
	 * The symbolizer's options (flags: demangling, srcline paths,
	 * debuginfod; build-id cache, kallsyms paths...); NULL: defaults.
	 * symfs below overrides its symfs when set.
	 */
	const struct pk_symbolizer_opts *symbolizer;
	const char *symfs;		/* --symfs DIR; NULL: none */
	/* Threads for background work; 0: 2; 1: everything on the caller's thread. */
	int nr_threads;
	/*
	 * perf's --max-stack: at most this many callchain entries are resolved
	 * (markers not counted), and at most this many user frames unwound from
	 * a stack dump (counted apart, as perf counts them); 0: perf's default
	 * (127, sysctl kernel.perf_event_max_stack as perf reads it is not
	 * consulted).
	 */
	unsigned max_stack;
	/*
	 * Called with each event pk_session__next hands out, after the session
	 * applied it: a view of every record beside what a consumer (such as
	 * pk_report__process) makes of them. NULL: none.
	 */
	void (*on_event)(void *ctx, struct pk_session *s, const struct pk_data_event *ev);
	void *on_event_ctx;
};

/* path "-": stdin (pipe mode or a file fed through a pipe). */
PK_API int pk_session__open(struct pk_session **s, const char *path,
			    const struct pk_session_opts *opts, struct pk_error *err);
/* An open fd (not closed); name is used in messages. */
PK_API int pk_session__open_fd(struct pk_session **s, int fd, const char *name,
			       const struct pk_session_opts *opts, struct pk_error *err);
PK_API void pk_session__free(struct pk_session *s);

PK_API struct pk_data_reader *pk_session__reader(struct pk_session *s);
PK_API struct pk_symbolizer *pk_session__symbolizer(struct pk_session *s);

/*
 * The next event in perf's processing order (see pmukit/data_read.h), after
 * the session has applied it: COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL,
 * HEADER_BUILD_ID update the machine before the event is handed out (as
 * perf's machine__process_event runs before perf script's handlers).
 * 1 (ev set), 0 at the end, or a negative errno with err filled.
 */
PK_API int pk_session__next(struct pk_session *s, const struct pk_data_event **ev,
			    struct pk_error *err);

/*
 * AUX area traces (Intel PT, Arm SPE, CoreSight: AUXTRACE_INFO) are not
 * decoded (said once on stderr when the record comes). perf's decoder adds
 * events of its own, whose names widen perf script's event column: the
 * longest of them (Arm SPE: 13), 0 when the file has none or when it is not
 * known.
 */
PK_API unsigned pk_session__aux_name_width(const struct pk_session *s);

/* ---- the file's attrs ------------------------------------------------------------------ */

/* Whether the file is in pipe mode (its attrs arrive as records, and more may come). */
PK_API bool pk_session__is_pipe(const struct pk_session *s);
/* The attrs known so far (grows in pipe mode). */
PK_API size_t pk_session__nr_attrs(const struct pk_session *s);
/*
 * An attr by index (pk_resolved.attr, pk_data_event.attr); NULL when out of
 * range. Lives as long as the session (a pipe's later attrs do not move it).
 */
PK_API const struct pk_data_attr *pk_session__attr(const struct pk_session *s, int attr);
/* The index of the attr a sample id belongs to, -1 when none has it. */
PK_API int pk_session__attr_of_id(const struct pk_session *s, uint64_t id);
/* Whether the file's header has a feature section (PK_FEAT_*). */
PK_API bool pk_session__has_feat(const struct pk_session *s, unsigned feat);
/*
 * Whether any attr known so far has all of bits in its sample_type
 * (PERF_SAMPLE_CALLCHAIN: does any event have callchains).
 */
PK_API bool pk_session__any_sample_type(const struct pk_session *s, uint64_t bits);
/*
 * Samples the kernel lost (PERF_RECORD_LOST_SAMPLES, those a BPF filter
 * dropped left out, as perf's "Total Lost Samples") in the records
 * pk_session__next handed out so far: for one attr (by the record's sample
 * id), or in total for attr -1.
 */
PK_API uint64_t pk_session__lost_samples(const struct pk_session *s, int attr);
/*
 * Records of one type (PERF_RECORD_*; types from 127 up counted together) read
 * from the file: exact once pk_session__next returned 0 (before, a reader
 * reading ahead may have counted records not handed out yet).
 */
PK_API uint64_t pk_session__nr_records(const struct pk_session *s, uint32_t type);

/* ---- the machine --------------------------------------------------------------------- */

/* A thread as perf's struct thread: read-only for callers. */
struct pk_thread {
	int32_t pid, tid;		/* pid -1 until known (a thread seen only by tid) */
	int32_t ppid;			/* from FORK, -1 when unknown */
	/*
	 * The current comm (perf's thread__comm_str): the last COMM, the parent's
	 * at FORK, ":TID" before any. Interned: equal comms of the session are
	 * one pointer, so it can be compared and hashed as a pointer.
	 */
	const char *comm;
	bool comm_set;			/* from a COMM or inherited at FORK (perf's comm_set) */
	bool exited;
	uint32_t id;			/* dense, in order of creation */
	/*
	 * Created or met by a COMM, FORK or EXIT record (perf report --tasks,
	 * which reads no MMAP records and no samples, lists only these).
	 */
	bool task_seen;
};

/* A mapping of a process or of the kernel (perf's struct map). */
struct pk_map {
	uint64_t start, end;		/* [start, end) */
	uint64_t pgoff;
	struct pk_dso *dso;
	uint32_t prot, flags;		/* MMAP2's; PROT_EXEC for an MMAP of code */
	bool kernel;			/* a kernel map ([kernel.kallsyms], a module) */
	uint32_t id;			/* dense, in order of creation */
	uint64_t ino;			/* MMAP2's inode (0 for MMAP) */
};

/* perf's map__map_ip (the DSO-relative address perf's symbols use). */
PK_API uint64_t pk_map__map_ip(const struct pk_map *m, uint64_t ip);
/* perf's map__unmap_ip. */
PK_API uint64_t pk_map__unmap_ip(const struct pk_map *m, uint64_t rip);

/* perf's machine__findnew_thread(pid, tid) (creates it when unknown, as perf does). NULL: ENOMEM. */
PK_API const struct pk_thread *pk_session__thread(struct pk_session *s, int32_t pid, int32_t tid);
/* Find without creating. */
PK_API const struct pk_thread *pk_session__find_thread(const struct pk_session *s, int32_t tid);
PK_API size_t pk_session__nr_threads(const struct pk_session *s);
PK_API const struct pk_thread *pk_session__thread_at(const struct pk_session *s, uint32_t id);

/*
 * Map i (by address) of a thread's process, as perf report --mmaps lists
 * them; NULL past the last (or for a thread without maps).
 */
PK_API const struct pk_map *pk_session__thread_map_at(struct pk_session *s,
						      const struct pk_thread *t, size_t i);

/* The map of addr for thread (cpumode as PERF_RECORD_MISC_*), perf's thread__find_map; NULL: none. */
PK_API const struct pk_map *pk_session__find_map(struct pk_session *s, const struct pk_thread *t,
						 uint8_t cpumode, uint64_t addr);

/* The kernel's DSO ([kernel.kallsyms]), NULL before the kernel map is known. */
PK_API struct pk_dso *pk_session__kernel_dso(struct pk_session *s);

/* ---- locations and samples -------------------------------------------------------------- */

/* One resolved address (perf's addr_location + map_symbol). */
struct pk_loc {
	uint64_t ip;			/* as recorded */
	uint64_t addr;			/* perf's al->addr: pk_map__map_ip(map, ip), ip when no map */
	const struct pk_map *map;	/* NULL: no map ([unknown]) */
	struct pk_dso *dso;		/* map->dso, or NULL */
	const struct pk_sym *sym;	/* NULL: no symbol ([unknown]) */
	uint8_t cpumode;		/* PERF_RECORD_MISC_* the address was looked up with */
	char level;			/* perf's al->level: 'k' kernel, '.' user, 'H' hypervisor/other */
	/*
	 * A frame of an unwound callchain entry's inline chain (perf's
	 * inline_list entry): sym is that frame's function (sym->inlined unless
	 * it is the symbol at the address), pk_session__loc_srcline that frame's
	 * position. 0 for every other location.
	 */
	uint8_t inline_frame;
	uint32_t id;			/* dense, in order of first resolution */
};

/* perf's symoff: addr - sym->start (0 without a symbol). */
static inline uint64_t pk_loc__symoff(const struct pk_loc *l)
{
	return l->sym ? l->addr - l->sym->start : 0;
}

PK_API size_t pk_session__nr_locs(const struct pk_session *s);
PK_API const struct pk_loc *pk_session__loc_at(const struct pk_session *s, uint32_t id);
/* The loc of ip in thread with cpumode (interned; resolved once). NULL: ENOMEM. */
PK_API const struct pk_loc *pk_session__loc(struct pk_session *s, const struct pk_thread *t,
					    uint8_t cpumode, uint64_t ip);

/*
 * perf's srcline of a loc ("file.c:12", "??:0"), as perf report/script
 * print it: for a DSO with debug info the addr2line answer, else NULL
 * (callers print perf's fallback, e.g. "dso+0x..." or sym+off). Cached.
 */
PK_API const char *pk_session__loc_srcline(struct pk_session *s, const struct pk_loc *l);
/*
 * The inline chain at a loc (pk_dso__srcline's frames: innermost first;
 * frames[nr-1] is the function containing the loc's symbol), nr 0 when
 * none. Cached; 0 or a negative errno.
 */
PK_API int pk_session__loc_inlines(struct pk_session *s, const struct pk_loc *l,
				   struct pk_srcline *out);

/* what to compute in pk_session__prepare_srclines */
enum {
	PK_PREPARE_SRCLINE	= 1u << 0,
	PK_PREPARE_INLINES	= 1u << 1,
};
/*
 * Compute (and cache) the srclines and/or inline chains of locs[0..n) on
 * opts.nr_threads threads, so that later calls of pk_session__loc_srcline /
 * _loc_inlines return at once. Same results as calling them one by one.
 */
PK_API int pk_session__prepare_srclines(struct pk_session *s, const struct pk_loc *const *locs,
					size_t n, unsigned what, struct pk_error *err);
/*
 * Look up pk_dso__srcline(d, rip) on a worker thread now: d's debug info is
 * opened (decompressed, its units indexed) and rip's unit read, so that
 * lookups there later do not wait for them. Nothing without worker threads
 * (nr_threads 1).
 */
PK_API void pk_session__prefetch_srcline(struct pk_session *s, struct pk_dso *d, uint64_t rip);

/* pk_session__resolve flags */
enum {
	PK_RESOLVE_CALLCHAIN	= 1u << 0,	/* resolve the callchain (when recorded) */
	/* resolve sample->addr too (rs.addr_loc), as perf's thread__resolve (find_map_fb) */
	PK_RESOLVE_ADDR		= 1u << 1,
	/*
	 * for a caller-order view (report -g caller): past max_stack entries, keep
	 * those nearest the root, as perf walks the chain from there; the chain
	 * is still handed out callee first
	 */
	PK_RESOLVE_CALLER_ORDER	= 1u << 2,
};

/*
 * A sample with its thread and addresses resolved. An out struct: the caller
 * sets sz (sizeof(struct pk_resolved)); only the fields within it are filled.
 */
struct pk_resolved {
	size_t sz;			/* sizeof(struct pk_resolved), set by the caller */
	const struct pk_data_event *ev;
	const struct pk_sample *sample;	/* &ev->sample */
	int attr;			/* the event's attr index (pk_session__attr) */
	const struct pk_data_attr *data_attr;	/* pk_session__attr(s, attr): the event's attr */
	const struct pk_thread *thread;
	/* The thread's comm at the sample (thread->comm as perf processes it in order). */
	const char *comm;
	uint8_t cpumode;		/* ev->misc & PERF_RECORD_MISC_CPUMODE_MASK */
	const struct pk_loc *loc;	/* the sample's ip; never NULL */
	const struct pk_loc *addr_loc;	/* PK_RESOLVE_ADDR: sample->addr (perf's addr_al), else NULL */
	/*
	 * PK_RESOLVE_CALLCHAIN: perf's callchain cursor for the sample
	 * (thread__resolve_callchain with callee order): markers removed, each
	 * entry looked up with the cpumode the last marker set, at most
	 * max_stack entries; nr_chain 0 when no callchain was recorded or the
	 * callchain was discarded as perf discards a corrupt one. The first
	 * entry is usually the sample's ip itself (the kernel records it).
	 * With a user register and stack dump (--call-graph dwarf) the user
	 * frames unwound from it follow, callee first (the user ip first), at
	 * most max_stack of them, each replaced by its inline chain as perf
	 * shows it: locations whose sym has `inlined` set for the inlined
	 * functions, and whose srcline is that frame's.
	 */
	size_t nr_chain;
	const struct pk_loc *const *chain;
};

/*
 * Resolve a PERF_RECORD_SAMPLE just returned by pk_session__next: as perf's
 * machine__resolve (thread = findnew(pid, tid), map by cpumode, symbol)
 * and thread__resolve_callchain. Allocates nothing for addresses already
 * seen. 0, or a negative errno (ENOMEM; EINVAL for an event that is not a
 * sample) with err filled.
 */
PK_API int pk_session__resolve(struct pk_session *s, const struct pk_data_event *ev, unsigned flags,
			       struct pk_resolved *out, struct pk_error *err);

/* ---- events --------------------------------------------------------------------------- */

/*
 * perf's name of an attr (evsel__name): EVENT_DESC's or EVENT_UPDATE's name,
 * else the name perf derives from the attr ("cpu-clock", "cycles:u",
 * "sched:sched_switch", "raw 0x1234"). Lives as long as the session.
 */
PK_API const char *pk_session__event_name(struct pk_session *s, int attr);

/* ---- sample filters ----------------------------------------------------------------- */

/*
 * perf's sample filters, shared by report and script: --comms, --pid,
 * --tid, --dsos, --symbols (perf's symbol_conf lists), -C/--cpu and
 * --time. Two kinds, as in perf:
 *
 *   - dropped: a sample outside the --time ranges or the -C CPUs is not
 *     processed at all (pk_sample_filter__drop, before resolving);
 *   - hidden: a sample whose thread (comm, pid, tid), DSO or symbol is not
 *     listed gets filter bits (pk_sample_filter__hide, after resolving, as
 *     perf's machine__resolve sets al->filtered): perf script drops it,
 *     perf report keeps it in the totals and hides its entries.
 *
 * Lists are comma separated as perf parses them (strlist / intlist); the
 * --time forms are perf's: "start,stop" in seconds (each side optional),
 * several "start,stop" ranges separated by spaces, and the percent forms
 * "10%/2", "10%/1,10%/3", "0%-10%", "0%-10%,30%-40%", "25%", taken over the
 * file's first to last sample time (HEADER_SAMPLE_TIME; a file without it,
 * as a pipe, is refused). reltime: absolute forms are relative to the first
 * sample (perf script --reltime --time).
 */
struct pk_sample_filter;

struct pk_sample_filter_opts {
	size_t sz;			/* sizeof(struct pk_sample_filter_opts) */
	const char *comms;		/* -c/--comms; NULL: any */
	const char *pids;		/* --pid */
	const char *tids;		/* --tid */
	const char *dsos;		/* -d/--dsos: short or long names */
	const char *symbols;		/* -S/--symbols: names or start addresses "0x..." */
	const char *cpus;		/* -C/--cpu: a CPU list ("0-2,5") */
	const char *time;		/* --time */
	bool reltime;			/* --time given relative to the first sample */
};

/* pk_sample_filter__hide bits (perf's HIST_FILTER__* of al->filtered) */
enum {
	PK_FILTER_THREAD	= 1u << 0,	/* comm, pid or tid not listed */
	PK_FILTER_DSO		= 1u << 1,
	PK_FILTER_SYMBOL	= 1u << 2,
};

/* pk_sample_filter__only lists */
enum { PK_FILTER_LIST_COMM, PK_FILTER_LIST_DSO, PK_FILTER_LIST_SYMBOL };

/*
 * Parse the options against the session's file (its CPU count and
 * sample_type for -C, its sample time range for --time). 0, or a negative
 * errno with err filled with perf's message ("Invalid time string", "File
 * does not contain CPU events. Remove -C option to proceed.", ...).
 */
PK_API int pk_sample_filter__new(struct pk_sample_filter **f, struct pk_session *s,
				 const struct pk_sample_filter_opts *opts, struct pk_error *err);
PK_API void pk_sample_filter__free(struct pk_sample_filter *f);
/* Whether a PERF_RECORD_SAMPLE is dropped (--time, -C). */
PK_API bool pk_sample_filter__drop(const struct pk_sample_filter *f, const struct pk_data_event *ev);
/* -C alone, for side-band records: whether a record on cpu is dropped (cpu -1: never). */
PK_API bool pk_sample_filter__drop_cpu(const struct pk_sample_filter *f, int32_t cpu);
/* The PK_FILTER_* bits of a resolved sample; 0: shown. */
PK_API unsigned pk_sample_filter__hide(const struct pk_sample_filter *f, const struct pk_resolved *rs);
/* The PK_FILTER_* bits the filter can set (which of its lists are given); 0: none. */
PK_API unsigned pk_sample_filter__hides(const struct pk_sample_filter *f);
/*
 * The entry of a list (PK_FILTER_LIST_*) when it has exactly one (perf then
 * elides that column and prints "# comm: NAME"), else NULL.
 */
PK_API const char *pk_sample_filter__only(const struct pk_sample_filter *f, int list);
/* The --time ranges in ns ([start, end], 0: open), and how many. */
PK_API size_t pk_sample_filter__nr_ranges(const struct pk_sample_filter *f);
PK_API void pk_sample_filter__range(const struct pk_sample_filter *f, size_t i, uint64_t *start,
				    uint64_t *end);

/* ---- profiles ----------------------------------------------------------------------- */

struct pk_profile;

/* pk_session_profile_opts.flags */
enum {
	/* Inline frames (pk_session__loc_inlines) as frames of their own, marked inlined. */
	PK_PROFILE_INLINE	= 1u << 0,
	/* Source file and line of each frame (addr2line's answer), in the frame. */
	PK_PROFILE_SRCLINE	= 1u << 1,
};

struct pk_session_profile_opts {
	size_t sz;			/* sizeof(struct pk_session_profile_opts) */
	unsigned flags;			/* PK_PROFILE_* */
};

/*
 * Read the rest of the session's events into p (pmukit/profile.h): one
 * event per recorded attr (dummy events left out), one thread per
 * (pid, tid, comm at the sample), one frame per distinct symbol (or address
 * without one) with perf script's names, and the stacks as perf script
 * prints them, leaf first: the callchain when recorded (perf's cursor: no
 * inline frames in frame-pointer chains, each unwound --call-graph dwarf
 * frame as its inline chain, as perf 6.1 shows them), else the
 * sample's ip alone. Guest samples are left out as perf script does.
 * 0, or a negative errno with err filled.
 */
PK_API int pk_session__fill_profile(struct pk_session *s, struct pk_profile *p,
				    const struct pk_session_profile_opts *opts,
				    struct pk_error *err);

/*
 * perf's header as perf script/report --header print it (perf 6.1's
 * perf_header__fprintf_info without -I): captured on, layout, each present
 * feature, missing features. File mode only (a pipe prints nothing). 0 or
 * a negative errno with err filled.
 */
PK_API int pk_session__fprintf_header(struct pk_session *s, FILE *f, struct pk_error *err);
/*
 * One feature section as the header shows it: in pipe mode perf prints each
 * as its HEADER_FEATURE record arrives (after the layout lines above).
 */
PK_API int pk_session__fprintf_feature(struct pk_session *s, FILE *f, unsigned feat);

/* pk_session__fprintf_attr flags */
enum {
	/* perf evlist -v's ": type: 1, size: 128, ..." (else the header's ", type = 1, ...") */
	PK_ATTR_PRINT_EVLIST	= 1u << 0,
};
/*
 * The non-zero fields of an attr as perf 6.1's perf_event_attr__fprintf
 * prints them, without the name before and the newline after. 0, or
 * -EINVAL for an attr index out of range.
 */
PK_API int pk_session__fprintf_attr(struct pk_session *s, FILE *f, int attr, unsigned flags);

/*
 * Counts of what the session processed so far. An out struct: the caller
 * sets sz (sizeof(struct pk_session_stats)); only the fields within it are
 * filled.
 */
struct pk_session_stats {
	size_t sz;			/* sizeof(struct pk_session_stats), set by the caller */
	uint64_t nr_samples;
	uint64_t nr_unresolved_maps;	/* sample ips outside every map */
	uint64_t nr_corrupt_chains;	/* callchains discarded as perf discards them */
	uint64_t nr_locs;
	uint64_t nr_threads, nr_maps;
	uint64_t nr_lost_samples;	/* LOST_SAMPLES records' lost, BPF-filtered ones left out */
};
/* 0, or -EINVAL for an sz below sizeof(size_t). */
PK_API int pk_session__stats(const struct pk_session *s, struct pk_session_stats *st);

#ifdef __cplusplus
}
#endif
#endif
