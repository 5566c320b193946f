/* SPDX-License-Identifier: MIT */
/*
 * annotate_int.h — the annotate module's internals: an object file opened
 * with libbfd and disassembled with libopcodes as objdump does (objfile.c),
 * objdump's text of a symbol's range (objdump.c), and the annotation
 * objects (annotate.c, lines.c, print.c).
 */
#ifndef PMUKIT_ANNOTATE_INT_H
#define PMUKIT_ANNOTATE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/annotate.h>

#include "util/buf.h"

struct ann_objfile;

/*
 * Open path (objdump's -M options in style, NULL: none), with the symbols of
 * its separate debug file debug (objdump -S follows debug links; NULL: none).
 * 0 or a negative errno with err filled.
 */
int ann_objfile__open(struct ann_objfile **out, const char *path, const char *debug,
		      const char *style, struct pk_error *err);
void ann_objfile__free(struct ann_objfile *o);

/* One disassembled instruction. */
struct ann_insn {
	uint64_t addr;
	const char *text;	/* libopcodes' text, addresses printed as objdump prints them */
	const uint8_t *bytes;
	unsigned len;
};
typedef int (*ann_insn_cb)(void *ctx, const struct ann_insn *insn);
/* The symbol header objdump prints at addr ("0000000000001410 <leaf_13>"), when a symbol starts there. */
typedef int (*ann_header_cb)(void *ctx, const char *header);
/*
 * objdump -d of [start, end) (objdump addresses): the section header
 * ("Disassembly of section .text:"), each symbol header, each instruction.
 * 0 or a negative errno (-ENOENT: no section holds start).
 */
struct ann_disasm_cbs {
	int (*section)(void *ctx, const char *name);
	ann_header_cb header;
	ann_insn_cb insn;
	int (*zeroes)(void *ctx);	/* a run of zero bytes objdump skips ("\t...") */
};
int ann_objfile__disasm(struct ann_objfile *o, uint64_t start, uint64_t end,
			const struct ann_disasm_cbs *cbs, void *ctx);

/* The function symbol holding vma (bfd's fallback for -l without line tables), NULL: none. */
const char *ann_objfile__func_name(const struct ann_objfile *o, uint64_t vma);
/* objdump -C's demangling (malloc'd), NULL when name is not mangled. */
char *ann_objfile__demangle(const struct ann_objfile *o, const char *name);

/* objdump's text lines of [start, end) into lines (each NUL-terminated, in order). */
struct ann_text {
	char **lines;
	size_t nr, cap;
};
struct ann_objdump_args {
	struct ann_objfile *obj;
	struct pk_dso *dso;
	uint64_t start, end;		/* objdump addresses */
	int64_t rip_delta;		/* rip = objdump address - rip_delta */
	const char *binary;		/* the file objdump is given (its lines are skipped, as perf skips them) */
	unsigned flags;			/* PK_ANNOTATE_* */
	bool debug_file;		/* the DWARF is in a separate debug file */
	const char *prefix;		/* objdump --prefix (NULL: none), --prefix-strip */
	int prefix_strip;
};
int ann_objdump__text(const struct ann_objdump_args *args, struct ann_text *out);
void ann_text__free(struct ann_text *t);

#endif
