/* SPDX-License-Identifier: MIT */
/*
 * cmd-check.c — `pmukit check`: questions about this machine. One check so
 * far, `user-access`: can a thread read its own counters from userspace
 * (x86 rdpmc, arm64 mrs through the perf user page), and if not, exactly why
 * and how to fix it. The logic is the library's pk_user_access__check().
 *
 * Exit status: 0 yes, 1 no, 2 usage error.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <pmukit/selfmon.h>

#include "cli.h"

int cmd_check(int argc, char **argv);

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmukit check user-access [options]\n"
		"Can a thread read its own perf counters from userspace (x86 rdpmc, arm64 mrs)\n"
		"here? If not, why, and how to enable it. Exit 0 yes, 1 no, 2 usage error.\n\n"
		"  -j, --json            one JSON object {check, ok, code, pmu, probed, pmc_width,\n"
		"                        cap_user_time, message, fix}\n"
		"      --arch ARCH       judge the PMU tree as this arch (x86, arm64); static\n"
		"                        checks only unless it is this machine's\n"
		"      --sysctl FILE     arm64 perf_user_access file instead of\n"
		"                        /proc/sys/kernel/perf_user_access\n"
		"      --no-probe        static checks only: do not open and read a counter\n"
		"      --sysfs DIR       PMU tree instead of " PK_SYSFS_DEFAULT " (env PMUKIT_SYSFS);\n"
		"                        a tree other than this machine's is not probed\n"
		"  -h, --help            this help\n");
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void print_json(const struct pk_user_access *ua)
{
	printf("{\"check\": \"user-access\", \"ok\": %s, \"code\": ",
	       ua->status == PK_USER_ACCESS_OK ? "true" : "false");
	json_str(stdout, ua->code);
	printf(", \"pmu\": ");
	json_str(stdout, ua->pmu);
	printf(", \"probed\": %s, \"pmc_width\": %u, \"cap_user_time\": %s, \"message\": ",
	       ua->probed ? "true" : "false", ua->pmc_width, ua->cap_user_time ? "true" : "false");
	json_str(stdout, ua->msg);
	printf(", \"fix\": ");
	json_str(stdout, ua->fix);
	printf("}\n");
}

static void print_text(const struct pk_user_access *ua)
{
	printf("user-access: %s (%s)\n", ua->status == PK_USER_ACCESS_OK ? "yes" : "no", ua->code);
	if (ua->pmu[0])
		printf("  pmu: %s\n", ua->pmu);
	printf("  %s\n", ua->msg);
	if (ua->fix[0])
		printf("  fix: %s\n", ua->fix);
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "arch", required_argument, NULL, 'A' },
		{ "sysctl", required_argument, NULL, 'S' },
		{ "no-probe", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		CLI_ENV_OPTIONS,
		{ 0 },
	};
	struct pk_user_access_opts o = { .sz = sizeof(o) };
	struct pk_user_access ua;
	struct cli_env env;
	bool json = false;
	int c;

	cli_env__init(&env);
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (cli_env__option(&env, c, optarg))
			continue;
		switch (c) {
		case 'j': json = true; break;
		case 'A': o.arch = optarg; break;
		case 'S': o.sysctl = optarg; break;
		case 'n': o.no_probe = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 129;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "pmukit check: which check? (user-access)\n");
		usage(stderr);
		return 129;
	}
	if (strcmp(argv[optind], "user-access") || optind + 1 < argc) {
		fprintf(stderr, "pmukit check: unknown check '%s' (known: user-access)\n",
			argv[optind + (strcmp(argv[optind], "user-access") ? 0 : 1)]);
		return 129;
	}
	o.sysfs = env.sysfs;
	pk_user_access__check(&o, &ua);
	if (json)
		print_json(&ua);
	else
		print_text(&ua);
	return ua.status == PK_USER_ACCESS_OK ? 0 : 1;
}
