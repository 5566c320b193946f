/* SPDX-License-Identifier: MIT */
/*
 * cli.h — what the pmukit commands share: the global options every command
 * that touches events takes (--sysfs, --cpuid, --events-dir and their
 * environment variables) and the context they resolve to (tables, CPU model,
 * PMU tree).
 */
#ifndef PMUKIT_CLI_H
#define PMUKIT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <pmukit/pmukit.h>

#include "cli-opts.h"

struct cli_env {
	const char *sysfs;	/* --sysfs / PMUKIT_SYSFS */
	const char *cpuid;	/* --cpuid / PMUKIT_CPUID */
	const char *events_dir;	/* --events-dir / PMUKIT_EVENTS_DIR */
	struct pk_catalog *cat;
	struct pk_pmu_tree *pmus; /* NULL when the tree could not be read */
	bool have_model;
	size_t model;		/* catalog model of the core PMU(s) */
	char cpuid_buf[128];	/* the identifier actually used */
	const char *cpuid_used;
};

/* The global options' table entries (cli-opts.h), into env's fields. */
#define CLI_ENV_OPTS(env) \
	CLI_STRING(0, "sysfs", &(env)->sysfs, "dir", \
		   "PMU tree instead of " PK_SYSFS_DEFAULT " (env PMUKIT_SYSFS)"), \
	CLI_STRING(0, "cpuid", &(env)->cpuid, "id", "CPU identifier in mapfile form, or a model " \
		   "name such as skylake or arm64/arm/cortex-a72 (env PMUKIT_CPUID)"), \
	CLI_STRING(0, "events-dir", &(env)->events_dir, "dir", "read a JSON arch/ tree instead " \
		   "of the built-in tables (env PMUKIT_EVENTS_DIR)")

void cli_env__init(struct cli_env *env);
/*
 * Open the tables and the PMU tree and pick the CPU model. A missing model is
 * not an error when no --cpuid was given (a CPU the tables do not know).
 * Prints its own error message; returns 0 or non-zero.
 */
int cli_env__open(struct cli_env *env, const char *prog);
void cli_env__close(struct cli_env *env);
/* The arch of the chosen model (this machine's without one). */
const char *cli_env__arch(struct cli_env *env);
/* pk_pmu_tree__add_core's flavour for the model: "amd", "hybrid" or NULL. */
const char *cli_env__core_flavour(struct cli_env *env, const char *arch);
/*
 * This machine's tree lacks a core PMU (a VM): add x86's "cpu" with the
 * kernel's formats, so that table events resolve and are then reported
 * <not supported> by the kernel rather than refused. Only where the type is
 * fixed (PERF_TYPE_RAW on x86, not hybrid) so it cannot be another PMU's.
 * Returns true when added.
 */
bool cli_env__add_missing_core(struct cli_env *env);

/* Print s word-wrapped from column start to width (perf list's layout). */
void cli_wordwrap(FILE *f, const char *s, int start, int width);
int cli_columns(void);

int cmd_list(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);

#endif
