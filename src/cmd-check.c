/* SPDX-License-Identifier: MIT */
/*
 * cmd-check.c — `pmukit check`: questions about this machine. One check so
 * far, `user-access`: can a thread read its own counters from userspace
 * (x86 rdpmc, arm64 mrs through the perf user page), and if not, exactly why
 * and how to fix it. The logic is the library's pk_user_access__check().
 *
 * Exit status: 0 yes, 1 no, 129 usage error (perf's).
 */
#include <stdio.h>
#include <string.h>

#include <pmukit/selfmon.h>

#include "cli.h"

int cmd_check(int argc, char **argv);

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
	struct pk_user_access_opts o = { .sz = sizeof(o) };
	struct pk_user_access ua;
	struct cli_env env;
	bool json = false;

	cli_env__init(&env);
	const struct cli_opt opts[] = {
		CLI_BOOL('j', "json", &json, "one JSON object {check, ok, code, pmu, probed, "
			 "pmc_width, cap_user_time, message, fix}"),
		CLI_STRING(0, "arch", &o.arch, "arch", "judge the PMU tree as this arch (x86, arm64); "
			   "static checks only unless it is this machine's"),
		CLI_STRING(0, "sysctl", &o.sysctl, "file", "arm64 perf_user_access file instead of "
			   "/proc/sys/kernel/perf_user_access"),
		CLI_BOOL(0, "no-probe", &o.no_probe, "static checks only: do not open and read a "
			 "counter"),
		CLI_ENV_OPTS(&env),
		CLI_GROUP("Can a thread read its own perf counters from userspace (x86 rdpmc, arm64 "
			  "mrs) here?\nIf not, why, and how to enable it. A --sysfs tree other than "
			  "this machine's is not probed.\nExit 0 yes, 1 no, 129 usage error."),
		CLI_END(),
	};
	static const char usage[] = "pmukit check user-access [<options>]";
	int n = cli_opts__parse(argc, argv, opts, usage, 0);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (!n) {
		fprintf(stderr, "pmukit check: which check? (user-access)\n");
		cli_opts__usage(stderr, opts, usage);
		return 129;
	}
	if (strcmp(argv[0], "user-access") || n > 1) {
		fprintf(stderr, "pmukit check: unknown check '%s' (known: user-access)\n",
			argv[strcmp(argv[0], "user-access") ? 0 : 1]);
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
