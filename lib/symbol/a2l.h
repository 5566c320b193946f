/* SPDX-License-Identifier: MIT */
/*
 * symbol/a2l.h — the parts of binutils' addr2line that are not DWARF
 * (a2l.c): its symbol-table answer (elf_find_function) and how it finds a
 * separate debug file (build-id link, .gnu_debuglink with its CRC).
 */
#ifndef PMUKIT_SYMBOL_A2L_H
#define PMUKIT_SYMBOL_A2L_H

#include "symbol/symbol_int.h"

/* a symbol of the addr2line file, as bfd sees it */
struct bsym {
	uint64_t value, size;	/* size: st_size, 1 when 0 (binutils' maybe_function_sym) */
	size_t shndx;
	const char *name;
	const char *file;	/* the file name binutils would give with it */
	bool func;		/* STT_FUNC / GNU_IFUNC */
	bool notype;
	unsigned order;
};

/* The symbols binutils may answer with, sorted by (section, value, table order); 0 or -ENOMEM. */
int a2l__index_syms(Elf *elf, struct bsym **out, size_t *nr);
/* binutils' elf_find_function: the symbol for pc in section shndx, or NULL. */
const struct bsym *a2l__find_sym(const struct bsym *syms, size_t nr, size_t shndx, uint64_t pc);
/* The file has DWARF (.debug_info with contents). */
bool a2l__has_dwarf(Elf *elf);
/* Open file's separate debug file into dwfile as bfd finds it; false when none. */
bool a2l__open_separate(struct pk_elf *file, struct pk_elf *dwfile, const struct pk_symbolizer *s);

#endif
