/* SPDX-License-Identifier: MIT */
/*
 * report_mkdata_chain.h — report_mkdata's `mixchain` kind (included by
 * report_mkdata.c): callchains whose siblings perf 6.1's match_chain does
 * not order, for tests/integration/report_chain_rb.sh. Eight processes map
 * this program's text at eight bases (as ASLR would), one page longer than
 * it is. Every sample's chain (fp, callee first) is a leaf in td_func1, a
 * middle frame and a root in td_func3; the middle frame is td_func2,
 * nodebug_pad, or an address past the end of the text (the map's, but no
 * symbol's). perf compares two symbols by their start, but a symbol and an
 * unresolved address by their raw ips, which differ from process to process:
 * the root's children are not in one order, and perf's red-black tree of
 * them can make a second node for one function. Then samples at unresolved
 * addresses of two DSOs (see below). The sequence is a fixed pseudo-random
 * one (the file is the same at every run).
 */
#define MIX_PROCS 8
#define MIX_SAMPLES 160
#define MIX_SHIFT 0x100000u	/* between two processes' bases */

static void mix_trailer(struct pk_buf *b, uint32_t pid, uint64_t time, uint64_t id)
{
	put32(b, pid), put32(b, pid);
	put64(b, time);
	put64(b, id);
}

/* COMM and MMAP2 (the text, 4096 bytes longer) of process pid, its text at s + shift */
static int mix_process(struct pk_buf *b, uint32_t pid, uint64_t shift, uint64_t id, uint64_t *end)
{
	size_t at = begin_rec(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32(b, pid), put32(b, pid);
	put_str(b, "mkdata");
	mix_trailer(b, pid, 1000, id);
	end_rec(b, at);
	struct pk_buf m = { 0 };
	int rc = put_mmap_of(&m, IP_SAMPLE_TYPE, id, (uintptr_t)funcs[0], 4096, end);
	if (!rc) {
		/* the same record for pid (header, pid, tid, start), at the shifted base */
		uint64_t s;
		memcpy(m.data + 8, &pid, 4);
		memcpy(m.data + 12, &pid, 4);
		memcpy(&s, m.data + 16, 8);
		s += shift;
		memcpy(m.data + 16, &s, 8);
		*end += shift;
		/* the trailer's TID (pid, tid), just before TIME and ID */
		memcpy(m.data + m.len - 24, &pid, 4);
		memcpy(m.data + m.len - 20, &pid, 4);
		pk_buf__append(b, m.data, m.len);
	}
	pk_buf__free(&m);
	return rc;
}

static int mixchain(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 250000, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 95, time = 2000, end[MIX_PROCS];
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("mixchain", &err);
	for (uint32_t p = 0; p < MIX_PROCS; p++)
		if (mix_process(b, 5000 + p, (uint64_t)p * MIX_SHIFT, id, &end[p]))
			return die("maps", NULL);
	uint32_t x = 12345;	/* a fixed LCG: the same file every run */
	for (int i = 0; i < MIX_SAMPLES; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t p = (x >> 16) % MIX_PROCS, kind = (x >> 8) % 3, off = (x >> 4) % 16;
		uint64_t shift = (uint64_t)p * MIX_SHIFT;
		uint64_t leaf = (uint64_t)(uintptr_t)funcs[0] + 1 + shift;
		uint64_t mid = kind == 0   ? (uint64_t)(uintptr_t)funcs[1] + 1 + shift
			       : kind == 1 ? (uint64_t)(uintptr_t)nodebug_pad + 4 * off + shift
					   : end[p] + 64 + 8 * off;
		uint64_t root = (uint64_t)(uintptr_t)funcs[2] + 2 + shift;
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, leaf);
		put32(b, 5000 + p), put32(b, 5000 + p);
		put64(b, time++);
		put64(b, id);
		put64(b, 250000);
		put64(b, 4);
		put64(b, PERF_CONTEXT_USER), put64(b, leaf), put64(b, mid), put64(b, root);
		end_rec(b, at);
	}
	/*
	 * Then samples at unresolved addresses of two "DSOs" (past the text: the
	 * program's; no map at all), beside the symbols above: under --sort sym
	 * (no DSO key) perf compares two of them by address, one of them and a
	 * symbol by DSO first, and its entries tree is no sort either.
	 */
	for (int i = 0; i < MIX_SAMPLES / 2; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t p = (x >> 16) % MIX_PROCS, off = (x >> 4) % 64;
		uint64_t ip = (x >> 8) % 2 ? end[p] + 64 + 8 * off : 0xffff0000u + 0x40 * (uint64_t)off;
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, ip);
		put32(b, 5000 + p), put32(b, 5000 + p);
		put64(b, time++);
		put64(b, id);
		put64(b, 250000);
		put64(b, 2);
		put64(b, PERF_CONTEXT_USER), put64(b, ip);
		end_rec(b, at);
	}
	return 0;
}

/*
 * mixsym: entries that perf 6.1's sort__sym_cmp does not order (--sort sym
 * without the DSO key, lib/report/replay.c), where its entries tree makes a
 * second entry for one address at a later sample. Eight processes as in
 * mixchain, each with a library that has no file (its addresses unresolved,
 * map-relative); samples at symbols of this program, at unresolved addresses
 * past its text, in the library and where nothing is mapped (raw), whose
 * values overlap. Each has a callchain: itself, a frame of the same kinds and
 * td_func3. A fixed pseudo-random sequence (the same file every run).
 */
#define MIXSYM_SAMPLES 600
#define MIXSYM_LIB 0x7f1000000000ull

static uint64_t mixsym_ip(uint32_t x, uint32_t p, const uint64_t *end)
{
	uint64_t shift = (uint64_t)p * MIX_SHIFT, off = (x >> 4) % 48;
	switch ((x >> 12) % 4) {
	case 0:
		return (uint64_t)(uintptr_t)funcs[(x >> 20) % 2] + 1 + shift;
	case 1:
		return end[p] + 64 + 8 * off;
	case 2:
		return MIXSYM_LIB + shift + 0x200 * off;
	default:
		return 0x1000 + 0x200 * off;	/* no map */
	}
}

static int mixsym(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 250000, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 96, time = 2000, end[MIX_PROCS];
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("mixsym", &err);
	for (uint32_t p = 0; p < MIX_PROCS; p++) {
		if (mix_process(b, 6000 + p, (uint64_t)p * MIX_SHIFT, id, &end[p]))
			return die("maps", NULL);
		size_t at = begin_rec(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		put32(b, 6000 + p), put32(b, 6000 + p);
		put64(b, MIXSYM_LIB + (uint64_t)p * MIX_SHIFT), put64(b, 0x10000), put64(b, 0);
		put64(b, 0), put64(b, 0), put64(b, 0);
		put32(b, 5), put32(b, 2);
		put_str(b, "/nonexistent/libmixsym.so");
		mix_trailer(b, 6000 + p, 1002, id);
		end_rec(b, at);
	}
	uint32_t x = 777;	/* a fixed LCG */
	for (int i = 0; i < MIXSYM_SAMPLES; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t p = (x >> 16) % MIX_PROCS;
		uint64_t self = mixsym_ip(x, p, end);
		x = x * 1103515245u + 12345u;
		uint64_t mid = mixsym_ip(x, p, end);
		uint64_t root = (uint64_t)(uintptr_t)funcs[2] + 2 + (uint64_t)p * MIX_SHIFT;
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, self);
		put32(b, 6000 + p), put32(b, 6000 + p);
		put64(b, time++);
		put64(b, id);
		put64(b, 250000);
		put64(b, 4);
		put64(b, PERF_CONTEXT_USER), put64(b, self), put64(b, mid), put64(b, root);
		end_rec(b, at);
	}
	return 0;
}
