/* SPDX-License-Identifier: MIT */
/* export/export_int.h — what the writers of pmukit/export.h share. */
#ifndef PMUKIT_EXPORT_EXPORT_INT_H
#define PMUKIT_EXPORT_EXPORT_INT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pmukit/export.h>

#include "export/profile_int.h"
#include "util/buf.h"
#include "util/recset.h"

/* The options with defaults applied (older callers' shorter structs included). */
struct pk_xopts {
	int event;			/* resolved: a valid index (0 for a profile without events) */
	int event_given;		/* the caller chose it (else: the first sample's) */
	enum pk_export_value value;
	unsigned flags;
	const char *title;
	unsigned width;
	int gzip_level;
	struct pk_session *annotate_session;
	unsigned annotate_max;
	size_t annotate_bytes;
};

/* What sample i contributes to event ev under the value kind (0 when it took another event). */
static inline uint64_t pk_export__value(const struct pk_profile *p, size_t i, int ev,
					enum pk_export_value kind)
{
	if (pk_profile__srec(p, i)->event != (uint32_t)ev)
		return 0;
	struct pk_profile_value v = pk_profile__s_value(p, i, (uint32_t)ev);
	return kind == PK_EXPORT_VALUE_COUNT ? v.count :
	       kind == PK_EXPORT_VALUE_WEIGHT ? v.weight :
	       kind == PK_EXPORT_VALUE_SCRIPT && v.count ? v.count : 1;
}

/* The unit of the chosen value: "samples", the event's unit, or its weight unit. */
const char *pk_export__value_unit(const struct pk_profile *p, const struct pk_xopts *x);

/* Append a NUL-terminated string / a formatted number; -1 on ENOMEM. */
static inline int pk_export__puts(struct pk_buf *b, const char *s)
{
	return pk_buf__append(b, s, strlen(s)) < 0 ? -1 : 0;
}

/*
 * The frame's name in flame graphs, pprof and the Firefox Profiler: an unknown one is
 * "[dso-basename]", a bracketed dso as it is ("[kernel.kallsyms]"), else "[unknown]".
 */
const char *pk_export__frame_label(const struct pk_profile *p, uint32_t frame, char *tmp, size_t len);
/* The part of a path after its last '/'. */
const char *pk_export__basename(const char *path);

/* Strings numbered densely in first-seen order (pprof's string_table, Firefox's stringArray). */
struct pk_strtab {
	struct pk_intern strs;
	struct pk_recset ids;		/* offsets into strs */
};

long pk_strtab__add(struct pk_strtab *t, const char *s, size_t n);	/* index, -1 on ENOMEM */
static inline long pk_strtab__str(struct pk_strtab *t, const char *s)
{
	return pk_strtab__add(t, s ? s : "", s ? strlen(s) : 0);
}
static inline size_t pk_strtab__nr(const struct pk_strtab *t)
{
	return pk_recset__nr(&t->ids);
}
static inline const char *pk_strtab__get(const struct pk_strtab *t, size_t i)
{
	return (const char *)t->strs.buf.data + *(const uint32_t *)pk_recset__get(&t->ids, i);
}
void pk_strtab__free(struct pk_strtab *t);

int pk_export__folded(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		      struct pk_error *err);
int pk_export__pprof(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		     struct pk_error *err);
int pk_export__gecko(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
		     struct pk_error *err);
/*
 * The flame graph page's annotations (flame_annotate.c): the hottest
 * functions of the drawn event annotated through pmukit/annotate.h, as the
 * JSON the page's script reads, and for each frame its annotation or why
 * it has none.
 */
struct pk_flame_ann;
/* Annotate (x->annotate_session; none: every frame says so). 0 or -ENOMEM (err filled). */
int pk_flame_ann__new(struct pk_flame_ann **out, const struct pk_profile *p, const struct pk_xopts *x,
		      struct pk_error *err);
void pk_flame_ann__free(struct pk_flame_ann *fa);
/* A frame's value in the page: its annotation's index, or -(reason + 1). UINT32_MAX: no frame. */
long pk_flame_ann__of(const struct pk_flame_ann *fa, const struct pk_profile *p, uint32_t frame);
/* Write the JSON of the annotations (escaped for a <script> element). 0 or -ENOMEM. */
int pk_flame_ann__write(const struct pk_flame_ann *fa, FILE *out);

int pk_export__flamegraph(const struct pk_profile *p, FILE *out, const struct pk_xopts *x,
			  int html, struct pk_error *err);

#endif
