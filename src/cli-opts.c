/* SPDX-License-Identifier: MIT */
/*
 * cli-opts.c — the commands' option parser and usage text (cli-opts.h), with
 * perf's parse_options rules and messages: long options by any unique prefix,
 * --no-NAME, bundled short flags, "--" ending the options, " Error: ..." lines
 * followed by the usage on stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/session.h>
#include <pmukit/symbol.h>

#include "cli-opts.h"

/* the option as perf names it in errors: "option `max-stack'" or "switch `j'" */
static void opt_name(const struct cli_opt *o, bool as_short, char *buf, size_t len)
{
	if (as_short || !o->long_name)
		snprintf(buf, len, "switch `%c'", o->short_name);
	else
		snprintf(buf, len, "option `%s'", o->long_name);
}

static int opt_error(const struct cli_opt *o, bool as_short, const char *what)
{
	char name[128];
	opt_name(o, as_short, name, sizeof(name));
	fprintf(stderr, " Error: %s %s", name, what);	/* perf's opterror: the usage's "\n" ends it */
	return -1;
}

/* the same for --no-NAME: perf names it "option `no-NAME'" */
static int unset_error(const struct cli_opt *o, const char *what)
{
	fprintf(stderr, " Error: option `no-%s' %s", o->long_name, what);
	return -1;
}

/* the option being applied was typed as a switch ("-I"): perf names it so in errors */
static bool applying_short;

int cli_opts__error(const struct cli_opt *opt, const char *fmt, ...)
{
	char name[128], msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	opt_name(opt, applying_short || !opt->long_name, name, sizeof(name));
	fprintf(stderr, " Error: %s %s", name, msg);
	return -1;
}

static bool takes_arg(const struct cli_opt *o)
{
	switch (o->type) {
	case CLI_OPT_STRING: case CLI_OPT_INT: case CLI_OPT_UINT: case CLI_OPT_U64:
	case CLI_OPT_DOUBLE:
		return true;
	case CLI_OPT_CALLBACK:
		return !(o->flags & CLI_NOARG);
	default:
		return false;
	}
}

/* the parse position: argv[*i] is the option being read */
struct pos {
	int argc;
	char **argv;
	int *i;
	const char *optstr;	/* after an error: the option as typed (perf's parse_options_usage) */
	bool short_opt;
};

#define UNKNOWN (-3)	/* parse_long/parse_short: no such option (the whole usage follows) */

/*
 * The option's argument: attached (arg), else the next argument unless the
 * option's is optional (CLI_OPTARG: attached only; CLI_LASTARG_DEFAULT: not when
 * last or an option). *out NULL: the default.
 */
static int get_arg(const struct cli_opt *o, bool as_short, const char *arg, struct pos *p,
		   const char **out)
{
	if (arg) {
		*out = arg;
		return 0;
	}
	bool more = *p->i + 1 < p->argc;
	if (o->flags & CLI_OPTARG) {
		*out = NULL;
		return 0;
	}
	if ((o->flags & CLI_LASTARG_DEFAULT) && (!more || p->argv[*p->i + 1][0] == '-')) {
		*out = NULL;
		return 0;
	}
	if (!more)
		return opt_error(o, as_short, "requires a value");
	*out = p->argv[++*p->i];
	return 0;
}

int cli_value__u64(const char *arg, uint64_t *out)
{
	char *end;
	if (!*arg || strchr(arg, '-'))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 0);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

int cli_value__long(const char *arg, int base, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, base);
	if (!*arg || *end || errno || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_value__double(const char *arg, double min, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (!*arg || *end || errno || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

int cli_value__tag(const char *arg, const char *tags, const uint64_t *mult, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	const char *t = *end ? strchr(tags, *end) : NULL;
	if (errno || end == arg || arg[0] == '-' || !t || end[1])
		return -1;
	*out = v * mult[t - tags];
	return 0;
}

static int number(const struct cli_opt *o, bool as_short, const char *arg)
{
	switch (o->type) {
	case CLI_OPT_INT: {
		long v;
		if (cli_value__long(arg, 0, -2147483647L - 1, 2147483647L, &v))
			return opt_error(o, as_short, "expects a numerical value");
		*(int *)o->value = (int)v;
		return 0;
	}
	case CLI_OPT_UINT:
	case CLI_OPT_U64: {
		uint64_t v;
		if (cli_value__u64(arg, &v) || (o->type == CLI_OPT_UINT && v > 0xffffffffULL))
			return opt_error(o, as_short, "expects an unsigned numerical value");
		if (o->type == CLI_OPT_UINT)
			*(unsigned *)o->value = (unsigned)v;
		else
			*(uint64_t *)o->value = v;
		return 0;
	}
	default: {
		double v;
		if (cli_value__double(arg, -HUGE_VAL, HUGE_VAL, &v))
			return opt_error(o, as_short, "expects a numerical value");
		*(double *)o->value = v;
		return 0;
	}
	}
}

/* Apply option o (arg: attached, or NULL). 0, or -1 with the message printed. */
static int apply(const struct cli_opt *o, bool as_short, bool unset, const char *arg,
		 struct pos *p)
{
	const char *val = NULL;
	applying_short = as_short;
	if (o->type == CLI_OPT_REFUSED) {
		char name[128];
		opt_name(o, as_short, name, sizeof(name));
		fprintf(stderr, " Error: %s is not supported by pmukit: %s", name, o->help);
		return -1;
	}
	if (unset) {
		if (arg)
			return unset_error(o, "takes no value");
		switch (o->type) {
		case CLI_OPT_BOOL: *(bool *)o->value = false; return 0;
		case CLI_OPT_STRING: *(const char **)o->value = NULL; return 0;
		case CLI_OPT_CALLBACK: return o->cb(o, NULL, true);
		default: return unset_error(o, "isn't available");
		}
	}
	if (!takes_arg(o)) {
		if (arg)
			return opt_error(o, as_short, "takes no value");
		if (o->type == CLI_OPT_BOOL)
			*(bool *)o->value = true;
		else if (o->type == CLI_OPT_INCR)
			++*(int *)o->value;
		else
			return o->cb(o, NULL, false);
		return 0;
	}
	if (get_arg(o, as_short, arg, p, &val))
		return -1;
	if (!val)
		val = o->def;
	switch (o->type) {
	case CLI_OPT_STRING:
		*(const char **)o->value = val;
		return 0;
	case CLI_OPT_CALLBACK:
		return o->cb(o, val, false);
	default:
		return val ? number(o, as_short, val) : 0;
	}
}

static bool has_prefix(const char *s, const char *prefix, size_t n)
{
	return strlen(prefix) >= n && !strncmp(s, prefix, n);
}

/* --NAME[=VALUE]: an exact name, else the one option NAME abbreviates (also no-NAME) */
static int parse_long(const struct cli_opt *opts, struct pos *p)
{
	const char *a = p->argv[*p->i] + 2, *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	const char *arg = eq ? eq + 1 : NULL;
	const struct cli_opt *last = NULL, *prev = NULL;	/* the abbreviation's last two */
	bool last_unset = false, prev_unset = false;

	p->optstr = a;	/* perf: with "=VALUE", which names no option's usage */
	p->short_opt = false;

	if (n == 4 && !strncmp(a, "help", 4))
		return CLI_HELP;
	for (const struct cli_opt *o = opts; o->type != CLI_OPT_END; o++) {
		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == n && !strncmp(o->long_name, a, n))
			return apply(o, false, false, arg, p);
		bool neg_ok = !(o->flags & CLI_NONEG) &&
			      (o->type == CLI_OPT_BOOL || o->type == CLI_OPT_STRING ||
			       o->type == CLI_OPT_CALLBACK);
		bool neg = neg_ok && n > 3 && !strncmp(a, "no-", 3);
		if (neg && strlen(o->long_name) == n - 3 && !strncmp(o->long_name, a + 3, n - 3))
			return apply(o, false, true, arg, p);
		if (has_prefix(o->long_name, a, n) || (neg && has_prefix(o->long_name, a + 3, n - 3))) {
			prev = last;
			prev_unset = last_unset;
			last = o;
			last_unset = neg && !has_prefix(o->long_name, a, n);
		}
	}
	if (last && !prev)
		return apply(last, false, last_unset, arg, p);
	if (!last) {
		fprintf(stderr, "  Error: unknown option `%.*s'\n\n", (int)n, a);
		return UNKNOWN;
	}
	/* perf names the last two options the abbreviation matched */
	fprintf(stderr, " Error: Ambiguous option: %.*s (could be --%s%s or --%s%s)\n", (int)n, a,
		prev_unset ? "no-" : "", prev->long_name, last_unset ? "no-" : "", last->long_name);
	return -1;
}

/* -x, -xVALUE, -xyz (flags) */
static int parse_short(const struct cli_opt *opts, struct pos *p)
{
	const char *a = p->argv[*p->i] + 1;
	p->short_opt = true;
	while (*a) {
		const struct cli_opt *o = opts;
		p->optstr = a;	/* perf: the usage of the bundle's switch being read */
		while (o->type != CLI_OPT_END && o->short_name != *a)
			o++;
		if (o->type == CLI_OPT_END) {
			if (*a == 'h')
				return CLI_HELP;
			fprintf(stderr, "  Error: unknown switch `%c'\n\n", *a);
			return UNKNOWN;
		}
		if (takes_arg(o))
			return apply(o, true, false, a[1] ? a + 1 : NULL, p);
		if (apply(o, true, false, NULL, p))
			return -1;
		a++;
	}
	return 0;
}

int cli_opts__parse(int argc, char **argv, const struct cli_opt *opts, const char *usage,
		    unsigned flags)
{
	int out = 0, i = 1;
	struct pos p = { .argc = argc, .argv = argv, .i = &i };
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			if (flags & CLI_STOP_AT_NON_OPTION)
				break;
			argv[out++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		int rc = a[1] == '-' ? parse_long(opts, &p) : parse_short(opts, &p);
		if (rc == CLI_HELP) {
			cli_opts__usage(stdout, opts, usage);
			return CLI_HELP;
		}
		if (rc == UNKNOWN)
			cli_opts__usage(stderr, opts, usage);
		else if (rc)
			cli_opts__usage_of(stderr, opts, usage, p.optstr, p.short_opt);
		if (rc)
			return CLI_ERROR;
	}
	while (i < argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	return out;
}

#define USAGE_WIDTH 24
#define USAGE_GAP 2
#define USAGE_COLS 100

/* an option's help from column 26, wrapped at word boundaries before USAGE_COLS */
static void help_text(FILE *f, const char *s)
{
	const int room = USAGE_COLS - USAGE_WIDTH - USAGE_GAP;
	do {
		int n = (int)strlen(s);
		if (n > room) {
			n = room;
			while (n > 0 && s[n] != ' ')
				n--;
			if (!n)
				n = room;
		}
		fprintf(f, "%.*s\n", n, s);
		s += n;
		while (*s == ' ')
			s++;
		if (*s)
			fprintf(f, "%*s", USAGE_WIDTH + USAGE_GAP, "");
	} while (*s);
}

/* one option's usage line(s), as perf's print_option_help */
static void option_usage(FILE *f, const struct cli_opt *o)
{
	if (o->flags & CLI_HIDDEN)
		return;
	int pos = fprintf(f, "    ");
	if (o->short_name)
		pos += fprintf(f, "-%c", o->short_name);
	else
		pos += fprintf(f, "    ");
	if (o->long_name)
		pos += fprintf(f, "%s--%s", o->short_name ? ", " : "", o->long_name);
	if (takes_arg(o)) {
		const char *argh = o->argh ? o->argh : "n";
		bool opt = o->flags & (CLI_OPTARG | CLI_LASTARG_DEFAULT);
		if (opt)
			pos += fprintf(f, o->long_name ? "[=<%s>]" : "[<%s>]", argh);
		else
			pos += fprintf(f, " <%s>", argh);
	}
	if (pos <= USAGE_WIDTH)
		fprintf(f, "%*s", USAGE_WIDTH + USAGE_GAP - pos, "");
	else
		fprintf(f, "\n%*s", USAGE_WIDTH + USAGE_GAP, "");
	help_text(f, o->help ? o->help : "");
}

void cli_opts__usage_of(FILE *f, const struct cli_opt *opts, const char *usage,
			const char *optstr, bool short_opt)
{
	if (usage)	/* its first line: perf's usage string */
		fprintf(f, "\n Usage: %.*s\n\n", (int)strcspn(usage, "\n"), usage);
	for (const struct cli_opt *o = opts; o->type != CLI_OPT_END; o++) {
		if (o->type == CLI_OPT_GROUP)
			continue;
		if (short_opt) {
			if (o->short_name && o->short_name == *optstr) {
				option_usage(f, o);
				break;
			}
			continue;
		}
		if (o->long_name && !strncmp(o->long_name, optstr, strlen(optstr)))
			option_usage(f, o);
	}
}

void cli_opts__usage(FILE *f, const struct cli_opt *opts, const char *usage)
{
	fprintf(f, " Usage: %s\n\n", usage);
	for (const struct cli_opt *o = opts; o->type != CLI_OPT_END; o++) {
		if (o->type == CLI_OPT_GROUP)
			fprintf(f, "\n%s%s", o->help ? o->help : "", o->help && *o->help ? "\n" : "");
		else
			option_usage(f, o);
	}
	fputc('\n', f);
}

void cli_data__init(struct cli_data *d)
{
	*d = (struct cli_data){ .input = "perf.data", .demangle = true };
}

void cli_data__session_opts(const struct cli_data *d, struct pk_session_opts *so,
			    struct pk_symbolizer_opts *yo)
{
	if (!d->demangle)
		yo->flags |= PK_SYMBOLIZER_NO_DEMANGLE;
	yo->vmlinux = d->vmlinux;
	so->symbolizer = yo;
	so->symfs = d->symfs;
	so->max_stack = d->max_stack;
	so->nr_threads = d->jobs;
}
