/* SPDX-License-Identifier: MIT */
/*
 * fuzz_session.c — libFuzzer target over the session layer and pmukit
 * script's printer: perf.data bytes → reader → session (threads, maps,
 * callchains, symbols) → perf script lines written to /dev/null, then the
 * same session's profile. Inputs whose first byte is odd are whole files;
 * even ones are records after a pipe header and one attr whose sample_type
 * and flags come from the next bytes, so that the fuzzer reaches the
 * session without having to find the file format first.
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

/* A pipe-mode header and one HEADER_ATTR record, then the fuzzer's bytes. */
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
	struct pk_perf_pipe_header ph = { PK_PERF_MAGIC2, sizeof(ph) };
	struct perf_event_header h = { .type = PK_RECORD_HEADER_ATTR, .misc = 0,
				       .size = (uint16_t)(sizeof(h) + sizeof(a)) };
	size_t n = sizeof(ph) + sizeof(h) + sizeof(a) + size;
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
	struct pk_resolved rs;
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
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	if (!size)
		return 0;
	size_t len = size - 1;
	uint8_t *buf = NULL;
	const uint8_t *bytes = data + 1;
	if (!(data[0] & 1)) {
		buf = synth(data, size, &len);
		bytes = buf;
	}
	/* no symbol files, no kallsyms, no debuginfod: only the input is read */
	struct pk_symbolizer_opts so = { .sz = sizeof(so), .kallsyms = "/nonexistent",
					 .kernel_notes = "/nonexistent", .buildid_dir = "",
					 .debug_dir = "/nonexistent", .perf_map_dir = "/nonexistent",
					 .symfs = "/nonexistent" };
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
