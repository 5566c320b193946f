/* SPDX-License-Identifier: MIT */
/*
 * json.c — an annotation as one line of JSON (`pmukit annotate --json`,
 * beyond perf): each instruction's address, text, source position, inline
 * chain, samples and period per event of the annotation.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <json-c/json.h>

#include <pmukit/annotate.h>

#include "annotate_priv.h"

static json_object *hex(uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_object_new_string(buf);
}

/* the values of the annotation's events, from v (indexed by attr) */
static json_object *per_event(const struct pk_annotation *an, const uint64_t *v)
{
	json_object *a = json_object_new_array();
	for (int m = an->attr; a && m < an->attr + an->nr_group; m++)
		json_object_array_add(a, json_object_new_uint64(v[m]));
	return a;
}

static json_object *frames(const struct pk_annotation_line *l)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; a && i < l->nr_frames; i++) {
		const struct pk_srcline_frame *fr = &l->frames[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "func", json_object_new_string(fr->func ? fr->func : "??"));
		json_object_object_add(o, "file", fr->file ? json_object_new_string(fr->file) : NULL);
		json_object_object_add(o, "line", json_object_new_int64(fr->line));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *insn(const struct pk_annotation *an, const struct pk_annotation_line *l)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "addr", hex(l->addr));
	json_object_object_add(o, "offset", json_object_new_int64(l->offset));
	const char *t = l->text;
	while (*t == ' ')
		t++;	/* perf's line keeps the spaces after "addr:" */
	json_object_object_add(o, "insn", json_object_new_string(t));
	json_object_object_add(o, "file", l->file ? json_object_new_string(l->file) : NULL);
	json_object_object_add(o, "line", json_object_new_int64(l->line));
	json_object_object_add(o, "srcline", l->srcline ? json_object_new_string(l->srcline) : NULL);
	json_object_object_add(o, "inline", frames(l));
	json_object_object_add(o, "samples", per_event(an, l->nr_samples));
	json_object_object_add(o, "period", per_event(an, l->period));
	if (an->topdown) {
		static const char *const names[4] = { "retiring", "bad_spec", "fe_bound", "be_bound" };
		json_object *td = json_object_new_object();
		for (int k = 0; td && k < 4; k++)
			json_object_object_add(td, names[k], isnan(l->topdown[k]) ? NULL
					       : json_object_new_double(l->topdown[k]));
		json_object_object_add(o, "topdown", td);
	}
	if (an->weights)
		json_object_object_add(o, "weight", l->nr_weighted ? json_object_new_double(l->avg_weight) : NULL);
	return o;
}

int pk_annotation__fprintf_json(const struct pk_annotation *an, FILE *f)
{
	json_object *root = json_object_new_object(), *ev = json_object_new_array(),
		    *ins = json_object_new_array(), *samples = json_object_new_array(),
		    *period = json_object_new_array();
	if (!root || !ev || !ins || !samples || !period) {
		json_object_put(root);
		json_object_put(ev);
		json_object_put(ins);
		json_object_put(samples);
		json_object_put(period);
		return -ENOMEM;
	}
	for (int m = an->attr; m < an->attr + an->nr_group; m++) {
		json_object_array_add(samples, json_object_new_uint64(an->sym_totals[m].nr_samples));
		json_object_array_add(period, json_object_new_uint64(an->sym_totals[m].period));
	}
	json_object_object_add(root, "dso", json_object_new_string(an->dso_long));
	json_object_object_add(root, "symbol", json_object_new_string(an->sym_name));
	json_object_object_add(root, "start", hex(an->start));
	for (int m = 0; m < an->nr_group; m++)
		json_object_array_add(ev, json_object_new_string(an->event_names[m]));
	json_object_object_add(root, "events", ev);
	json_object_object_add(root, "samples", samples);
	json_object_object_add(root, "period", period);
	for (size_t i = 0; i < an->nr_lines; i++)
		if (an->lines[i].offset >= 0)
			json_object_array_add(ins, insn(an, &an->lines[i]));
	json_object_object_add(root, "instructions", ins);
	int rc = fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN)) < 0 ? -EIO : 0;
	json_object_put(root);
	return rc;
}
