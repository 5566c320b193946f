/* SPDX-License-Identifier: MIT */
/*
 * report_mkdata_old.h — report_mkdata's kinds for perf.data from other
 * machines and perf versions (issue 18, foreign_files.sh): mem (data
 * sources), lbr (--call-graph lbr), old (no sample_id_all, MMAP), topo_old
 * and topo_nodie (older CPU_TOPOLOGY), elf32 (an i386 program), mmap2bid and
 * mmap2bad (MMAP2 with a build id), attrSIZE (older attr sizes), nodesc and
 * nofeat (feature sections older perf did not write). Included by
 * report_mkdata.c after its record helpers (put64, begin_rec, put_sideband,
 * put_ip_sample, cpu_clock_file, kernel_text, ...), which it uses.
 */
#ifndef PMUKIT_REPORT_MKDATA_OLD_H
#define PMUKIT_REPORT_MKDATA_OLD_H

#include <elf.h>

/* a perf_mem_data_src value from its fields (the uapi bit layout) */
#define DSRC(op, lvl, snoop, lock, dtlb, lvlnum, remote, snoopx, blk, hops)                      \
	((uint64_t)(op) | (uint64_t)(lvl) << 5 | (uint64_t)(snoop) << 19 | (uint64_t)(lock) << 24 | \
	 (uint64_t)(dtlb) << 26 | (uint64_t)(lvlnum) << 33 | (uint64_t)(remote) << 37 |            \
	 (uint64_t)(snoopx) << 38 | (uint64_t)(blk) << 40 | (uint64_t)(hops) << 43)

static const uint64_t mem_srcs[] = {
	0,						/* all zero: no field set */
	DSRC(1, 1, 1, 1, 1, 0, 0, 0, 1, 0),		/* every field N/A */
	DSRC(2, 0x0a, 2, 2, 0x0a, 0, 0, 0, 0, 0),	/* load, L1 hit, no snoop, L1 TLB hit */
	DSRC(2, 0x0a, 2, 1, 0x1a, 0, 0, 0, 0, 0),	/* TLB L1 or L2 hit, lock N/A */
	DSRC(4, 0x14, 4, 3, 0x0c, 0, 0, 0, 2, 0),	/* store, L2 miss, HitM, locked, blk data */
	DSRC(8, 0x42, 8, 0, 0x44, 0, 0, 0, 4, 0),	/* pfetch, L3 hit, miss, walker miss, blk addr */
	DSRC(16, 0x82, 0, 0, 0x40, 0, 0, 0, 6, 0),	/* exec, local RAM, fault, blk data+addr */
	DSRC(0, 0x102, 0x10, 0, 0x06, 0, 0, 1, 0, 0),	/* op 0, remote RAM 1 hop, HitM, Fwd */
	DSRC(2, 0x202, 2, 0, 0, 0, 0, 2, 0, 0),		/* remote RAM 2 hops, snoopx bit 2 */
	DSRC(2, 0x402, 6, 0, 2, 0, 0, 3, 0, 0),		/* remote cache 1 hop, None or Hit */
	DSRC(2, 0x802, 0, 0, 4, 0, 0, 0, 0, 0),		/* remote cache 2 hops, TLB miss */
	DSRC(2, 0x1002, 0, 0, 0, 0, 0, 0, 0, 0),	/* I/O */
	DSRC(2, 0x2002, 0, 0, 0, 0, 0, 0, 0, 0),	/* uncached */
	DSRC(2, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0),		/* L1 or LFB, hit */
	DSRC(2, 0x02c, 0x06, 0, 0x7e, 0, 0, 0, 0, 0),	/* 2 levels, every TLB: cut */
	DSRC(2, 0x02, 0, 0, 0, 1, 0, 0, 0, 0),		/* lvl_num L1, hit */
	DSRC(2, 0x02, 0, 0, 0, 2, 0, 0, 0, 0),		/* lvl_num L2 */
	DSRC(2, 0x04, 0, 0, 0, 3, 0, 0, 0, 0),		/* lvl_num L3, miss */
	DSRC(2, 0, 0, 0, 0, 4, 0, 0, 0, 0),		/* lvl_num L4, no hit/miss */
	DSRC(2, 0x02, 0, 0, 0, 9, 0, 0, 0, 0),		/* lvl_num 9 (CXL in later kernels) */
	DSRC(2, 0x02, 0, 0, 0, 0xa, 0, 0, 0, 0),	/* lvl_num 10 (I/O in later kernels) */
	DSRC(2, 0x02, 0, 0, 0, 0xb, 0, 0, 0, 0),	/* any cache */
	DSRC(2, 0x02, 0, 0, 0, 0xc, 0, 0, 0, 0),	/* LFB */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 0, 0, 0, 0),	/* RAM */
	DSRC(2, 0x02, 0, 0, 0, 0xe, 0, 0, 0, 0),	/* PMEM */
	DSRC(2, 0x02, 0, 0, 0, 0xf, 0, 0, 0, 0),	/* lvl_num N/A */
	DSRC(2, 0x02, 0, 0, 0, 5, 0, 0, 0, 0),		/* lvl_num 5 (unnamed in 6.1) */
	DSRC(2, 0x42, 0, 0, 0, 3, 1, 0, 0, 0),		/* remote L3 */
	DSRC(2, 0x02, 0, 0, 0, 3, 1, 0, 0, 1),		/* remote, hops 1 */
	DSRC(2, 0x82, 0, 0, 0, 0xd, 1, 0, 0, 2),	/* remote RAM, hops 2 */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 1, 0, 0, 3),	/* hops 3 */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 1, 0, 0, 4),	/* hops 4 */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 0, 0, 0, 1),	/* hops without remote */
	DSRC(2, 0x02, 0, 0, 0, 0, 1, 0, 0, 0),		/* remote without lvl_num */
	DSRC(3, 0x03, 3, 3, 3, 0xf, 0, 0, 7, 0),	/* N/A plus more in every field */
	DSRC(0x1f, 0x3, 0x7, 3, 3, 0xf, 1, 3, 7, 4),	/* most bits */
	DSRC(0x1f, 0x3, 3, 3, 3, 0xf, 1, 3, 7, 4) | 0xffffull << 48,	/* reserved bits too */
};

static int mem(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
			    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x1cd, .config1 = 3,
		.sample_period = 4000, .sample_type = st, .sample_id_all = 1, .precise_ip = 3,
		.exclude_kernel = 1,
	};
	uint64_t id = 66, time = 2000;
	if (pk_data_writer__add_attr(w, &a, "cpu/mem-loads,ldlat=30/P", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("mem", &err);
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (size_t s = 0; s < sizeof(mem_srcs) / sizeof(mem_srcs[0]); s++) {
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, (uint64_t)(uintptr_t)funcs[s % 3] + 3);
		put32(b, PID), put32(b, PID);
		put64(b, time++);
		put64(b, 0x7ffd1000 + 64 * s);		/* ADDR */
		put64(b, id);
		put64(b, 4000);
		put64(b, 30 + 7 * s);			/* WEIGHT */
		put64(b, mem_srcs[s]);			/* DATA_SRC */
		put64(b, 0x1234000 + 8 * s);		/* PHYS_ADDR */
		end_rec(b, at);
	}
	return 0;
}

static int lbr(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(a), .config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 100003, .sample_type = st, .sample_id_all = 1, .exclude_kernel = 1,
		.exclude_callchain_user = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
				      PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
				      PERF_SAMPLE_BRANCH_HW_INDEX,
	};
	uint64_t id = 44, time = 2000;
	const uint64_t pad = (uint64_t)(uintptr_t)nodebug_pad, k = kernel_text();
	if (pk_data_writer__add_attr(w, &a, "cycles:u", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("lbr", &err);
	put_kernel_mmap(b, st, id, k, 0x1000000, k, "[kernel.kallsyms]_text");
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (int s = 0; s < 8; s++) {
		uint64_t f0 = (uint64_t)(uintptr_t)funcs[s % 3], f1 = (uint64_t)(uintptr_t)funcs[(s + 1) % 3];
		bool kernel = s % 4 == 3, no_user = s == 7;
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE,
				      kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
		put64(b, kernel ? k + 0x100 + (uint64_t)s : f0 + 2);
		put32(b, PID), put32(b, PID);
		put64(b, time++);
		put64(b, id);
		put64(b, 100003);
		if (no_user) {		/* a kernel chain only */
			put64(b, 3), put64(b, PERF_CONTEXT_KERNEL);
			put64(b, k + 0x107), put64(b, k + 0x200);
		} else if (kernel) {
			put64(b, 5), put64(b, PERF_CONTEXT_KERNEL);
			put64(b, k + 0x103), put64(b, k + 0x300);
			put64(b, PERF_CONTEXT_USER), put64(b, f0 + 6);
		} else {
			put64(b, 2), put64(b, PERF_CONTEXT_USER), put64(b, f0 + 2);
		}
		uint64_t nr = 1 + (uint64_t)(s % 3);	/* 1 to 3 calls */
		put64(b, nr);
		put64(b, (uint64_t)s);			/* hw_idx */
		for (uint64_t e = 0; e < nr; e++) {
			uint64_t from = e == 0 ? f1 + 5 : e == 1 ? pad + 17 * (uint64_t)s : f0 + 9;
			uint64_t to = e == 0 ? f0 + (uint64_t)s % 2 : e == 1 ? f1 : pad;
			put64(b, from), put64(b, to), put64(b, 0);
		}
		end_rec(b, at);
	}
	return 0;
}

static int old_layout(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = PERF_ATTR_SIZE_VER0,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 250000, .sample_type = st,
		.disabled = 1, .inherit = 1, .mmap = 1, .comm = 1, .task = 1,
	};
	uint64_t id = 21, time = 2000;
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("old", &err);
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "mkdata");
	end_rec(b, at);
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352];
	uintptr_t fa = (uintptr_t)funcs[0];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int n = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &s, &e, &off, &n) != 3 || fa < s ||
		    fa >= e)
			continue;
		char *p = line + n;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = 0;
		at = begin_rec(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
		put32(b, PID), put32(b, PID);
		put64(b, s), put64(b, e - s), put64(b, off);
		put_str(b, p);
		end_rec(b, at);
		break;
	}
	if (f)
		fclose(f);
	at = begin_rec(b, PERF_RECORD_FORK, 0);
	put32(b, PID), put32(b, PID), put32(b, PID + 1), put32(b, PID), put64(b, 1500);
	end_rec(b, at);
	for (int i = 0; i < 7; i++) {
		at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, (uint64_t)(uintptr_t)funcs[i % 3] + 1 + (uint64_t)i);
		put32(b, PID), put32(b, PID + (uint32_t)(i % 2));
		put64(b, time++);
		put64(b, 250000);
		end_rec(b, at);
	}
	at = begin_rec(b, PERF_RECORD_EXIT, 0);
	put32(b, PID), put32(b, PID), put32(b, PID + 1), put32(b, PID), put64(b, time);
	end_rec(b, at);
	return 0;
}

static int elf32(struct pk_data_writer *w, struct pk_buf *b, const char *path)
{
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	uint64_t id = 37, time = 2000;
	int fd = path ? open(path, O_RDONLY) : -1;
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS32)
		return die("MK_ELF32: not an ELF32 file", NULL);
	bool found = false;
	for (int i = 0; i < eh.e_phnum && !found; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) !=
		    (ssize_t)sizeof(ph))
			break;
		found = ph.p_type == PT_LOAD && (ph.p_flags & PF_X);
	}
	close(fd);
	if (!found)
		return die("MK_ELF32: no executable PT_LOAD", NULL);
	if (cpu_clock_file(w, id, "elf32"))
		return 1;
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "prog32");
	put_trailer(b, IP_SAMPLE_TYPE, 1000, id);
	end_rec(b, at);
	uint64_t start = ph.p_vaddr & ~0xfffu, len = (ph.p_vaddr + ph.p_memsz - start + 0xfff) & ~0xfffu;
	at = begin_rec(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(b, PID), put32(b, PID);
	put64(b, start), put64(b, len), put64(b, ph.p_offset & ~0xfffu);
	put64(b, 0), put64(b, 0), put64(b, 0);
	put32(b, 5), put32(b, 2);
	put_str(b, path);
	put_trailer(b, IP_SAMPLE_TYPE, 1001, id);
	end_rec(b, at);
	for (uint64_t a = ph.p_vaddr; a < ph.p_vaddr + ph.p_memsz; a += 4)
		put_ip_sample(b, a, time++, id);
	put_ip_sample(b, start + len + 0x10, time++, id);
	return 0;
}

/* this program's GNU build id (its PT_NOTE segments read from /proc/self/exe); size or 0 */
static size_t self_build_id(uint8_t id[20])
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t got = 0;
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
		goto out;
	for (int i = 0; i < eh.e_phnum && !got; i++) {
		uint8_t note[1024];
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
			    (ssize_t)sizeof(ph) || ph.p_type != PT_NOTE || ph.p_filesz > sizeof(note) ||
		    pread(fd, note, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
			continue;
		for (size_t at = 0; at + sizeof(Elf64_Nhdr) <= ph.p_filesz;) {
			Elf64_Nhdr nh;
			memcpy(&nh, note + at, sizeof(nh));
			size_t name = at + sizeof(nh), desc = name + ((nh.n_namesz + 3) & ~3u);
			if (desc + nh.n_descsz > ph.p_filesz)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz <= 20 &&
			    !memcmp(note + name, "GNU", 4)) {
				memcpy(id, note + desc, nh.n_descsz);
				got = nh.n_descsz;
				break;
			}
			at = desc + ((nh.n_descsz + 3) & ~3u);
		}
	}
out:
	if (fd >= 0)
		close(fd);
	return got;
}

static int mmap2_build_id(struct pk_data_writer *w, struct pk_buf *b, bool wrong)
{
	uint64_t id = 38, time = 2000;
	uint8_t bid[20] = { 0 };
	size_t n = self_build_id(bid);
	if (!n)
		return die("no build id in this program", NULL);
	if (wrong)
		bid[0] ^= 0xff;
	if (cpu_clock_file(w, id, "mmap2bid"))
		return 1;
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "mkdata");
	put_trailer(b, IP_SAMPLE_TYPE, 1000, id);
	end_rec(b, at);
	/* put_mmap_of's record, then its maj..ino_generation replaced by the build id */
	size_t mm = b->len;
	if (put_mmap_of(b, IP_SAMPLE_TYPE, id, (uintptr_t)funcs[0], 0, NULL))
		return die("maps", NULL);
	uint16_t misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy(b->data + mm + 4, &misc, 2);
	uint8_t f[24] = { (uint8_t)n };
	memcpy(f + 4, bid, n);
	memcpy(b->data + mm + 8 + 8 + 24, f, sizeof(f));
	for (int i = 0; i < 6; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[i % 3] + 1 + (uint64_t)i, time++, id);
	return 0;
}

static int attr_sized(struct pk_data_writer *w, struct pk_buf *b, uint32_t size)
{
	struct pk_error err = { 0 };
	/* a size past this perf_event_attr's (newer perf's 136) is read from the bytes after it */
	union {
		struct perf_event_attr attr;
		uint8_t bytes[256];
	} u = { .bytes = { 0 } };
	struct perf_event_attr *ap = &u.attr;
	*ap = (struct perf_event_attr){
		.type = PERF_TYPE_SOFTWARE, .size = size, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 250000, .sample_type = IP_SAMPLE_TYPE, .sample_id_all = 1,
		.disabled = 1, .inherit = 1, .exclude_hv = 1, .mmap = 1, .comm = 1,
	};
	uint64_t id = 31, id2 = 32, time = 2000;
	if (size > sizeof(u))
		return die("attr size", NULL);
	if (pk_data_writer__add_attr(w, ap, "cpu-clock", &id, 1, &err))
		return die("attr", &err);
	ap->config = PERF_COUNT_SW_TASK_CLOCK, ap->mmap = 0, ap->comm = 0;
	if (pk_data_writer__add_attr(w, ap, "task-clock", &id2, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("attr", &err);
	if (put_sideband(b, IP_SAMPLE_TYPE, id))
		return die("maps", NULL);
	for (int i = 0; i < 9; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[i % 3] + 1 + (uint64_t)i, time++,
			      i % 2 ? id2 : id);
	return 0;
}

/* bytes of a string list (u32 nr, then u32 len + string each) at p, or 0 */
static size_t str_list_len(const uint8_t *p, size_t left)
{
	uint32_t nr, len;
	size_t at = 4;
	if (left < 4)
		return 0;
	memcpy(&nr, p, 4);
	for (uint32_t i = 0; i < nr; i++) {
		if (left - at < 4)
			return 0;
		memcpy(&len, p + at, 4);
		at += 4 + len;
		if (at > left)
			return 0;
	}
	return at;
}

/*
 * The finished file's CPU_TOPOLOGY section (feature bit 13) made shorter in
 * the feature table: to the sibling lists (before_ids) or to the core and
 * socket ids (no die lists), as older perf versions wrote it.
 */
static int topo_cut(int fd, bool before_ids)
{
	uint64_t h[13], sec[2];
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || !(h[9] >> 13 & 1))
		return -1;
	uint64_t at = h[5] + h[6];		/* data offset + size: the feature table */
	for (int bit = 0; bit < 13; bit++)
		at += (h[9] >> bit & 1) * 16;
	if (pread(fd, sec, 16, (off_t)at) != 16)
		return -1;
	uint8_t *p = malloc(sec[1]);
	if (!p || pread(fd, p, sec[1], (off_t)sec[0]) != (ssize_t)sec[1]) {
		free(p);
		return -1;
	}
	size_t n = str_list_len(p, sec[1]), m = n ? str_list_len(p + n, sec[1] - n) : 0;
	free(p);
	if (!m)
		return -1;
	/* the ids: one u32 core id and one u32 socket id per available cpu */
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	sec[1] = before_ids ? n + m : n + m + 8 * (uint64_t)cpus;
	return pwrite(fd, sec, 16, (off_t)at) == 16 ? 0 : -1;
}


/*
 * The finished file without the feature sections in drop (a bitmap of the
 * first 64 bits), as a perf that did not write them: their bits cleared and
 * their entries taken out of the feature table (the sections' bytes stay).
 */
static int feat_drop(int fd, uint64_t drop)
{
	uint64_t h[13], sec[2];
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return -1;
	uint64_t from = h[5] + h[6], to = from;	/* the feature table: after the data */
	for (int bit = 0; bit < 64; bit++) {
		if (!(h[9] >> bit & 1))
			continue;
		if (pread(fd, sec, 16, (off_t)from) != 16)
			return -1;
		from += 16;
		if (drop >> bit & 1)
			continue;
		if (pwrite(fd, sec, 16, (off_t)to) != 16)
			return -1;
		to += 16;
	}
	for (int w = 1; w < 4; w++)	/* the bits past 64 follow them unchanged */
		for (int bit = 0; bit < 64; bit++) {
			if (!(h[9 + w] >> bit & 1))
				continue;
			if (pread(fd, sec, 16, (off_t)from) != 16 || pwrite(fd, sec, 16, (off_t)to) != 16)
				return -1;
			from += 16, to += 16;
		}
	h[9] &= ~drop;
	return pwrite(fd, &h[9], 8, 9 * 8) == 8 ? 0 : -1;
}

#endif
