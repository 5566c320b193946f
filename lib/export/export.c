/* SPDX-License-Identifier: MIT */
/* export/export.c — pk_export__write: options, the event to write, dispatch to the writers. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "export/export_int.h"
#include "util/error.h"
#include "util/opts.h"

#define OPT(o, f, dflt) PK_OPTS_GET(o, f, dflt)

static const char *const names[] = {
	[PK_EXPORT_FOLDED] = "folded",
	[PK_EXPORT_PPROF] = "pprof",
	[PK_EXPORT_GECKO] = "gecko",
	[PK_EXPORT_SVG] = "svg",
	[PK_EXPORT_HTML] = "html",
};

int pk_export__parse_format(const char *name, enum pk_export_format *format)
{
	if (!name || !format)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*format = (enum pk_export_format)i;
			return 0;
		}
	if (!strcmp(name, "firefox")) {
		*format = PK_EXPORT_GECKO;
		return 0;
	}
	return -EINVAL;
}

const char *pk_export__format_name(enum pk_export_format format)
{
	return (unsigned)format < sizeof(names) / sizeof(names[0]) ? names[format] : NULL;
}

long pk_strtab__add(struct pk_strtab *t, const char *s, size_t n)
{
	long off = pk_intern__add(&t->strs, s, n, 1);
	if (off < 0)
		return -1;
	uint32_t o = (uint32_t)off;
	if (!t->ids.size)
		pk_recset__init(&t->ids, sizeof(o));
	return (long)pk_recset__add(&t->ids, &o);
}

void pk_strtab__free(struct pk_strtab *t)
{
	pk_intern__free(&t->strs);
	pk_recset__free(&t->ids);
}

const char *pk_export__basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

const char *pk_export__frame_label(const struct pk_profile *p, uint32_t frame, char *tmp, size_t len)
{
	const struct pk_frame_rec *r = pk_profile__frame_rec(p, frame);
	const char *name = pk_profile__str(p, r->name);
	if (name)
		return name;
	const char *dso = pk_profile__str(p, r->dso);
	if (!dso)
		return "[unknown]";
	size_t n = strlen(dso);
	if (n >= 2 && dso[0] == '[' && dso[n - 1] == ']')
		return dso;	/* [kernel.kallsyms], [vdso]: already bracketed */
	snprintf(tmp, len, "[%s]", pk_export__basename(dso));
	return tmp;
}

const char *pk_export__value_unit(const struct pk_profile *p, const struct pk_xopts *x)
{
	if (x->value == PK_EXPORT_VALUE_SAMPLES || !p->nr_events)
		return "samples";
	const struct pk_event_rec *e = &p->events[x->event];
	const char *u = pk_profile__str(p, x->value == PK_EXPORT_VALUE_WEIGHT ? e->weight_unit : e->unit);
	return u ? u : "count";
}

int pk_export__write(const struct pk_profile *p, enum pk_export_format format, FILE *out,
		     const struct pk_export_opts *opts, struct pk_error *err)
{
	if (!p || !out)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no profile or output");
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_export_opts", opts->sz);
	struct pk_xopts x = {
		.event = -1,
		.value = OPT(opts, value, PK_EXPORT_VALUE_SAMPLES),
		.flags = OPT(opts, flags, 0u),
		.title = OPT(opts, title, (const char *)NULL),
		.width = OPT(opts, width, 0u),
		.gzip_level = OPT(opts, gzip_level, 0),
		.annotate_session = OPT(opts, annotate_session, (struct pk_session *)NULL),
		.annotate_max = OPT(opts, annotate_max, 0u),
		.annotate_bytes = OPT(opts, annotate_bytes, (size_t)0),
	};
	unsigned event_nr = OPT(opts, event_nr, 0u);
	if (event_nr > p->nr_events)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no event %u in the profile (%zu events)",
				     event_nr - 1, p->nr_events);
	x.event = (int)event_nr - 1;
	if ((unsigned)x.value > PK_EXPORT_VALUE_SCRIPT)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "unknown value kind %d", (int)x.value);
	if (x.event >= 0)
		x.event_given = 1;
	else
		x.event = p->nr_samples ? pk_profile__srec(p, 0)->event : 0;
	if (!x.width)
		x.width = 1200;
	if (!x.annotate_max)
		x.annotate_max = PK_EXPORT_ANNOTATE_MAX;
	if (!x.annotate_bytes)
		x.annotate_bytes = PK_EXPORT_ANNOTATE_BYTES;
	if (x.gzip_level < 0 || x.gzip_level > 9)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "gzip level %d not in 1..9", x.gzip_level);

	switch (format) {
	case PK_EXPORT_FOLDED:
		return pk_export__folded(p, out, &x, err);
	case PK_EXPORT_PPROF:
		return pk_export__pprof(p, out, &x, err);
	case PK_EXPORT_GECKO:
		return pk_export__gecko(p, out, &x, err);
	case PK_EXPORT_SVG:
		return pk_export__flamegraph(p, out, &x, 0, err);
	case PK_EXPORT_HTML:
		return pk_export__flamegraph(p, out, &x, 1, err);
	}
	return pk_error__set(err, -EINVAL, NULL, 0, 0, "unknown export format %d", (int)format);
}
