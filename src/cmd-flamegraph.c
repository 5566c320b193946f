/* SPDX-License-Identifier: MIT */
/*
 * cmd-flamegraph.c — `pmukit flamegraph [-i FILE] [-o OUT.svg|OUT.html]`: a
 * self-contained flame graph of a perf.data file (interactive HTML with
 * zoom and search, or a plain SVG, chosen by the output's extension),
 * optionally inverted (an icicle graph). The samples go through the same
 * profile as `pmukit export` (cmd-export.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>
#include <pmukit/session.h>

int cmd_flamegraph(int argc, char **argv);
int export__load(const char *prog, const char *input, const char *symfs, unsigned sym_flags,
		 unsigned prof_flags, struct pk_profile **out);
int export__write(const char *prog, const struct pk_profile *p, enum pk_export_format fmt,
		  const char *output, const struct pk_export_opts *eo);

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit flamegraph [-i FILE] [-o OUT.html|OUT.svg] [options]\n\n"
		"Draw a flame graph of a perf.data file: an interactive HTML page (zoom,\n"
		"search, no network access) or a plain SVG, by the output's extension.\n\n"
		"  -i, --input FILE    perf.data to read (default perf.data; - reads stdin)\n"
		"  -o, --output FILE   default flamegraph.html; - writes HTML to stdout\n"
		"      --inverted      an icicle graph: callers at the top\n"
		"      --title TEXT    the title (default Flame Graph / Icicle Graph)\n"
		"      --symfs DIR     look for binaries and debug files under DIR\n"
		"      --inline        inline functions as frames of their own\n"
		"      --event N       the event to draw (index; default: the first sample's)\n"
		"      --value WHAT    widths by script (default: the periods perf script prints, as\n"
		"                      stackcollapse-perf.pl), samples, count (periods) or weight\n"
		"      --width N       SVG width in pixels (default 1200)\n"
		"  -h, --help          this help\n");
}

enum { OPT_INVERTED = 0x200, OPT_TITLE, OPT_SYMFS, OPT_INLINE, OPT_EVENT, OPT_VALUE, OPT_WIDTH };

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcasecmp(s + n - m, suffix);
}

int cmd_flamegraph(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "value", required_argument, NULL, OPT_VALUE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data", *output = "flamegraph.html", *symfs = NULL;
	unsigned prof_flags = 0;
	struct pk_export_opts eo = { .sz = sizeof(eo), .event = -1, .value = PK_EXPORT_VALUE_SCRIPT };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case OPT_INVERTED: eo.flags |= PK_EXPORT_INVERTED; break;
		case OPT_TITLE: eo.title = optarg; break;
		case OPT_SYMFS: symfs = optarg; break;
		case OPT_INLINE: prof_flags |= PK_PROFILE_INLINE; break;
		case OPT_EVENT: eo.event = atoi(optarg); break;
		case OPT_WIDTH: eo.width = (unsigned)strtoul(optarg, NULL, 0); break;
		case OPT_VALUE:
			if (!strcmp(optarg, "script"))
				eo.value = PK_EXPORT_VALUE_SCRIPT;
			else if (!strcmp(optarg, "samples"))
				eo.value = PK_EXPORT_VALUE_SAMPLES;
			else if (!strcmp(optarg, "count"))
				eo.value = PK_EXPORT_VALUE_COUNT;
			else if (!strcmp(optarg, "weight"))
				eo.value = PK_EXPORT_VALUE_WEIGHT;
			else {
				fprintf(stderr, "pmukit flamegraph: --value: script, samples, count or weight\n");
				return 129;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 129;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmukit flamegraph: unexpected argument '%s'\n", argv[optind]);
		return 129;
	}
	enum pk_export_format fmt = ends_with(output, ".svg") ? PK_EXPORT_SVG : PK_EXPORT_HTML;
	struct pk_profile *p;
	if (export__load("pmukit flamegraph", input, symfs, 0, prof_flags, &p))
		return 1;
	int rc = export__write("pmukit flamegraph", p, fmt, output, &eo);
	pk_profile__free(p);
	return rc ? 1 : 0;
}
