/* SPDX-License-Identifier: MIT */
/* symbol/linetab.h — .debug_line decoded as binutils' addr2line reads it (linetab.c). */
#ifndef PMUKIT_SYMBOL_LINETAB_H
#define PMUKIT_SYMBOL_LINETAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pk_dwarf_sec {
	const uint8_t *data;
	size_t size;
};

/* the sections a line program reads */
struct linetab_src {
	struct pk_dwarf_sec line, line_str, str;
	bool swap;		/* the file's byte order is not the host's */
};

struct linetab;

/* The program at off in .debug_line, for a unit whose DW_AT_comp_dir is comp_dir (or NULL). */
int linetab__parse(struct linetab **out, const struct linetab_src *src, uint64_t off,
		   const char *comp_dir);
/* The row holding addr: its file (as binutils names it), line and discriminator (discr may be NULL); false when none. */
bool linetab__lookup(const struct linetab *t, uint64_t addr, const char **file, unsigned *line,
		     unsigned *discr);
/* A DW_AT_call_file number's file name; NULL for none (pre-DWARF 5 file 0). */
const char *linetab__file(const struct linetab *t, uint64_t idx);
/* Its sequences (after binutils' trimming): [lo, hi) of sequence i. */
size_t linetab__nr_seqs(const struct linetab *t);
void linetab__seq(const struct linetab *t, size_t i, uint64_t *lo, uint64_t *hi);
void linetab__free(struct linetab *t);

#endif
