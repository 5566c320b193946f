/* SPDX-License-Identifier: MIT */
/*
 * pmukit/data_read.h — reading perf.data: files written by perf (any version
 * since the PERFILE2 format, either byte order, file or pipe mode, zstd
 * compressed or not) or by pmukit's writer.
 *
 *   struct pk_data_reader *r;
 *   struct pk_data_reader_opts o = { .sz = sizeof(o) };
 *   const struct pk_data_event *ev;
 *   if (pk_data_reader__open(&r, "perf.data", &o, &err)) die(&err);  // "-": stdin
 *   while ((rc = pk_data_reader__next(r, &ev, &err)) > 0) {
 *           if (ev->type == PERF_RECORD_SAMPLE)
 *                   use(pk_data_reader__attr(r, ev->attr), &ev->sample);
 *           else if (ev->type == PERF_RECORD_MMAP2)
 *                   map(ev->u.mmap.filename, ev->u.mmap.start, ...);
 *   }
 *   if (rc < 0) die(&err);   // "perf.data: offset 0x1f40: ..."
 *   pk_data_reader__free(r);
 *
 * Order. By default records come in the order perf report/script process
 * them (perf's ordered-events queue): kernel records with a timestamp are
 * queued and delivered sorted by time (equal times in file order), up to the
 * previous round's newest timestamp at each PERF_RECORD_FINISHED_ROUND and
 * all of them at the end; records without a timestamp (no PERF_SAMPLE_TIME,
 * no sample_id_all, a time of 0) and the tool's own records (type >= 64) are
 * delivered as they are read. The queue holds at most opts.queue_bytes;
 * past that the older half (by time) is delivered early, as perf does when
 * its queue reaches its memory limit, so that a file without rounds is read
 * in bounded memory. PK_DATA_ORDER_FILE gives records as stored, and so
 * does PK_DATA_ORDER_PERF for a file whose first event has no sample_id_all
 * (perf before 2.6.38): perf then falls back to unordered processing.
 *
 * Memory. File mode maps a window of the file at a time (opts.window_bytes);
 * nothing is copied except the records still queued when the window moves.
 * Pipes are read through a buffer. Per record nothing is allocated.
 *
 * Byte order. Records of a file written on a machine of the other byte
 * order are converted in place (private mappings) before they are handed
 * out: every field is native, except the bytes the kernel copies as they
 * are (RAW tracepoint data, AUX samples, the user stack), which stay in the
 * writer's order, as perf leaves them; pk_data_reader__needs_swap() tells.
 *
 * Errors. A corrupt or truncated file stops the reading with an error whose
 * message starts with the byte offset of the offending record or section
 * ("offset 0x1f40: record size 4 is smaller than its header"); sizes are
 * checked against the file, the record and fixed limits before anything is
 * read or allocated.
 *
 * Objects are opaque and owned by the caller; no global state. An event
 * handed out by next() and everything it points to stays valid until the
 * following call of next() or free(); attrs, env and build-ids until free().
 */
#ifndef PMUKIT_DATA_READ_H
#define PMUKIT_DATA_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/perf_data.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_data_reader;

enum pk_data_order {
	PK_DATA_ORDER_PERF = 0,	/* perf's: by time within FINISHED_ROUND windows */
	PK_DATA_ORDER_FILE,	/* as stored (compressed records expanded in place) */
};

struct pk_data_reader_opts {
	size_t sz;			/* sizeof(struct pk_data_reader_opts) */
	enum pk_data_order order;
	size_t queue_bytes;		/* ordering queue limit; 0: 64 MiB */
	size_t window_bytes;		/* bytes of the file mapped at once; 0: 8 MiB
					 * (at least 256 KiB: smaller values are raised) */
	/*
	 * A regular file's records are fetched, decompressed, ordered and copied
	 * by a thread of the reader, a few MiB ahead of the caller, who decodes
	 * them (two cores at work). The events and errors are the same; the
	 * counts of pk_data_reader__stats run up to a few MiB ahead of the
	 * records handed out, and are exact once next() returned 0. Streams
	 * (pipes) are always read by the caller.
	 */
	bool read_ahead;
};

/* path "-" reads stdin (pipe mode or not, as its header says). */
PK_API int pk_data_reader__open(struct pk_data_reader **r, const char *path,
				const struct pk_data_reader_opts *opts, struct pk_error *err);
/*
 * An open fd (not closed by the reader); name is used in messages. A regular
 * file is mapped; anything else (pipe, socket, tty) is read as a stream.
 */
PK_API int pk_data_reader__open_fd(struct pk_data_reader **r, int fd, const char *name,
				   const struct pk_data_reader_opts *opts, struct pk_error *err);
PK_API void pk_data_reader__free(struct pk_data_reader *r);

PK_API bool pk_data_reader__is_pipe(const struct pk_data_reader *r);	/* pipe-mode format */
PK_API bool pk_data_reader__needs_swap(const struct pk_data_reader *r);
/* perf's "header version": 0 for a "PERFFILE" file (perf before 2.6.37), else 1 */
PK_API unsigned pk_data_reader__header_version(const struct pk_data_reader *r);
/* File mode: the data section as the header gives it (pipe mode: 0, 0). */
PK_API uint64_t pk_data_reader__data_offset(const struct pk_data_reader *r);
PK_API uint64_t pk_data_reader__data_size(const struct pk_data_reader *r);

/* ---- attrs (events) ------------------------------------------------------------- */

struct pk_data_attr {
	/*
	 * The attr as recorded, the fields this build knows; attr.size is the
	 * file's. Bytes past them (newer perf) are in extra: all zero unless
	 * extra_nonzero.
	 */
	struct perf_event_attr attr;
	uint64_t config3;		/* attr v8 (perf 6.3+), 0 when absent */
	const uint8_t *extra;		/* attr bytes past config3, file's order */
	uint32_t nr_extra;
	bool extra_nonzero;
	const char *name;		/* EVENT_DESC, or EVENT_UPDATE name; NULL when none */
	const char *unit;		/* EVENT_UPDATE unit, or NULL */
	double scale;			/* EVENT_UPDATE scale, 0 when none */
	const uint64_t *ids;		/* ids of this event's fds */
	size_t nr_ids;
	/* GROUP_DESC: index of the leader (itself for a leader or a lone event) */
	int leader;
	int nr_members;			/* leader: members including itself; else 0 */
	const char *group_name;		/* leader of a named group, or NULL */
	/* derived from sample_type */
	uint16_t id_hdr_size;		/* bytes of the sample_id_all trailer */
};

PK_API size_t pk_data_reader__nr_attrs(const struct pk_data_reader *r);	/* grows in pipe mode */
PK_API const struct pk_data_attr *pk_data_reader__attr(const struct pk_data_reader *r, size_t idx);
/* Index of the attr an id belongs to, -1 when no attr has it. */
PK_API int pk_data_reader__attr_of_id(const struct pk_data_reader *r, uint64_t id);
/* ID_INDEX: the cpu and tid of an id (-1 when unknown); 0 or -ENOENT. */
PK_API int pk_data_reader__id_info(const struct pk_data_reader *r, uint64_t id, int32_t *cpu,
				   int32_t *tid);

/* ---- samples ---------------------------------------------------------------------- */

struct pk_sample_read_value {
	uint64_t value, id, lost;
};

struct pk_sample_read {
	uint64_t read_format;		/* the attr's */
	uint64_t time_enabled, time_running;
	uint64_t nr;			/* values: group members, or 1 */
	struct pk_sample_read_value one;	/* !PERF_FORMAT_GROUP */
	const uint64_t *group;		/* PERF_FORMAT_GROUP: nr * stride u64s */
	unsigned stride;		/* 1 + has ID + has LOST */
};

/* Value i of a read (group member i, or the single value for i == 0). */
static inline struct pk_sample_read_value pk_sample_read__value(const struct pk_sample_read *rd,
								size_t i)
{
	struct pk_sample_read_value v = { 0, 0, 0 };
	if (!(rd->read_format & PERF_FORMAT_GROUP))
		return rd->one;
	const uint64_t *p = rd->group + i * rd->stride;
	v.value = *p++;
	if (rd->read_format & PERF_FORMAT_ID)
		v.id = *p++;
	if (rd->read_format & PERF_FORMAT_LOST)
		v.lost = *p;
	return v;
}

struct pk_sample_regs {
	uint64_t abi;			/* PERF_SAMPLE_REGS_ABI_*; 0: none recorded */
	uint64_t mask;			/* the attr's sample_regs_user / _intr */
	const uint64_t *regs;		/* one per bit of mask, lowest bit first */
	unsigned nr;
};

/*
 * A decoded PERF_RECORD_SAMPLE, or the sample_id_all trailer of another
 * kernel record (then only TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER).
 * Fields whose bit is not in sample_type hold what perf uses: pid, tid, cpu
 * -1; time, id, stream_id ~0; period the attr's sample_period; others 0.
 * Arrays point into the record.
 */
struct pk_sample {
	uint64_t sample_type;		/* the attr's */
	uint64_t id;			/* ID or IDENTIFIER */
	uint64_t ip;
	int32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	int32_t cpu;
	uint32_t cpu_res;
	uint64_t period;
	struct pk_sample_read read;
	struct {
		uint64_t nr;
		const uint64_t *ips;	/* PERF_CONTEXT_* markers included, as recorded */
	} callchain;
	struct {
		uint32_t size;
		const void *data;	/* the writer's byte order */
	} raw;
	struct {
		uint64_t nr;
		bool has_hw_idx;	/* attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX */
		uint64_t hw_idx;
		const struct perf_branch_entry *entries;
		const uint64_t *counters;	/* PERF_SAMPLE_BRANCH_COUNTERS: nr of them, else NULL */
	} branch;
	struct pk_sample_regs user_regs, intr_regs;
	struct {
		uint64_t size;		/* bytes copied (0: none) */
		const uint8_t *data;
		uint64_t dyn_size;	/* bytes of it that were valid stack */
	} user_stack;
	/* WEIGHT: weight; WEIGHT_STRUCT: weight = var1_dw, var2_w, var3_w
	 * (x86: instruction latency, retire latency; powerpc: as perf reads them) */
	uint64_t weight;
	uint16_t weight_var2, weight_var3;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	struct {
		uint64_t size;
		const void *data;	/* the writer's byte order */
	} aux;
};

/* ---- events ------------------------------------------------------------------------ */

struct pk_data_event {
	uint32_t type;			/* PERF_RECORD_* or PK_RECORD_* */
	uint16_t misc;
	uint16_t size;
	/*
	 * Where perf says the record is: its file offset; a record that came out
	 * of a COMPRESSED record has that record's offset; in pipe mode offsets
	 * count from the end of the 16-byte pipe header.
	 */
	uint64_t offset;
	bool decompressed;
	const struct perf_event_header *raw;	/* the record, native byte order */
	int attr;			/* index of its attr, -1 for none */
	bool has_sample;		/* sample decoded (SAMPLE, or a sample_id_all trailer) */
	struct pk_sample sample;
	union {
		struct {		/* COMM */
			int32_t pid, tid;
			const char *comm;
			bool exec;	/* PERF_RECORD_MISC_COMM_EXEC */
		} comm;
		struct {		/* MMAP, MMAP2 */
			int32_t pid, tid;
			uint64_t start, len, pgoff;
			bool mmap2;
			bool has_build_id;	/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint32_t maj, min;	/* has_build_id: the build id's bytes there, */
			uint64_t ino, ino_generation;	/* as perf reads them */
			uint8_t build_id_size;
			const uint8_t *build_id;
			uint32_t prot, flags;	/* MMAP2 */
			bool data;		/* PERF_RECORD_MISC_MMAP_DATA */
			const char *filename;
		} mmap;
		struct {		/* FORK, EXIT */
			int32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task;
		struct {		/* LOST */
			uint64_t id, lost;
		} lost;
		struct {		/* LOST_SAMPLES */
			uint64_t lost;
		} lost_samples;
		struct {		/* THROTTLE, UNTHROTTLE */
			uint64_t time, id, stream_id;
		} throttle;
		struct {		/* SWITCH, SWITCH_CPU_WIDE */
			bool out, preempt;
			int32_t next_prev_pid, next_prev_tid;	/* CPU_WIDE only, else -1 */
		} context_switch;
		struct {		/* KSYMBOL */
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {		/* BPF_EVENT */
			uint16_t type, flags;
			uint32_t id;
			const uint8_t *tag;	/* 8 bytes */
		} bpf;
		struct {		/* TEXT_POKE */
			uint64_t addr;
			uint16_t old_len, new_len;
			const uint8_t *bytes;	/* old_len old bytes, then new_len new */
		} text_poke;
		struct {		/* CGROUP */
			uint64_t id;
			const char *path;
		} cgroup;
		struct {		/* NAMESPACES */
			int32_t pid, tid;
			uint64_t nr;
			const uint64_t *link;	/* nr pairs: dev, ino */
		} namespaces;
		struct {		/* READ */
			int32_t pid, tid;
			struct pk_sample_read values;
		} read;
		struct {		/* AUX */
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {		/* ITRACE_START */
			int32_t pid, tid;
		} itrace_start;
		struct {		/* AUX_OUTPUT_HW_ID */
			uint64_t hw_id;
		} aux_output_hw_id;
		struct {		/* PK_RECORD_HEADER_ATTR: the attr it added */
			int idx;
		} attr;
		struct {		/* PK_RECORD_HEADER_FEATURE */
			uint64_t feat;
			const void *data;	/* the file's byte order (see feat_data) */
			size_t size;
		} feature;
		struct {		/* PK_RECORD_HEADER_BUILD_ID */
			int32_t pid;
			uint8_t size;
			const uint8_t *id;
			const char *filename;
		} build_id;
		struct {		/* PK_RECORD_ID_INDEX */
			uint64_t nr;
			const uint64_t *entries;	/* nr * 4: id, idx (in its CPU map), cpu, tid */
			const uint64_t *entries2;	/* nr * 2: machine_pid, vcpu; or NULL */
		} id_index;
		struct {		/* PK_RECORD_TIME_CONV */
			uint64_t time_shift, time_mult, time_zero;
			bool has_cycles;
			uint64_t time_cycles, time_mask;
			bool cap_user_time_zero, cap_user_time_short;
		} time_conv;
		struct {		/* PK_RECORD_THREAD_MAP */
			uint64_t nr;
			const void *entries;	/* nr * 24 bytes: u64 pid, char comm[16] */
		} thread_map;
		struct {		/* PK_RECORD_CPU_MAP: see pk_data__cpu_map */
			const void *data;
			size_t size;
		} cpu_map;
		struct {		/* PK_RECORD_EVENT_UPDATE */
			uint64_t type, id;	/* PERF_EVENT_UPDATE__UNIT 0, SCALE 1, NAME 2, CPUS 3 */
			const char *str;	/* UNIT, NAME */
			double scale;		/* SCALE */
			const void *cpus;	/* CPUS: cpu map data (pk_data__cpu_map) */
			size_t cpus_size;
		} event_update;
		struct {		/* PK_RECORD_HEADER_TRACING_DATA */
			uint32_t size;		/* bytes of tracing data after the record */
		} tracing_data;
		struct {		/* PK_RECORD_AUXTRACE (its data is skipped) */
			uint64_t size, offset, reference;
			uint32_t idx, tid, cpu;
		} auxtrace;
	} u;
};

/*
 * The next event: 1 (ev set), 0 at the end, or a negative errno with err
 * filled (the message names the offset). A damaged or truncated record stops
 * the reading there, but the records already queued (read before it) are
 * handed out first. After an error every call returns it.
 */
PK_API int pk_data_reader__next(struct pk_data_reader *r, const struct pk_data_event **ev,
				struct pk_error *err);

/*
 * CPUs of a cpu map as CPU_MAP records and EVENT_UPDATE (CPUS) carry them
 * (data in native order, as the event gives it): the number of CPUs, of
 * which the first max are stored in cpus (-1 for the "any CPU" entry), or
 * -EINVAL for a malformed map.
 */
PK_API long pk_data__cpu_map(const void *data, size_t size, int32_t *cpus, size_t max);

/* Counts kept while reading. */
struct pk_data_stats {
	uint64_t nr_records[128];	/* by type (types >= 128 in the last slot) */
	uint64_t total_lost;		/* LOST records' lost */
	uint64_t total_lost_samples;	/* LOST_SAMPLES records' lost */
	uint64_t nr_unordered;		/* queued older than what was already delivered */
	uint64_t nr_half_flushes;	/* queue limit reached */
	uint64_t bytes_decompressed;
};
PK_API const struct pk_data_stats *pk_data_reader__stats(const struct pk_data_reader *r);

/*
 * Damage read past, as perf reads past it: a pipe cut short (a full disk), a
 * file left by a killed perf (data size 0 in its header: the records up to
 * the last whole one are read), a file cut in its data or its features (the
 * features before the damage are kept). The i-th warning ("NAME: offset
 * 0x..: ..."), NULL past the last; complete once next() returned 0.
 */
PK_API const char *pk_data_reader__warning(const struct pk_data_reader *r, size_t i);

/* ---- header features ---------------------------------------------------------------- */

struct pk_data_cpu_topo {
	int32_t core_id, socket_id, die_id;	/* -1 when unknown */
};

struct pk_data_pmu_mapping {
	uint32_t type;
	const char *name;
};

struct pk_data_group_desc {
	const char *name;		/* "{a,b}" or "anon"/NULL for an unnamed group */
	uint32_t leader_idx, nr_members;
};

/* Decoded feature sections; a member is 0/NULL when its feature is absent. */
struct pk_data_env {
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	bool has_nrcpus;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem;		/* kB */
	uint32_t nr_cmdline;
	const char *const *cmdline;
	/* CPU_TOPOLOGY */
	uint32_t nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	const char *const *core_siblings;	/* cpu lists, "0-3" */
	const char *const *thread_siblings;
	const char *const *die_siblings;
	uint32_t nr_cpu_topo;			/* nr_cpus_avail when the ids were written */
	const struct pk_data_cpu_topo *cpu_topo;
	/* PMU_MAPPINGS */
	uint32_t nr_pmu_mappings;
	const struct pk_data_pmu_mapping *pmu_mappings;
	/* GROUP_DESC */
	uint32_t nr_groups;
	const struct pk_data_group_desc *groups;
	/* CLOCKID, CLOCK_DATA */
	uint64_t clockid_res_ns;
	bool has_clock_data;
	uint32_t clockid;
	uint64_t clock_tod_ns, clock_clockid_ns;
	/* COMPRESSED */
	bool has_compressed;
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;
	/* SAMPLE_TIME */
	uint64_t first_sample_time, last_sample_time;
};

PK_API bool pk_data_reader__has_feat(const struct pk_data_reader *r, unsigned feat);
/* A feature section's bytes as stored (the file's byte order); NULL when absent. */
PK_API const void *pk_data_reader__feat_data(const struct pk_data_reader *r, unsigned feat,
					     size_t *size);
/* In pipe mode, features arrive as HEADER_FEATURE records: read on to see them. */
PK_API const struct pk_data_env *pk_data_reader__env(const struct pk_data_reader *r);

struct pk_data_build_id {
	int32_t pid;			/* -1 host kernel, 0 guest kernel, else the process */
	uint16_t misc;			/* PERF_RECORD_MISC_KERNEL / _USER / _GUEST_* */
	uint8_t size;			/* bytes of id (20 for SHA-1) */
	uint8_t id[20];
	const char *filename;
};
/* BUILD_ID section, then HEADER_BUILD_ID records as they are read. */
PK_API size_t pk_data_reader__nr_build_ids(const struct pk_data_reader *r);
PK_API const struct pk_data_build_id *pk_data_reader__build_id(const struct pk_data_reader *r,
							       size_t i);

/* ---- tracepoint formats (TRACING_DATA) ------------------------------------------------ */

struct pk_tp_field {
	const char *name;
	const char *type;		/* as declared: "char prev_comm[16]", "__data_loc char[] name" */
	uint32_t offset, size;
	bool is_signed;
	bool is_array;			/* fixed-size array: type ends in [N] */
	uint32_t array_len;		/* N, or 0 */
	bool is_dynamic;		/* __data_loc: u32 (len << 16 | offset) at offset */
	bool is_string;			/* char array or __data_loc char[] */
	bool is_pointer;
};

struct pk_tp_format {
	uint64_t id;			/* the tracepoint's id (attr.config) */
	const char *system, *name;
	const char *print_fmt;		/* as written after "print fmt: " */
	size_t nr_common, nr_fields;
	const struct pk_tp_field *common;	/* common_type, common_flags, ... */
	const struct pk_tp_field *fields;
};

/*
 * Event formats parsed from the tracing data (FEAT_TRACING_DATA, or the
 * HEADER_TRACING_DATA record of a pipe); NULL when the id has none.
 */
PK_API const struct pk_tp_format *pk_data_reader__tp_format(const struct pk_data_reader *r,
							    uint64_t id);
PK_API size_t pk_data_reader__nr_tp_formats(const struct pk_data_reader *r);
PK_API const struct pk_tp_format *pk_data_reader__tp_format_at(const struct pk_data_reader *r,
							       size_t i);
/* The raw tracing data bytes (NULL when none), and its file byte order. */
PK_API const void *pk_data_reader__tracing_data(const struct pk_data_reader *r, size_t *size);
/* Fields of the writer's tracing data header: big endian, long size, page size. */
PK_API bool pk_data_reader__tracing_big_endian(const struct pk_data_reader *r);
PK_API uint32_t pk_data_reader__tracing_long_size(const struct pk_data_reader *r);

#ifdef __cplusplus
}
#endif
#endif
