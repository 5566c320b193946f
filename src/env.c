/* SPDX-License-Identifier: MIT */
/*
 * env.c — the global options of pmukit commands and the context they resolve
 * to: which tables (built-in or --events-dir), which CPU model (--cpuid or
 * this machine), which PMU tree (--sysfs or /sys).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

void cli_env__init(struct cli_env *env)
{
	memset(env, 0, sizeof(*env));
	env->sysfs = getenv("PMUKIT_SYSFS");
	env->cpuid = getenv("PMUKIT_CPUID");
	env->events_dir = getenv("PMUKIT_EVENTS_DIR");
	if (env->sysfs && !*env->sysfs)
		env->sysfs = NULL;
	if (env->cpuid && !*env->cpuid)
		env->cpuid = NULL;
	if (env->events_dir && !*env->events_dir)
		env->events_dir = NULL;
}

/* The arch to read from an --events-dir tree: from the --cpuid shape or this machine. */
static const char *wanted_arch(const struct cli_env *env)
{
	if (!env->cpuid)
		return pk_cpuid__host_arch();
	const char *a = pk_cpuid__guess_arch(env->cpuid);
	if (a)
		return a;
	static const char *const arches[] = { "x86", "arm64", "powerpc", "s390", "riscv", "nds32" };
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		size_t n = strlen(arches[i]);
		if (!strncmp(env->cpuid, arches[i], n) && env->cpuid[n] == '/')
			return arches[i];
	}
	return NULL;	/* a bare model name: read every arch */
}

static void suggest(const struct cli_env *env, const char *prog)
{
	const char *arch = pk_cpuid__guess_arch(env->cpuid);
	size_t best[3];
	unsigned dist[3];
	size_t nbest = 0;
	for (size_t i = 0; arch && i < pk_catalog__nr_maps(env->cat); i++) {
		struct pk_map_entry e;
		pk_catalog__map(env->cat, i, &e);
		if (strcmp(e.arch, arch))
			continue;
		unsigned d = pk_cpuid__distance(arch, e.cpuid, env->cpuid);
		if (d == UINT_MAX)
			continue;
		size_t k = 2;
		if (nbest < 3)
			k = nbest++;
		else if (d >= dist[2])	/* no better than the third best */
			continue;
		for (; k > 0 && dist[k - 1] > d; k--) {
			best[k] = best[k - 1];
			dist[k] = dist[k - 1];
		}
		best[k] = i;
		dist[k] = d;
	}
	if (!nbest) {
		fprintf(stderr, "%s: no known model resembles it; give a model name instead, "
				"e.g. --cpuid skylake or --cpuid arm64/arm/neoverse-n1\n", prog);
		return;
	}
	fprintf(stderr, "%s: closest known models:\n", prog);
	for (size_t i = 0; i < nbest; i++) {
		struct pk_map_entry e;
		struct pk_model m;
		pk_catalog__map(env->cat, best[i], &e);
		pk_catalog__model(env->cat, e.model, &m);
		fprintf(stderr, "  %-40s %s/%s\n", e.cpuid, m.arch, m.name);
	}
}

int cli_env__open(struct cli_env *env, const char *prog)
{
	struct pk_error err = { 0 };
	char msg[1024];
	int ret;

	if (env->events_dir) {
		/* an identifier picks its model's files: a few ms instead of the whole tree */
		struct pk_catalog_dir_opts o = { .sz = sizeof(o), .only_arch = wanted_arch(env),
						 .only_cpuid = env->cpuid };
		ret = pk_catalog__open_dir(&env->cat, env->events_dir, &o, &err);
	} else {
		ret = pk_catalog__open_builtin(&env->cat);
		if (ret)
			snprintf(err.msg, sizeof(err.msg), "cannot open the built-in tables: %s",
				 strerror(-ret));
	}
	if (ret) {
		fprintf(stderr, "%s: %s\n", prog, pk_error__format(&err, msg, sizeof(msg)));
		return 1;
	}

	ret = pk_pmu_tree__open(&env->pmus, env->sysfs, &err);
	if (ret) {
		env->pmus = NULL;
		if (env->sysfs) {	/* asked for explicitly: a mistake worth stopping for */
			fprintf(stderr, "%s: --sysfs: %s\n", prog, pk_error__format(&err, msg, sizeof(msg)));
			return 1;
		}
	}

	if (env->cpuid) {
		size_t idx;
		if (!pk_catalog__match_cpuid(env->cat, NULL, env->cpuid, &idx)) {
			struct pk_map_entry e;
			pk_catalog__map(env->cat, idx, &e);
			env->model = e.model;
			env->have_model = true;
		} else if (!pk_catalog__find_model(env->cat, env->cpuid, &idx)) {
			env->model = idx;
			env->have_model = true;
		} else {
			fprintf(stderr, "%s: unknown CPU '%s': no mapfile row or model matches it\n",
				prog, env->cpuid);
			suggest(env, prog);
			return 1;
		}
		env->cpuid_used = env->cpuid;
		return 0;
	}
	if (!pk_cpuid__host(NULL, -1, env->cpuid_buf, sizeof(env->cpuid_buf))) {
		size_t idx;
		env->cpuid_used = env->cpuid_buf;
		if (!pk_catalog__match_cpuid(env->cat, pk_cpuid__host_arch(), env->cpuid_buf, &idx)) {
			struct pk_map_entry e;
			pk_catalog__map(env->cat, idx, &e);
			env->model = e.model;
			env->have_model = true;
		}
	}
	return 0;
}

void cli_env__close(struct cli_env *env)
{
	pk_catalog__free(env->cat);
	pk_pmu_tree__free(env->pmus);
	env->cat = NULL;
	env->pmus = NULL;
}

int cli_columns(void)
{
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		return ws.ws_col;
	return 80;
}

/* Break at spaces and after commas; a word never splits. */
void cli_wordwrap(FILE *f, const char *s, int start, int width)
{
	int col = start;
	while (*s) {
		size_t w = strcspn(s, " ,\t\n");
		int comma = s[w] == ',';
		int newline = s[w] == '\n';
		int len = (int)w + comma;
		if (col > start && col + 1 + len > width) {
			fprintf(f, "\n%*s", start, "");
			col = start;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, (size_t)len, f);
		col += len;
		s += w + comma;
		if (newline) {
			fprintf(f, "\n%*s", start, "");
			col = start;
		}
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
	}
}

const char *cli_env__core_flavour(struct cli_env *env, const char *arch)
{
	struct pk_model m;
	if (strcmp(arch, "x86") || !env->have_model || pk_catalog__model(env->cat, env->model, &m))
		return NULL;
	if (!strncmp(m.name, "amd", 3))
		return "amd";
	for (size_t i = 0; i < m.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		pk_catalog__event_brief(env->cat, env->model, i, &e);
		if (!strcmp(e.pmu, "cpu_core") || !strcmp(e.pmu, "cpu_atom"))
			return "hybrid";
	}
	return NULL;
}

const char *cli_env__arch(struct cli_env *env)
{
	struct pk_model m;
	if (env->have_model && !pk_catalog__model(env->cat, env->model, &m))
		return m.arch;
	return pk_cpuid__host_arch();
}

bool cli_env__add_missing_core(struct cli_env *env)
{
	const char *arch = cli_env__arch(env);
	const char *flavour;

	if (env->sysfs || !env->pmus || pk_pmu_tree__has_core(env->pmus) ||
	    strcmp(arch, "x86") || strcmp(pk_cpuid__host_arch(), "x86"))
		return false;
	flavour = cli_env__core_flavour(env, arch);
	if (flavour && !strcmp(flavour, "hybrid"))
		return false;	/* cpu_core/cpu_atom types are dynamic: they could be another PMU's */
	return !pk_pmu_tree__add_core(env->pmus, arch, flavour);
}
