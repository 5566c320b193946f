/* SPDX-License-Identifier: MIT */
/*
 * cmd-stat.c — `pmukit stat`: perf stat's options; count a command, CPUs or
 * tasks (stat-live.c), or read counts saved by -j (--counts, stat-counts.c);
 * print them (stat-print.c) with -M metrics and TopDown (stat-metrics.c).
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/spec.h>

#include "cli.h"
#include "stat-live.h"
#include "stat-metrics.h"
#include "stat-serve.h"
#include "stat.h"

#define DEFAULT_REST "context-switches,cpu-migrations,page-faults," \
		     "cycles,instructions,branches,branch-misses"
#define DEFAULT_EVENTS "task-clock," DEFAULT_REST
/* perf counts CPUs (-a, -C) with cpu-clock instead of task-clock */
#define DEFAULT_EVENTS_CPUS "cpu-clock," DEFAULT_REST

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit stat [options] [--] [COMMAND [ARGS]]\n"
		"Count events of COMMAND, of CPUs or of running tasks, as perf stat does.\n\n"
		"  -e, --event SPEC      event specification, perf syntax (repeatable); default:\n"
		"                        " DEFAULT_EVENTS "\n"
		"                        (cpu-clock for task-clock with -a or -C)\n"
		"  -M, --metrics LIST    metrics or metric groups of the CPU's tables (comma list)\n"
		"      --topdown         TopDown Level 1 (retiring, bad speculation, frontend and\n"
		"                        backend bound); --td-level 2 adds Level 2\n"
		"      --td-level N      TopDown level (1 or 2) with --topdown\n"
		"      --record-tpebs    retire latency for metrics (TPEBS), where PEBS has it\n"
		"      --metric-only     only the -M metrics, a column each (--topdown implies it)\n"
		"      --metric-no-group, --metric-no-merge, --metric-no-threshold\n"
		"                        as perf: no weak groups, no sharing, no thresholds\n"
		"      --counts FILE     no counting: read counts saved by -j (pmukit's or perf's)\n"
		"                        and print them with their metrics (-M)\n"
		"  -a, --all-cpus        every online CPU (system-wide)\n"
		"  -C, --cpu LIST        these CPUs (\"0-3,6\"), system-wide\n"
		"  -A, --no-aggr         one line per CPU\n"
		"      --per-core, --per-die, --per-socket\n"
		"                        aggregate per core, die or socket (CPU topology)\n"
		"      --per-thread      one line per thread (\"comm-tid\") with -p or -t, or\n"
		"                        every thread of the machine with -a or alone\n"
		"  -p, --pid PIDS        count running processes (comma list)\n"
		"  -t, --tid TIDS        count running threads (comma list)\n"
		"  -i, --no-inherit      do not count child tasks\n"
		"  -I, --interval-print MS  print the counts of every MS milliseconds\n"
		"      --interval-count N   stop after N intervals\n"
		"  -r, --repeat N        run N times, print means and relative standard deviation\n"
		"  -x, --field-separator SEP  CSV: value, unit, event, run time, percentage\n"
		"                        running, metric value, metric unit\n"
		"  -j, --json-output     one JSON object per line\n"
		"  -B, --big-num         thousands separators (default); --no-big-num: none\n"
		"  -o, --output FILE     counts to FILE instead of stderr; --append adds to it\n"
		"      --timeout MS      stop after MS milliseconds (the command gets SIGTERM)\n"
		"  -D, --delay MS        start counting MS milliseconds after the command starts\n"
		"  -n, --null            no counters: the elapsed time only\n"
		STAT_SERVE_HELP
		CLI_ENV_HELP
		"  -h, --help            this help\n"
		"Without COMMAND, -a, -C, -p or -t count until interrupted (Ctrl-C).\n");
}

enum {
	OPT_PER_CORE = 0x200, OPT_PER_SOCKET, OPT_PER_DIE, OPT_INTERVAL_COUNT,
	OPT_APPEND, OPT_NO_BIG_NUM, OPT_TOPDOWN, OPT_TD_LEVEL, OPT_TPEBS, OPT_NO_GROUP,
	OPT_NO_MERGE, OPT_NO_THRESHOLD, OPT_COUNTS, OPT_METRIC_ONLY, OPT_PER_THREAD, OPT_TIMEOUT,
	OPT_SERVE,
};

static int parse_number(const char *opt, const char *arg, double min, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || v < min) {
		fprintf(stderr, "pmukit stat: %s: invalid value '%s'\n", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* A usage error, as perf: the reason, then the usage; parse_args returns STAT_USAGE_ERROR. */
#define STAT_USAGE_ERROR (-129)
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("pmukit stat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\n\n", stderr);
	va_end(ap);
	usage(stderr);
	return STAT_USAGE_ERROR;
}

static int parse_args(int argc, char **argv, struct stat_config *cfg, struct cli_env *env,
		      bool *help)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "topdown", no_argument, NULL, OPT_TOPDOWN },
		{ "td-level", required_argument, NULL, OPT_TD_LEVEL },
		{ "record-tpebs", no_argument, NULL, OPT_TPEBS },
		{ "metric-no-group", no_argument, NULL, OPT_NO_GROUP },
		{ "metric-no-merge", no_argument, NULL, OPT_NO_MERGE },
		{ "metric-no-threshold", no_argument, NULL, OPT_NO_THRESHOLD },
		{ "counts", required_argument, NULL, OPT_COUNTS },
		{ "metric-only", no_argument, NULL, OPT_METRIC_ONLY },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "per-core", no_argument, NULL, OPT_PER_CORE },
		{ "per-die", no_argument, NULL, OPT_PER_DIE },
		{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "big-num", no_argument, NULL, 'B' },
		{ "no-big-num", no_argument, NULL, OPT_NO_BIG_NUM },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "delay", required_argument, NULL, 'D' },
		{ "null", no_argument, NULL, 'n' },
		{ "serve", required_argument, NULL, OPT_SERVE },	/* stat-serve.c */
		{ "cgroup", required_argument, NULL, 'G' },	/* stat-serve.c */
		{ "help", no_argument, NULL, 'h' },
		CLI_ENV_OPTIONS,
		{ 0 },
	};
	double d;
	int c, td_level = 0;

	/* '+': options stop at the command; ':' first: getopt prints nothing, we do */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:M:aC:Ap:t:iI:r:x:jBo:hD:nG:", opts, NULL)) != -1) {
		if (cli_env__option(env, c, optarg))
			continue;
		switch (c) {
		case 'e': cfg->specs[cfg->nr_specs++] = optarg; break;
		case 'M': cfg->metrics = optarg; break;
		case OPT_TOPDOWN: if (!cfg->topdown_level) cfg->topdown_level = 1; break;
		case OPT_TD_LEVEL:
			if (parse_number("--td-level", optarg, 1, &d) || (d != 1 && d != 2))
				return usage_error("--td-level: 1 or 2, not '%s'", optarg);
			td_level = (int)d;	/* perf: only with --topdown */
			break;
		case OPT_TPEBS: cfg->record_tpebs = true; break;
		case OPT_NO_GROUP: cfg->metric_no_group = true; break;
		case OPT_NO_MERGE: cfg->metric_no_merge = true; break;
		case OPT_NO_THRESHOLD: cfg->metric_no_threshold = true; break;
		case OPT_COUNTS: cfg->counts_path = optarg; break;
		case OPT_METRIC_ONLY: cfg->metric_only = true; break;
		case 'a': cfg->system_wide = true; break;
		case 'C': cfg->cpu_list = optarg; break;
		case 'A': cfg->aggr = STAT_AGGR_CPU; break;
		case OPT_PER_CORE: cfg->aggr = STAT_AGGR_CORE; break;
		case OPT_PER_DIE: cfg->aggr = STAT_AGGR_DIE; break;
		case OPT_PER_SOCKET: cfg->aggr = STAT_AGGR_SOCKET; break;
		case OPT_PER_THREAD: cfg->aggr = STAT_AGGR_THREAD; break;
		case 'p': cfg->pid_list = optarg; break;
		case 't': cfg->tid_list = optarg; break;
		case 'i': cfg->no_inherit = true; break;
		case 'I':	/* perf: 0 is no interval */
			if (parse_number("-I", optarg, 0, &cfg->interval_ms) || cfg->interval_ms > 4e9)
				return usage_error("-I: invalid value '%s'", optarg);
			break;
		case OPT_INTERVAL_COUNT:	/* perf: 0 is no limit */
			if (parse_number("--interval-count", optarg, 0, &d) || d > 4e9)
				return usage_error("--interval-count: invalid value '%s'", optarg);
			cfg->interval_count = (unsigned)d;
			break;
		case 'r':	/* perf: 0 repeats until interrupted */
			if (parse_number("-r", optarg, -2e9, &d) || d != (int)d)
				return usage_error("-r: invalid value '%s'", optarg);
			if (d < 0)
				return usage_error("Run count must be a positive number");
			cfg->runs = (int)d;
			break;
		case 'x': cfg->sep = optarg; break;
		case 'j': cfg->json = true; break;
		case 'B': cfg->big_num = true; break;
		case OPT_NO_BIG_NUM: cfg->big_num = false; break;
		case 'o': cfg->output_path = optarg; break;
		case OPT_APPEND: cfg->append = true; break;
		case OPT_TIMEOUT:
			if (parse_number("--timeout", optarg, 0, &cfg->timeout_ms) || cfg->timeout_ms > 4e9)
				return usage_error("--timeout: invalid value '%s'", optarg);
			if (cfg->timeout_ms > 0 && cfg->timeout_ms < 10)
				return usage_error("timeout must be >= 10ms.");
			break;
		case 'D':	/* perf: -1 waits for a control command, which pmukit has not */
			if (parse_number("-D", optarg, 0, &cfg->delay_ms) || cfg->delay_ms > 4e9)
				return usage_error("-D: invalid value '%s' (milliseconds)", optarg);
			break;
		case 'n': cfg->null_run = true; break;
		case OPT_SERVE: cfg->serve = optarg; break;	/* stat-serve.c */
		case 'G': cfg->cgroups = optarg; break;	/* stat-serve.c */
		case 'h': *help = true; return 0;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt)
				return usage_error("unknown switch '%c'", optopt);
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (cfg->topdown_level)
		cfg->topdown_level = td_level ? td_level : 1;
	if (optind < argc)
		cfg->argv = argv + optind;
	/* perf: --per-thread with no command and no target is every thread of the machine */
	if (cfg->aggr == STAT_AGGR_THREAD && !cfg->argv && !cfg->pid_list && !cfg->tid_list &&
	    !cfg->cpu_list && !cfg->counts_path)
		cfg->system_wide = true;
	return 0;
}

/*
 * Combinations perf resolves: -p/-t win over -a/-C (with perf's warning); no
 * command and no target is system-wide.
 */
static void settle_args(struct stat_config *cfg)
{
	if ((cfg->pid_list || cfg->tid_list) && (cfg->system_wide || cfg->cpu_list)) {
		fprintf(stderr, "PID/TID switch overriding %s\n", cfg->cpu_list ? "CPU" : "SYSTEM");
		cfg->system_wide = false;
		cfg->cpu_list = NULL;
	}
	if (!cfg->argv && !cfg->counts_path && !cfg->cpu_list && !cfg->pid_list && !cfg->tid_list)
		cfg->system_wide = true;
}

/* Combinations perf refuses, with its reasons. */
static int check_args(const struct stat_config *cfg)
{
	const char *why = NULL;

	if (cfg->sep && cfg->json)
		why = "-x and -j cannot be used together";
	else if (cfg->interval_count && cfg->interval_ms <= 0)
		why = "interval-count option should be used together with interval-print.";
	else if (cfg->timeout_ms > 0 && cfg->interval_ms > 0)
		why = "timeout option is not supported with interval-print.";
	else if (cfg->aggr == STAT_AGGR_THREAD && (cfg->metric_only || cfg->topdown_level))
		why = "--metric-only is not supported with --per-thread";
	else if (cfg->aggr == STAT_AGGR_THREAD && !cfg->pid_list && !cfg->tid_list &&
		 !cfg->counts_path && (!cfg->system_wide || cfg->cpu_list))
		why = "the --per-thread option is only available when monitoring via -p, -t or -a, "
		      "or with --per-thread alone";
	else if (cfg->aggr != STAT_AGGR_GLOBAL && cfg->aggr != STAT_AGGR_THREAD &&
		 !cfg->system_wide && !cfg->cpu_list && !cfg->counts_path)
		why = "-A, --per-core, --per-die and --per-socket need -a or -C";
	else if (cfg->counts_path && (cfg->argv || cfg->system_wide || cfg->cpu_list ||
				      cfg->pid_list || cfg->tid_list || cfg->runs > 1 ||
				      cfg->interval_ms > 0))
		why = "--counts reads saved counts: no command, target, -r or -I";
	if (!why)
		return stat_serve__check(cfg);	/* --serve: stat-serve.c */
	fprintf(stderr, "pmukit stat: %s\n", why);
	return -1;
}

static FILE *open_output(const struct stat_config *cfg)
{
	if (!cfg->output_path)
		return stderr;	/* perf stat prints on stderr */
	FILE *f = fopen(cfg->output_path, cfg->append ? "a" : "w");
	if (!f) {
		fprintf(stderr, "pmukit stat: %s: %s\n", cfg->output_path, strerror(errno));
		return NULL;
	}
	time_t t = time(NULL);
	fprintf(f, "# started on %s\n", ctime(&t));
	return f;
}

static int add_specs(struct pk_evlist *el, const struct stat_config *cfg, struct cli_env *env,
		     const char *const *specs, size_t nr)
{
	struct pk_spec_opts so = {
		.sz = sizeof(so),
		.mode = PK_SPEC_STAT,
		.cat = env->cat,
		.model = env->have_model ? env->model : PK_NO_MODEL,
		.pmus = env->pmus,
		.system_wide = cfg->system_wide || cfg->cpu_list,
		.no_inherit = cfg->no_inherit,
		/* -D: perf drops enable_on_exec and enables the counters after the delay */
		.workload = cfg->argv && !cfg->pid_list && !cfg->tid_list && !cfg->system_wide &&
			    !cfg->cpu_list && !cfg->delay_ms,
	};
	for (size_t s = 0; s < nr; s++) {
		struct pk_spec_error err = { 0 };
		if (pk_evlist__add(el, specs[s], &so, &err)) {
			char msg[4096];
			fprintf(stderr, "pmukit stat: invalid event specification\n%s\n",
				pk_spec_error__format(&err, specs[s], msg, sizeof(msg)));
			return -1;
		}
	}
	return 0;
}

/*
 * The environment names a numeric locale other than C's: C, POSIX and
 * C.UTF-8 group no digits, so loading them (a few files) changes nothing.
 */
static bool numeric_locale_wanted(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" };
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);
		if (!v || !*v)
			continue;
		return strcmp(v, "C") && strcmp(v, "POSIX") && strncmp(v, "C.", 2);
	}
	return false;
}

/*
 * Software and tool events alone, without metrics, encode the same without
 * the tables and the PMU tree, so `stat -e task-clock` skips reading them
 * (and matching this CPU's identifier): start-up time, see `make bench`
 * (stat_startup_*).
 */
static bool needs_env(const struct stat_config *cfg, const struct cli_env *env)
{
	if (cfg->metrics || cfg->topdown_level || cfg->counts_path || cfg->record_tpebs ||
	    env->sysfs || env->cpuid || env->events_dir)
		return true;
	for (size_t i = 0; i < cfg->nr_specs; i++)
		if (pk_spec__needs_context(cfg->specs[i], PK_SPEC_STAT))
			return true;
	return false;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_config cfg = { .runs = 1, .big_num = true };
	struct cli_env env;
	struct pk_evlist *el = NULL;
	struct stat_metrics *sm = NULL;
	struct stat_live st = { 0 };
	bool help = false;
	int ret = 1;

	/*
	 * perf stat prints on stderr, unbuffered: one write(2) per field. Line
	 * buffered, the output is the same in a third of the writes, and a
	 * message is never held back (nor lost when the process dies).
	 */
	setvbuf(stderr, NULL, _IOLBF, 0);
	cli_env__init(&env);
	if (numeric_locale_wanted())
		setlocale(LC_NUMERIC, "");	/* thousands separators as the locale has them, as perf */
	cfg.specs = calloc((size_t)argc + 2, sizeof(*cfg.specs));
	if (!cfg.specs)
		return 1;
	int pr_ret = parse_args(argc, argv, &cfg, &env, &help);
	if (pr_ret) {
		ret = pr_ret == STAT_USAGE_ERROR ? 129 : 1;
		goto out;
	}
	if (help) {
		usage(stdout);
		ret = 0;
		goto out;
	}
	settle_args(&cfg);
	if (check_args(&cfg)) {
		ret = 129;
		goto out;
	}
	if (!cfg.nr_specs && !cfg.metrics && !cfg.topdown_level && !cfg.counts_path && !cfg.null_run)
		cfg.specs[cfg.nr_specs++] = cfg.system_wide || cfg.cpu_list ? DEFAULT_EVENTS_CPUS
									    : DEFAULT_EVENTS;
	if (needs_env(&cfg, &env)) {
		if (cli_env__open(&env, "pmukit stat"))
			goto out;
		cli_env__add_missing_core(&env);
	}
	cfg.out = open_output(&cfg);
	if (!cfg.out)
		goto out;

	struct stat_print_opts po = {
		.out = cfg.out, .aggr = cfg.aggr, .sep = cfg.sep, .json = cfg.json,
		.interval = cfg.interval_ms > 0, .runs = cfg.runs, .big_num = cfg.big_num,
		.null_run = cfg.null_run,
		.color = !cfg.sep && !cfg.json && !cfg.output_path && isatty(STDERR_FILENO),
		.metric_only = (cfg.metric_only || cfg.topdown_level) && (cfg.metrics || cfg.topdown_level),
	};
	struct stat_printer pr;
	stat_printer__init(&pr, &po);

	if (stat_metrics__new(&sm, &cfg, &env))
		goto out;
	if (cfg.counts_path) {
		ret = stat_counts__run(&cfg, &env, sm, &pr) ? 1 : 0;
		goto out;
	}

	el = pk_evlist__new();
	if (!el) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		goto out;
	}
	if (add_specs(el, &cfg, &env, cfg.specs, cfg.nr_specs))
		goto out;
	size_t serve_first = pk_evlist__nr(el);	/* --serve: the metric events follow */
	if (sm) {
		size_t first = pk_evlist__nr(el);
		const char *ms = stat_metrics__spec(sm);
		if (ms && add_specs(el, &cfg, &env, &ms, 1))
			goto out;
		if (stat_metrics__bind(sm, el, first))
			goto out;
	}
	if (stat_live__init(&st, &cfg, &env, el))
		goto out;	/* fini frees what init got to (st starts zeroed) */
	if (sm)
		stat_metrics__attach(sm, &st.frame);
	if (cfg.serve) {	/* --serve: stat-serve.c */
		ret = stat_serve__run(&st, sm, serve_first, &env);
		goto out;
	}
	char target[1024];
	stat_live__target(&st, target, sizeof(target));
	int code;
	if (stat_live__run(&st, &pr, target, &code)) {
		ret = code ? code : 1;
		goto out;
	}
	if (sm)
		stat_metrics__report(sm, &st.frame);
	if (cfg.record_tpebs && !cfg.json && !cfg.sep)
		fprintf(cfg.out, "# --record-tpebs: retire latency not sampled (%s); metrics use "
			"static values\n", env.pmus && pk_pmu_tree__has_core(env.pmus) ?
			"pmukit does not sample PEBS retire latency yet" : "no core PMU here");
	ret = code;
out:
	stat_live__fini(&st);
	stat_metrics__free(sm);
	pk_evlist__free(el);
	if (cfg.out && cfg.out != stderr)
		fclose(cfg.out);
	free(cfg.specs);
	cli_env__close(&env);
	return ret;
}
