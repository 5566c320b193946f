/* SPDX-License-Identifier: MIT */
/*
 * data/writer/write_int.h — the perf.data writer's state and the helpers its files
 * share (write.c: core; write_file.c: file mode; write_pipe.c: pipe mode;
 * write_compress.c: zstd; feat*.c: feature sections; buildid.c: build-ids).
 * Not public.
 */
#ifndef PMUKIT_DATA_WRITE_INT_H
#define PMUKIT_DATA_WRITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/data_write.h>
#include <pmukit/perf_data.h>
#include <pmukit/topology.h>

#include "util/buf.h"

/* perf aligns strings of feature sections to 64 bytes (NAME_ALIGN) */
#define PKW_NAME_ALIGN 64
/* the largest record perf writes (u16 size): PERF_RECORD_COMPRESSED payloads fit it */
#define PKW_MAX_RECORD 65535u
/* uncompressed bytes per compression chunk: perf's default mmap size (128 pages + 1) */
#define PKW_COMP_CHUNK (129u * 4096u)

struct pkw_attr {
	unsigned char *attr;	/* attr_size bytes (the writer's, zero padded) */
	uint32_t size;		/* the attr's own size (attr->size, 0 read as VER0) */
	char *name;
	uint64_t *ids;
	size_t nr_ids, cap_ids;
};

struct pkw_group {
	uint32_t leader, nr;
	char *name;		/* "{anon_group}" for an unnamed group, as perf */
};

struct pkw_dso {
	int32_t pid;
	uint16_t misc;
	char *filename;
};

struct pkw_id {
	uint64_t id, sample_type;
};

enum pkw_state { PKW_NEW, PKW_BEGUN, PKW_FINISHED };

struct pk_data_writer {
	int fd;
	bool pipe;
	int comp_level;
	int clockid;
	bool use_clockid;
	char *sysroot;		/* never NULL ("/" by default) */
	char *version;
	char **argv;
	int argc;

	enum pkw_state state;
	struct pkw_attr *attrs;
	size_t nr_attrs, cap_attrs;
	uint32_t attr_size;	/* the largest attr's size: every entry in the file has it */
	struct pkw_group *groups;
	size_t nr_groups, cap_groups;
	struct pkw_dso *dsos;
	size_t nr_dsos, cap_dsos;

	/* file mode */
	uint64_t data_offset;	/* where the data section starts */
	uint64_t data_size;	/* bytes of complete records of the data section on disk */
	/* both modes */
	uint64_t data_bytes;	/* uncompressed record bytes given to the writer */
	uint64_t pipe_bytes;	/* pipe mode: every byte written */

	/* clock reference (CLOCK_DATA), taken at begin() */
	uint64_t tod_ns, clockid_ns, clockid_res_ns;

	/* SAMPLE_TIME */
	uint64_t first_time, last_time;
	bool have_time;
	bool same_type;		/* every attr has the same sample_type */
	struct pkw_id *ids;	/* else: id -> sample_type, sorted by id */
	size_t nr_ids;

	/* file mode, compressed: the provisional tail (write_file.c) */
	struct pk_buf tail;	/* feature table and sections, offsets as at tail_at */
	uint64_t tail_feats[PK_FEAT_BITS / 64];
	size_t tail_nr;
	uint64_t tail_at;

	/* the bytes of the features that depend only on the machine and the attrs,
	 * read once (at gather(), or when first needed): pkw_feature_get() */
	struct pkw_feat_cache {
		struct pk_buf bytes;
		bool read, have;
	} feat_cache[PK_FEAT_LAST];

	/* the CPU topology under the sysroot, read once (feat_topo.c; NULL: unreadable) */
	struct pk_topology *topo;
	bool topo_read;

	/* files read once: pkw_read_text() */
	struct pkw_text {
		char *rel;
		struct pk_buf text;	/* NUL terminated, not counted */
		int r;			/* or the error reading it */
	} *texts;
	size_t nr_texts, cap_texts;

	/* compression (write_compress.c) */
	void *zcs;		/* ZSTD_CStream */
	struct pk_buf zin;	/* whole records waiting to be compressed */
	struct pk_buf zout;	/* PERF_RECORD_COMPRESSED records of one chunk */

	/* sticky error */
	int err_code;
	struct pk_error err;
};

/* --- write.c ------------------------------------------------------------------ */

/* Store a sticky error (code < 0) and copy it to err; returns code. */
int pkw_fail(struct pk_data_writer *w, struct pk_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The sticky error again (copied to err); 0 when there is none. */
int pkw_sticky(const struct pk_data_writer *w, struct pk_error *err);

/*
 * Append len bytes of whole records to the data (file: at the end of the
 * data section, then the header's data size follows; pipe: to the stream).
 * Bytes go to disk as given: compression happens before this.
 */
int pkw_emit(struct pk_data_writer *w, const void *p, size_t len, struct pk_error *err);

/* Write all of len bytes at the fd's position (pipe) — a failure sets the sticky error. */
int pkw_write_all(struct pk_data_writer *w, const void *p, size_t len, size_t *done,
		  struct pk_error *err);

/* Note the times of the PERF_RECORD_SAMPLEs in recs (SAMPLE_TIME). */
void pkw_scan_times(struct pk_data_writer *w, const unsigned char *recs, size_t len);

/* --- write_file.c ------------------------------------------------------------- */

/* The bytes of the whole records at the start of recs[0..n). */
/* Bytes of the record at p (an AUXTRACE record with its trace); 0: not whole in left. */
size_t pkw_record_bytes(const unsigned char *p, size_t left);
size_t pkw_whole_records(const void *recs, size_t n);
int pkw_file_begin(struct pk_data_writer *w, struct pk_error *err);
int pkw_file_emit(struct pk_data_writer *w, const void *p, size_t len, struct pk_error *err);
int pkw_file_finish(struct pk_data_writer *w, struct pk_error *err);

/* --- write_pipe.c ------------------------------------------------------------- */

int pkw_pipe_begin(struct pk_data_writer *w, struct pk_error *err);
int pkw_pipe_finish(struct pk_data_writer *w, struct pk_error *err);

/* --- write_compress.c --------------------------------------------------------- */

int pkw_comp_init(struct pk_data_writer *w, struct pk_error *err);
/* Stage whole records; chunks go out as PERF_RECORD_COMPRESSED records. */
int pkw_comp_write(struct pk_data_writer *w, const void *recs, size_t len, struct pk_error *err);
/* Compress and emit whatever is staged (before a round mark, at finish). */
int pkw_comp_flush(struct pk_data_writer *w, struct pk_error *err);
void pkw_comp_free(struct pk_data_writer *w);

/* --- feat.c / feat_topo.c / buildid.c: feature sections ----------------------- */

/* perf's string: u32 length (with the NUL, aligned to 64), the string, zeros. */
int pkw_put_string(struct pk_buf *b, const char *s);
int pkw_put_u32(struct pk_buf *b, uint32_t v);
int pkw_put_u64(struct pk_buf *b, uint64_t v);

/*
 * The bytes of feature feat into b (appended). 1: written; 0: the feature
 * does not apply or its facts are missing (left out of the file, as perf
 * leaves out a feature whose writer fails); -ENOMEM.
 */
int pkw_feature(struct pk_data_writer *w, int feat, struct pk_buf *b);
/* pkw_feature(), read once for the features whose bytes cannot change after begin
 * (all but build-ids, sample times and the compression ratio). */
int pkw_feature_get(struct pk_data_writer *w, int feat, struct pk_buf *b);
/* Into feat_cache now, if it is such a feature and wanted (0, or -ENOMEM). */
int pkw_feature_prefetch(struct pk_data_writer *w, int feat);
/* Whether feature feat goes in (the pipe header can not carry BUILD_ID). */
bool pkw_feature_wanted(const struct pk_data_writer *w, int feat, bool pipe_header);

/* The whole file at path into b (NUL terminated, not counted in b->len). */
int pkw_read_file(const char *path, struct pk_buf *b);
/* The same for path relative to the directory dirfd (a name in it: no path walk from
 * the root for each of a directory's files); _text_ also drops trailing white space. */
int pkw_read_file_at(int dirfd, const char *path, struct pk_buf *b);
int pkw_read_text_at(int dirfd, const char *name, struct pk_buf *b);
/* The contents of SYSROOT/rel without trailing white space into b (NUL terminated);
 * the files several features read are read once (w->texts). */
int pkw_read_text(struct pk_data_writer *w, const char *rel, struct pk_buf *b);
/* SYSROOT/rel as a path into buf. */
const char *pkw_path(const struct pk_data_writer *w, const char *rel, char *buf, size_t len);

int pkw_feat_cpu_topology(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_numa_topology(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_pmu_mappings(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_nrcpus(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_cache(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_mem_topology(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_cpu_pmu_caps(struct pk_data_writer *w, struct pk_buf *b);
int pkw_feat_pmu_caps(struct pk_data_writer *w, struct pk_buf *b);
/* TRACING_DATA (feat_trace.c): the event formats of the tracepoint attrs; 0 without any. */
int pkw_feat_tracing_data(struct pk_data_writer *w, struct pk_buf *b);
bool pkw_has_tracepoints(const struct pk_data_writer *w);

/*
 * Build-ids (buildid.c): the BUILD_ID section (file mode) or the
 * PERF_RECORD_HEADER_BUILD_ID records (pipe mode) of the DSOs added, in
 * order; DSOs without a build-id are left out.
 */
int pkw_build_ids(struct pk_data_writer *w, struct pk_buf *b, bool as_records);
/* The GNU build-id of an ELF file (libelf) into id; its size, or a negative errno. */
int pkw_elf_build_id(const char *path, unsigned char *id, size_t len);
/* The GNU build-id in a raw note list (/sys/kernel/notes); its size, or a negative errno. */
int pkw_notes_build_id(const unsigned char *p, size_t n, unsigned char *id, size_t len);

#endif
