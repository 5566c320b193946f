/* SPDX-License-Identifier: MIT */
/*
 * cli-opts.h — the commands' option parser, after perf's parse_options: each
 * command declares its options once, in a table, and the parser, the usage
 * text and the errors all come from it.
 *
 *   static const struct cli_opt opts[] = {
 *           CLI_STRING('i', "input", &input, "file", "input file name"),
 *           CLI_BOOL('n', "show-nr-samples", &nr, "show the number of samples"),
 *           CLI_REFUSED(0, "tui", "only --stdio output is available"),
 *           CLI_END(),
 *   };
 *   int n = cli_opts__parse(argc, argv, opts, "pmukit report [<options>]", 0);
 *   if (n < 0)
 *           return n == CLI_HELP ? 0 : 129;
 *   // argv[0..n) are the arguments that were not options
 *
 * As perf: long options take "--name=value" or "--name value", and any unique
 * prefix of their name; short ones "-xvalue" or "-x value", and flags bundle
 * ("-nq"); a boolean or string option also takes "--no-name" (unset); "--"
 * ends the options. Errors print perf's " Error: ..." line on stderr, then the
 * whole usage (an unknown option) or that option's (a bad or missing value, an
 * ambiguous abbreviation: the options it matches); -h/--help prints the usage
 * on stdout.
 */
#ifndef PMUKIT_CLI_OPTS_H
#define PMUKIT_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_GROUP,		/* a heading in the usage text */
	CLI_OPT_BOOL,		/* bool *: true, false with --no-NAME */
	CLI_OPT_INCR,		/* int *: +1 each time (-v -v) */
	CLI_OPT_STRING,		/* const char **: the argument; NULL with --no-NAME */
	CLI_OPT_INT,		/* int * */
	CLI_OPT_UINT,		/* unsigned * */
	CLI_OPT_U64,		/* uint64_t * */
	CLI_OPT_DOUBLE,		/* double * */
	CLI_OPT_CALLBACK,	/* cb(opt, arg, unset): 0, or -1 after printing why */
	CLI_OPT_REFUSED,	/* perf has it, pmukit refuses it: help is the reason */
};

#define CLI_OPTARG	(1u << 0)	/* only an attached argument ("--x=v", "-xv"); else opt->def */
#define CLI_LASTARG_DEFAULT (1u << 4)	/* the next argument, unless last or an option: opt->def */
#define CLI_NONEG	(1u << 1)	/* no --no-NAME */
#define CLI_HIDDEN	(1u << 2)	/* not in the usage text */
#define CLI_NOARG	(1u << 3)	/* a callback without argument */

struct cli_opt;
typedef int (*cli_opt_cb)(const struct cli_opt *opt, const char *arg, bool unset);

struct cli_opt {
	enum cli_opt_type type;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none */
	void *value;
	const char *argh;	/* the argument's name in the usage ("file") */
	const char *help;
	unsigned flags;		/* CLI_* */
	cli_opt_cb cb;
	const char *def;	/* CLI_OPTARG: the value when the argument is left out */
};

#define CLI_END() { .type = CLI_OPT_END }
#define CLI_GROUP(h) { .type = CLI_OPT_GROUP, .help = (h) }
#define CLI_BOOL(s, l, v, h) { .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l), \
			       .value = (v), .help = (h) }
#define CLI_INCR(s, l, v, h) { .type = CLI_OPT_INCR, .short_name = (s), .long_name = (l), \
			       .value = (v), .help = (h), .flags = CLI_NONEG }
#define CLI_STRING(s, l, v, a, h) { .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l), \
				    .value = (v), .argh = (a), .help = (h) }
#define CLI_INT(s, l, v, a, h) { .type = CLI_OPT_INT, .short_name = (s), .long_name = (l), \
				 .value = (v), .argh = (a), .help = (h) }
#define CLI_UINT(s, l, v, a, h) { .type = CLI_OPT_UINT, .short_name = (s), .long_name = (l), \
				  .value = (v), .argh = (a), .help = (h) }
#define CLI_U64(s, l, v, a, h) { .type = CLI_OPT_U64, .short_name = (s), .long_name = (l), \
				 .value = (v), .argh = (a), .help = (h) }
#define CLI_DOUBLE(s, l, v, a, h) { .type = CLI_OPT_DOUBLE, .short_name = (s), .long_name = (l), \
				    .value = (v), .argh = (a), .help = (h) }
#define CLI_CALLBACK(s, l, v, a, h, f) { .type = CLI_OPT_CALLBACK, .short_name = (s), \
					 .long_name = (l), .value = (v), .argh = (a), .help = (h), \
					 .cb = (f) }
#define CLI_CALLBACK_NOARG(s, l, v, h, f) { .type = CLI_OPT_CALLBACK, .short_name = (s), \
					   .long_name = (l), .value = (v), .help = (h), .cb = (f), \
					   .flags = CLI_NOARG }
/* a callback with flags (CLI_OPTARG: arg NULL when none is attached; CLI_NONEG: no --no-NAME) */
#define CLI_CALLBACK_F(s, l, v, a, h, f, fl) { .type = CLI_OPT_CALLBACK, .short_name = (s), \
					       .long_name = (l), .value = (v), .argh = (a), \
					       .help = (h), .cb = (f), .flags = (fl) }
#define CLI_REFUSED(s, l, why) { .type = CLI_OPT_REFUSED, .short_name = (s), .long_name = (l), \
				 .help = (why), .flags = CLI_HIDDEN }

/*
 * The options of every command that reads perf.data (report, script, diff,
 * export, flamegraph, and those to come), declared once: CLI_DATA_OPTIONS(&d)
 * in a command's table, with d's defaults set by cli_data__init.
 */
struct cli_data {
	const char *input;	/* -i, --input (default perf.data; "-": stdin) */
	const char *symfs;	/* --symfs */
	bool demangle;		/* --demangle (default), --no-demangle */
	unsigned max_stack;	/* --max-stack (0: perf's 127) */
	int jobs;		/* -j, --jobs: worker threads (0: 2) */
	const char *vmlinux;	/* -k, --vmlinux (CLI_VMLINUX_OPTION) */
};
void cli_data__init(struct cli_data *d);
#define CLI_DATA_OPTIONS(d) \
	CLI_STRING('i', "input", &(d)->input, "file", "input file name"), \
	CLI_STRING(0, "symfs", &(d)->symfs, "directory", \
		   "look for files with symbols relative to this directory"), \
	CLI_BOOL(0, "demangle", &(d)->demangle, "demangle symbol names (--no-demangle: as in the binary)"), \
	CLI_UINT(0, "max-stack", &(d)->max_stack, "n", \
		 "set the maximum stack depth when parsing the callchain (default 127)"), \
	CLI_INT('j', "jobs", &(d)->jobs, "n", "threads for symbols and source lines (default 2)")

/* perf's -k/--vmlinux, for the commands that read kernel symbols as perf's report does */
#define CLI_VMLINUX_OPTION(d) \
	CLI_STRING('k', "vmlinux", &(d)->vmlinux, "file", \
		   "vmlinux pathname: the kernel's symbols, source lines and code from it")

/* A session's options from the shared ones (yo: its symbolizer's, flags kept). */
struct pk_session_opts;
struct pk_symbolizer_opts;
void cli_data__session_opts(const struct cli_data *d, struct pk_session_opts *so,
			    struct pk_symbolizer_opts *yo);

/* cli_opts__parse's flags */
#define CLI_STOP_AT_NON_OPTION	(1u << 0)	/* the first non-option ends the options (a command) */

/* cli_opts__parse's results other than a count */
#define CLI_ERROR (-1)		/* printed: exit 129 */
#define CLI_HELP (-2)		/* -h/--help: usage printed on stdout, exit 0 */

/*
 * Parse argv[1..argc) against opts (ended by CLI_END()). The arguments that
 * are not options are moved to argv[0..n), in order, and n returned; with
 * CLI_STOP_AT_NON_OPTION the first of them ends the parse (it and the rest are
 * returned). usage: the first usage line ("pmukit report [<options>]").
 */
int cli_opts__parse(int argc, char **argv, const struct cli_opt *opts, const char *usage,
		    unsigned flags);

/* perf's usage text: " Usage: USAGE", a blank line, then each option and its help. */
void cli_opts__usage(FILE *f, const struct cli_opt *opts, const char *usage);

/*
 * perf's parse_options_usage: "\n Usage: " and usage's first line (none when
 * usage is NULL), then the usage of the option short_opt names by optstr's
 * first character, or of every option whose long name starts with optstr. The
 * parser prints it after an option's error (a callback's message ends with
 * "\n", perf's " Error: ..." lines without), commands after their own checks.
 */
void cli_opts__usage_of(FILE *f, const struct cli_opt *opts, const char *usage,
			const char *optstr, bool short_opt);

/*
 * perf's " Error: option `NAME' ..." line for a bad option argument, for
 * callbacks that refuse theirs (the parser prints the option's usage after
 * it, from the line's end). Returns -1.
 */
int cli_opts__error(const struct cli_opt *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Option values, checked whole (the callbacks' shared helpers). Each returns 0,
 * or -1 without printing: the caller says why, in its own words.
 */
/* An unsigned number (decimal, 0x, 0 octal), no sign. */
int cli_value__u64(const char *arg, uint64_t *out);
/* A signed number of base (0: any) within [min, max]. */
int cli_value__long(const char *arg, int base, long min, long max, long *out);
/* A number within [min, max]. */
int cli_value__double(const char *arg, double min, double max, double *out);
/*
 * perf's parse_tag_value: decimal digits then exactly one of tags, the value
 * times mult[the tag's index] ("512K" with "BKMG" and 1, 1K, 1M, 1G).
 */
int cli_value__tag(const char *arg, const char *tags, const uint64_t *mult, uint64_t *out);

#endif
