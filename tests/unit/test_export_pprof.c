/* SPDX-License-Identifier: MIT */
/*
 * test_export_pprof.c — pprof output (PK_EXPORT_PPROF): the gzipped
 * profile.proto is decoded again (zlib + the protoc-c code the library uses)
 * and every sample's functions (inline frames as extra lines of one
 * location), thread labels and values must be the profile's; references must
 * resolve; the output must not change between runs. Then `go tool pprof -top`
 * (Debian's golang-go) reads it: its totals and every function's flat and
 * cumulative values must equal those computed from the profile here.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>

#include "profile.pb-c.h"

static uint64_t rng_state = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

#define NFN 24

/*
 * Two events: cpu-clock (ns, weighted) takes most samples, page-faults the rest.
 * Functions fn00..fn23 in /usr/bin/app, two in libfoo, an unknown one there, two
 * kernel ones, and inl_x always inlined into host at one address.
 */
static struct pk_profile *build(size_t nsamples)
{
	struct pk_profile *p;
	assert_int_equal(pk_profile__new(&p), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock",
		.unit = "nanoseconds", .period = 1000000, .weight_unit = "cycles" }), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "page-faults",
		.unit = "count", .period = 1 }), 1);
	uint32_t fn[NFN + 7], th[3];
	for (int i = 0; i < NFN; i++) {
		char n[16];
		snprintf(n, sizeof(n), "fn%02d", i);
		pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = n, .dso = "/usr/bin/app",
			.file = "app.c", .line = 10u + (unsigned)i, .addr = 0x401000u + 0x40u * (unsigned)i }, &fn[i]);
	}
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "lib_a", .dso = "/usr/lib/libfoo.so",
		.addr = 0x7f0000001000 }, &fn[NFN]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "lib_b", .dso = "/usr/lib/libfoo.so",
		.addr = 0x7f0000002000 }, &fn[NFN + 1]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .dso = "/usr/lib/libfoo.so",
		.addr = 0x7f0000003000 }, &fn[NFN + 2]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "k_sched", .dso = "[kernel.kallsyms]",
		.kind = PK_FRAME_KERNEL, .addr = 0xffffffff81001000 }, &fn[NFN + 3]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "k_irq", .dso = "[kernel.kallsyms]",
		.kind = PK_FRAME_KERNEL, .addr = 0xffffffff81002000 }, &fn[NFN + 4]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "inl_x", .dso = "/usr/bin/app",
		.file = "x.h", .line = 3, .inlined = true, .addr = 0x409000 }, &fn[NFN + 5]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "host", .dso = "/usr/bin/app",
		.file = "app.c", .line = 99, .addr = 0x409000 }, &fn[NFN + 6]);
	pk_profile__intern_thread(p, 50, 50, "app", &th[0]);
	pk_profile__intern_thread(p, 50, 51, "app worker", &th[1]);
	pk_profile__intern_thread(p, 60, 60, "other", &th[2]);
	uint64_t t = 5000000000ull;
	for (size_t i = 0; i < nsamples; i++) {
		uint32_t st[16];
		size_t n = 0;
		uint32_t leaf = rnd(10);
		if (leaf < 2)
			st[n++] = fn[NFN + 3 + leaf];		/* kernel leaf */
		else if (leaf == 2) {
			st[n++] = fn[NFN + 5];			/* inl_x inlined into host */
			st[n++] = fn[NFN + 6];
		} else if (leaf == 3)
			st[n++] = fn[NFN + rnd(3)];		/* libfoo */
		size_t depth = 1 + rnd(8);
		for (size_t d = 0; d < depth; d++)
			st[n++] = fn[(rnd(NFN) * rnd(NFN)) % NFN];	/* skewed: distinct totals */
		st[n++] = fn[0];				/* fn00 is main */
		uint32_t s;
		assert_int_equal(pk_profile__intern_stack(p, st, n, &s), 0);
		uint32_t ev = rnd(5) == 0;
		t += 1000000;
		assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s,
			.thread = th[rnd(3)], .cpu = 0, .event = ev, .time = t,
			.period = ev ? 1 : 900000 + rnd(200000), .weight = ev ? 0 : rnd(50) }), 0);
	}
	return p;
}

static unsigned char *write_pprof(const struct pk_profile *p, unsigned flags, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct pk_error err = { 0 };
	int r = pk_export__write(p, PK_EXPORT_PPROF, f, &(struct pk_export_opts){
		.sz = sizeof(struct pk_export_opts), .flags = flags }, &err);
	fclose(f);
	if (r)
		print_message("pprof: %s\n", err.msg);
	assert_int_equal(r, 0);
	return (unsigned char *)buf;
}

static Perftools__Profiles__Profile *decode(const unsigned char *gz, size_t len)
{
	z_stream z = { 0 };
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);	/* gzip only */
	size_t cap = 1 << 20, n = 0;
	unsigned char *out = malloc(cap);
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)len;
	int r;
	do {
		if (n == cap) {
			unsigned char *grown = realloc(out, cap *= 2);
			assert_non_null(grown);
			out = grown;
		}
		z.next_out = out + n;
		z.avail_out = (uInt)(cap - n);
		r = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
	} while (r == Z_OK);
	assert_int_equal(r, Z_STREAM_END);
	assert_int_equal(z.avail_in, 0);	/* nothing after the gzip member */
	inflateEnd(&z);
	Perftools__Profiles__Profile *pr = perftools__profiles__profile__unpack(NULL, n, out);
	free(out);
	assert_non_null(pr);
	return pr;
}

static const char *frame_name(const struct pk_profile *p, uint32_t id, char *tmp, size_t len)
{
	struct pk_profile_frame f;
	assert_int_equal(pk_profile__frame(p, id, &f), 0);
	if (f.name)
		return f.name;
	const char *b = strrchr(f.dso, '/');
	snprintf(tmp, len, "[%s]", b ? b + 1 : f.dso);
	return tmp;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted "names|pid|tid|comm v0 v1 ..." lines, equal keys summed. */
static char *merge_lines(char **lines, size_t n, size_t nvals)
{
	qsort(lines, n, sizeof(*lines), cmp_str);
	char *out = NULL;
	size_t olen = 0;
	FILE *o = open_memstream(&out, &olen);
	for (size_t i = 0; i < n;) {
		char *sep = strchr(lines[i], '\t');
		size_t kl = (size_t)(sep - lines[i]);
		int64_t sum[8] = { 0 };
		size_t j = i;
		for (; j < n && !strncmp(lines[j], lines[i], kl + 1); j++) {
			char *s = strchr(lines[j], '\t') + 1;
			for (size_t k = 0; k < nvals; k++)
				sum[k] += strtoll(s, &s, 10);
		}
		fprintf(o, "%.*s", (int)kl, lines[i]);
		for (size_t k = 0; k < nvals; k++)
			fprintf(o, " %" PRId64, sum[k]);
		fputc('\n', o);
		i = j;
	}
	fclose(o);
	return out;
}

static void test_decoded(void **state)
{
	(void)state;
	struct pk_profile *p = build(12000);
	size_t len, len2;
	unsigned char *gz = write_pprof(p, 0, &len);
	unsigned char *gz2 = write_pprof(p, 0, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(gz, gz2, len);	/* deterministic */
	Perftools__Profiles__Profile *pr = decode(gz, len);
	char **S = pr->string_table;
	assert_true(pr->n_string_table > 0);
	assert_string_equal(S[0], "");
	/* sample types: samples, cpu-clock, cpu-clock_weight, page-faults_samples, page-faults */
	static const char *const types[][2] = {
		{ "cpu-clock_samples", "count" }, { "cpu-clock", "nanoseconds" },
		{ "cpu-clock_weight", "cycles" }, { "page-faults_samples", "count" },
		{ "page-faults", "count" },
	};
	assert_int_equal(pr->n_sample_type, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(S[pr->sample_type[i]->type], types[i][0]);
		assert_string_equal(S[pr->sample_type[i]->unit], types[i][1]);
	}
	assert_string_equal(S[pr->default_sample_type], "cpu-clock");
	assert_non_null(pr->period_type);
	assert_string_equal(S[pr->period_type->type], "cpu-clock");
	assert_int_equal(pr->period, 1000000);
	assert_int_equal(pr->duration_nanos, 11999 * 1000000ll);
	assert_true(pr->n_sample > 4096);	/* written in several chunks */

	/* ids resolve (they are dense, 1-based) */
	for (size_t i = 0; i < pr->n_location; i++) {
		Perftools__Profiles__Location *l = pr->location[i];
		assert_int_equal(l->id, i + 1);
		assert_true(l->mapping_id >= 1 && l->mapping_id <= pr->n_mapping);
		assert_true(l->n_line >= 1);
		for (size_t k = 0; k < l->n_line; k++)
			assert_true(l->line[k]->function_id >= 1 && l->line[k]->function_id <= pr->n_function);
		Perftools__Profiles__Mapping *m = pr->mapping[l->mapping_id - 1];
		assert_true(l->address >= m->memory_start && l->address < m->memory_limit);
	}
	for (size_t i = 0; i < pr->n_function; i++)
		assert_int_equal(pr->function[i]->id, i + 1);
	/* inl_x is the first line of host's location */
	int seen_inline = 0;
	for (size_t i = 0; i < pr->n_location; i++) {
		Perftools__Profiles__Location *l = pr->location[i];
		if (l->n_line == 2) {
			assert_string_equal(S[pr->function[l->line[0]->function_id - 1]->name], "inl_x");
			assert_string_equal(S[pr->function[l->line[1]->function_id - 1]->name], "host");
			assert_string_equal(S[pr->function[l->line[0]->function_id - 1]->filename], "x.h");
			assert_int_equal(l->line[0]->line, 3);
			assert_int_equal(l->line[1]->line, 99);
			assert_int_equal(l->address, 0x409000);
			seen_inline++;
		}
	}
	assert_int_equal(seen_inline, 1);

	/* every sample: functions leaf first, thread labels, values */
	char **want = calloc(pk_profile__nr_samples(p), sizeof(char *));
	for (size_t i = 0; i < pk_profile__nr_samples(p); i++) {
		struct pk_profile_sample s;
		struct pk_profile_thread th;
		pk_profile__sample(p, i, &s);
		pk_profile__thread(p, s.thread, &th);
		uint32_t fr[32];
		size_t n = pk_profile__stack_frames(p, s.stack, fr, 32);
		size_t blen = 0;
		FILE *o = open_memstream(&want[i], &blen);
		for (size_t k = 0; k < n; k++) {
			char tmp[64];
			fprintf(o, "%s;", frame_name(p, fr[k], tmp, sizeof(tmp)));
		}
		fprintf(o, "|%d|%d|%s\t%d %" PRIu64 " %" PRIu64 " %d %" PRIu64 "\n", th.pid, th.tid,
			th.comm, s.event == 0, s.values[0].count, s.values[0].weight, s.event == 1,
			s.values[1].count);
		fclose(o);
	}
	char **got = calloc(pr->n_sample, sizeof(char *));
	for (size_t i = 0; i < pr->n_sample; i++) {
		Perftools__Profiles__Sample *s = pr->sample[i];
		size_t blen = 0;
		FILE *o = open_memstream(&got[i], &blen);
		for (size_t k = 0; k < s->n_location_id; k++) {
			Perftools__Profiles__Location *l = pr->location[s->location_id[k] - 1];
			for (size_t j = 0; j < l->n_line; j++)
				fprintf(o, "%s;", S[pr->function[l->line[j]->function_id - 1]->name]);
		}
		assert_int_equal(s->n_label, 3);
		assert_string_equal(S[s->label[0]->key], "pid");
		assert_string_equal(S[s->label[1]->key], "tid");
		assert_string_equal(S[s->label[2]->key], "comm");
		fprintf(o, "|%" PRId64 "|%" PRId64 "|%s\t", s->label[0]->num, s->label[1]->num,
			S[s->label[2]->str]);
		assert_int_equal(s->n_value, 5);
		for (size_t k = 0; k < 5; k++)
			fprintf(o, "%s%" PRId64, k ? " " : "", s->value[k]);
		fputc('\n', o);
		fclose(o);
	}
	char *w = merge_lines(want, pk_profile__nr_samples(p), 5);
	char *g = merge_lines(got, pr->n_sample, 5);
	assert_string_equal(g, w);
	assert_true(strlen(w) > 1000);
	for (size_t i = 0; i < pk_profile__nr_samples(p); i++)
		free(want[i]);
	for (size_t i = 0; i < pr->n_sample; i++)
		free(got[i]);
	free(want);
	free(got);
	free(w);
	free(g);
	perftools__profiles__profile__free_unpacked(pr, NULL);
	free(gz);
	free(gz2);

	/* without threads: one sample per stack, no labels */
	gz = write_pprof(p, PK_EXPORT_NO_THREADS, &len);
	pr = decode(gz, len);
	for (size_t i = 0; i < pr->n_sample; i++)
		assert_int_equal(pr->sample[i]->n_label, 0);
	size_t stacks = 0;
	uint8_t *used = calloc(pk_profile__nr_stacks(p), 1);
	for (size_t i = 0; i < pk_profile__nr_samples(p); i++) {
		struct pk_profile_sample s;
		pk_profile__sample(p, i, &s);
		stacks += !used[s.stack];
		used[s.stack] = 1;
	}
	assert_int_equal(pr->n_sample, stacks);
	free(used);
	perftools__profiles__profile__free_unpacked(pr, NULL);
	free(gz);
	pk_profile__free(p);
}

/* ---- go tool pprof ---------------------------------------------------------------------- */

struct fnval {
	char name[64];
	int64_t flat, cum;
};

static struct fnval *fn_find(struct fnval *v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
	v[*n].flat = v[*n].cum = 0;
	return &v[(*n)++];
}

/* flat and cum per function for one value: 0 samples of cpu-clock, 1 cpu-clock ns */
static size_t expected(const struct pk_profile *p, int which, struct fnval *v, int64_t *total)
{
	size_t n = 0;
	*total = 0;
	for (size_t i = 0; i < pk_profile__nr_samples(p); i++) {
		struct pk_profile_sample s;
		pk_profile__sample(p, i, &s);
		int64_t val = which == 0 ? s.event == 0 : (int64_t)s.values[0].count;
		if (!val)
			continue;
		*total += val;
		uint32_t fr[32];
		size_t d = pk_profile__stack_frames(p, s.stack, fr, 32);
		char names[32][64];
		for (size_t k = 0; k < d; k++) {
			struct pk_profile_frame f;
			char tmp[64];
			pk_profile__frame(p, fr[k], &f);
			snprintf(names[k], sizeof(names[k]), "%s%s", frame_name(p, fr[k], tmp, sizeof(tmp)),
				 f.inlined ? " (inline)" : "");
		}
		fn_find(v, &n, names[0])->flat += val;
		for (size_t k = 0; k < d; k++) {
			int dup = 0;
			for (size_t j = 0; j < k; j++)
				dup |= !strcmp(names[j], names[k]);
			if (!dup)
				fn_find(v, &n, names[k])->cum += val;
		}
	}
	return n;
}

static void check_top(const char *dir, const char *file, const struct pk_profile *p, int which)
{
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "cd '%s' && HOME='%s' GOCACHE='%s/gocache' GOFLAGS=-mod=mod GOPROXY=off "
		 "go tool pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 %s "
		 "-sample_index=%s '%s' 2>&1", dir, dir, dir, which ? "-unit=ns" : "",
		 which ? "cpu-clock" : "cpu-clock_samples", file);
	FILE *pp = popen(cmd, "r");
	assert_non_null(pp);
	struct fnval want[64], got[64];
	int64_t total;
	size_t nw = expected(p, which, want, &total), ng = 0;
	char line[1024];
	int in_rows = 0, saw_total = 0;
	while (fgets(line, sizeof(line), pp)) {
		line[strcspn(line, "\n")] = 0;
		char a[64], b[64];
		if (sscanf(line, "Showing nodes accounting for %63[^,], 100%% of %63s total", a, b) == 2) {
			char want_total[64];
			snprintf(want_total, sizeof(want_total), "%" PRId64 "%s", total, which ? "ns" : "");
			assert_string_equal(a, want_total);
			assert_string_equal(b, want_total);
			saw_total = 1;
			continue;
		}
		if (strstr(line, "flat%") && strstr(line, "cum%")) {
			in_rows = 1;
			continue;
		}
		if (!in_rows)
			continue;
		/* flat flat% sum% cum cum% name */
		char flat[64], cum[64];
		int used = 0;
		assert_int_equal(sscanf(line, "%63s %*s %*s %63s %*s %n", flat, cum, &used), 2);
		assert_true(ng < 64);
		struct fnval *g = fn_find(got, &ng, line + used);
		g->flat = strtoll(flat, NULL, 10);
		g->cum = strtoll(cum, NULL, 10);
	}
	int st = pclose(pp);
	assert_int_equal(st, 0);
	assert_true(saw_total);
	assert_int_equal(ng, nw);
	for (size_t i = 0; i < nw; i++) {
		size_t n = ng;
		struct fnval *g = fn_find(got, &n, want[i].name);
		assert_int_equal(n, ng);	/* pprof lists it */
		if (g->flat != want[i].flat || g->cum != want[i].cum)
			print_message("%s: flat %" PRId64 "/%" PRId64 " cum %" PRId64 "/%" PRId64 "\n",
				      want[i].name, g->flat, want[i].flat, g->cum, want[i].cum);
		assert_int_equal(g->flat, want[i].flat);
		assert_int_equal(g->cum, want[i].cum);
	}
}

static void test_go_pprof(void **state)
{
	(void)state;
	if (system("command -v go >/dev/null 2>&1")) {
		print_message("go not installed (Debian golang-go)\n");
		skip();
	}
	struct pk_profile *p = build(20000);
	char dir[] = "/tmp/pk-pprof-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char file[256];
	snprintf(file, sizeof(file), "%s/cpu.pb.gz", dir);
	FILE *f = fopen(file, "w");
	struct pk_error err = { 0 };
	assert_int_equal(pk_export__write(p, PK_EXPORT_PPROF, f, NULL, &err), 0);	/* default options */
	fclose(f);
	check_top(dir, file, p, 0);
	check_top(dir, file, p, 1);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	pk_profile__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decoded),
		cmocka_unit_test(test_go_pprof),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
