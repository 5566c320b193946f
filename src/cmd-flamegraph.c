/* SPDX-License-Identifier: MIT */
/*
 * cmd-flamegraph.c — `pmukit flamegraph [-i FILE] [-o OUT.svg|OUT.html]`: a
 * self-contained flame graph of a perf.data file (interactive HTML with
 * zoom and search, or a plain SVG, chosen by the output's extension),
 * optionally inverted (an icicle graph), the page with the hottest
 * functions' annotations. The samples go through the same profile as
 * `pmukit export` (cmd-export.c).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/session.h>

#include "export-cli.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcasecmp(s + n - m, suffix);
}

int cmd_flamegraph(int argc, char **argv)
{
	struct cli_data d;
	const char *output = "flamegraph.html";
	bool inverted = false, inl = false;
	struct pk_export_opts eo = { .sz = sizeof(eo), .value = PK_EXPORT_VALUE_SCRIPT };
	int event = -1;
	cli_data__init(&d);
	struct export_annotate ann = { .d = &d, .max = EXPORT_ANNOTATE_MAX };
	const struct cli_opt opts[] = {
		CLI_STRING('o', "output", &output, "file",
			   "default flamegraph.html; .svg: an SVG; - writes HTML to stdout"),
		CLI_DATA_OPTIONS(&d),
		CLI_BOOL(0, "inverted", &inverted, "an icicle graph: callers at the top"),
		CLI_STRING(0, "title", &eo.title, "text", "the title (default Flame Graph / Icicle Graph)"),
		CLI_BOOL(0, "inline", &inl, "inline functions as frames of their own"),
		CLI_INT(0, "event", &event, "n", "the event to draw (index; default: the first sample's)"),
		CLI_CALLBACK(0, "value", &eo, "what",
			     "widths by script (perf script's periods, as stackcollapse-perf.pl; "
			     "the default), samples, count or weight", export__parse_value),
		CLI_UINT(0, "width", &eo.width, "n", "SVG width in pixels (default 1200)"),
		EXPORT_ANNOTATE_OPTIONS(&ann),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts,
				"pmukit flamegraph [-i FILE] [-o OUT.html|OUT.svg] [<options>]\n\n"
				"Draw a flame graph of a perf.data file: an interactive HTML page (zoom,\n"
				"search, no network access) or a plain SVG, by the output's extension.\n"
				"Clicking a frame of the page shows its function's annotation (pmukit\n"
				"annotate's instructions and source lines, each with its percent of the\n"
				"function's samples): embedded for the --annotate N (default 50) hottest\n"
				"functions by self samples, up to --annotate-size KiB (default 4096).", 0);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (event >= 0)
		eo.event_nr = (unsigned)event + 1;
	if (n) {
		fprintf(stderr, "pmukit flamegraph: unexpected argument '%s'\n", argv[0]);
		return 129;
	}
	if (inverted)
		eo.flags |= PK_EXPORT_INVERTED;
	enum pk_export_format fmt = ends_with(output, ".svg") ? PK_EXPORT_SVG : PK_EXPORT_HTML;
	struct pk_profile *p;
	if (export__load("pmukit flamegraph", &d, inl ? PK_PROFILE_INLINE : 0, &p))
		return 1;
	int rc = export__write("pmukit flamegraph", p, fmt, output, &eo, &ann);
	pk_profile__free(p);
	return rc ? 1 : 0;
}
