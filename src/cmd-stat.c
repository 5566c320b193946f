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
#include "util/buf.h"
#include "stat.h"

#define DEFAULT_REST "context-switches,cpu-migrations,page-faults," \
		     "cycles,instructions,branches,branch-misses"
#define DEFAULT_EVENTS "task-clock," DEFAULT_REST
/* perf counts CPUs (-a, -C) with cpu-clock instead of task-clock */
#define DEFAULT_EVENTS_CPUS "cpu-clock," DEFAULT_REST

/* perf's status after its own checks (-EINVAL) */
#define EXIT_EINVAL 234

/* -e SPEC, repeatable */
static int opt_event(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	(void)unset;
	cfg->specs[cfg->nr_specs++] = arg;
	return 0;
}

/*
 * -G LIST: perf's cgroups are the events' defined before it; perf opens each
 * while it parses (its messages; the parser adds -G's usage, status 129)
 */
static int opt_cgroup(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	(void)unset;
	if (cfg->each_cgroup) {
		fputs("--cgroup and --for-each-cgroup cannot be used together\n", stderr);
		return -1;
	}
	if (!cfg->nr_specs) {
		fputs("must define events before cgroups\n", stderr);
		return -1;
	}
	if (serve_cgroups__check(arg))
		return -1;
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

/*
 * perf's OPT_INTEGER and OPT_UINTEGER values: base 10, the whole argument
 * (an empty one is 0), no sign for the unsigned ones; perf's messages.
 */
static int perf_number(const struct cli_opt *opt, const char *arg, bool is_unsigned, long *out)
{
	char *end;
	if (is_unsigned && arg[0] == '-')
		return cli_opts__error(opt, "expects an unsigned numerical value");
	*out = strtol(arg, &end, 10);
	if (*end)
		return cli_opts__error(opt, "expects a numerical value");
	return 0;
}

/* -I, --interval-count, --timeout (unsigned), -D, -r: perf's integers, checked after the parse */
static int opt_number(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	bool is_unsigned = opt->short_name != 'D' && opt->short_name != 'r';
	long v = 0;
	(void)unset;
	if (perf_number(opt, arg, is_unsigned, &v))
		return -1;
	if (is_unsigned)
		v = (unsigned)v;
	else
		v = (int)v;
	switch (opt->short_name) {
	case 'I': cfg->interval_ms = v; break;	/* perf: 0 is no interval */
	case 'D': cfg->delay_ms = v; break;
	case 'r': cfg->runs = (int)v; break;	/* perf: 0 repeats until interrupted */
	default:
		if (!strcmp(opt->long_name, "timeout"))
			cfg->timeout_ms = v;
		else
			cfg->interval_count = (unsigned)v;	/* perf: 0 is no limit */
	}
	return 0;
}

/* -B, --no-big-num: perf refuses an explicit -B with -x */
static int opt_big_num(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct stat_config *cfg = opt->value;
	(void)arg;
	cfg->big_num = !unset;
	cfg->big_num_given = !unset;
	return 0;
}

/* --td-level N: perf's unsigned; checked with --topdown after the parse */
static int opt_td_level(const struct cli_opt *opt, const char *arg, bool unset)
{
	long v = 0;
	(void)unset;
	if (perf_number(opt, arg, true, &v))
		return -1;
	*(unsigned *)opt->value = (unsigned)v;
	return 0;
}

static const char usage_line[] = "pmukit stat [<options>] [<command>]";

/* perf's parse_options_usage after a check: the usage of the option NAME ("r", "timeout") */
static void usage_of(const struct cli_opt *opts, bool header, const char *name)
{
	cli_opts__usage_of(stderr, opts, header ? usage_line : NULL, name, !name[1]);
}

/* -o FILE ("-": stderr), with perf's first line; NULL after perf's message */
static FILE *open_output(const struct stat_config *cfg)
{
	if (!cfg->output_path || !strcmp(cfg->output_path, "-"))
		return stderr;	/* perf stat prints on stderr */
	FILE *f = fopen(cfg->output_path, cfg->append ? "a" : "w");
	if (!f) {
		perror("failed to create output file");
		return NULL;
	}
	time_t t = time(NULL);
	fprintf(f, "# started on %s\n", ctime(&t));
	return f;
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

/* -p's processes exist (perf's thread map, made before it counts) */
static bool pids_exist(const char *pid_list)
{
	pid_t *tids = NULL;
	size_t nr = 0;
	struct pk_error err = { 0 };
	int r = pk_threads__from_pids(pid_list, NULL, &tids, &nr, &err);
	free(tids);
	return !r;
}

/* Combinations pmukit refuses, with its reasons (after perf's checks): 0 or 129. */
static int check_own_args(const struct stat_config *cfg)
{
	const char *why = NULL;

	if (cfg->aggr == STAT_AGGR_THREAD && cfg->topdown_level)
		why = "--topdown is not supported with --per-thread";
	else if (cfg->counts_path && (cfg->argv || cfg->system_wide || cfg->cpu_list ||
				      cfg->pid_list || cfg->tid_list || cfg->runs > 1 ||
				      cfg->interval_ms > 0))
		why = "--counts reads saved counts: no command, target, -r or -I";
	if (!why)
		return stat_serve__check(cfg) ? 129 : 0;	/* --serve: stat-serve.c */
	fprintf(stderr, "pmukit stat: %s\n", why);
	return 129;
}

/* -C's list parses; else pmukit's reason on stderr (perf's errno there is a stale one) */
static bool cpus_parse(const char *cpu_list)
{
	struct pk_cpu_map *want = NULL;
	struct pk_error err = { 0 };
	if (pk_cpu_map__parse(&want, cpu_list, &err)) {
		fprintf(stderr, "pmukit stat: -C %s: %s\n", cpu_list, err.msg);
		return false;
	}
	pk_cpu_map__free(want);
	return true;
}

/*
 * What perf checks after its parse, in its order and words: the message, the
 * usage of the options it names, status 234 (-EINVAL; 255 when -o cannot be
 * created). Then pmukit's own refusals (129). Opens cfg->out. 0: go on.
 */
static int check_perf_args(struct stat_config *cfg, const struct cli_opt *opts)
{
	if (cfg->sep && cfg->json) {	/* perf 6.1 prints broken JSON lines */
		fputs("pmukit stat: -x and -j cannot be used together\n", stderr);
		return 129;
	}
	if (cfg->metric_only && cfg->aggr == STAT_AGGR_THREAD) {
		fputs("--metric-only is not supported with --per-thread\n", stderr);
		return EXIT_EINVAL;
	}
	if (cfg->metric_only && cfg->runs > 1) {
		fputs("--metric-only is not supported with -r\n", stderr);
		return EXIT_EINVAL;
	}
	cfg->out = open_output(cfg);
	if (!cfg->out)
		return 255;
	if (cfg->sep) {
		if (cfg->big_num_given) {
			fputs("-B option not supported with -x\n", stderr);
			usage_of(opts, true, "B");
			usage_of(opts, false, "x");
			return EXIT_EINVAL;
		}
		cfg->big_num = false;
	}
	settle_args(cfg);
	if (cfg->runs < 0) {
		fputs("Run count must be a positive number\n", stderr);
		usage_of(opts, true, "r");
		return EXIT_EINVAL;
	}
	if (cfg->aggr == STAT_AGGR_THREAD && !cfg->pid_list && !cfg->tid_list && !cfg->counts_path &&
	    (!cfg->system_wide || cfg->cpu_list)) {
		fputs("The --per-thread option is only available when monitoring via -p -t -a "
		      "options or only --per-thread.\n", stderr);
		usage_of(opts, false, "p");
		usage_of(opts, false, "t");
		return EXIT_EINVAL;
	}
	if (((cfg->aggr != STAT_AGGR_GLOBAL && cfg->aggr != STAT_AGGR_THREAD) || cfg->cgroups ||
	     cfg->each_cgroup) && !cfg->system_wide && !cfg->cpu_list && !cfg->counts_path) {
		fputs("both cgroup and no-aggregation modes only available in system-wide mode\n",
		      stderr);
		usage_of(opts, true, "G");
		usage_of(opts, false, "A");
		usage_of(opts, false, "a");
		usage_of(opts, false, "for-each-cgroup");
		return EXIT_EINVAL;
	}
	if (cfg->topdown_level > 2) {	/* pmukit's TopDown has 2 levels on every CPU */
		fputs("Invalid top-down metrics level. The max level is 2.\n", stderr);
		return EXIT_EINVAL;
	}
	if (cfg->each_cgroup) {	/* perf's evlist__expand_cgroup, after the events are known */
		if (cfg->cgroups) {
			fputs("--cgroup and --for-each-cgroup cannot be used together\n", stderr);
			usage_of(opts, true, "G");
			usage_of(opts, false, "for-each-cgroup");
			return EXIT_EINVAL;
		}
		if (cfg->metrics || cfg->topdown_level) {
			fputs("pmukit stat: --for-each-cgroup with -M or --topdown: not in pmukit yet "
			      "(-e events are)\n", stderr);
			return 129;
		}
		if (serve_cgroups__expand(cfg->each_cgroup, &cfg->each_names, &cfg->nr_each)) {
			usage_of(opts, true, "for-each-cgroup");
			return EXIT_EINVAL;
		}
	}
	if (cfg->pid_list && !pids_exist(cfg->pid_list)) {
		fputs("Problems finding threads of monitor\n", stderr);
		usage_of(opts, true, "p");
		usage_of(opts, false, "t");
		return EXIT_EINVAL;
	}
	if (cfg->cpu_list && !cpus_parse(cfg->cpu_list)) {	/* perf: "failed to parse CPUs map: " and errno */
		usage_of(opts, true, "C");
		usage_of(opts, false, "a");
		return EXIT_EINVAL;
	}
	if (cfg->interval_count && cfg->interval_ms <= 0) {
		fputs("interval-count option should be used together with interval-print.\n", stderr);
		usage_of(opts, true, "interval-count");
		usage_of(opts, true, "I");
		return EXIT_EINVAL;
	}
	if (cfg->timeout_ms > 0 && cfg->timeout_ms < 10) {
		fputs("timeout must be >= 10ms.\n", stderr);
		usage_of(opts, true, "timeout");
		return EXIT_EINVAL;
	}
	if (cfg->timeout_ms > 0 && cfg->timeout_ms < 100)
		fputs("timeout < 100ms. The overhead percentage could be high in some cases. "
		      "Please proceed with caution.\n", stderr);
	if (cfg->timeout_ms > 0 && cfg->interval_ms > 0) {
		fputs("timeout option is not supported with interval-print.\n", stderr);
		usage_of(opts, true, "timeout");
		usage_of(opts, true, "I");
		return EXIT_EINVAL;
	}
	return check_own_args(cfg);
}

/* The exit status of a parse that ends the command (CLI_HELP: 0), or 0 to go on. */
static int parse_args(int argc, char **argv, struct stat_config *cfg, struct cli_env *env)
{
	bool topdown = false;
	unsigned td_level = 0;
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
			       "ms (>= 10; 0: none)", opt_number, CLI_NONEG),
		CLI_CALLBACK_F(0, "interval-count", cfg, "n", "print counts for fixed number of times "
			       "(0: no limit)", opt_number, CLI_NONEG),
		CLI_CALLBACK_F('r', "repeat", cfg, "n", "repeat command and print average + stddev "
			       "(max: 100; 0: until interrupted)", opt_number, CLI_NONEG),
		CLI_STRING('x', "field-separator", &cfg->sep, "separator", "print counts with custom "
			   "separator (CSV: value, unit, event, run time, percentage running, metric "
			   "value, metric unit)"),
		CLI_BOOL('j', "json-output", &cfg->json, "print counts in JSON format, an object a "
			 "line"),
		CLI_CALLBACK_NOARG('B', "big-num", cfg, "print large numbers with thousands' "
				   "separators (default; --no-big-num: none)", opt_big_num),
		CLI_STRING('o', "output", &cfg->output_path, "file", "output file name (default: "
			   "stderr)"),
		CLI_BOOL(0, "append", &cfg->append, "append to the output file"),
		CLI_CALLBACK_F(0, "timeout", cfg, "n", "stop workload and print counts after a "
			       "timeout period in ms (>= 10ms; the command gets SIGTERM)", opt_number,
			       CLI_NONEG),
		CLI_CALLBACK_F('D', "delay", cfg, "n", "ms to wait before starting measurement after "
			       "program start", opt_number, CLI_NONEG),
		CLI_BOOL('n', "null", &cfg->null_run, "null run: no counters, the elapsed time only"),
		CLI_STRING(0, "serve", &cfg->serve, "addr", "a Prometheus exporter on ADDR ([HOST]:PORT; "
			   "port 0: any): GET /metrics reads the counters (OpenMetrics when asked)"),
		CLI_CALLBACK_F('G', "cgroup", cfg, "name", "with -a/-C, after -e: count the i-th event "
			       "in the i-th cgroup (comma list, empty: all tasks; one: every event "
			       "before it)", opt_cgroup, CLI_NONEG),
		CLI_STRING(0, "for-each-cgroup", &cfg->each_cgroup, "name", "with -a/-C: every event "
			   "once in each cgroup (comma list of names, or of regular expressions matched "
			   "below the perf_event cgroup mount)"),
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
		return n == CLI_HELP ? CLI_HELP : 129;
	if (topdown)	/* perf: --td-level only with --topdown */
		cfg->topdown_level = td_level ? (int)td_level : 1;
	if (n > 0)
		cfg->argv = argv;
	/* perf: --per-thread with no command and no target is every thread of the machine */
	if (cfg->aggr == STAT_AGGR_THREAD && !cfg->argv && !cfg->pid_list && !cfg->tid_list &&
	    !cfg->cpu_list && !cfg->counts_path)
		cfg->system_wide = true;
	return check_perf_args(cfg, opts);
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

/*
 * perf's evlist__expand_cgroup: the evlist's events (one copy, nr) once more
 * for each further cgroup of --for-each-cgroup, cgroup by cgroup; *list the
 * -G list naming each event's cgroup (malloc'd), given to cfg as -G's.
 */
static int expand_cgroups(struct pk_evlist *el, struct stat_config *cfg, struct cli_env *env, char **list)
{
	size_t nr = pk_evlist__nr(el);
	for (size_t k = 1; k < cfg->nr_each; k++)
		if (add_specs(el, cfg, env, cfg->specs, cfg->nr_specs))
			return -1;
	if (pk_evlist__nr(el) != nr * cfg->nr_each) {
		fputs("pmukit stat: --for-each-cgroup: the events did not expand alike\n", stderr);
		return -1;
	}
	struct pk_buf b = { 0 };
	const char *name = cfg->each_names;
	for (size_t k = 0; k < cfg->nr_each; k++) {
		size_t n = strcspn(name, ",");
		for (size_t i = 0; i < nr; i++) {
			if (b.len)
				pk_buf__putc(&b, ',');
			pk_buf__add(&b, name, n);
		}
		name += n + (name[n] == ',');
	}
	pk_buf__putc(&b, '\0');
	if (b.err) {
		pk_buf__free(&b);
		fputs("pmukit stat: out of memory\n", stderr);
		return -1;
	}
	*list = (char *)b.data;
	cfg->cgroups = *list;
	cfg->cgroup_nr_ev = pk_evlist__nr(el);
	return 0;
}

/* Count (stat-live.c) the events of cfg and sm's metrics, and print them with pr. The exit status. */
static int count_and_print(struct stat_config *cfg, struct cli_env *env, struct stat_metrics *sm,
			   struct stat_printer *pr)
{
	struct pk_evlist *el = pk_evlist__new();
	struct stat_live st = { 0 };
	struct serve_out *so = NULL;
	char *each = NULL;	/* --for-each-cgroup's -G list */
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
	/* --for-each-cgroup: the events again for each cgroup, then each one's name */
	if (cfg->nr_each && expand_cgroups(el, cfg, env, &each))
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
	free(each);
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
		ret = prc == CLI_HELP ? 0 : prc;
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
	free(cfg.each_names);
	cli_env__close(&env);
	return ret;
}
