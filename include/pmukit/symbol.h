/* SPDX-License-Identifier: MIT */
/*
 * pmukit/symbol.h — in-process symbolization of sample addresses, as perf 6.1
 * shows them: ELF .symtab/.dynsym symbols (libelf) with perf's rules (which
 * symbols are kept, aliases, zero sizes, synthesized `name@plt` entries,
 * file-offset addresses), source lines and inline frames (libdw, answers as
 * binutils' `addr2line -i -f`, which perf 6.1 runs), debug files (build-id,
 * .gnu_debuglink, MiniDebugInfo, --symfs), kernel symbols from /proc/kallsyms
 * when the recorded kernel is the running one, JIT maps /tmp/perf-PID.map,
 * C++/Rust demangling (libiberty, with perf's flags).
 *
 * Per sample (the perf.data reader gives the map from MMAP/MMAP2 records):
 *
 *   struct pk_symbolizer *s;
 *   pk_symbolizer__new(&s, &(struct pk_symbolizer_opts){ .sz = sizeof(opts) }, &err);
 *   ...
 *   struct pk_sym_map m = { .start = mm->start, .len = mm->len, .pgoff = mm->pgoff,
 *                           .filename = mm->filename, .pid = mm->pid, .prot = mm->prot,
 *                           .build_id = bid, .build_id_size = 20 };
 *   struct pk_dso *dso = pk_symbolizer__map_dso(s, &m);   // once per map: keep it
 *   uint64_t rip = pk_sym_map__map_ip(&m, ip);             // perf's map__map_ip
 *   const struct pk_sym *sym = pk_dso__find(dso, rip);     // NULL: [unknown]
 *   printf("%s+0x%" PRIx64 " (%s)\n", sym->name, rip - sym->start, pk_dso__name(dso));
 *   struct pk_srcline sl = { .sz = sizeof(sl) };
 *   if (pk_dso__srcline(dso, rip, &sl) == 0 && sl.nr_frames)   // "file.c:12", inlines
 *           printf("%s:%u\n", sl.frames[0].file_base, sl.frames[0].line);
 *   ...
 *   pk_symbolizer__free(s);
 *
 * Addresses: a user DSO's symbols are in perf's "rip" space, the file offset
 * of the code (map__map_ip: ip - map start + pgoff; symbols have their
 * address moved by their PT_LOAD's p_vaddr - p_offset); symbol offsets
 * (perf's `sym+0x12`, symoff) are rip - sym->start. Kernel and JIT map
 * symbols are absolute addresses (rip == ip).
 *
 * Threads: a pk_symbolizer and its pk_dso objects may be used from several
 * threads at once. Finding a DSO takes the symbolizer's lock briefly; a DSO's
 * symbol table is loaded once on first use (other callers of that DSO wait)
 * and then read without locks; pk_dso__srcline takes that DSO's lock (libdw
 * is not thread-safe on one Dwarf), so two threads symbolizing different
 * DSOs run in parallel, two on one DSO take turns. Every string and
 * struct returned lives until pk_symbolizer__free.
 */
#ifndef PMUKIT_SYMBOL_H
#define PMUKIT_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/api.h>
#include <pmukit/error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_symbolizer;
struct pk_dso;

/* pk_symbolizer_opts.flags */
enum {
	/* No demangling (perf --no-demangle). */
	PK_SYMBOLIZER_NO_DEMANGLE	= 1u << 0,
	/* Demangle with parameters and qualifiers, as perf -v does ("f(int)" not "f"). */
	PK_SYMBOLIZER_DEMANGLE_PARAMS	= 1u << 1,
	/*
	 * Do not read MiniDebugInfo (.gnu_debugdata): perf 6.1 does not, so a
	 * binary that only has it shows .dynsym symbols there.
	 */
	PK_SYMBOLIZER_NO_MINIDEBUGINFO	= 1u << 2,
	/* Ask debuginfod servers ($DEBUGINFOD_URLS) for missing debug files (libdebuginfod, loaded at run time). */
	PK_SYMBOLIZER_DEBUGINFOD	= 1u << 3,
	/* srcline paths in full (perf --full-source-path); default: file name only. */
	PK_SYMBOLIZER_FULL_SRCLINE	= 1u << 4,
};

/* Fields past sz (an older caller's struct) take their defaults. */
struct pk_symbolizer_opts {
	size_t sz;		/* sizeof(struct pk_symbolizer_opts) */
	unsigned flags;		/* PK_SYMBOLIZER_* */
	/* --symfs DIR: prefix of every DSO path looked up (not of /tmp/perf-PID.map). NULL or "": none. */
	const char *symfs;
	/* perf's build-id cache; NULL: $HOME/.debug ("" disables it). */
	const char *buildid_dir;
	/* The system debug directory; NULL: /usr/lib/debug. */
	const char *debug_dir;
	/* NULL: /proc/kallsyms and /sys/kernel/notes (the running kernel's build-id). */
	const char *kallsyms;
	const char *kernel_notes;
	/* Where JIT maps are read; NULL: /tmp (the map's name stays /tmp/perf-PID.map). */
	const char *perf_map_dir;
	/* debuginfod: seconds per download (0: 30), and a line for each file asked for / done. */
	int debuginfod_timeout;
	void (*progress)(void *ctx, const char *line);
	void *progress_ctx;
	/*
	 * perf's -k/--vmlinux: the kernel's symbols (those of .text), source
	 * lines and code from this ELF file instead of kallsyms; under symfs.
	 * NULL: none.
	 */
	const char *vmlinux;
};

PK_API int pk_symbolizer__new(struct pk_symbolizer **out, const struct pk_symbolizer_opts *opts,
			      struct pk_error *err);
PK_API void pk_symbolizer__free(struct pk_symbolizer *s);

/* One mapping, as a PERF_RECORD_MMAP/MMAP2 gives it. */
struct pk_sym_map {
	uint64_t start, len, pgoff;
	const char *filename;	/* "/usr/lib/..", "[kernel.kallsyms]_text", "//anon", "[vdso]", ... */
	const uint8_t *build_id; /* from MMAP2's build-id or perf.data's build-id table; NULL: unknown */
	size_t build_id_size;
	int pid;		/* the process (for /tmp/perf-PID.map of anonymous executable memory) */
	uint32_t prot;		/* MMAP2 prot; use PROT_EXEC for an MMAP without PERF_RECORD_MISC_MMAP_DATA */
	uint32_t flags;		/* MMAP2 flags (MAP_HUGETLB makes it anonymous) */
	bool kernel;		/* a kernel map (cpumode kernel): kallsyms */
};

/* perf's map__map_ip: the DSO-relative address ("rip") of ip in map. */
PK_API uint64_t pk_sym_map__map_ip(const struct pk_sym_map *map, uint64_t ip);

/*
 * The DSO of a map (found or created, shared by maps of one file and
 * build-id): never NULL except on ENOMEM. A map without a file (heap,
 * stack, anonymous memory that is not executable) gives a DSO without
 * symbols, named as perf names it.
 */
PK_API struct pk_dso *pk_symbolizer__map_dso(struct pk_symbolizer *s, const struct pk_sym_map *map);
/* The kernel DSO ([kernel.kallsyms]); build_id: the recorded kernel's, NULL when unknown. */
PK_API struct pk_dso *pk_symbolizer__kernel(struct pk_symbolizer *s, const uint8_t *build_id,
					    size_t build_id_size);
/*
 * The kernel's relocation, as perf's ref_reloc_sym: the kernel MMAP of a
 * recording is named "[kernel.kallsyms]_text" with pgoff the address _text
 * had then; kallsyms addresses move by the difference (KASLR after a
 * reboot). Before the DSO's first lookup; -EBUSY after.
 */
PK_API int pk_dso__kernel_reloc(struct pk_dso *d, const char *ref_sym, uint64_t recorded_addr);
/*
 * Where the kernel's own symbols end (module ones aside), loading them: perf
 * ends the kernel map there once kallsyms is loaded (map__fixup_end), past
 * _etext, so that init text (start_kernel...) resolves. 0 when unknown.
 */
PK_API uint64_t pk_dso__kernel_end(struct pk_dso *d);
/* A user DSO by path (and build-id when known), as a map of it would give. */
PK_API struct pk_dso *pk_symbolizer__dso(struct pk_symbolizer *s, const char *path,
					 const uint8_t *build_id, size_t build_id_size);

/* One symbol, as perf keeps it. */
struct pk_sym {
	uint64_t start, end;	/* rip space; end exclusive (perf's end) */
	const char *name;	/* demangled (and `name@plt`) as perf prints it */
	uint8_t binding;	/* STB_* */
	uint8_t type;		/* STT_* */
	/*
	 * perf's sym->inlined: a function inlined at an address (the frames of
	 * an unwound callchain entry, pmukit/session.h), start and end those of
	 * the symbol it was inlined into; 0 in a DSO's own table.
	 */
	uint8_t inlined;
};

/* The symbol containing rip (perf's dso__find_symbol), NULL when none. Loads the symbols on first use. */
PK_API const struct pk_sym *pk_dso__find(struct pk_dso *d, uint64_t rip);
/*
 * Whether the symbols are loaded: a lookup would not wait (for this thread or
 * the one loading them, such as a session's prefetch worker).
 */
PK_API bool pk_dso__loaded(const struct pk_dso *d);
/* All symbols, sorted by start (loads them). */
PK_API size_t pk_dso__nr_syms(struct pk_dso *d);
PK_API const struct pk_sym *pk_dso__sym(struct pk_dso *d, size_t i);

/* perf's long name ("/usr/bin/ls", "[kernel.kallsyms]", "/tmp/perf-42.map", "[vdso]", "[heap]"). */
PK_API const char *pk_dso__name(const struct pk_dso *d);
/*
 * The DSO's place in its symbolizer's creation order (0 first). perf breaks ties
 * between DSOs by their addresses, which in its single-threaded reading follow
 * the order it creates them in; this order is that one, whatever threads
 * pmukit's allocations came from.
 */
PK_API uint64_t pk_dso__order(const struct pk_dso *d);
/* perf's short name: the long name's basename for files, else the long name. */
PK_API const char *pk_dso__short_name(const struct pk_dso *d);
/* The file symbols came from (a debug file, the build-id cache, ...), NULL before loading or when none. */
PK_API const char *pk_dso__symsrc(struct pk_dso *d);
/*
 * The binary itself (its code, .eh_frame, as perf's DSO data file: the
 * build-id cache's copy or the file under --symfs, the recorded build-id
 * checked), NULL when not found. Loads the symbols.
 */
PK_API const char *pk_dso__runtime(struct pk_dso *d);

enum pk_dso_kind {
	PK_DSO_USER,		/* an ELF file */
	PK_DSO_KERNEL,		/* [kernel.kallsyms] */
	PK_DSO_PERF_MAP,	/* /tmp/perf-PID.map: JIT symbols, absolute addresses */
	PK_DSO_VDSO,		/* [vdso] */
	PK_DSO_ANON,		/* no file: [heap], //anon (not executable), ... */
};
PK_API enum pk_dso_kind pk_dso__kind(const struct pk_dso *d);

/*
 * Why a DSO has no symbols: 0 when it has some; -ENOENT no file found,
 * -EILSEQ the file's build-id differs from the recorded one (perf: no
 * symbols), -ENOEXEC not ELF, -ENODATA no symbol table.
 */
PK_API int pk_dso__load_error(struct pk_dso *d);

/* One frame of a source position: innermost first. */
struct pk_srcline_frame {
	const char *func;	/* demangled as perf shows an inline frame; "??" when unknown */
	const char *file;	/* as in the debug info (full path); NULL: unknown ("??") */
	const char *file_base;	/* perf's srcline file part: basename unless PK_SYMBOLIZER_FULL_SRCLINE */
	unsigned line;		/* 0: unknown */
};

/*
 * Source position of rip (a user DSO's rip as pk_dso__find takes it), with
 * the inline chain: frames[0] is the code at rip (the innermost inlined
 * function, its file:line), frames[i + 1] the function that inlined
 * frames[i], at the call site. nr_frames == 0: addr2line would print "??"
 * (perf falls back to `sym+off`). perf's srcline is
 * "frames[0].file_base:frames[0].line", "??:0" when file is NULL.
 * Results are cached per DSO and address. An out struct: the caller sets
 * sz (sizeof(struct pk_srcline)) and only the fields within it are filled.
 * 0 or a negative errno (-EINVAL for an sz below sizeof(size_t)).
 */
struct pk_srcline {
	size_t sz;		/* sizeof(struct pk_srcline), set by the caller */
	size_t nr_frames;
	const struct pk_srcline_frame *frames;
	/* frames[0]'s line table row's discriminator (objdump -l's "(discriminator N)"); 0: none */
	unsigned discriminator;
	/* frames[0]'s function as the debug info names it (the linkage name, mangled); NULL: none */
	const char *func_raw;
};
PK_API int pk_dso__srcline(struct pk_dso *d, uint64_t rip, struct pk_srcline *out);

/*
 * perf's srcline string for rip: "file:line" ("??:0" for an unknown file);
 * NULL when addr2line finds nothing there, where perf 6.1 prints instead
 * "sym+DECIMAL_OFFSET" (sort key srcline: the symbol and rip - sym->start)
 * or "dso_short_name[HEX pk_dso__objdump_addr]" (no symbol; perf script's
 * srcline field, which omits answers starting with "??:0"). Lives as long
 * as the symbolizer.
 */
PK_API const char *pk_dso__srcline_str(struct pk_dso *d, uint64_t rip);

/*
 * perf's map__rip_2objdump: the address objdump/addr2line use for rip
 * (user DSOs: rip + .text's sh_addr - sh_offset; others: rip). perf prints
 * "dso_short_name[hex objdump address]" where a srcline is unknown.
 */
PK_API uint64_t pk_dso__objdump_addr(struct pk_dso *d, uint64_t rip);

/* Demangle as perf 6.1 does with these flags (PK_SYMBOLIZER_*); malloc'd, NULL when not mangled. */
PK_API char *pk_demangle(const char *name, unsigned flags);

/* Parse a perf-PID.map (perf's format: "START SIZE name", hex) into symbols: for fuzzing and tests. */
struct pk_sym_table;
PK_API int pk_sym_table__parse_perf_map(struct pk_sym_table **out, const char *text, size_t len);
PK_API size_t pk_sym_table__nr(const struct pk_sym_table *t);
PK_API const struct pk_sym *pk_sym_table__sym(const struct pk_sym_table *t, size_t i);
PK_API const struct pk_sym *pk_sym_table__find(const struct pk_sym_table *t, uint64_t addr);
PK_API void pk_sym_table__free(struct pk_sym_table *t);

/* Parse kallsyms text as perf does (types T/W/D/B kept, ends fixed up); for fuzzing and tests. */
PK_API int pk_sym_table__parse_kallsyms(struct pk_sym_table **out, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
