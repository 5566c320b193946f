/* SPDX-License-Identifier: MIT */
/*
 * lines.c — one symbol's annotation: objdump's text of its range
 * (objdump.c) read as perf 6.1 reads it (the binary's own lines skipped,
 * each line trimmed and its tabs expanded, `/file:N` lines setting the line
 * counter, "addr:" lines inside the symbol becoming instructions), and each
 * instruction given the samples in [its address, the next one's).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/annotate.h>
#include <pmukit/data_read.h>
#include <pmukit/session.h>
#include <pmukit/symbol.h>

#include "annotate_int.h"
#include "annotate_priv.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"

/* perf's strim: leading and trailing white space removed (in place). */
static char *strim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* perf's expand_tabs: each tab to the next multiple of 8 (malloc'd). */
static char *expand_tabs(const char *s)
{
	struct pk_buf b = { 0 };
	size_t tabs = 0, n = 0;
	for (; s[n]; n++)
		tabs += s[n] == '\t';
	pk_buf__reserve(&b, n + 7 * tabs + 1);	/* at most 8 columns a tab: one allocation */
	for (; *s; s++) {
		if (*s != '\t') {
			pk_buf__putc(&b, *s);
			continue;
		}
		do
			pk_buf__putc(&b, ' ');
		while (!b.err && b.len % 8);
	}
	pk_buf__putc(&b, '\0');
	if (b.err) {
		pk_buf__free(&b);
		return NULL;
	}
	return (char *)b.data;
}

/* perf's file_lineno regex "^/[^:]+:([0-9]+)": the number, or -1. */
static int file_lineno(const char *s)
{
	if (s[0] != '/')
		return -1;
	const char *c = strchr(s + 1, ':');
	if (!c || c == s + 1 || !isdigit((unsigned char)c[1]))
		return -1;
	return atoi(c + 1);
}

struct build {
	struct pk_annotation *an;
	size_t cap_lines, cap_texts;
};

static int add_text(struct build *b, char *text)
{
	struct pk_annotation *an = b->an;
	if (PK_GROW(an->texts, b->cap_texts, an->nr_texts + 1)) {
		free(text);
		return -ENOMEM;
	}
	an->texts[an->nr_texts++] = text;
	return 0;
}

static int parse_line(struct build *b, const char *binary, char *raw, int *line_nr, uint64_t start,
		      uint64_t end)
{
	const char *m = strstr(raw, binary);
	if (m && m[strlen(binary)] == ':')
		return 0;
	char *text = expand_tabs(strim(raw));
	if (!text || add_text(b, text))
		return -ENOMEM;
	int nr = file_lineno(text);
	if (nr >= 0) {
		*line_nr = nr;
		return 0;
	}
	struct pk_annotation *an = b->an;
	if (PK_GROW(an->lines, b->cap_lines, an->nr_lines + 1))
		return -ENOMEM;
	struct pk_annotation_line *l = &an->lines[an->nr_lines++];
	memset(l, 0, sizeof(*l));
	l->offset = -1;
	l->text = text;
	char *tmp;
	uint64_t ip = strtoull(text, &tmp, 16);
	if (tmp != text && tmp[0] == ':' && tmp[1] != '\0' && ip >= start && ip < end) {
		l->offset = (int64_t)(ip - start);
		l->addr = ip;
		l->text = tmp + 1;
	}
	l->line_nr = (*line_nr)++;
	return 0;
}

/* Each hit to the instruction at or before it; the instructions' source positions. */
static int count_hits(struct build *b, const struct ann_entry *e, struct pk_dso *dso,
		      uint64_t rip_delta)
{
	struct pk_annotation *an = b->an;
	size_t nr_insn = 0;
	for (size_t i = 0; i < an->nr_lines; i++)
		nr_insn += an->lines[i].offset >= 0;
	size_t *idx = malloc((nr_insn ? nr_insn : 1) * sizeof(*idx));
	an->counts = calloc((nr_insn ? nr_insn : 1) * 2 * an->nr_attrs, sizeof(*an->counts));
	if (!idx || !an->counts) {
		free(idx);
		return -ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < an->nr_lines; i++) {
		struct pk_annotation_line *l = &an->lines[i];
		if (l->offset < 0)
			continue;
		l->nr_samples = an->counts + k * 2 * an->nr_attrs;
		l->period = l->nr_samples + an->nr_attrs;
		struct pk_srcline sl = { .sz = sizeof(sl) };
		if (!pk_dso__srcline(dso, l->addr - rip_delta, &sl) && sl.nr_frames) {
			l->file = sl.frames[0].file;
			l->line = sl.frames[0].line;
			l->nr_frames = sl.nr_frames;
			l->frames = sl.frames;
		}
		l->srcline = pk_dso__srcline_str(dso, l->addr - rip_delta);
		if (!l->srcline) {
			char *s = NULL;
			if (asprintf(&s, "%s[%" PRIx64 "]", pk_dso__short_name(dso), l->addr) < 0 ||
			    add_text(b, s)) {
				free(idx);
				return -ENOMEM;
			}
			l->srcline = s;
		}
		idx[k++] = i;
	}
	for (size_t h = 0; h < e->nr_hits; h++) {
		int64_t off = (int64_t)(e->hits[h].rip - e->sym->start);
		size_t lo = 0, hi = nr_insn;
		while (lo < hi) {	/* the first instruction past off */
			size_t mid = (lo + hi) / 2;
			if (an->lines[idx[mid]].offset <= off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo || (size_t)e->hits[h].attr >= an->nr_attrs)
			continue;
		struct pk_annotation_line *l = &an->lines[idx[lo - 1]];
		const struct ann_hit *hit = &e->hits[h];
		uint64_t *c = (uint64_t *)l->nr_samples;
		c[hit->attr] += hit->nr_samples;
		c[an->nr_attrs + hit->attr] += hit->period;
		if (hit->nr_weighted && hit->attr >= an->attr && hit->attr < an->attr + an->nr_group) {
			l->nr_weighted += hit->nr_weighted;
			l->avg_weight += (double)hit->weight;	/* the sum, until extra.c */
		}
	}
	free(idx);
	ann_extra__compute(an);
	return 0;
}

/* The binary at path, opened or from the cache (moved to its front); NULL with err set. */
static struct ann_objfile *open_obj(struct pk_annotate *a, const char *path, const char *debug,
				    struct pk_error *err)
{
	size_t i = 0;
	while (i < a->nr_objs && strcmp(a->objs[i].path, path))
		i++;
	if (i == a->nr_objs) {
		struct ann_obj_slot n = { strdup(path), NULL };
		if (!n.path) {
			pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
			return NULL;
		}
		if (ann_objfile__open(&n.obj, path, debug, a->opts.disassembler_style, err)) {
			free(n.path);
			return NULL;
		}
		if (a->nr_objs == ANN_OBJ_CACHE) {	/* the least recently used goes */
			i = --a->nr_objs;
			ann_objfile__free(a->objs[i].obj);
			free(a->objs[i].path);
		}
		a->objs[a->nr_objs++] = n;
		i = a->nr_objs - 1;
	}
	struct ann_obj_slot hit = a->objs[i];
	memmove(&a->objs[1], &a->objs[0], i * sizeof(a->objs[0]));
	a->objs[0] = hit;
	return hit.obj;
}

/*
 * perf 6.1's answer for a kernel symbol without a vmlinux (pmukit reads
 * neither a vmlinux nor /proc/kcore yet): its message, with the recorded
 * kernel's build id when the file has it.
 */
static int no_vmlinux(struct pk_annotate *a, const struct ann_entry *e, struct pk_error *err)
{
	const struct pk_data_reader *r = pk_session__reader(a->s);
	char bid[2 * 20 + 16] = "";
	for (size_t i = 0; r && i < pk_data_reader__nr_build_ids(r); i++) {
		const struct pk_data_build_id *b = pk_data_reader__build_id(r, i);
		if (b->pid != -1 || !b->filename || strcmp(b->filename, pk_dso__name(e->dso)))
			continue;
		int n = snprintf(bid, sizeof(bid), " with build id ");
		for (unsigned k = 0; k < b->size && k < 20; k++)
			n += snprintf(bid + n, sizeof(bid) - (size_t)n, "%02x", b->id[k]);
		break;
	}
	return pk_error__set(err, -ENOENT, "", 0, 0,
			     "Couldn't annotate %s:\nNo vmlinux file%s\nwas found in the path.\n\n"
			     "Note that annotation using /proc/kcore requires CAP_SYS_RAWIO capability.\n\n"
			     "Please use:\n\n  perf buildid-cache -vu vmlinux\n\nor:\n\n  --vmlinux vmlinux",
			     e->sym->name, bid);
}

static int build(struct pk_annotation *an, struct pk_annotate *a, const struct ann_entry *e,
		 struct pk_error *err)
{
	struct pk_dso *dso = e->dso;
	enum pk_dso_kind kind = pk_dso__kind(dso);
	if (kind == PK_DSO_KERNEL && !pk_dso__runtime(dso))
		return no_vmlinux(a, e, err);	/* the kernel's is -k's vmlinux, or none */
	/* the vdso from the build-id cache, as perf disassembles it (not pmukit's own copy in memory) */
	const char *binary = kind == PK_DSO_USER || kind == PK_DSO_VDSO || kind == PK_DSO_KERNEL
			     ? pk_dso__runtime(dso) : NULL;
	if (binary && kind == PK_DSO_VDSO && binary[0] != '/')
		binary = NULL;
	if (!binary)
		return pk_error__set(err, -ENOENT, "", 0, 0, "Couldn't annotate %s: no binary for %s",
				     e->sym->name, pk_dso__name(dso));
	const char *debug = a->opts.flags & PK_ANNOTATE_NO_SOURCE ? NULL : pk_dso__symsrc(dso);
	struct ann_objfile *obj = open_obj(a, binary, debug, err);
	if (!obj)
		return err->code ? err->code : -EIO;
	int rc;
	uint64_t start = pk_dso__objdump_addr(dso, e->sym->start);
	uint64_t end = pk_dso__objdump_addr(dso, e->sym->end);
	struct ann_objdump_args args = {
		.obj = obj, .dso = dso, .start = start, .end = end,
		.rip_delta = (int64_t)(start - e->sym->start), .binary = binary, .flags = a->opts.flags,
		.debug_file = pk_dso__symsrc(dso) && strcmp(pk_dso__symsrc(dso), binary),
		.prefix = a->opts.prefix, .prefix_strip = a->opts.prefix_strip,
	};
	struct ann_text t;
	if ((rc = ann_objdump__text(&args, &t)))
		return pk_error__set(err, rc, binary, 0, 0, "Couldn't annotate %s: disassembly failed",
				     e->sym->name);
	struct build b = { .an = an };
	int line_nr = 0;
	for (size_t i = 0; !rc && i < t.nr; i++)
		rc = parse_line(&b, binary, t.lines[i], &line_nr, start, end);
	ann_text__free(&t);
	an->start = start;
	an->size = e->sym->end - e->sym->start;
	an->dso = dso;
	an->entry = e;
	an->rip_delta = (int64_t)(start - e->sym->start);
	if (!rc)
		rc = count_hits(&b, e, dso, start - e->sym->start);
	return rc ? pk_error__set(err, rc, "", 0, 0, "out of memory") : 0;
}

/* perf's evsel__group_desc: "anon group { a, b }" for a recorded group, "a, b" for a forced one */
static char *group_desc(struct pk_annotate *a, int leader, int nr)
{
	const struct pk_data_attr *la = pk_session__attr(a->s, leader);
	bool recorded = la && la->nr_members > 1;
	struct pk_buf b = { 0 };
	if (recorded)
		pk_buf__printf(&b, "%s { ", la->group_name ? la->group_name : "anon group");
	bool first = true;
	for (int m = 0; m < nr; m++) {
		if (!a->totals[leader + m].nr_samples)
			continue;
		const char *name = pk_session__event_name(a->s, leader + m);
		pk_buf__printf(&b, "%s%s", first ? "" : ", ", name ? name : "");
		first = false;
	}
	if (recorded)
		pk_buf__puts(&b, " }");
	pk_buf__putc(&b, '\0');
	if (b.err) {
		pk_buf__free(&b);
		return NULL;
	}
	return (char *)b.data;
}

int pk_annotation__new_group(struct pk_annotation **out, struct pk_annotate *a, int leader, int nr,
			     size_t i, struct pk_error *err)
{
	*out = NULL;
	if (i >= pk_annotate__nr_group_entries(a, leader, nr))
		return pk_error__set(err, -EINVAL, "", 0, 0, "no entry %zu for event %d", i, leader);
	const struct ann_entry *e = &a->entries[a->order[i]];
	struct pk_annotation *an = calloc(1, sizeof(*an));
	if (!an)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	an->nr_attrs = a->nr_attrs;
	an->attr = leader;
	an->nr_group = nr;
	an->a = a;
	const struct pk_data_attr *la = pk_session__attr(a->s, leader);
	an->sample_freq = la ? la->attr.sample_freq : 0;
	an->sym_totals = malloc(a->nr_attrs * sizeof(*an->sym_totals));
	an->ev_totals = malloc(a->nr_attrs * sizeof(*an->ev_totals));
	if (an->sym_totals && an->ev_totals) {
		memcpy(an->sym_totals, e->ev, a->nr_attrs * sizeof(*an->sym_totals));
		memcpy(an->ev_totals, a->totals, a->nr_attrs * sizeof(*an->ev_totals));
	}
	if (nr > 1) {
		an->event = group_desc(a, leader, nr);
	} else {
		const char *ev = pk_session__event_name(a->s, leader);
		an->event = strdup(ev ? ev : "");
	}
	/* perf names the kernel by its vmlinux once it read it (dso__load_vmlinux's long name) */
	const char *vml = pk_dso__kind(e->dso) == PK_DSO_KERNEL ? pk_dso__runtime(e->dso) : NULL;
	const char *slash = vml ? strrchr(vml, '/') : NULL;
	an->dso_long = strdup(vml ? vml : pk_dso__name(e->dso));
	an->dso_short = strdup(vml ? (slash ? slash + 1 : vml) : pk_dso__short_name(e->dso));
	an->sym_name = strdup(e->sym->name);
	bool names = (an->event_names = calloc((size_t)nr, sizeof(*an->event_names))) != NULL;
	for (int m = 0; names && m < nr; m++) {
		const char *n = pk_session__event_name(a->s, leader + m);
		names = (an->event_names[m] = strdup(n ? n : "")) != NULL;
	}
	int rc = an->event && an->dso_long && an->dso_short && an->sym_totals && an->ev_totals &&
		 an->sym_name && names
		? build(an, a, e, err) : pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	if (rc) {
		pk_annotation__free(an);
		return rc;
	}
	*out = an;
	return 0;
}

int pk_annotation__new(struct pk_annotation **out, struct pk_annotate *a, int attr, size_t i,
		       struct pk_error *err)
{
	return pk_annotation__new_group(out, a, attr, 1, i, err);
}

void pk_annotation__free(struct pk_annotation *an)
{
	if (!an)
		return;
	for (size_t i = 0; i < an->nr_texts; i++)
		free(an->texts[i]);
	free(an->texts);
	free(an->lines);
	free(an->counts);
	free(an->sym_totals);
	free(an->ev_totals);
	free(an->event);
	for (int m = 0; an->event_names && m < an->nr_group; m++)
		free(an->event_names[m]);
	free(an->event_names);
	free(an->sym_name);
	free(an->dso_long);
	free(an->dso_short);
	free(an);
}

size_t pk_annotation__nr_lines(const struct pk_annotation *an)
{
	return an->nr_lines;
}

const struct pk_annotation_line *pk_annotation__line(const struct pk_annotation *an, size_t i)
{
	return i < an->nr_lines ? &an->lines[i] : NULL;
}
