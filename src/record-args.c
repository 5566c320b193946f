/* SPDX-License-Identifier: MIT */
/*
 * record-args.c — `pmukit record`'s command line: its --help, perf record's
 * options parsed into struct rec_cfg (those that change the attrs through
 * record-opts.c, shared with explain) and checked together as perf checks
 * them; -u's user as the list of its processes.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/spec.h>

#include "cli.h"
#include "record.h"

#define PROG "pmukit record"

void record_usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit record [options] [--] [COMMAND [ARGS]]\n"
		"Sample COMMAND, CPUs or running tasks into perf.data, as perf record does.\n\n"
		"  -e, --event SPEC      event specification, perf syntax (repeatable); default:\n"
		"                        cycles:P; cycles sample cpu-clock where there is no\n"
		"                        hardware PMU, as perf's (-v says so)\n"
		"  -c, --count N         sample every N events\n"
		"  -F, --freq N          sample N times a second (default 4000; 'max': the\n"
		"                        kernel's limit, perf_event_max_sample_rate)\n"
		"  -g                    call graphs (frame pointers)\n"
		"      --call-graph MODE fp, dwarf[,SIZE] (user stack copies) or lbr\n"
		"  -a, --all-cpus        every online CPU (system-wide)\n"
		"  -C, --cpu LIST        these CPUs (\"0-3,6\"), system-wide\n"
		"  -p, --pid PIDS        running processes (comma list)\n"
		"  -t, --tid TIDS        running threads (comma list; implies -i)\n"
		"  -i, --no-inherit      do not follow child tasks\n"
		"  -o, --output FILE     perf.data by default; '-' writes a pipe to stdout; an\n"
		"                        existing FILE is first renamed FILE.old\n"
		"  -W, --weight          sample weights\n"
		"  -d, --data            sample data addresses (and their sources)\n"
		"      --sample-cpu      sample the CPU\n"
		"  -z, --compression-level[=N]  zstd-compress the data (N 1-22, default 1)\n"
		"  -m, --mmap-pages N    data pages per ring buffer, a power of two (or a size:\n"
		"                        512K, 2M)\n"
		"  -s, --stat            per-thread counts (inherit_stat, times enabled/running)\n"
		"  -T, --timestamp       sample the time (always sampled)\n"
		"      --switch-events   context switch records\n"
		"      --all-user        count user level only (exclude_kernel)\n"
		"      --all-kernel      count kernel level only (exclude_user)\n"
		"  -b, --branch-any      branch stacks of any branch (LBR, BRBE)\n"
		"  -j, --branch-filter F branch stacks of these branches: any, any_call, any_ret,\n"
		"                        ind_call, ind_jmp, call, cond, u, k, hv, in_tx, no_tx,\n"
		"                        abort_tx, save_type, stack, priv (comma list)\n"
		"  -D, --delay MSECS     start sampling MSECS after the command starts\n"
		"      --filter FILTER   tracepoint filter of the -e event before it\n"
		"      --max-size SIZE   stop when the output reaches SIZE (a number and B, K, M\n"
		"                        or G)\n"
		"      --switch-output[=signal|SIZE|TIME]  rotate the output: on SIGUSR2,\n"
		"                        every SIZE (B/K/M/G) or TIME (s/m/h/d) into\n"
		"                        FILE.<timestamp> files\n"
		"      --switch-max-files N  keep the last N of those files\n"
		"  -u, --uid USER        the processes of USER (name or number)\n"
		"  -q, --quiet           no summary\n"
		"  -v, --verbose         each event's attr, as opened, as JSON on stderr\n"
		CLI_ENV_HELP
		"  -h, --help            this help\n"
		"Without COMMAND, -a, -C, -p or -t record every CPU until interrupted (Ctrl-C);\n"
		"with -a, -C, -p, -t or -u, COMMAND only sets how long to record.\n");
}

enum { OPT_COMPRESS = 0x210 };

/* -m: pages (a power of two) or a size with B/K/M/G. 0 or -1. */
static int parse_mmap_pages(const char *arg, size_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 0);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (errno || end == arg || arg[0] == '-')
		goto bad;
	if (*end) {
		unsigned long long mul = 0;
		switch (*end | 0x20) {
		case 'b': mul = 1; break;
		case 'k': mul = 1ull << 10; break;
		case 'm': mul = 1ull << 20; break;
		case 'g': mul = 1ull << 30; break;
		default: goto bad;
		}
		if (end[1] && !((end[1] | 0x20) == 'b' && !end[2]))
			goto bad;
		v = v * mul / page;
	}
	if (!v || (v & (v - 1)) || v > (1ull << 30))
		goto bad;
	*out = (size_t)v;
	return 0;
bad:
	fprintf(stderr, PROG ": -m: a power of two of pages (or a size such as 512K), not '%s'\n", arg);
	return -1;
}

int record_parse_args(int argc, char **argv, struct rec_cfg *cfg, struct cli_env *env, bool *help)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "call-graph", required_argument, NULL, RECORD_OPT_CALL_GRAPH },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "weight", no_argument, NULL, 'W' },
		{ "data", no_argument, NULL, 'd' },
		{ "sample-cpu", no_argument, NULL, RECORD_OPT_SAMPLE_CPU },
		{ "compression-level", optional_argument, NULL, OPT_COMPRESS },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "stat", no_argument, NULL, 's' },
		{ "timestamp", no_argument, NULL, 'T' },
		{ "switch-events", no_argument, NULL, RECORD_OPT_SWITCH_EVENTS },
		{ "all-user", no_argument, NULL, RECORD_OPT_ALL_USER },
		{ "all-kernel", no_argument, NULL, RECORD_OPT_ALL_KERNEL },
		{ "branch-any", no_argument, NULL, 'b' },
		{ "branch-filter", required_argument, NULL, 'j' },
		{ "delay", required_argument, NULL, 'D' },
		{ "filter", required_argument, NULL, RECORD_OPT_FILTER },
		{ "max-size", required_argument, NULL, RECORD_OPT_MAX_SIZE },
		{ "uid", required_argument, NULL, 'u' },
		{ "switch-output", optional_argument, NULL, RECORD_OPT_SWITCH_OUTPUT },
		{ "switch-max-files", required_argument, NULL, RECORD_OPT_SWITCH_MAX_FILES },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		CLI_ENV_OPTIONS,
		{ 0 },
	};
	int c, r;
	char *end;

	while ((c = getopt_long(argc, argv, "+e:c:F:gaC:p:t:io:WdzZm:qvhsTbj:D:u:", opts, NULL)) != -1) {
		if (cli_env__option(env, c, optarg))
			continue;
		if (c == 'D' && record_parse_delay(optarg, &cfg->delay_ms, PROG))
			return -1;
		if ((r = record_spec_option(&cfg->spec, c == 'j' ? RECORD_OPT_BRANCH_FILTER : c, optarg,
					    PROG)) < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'e': cfg->specs[cfg->nr_specs++] = optarg; break;
		case 'C': cfg->cpu_list = optarg; break;
		case 'p': cfg->pid_list = optarg; break;
		case 't': cfg->tid_list = optarg; break;
		case 'o': cfg->output = optarg; break;
		case 'z': cfg->compress = 1; break;
		case OPT_COMPRESS:
			cfg->compress = 1;
			if (optarg) {
				long v = strtol(optarg, &end, 10);
				if (*end || v < 1 || v > 22) {
					fprintf(stderr, PROG ": --compression-level: 1 to 22, not '%s'\n", optarg);
					return -1;
				}
				cfg->compress = (int)v;
			}
			break;
		case 'm':
			assert(optarg);
			if (parse_mmap_pages(optarg, &cfg->mmap_pages))
				return -1;
			break;
		case RECORD_OPT_FILTER:
			/* perf: the filter of the last event given before it */
			if (!cfg->nr_specs) {
				fprintf(stderr, "--filter option should follow a -e tracepoint or HW "
					"tracer option\n");
				return -1;
			}
			cfg->filters[cfg->nr_specs - 1] = optarg;
			break;
		case RECORD_OPT_MAX_SIZE:
			assert(optarg);
			if (record_parse_size(optarg, &cfg->max_size, PROG))
				return -1;
			break;
		case 'u': cfg->uid = optarg; break;
		case RECORD_OPT_SWITCH_OUTPUT:
			if (record_switch_parse(&cfg->sw, optarg, PROG))
				return -2;	/* perf checks it after parsing: -EINVAL */
			break;
		case RECORD_OPT_SWITCH_MAX_FILES: {
			assert(optarg);
			char *e;
			long v = strtol(optarg, &e, 10);
			if (*e || e == optarg || v < 0 || v > 1000000) {
				fprintf(stderr, PROG ": --switch-max-files: a number of files, not '%s'\n",
					optarg);
				return -1;
			}
			cfg->sw.max_files = (unsigned)v;
			break;
		}
		case 'q': cfg->quiet = true; break;
		case 'v': cfg->verbose = true; break;
		case 'h': *help = true; return 0;
		default: record_usage(stderr); return -1;
		}
	}
	if (optind < argc)
		cfg->argv = argv + optind;
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
