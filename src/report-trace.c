/* SPDX-License-Identifier: MIT */
/*
 * report-trace.c — the text of a tracepoint sample for the "trace" sort key of
 * `pmukit report` and `pmukit diff` (perf's get_trace_output): the record's
 * print format applied through pmukit script's libtraceevent setup, made
 * when the first sample asks for it.
 */
#include "report-cli.h"

const char *report_trace__output(void *vctx, const struct pk_resolved *rs)
{
	struct report_trace *c = vctx;
	if (!c->tried) {
		c->tried = true;
		if (obuf__init(&c->ob, stdout) || script_trace__new(&c->t, c->rd))
			c->t = NULL;
	}
	if (!c->t)
		return NULL;
	const struct pk_data_attr *a = rs->data_attr;
	c->ob.buf.len = 0;
	/* perf's get_trace_output leaves the record's cpu 0 */
	if (!a || !script_trace__print(c->t, a->attr.config, 0, rs->sample->raw.data,
				       rs->sample->raw.size, &c->ob) || c->ob.buf.len >= c->ob.buf.cap)
		return NULL;
	return pk_buf__str(&c->ob.buf);
}

void report_trace__free(struct report_trace *c)
{
	script_trace__free(c->t);
	c->t = NULL;
	if (c->ob.buf.data) {
		c->ob.buf.len = 0;	/* obuf__free writes what is left: nothing here */
		obuf__free(&c->ob);
	}
}
