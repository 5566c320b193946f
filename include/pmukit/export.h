/* SPDX-License-Identifier: MIT */
/*
 * pmukit/export.h — write a profile (pmukit/profile.h) for the viewers people
 * already use:
 *
 *   PK_EXPORT_FOLDED  folded stacks, as FlameGraph's stackcollapse-perf.pl
 *                     prints them for `perf script -F +pid` of the same
 *                     samples (its rules, odd cases included; its values
 *                     with PK_EXPORT_VALUE_SCRIPT)
 *   PK_EXPORT_PPROF   pprof's profile.proto, gzipped (go tool pprof, pprof-based
 *                     continuous profilers)
 *   PK_EXPORT_GECKO   the Firefox Profiler's processed-profile JSON (version 48;
 *                     the profiler upgrades it on load)
 *   PK_EXPORT_SVG     a plain SVG flame graph
 *   PK_EXPORT_HTML    a self-contained interactive flame graph: zoom, search,
 *                     tooltips, the hottest functions' annotations (with
 *                     annotate_session), no network access
 *
 *   pk_export__write(profile, PK_EXPORT_PPROF, stdout,
 *                    &(struct pk_export_opts){ .sz = sizeof(struct pk_export_opts) }, &err);
 *
 * The output is a function of the profile and the options only (no clock,
 * no environment), so the same profile always gives the same bytes (an HTML
 * page with annotations: and the binaries its session reads).
 */
#ifndef PMUKIT_EXPORT_H
#define PMUKIT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_session;	/* pmukit/session.h */

enum pk_export_format {
	PK_EXPORT_FOLDED,
	PK_EXPORT_PPROF,
	PK_EXPORT_GECKO,
	PK_EXPORT_SVG,
	PK_EXPORT_HTML,
};

/* What a stack's width counts (folded, flame graphs, Firefox sample weights). */
enum pk_export_value {
	PK_EXPORT_VALUE_SAMPLES = 0,	/* one per sample */
	PK_EXPORT_VALUE_COUNT,		/* the event's counts (periods) */
	PK_EXPORT_VALUE_WEIGHT,		/* the samples' weights */
	/*
	 * stackcollapse-perf.pl's weights: the period perf script prints on the
	 * sample's line (its count), 1 where that is 0. What pmukit export and
	 * pmukit flamegraph use for folded stacks and flame graphs by default.
	 */
	PK_EXPORT_VALUE_SCRIPT,
};

/* stackcollapse-perf.pl's options */
#define PK_EXPORT_PID		(1u << 0)	/* --pid: "comm-PID" as the first frame */
#define PK_EXPORT_TID		(1u << 1)	/* --tid: "comm-PID/TID" */
#define PK_EXPORT_KERNEL	(1u << 2)	/* --kernel: "_[k]" after kernel functions */
#define PK_EXPORT_JIT		(1u << 3)	/* --jit: "_[j]" after JIT functions */
#define PK_EXPORT_ADDRS		(1u << 4)	/* --addrs: "[dso <addr>]" for unknown symbols */
/* flame graphs */
#define PK_EXPORT_INVERTED	(1u << 8)	/* icicle: roots at the top */
/* pprof */
#define PK_EXPORT_NO_THREADS	(1u << 9)	/* no pid/tid/comm labels: one sample per stack */

struct pk_export_opts {
	size_t sz;			/* sizeof(struct pk_export_opts) */
	/*
	 * The event to write (folded, Firefox Profiler, flame graphs): its index
	 * plus one; 0 (the default) for the event of the first sample
	 * (stackcollapse-perf.pl's default filter). pprof writes every event.
	 */
	unsigned event_nr;
	/* what a stack's width counts; PK_EXPORT_VALUE_SCRIPT: stackcollapse-perf.pl's own values */
	enum pk_export_value value;
	unsigned flags;			/* PK_EXPORT_* */
	const char *title;		/* flame graphs; NULL: "Flame Graph" / "Icicle Graph" */
	unsigned width;			/* SVG width in pixels; 0: 1200 */
	int gzip_level;			/* pprof; 0: 1, the fastest (as Go's runtime/pprof) */
	/*
	 * PK_EXPORT_HTML: a session of the same perf.data, opened and not yet
	 * read. Its samples are annotated (pmukit/annotate.h, as pmukit
	 * annotate does) and the page embeds the hottest functions of the
	 * drawn event by self period: clicking a frame shows its instructions
	 * and source lines with their percents. NULL: none embedded (the
	 * frames say so). The caller frees it after pk_export__write.
	 */
	struct pk_session *annotate_session;
	unsigned annotate_max;		/* the N hottest functions; 0: 50 */
	size_t annotate_bytes;		/* cap on the annotations' JSON; 0: 4 MiB (PK_EXPORT_ANNOTATE_BYTES) */
};
#define PK_EXPORT_ANNOTATE_MAX		50
#define PK_EXPORT_ANNOTATE_BYTES	((size_t)4 << 20)

/* Write p in format to out. 0, or a negative errno with err filled. */
PK_API int pk_export__write(const struct pk_profile *p, enum pk_export_format format, FILE *out,
			    const struct pk_export_opts *opts, struct pk_error *err);

/* "folded", "pprof", "gecko" (also "firefox"), "svg", "html"; -EINVAL when unknown. */
PK_API int pk_export__parse_format(const char *name, enum pk_export_format *format);
PK_API const char *pk_export__format_name(enum pk_export_format format);

#ifdef __cplusplus
}
#endif
#endif
