/* SPDX-License-Identifier: MIT */
/*
 * fuzz_events_dir.c — libFuzzer target for the run-time JSON loader
 * (--events-dir): the input is split at the first NUL into a mapfile.csv and a
 * topic JSON file, written into a one-model arch/ tree, loaded through
 * pk_catalog__open_dir, and every event and metric read back. Also fuzzes a
 * standard-event file when the JSON part is used as arm64's common file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/events.h>

static char root[256];

static void write_file(const char *rel, const uint8_t *p, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(p, 1, n, f);
	fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char path[512];
	snprintf(root, sizeof(root), "/tmp/pmukit-fuzz-%d", (int)getpid());
	mkdir(root, 0700);
	snprintf(path, sizeof(path), "%s/x86", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/x86/m", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/arm64", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/arm64/a", root);
	mkdir(path, 0700);
	static const char arm_map[] = "h\n0x00000000410fd0c0,v1,a,core\n";
	write_file("arm64/mapfile.csv", (const uint8_t *)arm_map, sizeof(arm_map) - 1);
	static const char arm_model[] = "[{\"ArchStdEvent\": \"CPU_CYCLES\"}]";
	write_file("arm64/a/pipeline.json", (const uint8_t *)arm_model, sizeof(arm_model) - 1);
	return 0;
}

static void read_all(struct pk_catalog *cat)
{
	for (size_t m = 0; m < pk_catalog__nr_models(cat); m++) {
		struct pk_model md;
		pk_catalog__model(cat, m, &md);
		for (size_t i = 0; i < md.nr_events; i++) {
			struct pk_event e = { .sz = sizeof(e) };
			size_t first, count;
			pk_catalog__event(cat, m, i, &e);
			if (pk_catalog__find_event(cat, m, e.name, e.pmu, &first, &count))
				abort();	/* every event must be found by its own name */
		}
		for (size_t i = 0; i < md.nr_metrics; i++) {
			struct pk_metric mt = { .sz = sizeof(mt) };
			pk_catalog__metric(cat, m, i, &mt);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t map_len = nul ? (size_t)(nul - data) : 0;
	const uint8_t *json = nul ? nul + 1 : data;
	size_t json_len = nul ? size - map_len - 1 : size;
	static const char def_map[] = "h\nGenuineIntel-6-55,v1,m,core\n";
	if (nul)
		write_file("x86/mapfile.csv", data, map_len);
	else
		write_file("x86/mapfile.csv", (const uint8_t *)def_map, sizeof(def_map) - 1);
	write_file("x86/m/cache.json", json, json_len);
	write_file("arm64/common-and-microarch.json", json, json_len);

	struct pk_catalog *cat;
	struct pk_error err;
	if (!pk_catalog__open_dir(&cat, root, NULL, &err)) {
		read_all(cat);
		pk_catalog__free(cat);
	}
	return 0;
}
