/* SPDX-License-Identifier: MIT */
/*
 * cmd-annotate.c — `pmukit annotate [--stdio|--stdio2] [-i FILE] [SYMBOL]`:
 * each symbol with samples (hottest first, per event), or only SYMBOL, as its
 * instructions and source lines with the share of the samples on each, as
 * perf 6.1's `perf annotate --stdio` (or --stdio2) prints them. The disassembly runs in
 * process (pmukit/annotate.h: libopcodes), never through objdump. Beyond
 * perf: a TopDown group's Level 1 shares and the samples' average weight per
 * instruction, as columns after the events' (docs/ANNOTATE.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmukit/annotate.h>
#include <pmukit/session.h>

#include "cli-opts.h"
#include "pager.h"

static int parse_percent_type(const struct cli_opt *opt, const char *arg, bool unset)
{
	static const char *const names[] = {
		[PK_PERCENT_LOCAL_PERIOD] = "local-period", [PK_PERCENT_GLOBAL_PERIOD] = "global-period",
		[PK_PERCENT_LOCAL_HITS] = "local-hits", [PK_PERCENT_GLOBAL_HITS] = "global-hits",
	};
	enum pk_annotate_percent *p = opt->value;
	if (unset)
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*p = (enum pk_annotate_percent)i;
			return 0;
		}
	/* perf 6.1 accepts "period-local" and friends too */
	static const char *const swapped[] = { "period-local", "period-global", "hits-local", "hits-global" };
	for (size_t i = 0; i < 4; i++)
		if (!strcmp(arg, swapped[i])) {
			*p = (enum pk_annotate_percent)i;
			return 0;
		}
	return cli_opts__error(opt, "takes local-period, global-period, local-hits or global-hits");
}

/* --itrace[=opts]: perf 6.1 takes any text; it only matters for AUX traces, which pmukit does not decode */
static int parse_itrace(const struct cli_opt *opt, const char *arg, bool unset)
{
	(void)opt, (void)arg, (void)unset;
	return 0;
}

struct annotate_cli {
	struct cli_data d;
	struct pk_annotate_opts ao;
	struct pk_annotation_print_opts po;
	bool stdio, stdio2, nr_samples, total_period, source, asm_raw, skip_missing, full_path, print_line;
	int verbose;
	bool tui, group, json, quiet, force, ignore_vmlinux, modules, demangle_kernel;
	const char *stdio_color, *objdump, *cpus;
	double percent_limit;
};

/*
 * Annotate every entry of one event, or of a group of events [attr, attr + nr);
 * a DSO that cannot be annotated is said once.
 */
static int annotate_event(struct pk_annotate *a, int attr, int nr, const struct annotate_cli *c,
			  struct pk_dso ***warned, size_t *nr_warned)
{
	size_t n = pk_annotate__nr_group_entries(a, attr, nr);
	uint64_t total = pk_annotate__total_period(a, attr);
	for (size_t i = 0; i < n; i++) {
		struct pk_annotate_entry e = { .sz = sizeof(e) };
		if (pk_annotate__group_entry(a, attr, nr, i, &e))
			return -1;
		if (c->percent_limit > 0 && (!total || 100.0 * (double)e.period / (double)total < c->percent_limit))
			continue;
		bool skip = false;
		for (size_t w = 0; w < *nr_warned; w++)
			skip |= (*warned)[w] == e.dso;
		if (skip)
			continue;
		struct pk_annotation *an;
		struct pk_error err = { 0 };
		if (pk_annotation__new_group(&an, a, attr, nr, i, &err)) {
			fprintf(stderr, "Error:\n%s\n", err.msg);
			struct pk_dso **v = realloc(*warned, (*nr_warned + 1) * sizeof(*v));
			if (!v)
				return -1;
			*warned = v;
			v[(*nr_warned)++] = e.dso;
			continue;
		}
		int rc = c->json ? pk_annotation__fprintf_json(an, stdout) : pk_annotation__fprintf(an, stdout, &c->po);
		pk_annotation__free(an);
		if (rc)
			return -1;
	}
	return 0;
}

/* pk_annotate__process, with perf's -C: samples on other CPUs are not counted at all */
static int process(struct pk_session *s, struct pk_annotate *a, const char *cpus, struct pk_error *err)
{
	if (!cpus)
		return pk_annotate__process(a, err);
	struct pk_sample_filter_opts fo = { .sz = sizeof(fo), .cpus = cpus };
	struct pk_sample_filter *f = NULL;
	int rc = pk_sample_filter__new(&f, s, &fo, err);
	const struct pk_data_event *ev;
	while (!rc && (rc = pk_session__next(s, &ev, err)) > 0) {
		rc = 0;
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		struct pk_resolved rs = { .sz = sizeof(rs) };
		if ((rc = pk_session__resolve(s, ev, 0, &rs, err)))
			break;
		if (!pk_sample_filter__drop(f, ev) && (rc = pk_annotate__add(a, &rs)))
			snprintf(err->msg, sizeof(err->msg), "out of memory");
	}
	pk_sample_filter__free(f);
	return rc;
}

static int run(struct annotate_cli *c)
{
	struct pk_error err = { 0 };
	struct pk_symbolizer_opts so = { .sz = sizeof(so),
					 .flags = c->full_path ? PK_SYMBOLIZER_FULL_SRCLINE : 0 };
	struct pk_session_opts o = { .sz = sizeof(o), .flags = PK_SESSION_NO_INLINE };
	cli_data__session_opts(&c->d, &o, &so);
	struct pk_session *s = NULL;
	struct pk_annotate *a = NULL;
	if (pk_session__open(&s, c->d.input, &o, &err) || pk_annotate__new(&a, s, &c->ao, &err) ||
	    process(s, a, c->cpus, &err)) {
		char buf[1024];
		if (!c->quiet)
			fprintf(stderr, "pmukit annotate: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		pk_annotate__free(a);
		pk_session__free(s);
		return 255;
	}
	struct pk_dso **warned = NULL;
	size_t nr_warned = 0, nr_attrs = pk_session__nr_attrs(s);
	uint64_t samples = 0;
	int rc = 0;
	/* perf shows a recorded group's events together, and all of them with --group */
	bool recorded = false;
	for (size_t i = 0; i < nr_attrs; i++)
		recorded |= pk_session__attr(s, (int)i)->nr_members > 1;
	for (size_t i = 0; i < nr_attrs; i++)
		samples += pk_annotate__total_samples(a, (int)i);
	if (c->group && !recorded && nr_attrs) {
		rc = annotate_event(a, 0, (int)nr_attrs, c, &warned, &nr_warned);
	} else {
		for (size_t i = 0; !rc && i < nr_attrs; i++) {
			const struct pk_data_attr *at = pk_session__attr(s, (int)i);
			if (recorded && at->leader != (int)i)
				continue;	/* a member: with its leader */
			int nr = recorded && at->nr_members > 1 ? at->nr_members : 1;
			if ((size_t)nr > nr_attrs - i)
				nr = (int)(nr_attrs - i);
			rc = annotate_event(a, (int)i, nr, c, &warned, &nr_warned);
		}
	}
	if (!rc && !samples)
		fprintf(stderr, "The %s data has no samples!\n", c->d.input);
	free(warned);
	pk_annotate__free(a);
	pk_session__free(s);
	return rc ? 255 : 0;
}

/* perf's checks of the options (its messages and statuses), then the library's flags */
static int check_args(struct annotate_cli *c)
{
	if (c->tui && !c->stdio && !c->stdio2 && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "pmukit annotate: --tui: the annotate browser is not in pmukit yet (--stdio, --stdio2)\n");
		return 129;
	}
	if (c->ao.prefix_strip && !c->ao.prefix) {
		fprintf(stderr, "--prefix-strip requires --prefix\n");
		return 234;
	}
	/* perf's symbol__validate_sym_arguments */
	if (c->d.vmlinux && access(c->d.vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", c->d.vmlinux);
		return 234;
	}
	if (c->ignore_vmlinux)
		c->d.vmlinux = NULL;	/* perf's --ignore-vmlinux: the kernel's symbols as without -k */
	if (c->stdio_color && strcmp(c->stdio_color, "never") && strcmp(c->stdio_color, "auto")) {
		fprintf(stderr, "pmukit annotate: --stdio-color %s: only 'never' and 'auto' (pmukit prints no colors)\n",
			c->stdio_color);
		return 129;
	}
	/* the library's flags */
	if (!c->source)
		c->ao.flags |= PK_ANNOTATE_NO_SOURCE;
	if (c->asm_raw)
		c->ao.flags |= PK_ANNOTATE_ASM_RAW;
	if (c->nr_samples)
		c->po.flags |= PK_ANNOTATE_PRINT_NR_SAMPLES;
	if (c->total_period)
		c->po.flags |= PK_ANNOTATE_PRINT_PERIOD;
	if (c->full_path)
		c->po.flags |= PK_ANNOTATE_PRINT_FULL_PATH;
	if (c->print_line)
		c->po.flags |= PK_ANNOTATE_PRINT_LINES;
	if (c->stdio2)
		c->po.flags |= PK_ANNOTATE_PRINT_STDIO2;
	if (c->verbose > 0) {
		c->po.flags |= PK_ANNOTATE_PRINT_VERBOSE;
		c->ao.flags |= PK_ANNOTATE_LONG_DSO_ORDER;
	}
	return 0;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_cli c = {
		.ao = { .sz = sizeof(c.ao) }, .po = { .sz = sizeof(c.po) }, .source = true,
	};
	cli_data__init(&c.d);
	const struct cli_opt opts[] = {
		CLI_DATA_OPTIONS(&c.d),
		CLI_STRING('s', "symbol", &c.ao.symbol, "symbol", "symbol to annotate"),
		CLI_STRING('d', "dsos", &c.ao.dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		CLI_BOOL(0, "stdio", &c.stdio, "Use the stdio interface"),
		CLI_BOOL(0, "stdio2", &c.stdio2, "Use the stdio interface (perf's annotate browser's text)"),
		CLI_BOOL('n', "show-nr-samples", &c.nr_samples, "Show a column with the number of samples"),
		CLI_BOOL(0, "show-total-period", &c.total_period, "Show a column with the sum of periods"),
		CLI_CALLBACK(0, "percent-type", &c.po.percent_type, "type",
			     "local-period (default), global-period, local-hits or global-hits",
			     parse_percent_type),
		CLI_BOOL(0, "source", &c.source, "Interleave source code with assembly code (default)"),
		CLI_BOOL(0, "asm-raw", &c.asm_raw, "Display raw encoding of assembly instructions"),
		CLI_STRING('M', "disassembler-style", &c.ao.disassembler_style, "disassembler style",
			   "Specify disassembler style (e.g. -M intel for intel syntax)"),
		CLI_DOUBLE(0, "percent-limit", &c.percent_limit, "percent",
			   "Don't show entries under that percent"),
		CLI_BOOL(0, "json", &c.json, "one line of JSON per symbol: each instruction's address, "
			 "source line, inline chain, samples and period per event (not in perf; with TopDown "
			 "groups and weights, their columns too)"),
		CLI_BOOL(0, "group", &c.group, "Show event group information together"),
		CLI_BOOL('l', "print-line", &c.print_line, "print matching source lines (may be slow)"),
		CLI_BOOL(0, "skip-missing", &c.skip_missing, "Skip symbols that cannot be annotated (they are, with or without it: stderr says why)"),
		CLI_BOOL('P', "full-paths", &c.full_path, "Don't shorten the displayed pathnames"),
		CLI_STRING(0, "prefix", &c.ao.prefix, "prefix",
			   "Add prefix to source file path names in programs (with --prefix-strip)"),
		CLI_INT(0, "prefix-strip", &c.ao.prefix_strip, "N",
			"Strip first N entries of source file path name in programs (with --prefix)"),
		CLI_CALLBACK_F(0, "itrace", NULL, "opts", "Instruction Tracing options (accepted: pmukit "
			       "decodes no AUX trace, and a file without one is annotated as without it)",
			       parse_itrace, CLI_OPTARG),
		CLI_STRING('C', "cpu", &c.cpus, "cpu", "list of cpus to profile"),
		CLI_INCR('v', "verbose", &c.verbose, "be more verbose (--stdio: the samples per address)"),
		CLI_BOOL('q', "quiet", &c.quiet, "do not show any warnings or messages (perf's pr_err ones)"),
		CLI_BOOL('f', "force", &c.force, "don't complain, do it"),
		CLI_VMLINUX_OPTION(&c.d),
		CLI_BOOL(0, "ignore-vmlinux", &c.ignore_vmlinux, "don't load vmlinux even if found"),
		CLI_BOOL('m', "modules", &c.modules, "load module symbols - WARNING: use only with -k and LIVE kernel"),
		CLI_BOOL(0, "demangle-kernel", &c.demangle_kernel, "Enable kernel symbol demangling"),
		CLI_STRING(0, "stdio-color", &c.stdio_color, "mode",
			   "'never' or 'auto' (no colors: pmukit prints none; 'always' is refused)"),
		CLI_STRING(0, "objdump", &c.objdump, "path",
			   "objdump binary to use (accepted: pmukit disassembles in process, as binutils' objdump)"),
		CLI_BOOL(0, "tui", &c.tui, "Use the TUI interface (not in pmukit: on a terminal it is refused; "
			 "elsewhere perf prints --stdio's text, and so does pmukit)"),
		CLI_REFUSED(0, "gtk", "only --stdio output is available"),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts, "pmukit annotate [<options>] [SYMBOL]", 0);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (n > 1) {
		cli_opts__usage(stderr, opts, "pmukit annotate [<options>] [SYMBOL]");
		return 129;
	}
	if (n == 1)
		c.ao.symbol = argv[0];
	int rc = check_args(&c);
	if (rc)
		return rc;
	if (strcmp(c.d.input, "-"))
		pager_setup();
	return run(&c);
}
