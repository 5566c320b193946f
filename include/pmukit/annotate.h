/* SPDX-License-Identifier: MIT */
/*
 * pmukit/annotate.h — perf annotate in process: the samples of a session
 * gathered per symbol and per event, and a symbol's instructions (binutils'
 * libopcodes, the disassembler objdump uses) with its source lines (the
 * library's line tables) as perf 6.1 shows them, each instruction with the
 * samples and period that fell on it.
 *
 *   struct pk_annotate *a;
 *   struct pk_annotation *an;
 *   struct pk_annotate_opts o = { .sz = sizeof(o) };   // zero: perf's defaults
 *   if (pk_annotate__new(&a, session, &o, &err)) die(&err);
 *   if (pk_annotate__process(a, &err)) die(&err);       // reads the session's samples
 *   for (size_t i = 0; i < pk_annotate__nr_entries(a, attr); i++) {   // hottest first
 *           if (pk_annotation__new(&an, a, attr, i, &err)) { report(&err); continue; }
 *           pk_annotation__fprintf(an, stdout, NULL);   // perf annotate --stdio
 *           for (size_t l = 0; l < pk_annotation__nr_lines(an); l++)
 *                   use(pk_annotation__line(an, l));    // rows: instructions and text
 *           pk_annotation__free(an);
 *   }
 *   pk_annotate__free(a);
 *
 * Lines. An annotation is the list of lines perf 6.1 builds from objdump's
 * `-l -d -S -C` output of the symbol's range: text lines (offset -1: the
 * section and symbol headers, `func():` lines, source lines) and
 * instruction lines (offset from the symbol's start). Each instruction line
 * carries the counts of the samples in [its address, the next
 * instruction's), per event, and the source position of its address.
 */
#ifndef PMUKIT_ANNOTATE_H
#define PMUKIT_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_annotate;
struct pk_annotation;

/* pk_annotate_opts.flags */
enum {
	PK_ANNOTATE_NO_SOURCE	= 1u << 0,	/* no source lines (perf --no-source) */
	PK_ANNOTATE_ASM_RAW	= 1u << 1,	/* the instructions' bytes too (perf --asm-raw) */
	/* symbols of equal period in different DSOs ordered by the DSOs' long names (perf -v) */
	PK_ANNOTATE_LONG_DSO_ORDER = 1u << 2,
};

/* Fields past sz (an older caller's struct) take their defaults; all zero: perf's defaults. */
struct pk_annotate_opts {
	size_t sz;			/* sizeof(struct pk_annotate_opts) */
	unsigned flags;			/* PK_ANNOTATE_* */
	/* -M/--disassembler-style: "intel", "att" (libopcodes' options); NULL: the default (AT&T). */
	const char *disassembler_style;
	/*
	 * Only this symbol (perf annotate SYMBOL / -s): samples elsewhere are
	 * left out of every total, as perf 6.1 drops them. NULL: all.
	 */
	const char *symbol;
	/* -d/--dsos: a comma separated list of DSO short or long names; NULL: all. */
	const char *dsos;
	/*
	 * objdump's --prefix and --prefix-strip (perf passes them on): absolute
	 * source paths become prefix + the path without its first prefix_strip
	 * directories, in the `/file:N` lines and where the source is read.
	 * NULL: as recorded.
	 */
	const char *prefix;
	int prefix_strip;
};

/* perf's --percent-type */
enum pk_annotate_percent {
	PK_PERCENT_LOCAL_PERIOD,	/* the default */
	PK_PERCENT_GLOBAL_PERIOD,
	PK_PERCENT_LOCAL_HITS,
	PK_PERCENT_GLOBAL_HITS,
};

PK_API int pk_annotate__new(struct pk_annotate **out, struct pk_session *s,
			    const struct pk_annotate_opts *opts, struct pk_error *err);
PK_API void pk_annotate__free(struct pk_annotate *a);
/*
 * Add one resolved sample (pk_session__resolve's answer): to its symbol's
 * histogram and to its event's totals. 0 or -ENOMEM.
 */
PK_API int pk_annotate__add(struct pk_annotate *a, const struct pk_resolved *rs);
/* Read the rest of the session's events, adding every sample. 0 or a negative errno. */
PK_API int pk_annotate__process(struct pk_annotate *a, struct pk_error *err);

/* An event's totals: every sample added, with or without a symbol (perf's hists stats). */
PK_API uint64_t pk_annotate__total_samples(const struct pk_annotate *a, int attr);
PK_API uint64_t pk_annotate__total_period(const struct pk_annotate *a, int attr);

/* One symbol with samples of an event. */
struct pk_annotate_entry {
	size_t sz;			/* sizeof(struct pk_annotate_entry), set by the caller */
	struct pk_dso *dso;
	const struct pk_sym *sym;
	uint64_t nr_samples, period;	/* of the event */
};
/* The symbols with samples of event attr, hottest first (perf annotate's order). */
PK_API size_t pk_annotate__nr_entries(struct pk_annotate *a, int attr);
/* Entry i of pk_annotate__nr_entries' order. 0, or -EINVAL (out of range, bad sz). */
PK_API int pk_annotate__entry(struct pk_annotate *a, int attr, size_t i,
			      struct pk_annotate_entry *out);

/*
 * A group of events [leader, leader + nr) shown together (perf --group,
 * and perf's default for a recorded {a,b} group): the symbols with samples
 * of the leader, ordered by its period (as perf annotate orders them).
 */
PK_API size_t pk_annotate__nr_group_entries(struct pk_annotate *a, int leader, int nr);
PK_API int pk_annotate__group_entry(struct pk_annotate *a, int leader, int nr, size_t i,
				    struct pk_annotate_entry *out);

/* One line of an annotation. */
struct pk_annotation_line {
	int64_t offset;			/* from the symbol's start; -1: a text line */
	uint64_t addr;			/* objdump's address of an instruction (0 for text) */
	const char *text;		/* perf's line: the instruction after "addr:", or the text */
	int line_nr;			/* perf's line number of a text line (objdump line counter) */
	/* An instruction's source position (NULL, 0: unknown); innermost inline frame. */
	const char *file;
	unsigned line;
	/* Per attr: samples and period in [addr, next instruction) (NULL for text lines). */
	const uint64_t *nr_samples;
	const uint64_t *period;
	/* An instruction's srcline as perf prints it ("file.c:12", else "dso[objdump addr]"). */
	const char *srcline;
	/* An instruction's inline chain (pk_dso__srcline's frames: innermost first); 0: none. */
	size_t nr_frames;
	const struct pk_srcline_frame *frames;
	/*
	 * Beyond perf (fields added at the end: the library owns the lines).
	 * When the events annotated are a TopDown group ({slots,$ev,topdown-*}:S,
	 * slots leading), the instruction's Level 1 shares in percent of its
	 * slots, computed as report computes them per symbol: retiring, bad
	 * speculation, frontend bound, backend bound; NAN where not known (not
	 * such a group, no slots on the instruction, the member not recorded).
	 */
	double topdown[4];
	/* Its samples with a weight (-W: PERF_SAMPLE_WEIGHT or WEIGHT_STRUCT) and their average weight. */
	uint64_t nr_weighted;
	double avg_weight;
};

/*
 * Disassemble entry i of event attr: its lines, as perf 6.1 would build them
 * (the annotation is used while a lives: printing it keeps perf's state
 * from one symbol to the next there).
 * 0, or a negative errno with err filled with perf's reason (no binary, a
 * kernel symbol without vmlinux, ...).
 */
PK_API int pk_annotation__new(struct pk_annotation **out, struct pk_annotate *a, int attr, size_t i,
			      struct pk_error *err);
/* Entry i of a group: its lines, printed with a column per event of the group. */
PK_API int pk_annotation__new_group(struct pk_annotation **out, struct pk_annotate *a, int leader,
				    int nr, size_t i, struct pk_error *err);
PK_API void pk_annotation__free(struct pk_annotation *an);
PK_API size_t pk_annotation__nr_lines(const struct pk_annotation *an);
PK_API const struct pk_annotation_line *pk_annotation__line(const struct pk_annotation *an, size_t i);

/* pk_annotation_print_opts.flags */
enum {
	PK_ANNOTATE_PRINT_NR_SAMPLES	= 1u << 0,	/* -n: sample counts, not percents */
	PK_ANNOTATE_PRINT_PERIOD	= 1u << 1,	/* --show-total-period */
	PK_ANNOTATE_PRINT_FULL_PATH	= 1u << 2,	/* the DSO's long name in the header */
	/*
	 * -l: the sorted summary of source lines first, and instructions above
	 * 0.5% end with " // srcline" unless it is the one printed last
	 */
	PK_ANNOTATE_PRINT_LINES		= 1u << 3,
	/*
	 * perf annotate --stdio2's text instead: a title line ("Samples: ... of
	 * event ..., [percent: ...]", "sym() dso"), then each line as perf's
	 * annotate browser writes it (jump targets' offsets, arrows, operands
	 * with their symbols, perf's padding)
	 */
	PK_ANNOTATE_PRINT_STDIO2	= 1u << 4,
	/* -v (--stdio): after the header, the samples per sampled address of the leader, and their sum */
	PK_ANNOTATE_PRINT_VERBOSE	= 1u << 5,
};
struct pk_annotation_print_opts {
	size_t sz;			/* sizeof(struct pk_annotation_print_opts) */
	unsigned flags;			/* PK_ANNOTATE_PRINT_* */
	enum pk_annotate_percent percent_type;
};
/* perf annotate --stdio's (or --stdio2's) text of the annotation (opts NULL: the defaults). 0 or -EIO. */
PK_API int pk_annotation__fprintf(const struct pk_annotation *an, FILE *f,
				  const struct pk_annotation_print_opts *opts);

/*
 * The annotation as one line of JSON (beyond perf: for editors and scripts):
 * {"dso", "symbol", "start" (objdump address), "events": [names], "samples",
 * "period" (per event), "instructions": [{"addr", "offset", "insn", "file",
 * "line", "inline": [{"func", "file", "line"}...], "samples", "period",
 * and for a TopDown group "topdown": {"retiring", "bad_spec", "fe_bound",
 * "be_bound"} (percent, null: unknown), for weighted samples "weight": the
 * average (null: none on it)}]}.
 * 0 or a negative errno.
 */
PK_API int pk_annotation__fprintf_json(const struct pk_annotation *an, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
