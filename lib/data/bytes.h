/* SPDX-License-Identifier: MIT */
/*
 * data/bytes.h — the little byte readers the perf.data reader and writer
 * share: u16/u32/u64 in this machine's order at any alignment (records,
 * ELF notes and feature sections are not always 8-byte aligned in memory),
 * and a string that must end before the end of its record.
 */
#ifndef PMUKIT_DATA_BYTES_H
#define PMUKIT_DATA_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t data_rd16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t data_rd32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t data_rd64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* The NUL-terminated string at p, or NULL when its NUL is not before end. */
static inline const char *data_str_at(const void *p, const void *end)
{
	if (p >= end)
		return NULL;
	return memchr(p, 0, (size_t)((const char *)end - (const char *)p)) ? p : NULL;
}

#endif
