/* SPDX-License-Identifier: MIT */
/*
 * report_mkdata_foreign.h — report_mkdata's kinds for perf.data written on
 * other machines and by older perf and kernels (issue 18, foreign_files.sh):
 *
 *   armv7     as a 32-bit armv7 perf records a program (its path in
 *             $MK_ELFARM, the name the file gives it in $MK_ELFARM_AS: read
 *             with --symfs): HEADER_ARCH armv7l, 32-bit addresses, an MMAP2
 *             of the executable PT_LOAD, cpu-clock samples with callchains
 *             (user ones, and kernel ones under a "[kernel.kallsyms]_text"
 *             MMAP at 0xc0008000 whose symbols no file here has);
 *   armv7nog  the same program mapped by an MMAP (not MMAP2), samples without
 *             callchains, one past the mapping's end;
 *   perf3     the "old" file (a 64-byte attr without sample_id_all, MMAP, no
 *             sample ids) with only the feature sections perf 3.x wrote
 *             (up to GROUP_DESC; no AUXTRACE and later) and its CPU_TOPOLOGY
 *             without core and socket ids, its VERSION "3.16.7";
 *   perf2     the perf3 file with a header of the previous format (72 bytes: no
 *             feature bitmap, as perf before 2.6.3x wrote): no features read;
 *   oldbid    the perf3 file with kernel samples, its BUILD_ID section in the layout
 *             before the pid field ("[kernel.kallsyms]" first: perf's ABI quirk);
 *   perf1     the oldbid file as perf before 2.6.37 wrote it: magic "PERFFILE" (perf's
 *             header version 1, the byte order told by the attr size), only the
 *             TRACING_DATA and BUILD_ID feature bits;
 *   mmap2old  MMAP2 records without sample_id_all (no trailing sample id),
 *             as a file recorded with a 64-byte attr by a 3.16+ kernel; one
 *             of them with a 16-byte (md5) build id in the build-id layout;
 *   mmap2v313 the same, the program's MMAP2 without prot and flags (kernels
 *             3.12 to 3.15, perf 3.13 to 3.15).
 *
 * Included by report_mkdata.c after report_mkdata_old.h, whose helpers
 * (old_layout, feat_drop, topo_cut) and record helpers it uses.
 */
#ifndef PMUKIT_REPORT_MKDATA_FOREIGN_H
#define PMUKIT_REPORT_MKDATA_FOREIGN_H

/* the executable PT_LOAD of an ELF32 file: 0 or -1 */
static int elf32_text(const char *path, uint16_t machine, Elf32_Phdr *ph)
{
	Elf32_Ehdr eh;
	int fd = path ? open(path, O_RDONLY) : -1, rc = -1;
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS32 && eh.e_machine == machine)
		for (int i = 0; i < eh.e_phnum && rc; i++) {
			if (pread(fd, ph, sizeof(*ph), eh.e_phoff + (off_t)i * eh.e_phentsize) !=
			    (ssize_t)sizeof(*ph))
				break;
			if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
				rc = 0;
		}
	close(fd);
	return rc;
}

#define ARM_PID 1717
#define ARM_KTEXT 0xc0008000u

static void arm_trailer(struct pk_buf *b, uint64_t time, uint64_t id)
{
	put32(b, ARM_PID), put32(b, ARM_PID);
	put64(b, time);
	put64(b, id);
}

static int armv7(struct pk_data_writer *w, struct pk_buf *b, bool chains)
{
	struct pk_error err = { 0 };
	const char *path = getenv("MK_ELFARM"), *as = getenv("MK_ELFARM_AS");
	const uint64_t st = IP_SAMPLE_TYPE | (chains ? PERF_SAMPLE_CALLCHAIN : 0);
	uint64_t id = 71, time = 5000;
	Elf32_Phdr ph;
	if (elf32_text(path, EM_ARM, &ph))
		return die("MK_ELFARM: not an ARM ELF32 file with an executable PT_LOAD", NULL);
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000, .sample_type = st, .sample_id_all = 1, .disabled = 1,
		.inherit = 1, .mmap = 1, .comm = 1, .mmap2 = chains, .exclude_guest = 1,
	};
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("armv7", &err);
	size_t at = begin_rec(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put32(b, UINT32_MAX), put32(b, 0);
	put64(b, ARM_KTEXT), put64(b, 0x3ff8000), put64(b, 0);
	put_str(b, "[kernel.kallsyms]_text");
	put32(b, UINT32_MAX), put32(b, UINT32_MAX), put64(b, 0), put64(b, id);
	end_rec(b, at);
	at = begin_rec(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32(b, ARM_PID), put32(b, ARM_PID);
	put_str(b, "parm");
	arm_trailer(b, 1000, id);
	end_rec(b, at);
	uint64_t start = ph.p_vaddr & ~0xfffu, len = (ph.p_vaddr + ph.p_memsz - start + 0xfff) & ~0xfffu;
	at = begin_rec(b, chains ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	put32(b, ARM_PID), put32(b, ARM_PID);
	put64(b, start), put64(b, len), put64(b, ph.p_offset & ~0xfffu);
	if (chains) {
		put32(b, 179), put32(b, 2), put64(b, 1234), put64(b, 0);	/* maj, min, ino, gen */
		put32(b, 5), put32(b, 2);					/* prot, flags */
	}
	put_str(b, as ? as : path);
	arm_trailer(b, 1001, id);
	end_rec(b, at);
	uint32_t n = ph.p_memsz / 2;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ip = ph.p_vaddr + 2 * i;
		bool kernel = chains && i % 5 == 4;
		at = begin_rec(b, PERF_RECORD_SAMPLE, kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
		put64(b, kernel ? ARM_KTEXT + 0x1000 + 4 * i : ip);
		put32(b, ARM_PID), put32(b, ARM_PID);
		put64(b, time++);
		put64(b, id);
		put64(b, 100000);
		if (chains) {
			uint32_t c1 = ph.p_vaddr + (7 * i * 2 + 4) % ph.p_memsz;
			uint32_t c2 = ph.p_vaddr + (13 * i * 2 + 8) % ph.p_memsz;
			put64(b, kernel ? 6 : 4);
			if (kernel) {
				put64(b, PERF_CONTEXT_KERNEL);
				put64(b, ARM_KTEXT + 0x1000 + 4 * i), put64(b, ARM_KTEXT + 0x2345);
			}
			put64(b, PERF_CONTEXT_USER), put64(b, ip), put64(b, c1), put64(b, c2);
		}
		end_rec(b, at);
	}
	at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);	/* outside every map */
	put64(b, start + len + 0x10);
	put32(b, ARM_PID), put32(b, ARM_PID);
	put64(b, time++), put64(b, id), put64(b, 100000);
	if (chains)
		put64(b, 2), put64(b, PERF_CONTEXT_USER), put64(b, start + len + 0x10);
	end_rec(b, at);
	return 0;
}

/* the finished file's string section of feature bit (ARCH, VERSION) set to s, in its bytes */
static int feat_string(int fd, int bit, const char *s)
{
	uint64_t h[13], sec[2];
	uint32_t len;
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || !(h[9] >> bit & 1))
		return -1;
	uint64_t at = h[5] + h[6];
	for (int i = 0; i < bit; i++)
		at += (h[9] >> i & 1) * 16;
	if (pread(fd, sec, 16, (off_t)at) != 16 || pread(fd, &len, 4, (off_t)sec[0]) != 4 ||
	    strlen(s) >= len)
		return -1;
	char *p = calloc(1, len);
	if (!p)
		return -1;
	memcpy(p, s, strlen(s));
	int rc = pwrite(fd, p, len, (off_t)sec[0] + 4) == (ssize_t)len ? 0 : -1;
	free(p);
	return rc;
}

/*
 * The finished file's BUILD_ID section rewritten in the layout before the
 * pid field (perf before 2.6.35): header, build id, filename; the section
 * shorter by 4 bytes an entry.
 */
static int build_id_unpid(int fd)
{
	uint64_t h[13], sec[2];
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || !(h[9] >> 2 & 1))
		return -1;
	uint64_t at = h[5] + h[6] + (h[9] >> 1 & 1) * 16;	/* after TRACING_DATA's entry */
	if (pread(fd, sec, 16, (off_t)at) != 16)
		return -1;
	uint8_t *p = malloc(sec[1]), *q = malloc(sec[1]);
	size_t in = 0, out = 0;
	int rc = -1;
	if (!p || !q || pread(fd, p, sec[1], (off_t)sec[0]) != (ssize_t)sec[1])
		goto out;
	while (in + 8 <= sec[1]) {
		struct perf_event_header eh;
		memcpy(&eh, p + in, 8);
		if (eh.size < 36 || in + eh.size > sec[1])
			goto out;
		struct perf_event_header oh = { eh.type, (uint16_t)(eh.misc & ~(1u << 15)),
						(uint16_t)(eh.size - 4) };
		memcpy(q + out, &oh, 8);
		memcpy(q + out + 8, p + in + 12, eh.size - 12u);	/* build id, filename */
		in += eh.size, out += oh.size;
	}
	sec[1] = out;
	if (pwrite(fd, q, out, (off_t)sec[0]) == (ssize_t)out && pwrite(fd, sec, 16, (off_t)at) == 16)
		rc = 0;
out:
	free(p);
	free(q);
	return rc;
}

/* the old file, then samples in the kernel, and the kernel's and this program's build ids */
static int old_build_ids(struct pk_data_writer *w, struct pk_buf *b)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	uint64_t k = kernel_text(), time = 3000;
	if (n <= 0 || old_layout(w, b))
		return die("oldbid", NULL);
	self[n] = 0;
	size_t at = begin_rec(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);	/* no sample id */
	put32(b, UINT32_MAX), put32(b, 0);
	put64(b, k), put64(b, 0x1000000), put64(b, k);
	put_str(b, "[kernel.kallsyms]_text");
	end_rec(b, at);
	for (int i = 0; i < 3; i++) {
		at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
		put64(b, k + 0x40 * (uint64_t)i);
		put32(b, PID), put32(b, PID);
		put64(b, time++), put64(b, 250000);
		end_rec(b, at);
	}
	if (pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_KERNEL, "[kernel.kallsyms]") ||
	    pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_USER, self))
		return die("oldbid", NULL);
	return 0;
}

/* the finished file's header size set to the previous format's (the bitmap left out) */
static int hdr_no_features(int fd)
{
	uint64_t size = 72;	/* offsetof(struct perf_file_header, adds_features) */
	return pwrite(fd, &size, 8, 8) == 8 ? 0 : -1;
}

/* the MMAP2 record at mm without prot and flags, as kernels 3.12 to 3.15 wrote it */
static void mmap2_no_prot(struct pk_buf *b, size_t mm)
{
	size_t at = mm + 64;	/* header, pid, tid, addr, len, pgoff, maj, min, ino, ino_generation */
	memmove(b->data + at, b->data + at + 8, b->len - at - 8);
	b->len -= 8;
	end_rec(b, mm);
}

/*
 * MMAP2 records and samples of a file without sample_id_all: no trailing
 * sample id; v313: the first MMAP2 without prot and flags (perf 6.1 reads its
 * filename 8 bytes on, those 8 as prot and flags)
 */
static int mmap2_old(struct pk_data_writer *w, struct pk_buf *b, bool v313)
{
	struct pk_error err = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = PERF_ATTR_SIZE_VER0,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 250000, .sample_type = st,
		.disabled = 1, .inherit = 1, .mmap = 1, .comm = 1, .task = 1,
	};
	uint64_t id = 23, time = 2000;
	uint8_t bid[20] = { 0 };
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("mmap2old", &err);
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "mkdata");
	end_rec(b, at);
	/* put_mmap_of's MMAP2 with sample_type 0 (no trailer) */
	size_t m0 = b->len;
	if (put_mmap_of(b, 0, id, (uintptr_t)funcs[0], 0, NULL))
		return die("maps", NULL);
	if (v313)
		mmap2_no_prot(b, m0);
	/* a second thread whose libc map carries a 16-byte build id */
	at = begin_rec(b, PERF_RECORD_FORK, 0);
	put32(b, PID), put32(b, PID), put32(b, PID + 1), put32(b, PID), put64(b, 1500);
	end_rec(b, at);
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	uintptr_t lc = (uintptr_t)(h ? dlsym(h, "fopen") : NULL);
	size_t mm = b->len;
	if (!lc || put_mmap_of(b, 0, id, lc, 0, NULL))
		return die("libc's map", NULL);
	uint16_t misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy(b->data + mm + 4, &misc, 2);
	uint32_t tid = PID + 1;
	memcpy(b->data + mm + 12, &tid, 4);
	for (int i = 0; i < 16; i++)
		bid[i] = (uint8_t)(0x10 * i + 1);
	uint8_t f[24] = { 16 };
	memcpy(f + 4, bid, 16);
	memcpy(b->data + mm + 8 + 8 + 24, f, sizeof(f));
	for (int i = 0; i < 8; i++) {
		at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, i % 4 == 3 ? (uint64_t)lc + (uint64_t)i : (uint64_t)(uintptr_t)funcs[i % 3] + 1);
		put32(b, PID), put32(b, PID + (uint32_t)(i % 4 == 3));
		put64(b, time++);
		put64(b, 250000);
		end_rec(b, at);
	}
	return 0;
}

#endif
