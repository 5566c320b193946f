/* SPDX-License-Identifier: MIT */
/*
 * data/reader/reader_int.h — the perf.data reader's insides, shared by its files:
 * read.c (open, header, attrs, ids), read_source.c (mapped windows, pipe
 * buffer, zstd), read_swap.c (the other byte order), order.c (perf's
 * ordered-events queue), sample.c (decoding records), read_next.c (the
 * iterator), read_ahead.c (its thread, opts.read_ahead) and feat_read*.c
 * (feature sections, tracing data).
 */
#ifndef PMUKIT_DATA_READER_INT_H
#define PMUKIT_DATA_READER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/data_read.h>

#include "data/bytes.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

/* Bits and sizes newer than the system's <linux/perf_event.h> may know. */
#define DR_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define DR_ATTR_SIZE_VER0		64
#define DR_ATTR_SIZE_VER8		136	/* config3 */
#define DR_ATTR_SIZE_MAX		4096	/* a page, as the kernel allows */
#define DR_MAX_ATTRS			65536
#define DR_MAX_FEATURE_BYTES		(1ULL << 30)
#define DR_MAX_WARN			4

/* Little helpers. */
static inline uint16_t dr_bswap16(uint16_t v)
{
	return __builtin_bswap16(v);
}
static inline uint32_t dr_bswap32(uint32_t v)
{
	return __builtin_bswap32(v);
}
static inline uint64_t dr_bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}
static inline uint64_t dr_align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

/* pk_data_reader.recovering: why the data's end is the file's (a bad tail ends the records) */
enum { DR_RECOVER_NONE, DR_RECOVER_KILLED, DR_RECOVER_CUT };

struct pk_data_reader;

/* Where a queued record's bytes live (what may move them). */
enum dr_region {
	DR_REG_COPY = 0,	/* a copy chunk owned by the queue */
	DR_REG_SRC = 1,		/* the mapped window or the pipe buffer */
	DR_REG_DECOMP = 2,	/* the decompression buffer */
	DR_REG_SCRATCH = 3,	/* a misaligned record's aligned copy: valid for one fetch */
};

/* A record as fetched: contiguous, native byte order. */
struct dr_raw {
	const struct perf_event_header *hdr;
	uint64_t off;		/* perf's offset (pipe: from the end of its header) */
	uint64_t pos;		/* byte position in the input, for messages */
	uint8_t region;
	bool decompressed;
};

/* ---- attrs -------------------------------------------------------------------------- */

struct dr_attr {
	struct pk_data_attr pub;	/* first: handed out as is */
	uint64_t sample_type;
	uint64_t read_format;
	unsigned fixed_size;		/* bytes of the fixed u64 fields up to PERIOD */
	int id_pos, is_pos;		/* as perf: -1 without ID/IDENTIFIER */
	unsigned time_pos;		/* u64 index of TIME in a sample */
	unsigned nr_regs_user, nr_regs_intr;
	bool hw_idx, br_counters;
	uint8_t *raw;			/* the attr bytes as in the file (native after swap) */
	uint32_t raw_size;
	uint64_t *ids;
	size_t nr_ids, cap_ids;
};

struct dr_id {
	uint64_t id;
	int32_t attr;		/* -1: empty slot */
	int32_t cpu, tid;
};

/* ---- the byte source ----------------------------------------------------------------- */

struct dr_src {
	int fd;
	bool mapped;		/* regular file: windows of it are mapped */
	bool writable;		/* private writable mappings (byte swapping in place) */
	uint64_t end;		/* file offset where the records end (stream: UINT64_MAX) */
	uint64_t pos;		/* file offset of the next record */
	/* mapped */
	uint8_t *win;
	uint64_t win_off;
	size_t win_len, win_cap;
	/* stream */
	uint8_t *buf;
	size_t buf_cap, buf_len;	/* bytes of the stream at buf_off.. */
	uint64_t buf_off;
	bool eof;
};

struct dr_decomp {
	void *zs;		/* ZSTD_DStream */
	uint8_t *buf;
	size_t cap, head, tail;	/* decompressed records waiting: [head, tail) */
	const uint8_t *in;	/* the compressed payload being consumed */
	size_t in_len, in_pos;
	uint64_t rec_off, rec_pos;	/* its record's offset (perf's) and position */
	bool more;		/* the current payload has input left or output pending */
};

/* ---- the ordered-events queue ------------------------------------------------------- */

struct dr_ent {
	uint64_t ts;
	const struct perf_event_header *rec;
	uint64_t off;
	int32_t attr;
	uint8_t region;
	bool decompressed;
	uint16_t pad;
};

struct dr_chunk;

struct dr_queue {
	struct dr_ent *ents;
	size_t head, n, cap;	/* queued: ents[head..n) */
	struct dr_ent *tmp;	/* as large as ents */
	size_t flush_end;	/* flushing: deliver ents[head..flush_end) */
	bool flushing;
	uint64_t next_flush, max_timestamp, tail_ts, last_ts, last_flush;
	size_t nr_src, nr_decomp;	/* queued entries per movable region */
	size_t limit;		/* bytes */
	size_t copy_bytes;	/* bytes held in copy chunks */
	struct dr_chunk *chunk;	/* current copy chunk */
	struct dr_chunk *spare;
	struct dr_chunk *release;	/* chunk of the record last handed out */
	size_t release_size;
	struct dr_chunk *chunks;	/* every copy chunk */
};

/* ---- features -------------------------------------------------------------------------- */

struct dr_feat {
	const uint8_t *data;	/* NULL: absent */
	size_t size;
};

struct dr_tracing;	/* feat_read_tracing.c */
struct dr_ahead;	/* read_ahead.c */

/* What dr_step found: a record to decode and hand out. */
struct dr_step {
	const struct perf_event_header *h;
	uint64_t off, pos;
	int attr;
	bool decompressed;
	bool user;		/* a tool record (type >= 64) */
};
#define DR_STEP_PENDING	2	/* dr_step with ahead: a record for the caller's thread */

/* ---- the reader ------------------------------------------------------------------------- */

struct pk_data_reader {
	char name[256];
	bool own_fd;
	bool pipe;		/* pipe-mode format */
	bool swap;
	bool legacy;		/* "PERFFILE": perf's header version 1 (it prints 0) */
	enum pk_data_order order;
	uint64_t file_size;	/* mapped files; 0 for streams */
	uint64_t off_bias;	/* subtracted from positions for perf's offsets */
	struct pk_perf_file_header hdr;

	struct dr_attr **attrs;
	size_t nr_attrs, cap_attrs;
	struct dr_id *ids;
	size_t nr_id_slots, nr_ids_used;
	size_t nr_ids_total;
	uint64_t last_id;	/* the last id looked up, and its attr */
	int last_id_attr;

	struct dr_src src;
	struct dr_decomp dc;
	uint64_t *scratch;	/* 64 KiB: misaligned records are copied here */
	struct dr_queue q;

	struct pk_data_event ev;
	bool ev_zeroed;			/* dr_parse_sample's *zeroed of ev.sample */
	struct pk_data_stats stats;
	int err_code;		/* sticky */
	struct pk_error err;
	int deferred_code;	/* a reading error, returned once the queue is delivered */
	struct pk_error deferred_err;
	/* what a damaged or unfinished file lost, read past (dr_warn) */
	char warn[DR_MAX_WARN][512];
	unsigned nr_warn;
	uint8_t recovering;	/* DR_RECOVER_*: the data's end taken from the file's size */
	bool eof, final_flush;
	/* a fetched record the read-ahead thread left to the caller's thread */
	bool pending;
	struct dr_raw pending_raw;
	bool ahead_wanted;	/* opts.read_ahead on a mapped file */
	struct dr_ahead *ahead;	/* the read-ahead thread, its batches (NULL: none yet) */

	struct dr_feat feats[PK_FEAT_BITS];
	uint8_t *feat_buf;	/* file mode: every section, one allocation */
	struct pk_data_env env;
	struct pk_data_build_id *build_ids;
	size_t nr_build_ids, cap_build_ids;
	struct dr_tracing *tracing;
	struct pk_buf tracing_buf;	/* a pipe's HEADER_TRACING_DATA bytes */
	const char **evdesc_names;	/* EVENT_DESC names by attr index */
	size_t nr_evdesc;
	struct pk_arena arena;	/* strings, env arrays, pipe features */
};

/* read.c */
int dr_fail(struct pk_data_reader *r, int code, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A warning about damage read past ("offset 0x..: ..."): kept, at most DR_MAX_WARN. */
void dr_warn(struct pk_data_reader *r, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int dr_add_attr(struct pk_data_reader *r, const void *attr, size_t size, const uint64_t *ids,
		size_t nr_ids, uint64_t pos);
int dr_add_id(struct pk_data_reader *r, uint64_t id, int attr, int32_t cpu, int32_t tid);
int dr_find_id(const struct pk_data_reader *r, uint64_t id);
void dr_apply_event_desc_name(struct pk_data_reader *r, size_t idx, const char *name);
void dr_apply_groups(struct pk_data_reader *r);
int dr_attr_index(const struct pk_data_reader *r, const struct perf_event_header *h, uint64_t pos);

/* read_source.c */
int dr_src_init(struct pk_data_reader *r, int fd, bool mapped, uint64_t start, uint64_t end,
		size_t window);
void dr_src_fini(struct pk_data_reader *r);
int dr_src_read_at(struct pk_data_reader *r, uint64_t off, void *dst, size_t len);
/* 1: a record in raw; 0: end of data; < 0: error */
int dr_fetch(struct pk_data_reader *r, struct dr_raw *raw);
/* Bytes following the record just fetched (HEADER_TRACING_DATA, AUXTRACE): copied to dst
 * (NULL: skipped). */
int dr_payload(struct pk_data_reader *r, const struct dr_raw *raw, void *dst, uint64_t len);
int dr_decomp_feed(struct pk_data_reader *r, const struct dr_raw *raw);

/* read_swap.c */
void dr_swap_attr(void *attr, size_t size);
int dr_swap_record(struct pk_data_reader *r, struct perf_event_header *h, uint64_t pos);


/* order.c */
int dr_queue_init(struct dr_queue *q, size_t limit);
void dr_queue_fini(struct dr_queue *q);
/* Queue a record; 1 when the queue reached its limit (a half flush was started). */
int dr_queue_add(struct pk_data_reader *r, const struct dr_raw *raw, uint64_t ts, int attr);
/* Start perf's ROUND / FINAL flush (nothing when the queue is empty). */
void dr_queue_round(struct dr_queue *q);
void dr_queue_final(struct dr_queue *q);
/* The next entry of a flush in progress, or NULL. */
const struct dr_ent *dr_queue_pop(struct dr_queue *q);
/* Copy the queued records of a region that is about to move or be overwritten. */
int dr_queue_evacuate(struct pk_data_reader *r, enum dr_region region);
void dr_queue_release(struct dr_queue *q);

/* sample.c */
/*
 * *zeroed: on entry, whether s's read values (but read_format) and the fields
 * from raw on are all zero already (they are not cleared again); on return,
 * whether they are.
 */
int dr_parse_sample(const struct pk_data_reader *r, const struct dr_attr *a,
		    const struct perf_event_header *h, struct pk_sample *s, uint64_t pos,
		    bool *zeroed);
int dr_parse_id_trailer(const struct dr_attr *a, const struct perf_event_header *h,
			struct pk_sample *s);
void dr_sample_defaults(const struct dr_attr *a, const struct perf_event_header *h,
			struct pk_sample *s);
/* Timestamp used for ordering: 0 when none (delivered at once, as perf). */
int dr_record_time(const struct pk_data_reader *r, const struct perf_event_header *h, int attr,
		   uint64_t *ts, uint64_t pos);
int dr_decode_kernel(struct pk_data_reader *r, struct pk_data_event *ev, uint64_t pos);
int dr_decode_read_values(const struct dr_attr *a, const uint64_t *p, const uint64_t *end,
			  struct pk_sample_read *rd);

/* read_next.c */
int dr_decode_user(struct pk_data_reader *r, struct pk_data_event *ev, uint64_t pos);
void dr_event_start(struct pk_data_event *ev, const struct perf_event_header *h, uint64_t off,
		    bool decompressed, int attr);
/* A tool record whose decoding changes the reader (attrs, ids, features, ...) or reads a payload. */
bool dr_changes_reader(uint32_t type);
int dr_emit_kernel(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t off,
		   int attr, bool decompressed);
int dr_step(struct pk_data_reader *r, struct dr_step *st, struct pk_data_event *ahead);

/* read_ahead.c: records read, ordered and copied in a thread while the caller decodes */
/* 1: the next event is in r->ev; 0: the thread is stopped (read on in the caller); < 0: error */
int dr_ahead_next(struct pk_data_reader *r);
void dr_ahead_free(struct pk_data_reader *r);
/* Where dr_fail writes: the read-ahead thread has its own error */
struct pk_error *dr_err_slot(struct pk_data_reader *r, int **code);
/* A reading error becomes the deferred one (handed out after what was queued before it). */
void dr_defer_error(struct pk_data_reader *r);
const struct pk_data_stats *dr_ahead_stats(const struct pk_data_reader *r);

/* feat_read.c */
int dr_feat_load_file(struct pk_data_reader *r);
int dr_feat_add(struct pk_data_reader *r, unsigned feat, const void *data, size_t size,
		uint64_t pos);
int dr_add_build_id(struct pk_data_reader *r, int32_t pid, uint16_t misc, const uint8_t *id,
		    uint8_t size, const char *filename, size_t fn_len);
/* A cursor over a feature section or the tracing data, in the recording's byte order; bad once
 * a read would run past end (every later read then returns 0 or NULL). */
struct dr_cur {
	const uint8_t *p, *end;
	bool swap;
	bool bad;
};
static inline uint32_t dr_cur_u32(struct dr_cur *c)
{
	if (c->bad || (size_t)(c->end - c->p) < 4) {
		c->bad = true;
		return 0;
	}
	uint32_t v = data_rd32(c->p);
	c->p += 4;
	return c->swap ? dr_bswap32(v) : v;
}
static inline uint64_t dr_cur_u64(struct dr_cur *c)
{
	if (c->bad || (size_t)(c->end - c->p) < 8) {
		c->bad = true;
		return 0;
	}
	uint64_t v = data_rd64(c->p);
	c->p += 8;
	return c->swap ? dr_bswap64(v) : v;
}
/* A string as features store them: u32 len, then len bytes (NUL-padded), copied to the arena. */
const char *dr_cur_str(struct pk_data_reader *r, struct dr_cur *c);

/* feat_read_tracing.c */
int dr_tracing_parse(struct pk_data_reader *r, const uint8_t *data, size_t size, uint64_t pos);
void dr_tracing_free(struct dr_tracing *t);

#endif
