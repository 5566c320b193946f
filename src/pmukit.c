/* SPDX-License-Identifier: MIT */
/* pmukit.c — the pmukit command: dispatch to one file per sub-command. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pager.h"

#define PMUKIT_VERSION "0.1.0"

/* the reading commands (cmd-script.c, cmd-flamegraph.c, cmd-export.c) */
int cmd_script(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_evlist(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_top(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "list", cmd_list, "list events and metrics (perf list)" },
	{ "explain", cmd_explain, "show the perf_event_attr of event specifications, and their meaning" },
	{ "check", cmd_check, "machine checks: user-access (userspace counter reads)" },
	{ "stat", cmd_stat, "run a command and count its events (perf stat)" },
	{ "script", cmd_script, "print the samples of a perf.data file (perf script)" },
	{ "report", cmd_report, "the profile of a perf.data file (perf report --stdio)" },
	{ "annotate", cmd_annotate, "a symbol's instructions and source lines with their samples (perf annotate --stdio)" },
	{ "diff", cmd_diff, "compare the profiles of two perf.data files (perf diff)" },
	{ "flamegraph", cmd_flamegraph, "draw a flame graph (HTML or SVG) of a perf.data file" },
	{ "export", cmd_export, "write a perf.data file as folded stacks, pprof or Firefox Profiler JSON" },
	{ "record", cmd_record, "sample a command, CPUs or tasks into perf.data (perf record)" },
	{ "top", cmd_top, "sample the system live and print its profile every few seconds (perf top --stdio)" },
	{ "evlist", cmd_evlist, "list the events of a perf.data file (perf evlist)" },
	{ "buildid-list", cmd_buildid_list, "list the build-ids of a perf.data file (perf buildid-list)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pmukit [--version] [--help] [--no-pager] COMMAND [ARGS]\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nRun 'pmukit COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
	/* perf's global --no-pager (before the command) */
	while (argc > 1 && !strcmp(argv[1], "--no-pager")) {
		pager_disable();
		argv[1] = argv[0];
		argc--, argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pmukit %s\n", PMUKIT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			/* getopt's own messages then start "pmukit CMD:", as the commands' do */
			char prog[64];
			snprintf(prog, sizeof(prog), "pmukit %s", commands[i].name);
			argv[1] = prog;
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "pmukit: '%s' is not a pmukit command. See 'pmukit --help'.\n", argv[1]);
	return 1;
}
