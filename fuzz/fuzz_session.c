/* SPDX-License-Identifier: MIT */
/*
 * fuzz_session.c — libFuzzer target over the session layer and pmukit
 * script's printer: perf.data bytes → reader → session (threads, maps,
 * callchains, symbols) → perf script lines written to /dev/null, then the
 * same session's profile. Inputs whose first byte is odd are whole files;
 * even ones are records after a pipe header and one attr whose sample_type
 * and flags come from the next bytes, so that the fuzzer reaches the
 * session without having to find the file format first. With
 * REGS_USER and STACK_USER in that sample_type (--call-graph dwarf) the
 * attr records every user register of x86_64 and aarch64, and an MMAP2 of
 * pid 0 maps a small real binary (/usr/bin/true, the only file under the
 * target's --symfs, as "/exe") at 0x400000, so that the fuzzer's register
 * and stack dumps are unwound (libdw) through real CFI (seeds:
 * fuzz/corpus/session: also kernel module maps, an Arm SPE file's AUX
 * records, a killed perf's file, written by report_mkdata).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/perf_data.h>
#include <pmukit/profile.h>
#include <pmukit/session.h>

/* the printer of pmukit script, built into the target */
#include "../src/script-fields.c"
#include "../src/script-print.c"
#include "../src/script-trace.c"
#include "../src/dump-raw.c"
#include "../src/report-tasks.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int mem_fd(const void *p, size_t n)
{
	int fd = memfd_create("fuzz.data", 0);
	if (fd < 0)
		abort();
	if (n && write(fd, p, n) != (ssize_t)n)
		abort();
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* where the MMAP2 of dwarf inputs maps /exe */
#define EXE_START 0x400000u
#define EXE_LEN 0x100000u

static char symfs_dir[] = "/tmp/pmukit-fuzz-symfs-XXXXXX";
static char symfs_exe[sizeof(symfs_dir) + 8];

static void remove_symfs(void)
{
	unlink(symfs_exe);
	rmdir(symfs_dir);
}

/* --symfs DIR holding only exe -> a small binary (removed at exit); NULL when there is none */
static char *make_symfs(void)
{
	static const char *const bins[] = { "/usr/bin/true", "/bin/true" };
	if (!mkdtemp(symfs_dir))
		return NULL;
	snprintf(symfs_exe, sizeof(symfs_exe), "%s/exe", symfs_dir);
	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++) {
		if (!access(bins[i], R_OK) && !symlink(bins[i], symfs_exe)) {
			atexit(remove_symfs);
			return symfs_dir;
		}
	}
	rmdir(symfs_dir);
	return NULL;
}

/* the MMAP2 record of /exe with the sample_id_all trailer of sample_type st (zeros) */
static size_t exe_mmap(uint64_t st, uint8_t *out)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
		char filename[8];
	} m;
	memset(&m, 0, sizeof(m));
	size_t id = 0;
	static const uint64_t ids[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
					PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					PERF_SAMPLE_IDENTIFIER };
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		id += (st & ids[i]) ? 8 : 0;
	m.h.type = PERF_RECORD_MMAP2;
	m.h.misc = PERF_RECORD_MISC_USER;
	m.h.size = (uint16_t)(sizeof(m) + id);
	m.start = EXE_START;
	m.len = EXE_LEN;
	m.prot = PROT_READ | PROT_EXEC;
	m.flags = MAP_PRIVATE;
	memcpy(m.filename, "/exe", 5);
	memcpy(out, &m, sizeof(m));
	memset(out + sizeof(m), 0, id);
	return sizeof(m) + id;
}

/* A pipe-mode header and one HEADER_ATTR record (and /exe's map), then the fuzzer's bytes. */
static uint8_t *synth(const uint8_t *data, size_t size, size_t *out_len)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
	if (size >= 9) {
		memcpy(&st, data + 1, 8);
		st &= (PERF_SAMPLE_MAX - 1) & ~(uint64_t)(PERF_SAMPLE_READ | PERF_SAMPLE_AUX);
		data += 9;
		size -= 9;
	}
	a.sample_type = st;
	a.sample_id_all = 1;
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	bool unwind = (st & dwarf) == dwarf;
	if (unwind) {
		a.sample_regs_user = (UINT64_C(1) << 33) - 1;	/* x86_64's 24, aarch64's 33 */
		a.sample_stack_user = 8192;
	}
	struct pk_perf_pipe_header ph = { PK_PERF_MAGIC2, sizeof(ph) };
	struct perf_event_header h = { .type = PK_RECORD_HEADER_ATTR, .misc = 0,
				       .size = (uint16_t)(sizeof(h) + sizeof(a)) };
	uint8_t mm[256];
	size_t nmm = unwind ? exe_mmap(st, mm) : 0;
	size_t n = sizeof(ph) + sizeof(h) + sizeof(a) + nmm + size;
	uint8_t *buf = malloc(n);
	if (!buf)
		abort();
	uint8_t *p = buf;
	memcpy(p, &ph, sizeof(ph));
	p += sizeof(ph);
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	memcpy(p, &a, sizeof(a));
	p += sizeof(a);
	memcpy(p, mm, nmm);
	p += nmm;
	if (size)
		memcpy(p, data, size);
	*out_len = n;
	return buf;
}

static void print_all(struct pk_session *s, FILE *devnull)
{
	struct script sc;
	memset(&sc, 0, sizeof(sc));
	script_fields__defaults(&sc);
	sc.use_callchain = true;
	sc.s = s;
	sc.name_width = 16;
	if (obuf__init(&sc.ob, devnull))
		return;
	struct pk_data_reader *r = pk_session__reader(s);
	const struct pk_data_event *ev;
	struct pk_resolved rs = { .sz = sizeof(rs) };
	struct pk_error err = { 0 };
	unsigned n = 0;
	while (pk_session__next(s, &ev, &err) > 0 && n++ < 4096) {
		if (ev->type == PK_RECORD_HEADER_TRACING_DATA && !sc.trace)
			(void)script_trace__new(&sc.trace, r);
		if (ev->type != PERF_RECORD_SAMPLE || ev->attr < 0)
			continue;
		const struct pk_data_attr *a = pk_data_reader__attr(r, (size_t)ev->attr);
		sc.out[script__type(a->attr.type)].fields |= SF_SRCLINE | SF_ADDR | SF_MISC | SF_PID;
		if (pk_session__resolve(s, ev, PK_RESOLVE_CALLCHAIN | PK_RESOLVE_ADDR, &rs, &err))
			break;
		script__print_sample(&sc, &rs, a);
	}
	obuf__free(&sc.ob);
	script__free_caches(&sc);
	script_trace__free(sc.trace);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	static const char *symfs;
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	if (!symfs && !(symfs = make_symfs()))
		symfs = "/nonexistent";
	if (!size)
		return 0;
	size_t len = size - 1;
	uint8_t *buf = NULL;
	const uint8_t *bytes = data + 1;
	if (!(data[0] & 1)) {
		buf = synth(data, size, &len);
		bytes = buf;
	}
	/* no symbol files but /exe, no kallsyms, no debuginfod: the input and /exe are read */
	struct pk_symbolizer_opts so = { .sz = sizeof(so), .kallsyms = "/nonexistent",
					 .kernel_notes = "/nonexistent", .buildid_dir = "",
					 .debug_dir = "/nonexistent", .perf_map_dir = "/nonexistent",
					 .symfs = symfs };
	struct pk_data_reader_opts ro = { .sz = sizeof(ro), .queue_bytes = 1 << 20 };
	struct pk_session_opts o = { .sz = sizeof(o), .symbolizer = &so, .reader = &ro,
				     .nr_threads = (data[0] & 2) ? 2 : 1, .max_stack = 64 };
	struct pk_error err = { 0 };
	for (int pass = 0; pass < 2; pass++) {
		int fd = mem_fd(bytes, len);
		struct pk_session *s = NULL;
		if (!pk_session__open_fd(&s, fd, "fuzz", &o, &err)) {
			if (!pass) {
				print_all(s, devnull);
			} else {
				struct pk_profile *p;
				if (!pk_profile__new(&p)) {
					(void)pk_session__fill_profile(s, p, NULL, &err);
					pk_profile__free(p);
				}
			}
			pk_session__free(s);
		}
		close(fd);
	}
	free(buf);
	return 0;
}
