/* SPDX-License-Identifier: MIT */
/*
 * cmd-export.c — `pmukit export --format folded|pprof|gecko [-i FILE] [-o OUT]`:
 * a perf.data file's samples, read through the session layer into a
 * profile (pk_session__fill_profile), written by the exporters
 * (pmukit/export.h): folded stacks as stackcollapse-perf.pl makes them
 * from perf script's text, gzipped pprof, the Firefox Profiler's format.
 * Also the profile loader `pmukit flamegraph` uses.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>
#include <pmukit/session.h>

int cmd_export(int argc, char **argv);
int export__load(const char *prog, const char *input, const char *symfs, unsigned sym_flags,
		 unsigned prof_flags, struct pk_profile **out);
int export__write(const char *prog, const struct pk_profile *p, enum pk_export_format fmt,
		  const char *output, const struct pk_export_opts *eo);

/* Read input into a new profile; prints its own message; 0 or -1. */
int export__load(const char *prog, const char *input, const char *symfs, unsigned sym_flags,
		 unsigned prof_flags, struct pk_profile **out)
{
	struct pk_symbolizer_opts so = { .sz = sizeof(so), .flags = sym_flags };
	struct pk_session_opts o = { .sz = sizeof(o), .symbolizer = &so, .symfs = symfs };
	struct pk_session_profile_opts po = { .sz = sizeof(po), .flags = prof_flags };
	struct pk_error err = { 0 };
	struct pk_session *s = NULL;
	char buf[1024];
	*out = NULL;
	if (pk_profile__new(out)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	if (pk_session__open(&s, input, &o, &err) || pk_session__fill_profile(s, *out, &po, &err)) {
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

/* Write p to output ("-" or NULL: stdout); prints its own message; 0 or -1. */
int export__write(const char *prog, const struct pk_profile *p, enum pk_export_format fmt,
		  const char *output, const struct pk_export_opts *eo)
{
	struct pk_error err = { 0 };
	char buf[1024];
	bool to_stdout = !output || !strcmp(output, "-");
	FILE *f = to_stdout ? stdout : fopen(output, "wb");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
		return -1;
	}
	int rc = pk_export__write(p, fmt, f, eo, &err);
	if (!rc && fmt != PK_EXPORT_PPROF && eo->event < 0)
		first_event_note(prog, p);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, pk_error__format(&err, buf, sizeof(buf)));
	if ((to_stdout ? fflush(f) : fclose(f)) && !rc) {
		fprintf(stderr, "%s: %s: %s\n", prog, to_stdout ? "stdout" : output, strerror(errno));
		rc = -1;
	}
	return rc ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit export --format folded|pprof|gecko [-i FILE] [-o OUT] [options]\n\n"
		"Write the samples of a perf.data file for other tools: folded stacks\n"
		"(FlameGraph, speedscope), pprof (go tool pprof, continuous profilers),\n"
		"gecko (the Firefox Profiler). Without -o the output goes to stdout.\n\n"
		"  -f, --format FMT    folded, pprof, gecko (also svg, html: a flame graph)\n"
		"  -i, --input FILE    perf.data to read (default perf.data; - reads stdin)\n"
		"  -o, --output FILE   where to write (default stdout)\n"
		"      --symfs DIR     look for binaries and debug files under DIR\n"
		"      --inline        inline functions as frames of their own\n"
		"      --srcline       source file and line of each frame (pprof, gecko)\n"
		"      --pid, --tid    folded: comm-PID or comm-PID/TID as the root frame\n"
		"      --kernel, --jit folded: mark kernel (_[k]) and JIT (_[j]) frames\n"
		"      --addrs         folded: [dso <addr>] for frames without a symbol\n"
		"      --event N       the event to write (index; default: the first sample's)\n"
		"      --value WHAT    script: the periods perf script prints, as stackcollapse-perf.pl\n"
		"                      (folded, svg, html: the default), samples (gecko: the\n"
		"                      default), count (periods) or weight\n"
		"  -h, --help          this help\n");
}

enum { OPT_SYMFS = 0x200, OPT_INLINE, OPT_SRCLINE, OPT_PID, OPT_TID, OPT_KERNEL, OPT_JIT,
       OPT_ADDRS, OPT_EVENT, OPT_VALUE };

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "srcline", no_argument, NULL, OPT_SRCLINE },
		{ "pid", no_argument, NULL, OPT_PID },
		{ "tid", no_argument, NULL, OPT_TID },
		{ "kernel", no_argument, NULL, OPT_KERNEL },
		{ "jit", no_argument, NULL, OPT_JIT },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "value", required_argument, NULL, OPT_VALUE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data", *output = NULL, *symfs = NULL, *format = NULL;
	unsigned prof_flags = 0;
	struct pk_export_opts eo = { .sz = sizeof(eo), .event = -1 };
	int c, value_given = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:i:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case OPT_SYMFS: symfs = optarg; break;
		case OPT_INLINE: prof_flags |= PK_PROFILE_INLINE; break;
		case OPT_SRCLINE: prof_flags |= PK_PROFILE_SRCLINE; break;
		case OPT_PID: eo.flags |= PK_EXPORT_PID; break;
		case OPT_TID: eo.flags |= PK_EXPORT_TID; break;
		case OPT_KERNEL: eo.flags |= PK_EXPORT_KERNEL; break;
		case OPT_JIT: eo.flags |= PK_EXPORT_JIT; break;
		case OPT_ADDRS: eo.flags |= PK_EXPORT_ADDRS; break;
		case OPT_EVENT: eo.event = atoi(optarg); break;
		case OPT_VALUE:
			value_given = 1;
			if (!strcmp(optarg, "script"))
				eo.value = PK_EXPORT_VALUE_SCRIPT;
			else if (!strcmp(optarg, "samples"))
				eo.value = PK_EXPORT_VALUE_SAMPLES;
			else if (!strcmp(optarg, "count"))
				eo.value = PK_EXPORT_VALUE_COUNT;
			else if (!strcmp(optarg, "weight"))
				eo.value = PK_EXPORT_VALUE_WEIGHT;
			else {
				fprintf(stderr, "pmukit export: --value: script, samples, count or weight\n");
				return 129;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 129;
		}
	}
	enum pk_export_format fmt;
	if (!format) {
		fprintf(stderr, "pmukit export: --format folded|pprof|gecko is required\n");
		return 129;
	}
	if (pk_export__parse_format(format, &fmt)) {
		fprintf(stderr, "pmukit export: unknown format '%s' (folded, pprof, gecko, svg, html)\n",
			format);
		return 129;
	}
	if (!value_given)
		eo.value = fmt == PK_EXPORT_GECKO ? PK_EXPORT_VALUE_SAMPLES : PK_EXPORT_VALUE_SCRIPT;
	if (optind < argc) {
		fprintf(stderr, "pmukit export: unexpected argument '%s'\n", argv[optind]);
		return 129;
	}
	struct pk_profile *p;
	if (export__load("pmukit export", input, symfs, 0, prof_flags, &p))
		return 1;
	int rc = export__write("pmukit export", p, fmt, output, &eo);
	pk_profile__free(p);
	return rc ? 1 : 0;
}
