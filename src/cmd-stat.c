/* SPDX-License-Identifier: MIT */
/*
 * cmd-stat.c — `pmukit stat`: perf stat's options; count a command, CPUs or
 * tasks (stat-live.c), or read counts saved by -j (--counts, stat-counts.c);
 * print them (stat-print.c) with -M metrics and TopDown (stat-metrics.c).
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/spec.h>

#include "cli.h"
#include "stat-live.h"
#include "stat-metrics.h"
#include "stat-serve-out.h"
#include "stat-serve.h"
#include "stat.h"

#define DEFAULT_REST "context-switches,cpu-migrations,page-faults," \
		     "cycles,instructions,branches,branch-misses"
#define DEFAULT_EVENTS "task-clock," DEFAULT_REST
/* perf counts CPUs (-a, -C) with cpu-clock instead of task-clock */
#define DEFAULT_EVENTS_CPUS "cpu-clock," DEFAULT_REST

/* A usage error, as perf: the reason (pmukit's prefix); the parser adds the usage. -1. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("pmukit stat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\n\n", stderr);
	va_end(ap);
	return -1;
}

/* -e SPEC, repeatable */
static int opt_event(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	(void)unset;
	cfg->specs[cfg->nr_specs++] = arg;
	return 0;
}

/* -G LIST: perf's cgroups are the events' defined before it */
static int opt_cgroup(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	(void)unset;
	if (!cfg->nr_specs)
		return usage_error("must define events before cgroups");
	cfg->cgroups = arg;
	cfg->cgroup_specs = cfg->nr_specs;
	return 0;
}

/* -A, --per-core, --per-die, --per-socket, --per-thread: the aggregation each names */
static int opt_aggr(const struct cli_opt *opt, const char *arg, bool unset)
{
	static const struct { const char *name; enum stat_aggr aggr; } modes[] = {
		{ "no-aggr", STAT_AGGR_CPU }, { "per-core", STAT_AGGR_CORE },
		{ "per-die", STAT_AGGR_DIE }, { "per-socket", STAT_AGGR_SOCKET },
		{ "per-thread", STAT_AGGR_THREAD },
	};
	(void)arg, (void)unset;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(opt->long_name, modes[i].name))
			*(enum stat_aggr *)opt->value = modes[i].aggr;
	return 0;
}

/* A number of milliseconds (or of intervals) from 0 to 4e9: -I, --interval-count, --timeout, -D */
static int opt_ms(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	double v;
	(void)unset;
	if (cli_value__double(arg, 0, 4e9, &v)) {
		if (opt->short_name)
			return usage_error("-%c: invalid value '%s'%s", opt->short_name, arg,
					   opt->short_name == 'D' ? " (milliseconds)" : "");
		return usage_error("--%s: invalid value '%s'", opt->long_name, arg);
	}
	switch (opt->short_name) {
	case 'I': cfg->interval_ms = v; break;	/* perf: 0 is no interval */
	case 'D': cfg->delay_ms = v; break;	/* perf: -1 waits for a control command: not here */
	default:
		if (!strcmp(opt->long_name, "timeout")) {
			if (v > 0 && v < 10)
				return usage_error("timeout must be >= 10ms.");
			cfg->timeout_ms = v;
		} else {
			cfg->interval_count = (unsigned)v;	/* perf: 0 is no limit */
		}
	}
	return 0;
}

/* -r N: perf's 0 repeats until interrupted */
static int opt_repeat(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	double d;
	(void)unset;
	if (cli_value__double(arg, -2e9, HUGE_VAL, &d) || d != (int)d)
		return usage_error("-r: invalid value '%s'", arg);
	if (d < 0)
		return usage_error("Run count must be a positive number");
	cfg->runs = (int)d;
	return 0;
}

/* --td-level N: 1 or 2 (perf: only with --topdown) */
static int opt_td_level(const struct cli_opt *opt, const char *arg, bool unset)
{
	long v;
	(void)unset;
	if (cli_value__long(arg, 10, 1, 2, &v))
		return usage_error("--td-level: 1 or 2, not '%s'", arg);
	*(int *)opt->value = (int)v;
	return 0;
}

static const char usage_line[] = "pmukit stat [<options>] [<command>]";

static int parse_args(int argc, char **argv, struct stat_config *cfg, struct cli_env *env)
{
	bool topdown = false;
	int td_level = 0;
	const struct cli_opt opts[] = {
		CLI_CALLBACK_F('e', "event", cfg, "event", "event selector, perf syntax (repeatable); "
			       "default: task-clock, context-switches, cpu-migrations, page-faults, cycles, "
			       "instructions, branches, branch-misses (cpu-clock for task-clock with "
			       "-a or -C)",
			       opt_event, CLI_NONEG),
		CLI_STRING('M', "metrics", &cfg->metrics, "metric/metric group list",
			   "metrics or metric groups of the CPU's tables (comma list)"),
		CLI_BOOL(0, "topdown", &topdown, "TopDown Level 1 (retiring, bad speculation, "
			 "frontend and backend bound); --td-level 2 adds Level 2"),
		CLI_CALLBACK_F(0, "td-level", &td_level, "n", "TopDown level (1 or 2) with --topdown",
			       opt_td_level, CLI_NONEG),
		CLI_BOOL(0, "record-tpebs", &cfg->record_tpebs, "retire latency for metrics (TPEBS), "
			 "where PEBS has it"),
		CLI_BOOL(0, "metric-only", &cfg->metric_only, "only the -M metrics, a column each "
			 "(--topdown implies it)"),
		CLI_BOOL(0, "metric-no-group", &cfg->metric_no_group, "don't group metric events "
			 "(no weak groups)"),
		CLI_BOOL(0, "metric-no-merge", &cfg->metric_no_merge, "don't try to share events "
			 "between metrics in a group"),
		CLI_BOOL(0, "metric-no-threshold", &cfg->metric_no_threshold, "don't try to compute "
			 "metric thresholds"),
		CLI_STRING(0, "counts", &cfg->counts_path, "file", "no counting: read counts saved by "
			   "-j (pmukit's or perf's) and print them with their metrics (-M)"),
		CLI_BOOL('a', "all-cpus", &cfg->system_wide, "system-wide collection from all CPUs"),
		CLI_STRING('C', "cpu", &cfg->cpu_list, "cpu", "list of cpus to monitor (\"0-3,6\"), "
			   "system-wide"),
		CLI_CALLBACK_F('A', "no-aggr", &cfg->aggr, NULL, "disable CPU count aggregation: one "
			       "line per CPU", opt_aggr, CLI_NOARG | CLI_NONEG),
		CLI_CALLBACK_F(0, "per-core", &cfg->aggr, NULL, "aggregate counts per physical "
			       "processor core", opt_aggr, CLI_NOARG | CLI_NONEG),
		CLI_CALLBACK_F(0, "per-die", &cfg->aggr, NULL, "aggregate counts per processor die",
			       opt_aggr, CLI_NOARG | CLI_NONEG),
		CLI_CALLBACK_F(0, "per-socket", &cfg->aggr, NULL, "aggregate counts per processor "
			       "socket", opt_aggr, CLI_NOARG | CLI_NONEG),
		CLI_CALLBACK_F(0, "per-thread", &cfg->aggr, NULL, "one line per thread (\"comm-tid\") "
			       "with -p or -t, or every thread of the machine with -a or alone",
			       opt_aggr, CLI_NOARG | CLI_NONEG),
		CLI_STRING('p', "pid", &cfg->pid_list, "pid", "stat events on existing process id "
			   "(comma list)"),
		CLI_STRING('t', "tid", &cfg->tid_list, "tid", "stat events on existing thread id "
			   "(comma list)"),
		CLI_BOOL('i', "no-inherit", &cfg->no_inherit, "child tasks do not inherit counters"),
		CLI_CALLBACK_F('I', "interval-print", cfg, "n", "print counts at regular interval in "
			       "ms (>= 10; 0: none)", opt_ms, CLI_NONEG),
		CLI_CALLBACK_F(0, "interval-count", cfg, "n", "print counts for fixed number of times "
			       "(0: no limit)", opt_ms, CLI_NONEG),
		CLI_CALLBACK_F('r', "repeat", cfg, "n", "repeat command and print average + stddev "
			       "(max: 100; 0: until interrupted)", opt_repeat, CLI_NONEG),
		CLI_STRING('x', "field-separator", &cfg->sep, "separator", "print counts with custom "
			   "separator (CSV: value, unit, event, run time, percentage running, metric "
			   "value, metric unit)"),
		CLI_BOOL('j', "json-output", &cfg->json, "print counts in JSON format, an object a "
			 "line"),
		CLI_BOOL('B', "big-num", &cfg->big_num, "print large numbers with thousands' "
			 "separators (default; --no-big-num: none)"),
		CLI_STRING('o', "output", &cfg->output_path, "file", "output file name (default: "
			   "stderr)"),
		CLI_BOOL(0, "append", &cfg->append, "append to the output file"),
		CLI_CALLBACK_F(0, "timeout", cfg, "n", "stop workload and print counts after a "
			       "timeout period in ms (>= 10ms; the command gets SIGTERM)", opt_ms,
			       CLI_NONEG),
		CLI_CALLBACK_F('D', "delay", cfg, "n", "ms to wait before starting measurement after "
			       "program start", opt_ms, CLI_NONEG),
		CLI_BOOL('n', "null", &cfg->null_run, "null run: no counters, the elapsed time only"),
		CLI_STRING(0, "serve", &cfg->serve, "addr", "a Prometheus exporter on ADDR ([HOST]:PORT; "
			   "port 0: any): GET /metrics reads the counters (OpenMetrics when asked)"),
		CLI_CALLBACK_F('G', "cgroup", cfg, "name", "with -a/-C, after -e: count the i-th event "
			       "in the i-th cgroup (comma list, empty: all tasks; one: every event "
			       "before it)", opt_cgroup, CLI_NONEG),
		CLI_STRING(0, "openmetrics", &cfg->openmetrics_path, "file", "with -I: each interval's "
			   "counts as --serve's families, timestamped, in one OpenMetrics file ('-': "
			   "stdout) for promtool tsdb create-blocks-from openmetrics"),
		CLI_STRING(0, "push", &cfg->push_url, "url", "with -I: POST each interval's samples "
			   "(text format, timestamped) to a VictoriaMetrics import endpoint "
			   "(http://HOST:PORT[/PATH], default path /api/v1/import/prometheus)"),
		CLI_ENV_OPTS(env),
		CLI_GROUP("Without a command, -a, -C, -p or -t, count until interrupted (Ctrl-C)."),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts, usage_line, CLI_STOP_AT_NON_OPTION);
	if (n < 0)
		return n;
	if (topdown)	/* perf: --td-level only with --topdown */
		cfg->topdown_level = td_level ? td_level : 1;
	if (n > 0)
		cfg->argv = argv;
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

/* Count (stat-live.c) the events of cfg and sm's metrics, and print them with pr. The exit status. */
static int count_and_print(struct stat_config *cfg, struct cli_env *env, struct stat_metrics *sm,
			   struct stat_printer *pr)
{
	struct pk_evlist *el = pk_evlist__new();
	struct stat_live st = { 0 };
	struct serve_out *so = NULL;
	int ret = 1, code;
	char target[1024];
	if (!el) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		return 1;
	}
	/* -G: its names go to the events of the -e options before it */
	if (add_specs(el, cfg, env, cfg->specs, cfg->cgroup_specs))
		goto out;
	cfg->cgroup_nr_ev = pk_evlist__nr(el);
	if (add_specs(el, cfg, env, cfg->specs + cfg->cgroup_specs, cfg->nr_specs - cfg->cgroup_specs))
		goto out;
	size_t serve_first = pk_evlist__nr(el);	/* --serve: the metric events follow */
	if (sm) {
		size_t first = pk_evlist__nr(el);
		const char *ms = stat_metrics__spec(sm);
		if (ms && add_specs(el, cfg, env, &ms, 1))
			goto out;
		if (stat_metrics__bind(sm, el, first))
			goto out;
	}
	if (stat_live__init(&st, cfg, env, el))
		goto out;	/* fini frees what init got to (st starts zeroed) */
	if (sm)
		stat_metrics__attach(sm, &st.frame);
	if (cfg->serve) {	/* --serve: stat-serve.c */
		ret = stat_serve__run(&st, sm, serve_first, env);
		goto out;
	}
	if ((cfg->openmetrics_path || cfg->push_url) &&	/* stat-serve-out.c */
	    serve_out__open(&so, &st, sm, serve_first, env))
		goto out;
	stat_live__target(&st, target, sizeof(target));
	if (stat_live__run(&st, pr, target, &code)) {
		ret = code ? code : 1;
		goto out;
	}
	if (sm)
		stat_metrics__report(sm, &st.frame);
	if (cfg->record_tpebs && !cfg->json && !cfg->sep)
		fprintf(cfg->out, "# --record-tpebs: retire latency not sampled (%s); metrics use "
			"static values\n", env->pmus && pk_pmu_tree__has_core(env->pmus) ?
			"pmukit does not sample PEBS retire latency yet" : "no core PMU here");
	ret = code;
out:
	if (serve_out__close(so) && !ret)
		ret = 1;
	stat_live__fini(&st);
	pk_evlist__free(el);
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_config cfg = { .runs = 1, .big_num = true };
	struct cli_env env;
	struct stat_metrics *sm = NULL;
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
	int prc = parse_args(argc, argv, &cfg, &env);
	if (prc) {
		ret = prc == CLI_HELP ? 0 : 129;
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
	if (cfg.counts_path)
		ret = stat_counts__run(&cfg, &env, sm, &pr) ? 1 : 0;
	else
		ret = count_and_print(&cfg, &env, sm, &pr);
out:
	stat_metrics__free(sm);
	if (cfg.out && cfg.out != stderr)
		fclose(cfg.out);
	free(cfg.specs);
	cli_env__close(&env);
	return ret;
}
