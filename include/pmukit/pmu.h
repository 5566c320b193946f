/* SPDX-License-Identifier: MIT */
/*
 * pmukit/pmu.h — PMU discovery from a PMU tree (/sys/bus/event_source/devices
 * or a fake tree in tests): each PMU's type, format terms, sysfs event
 * aliases, caps, cpus and identifier.
 */
#ifndef PMUKIT_PMU_H
#define PMUKIT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/api.h>
#include <pmukit/error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_SYSFS_DEFAULT "/sys/bus/event_source/devices"

struct pk_pmu_tree;
struct pk_pmu;

/* One format term, e.g. "event" -> config:0-7 or "threshold" -> config1:5-16. */
struct pk_pmu_format {
	const char *name;
	int config;		/* 0: config, 1: config1, 2: config2, 3: config3 */
	uint64_t mask;		/* bits of that config word the term occupies (may be split) */
	unsigned width;		/* number of bits in mask */
};

/* One sysfs alias: events/NAME plus NAME.unit/.scale/.per-pkg/.snapshot. */
struct pk_pmu_alias {
	const char *name;
	const char *encoding;	/* file content without trailing newline: "event=0x3c,umask=0x1" */
	const char *unit;	/* NULL if no .unit file */
	double scale;		/* 1.0 if no .scale file */
	bool per_pkg;
	bool snapshot;
};

/*
 * Read the tree at root (NULL: PK_SYSFS_DEFAULT). Missing or unreadable
 * parts of a PMU are tolerated (a PMU without events/ has no aliases); a root
 * that does not exist is an error.
 *
 * As perf does, an entry of root is a PMU only if it is a directory with a
 * readable decimal `type` (< 2^32); other entries are skipped. Within a PMU:
 * - a format file whose body pk_pmu_format__parse() refuses is skipped (the
 *   PMU keeps its other formats);
 * - events/NAME.unit, .scale, .per-pkg and .snapshot are side files of alias
 *   NAME, never aliases themselves; an unparsable .scale leaves scale 1.0;
 *   .per-pkg/.snapshot count as set when present unless they read "0";
 * - values (alias bodies, caps, cpus, identifier) are trimmed of leading and
 *   trailing white space; a file that is not a regular file, cannot be read
 *   or is larger than 64 KiB is treated as absent.
 * Errors: -ENOENT/-ENOTDIR/-EACCES for the root, -ENOMEM.
 */
PK_API int pk_pmu_tree__open(struct pk_pmu_tree **out, const char *root, struct pk_error *err);
PK_API void pk_pmu_tree__free(struct pk_pmu_tree *tree);

/* An empty tree, to add synthetic PMUs to. */
PK_API int pk_pmu_tree__new(struct pk_pmu_tree **out);
/* Does the tree have a core PMU (pk_pmu__is_core)? */
PK_API bool pk_pmu_tree__has_core(const struct pk_pmu_tree *tree);
/*
 * Add the core PMU(s) a machine of arch would have, as its kernel names and
 * formats them, for offline answers: x86 "cpu" (flavour NULL: Intel; "amd"),
 * "cpu_core" + "cpu_atom" (flavour "hybrid"), arm64 "armv8_pmuv3", powerpc
 * "cpu"; plus software, tracepoint and breakpoint. PMUs already in the tree
 * are kept. -ENOTSUP for other arches.
 */
PK_API int pk_pmu_tree__add_core(struct pk_pmu_tree *tree, const char *arch, const char *flavour);

PK_API size_t pk_pmu_tree__nr_pmus(const struct pk_pmu_tree *tree);
/* PMUs sorted by name, digit runs compared as numbers (uncore_cha_2 before
 * uncore_cha_10). find() is exact and case-sensitive. */
PK_API const struct pk_pmu *pk_pmu_tree__pmu(const struct pk_pmu_tree *tree, size_t idx);
PK_API const struct pk_pmu *pk_pmu_tree__find(const struct pk_pmu_tree *tree, const char *name);

PK_API const char *pk_pmu__name(const struct pk_pmu *pmu);
PK_API uint32_t pk_pmu__type(const struct pk_pmu *pmu);
/* A core PMU as perf decides it: "cpu", "cpum_cf", or one with a "cpus" file. */
PK_API bool pk_pmu__is_core(const struct pk_pmu *pmu);
/* An uncore PMU as perf decides it: one with a "cpumask" file. */
PK_API bool pk_pmu__is_uncore(const struct pk_pmu *pmu);
/* Content of cpumask or else cpus ("0-3,8", perf's order), NULL when neither exists. */
PK_API const char *pk_pmu__cpus(const struct pk_pmu *pmu);
/* Content of identifier (uncore/sys PMUs matched by Compat), or NULL. */
PK_API const char *pk_pmu__identifier(const struct pk_pmu *pmu);
/*
 * Does a JSON "Compat" (a POSIX extended regex, e.g. "(434|436|43c|43a).*")
 * match the whole identifier? False without identifier or on a bad regex.
 * A sys event applies to a PMU when this and pk_pmu__matches_table_pmu hold.
 */
PK_API bool pk_pmu__matches_compat(const struct pk_pmu *pmu, const char *compat);

PK_API size_t pk_pmu__nr_formats(const struct pk_pmu *pmu);
PK_API const struct pk_pmu_format *pk_pmu__format(const struct pk_pmu *pmu, size_t idx);
PK_API const struct pk_pmu_format *pk_pmu__find_format(const struct pk_pmu *pmu, const char *name);

PK_API size_t pk_pmu__nr_aliases(const struct pk_pmu *pmu);
/* Aliases sorted by name; lookup is case-insensitive. */
PK_API const struct pk_pmu_alias *pk_pmu__alias(const struct pk_pmu *pmu, size_t idx);
PK_API const struct pk_pmu_alias *pk_pmu__find_alias(const struct pk_pmu *pmu, const char *name);

/* Content of caps/NAME without trailing newline, or NULL when absent. */
PK_API const char *pk_pmu__cap(const struct pk_pmu *pmu, const char *name);

/*
 * Does a table PMU name (JSON "Unit" after perf's mapping, e.g. "uncore_cha",
 * "hisi_sccl,ddrc") designate this PMU? perf's rule: equal names always
 * match; "default_core" matches every core PMU; for uncore PMUs (cpumask
 * present) an instance suffix may also be ignored: "_" (optional) then
 * decimal digits ("uncore_cha_10", "imc0") or more than two hex digits
 * ("_1ab"; "_1a" is not a suffix, so "cpum" never matches "cpum_cf"). With
 * commas, the tokens must appear in order in the PMU name and the last one
 * end it up to such a suffix ("hisi_sccl,ddrc" ~ "hisi_sccl1_ddrc0").
 */
PK_API bool pk_pmu__matches_table_pmu(const struct pk_pmu *pmu, const char *table_pmu);

/*
 * Parse a format file body ("config:0-7,32-35\n") into f (name not set).
 * Grammar: config[123]? ':' BIT ('-' BIT)? (',' BIT ('-' BIT)?)*, BIT a decimal
 * 0..63, low <= high; blanks between tokens and a trailing newline allowed.
 * 0, or -EINVAL (f untouched) on anything else.
 */
PK_API int pk_pmu_format__parse(const char *body, struct pk_pmu_format *f);
/* The same, saying in why what is wrong ("the range '15-8' ends below its start"). */
PK_API int pk_pmu_format__parse_why(const char *body, struct pk_pmu_format *f, char *why,
				    size_t len);

/*
 * Why the format file of term name was left out of this PMU ("/sys/.../cpu/
 * format/umask: the range '15-8' ends below its start"), or NULL when there
 * is no such file or it was read.
 */
PK_API const char *pk_pmu__format_problem(const struct pk_pmu *pmu, const char *name);
/*
 * Why the tree's entry name is not a PMU (a type file missing or not a
 * number), or NULL when there is no such entry or it is one.
 */
PK_API const char *pk_pmu_tree__pmu_problem(const struct pk_pmu_tree *tree, const char *name);

/*
 * Put value into the bits of f's config word (config[f->config]), lowest
 * value bit into the lowest mask bit, as perf does for split ranges. Other
 * bits of the word are kept. -ERANGE when value needs more than f->width bits.
 */
PK_API int pk_pmu_format__place(const struct pk_pmu_format *f, uint64_t value, uint64_t config[4]);
/* The value f's bits hold in config[f->config] (the inverse of place). */
PK_API uint64_t pk_pmu_format__extract(const struct pk_pmu_format *f, const uint64_t config[4]);

#ifdef __cplusplus
}
#endif
#endif
