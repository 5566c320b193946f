/* SPDX-License-Identifier: MIT */
/*
 * test_cli_opts.c — the commands' option parser (src/cli-opts.c): perf's
 * parse_options rules (long options by unique prefix, --no-NAME, bundled short
 * flags, attached and separate arguments, optional arguments both ways perf
 * has them, "--", stopping at a command) and its messages and usage layout;
 * the helpers that check option values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/cli-opts.h"

struct vals {
	bool children, nr;
	int verbose, jobs;
	unsigned max_stack;
	uint64_t period;
	double limit;
	const char *input, *sort, *graph, *fields;
	int cb_calls;
	const char *cb_arg;
	bool cb_unset;
};

static struct vals v;

static int cb(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct vals *x = opt->value;
	x->cb_calls++;
	x->cb_arg = arg;
	x->cb_unset = unset;
	if (arg && !strcmp(arg, "bad"))
		return cli_opts__error(opt, "has a bad value '%s'", arg);
	return 0;
}

static const struct cli_opt opts[] = {
	CLI_STRING('i', "input", &v.input, "file", "input file name"),
	CLI_BOOL(0, "children", &v.children, "accumulate callchains of children"),
	CLI_BOOL('n', "show-nr-samples", &v.nr, "show the number of samples"),
	CLI_INCR('v', "verbose", &v.verbose, "be more verbose"),
	CLI_INT('j', "threads", &v.jobs, "n", "threads"),
	CLI_UINT(0, "max-stack", &v.max_stack, "n", "callchain depth"),
	CLI_U64('c', "count", &v.period, "n", "event period"),
	CLI_DOUBLE(0, "percent-limit", &v.limit, "percent", "hide entries under it"),
	CLI_STRING('s', "sort", &v.sort, "key[,key2...]", "sort by key(s)"),
	{ .type = CLI_OPT_STRING, .short_name = 'g', .long_name = "call-graph", .value = &v.graph,
	  .argh = "print_type,threshold", .help = "callchain display", .flags = CLI_LASTARG_DEFAULT,
	  .def = "graph,0.5,caller" },
	{ .type = CLI_OPT_STRING, .short_name = 'F', .long_name = "fields", .value = &v.fields,
	  .argh = "key", .help = "output fields", .flags = CLI_OPTARG, .def = "default" },
	CLI_CALLBACK(0, "filter", &v, "spec", "a filter", cb),
	CLI_REFUSED(0, "tui", "only --stdio output is available"),
	CLI_END(),
};

/* parse a NULL-terminated argument list (argv[0] is the command); stderr into err */
static int parse(char *err, size_t len, unsigned flags, char **out_argv, ...)
{
	static char *argv[32];
	va_list ap;
	int argc = 0;
	memset(&v, 0, sizeof(v));
	argv[argc++] = "report";
	va_start(ap, out_argv);
	for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	fflush(stdout);
	int saved = dup(2), saved_out = dup(1);
	FILE *tmp = tmpfile(), *out = tmpfile();	/* stdout: the usage of -h, not for TAP */
	assert_non_null(tmp);
	assert_non_null(out);
	dup2(fileno(tmp), 2);
	dup2(fileno(out), 1);
	int n = cli_opts__parse(argc, argv, opts, "pmukit report [<options>]", flags);
	fflush(stderr);
	fflush(stdout);
	dup2(saved, 2);
	dup2(saved_out, 1);
	close(saved);
	close(saved_out);
	fclose(out);
	rewind(tmp);
	size_t got = fread(err, 1, len - 1, tmp);
	err[got] = '\0';
	fclose(tmp);
	if (out_argv)
		memcpy(out_argv, argv, sizeof(char *) * (n > 0 ? (size_t)n : 0));
	return n;
}

static char err[16384];

static void test_long_and_short(void **state)
{
	(void)state;
	char *rest[8];
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-i", "a.data", "--children", "-nvv",
			       "-j4", "--max-stack=12", "--count", "100", "x", "--percent-limit", "2.5",
			       "y", (char *)NULL), 2);
	assert_string_equal(v.input, "a.data");
	assert_true(v.children && v.nr);
	assert_int_equal(v.verbose, 2);
	assert_int_equal(v.jobs, 4);
	assert_int_equal(v.max_stack, 12);
	assert_true(v.period == 100);
	assert_true(v.limit == 2.5);
	assert_string_equal(rest[0], "x");	/* the other arguments, in order */
	assert_string_equal(rest[1], "y");
	assert_string_equal(err, "");
	/* --no-NAME, abbreviations, --input=FILE, "--" */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--child", "--no-children", "--inp=b",
			       "--show-nr", "--", "-n", (char *)NULL), 1);
	assert_false(v.children);
	assert_true(v.nr);
	assert_string_equal(v.input, "b");
	assert_string_equal(rest[0], "-n");
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--no-chil", (char *)NULL), 0);
	assert_false(v.children);
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--no-input", (char *)NULL), 0);
	assert_null(v.input);
	/* a command: the first non-option and all after it */
	assert_int_equal(parse(err, sizeof(err), CLI_STOP_AT_NON_OPTION, rest, "-n", "sleep", "-n",
			       "1", (char *)NULL), 3);
	assert_string_equal(rest[0], "sleep");
	assert_string_equal(rest[1], "-n");
	/* "-" is an argument (stdin), not an option */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-i", "-", (char *)NULL), 0);
	assert_string_equal(v.input, "-");
}

static void test_optional_arguments(void **state)
{
	(void)state;
	char *rest[8];
	/* perf's LASTARG_DEFAULT (report's -g): the next argument unless last or an option */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-g", "caller", (char *)NULL), 0);
	assert_string_equal(v.graph, "caller");
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-g", "--children", (char *)NULL), 0);
	assert_string_equal(v.graph, "graph,0.5,caller");
	assert_true(v.children);
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-g", (char *)NULL), 0);
	assert_string_equal(v.graph, "graph,0.5,caller");
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--call-graph=none", (char *)NULL), 0);
	assert_string_equal(v.graph, "none");
	/* OPTARG: only attached */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-F", "sym", (char *)NULL), 1);
	assert_string_equal(v.fields, "default");
	assert_string_equal(rest[0], "sym");
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-Fsym", (char *)NULL), 0);
	assert_string_equal(v.fields, "sym");
	/* callbacks get their argument, and unset */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--filter", "a==1", "--no-filter", (char *)NULL), 0);
	assert_int_equal(v.cb_calls, 2);
	assert_true(v.cb_unset);
}

static void test_errors(void **state)
{
	(void)state;
	char *rest[8];
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--bogus", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "  Error: unknown option `bogus'\n\n Usage: pmukit report"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-x", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "  Error: unknown switch `x'\n"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--max-stack", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, " Error: option `max-stack' requires a value\n Usage:"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--max-stack", "abc", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, " Error: option `max-stack' expects an unsigned numerical value"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-j", "1x", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, " Error: switch `j' expects a numerical value"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--children=1", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "option `children' takes no value"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--s", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "Ambiguous option: s (could be --show-nr-samples or --sort)"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--tui", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "not supported by pmukit: only --stdio output is available"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--filter", "bad", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, " Error: option `filter' has a bad value 'bad'\n Usage:"));
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--no-verbose", (char *)NULL), CLI_ERROR);
}

/* after an option's error, perf's parse_options_usage: that option's usage only */
static void test_error_usage(void **state)
{
	(void)state;
	char *rest[8];
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--max-stack", "abc", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "numerical value\n Usage: pmukit report [<options>]\n\n"
				    "        --max-stack <n>   callchain depth\n"));
	assert_null(strstr(err, "--input"));
	/* a bundle: the switch being read */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-nj", "x", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, "\n    -j, --threads <n>"));
	assert_null(strstr(err, "show-nr-samples"));
	/* "=VALUE" is part of the text perf matches names with: no option */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--max-stack=x", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, " Usage: pmukit report [<options>]\n\n"));
	assert_null(strstr(err, "--max-stack <n>"));
	/* a callback's message ends with its own line: a blank line before the usage */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--filter", "bad", (char *)NULL), CLI_ERROR);
	assert_null(strstr(err, "-i, --input"));
	assert_non_null(strstr(err, "--filter <spec>"));
	/* an ambiguous abbreviation: the last two it matched named, all it matched shown */
	assert_int_equal(parse(err, sizeof(err), 0, rest, "--c", (char *)NULL), CLI_ERROR);
	assert_non_null(strstr(err, " Error: Ambiguous option: c (could be --count or --call-graph)\n\n"
				    " Usage: pmukit report [<options>]\n\n"));
	assert_non_null(strstr(err, "--children"));
	assert_non_null(strstr(err, "-c, --count <n>"));
	assert_non_null(strstr(err, "-g, --call-graph"));
	assert_null(strstr(err, "--sort"));
	/* a command's own check: the usage string's first line, the options named */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	cli_opts__usage_of(f, opts, "pmukit report [<options>]\n\nmore words", "s", true);
	cli_opts__usage_of(f, opts, NULL, "percent", false);
	fclose(f);
	assert_non_null(strstr(text, "\n Usage: pmukit report [<options>]\n\n    -s, --sort <key[,key2...]>"));
	assert_null(strstr(text, "more words"));
	assert_non_null(strstr(text, "sort by key(s)\n        --percent-limit <percent>"));
	free(text);
}

static void test_usage(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	cli_opts__usage(f, opts, "pmukit report [<options>]");
	fclose(f);
	/* perf's layout: options from column 4, help from column 26, or on the next line */
	assert_non_null(strstr(text, " Usage: pmukit report [<options>]\n\n"));
	assert_non_null(strstr(text, "\n    -i, --input <file>    input file name\n"));
	assert_non_null(strstr(text, "\n        --children        accumulate callchains of children\n"));
	assert_non_null(strstr(text, "\n    -s, --sort <key[,key2...]>\n"
				     "                          sort by key(s)\n"));
	assert_non_null(strstr(text, "--call-graph[=<print_type,threshold>]"));
	assert_null(strstr(text, "tui"));	/* refused options are not offered */
	free(text);
	char *rest[4];
	assert_int_equal(parse(err, sizeof(err), 0, rest, "-h", (char *)NULL), CLI_HELP);
	assert_string_equal(err, "");
}

/* the option values' helpers (cli_value__*): whole values only, ranges, perf's tagged values */
static void test_values(void **state)
{
	(void)state;
	uint64_t u;
	long l;
	double d;
	static const uint64_t size[] = { 1, 1024, 1024 * 1024, 1024 * 1024 * 1024 };
	assert_int_equal(cli_value__u64("0x10", &u), 0);
	assert_int_equal(u, 16);
	assert_int_equal(cli_value__u64("-1", &u), -1);
	assert_int_equal(cli_value__u64("12k", &u), -1);
	assert_int_equal(cli_value__u64("", &u), -1);
	assert_int_equal(cli_value__long("-1", 0, -1, 5, &l), 0);
	assert_int_equal(l, -1);
	assert_int_equal(cli_value__long("-2", 0, -1, 5, &l), -1);
	assert_int_equal(cli_value__long("6", 10, -1, 5, &l), -1);
	assert_int_equal(cli_value__long("010", 10, 0, 100, &l), 0);
	assert_int_equal(l, 10);
	assert_int_equal(cli_value__long("3x", 10, 0, 100, &l), -1);
	assert_int_equal(cli_value__double("2.5", 0, 4e9, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(cli_value__double("-0.5", 0, 4e9, &d), -1);
	assert_int_equal(cli_value__double("5e9", 0, 4e9, &d), -1);
	assert_int_equal(cli_value__double("nan", 0, 4e9, &d), -1);
	assert_int_equal(cli_value__tag("512K", "BKMG", size, &u), 0);
	assert_int_equal(u, 512 * 1024);
	assert_int_equal(cli_value__tag("3G", "BKMG", size, &u), 0);
	assert_true(u == 3ull << 30);
	assert_int_equal(cli_value__tag("3", "BKMG", size, &u), -1);	/* a tag is required */
	assert_int_equal(cli_value__tag("3KB", "BKMG", size, &u), -1);	/* exactly one */
	assert_int_equal(cli_value__tag("3k", "BKMG", size, &u), -1);	/* perf's case */
	assert_int_equal(cli_value__tag("-3K", "BKMG", size, &u), -1);
	assert_int_equal(cli_value__tag("K", "BKMG", size, &u), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_and_short),
		cmocka_unit_test(test_optional_arguments),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_usage),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
