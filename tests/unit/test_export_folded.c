/* SPDX-License-Identifier: MIT */
/*
 * test_export_folded.c — folded stacks (PK_EXPORT_FOLDED) against the rules of
 * FlameGraph's stackcollapse-perf.pl: each test builds a profile with awkward
 * names, comms, dsos and pids, writes the same samples as `perf script -F +pid`
 * text (perf 6.1's layout: "comm pid/tid [cpu] time: period event:" then
 * "\t<ip> sym+off (dso)" per frame, "(inlined)" for inlined ones, a blank
 * line), folds that text with tests/fixtures/export/collapse-rules.pl (the
 * rules restated in Perl) and requires pmukit's output to be byte for byte the
 * same, for each of the script's options, values (PK_EXPORT_VALUE_SCRIPT: the
 * periods on the sample lines) included.
 *
 * `test_export_folded --fold FLAGS < TEXT` reads real `perf script -F +pid` text
 * into a profile and prints pmukit's folded stacks (for
 * tests/integration/export_folded_perf.sh, which compares them with the rules
 * on a recording made with perf 6.1).
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/export.h>
#include <pmukit/profile.h>

struct fr {
	const char *name, *dso;
	enum pk_frame_kind kind;
	int inlined;
};

static const struct fr frames[] = {
	{ "main", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "foo bar", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "a;b", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "trailing;semi;", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "std::vector<int>::push_back(int const&)", "/usr/lib/libstdc++.so.6", PK_FRAME_USER, 0 },
	{ "(anonymous namespace)::helper", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "ns::(anonymous namespace)::f(int)", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "net/http.(*Client).Do", "/usr/bin/gosrv", PK_FRAME_USER, 0 },
	{ "Lcom/foo/Bar;.baz(I)V", "/tmp/perf-1234.map", PK_FRAME_JIT, 0 },
	{ "Ljava/lang/Thread;.run()V", "/tmp/perf-1234.map", PK_FRAME_JIT, 0 },
	{ "Lnoslash;.x", "/tmp/perf-99.map", PK_FRAME_JIT, 0 },
	{ "jitted_fn", "/root/.debug/jit/java-jit-1/jitted-1234-5.so", PK_FRAME_JIT, 0 },
	{ "it's \"quoted\"", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "Foo::operator->()", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "a->b->c", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "->x", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "->", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "x-y", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "name+0x1f", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ NULL, "/usr/lib/x86_64-linux-gnu/libc.so.6", PK_FRAME_USER, 0 },
	{ NULL, NULL, PK_FRAME_USER, 0 },
	{ NULL, "[kernel.kallsyms]", PK_FRAME_KERNEL, 0 },
	{ "[unknown]", "/opt/x/y.so", PK_FRAME_USER, 0 },
	{ "native_safe_halt", "[kernel.kallsyms]", PK_FRAME_KERNEL, 0 },
	{ "ext4_file_write_iter", "[ext4]", PK_FRAME_KERNEL, 0 },
	{ "tcp_sendmsg", "/lib/modules/6.1.0/build/vmlinux", PK_FRAME_KERNEL, 0 },
	{ "__vdso_clock_gettime", "[vdso]", PK_FRAME_USER, 0 },
	{ "spaced", "/opt/my app/lib.so", PK_FRAME_USER, 0 },
	{ "in (parens)", "/opt/my app/lib.so", PK_FRAME_USER, 0 },
	{ "paren", "/opt/lib(1).so", PK_FRAME_USER, 0 },
	{ "inl_inner", "/usr/bin/app", PK_FRAME_USER, 1 },
	{ "inl_outer", "/usr/bin/app", PK_FRAME_USER, 1 },
	{ "operator()", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "foo (bar)", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "na\xc3\xafve_\xc3\xbcnicode", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "with\ttab", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "Go.(x).y(z)", "/usr/bin/app", PK_FRAME_USER, 0 },
	{ "f(a).(b).", "/usr/bin/app", PK_FRAME_USER, 0 },
};
#define NFR (sizeof(frames) / sizeof(frames[0]))

struct th {
	const char *comm;
	int pid, tid;
};

static const struct th threads[] = {
	{ "app", 100, 100 },
	{ "V8 WorkerThread", 100, 101 },
	{ "a", 7, 7 },			/* one character: the space after it joins the first frame */
	{ "b", 1234567, 1234567 },	/* ... unless the pid fills its 7 columns */
	{ "java", 200, 201 },
	{ "kworker/0:1", 12, 12 },
	{ "x 12 y", 300, 300 },		/* the first frame stops at " 12 " */
	{ " lead", 301, 301 },		/* a leading space: the script drops the sample */
	{ "0", 302, 302 },
	{ "swapper", 0, 0 },		/* pid 0 reads as no pid: "swapper-?" */
	{ "big", 4194303, 4194304 },
	{ "tab\tc", 5, 5 },
	{ "j", 9999999, 9999999 },
};
#define NTH (sizeof(threads) / sizeof(threads[0]))

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

struct built {
	struct pk_profile *p;
	char *text;		/* perf script text of all samples */
	size_t len;
};

/* The perf script text of sample i, or nothing when only event `only` (>= 0) is wanted. */
static void script_sample(FILE *t, const struct pk_profile *p, size_t i, int only)
{
	struct pk_profile_sample s;
	struct pk_profile_thread th;
	struct pk_profile_event ev;
	assert_int_equal(pk_profile__sample(p, i, &s), 0);
	if (only >= 0 && (int)s.event != only)
		return;
	assert_int_equal(pk_profile__thread(p, s.thread, &th), 0);
	int width = 0;
	for (size_t e = 0; e < pk_profile__nr_events(p); e++) {
		assert_int_equal(pk_profile__event(p, e, &ev), 0);
		width = (int)strlen(ev.name) > width ? (int)strlen(ev.name) : width;
	}
	assert_int_equal(pk_profile__event(p, s.event, &ev), 0);
	char ts[64];
	snprintf(ts, sizeof(ts), "%" PRIu64 ".%06" PRIu64, s.time / 1000000000u,
		 s.time % 1000000000u / 1000u);
	fprintf(t, "%s %7d/%-7d [%03d] %12s: %10" PRIu64 " %*s: \n", th.comm, th.pid, th.tid, s.cpu,
		ts, s.period, width, ev.name);
	uint32_t st[64];
	size_t n = pk_profile__stack_frames(p, s.stack, st, 64);
	assert_true(n <= 64);
	for (size_t k = 0; k < n; k++) {
		struct pk_profile_frame f;
		assert_int_equal(pk_profile__frame(p, st[k], &f), 0);
		fprintf(t, "\t%16" PRIx64 " ", f.addr);
		if (f.name)
			fprintf(t, "%s+0x%" PRIx64, f.name, f.addr & 0xfff);
		else
			fputs("[unknown]", t);
		if (f.inlined)
			fputs(" (inlined)\n", t);
		else
			fprintf(t, " (%s)\n", f.dso ? f.dso : "[unknown]");
	}
	fputc('\n', t);
}

static char *script_text(const struct pk_profile *p, int only, size_t *len)
{
	char *buf = NULL;
	FILE *t = open_memstream(&buf, len);
	assert_non_null(t);
	for (size_t i = 0; i < pk_profile__nr_samples(p); i++)
		script_sample(t, p, i, only);
	fclose(t);
	return buf;
}

/* nsamples random samples over the frames and threads above; events[0] takes sample 0 */
static struct pk_profile *random_profile(uint64_t seed, size_t nsamples, int first_event)
{
	struct pk_profile *p;
	assert_int_equal(pk_profile__new(&p), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cpu-clock:u",
		.unit = "nanoseconds", .period = 250000 }), 0);
	assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = "page-faults",
		.unit = "count" }), 1);
	uint32_t fid[NFR], tid[NTH];
	for (size_t i = 0; i < NFR; i++)
		assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){
			.name = frames[i].name, .dso = frames[i].dso, .kind = frames[i].kind,
			.inlined = frames[i].inlined, .addr = frames[i].kind == PK_FRAME_KERNEL ?
			0xffffffff81000000u + i * 0x1234 : 0x400000 + i * 0x1234 }, &fid[i]), 0);
	for (size_t i = 0; i < NTH; i++)
		assert_int_equal(pk_profile__intern_thread(p, threads[i].pid, threads[i].tid,
							   threads[i].comm, &tid[i]), 0);
	rng_state = seed;
	uint64_t t = 123456789012345ull;
	for (size_t i = 0; i < nsamples; i++) {
		uint32_t st[12];
		size_t n = rnd(9);
		for (size_t k = 0; k < n; k++)
			st[k] = fid[rnd(NFR)];
		uint32_t stack;
		assert_int_equal(pk_profile__intern_stack(p, st, n, &stack), 0);
		int ev = i == 0 ? first_event : (int)rnd(4) == 0;
		t += 1000 + rnd(1000000);
		assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = stack,
			.thread = tid[rnd(NTH)], .cpu = (int32_t)rnd(4), .event = (uint32_t)ev,
			.time = t, .period = ev ? 1 : 250000 + rnd(1000) }), 0);
	}
	return p;
}

static char *folded(const struct pk_profile *p, unsigned flags, int event, enum pk_export_value v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pk_error err = { 0 };
	int r = pk_export__write(p, PK_EXPORT_FOLDED, f, &(struct pk_export_opts){
		.sz = sizeof(struct pk_export_opts), .event_nr = (unsigned)(event + 1), .flags = flags, .value = v }, &err);
	fclose(f);
	if (r)
		print_message("folded: %s\n", err.msg);
	assert_int_equal(r, 0);
	return buf;
}

static const char *rules_script(void)
{
	static char path[4096];
	const char *src = getenv("PMUKIT_SRC");
	snprintf(path, sizeof(path), "%s/tests/fixtures/export/collapse-rules.pl", src && *src ? src : ".");
	return path;
}

/* The rules' output for text, with the script's options for flags. */
static char *rules(const char *text, size_t len, unsigned flags)
{
	char in[] = "/tmp/pk-folded-XXXXXX";
	int fd = mkstemp(in);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "perl '%s'%s%s%s%s%s < '%s' 2>/dev/null", rules_script(),
		 flags & PK_EXPORT_PID ? " --pid" : "", flags & PK_EXPORT_TID ? " --tid" : "",
		 flags & PK_EXPORT_KERNEL ? " --kernel" : "", flags & PK_EXPORT_JIT ? " --jit" : "",
		 flags & PK_EXPORT_ADDRS ? " --addrs" : "", in);
	FILE *pp = popen(cmd, "r");
	assert_non_null(pp);
	char *buf = NULL;
	size_t blen = 0;
	FILE *o = open_memstream(&buf, &blen);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), pp)) > 0)
		fwrite(chunk, 1, n, o);
	assert_int_equal(pclose(pp), 0);
	fclose(o);
	unlink(in);
	return buf;
}

static void expect_same(const char *want, const char *got, const char *what)
{
	if (!strcmp(want, got))
		return;
	const char *a = want, *b = got;
	while (*a && *a == *b)
		a++, b++;
	while (a > want && a[-1] != '\n')
		a--, b--;
	print_message("%s: first difference\n  rules:  %.*s\n  pmukit: %.*s\n", what,
		      (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	fail();
}

static int have_perl(void **state)
{
	(void)state;
	return system("perl -e 1 >/dev/null 2>&1") == 0 ? 0 : -1;
}

static void check_flags(struct pk_profile *p, const char *text, size_t len, int event)
{
	static const unsigned sets[] = {
		0, PK_EXPORT_PID, PK_EXPORT_TID, PK_EXPORT_KERNEL, PK_EXPORT_JIT, PK_EXPORT_ADDRS,
		PK_EXPORT_KERNEL | PK_EXPORT_JIT,
		PK_EXPORT_TID | PK_EXPORT_KERNEL | PK_EXPORT_JIT | PK_EXPORT_ADDRS,
	};
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		char *want = rules(text, len, sets[i]);
		char *got = folded(p, sets[i], event, PK_EXPORT_VALUE_SCRIPT);
		char what[64];
		snprintf(what, sizeof(what), "flags 0x%x, event %d", sets[i], event);
		assert_true(strlen(want) > 0);
		expect_same(want, got, what);
		free(want);
		free(got);
	}
}

/* The awkward cases, many times over, for every option. */
static void test_rules_random(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct pk_profile *p = random_profile(seed * 0x9e3779b97f4a7c15ull, 3000, 0);
		size_t len;
		char *text = script_text(p, -1, &len);
		check_flags(p, text, len, -1);
		free(text);
		pk_profile__free(p);
	}
}

/* The first sample's event decides which samples are kept; an explicit event as well. */
static void test_event_filter(void **state)
{
	(void)state;
	struct pk_profile *p = random_profile(77, 2000, 1);
	size_t len;
	char *text = script_text(p, -1, &len);
	check_flags(p, text, len, -1);	/* page-faults, the first sample's */
	free(text);
	text = script_text(p, 0, &len);	/* perf script of the cpu-clock samples only */
	check_flags(p, text, len, 0);
	free(text);
	pk_profile__free(p);
}

/* Random bytes (all but NUL and newline) as names, comms and dsos, against the rules. */
static void random_text(char *buf, size_t max, int bias)
{
	static const char pool[] = " ()[]<>;:'\"+-/._0x9fL\t\r\f\v";
	size_t n = 1 + rnd((uint32_t)max - 1);
	for (size_t i = 0; i < n; i++) {
		int c = bias && rnd(2) ? pool[rnd(sizeof(pool) - 1)] : (int)(1 + rnd(255));
		buf[i] = (char)(c == '\n' ? ' ' : c);
	}
	buf[n] = 0;
}

static void test_rules_garbage(void **state)
{
	(void)state;
	rng_state = 0xdeadbeefcafef00dull;
	for (int round = 0; round < 4; round++) {
		struct pk_profile *p;
		assert_int_equal(pk_profile__new(&p), 0);
		char name[64], dso[64];
		random_text(name, 20, 1);
		assert_int_equal(pk_profile__add_event(p, &(struct pk_profile_event){ .name = name }), 0);
		uint32_t fid[200], tid[20];
		for (int i = 0; i < 200; i++) {
			random_text(name, 40, round & 1);
			random_text(dso, 30, round & 1);
			assert_int_equal(pk_profile__intern_frame(p, &(struct pk_profile_frame){
				.name = rnd(10) ? name : NULL, .dso = rnd(10) ? dso : NULL,
				.inlined = rnd(8) == 0, .addr = rnd(1u << 31) }, &fid[i]), 0);
		}
		for (int i = 0; i < 20; i++) {
			random_text(name, 12, round & 1);
			assert_int_equal(pk_profile__intern_thread(p, (int32_t)rnd(5000000),
								   (int32_t)rnd(5000000), name, &tid[i]), 0);
		}
		for (int i = 0; i < 1500; i++) {
			uint32_t st[10], stack;
			size_t n = rnd(10);
			for (size_t k = 0; k < n; k++)
				st[k] = fid[rnd(200)];
			assert_int_equal(pk_profile__intern_stack(p, st, n, &stack), 0);
			assert_int_equal(pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = stack,
				.thread = tid[rnd(20)], .cpu = (int32_t)rnd(64), .time = 1000000u * (uint64_t)i,
				.period = rnd(100000) }), 0);
		}
		size_t len;
		char *text = script_text(p, -1, &len);
		check_flags(p, text, len, -1);
		free(text);
		pk_profile__free(p);
	}
}

/* Small cases whose lines follow from the input by hand. */
static void test_examples(void **state)
{
	(void)state;
	struct pk_profile *p;
	uint32_t f[4], s1, s2, s0, t;
	assert_int_equal(pk_profile__new(&p), 0);
	pk_profile__add_event(p, &(struct pk_profile_event){ .name = "cycles" });
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "main", .dso = "/bin/x" }, &f[0]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "run(int)", .dso = "/bin/x" }, &f[1]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .dso = "/lib/libc.so.6" }, &f[2]);
	pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "schedule",
		.dso = "[kernel.kallsyms]", .kind = PK_FRAME_KERNEL }, &f[3]);
	pk_profile__intern_stack(p, (uint32_t[]){ f[3], f[2], f[1], f[0] }, 4, &s1);
	pk_profile__intern_stack(p, (uint32_t[]){ f[1], f[0] }, 2, &s2);
	pk_profile__intern_stack(p, NULL, 0, &s0);
	pk_profile__intern_thread(p, 5, 6, "my prog", &t);
	for (int i = 0; i < 3; i++)
		pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s1, .thread = t, .period = 10 });
	pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s2, .thread = t, .period = 7 });
	pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = s0, .thread = t, .period = 1 });
	char *got = folded(p, 0, -1, PK_EXPORT_VALUE_SAMPLES);
	assert_string_equal(got, "my_prog 1\nmy_prog;main;run 1\nmy_prog;main;run;[libc.so.6];schedule 3\n");
	free(got);
	got = folded(p, PK_EXPORT_TID | PK_EXPORT_KERNEL, -1, PK_EXPORT_VALUE_COUNT);
	assert_string_equal(got, "my_prog-5/6 1\nmy_prog-5/6;main;run 7\n"
			    "my_prog-5/6;main;run;[libc.so.6];schedule_[k] 30\n");
	free(got);
	pk_profile__free(p);
}

/* perf script text (comm pid/tid [cpu] time: period event: + frame lines) into a profile */
static int fold_script(unsigned flags)
{
	regex_t hdr, frm;
	if (regcomp(&hdr, "^(.*[^ ]) +([0-9]+)/([0-9]+) +(\\[([0-9]+)\\] +)?([0-9]+)\\.([0-9]+): +"
		    "([0-9]+) +(.*[^ ]): *$", REG_EXTENDED) ||
	    regcomp(&frm, "^\t *([0-9a-f]+) (.*) \\((.*)\\)$", REG_EXTENDED))
		return 2;
	struct pk_profile *p;
	if (pk_profile__new(&p))
		return 2;
	/* the whole text: events are all declared before the first sample */
	char *text = NULL;
	size_t tlen = 0;
	FILE *all = open_memstream(&text, &tlen);
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		fwrite(chunk, 1, got, all);
	fclose(all);
	regmatch_t m[10];
	for (int pass = 0; pass < 2; pass++) {
		uint32_t st[1024];
		size_t n = 0;
		int in_sample = 0;
		struct pk_profile_sample s = { 0 };
		for (char *line = text, *next; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = 0;
			char buf[16384];
			snprintf(buf, sizeof(buf), "%s", line);
			if (next)
				next[-1] = '\n';	/* keep the text for the second pass */
			if (!buf[0]) {
				uint32_t id;
				if (pass && in_sample && (pk_profile__intern_stack(p, st, n, &id) ||
							  (s.stack = id, pk_profile__add_sample(p, &s))))
					return 2;
				in_sample = 0;
				n = 0;
				continue;
			}
			if (!regexec(&hdr, buf, 10, m, 0)) {
				buf[m[1].rm_eo] = 0;
				buf[m[9].rm_eo] = 0;
				const char *ev = buf + m[9].rm_so;
				int e = pk_profile__find_event(p, ev);
				if (!pass) {
					if (e < 0 && pk_profile__add_event(p, &(struct pk_profile_event){ .name = ev }) < 0)
						return 2;
					continue;
				}
				uint32_t t;
				if (pk_profile__intern_thread(p, atoi(buf + m[2].rm_so), atoi(buf + m[3].rm_so), buf, &t))
					return 2;
				s = (struct pk_profile_sample){ .thread = t, .event = (uint32_t)e,
					.cpu = m[5].rm_so >= 0 ? atoi(buf + m[5].rm_so) : 0,
					.time = strtoull(buf + m[6].rm_so, NULL, 10) * 1000000000ull +
						strtoull(buf + m[7].rm_so, NULL, 10) * 1000,
					.period = strtoull(buf + m[8].rm_so, NULL, 10) };
				in_sample = 1;
				continue;
			}
			if (pass && in_sample && !regexec(&frm, buf, 4, m, 0) && n < 1024) {
				buf[m[2].rm_eo] = 0;
				buf[m[3].rm_eo] = 0;
				char *sym = buf + m[2].rm_so, *dso = buf + m[3].rm_so;
				size_t sl = strlen(sym), h = sl;	/* perf's "+0x<offset>" */
				while (h > 0 && strchr("0123456789abcdef", sym[h - 1]))
					h--;
				if (h < sl && h >= 3 && !strncmp(sym + h - 3, "+0x", 3))
					sym[h - 3] = 0;
				int inl = !strcmp(dso, "inlined");
				struct pk_profile_frame f = { .name = strcmp(sym, "[unknown]") ? sym : NULL,
					.dso = inl || !strcmp(dso, "[unknown]") ? NULL : dso, .inlined = inl,
					.kind = dso[0] == '[' && strcmp(dso, "[unknown]") && strcmp(dso, "[vdso]") ?
						PK_FRAME_KERNEL : strstr(dso, "/tmp/perf-") ? PK_FRAME_JIT : PK_FRAME_USER,
					.addr = strtoull(buf + m[1].rm_so, NULL, 16) };
				if (pk_profile__intern_frame(p, &f, &st[n++]))
					return 2;
			}
		}
	}
	free(text);
	struct pk_error err = { 0 };
	int r = pk_export__write(p, PK_EXPORT_FOLDED, stdout, &(struct pk_export_opts){
		.sz = sizeof(struct pk_export_opts), .flags = flags,
		.value = PK_EXPORT_VALUE_SCRIPT }, &err);
	if (r)
		fprintf(stderr, "%s\n", err.msg);
	pk_profile__free(p);
	regfree(&hdr);
	regfree(&frm);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fold"))
		return fold_script((unsigned)strtoul(argv[2], NULL, 0));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test_setup(test_rules_random, have_perl),
		cmocka_unit_test_setup(test_event_filter, have_perl),
		cmocka_unit_test_setup(test_rules_garbage, have_perl),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
