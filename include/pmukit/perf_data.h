/* SPDX-License-Identifier: MIT */
/*
 * pmukit/perf_data.h — the perf.data format's numbers and on-disk layouts,
 * shared by the writer (pmukit/data_write.h), the reader (pmukit/data_read.h)
 * and the recording session (pmukit/record.h). Written from perf's
 * Documentation/perf.data-file-format.txt and the kernel's perf_event.h;
 * the kernel's own record types (PERF_RECORD_SAMPLE, _MMAP2, ...) come from
 * <linux/perf_event.h>.
 *
 * Every multi-byte field is in the byte order of the machine that wrote the
 * file; the magic tells which (a byte-swapped magic: the other order).
 */
#ifndef PMUKIT_PERF_DATA_H
#define PMUKIT_PERF_DATA_H

#include <stdint.h>

#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "PERFILE2" read as a little-endian u64 */
#define PK_PERF_MAGIC2		UINT64_C(0x32454c4946524550)
/* the same bytes on a big-endian machine */
#define PK_PERF_MAGIC2_SWAPPED	UINT64_C(0x50455246494c4532)
/* the first 8 bytes of a version 1 file ("PERFFILE"), refused */
#define PK_PERF_MAGIC1		"PERFFILE"

/* Records the tools add to the kernel's (user types start at 64). */
enum pk_perf_user_record {
	PK_RECORD_HEADER_ATTR		= 64,
	PK_RECORD_HEADER_EVENT_TYPE	= 65,	/* obsolete */
	PK_RECORD_HEADER_TRACING_DATA	= 66,
	PK_RECORD_HEADER_BUILD_ID	= 67,
	PK_RECORD_FINISHED_ROUND	= 68,
	PK_RECORD_ID_INDEX		= 69,
	PK_RECORD_AUXTRACE_INFO		= 70,
	PK_RECORD_AUXTRACE		= 71,
	PK_RECORD_AUXTRACE_ERROR	= 72,
	PK_RECORD_THREAD_MAP		= 73,
	PK_RECORD_CPU_MAP		= 74,
	PK_RECORD_STAT_CONFIG		= 75,
	PK_RECORD_STAT			= 76,
	PK_RECORD_STAT_ROUND		= 77,
	PK_RECORD_EVENT_UPDATE		= 78,
	PK_RECORD_TIME_CONV		= 79,
	PK_RECORD_HEADER_FEATURE	= 80,
	PK_RECORD_COMPRESSED		= 81,	/* one zstd stream across all such records */
	PK_RECORD_FINISHED_INIT		= 82,
	PK_RECORD_COMPRESSED2		= 83,	/* u64 data size, data, padding to 8 */
};

/* Feature sections: bit N of the header's 256-bit flags. */
enum pk_perf_feature {
	PK_FEAT_TRACING_DATA	= 1,
	PK_FEAT_BUILD_ID	= 2,
	PK_FEAT_HOSTNAME	= 3,
	PK_FEAT_OSRELEASE	= 4,
	PK_FEAT_VERSION		= 5,
	PK_FEAT_ARCH		= 6,
	PK_FEAT_NRCPUS		= 7,
	PK_FEAT_CPUDESC		= 8,
	PK_FEAT_CPUID		= 9,
	PK_FEAT_TOTAL_MEM	= 10,
	PK_FEAT_CMDLINE		= 11,
	PK_FEAT_EVENT_DESC	= 12,
	PK_FEAT_CPU_TOPOLOGY	= 13,
	PK_FEAT_NUMA_TOPOLOGY	= 14,
	PK_FEAT_BRANCH_STACK	= 15,
	PK_FEAT_PMU_MAPPINGS	= 16,
	PK_FEAT_GROUP_DESC	= 17,
	PK_FEAT_AUXTRACE	= 18,
	PK_FEAT_STAT		= 19,
	PK_FEAT_CACHE		= 20,
	PK_FEAT_SAMPLE_TIME	= 21,
	PK_FEAT_MEM_TOPOLOGY	= 22,
	PK_FEAT_CLOCKID		= 23,
	PK_FEAT_DIR_FORMAT	= 24,
	PK_FEAT_BPF_PROG_INFO	= 25,
	PK_FEAT_BPF_BTF		= 26,
	PK_FEAT_COMPRESSED	= 27,
	PK_FEAT_CPU_PMU_CAPS	= 28,
	PK_FEAT_CLOCK_DATA	= 29,
	PK_FEAT_HYBRID_TOPOLOGY	= 30,
	PK_FEAT_PMU_CAPS	= 31,
	PK_FEAT_LAST		= 32,	/* first number no perf 6.12 feature uses */
	PK_FEAT_BITS		= 256,
};

struct pk_perf_file_section {
	uint64_t offset;	/* from the start of the file */
	uint64_t size;
};

/* The file header (file mode). */
struct pk_perf_file_header {
	uint64_t magic;				/* PK_PERF_MAGIC2 */
	uint64_t size;				/* sizeof(struct pk_perf_file_header) */
	uint64_t attr_size;			/* one entry of the attrs section */
	struct pk_perf_file_section attrs;	/* entries: attr (attr_size - 16 bytes), then ids */
	struct pk_perf_file_section data;
	struct pk_perf_file_section event_types;	/* unused, zero */
	uint64_t features[PK_FEAT_BITS / 64];	/* adds_features bitmap */
};

/* The header of a pipe: magic and its own size, then records only. */
struct pk_perf_pipe_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

/* Records added by the tools (after struct perf_event_header). */
struct pk_perf_build_id_record {
	struct perf_event_header header;	/* misc: PERF_RECORD_MISC_KERNEL/USER/GUEST_*,
						 * PERF_RECORD_MISC_BUILD_ID_SIZE when size is set */
	int32_t pid;
	uint8_t build_id[24];	/* 20 bytes for SHA-1 ids; the size is in data[20] with MISC_BUILD_ID_SIZE */
	/* char filename[]; zero terminated, padded to 8 */
};

#define PK_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

/* PERF_RECORD_HEADER_FEATURE: a u64 feature id, then the section's bytes. */
struct pk_perf_feature_record {
	struct perf_event_header header;
	uint64_t feat_id;
};

#ifdef __cplusplus
}
#endif
#endif
