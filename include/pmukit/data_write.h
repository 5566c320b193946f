/* SPDX-License-Identifier: MIT */
/*
 * pmukit/data_write.h — writing perf.data (version 2) that perf reads: file
 * mode (header, attrs with their ids, data, feature sections) and pipe mode
 * (header, then PERF_RECORD_HEADER_ATTR / _HEADER_FEATURE records before the
 * data), optionally zstd-compressed (PERF_RECORD_COMPRESSED).
 *
 *   struct pk_data_writer *w;
 *   struct pk_data_writer_opts o = { .sz = sizeof(o), .argc = argc, .argv = argv };
 *   pk_data_writer__new(&w, fd, &o, &err);
 *   pk_data_writer__add_attr(w, &attr, "cpu-clock", ids, nr_ids, &err);
 *   pk_data_writer__begin(w, &err);                 // attrs are fixed from here
 *   pk_data_writer__write(w, rec, rec->size, &err);  // whole records, any number
 *   pk_data_writer__finished_round(w, &err);
 *   pk_data_writer__add_dso(w, pid, PERF_RECORD_MISC_USER, "/usr/bin/foo");
 *   pk_data_writer__finish(w, &err);                // features, final header
 *   pk_data_writer__free(w);
 *
 * A write error (ENOSPC, EIO) is returned at once and sticks: every later
 * call returns it. In file mode the header on disk describes, at all times
 * after begin(), a readable file: finish() rewrites it with the data size
 * of the last complete record and the feature sections; after a write error
 * finish() still rewrites the header for the records that reached the file.
 *
 * How it goes to disk (file mode): each write() is one pwrite() of the
 * records followed by an update of the header's data size, so a recorder
 * that dies leaves a file perf reads up to its last write (without feature
 * sections). Callers pass many records a call (a ring buffer's worth), not
 * one. With compression, records are staged and compressed a chunk at a
 * time (at most 516 KiB, perf's decompression buffer) and at every
 * finished_round(); the features known at begin() follow the compressed
 * data at all times (perf can not decompress without HEADER_COMPRESSED), so
 * a dead recorder's file holds what the last round flushed.
 *
 * Features written (as perf 6.1 does, each left out when its facts are
 * missing): TRACING_DATA (tracepoint attrs: their formats from tracefs),
 * BUILD_ID, HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID,
 * TOTAL_MEM, CMDLINE, EVENT_DESC, CPU_TOPOLOGY, NUMA_TOPOLOGY, BRANCH_STACK
 * (an attr samples branch stacks), PMU_MAPPINGS, GROUP_DESC (groups added),
 * CACHE, SAMPLE_TIME, MEM_TOPOLOGY, CLOCKID and CLOCK_DATA (use_clockid),
 * COMPRESSED, CPU_PMU_CAPS, PMU_CAPS. A pipe carries those perf sends down a
 * pipe, then the tracing data; its build-ids follow the data.
 */
#ifndef PMUKIT_DATA_WRITE_H
#define PMUKIT_DATA_WRITE_H

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

struct pk_data_writer;

struct pk_data_writer_opts {
	size_t sz;			/* sizeof(struct pk_data_writer_opts) */
	bool pipe;			/* pipe mode (fd need not be seekable) */
	int compress_level;		/* 0: none; 1..22: zstd level (-z is 1) */
	int argc;			/* HEADER_CMDLINE: the command line of the recorder */
	const char *const *argv;
	const char *version;		/* HEADER_VERSION; NULL: pmukit's version */
	int clockid;			/* HEADER_CLOCKID / CLOCK_DATA when use_clockid */
	bool use_clockid;
	/*
	 * Root of the machine description the features are read from
	 * (/proc, /sys); NULL: "/". Tests point it at a fixture tree. DSO
	 * paths given to add_dso() are read under it too.
	 */
	const char *sysroot;
};

PK_API int pk_data_writer__new(struct pk_data_writer **w, int fd,
			       const struct pk_data_writer_opts *opts, struct pk_error *err);
PK_API void pk_data_writer__free(struct pk_data_writer *w);

/*
 * One event as opened (its attr exactly as given to perf_event_open), perf's
 * name for it (EVENT_DESC), and the ids the kernel gave its fds
 * (PERF_EVENT_IOC_ID), one per CPU/thread it was opened on. Before begin().
 * attr->size bytes are read (0: PERF_ATTR_SIZE_VER0; a multiple of 8 up to
 * 4096): every attr of the file is written as large as the largest, zero
 * padded — perf 6.1 reads attrs of up to 128 bytes (PERF_ATTR_SIZE_VER7).
 * A tracepoint attr's name ("sys:event") finds its format in tracefs.
 */
PK_API int pk_data_writer__add_attr(struct pk_data_writer *w, const struct perf_event_attr *attr,
				    const char *name, const uint64_t *ids, size_t nr_ids,
				    struct pk_error *err);
/* More ids for attr number idx (a task or CPU opened later). Before begin(). */
PK_API int pk_data_writer__add_ids(struct pk_data_writer *w, size_t idx, const uint64_t *ids,
				   size_t nr_ids, struct pk_error *err);
/*
 * GROUP_DESC: attrs leader..leader+nr_members-1 form a group called name.
 * perf shows a group by its members ("{a,b}"): a name that is NULL, "",
 * "anon" or starts with '{' is stored as perf's "{anon_group}"; any other is
 * the group's own name (perf prints it before the members).
 */
PK_API int pk_data_writer__add_group(struct pk_data_writer *w, size_t leader, size_t nr_members,
				     const char *name, struct pk_error *err);

/* Header (pipe: header, attr records, feature records); then data may be written. */
PK_API int pk_data_writer__begin(struct pk_data_writer *w, struct pk_error *err);
/* Whole records (each starting with a struct perf_event_header), len bytes in all. */
PK_API int pk_data_writer__write(struct pk_data_writer *w, const void *recs, size_t len,
				 struct pk_error *err);
/* PERF_RECORD_FINISHED_ROUND: every record before it is older than every record after. */
PK_API int pk_data_writer__finished_round(struct pk_data_writer *w, struct pk_error *err);

/*
 * A DSO that got a sample: its build-id goes into BUILD_ID at finish(), read
 * from the file's ELF notes (kernel: /sys/kernel/notes, filename
 * "[kernel.kallsyms]"; a module named "[name]" with a kernel misc:
 * /sys/module/name/notes). Files without a build-id note are left out. Any
 * time before finish(); duplicates (same pid and filename) are merged.
 * pid is perf's machine: -1 for this host (perf record writes -1; perf
 * files a DSO under any other pid in a guest machine of that pid). misc:
 * PERF_RECORD_MISC_USER or _KERNEL (_GUEST_* for guests).
 * Returns 0, -EINVAL (no filename) or -ENOMEM.
 */
PK_API int pk_data_writer__add_dso(struct pk_data_writer *w, int32_t pid, uint16_t misc,
				   const char *filename);

/*
 * Bytes of data so far: the record bytes given to write() and
 * finished_round(), and the bytes of the data section as stored (smaller
 * when compressed; staged records not counted until compressed).
 */
PK_API uint64_t pk_data_writer__data_bytes(const struct pk_data_writer *w);
PK_API uint64_t pk_data_writer__file_bytes(const struct pk_data_writer *w);

/*
 * Optional, after begin(): read the machine's facts for the feature sections
 * now (hostname, CPU and NUMA topology, caches, PMUs...), e.g. while the
 * workload runs, so that finish() has only the ones that depend on the data
 * left to compute (build-ids, sample times, the compression ratio). Each is
 * read once either way.
 */
PK_API int pk_data_writer__gather(struct pk_data_writer *w, struct pk_error *err);
/* Feature sections and the final header (file mode); pipe mode: the build-ids as
 * PERF_RECORD_HEADER_BUILD_ID records, as perf does at the end of a pipe. */
PK_API int pk_data_writer__finish(struct pk_data_writer *w, struct pk_error *err);

#ifdef __cplusplus
}
#endif
#endif
