/* SPDX-License-Identifier: MIT */
/*
 * symbol/symbol_int.h — what the symbolizer's files share: the symbol table
 * (perf's rb-tree of symbols as a sorted array with perf's fix-ups), the DSO
 * object, ELF loading, the source-line engine, kallsyms, demangling.
 */
#ifndef PMUKIT_SYMBOL_INT_H
#define PMUKIT_SYMBOL_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>

#include <pmukit/symbol.h>

#include "util/arena.h"
#include "util/rbtree.h"

#define PK_BUILD_ID_MAX 20

/* --- symbol tables (symtab.c) --------------------------------------------- */

struct rbn;

struct pk_sym_table {
	/* as loading builds it: perf's red-black tree (util/rbtree.h) over load[] */
	struct pk_sym *load;
	struct pk_rbnode *rb;
	size_t nr_nodes, cap_load, cap_rb, nr_live;
	uint32_t root;
	uint32_t last;			/* the node of the highest start while loading (PK_RB_NIL: unknown) */
	/* after symtab__finish: the symbols in order, with the tree's links (indices, -1 none) */
	struct pk_sym *syms;
	int32_t (*links)[2];
	int32_t top;
	size_t nr;
	struct pk_arena names;
};

void symtab__init(struct pk_sym_table *t);
void symtab__fini(struct pk_sym_table *t);
/* Insert a symbol as perf's symbol__new + __symbols__insert (end = start + len, or start). */
int symtab__add(struct pk_sym_table *t, uint64_t start, uint64_t len, uint8_t binding,
		uint8_t type, const char *name, size_t namelen);
/* perf's symbols__fixup_end (kallsyms: module-aware) then symbols__fixup_duplicate. */
int symtab__fixup(struct pk_sym_table *t, bool kallsyms);
/* Done adding: the sorted array and search links lookups use. */
int symtab__finish(struct pk_sym_table *t);
/* perf's symbols__find (after symtab__finish). */
const struct pk_sym *symtab__find(const struct pk_sym_table *t, uint64_t addr);
/* Tests: the black height of a valid red-black search tree (before symtab__finish), else -1. */
int symtab__check(const struct pk_sym_table *t);
/* perf's choose_best_symbol: true when a wins over b. */
bool symtab__choose_a(const struct pk_sym *a, const struct pk_sym *b);

/* --- demangling (demangle.c) ------------------------------------------------ */

char *demangle__sym(const char *name, unsigned flags);

/* --- ELF files (elf.c) ------------------------------------------------------- */

/* An opened ELF file: its fd (or memory) and libelf handle. */
struct pk_elf {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	void *mem;		/* owned memory the Elf reads (MiniDebugInfo, vdso copy) */
	size_t mem_len;
	char *path;
};

int pkelf__open(struct pk_elf *e, const char *path);
/* An ELF image in memory (taken over: freed by pkelf__close). */
int pkelf__open_mem(struct pk_elf *e, void *mem, size_t len, const char *name);
void pkelf__close(struct pk_elf *e);
Elf_Scn *pkelf__section(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx);
/* The GNU build-id note: its size (> 0) copied to out[PK_BUILD_ID_MAX], or -1. */
int pkelf__build_id(Elf *elf, uint8_t *out);
/* .gnu_debuglink's file name (malloc'd) or NULL. */
char *pkelf__debuglink(Elf *elf);
/* .gnu_debugdata decompressed (xz) into a new ELF, or -ENOENT/-EINVAL. */
int pkelf__minidebuginfo(struct pk_elf *e, struct pk_elf *out);

/*
 * Load symbols as perf's dso__load_sym: syms (the file with .symtab, or
 * the runtime one) and runtime (with .dynsym/.plt, the original binary).
 * kernel: no demangling and no file-offset adjustment. Then @plt entries
 * from runtime. Returns the number of symbols, or a negative errno.
 */
int pkelf__load_syms(struct pk_sym_table *t, struct pk_elf *syms, struct pk_elf *runtime,
		     unsigned flags);
/*
 * A vmlinux's symbols for the kernel map, as perf's dso__load_sym for it:
 * those of .text (perf gives other sections' symbols maps of their own:
 * pmukit leaves them out), at their addresses moved by *reloc, the recorded
 * address of ref_sym (when there is one) minus the file's (KASLR); .text's
 * addresses in the file into *text_start, *text_end. The number of symbols,
 * or a negative errno.
 */
int pkelf__load_vmlinux_syms(struct pk_sym_table *t, struct pk_elf *e, const char *ref_sym,
			     uint64_t ref_addr, unsigned flags, uint64_t *reloc, uint64_t *text_start,
			     uint64_t *text_end);
/* .text's sh_addr - sh_offset of the runtime file (perf's dso->text_offset). */
uint64_t pkelf__text_offset(struct pk_elf *e);

/* --- DSOs (dso.c) ------------------------------------------------------------ */

struct srcline_cache;

struct pk_dso {
	uint64_t order;			/* creation order in the symbolizer (pk_dso__order) */
	struct pk_symbolizer *owner;
	enum pk_dso_kind kind;
	char *name, *short_name;	/* perf's long and short names */
	uint8_t build_id[PK_BUILD_ID_MAX];
	size_t build_id_size;		/* recorded, or read from the file at load */
	uint8_t key_build_id[PK_BUILD_ID_MAX];
	size_t key_build_id_size;	/* as asked for: the symbolizer's key */
	int pid;
	/* kernel: perf's ref_reloc_sym (the recorded address of e.g. _text) */
	char *ref_sym;
	uint64_t ref_addr;			/* PERF_MAP: whose map */
	uint64_t kernel_end;		/* kernel: where its last own symbol (no module) ends */

	pthread_mutex_t lock;		/* loading, then srcline */
	atomic_bool loaded;
	int load_error;
	struct pk_sym_table syms;
	char *symsrc;			/* file with the symbol table (srcline reads it) */
	char *runtime;			/* the binary itself, when found */
	uint64_t text_offset;		/* perf's map__rip_2objdump adds it */
	bool has_dwarf_tried;
	struct srcline_cache *src;	/* srcline.c's state, under lock */

	struct pk_dso *hnext;		/* the symbolizer's hash chain */
	uint32_t hash;
};

struct pk_symbolizer {
	struct pk_symbolizer_opts o;
	char *symfs, *buildid_dir, *debug_dir, *kallsyms, *kernel_notes, *perf_map_dir;
	char *vmlinux;			/* -k: the kernel's file, or NULL */
	pthread_mutex_t lock;
	struct pk_dso **tab;
	size_t nr_tab, nr_dsos;
	struct pk_dso *kernel_any;	/* the kernel dso cache is the same table */
	struct pk_arena arena;		/* names of anonymous dsos, under lock */
	void *debuginfod;		/* debuginfod.c's state */
};

/* Load a user DSO's symbols (called once, under d->lock). */
int dso__load_user(struct pk_dso *d);
/* Load the kernel's from kallsyms (called once, under d->lock). */
int dso__load_kernel(struct pk_dso *d);
/* Load a perf-PID.map (called once, under d->lock). */
int dso__load_perf_map(struct pk_dso *d);
/* snprintf for paths: false when it did not fit (buf then holds a cut path). */
bool sym__path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "%s/%s" with the symfs prefix, into buf. */
void dso__symfs_path(const struct pk_symbolizer *s, const char *path, char *buf, size_t len);

/* --- source lines (srcline.c) -------------------------------------------- */

void srcline__free(struct srcline_cache *c);

/* --- debuginfod (debuginfod.c) --------------------------------------------- */

/* A path to the debug file (or executable) for build_id, downloaded; NULL when none. */
char *debuginfod__find(struct pk_symbolizer *s, const uint8_t *build_id, size_t n, bool debuginfo);
void debuginfod__free(struct pk_symbolizer *s);

#endif
