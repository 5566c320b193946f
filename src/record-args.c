/* SPDX-License-Identifier: MIT */
/*
 * record-args.c — `pmukit record`'s command line: perf record's options in
 * one table (cli-opts.h) that gives the parse and the --help, into struct
 * rec_cfg (those that change the attrs are record-opts.c's, shared with
 * explain), checked together as perf checks them; -u's user as the list of
 * its processes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/spec.h>

#include "cli.h"
#include "record.h"

#define PROG "pmukit record"

/* -e SPEC, repeatable */
static int opt_event(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_cfg *cfg = opt->value;
	(void)unset;
	cfg->specs[cfg->nr_specs++] = arg;
	return 0;
}

/* --filter: perf's, the filter of the last event given before it */
static int opt_filter(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_cfg *cfg = opt->value;
	(void)unset;
	if (!cfg->nr_specs) {
		fprintf(stderr, "--filter option should follow a -e tracepoint or HW tracer option\n");
		return -1;
	}
	cfg->filters[cfg->nr_specs - 1] = arg;
	return 0;
}

/* -z, --compression-level[=N]: N 1 to 22 (default 1) */
static int opt_compress(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_cfg *cfg = opt->value;
	long v = 1;
	(void)unset;
	if (arg && cli_value__long(arg, 10, 1, 22, &v)) {
		fprintf(stderr, PROG ": --compression-level: 1 to 22, not '%s'\n", arg);
		return -1;
	}
	cfg->compress = (int)v;
	return 0;
}

/* -m: pages (a power of two) or a size: a number and B, K, M or G (any case, "KB" too) */
static int opt_mmap_pages(const struct cli_opt *opt, const char *arg, bool unset)
{
	static const uint64_t mult[] = { 1, 1, 1ull << 10, 1ull << 10, 1ull << 20, 1ull << 20,
					 1ull << 30, 1ull << 30 };
	struct rec_cfg *cfg = opt->value;
	uint64_t v;
	char size[64];
	size_t n = strlen(arg);
	(void)unset;
	if (cli_value__u64(arg, &v)) {
		snprintf(size, sizeof(size), "%s", arg);
		if (n >= 3 && n < sizeof(size) && (size[n - 1] | 0x20) == 'b' && strchr("kKmMgG", size[n - 2]))
			size[n - 1] = '\0';	/* "512KB" */
		if (cli_value__tag(size, "BbKkMmGg", mult, &v))
			v = 0;
		v /= (uint64_t)sysconf(_SC_PAGESIZE);
	}
	if (!v || (v & (v - 1)) || v > (1ull << 30)) {
		fprintf(stderr, PROG ": -m: a power of two of pages (or a size such as 512K), not '%s'\n",
			arg);
		return -1;
	}
	cfg->mmap_pages = (size_t)v;
	return 0;
}

/* --max-size SIZE: perf's parse_output_max_size, a number and B, K, M or G (upper case) */
static int opt_max_size(const struct cli_opt *opt, const char *arg, bool unset)
{
	static const uint64_t mult[] = { 1, 1ull << 10, 1ull << 20, 1ull << 30 };
	struct rec_cfg *cfg = opt->value;
	(void)unset;
	if (cli_value__tag(arg, "BKMG", mult, &cfg->max_size)) {
		fprintf(stderr, PROG ": a size: a number and B, K, M or G, not '%s'\n", arg);
		return -1;
	}
	return 0;
}

/* --switch-output[=signal|SIZE|TIME]: checked after the parse, as perf does (its 234) */
static int opt_switch_output(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_cfg *cfg = opt->value;
	(void)unset;
	cfg->switch_output = true;
	cfg->switch_arg = arg;
	return 0;
}

static int opt_switch_max_files(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct rec_cfg *cfg = opt->value;
	long v;
	(void)unset;
	if (cli_value__long(arg, 10, 0, 1000000, &v)) {
		fprintf(stderr, PROG ": --switch-max-files: a number of files, not '%s'\n", arg);
		return -1;
	}
	cfg->sw.max_files = (unsigned)v;
	return 0;
}

int record_parse_args(int argc, char **argv, struct rec_cfg *cfg, struct cli_env *env)
{
	struct rec_spec_ctx x = { .spec = &cfg->spec, .prog = PROG };
	const struct cli_opt opts[] = {
		CLI_CALLBACK_F('e', "event", cfg, "event", "event selector, perf syntax "
			       "(repeatable); default cycles:P, which samples cpu-clock where there "
			       "is no hardware PMU, as perf's (-v says so)", opt_event, CLI_NONEG),
		CLI_CALLBACK_F(0, "filter", cfg, "filter", "event filter of the -e tracepoint before it",
			       opt_filter, CLI_NONEG),
		RECORD_SPEC_OPTIONS(&x, 'j'),
		CLI_STRING('C', "cpu", &cfg->cpu_list, "cpu", "list of cpus to monitor (\"0-3,6\"), "
			   "system-wide"),
		CLI_STRING('p', "pid", &cfg->pid_list, "pid", "record events on existing process id "
			   "(comma list)"),
		CLI_STRING('t', "tid", &cfg->tid_list, "tid", "record events on existing thread id "
			   "(comma list; implies -i)"),
		CLI_STRING('u', "uid", &cfg->uid, "user", "record the processes of this user (name "
			   "or number)"),
		CLI_STRING('o', "output", &cfg->output, "file", "output file name (default "
			   "perf.data; '-': a pipe on stdout); an existing file is first renamed "
			   "FILE.old"),
		CLI_CALLBACK_F('z', "compression-level", cfg, "n", "compress records using zstd "
			       "(level 1 to 22, default 1)", opt_compress, CLI_OPTARG | CLI_NONEG),
		CLI_CALLBACK_F('m', "mmap-pages", cfg, "pages", "number of mmap data pages, a power "
			       "of two (or a size: 512K, 2M)", opt_mmap_pages, CLI_NONEG),
		CLI_CALLBACK_F(0, "max-size", cfg, "size", "limit the output: stop when it reaches "
			       "SIZE (a number and B, K, M or G)", opt_max_size, CLI_NONEG),
		CLI_CALLBACK_F(0, "switch-output", cfg, "signal or size[BKMG] or time[smhd]",
			       "rotate the output into FILE.<timestamp> files: on SIGUSR2 (signal, "
			       "the default), every SIZE written or every TIME", opt_switch_output,
			       CLI_OPTARG | CLI_NONEG),
		CLI_CALLBACK_F(0, "switch-max-files", cfg, "n", "keep the last N of the "
			       "--switch-output files", opt_switch_max_files, CLI_NONEG),
		CLI_STRING(0, "push", &cfg->sw.push.url, "url", "--switch-output: send each file "
			   "closed as pprof to a Pyroscope-compatible store (as pmukit export --push)"),
		CLI_STRING(0, "app", &cfg->sw.push.app, "name", "--push: the application name"),
		CLI_CALLBACK(0, "label", &cfg->sw.push, "k=v", "--push: a label of the profiles "
			     "(repeatable)", export_push__label),
		CLI_STRING(0, "tenant", &cfg->sw.push.tenant, "id", "--push: the tenant "
			   "(X-Scope-OrgID header)"),
		CLI_BOOL('q', "quiet", &cfg->quiet, "don't print any message"),
		CLI_BOOL('v', "verbose", &cfg->verbose, "each event's attr, as opened, as JSON on "
			 "stderr"),
		CLI_ENV_OPTS(env),
		CLI_GROUP("Without a command, -a, -C, -p or -t, record every CPU until interrupted "
			  "(Ctrl-C);\nwith -a, -C, -p, -t or -u, the command only sets how long to "
			  "record."),
		CLI_END(),
	};
	cfg->args = malloc(((size_t)argc + 1) * sizeof(*cfg->args));
	if (!cfg->args)
		return -1;
	memcpy(cfg->args, argv, (size_t)argc * sizeof(*argv));
	cfg->args[argc] = NULL;
	int n = cli_opts__parse(argc, cfg->args, opts, "pmukit record [<options>] [<command>]\n"
				"    or: pmukit record [<options>] -- <command> [<options>]",
				CLI_STOP_AT_NON_OPTION);
	if (n == CLI_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (record_opt_period_check(&x))
		return -2;	/* perf's 234 */
	cfg->delay_ms = x.delay_ms;
	if (n > 0)
		cfg->argv = cfg->args;
	if (cfg->switch_output && record_switch_parse(&cfg->sw, cfg->switch_arg, PROG))
		return -2;
	return 0;
}

int record_check_args(struct rec_cfg *cfg)
{
	const char *why = NULL;
	bool cpus = cfg->spec.system_wide || cfg->cpu_list;
	bool tasks = cfg->pid_list || cfg->tid_list || cfg->uid;
	if (tasks && cpus)
		why = "-p/-t/-u and -a/-C cannot be used together";
	else if (!!cfg->pid_list + !!cfg->tid_list + !!cfg->uid > 1)
		why = "one of -p, -t and -u";
	else if (cfg->sw.enabled && cfg->output && !strcmp(cfg->output, "-"))
		why = "--switch-output writes files: not with -o -";
	else if (cfg->sw.push.url && !cfg->sw.enabled)
		why = "--push sends the --switch-output files: with --switch-output (else pmukit "
		      "export --push after the recording)";
	else if (!cfg->sw.push.url && (cfg->sw.push.app || cfg->sw.push.tenant || cfg->sw.push.nr_labels))
		why = "--app, --label and --tenant go with --push URL";
	else if (cfg->sw.push.url && export_push__check_url(PROG, cfg->sw.push.url))
		return -1;
	else if (cfg->delay_ms < 0)
		why = "-D -1 (start disabled, enabled through --control) is not supported";
	else if (cfg->output && !strcmp(cfg->output, "-") && cfg->compress)
		why = "-z writes files only: not with -o -";
	if (why) {
		fprintf(stderr, PROG ": %s\n", why);
		return -1;
	}
	/* perf: nothing to run and no target is every CPU */
	if (!cfg->argv && !cpus && !tasks)
		cfg->spec.system_wide = true;
	if (cfg->cpu_list)
		cfg->spec.system_wide = true;
	/* a command with -p/-t/-u/-a/-C only sets how long: the events are the target's */
	cfg->spec.task_target = tasks;
	if (cfg->tid_list)
		cfg->spec.no_inherit = true;	/* perf: -t follows only the threads named */
	cfg->spec.workload = cfg->argv != NULL;
	return 0;
}

/*
 * -u USER: the processes a user (name or number) owns, as a -p list
 * ("1,2,3"); NULL when there is no such user (*no_user) or process.
 */
char *record_uid_pids(const char *user, bool *no_user)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(user, &end, 10);
	uid_t uid = (uid_t)v;
	*no_user = true;
	if (errno || end == user || *end) {
		/* /etc/passwd itself: getpwnam's NSS modules cannot load in a static binary */
		FILE *pf = fopen("/etc/passwd", "re");
		char line[512];
		size_t n = strlen(user);
		bool found = false;
		while (pf && !found && fgets(line, sizeof(line), pf)) {
			char *c = strchr(line, ':');
			if (c && (size_t)(c - line) == n && !strncmp(line, user, n) &&
			    (c = strchr(c + 1, ':'))) {
				uid = (uid_t)strtoul(c + 1, NULL, 10);
				found = true;
			}
		}
		if (pf)
			fclose(pf);
		if (!found)
			return NULL;
	}
	*no_user = false;
	DIR *d = opendir("/proc");
	size_t len = 0, cap = 256;
	char *list = malloc(cap);
	struct dirent *de;
	while (d && list && (de = readdir(d))) {
		struct stat st;
		char path[300];
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s", de->d_name);
		if (stat(path, &st) || st.st_uid != uid || (pid_t)atoi(de->d_name) == getpid())
			continue;
		size_t n = strlen(de->d_name);
		if (len + n + 2 > cap) {
			char *l = realloc(list, cap *= 2);
			if (!l) {
				free(list);
				list = NULL;
				break;
			}
			list = l;
		}
		len += (size_t)sprintf(list + len, "%s%s", len ? "," : "", de->d_name);
	}
	if (d)
		closedir(d);
	if (list && !len) {
		free(list);
		list = NULL;
	}
	return list;
}
