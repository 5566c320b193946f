/* SPDX-License-Identifier: MIT */
/*
 * bench/export.c — the profile model and its writers on ~1M samples: building
 * the profile (frames interned per sample, or stacks only), then writing folded
 * stacks, pprof, Firefox Profiler JSON and the HTML flame graph.
 * Usage: export [BUILD_DIR [ARCH_DIR]] [SAMPLES]  (prints `name value` lines)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* a FILE that counts what is written to it */
static ssize_t count_write(void *c, const char *buf, size_t n)
{
	(void)buf;
	*(uint64_t *)c += n;
	return (ssize_t)n;
}

#define NFUNC 3000
#define NPATHS 20000
#define MAXD 32

struct path {
	uint32_t depth;
	uint32_t fn[MAXD];	/* function indices, leaf first */
};

int main(int argc, char **argv)
{
	size_t nsamples = argc > 3 ? strtoul(argv[3], NULL, 10) : 1000000;
	static struct pk_profile_frame fr[NFUNC];
	static char names[NFUNC][32];
	static const char *dsos[] = { "/usr/bin/server", "/usr/lib/x86_64-linux-gnu/libc.so.6",
				      "/usr/lib/libssl.so.3", "[kernel.kallsyms]" };
	for (int i = 0; i < NFUNC; i++) {
		snprintf(names[i], sizeof(names[i]), "ns::module%d::function_%d", i % 40, i);
		int d = i < 2000 ? 0 : i < 2400 ? 1 : i < 2600 ? 2 : 3;
		fr[i] = (struct pk_profile_frame){ .name = names[i], .dso = dsos[d], .file = d ? NULL : "server.cc",
			.line = (uint32_t)i, .kind = d == 3 ? PK_FRAME_KERNEL : PK_FRAME_USER,
			.addr = (d == 3 ? 0xffffffff81000000u : 0x400000u) + (uint64_t)i * 64 };
	}
	/* call paths: a shared trunk, then skewed choices; kernel frames at the leaf */
	static struct path paths[NPATHS];
	for (int k = 0; k < NPATHS; k++) {
		struct path *pa = &paths[k];
		uint32_t d = 10 + rnd(MAXD - 10);
		pa->depth = d;
		for (uint32_t j = 0; j < d; j++) {
			uint32_t from_root = d - 1 - j;
			pa->fn[j] = from_root < 4 ? from_root : (rnd(2000) * rnd(2000)) / 2000 + 4;
		}
		if (rnd(4) == 0)
			pa->fn[0] = 2600 + rnd(400);
		else if (rnd(3) == 0)
			pa->fn[0] = 2000 + rnd(600);
	}

	/* 1: per sample, every frame interned then the stack (a caller without its own cache) */
	struct pk_profile *p;
	if (pk_profile__new(&p))
		return 1;
	int ev = pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock",
		.unit = "nanoseconds", .period = 250000 });
	uint32_t th[8];
	for (int i = 0; i < 8; i++)	/* one process, eight threads */
		pk_profile__intern_thread(p, 1000, 1000 + i, "server", &th[i]);
	uint32_t ids[MAXD], stack;
	uint64_t frames = 0;
	double t0 = now_s();
	for (size_t i = 0; i < nsamples; i++) {
		const struct path *pa = &paths[(rnd(NPATHS) * (uint64_t)rnd(NPATHS)) / NPATHS];
		frames += pa->depth;
		for (uint32_t j = 0; j < pa->depth; j++)
			if (pk_profile__intern_frame(p, &fr[pa->fn[j]], &ids[j]))
				return 1;
		if (pk_profile__intern_stack(p, ids, pa->depth, &stack) ||
		    pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = stack, .thread = th[i % 8],
			.cpu = (int32_t)(i % 4), .event = (uint32_t)ev, .time = 1000000000ull + i * 250000,
			.period = 250000 }))
			return 1;
	}
	double t1 = now_s();
	printf("export_samples %zu\n", nsamples);
	printf("export_avg_depth %.1f\n", (double)frames / (double)nsamples);
	printf("export_build_interning_frames_samples_per_s %.0f\n", (double)nsamples / (t1 - t0));
	printf("export_stacks %zu\n", pk_profile__nr_stacks(p));

	/* 2: frames interned once (what a reader with an address cache does), stacks per sample */
	struct pk_profile *q;
	pk_profile__new(&q);
	pk_profile__add_event(q, &(struct pk_profile_event){ .name = "cpu-clock", .unit = "nanoseconds" });
	uint32_t fid[NFUNC], qth;
	for (int i = 0; i < NFUNC; i++)
		pk_profile__intern_frame(q, &fr[i], &fid[i]);
	pk_profile__intern_thread(q, 1, 1, "x", &qth);
	rng = 0x9e3779b97f4a7c15ull;
	t0 = now_s();
	for (size_t i = 0; i < nsamples; i++) {
		const struct path *pa = &paths[(rnd(NPATHS) * (uint64_t)rnd(NPATHS)) / NPATHS];
		for (uint32_t j = 0; j < pa->depth; j++)
			ids[j] = fid[pa->fn[j]];
		if (pk_profile__intern_stack(q, ids, pa->depth, &stack) ||
		    pk_profile__add_sample(q, &(struct pk_profile_sample){ .stack = stack, .thread = qth,
			.time = i, .period = 1 }))
			return 1;
	}
	t1 = now_s();
	printf("export_build_stacks_samples_per_s %.0f\n", (double)nsamples / (t1 - t0));
	pk_profile__free(q);

	static const struct { const char *name; enum pk_export_format f; } fmts[] = {
		{ "folded", PK_EXPORT_FOLDED }, { "pprof", PK_EXPORT_PPROF },
		{ "gecko", PK_EXPORT_GECKO }, { "html", PK_EXPORT_HTML }, { "svg", PK_EXPORT_SVG },
	};
	for (size_t k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
		uint64_t bytes = 0;
		FILE *out = fopencookie(&bytes, "w", (cookie_io_functions_t){ .write = count_write });
		struct pk_error err = { 0 };
		t0 = now_s();
		int r = pk_export__write(p, fmts[k].f, out, NULL, &err);
		fclose(out);
		t1 = now_s();
		if (r) {
			fprintf(stderr, "%s: %s\n", fmts[k].name, err.msg);
			return 1;
		}
		printf("export_%s_ms %.1f\n", fmts[k].name, (t1 - t0) * 1e3);
		printf("export_%s_bytes %llu\n", fmts[k].name, (unsigned long long)bytes);
	}
	pk_profile__free(p);
	return 0;
}
