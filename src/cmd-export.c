/* SPDX-License-Identifier: MIT */
/*
 * cmd-export.c — `pmukit export --format folded|pprof|gecko [-i FILE] [-o OUT]`:
 * a perf.data file's samples, read through the session layer into a
 * profile (pk_session__fill_profile), written by the exporters
 * (pmukit/export.h): folded stacks as stackcollapse-perf.pl makes them
 * from perf script's text, gzipped pprof, the Firefox Profiler's format;
 * --push sends the pprof to a Pyroscope-compatible store (export-push.c).
 * Also the profile loader `pmukit flamegraph` uses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>
#include <pmukit/session.h>

#include "export-cli.h"

int export__load(const char *prog, const struct cli_data *d, unsigned prof_flags,
		 struct pk_profile **out)
{
	struct pk_symbolizer_opts so = { .sz = sizeof(so) };
	struct pk_session_opts o = { .sz = sizeof(o) };
	cli_data__session_opts(d, &o, &so);
	struct pk_session_profile_opts po = { .sz = sizeof(po), .flags = prof_flags };
	struct pk_error err = { 0 };
	struct pk_session *s = NULL;
	char buf[1024];
	*out = NULL;
	if (pk_profile__new(out)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	if (pk_session__open(&s, d->input, &o, &err) || pk_session__fill_profile(s, *out, &po, &err)) {
		fprintf(stderr, "%s: %s\n", prog, pk_error__format(&err, buf, sizeof(buf)));
		pk_session__free(s);
		pk_profile__free(*out);
		*out = NULL;
		return -1;
	}
	pk_session__free(s);
	return 0;
}

/* stackcollapse-perf.pl's note when it drops other events' samples: only the first's are written */
static void first_event_note(const char *prog, const struct pk_profile *p)
{
	struct pk_profile_sample s;
	struct pk_profile_event ev;
	size_t n = pk_profile__nr_samples(p);
	if (!n || pk_profile__sample(p, 0, &s))
		return;
	uint32_t first = s.event;
	for (size_t i = 1; i < n; i++)
		if (!pk_profile__sample(p, i, &s) && s.event != first) {
			if (!pk_profile__event(p, first, &ev))
				fprintf(stderr, "%s: only the samples of %s, the first sample's event, are written"
					" (--event N for another)\n", prog, ev.name);
			return;
		}
}

/*
 * The session an HTML page's annotations are read from: the file again (as pmukit
 * annotate opens it), NULL without one (--annotate 0, a pipe). 0, or -1 (said why).
 */
static int annotate_session(const char *prog, const struct export_annotate *ann,
			    struct pk_export_opts *eo, struct pk_session **out)
{
	*out = NULL;
	if (!ann || ann->max <= 0 || !strcmp(ann->d->input, "-"))
		return 0;
	struct pk_symbolizer_opts so = { .sz = sizeof(so) };
	struct pk_session_opts o = { .sz = sizeof(o) };
	cli_data__session_opts(ann->d, &o, &so);
	o.flags |= PK_SESSION_NO_INLINE;	/* the sample's own symbol is what is annotated */
	struct pk_error err = { 0 };
	char buf[1024];
	if (pk_session__open(out, ann->d->input, &o, &err)) {
		fprintf(stderr, "%s: %s\n", prog, pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	eo->annotate_session = *out;
	eo->annotate_max = (unsigned)ann->max;
	eo->annotate_bytes = (size_t)ann->kib << 10;
	return 0;
}

int export__write(const char *prog, const struct pk_profile *p, enum pk_export_format fmt,
		  const char *output, const struct pk_export_opts *eo_in, const struct export_annotate *ann)
{
	struct pk_error err = { 0 };
	char buf[1024];
	struct pk_export_opts eo_copy = *eo_in, *eo = &eo_copy;
	struct pk_session *as = NULL;
	if (ann && ann->max < 0) {
		fprintf(stderr, "%s: --annotate %d: a count of functions, 0 for none\n", prog, ann->max);
		return -1;
	}
	if (fmt == PK_EXPORT_HTML && annotate_session(prog, ann, eo, &as))
		return -1;
	bool to_stdout = !output || !strcmp(output, "-");
	FILE *f = to_stdout ? stdout : fopen(output, "wb");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
		pk_session__free(as);
		return -1;
	}
	int rc = pk_export__write(p, fmt, f, eo, &err);
	pk_session__free(as);
	if (!rc && fmt != PK_EXPORT_PPROF && !eo->event_nr)
		first_event_note(prog, p);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, pk_error__format(&err, buf, sizeof(buf)));
	if ((to_stdout ? fflush(f) : fclose(f)) && !rc) {
		fprintf(stderr, "%s: %s: %s\n", prog, to_stdout ? "stdout" : output, strerror(errno));
		rc = -1;
	}
	return rc ? -1 : 0;
}

int export__parse_value(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct pk_export_opts *eo = opt->value;
	if (unset || !strcmp(arg, "script"))
		eo->value = PK_EXPORT_VALUE_SCRIPT;
	else if (!strcmp(arg, "samples"))
		eo->value = PK_EXPORT_VALUE_SAMPLES;
	else if (!strcmp(arg, "count"))
		eo->value = PK_EXPORT_VALUE_COUNT;
	else if (!strcmp(arg, "weight"))
		eo->value = PK_EXPORT_VALUE_WEIGHT;
	else
		return cli_opts__error(opt, "is script, samples, count or weight, not '%s'", arg);
	return 0;
}

/* --format, checked against --push and its options; 0 or -1 (said why). */
static int export_format(const char *format, const struct export_push *push,
			 enum pk_export_format *fmt)
{
	if (!push->url && (push->app || push->tenant || push->nr_labels)) {
		fprintf(stderr, "pmukit export: --app, --label and --tenant go with --push URL\n");
		return -1;
	}
	if (!format && push->url)
		format = "pprof";	/* what --push sends */
	if (!format) {
		fprintf(stderr, "pmukit export: --format folded|pprof|gecko is required\n");
		return -1;
	}
	if (pk_export__parse_format(format, fmt)) {
		fprintf(stderr, "pmukit export: unknown format '%s' (folded, pprof, gecko, svg, html)\n",
			format);
		return -1;
	}
	if (push->url && *fmt != PK_EXPORT_PPROF) {
		fprintf(stderr, "pmukit export: --push sends pprof, not %s (--format pprof)\n", format);
		return -1;
	}
	return push->url ? export_push__check_url("pmukit export", push->url) : 0;
}

/* Load, then write to -o (stdout without -o and --push) and push; the exit status. */
static int export_run(const struct cli_data *d, unsigned prof_flags, enum pk_export_format fmt,
		      const char *output, const struct pk_export_opts *eo, const struct export_push *push,
		      const struct export_annotate *ann)
{
	struct pk_profile *p;
	if (export__load("pmukit export", d, prof_flags, &p))
		return 1;
	if (fmt == PK_EXPORT_PPROF)	/* time_nanos (and --push's from/until) in wall-clock time */
		export__wall_clock(p, d->input);
	int rc = 0;
	if (output || !push->url)
		rc = export__write("pmukit export", p, fmt, output, eo, ann);
	if (!rc && push->url)
		rc = export_push__send("pmukit export", push, p, eo);
	pk_profile__free(p);
	return rc ? 1 : 0;
}

int cmd_export(int argc, char **argv)
{
	struct cli_data d;
	const char *output = NULL, *format = NULL;
	bool inl = false, srcline = false, pid = false, tid = false, kernel = false, jit = false,
	     addrs = false;
	/* no --value: folded stacks and flame graphs as stackcollapse-perf.pl, gecko by samples */
	const enum pk_export_value no_value = (enum pk_export_value)~0u;
	struct pk_export_opts eo = { .sz = sizeof(eo), .value = no_value };
	struct export_push push = { 0 };
	int event = -1;
	cli_data__init(&d);
	struct export_annotate ann = { .d = &d, .max = EXPORT_ANNOTATE_MAX };
	const struct cli_opt opts[] = {
		CLI_STRING('f', "format", &format, "fmt",
			   "folded, pprof, gecko (also svg, html: a flame graph)"),
		CLI_STRING('o', "output", &output, "file", "where to write (default stdout)"),
		CLI_DATA_OPTIONS(&d),
		CLI_BOOL(0, "inline", &inl, "inline functions as frames of their own"),
		CLI_BOOL(0, "srcline", &srcline, "source file and line of each frame (pprof, gecko)"),
		CLI_BOOL(0, "pid", &pid, "folded: comm-PID as the root frame"),
		CLI_BOOL(0, "tid", &tid, "folded: comm-PID/TID as the root frame"),
		CLI_BOOL(0, "kernel", &kernel, "folded: mark kernel frames (_[k])"),
		CLI_BOOL(0, "jit", &jit, "folded: mark JIT frames (_[j])"),
		CLI_BOOL(0, "addrs", &addrs, "folded: [dso <addr>] for frames without a symbol"),
		CLI_INT(0, "event", &event, "n", "the event to write (index; default: the first sample's)"),
		CLI_CALLBACK(0, "value", &eo, "what", "script (perf script's periods, as stackcollapse-perf.pl; "
			     "the default, gecko: samples), samples, count or weight", export__parse_value),
		EXPORT_ANNOTATE_OPTIONS(&ann),
		CLI_STRING(0, "push", &push.url, "url", "send the pprof profile to a Pyroscope-compatible "
			   "store: POST URL/ingest (plain http://)"),
		CLI_STRING(0, "app", &push.app, "name", "--push: the application name (default: the "
			   "comm of the recorded process with the most samples)"),
		CLI_CALLBACK(0, "label", &push, "k=v", "--push: a label of the profile (repeatable)",
			     export_push__label),
		CLI_STRING(0, "tenant", &push.tenant, "id", "--push: the tenant (X-Scope-OrgID header)"),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts,
				"pmukit export --format folded|pprof|gecko [-i FILE] [-o OUT] [<options>]\n"
				"   or: pmukit export --format pprof --push URL [--app NAME] [--label K=V]... "
				"[--tenant ID]\n\n"
				"Write the samples of a perf.data file for other tools: folded stacks\n"
				"(FlameGraph, speedscope), pprof (go tool pprof, continuous profilers),\n"
				"gecko (the Firefox Profiler). Without -o the output goes to stdout;\n"
				"with --push (and no -o) it goes to the store only.", 0);
	if (n < 0) {
		export_push__free(&push);
		return n == CLI_HELP ? 0 : 129;
	}
	if (event >= 0)
		eo.event_nr = (unsigned)event + 1;
	unsigned prof_flags = (inl ? PK_PROFILE_INLINE : 0) | (srcline ? PK_PROFILE_SRCLINE : 0);
	eo.flags |= (pid ? PK_EXPORT_PID : 0) | (tid ? PK_EXPORT_TID : 0) |
		    (kernel ? PK_EXPORT_KERNEL : 0) | (jit ? PK_EXPORT_JIT : 0) |
		    (addrs ? PK_EXPORT_ADDRS : 0);
	int rc = 129;
	enum pk_export_format fmt;
	if (n)
		fprintf(stderr, "pmukit export: unexpected argument '%s'\n", argv[0]);
	else if (export_format(format, &push, &fmt))
		;
	else {
		if (eo.value == no_value)
			eo.value = fmt == PK_EXPORT_GECKO ? PK_EXPORT_VALUE_SAMPLES : PK_EXPORT_VALUE_SCRIPT;
		rc = export_run(&d, prof_flags, fmt, output, &eo, &push, &ann);
	}
	export_push__free(&push);
	return rc;
}
