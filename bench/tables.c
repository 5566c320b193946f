/* SPDX-License-Identifier: MIT */
/*
 * bench/tables.c — run-time cost of the tables: opening the built-in image,
 * matching a CPU identifier, looking events up by name, reading every event
 * with its description, and loading a JSON tree at run time.
 * Usage: tables BUILD_DIR ARCH_DIR   (prints `name value` lines)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pmukit/pmukit.h>

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *arch_dir = argc > 2 ? argv[2] : "build/arch";
	struct pk_catalog *cat;
	double t0 = now_ns();
	if (pk_catalog__open_builtin(&cat))
		return 1;
	double t1 = now_ns();
	printf("open_builtin_us %.1f\n", (t1 - t0) / 1e3);

	size_t map;
	t0 = now_ns();
	int r = pk_catalog__match_cpuid(cat, "x86", "GenuineIntel-6-55-4", &map);
	t1 = now_ns();
	if (r)
		return 1;
	printf("match_cpuid_us %.1f\n", (t1 - t0) / 1e3);
	struct pk_map_entry e;
	pk_catalog__map(cat, map, &e);
	struct pk_model m;
	pk_catalog__model(cat, e.model, &m);

	char **names = calloc(m.nr_events, sizeof(*names));
	for (size_t i = 0; i < m.nr_events; i++) {
		struct pk_event ev = { .sz = sizeof(ev) };
		pk_catalog__event(cat, e.model, i, &ev);
		names[i] = strdup(ev.name);
		for (char *p = names[i]; *p; p++)	/* users type upper case too */
			if (i % 2 && *p >= 'a' && *p <= 'z')
				*p = (char)(*p - 'a' + 'A');
	}
	size_t iters = 2000000, found = 0;
	t0 = now_ns();
	for (size_t i = 0; i < iters; i++) {
		size_t first, count;
		found += !pk_catalog__find_event(cat, e.model, names[i % m.nr_events], NULL, &first,
						 &count);
	}
	t1 = now_ns();
	if (found != iters)
		return 1;
	printf("lookup_ns %.1f\n", (t1 - t0) / (double)iters);
	printf("lookups_per_s %.0f\n", (double)iters / ((t1 - t0) / 1e9));

	pk_catalog__free(cat);
	pk_catalog__open_builtin(&cat);
	t0 = now_ns();
	size_t bytes = 0;
	for (size_t i = 0; i < m.nr_events; i++) {
		struct pk_event ev = { .sz = sizeof(ev) };
		pk_catalog__event(cat, e.model, i, &ev);
		bytes += ev.desc ? strlen(ev.desc) : 0;
	}
	t1 = now_ns();
	printf("model_events %zu\n", m.nr_events);
	printf("read_model_with_desc_us %.1f\n", (t1 - t0) / 1e3);
	for (size_t i = 0; i < m.nr_events; i++)
		free(names[i]);
	free(names);
	pk_catalog__free(cat);

	struct pk_error err;
	struct pk_catalog_dir_opts o = { .sz = sizeof(o), .only_arch = "x86" };
	t0 = now_ns();
	if (pk_catalog__open_dir(&cat, arch_dir, &o, &err))
		return 1;
	t1 = now_ns();
	printf("events_dir_x86_ms %.1f\n", (t1 - t0) / 1e6);
	pk_catalog__free(cat);
	o.only_model = "skylake";
	t0 = now_ns();
	if (pk_catalog__open_dir(&cat, arch_dir, &o, &err))
		return 1;
	t1 = now_ns();
	printf("events_dir_one_model_ms %.1f\n", (t1 - t0) / 1e6);
	pk_catalog__free(cat);
	(void)bytes;
	return 0;
}
