/* SPDX-License-Identifier: MIT */
/*
 * data/writer/buildid.c — build-ids of the DSOs that got samples: the GNU build-id
 * note of an ELF file (libelf: PT_NOTE segments, else SHT_NOTE sections),
 * the kernel's from the raw note list in /sys/kernel/notes (a module's,
 * named "[name]", in /sys/module/name/notes/.note.gnu.build-id), and the BUILD_ID
 * feature section (file mode) or PERF_RECORD_HEADER_BUILD_ID records (pipe
 * mode) perf reads: header, pid, 20 id bytes + size byte, the file name
 * padded to 8.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/bytes.h"
#include "data/writer/write_int.h"

#define KERNEL_NAME "[kernel.kallsyms]"
#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static int note_build_id(Elf_Data *data, unsigned char *id, size_t len)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off, next;

	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4)) {
			size_t n = nh.n_descsz < len ? nh.n_descsz : len;
			memcpy(id, (const char *)data->d_buf + desc_off, n);
			return (int)n;
		}
		off = next;
	}
	return -ENOENT;
}

int pkw_elf_build_id(const char *path, unsigned char *id, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r = -ENOENT;

	if (fd < 0)
		return -errno;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return -EINVAL;
	}
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		r = -ENOEXEC;
		goto out;
	}
	size_t nph = 0;
	if (elf_getphdrnum(e, &nph) == 0) {
		for (size_t i = 0; i < nph && r < 0; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			Elf_Data *d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
							   ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
			if (d)
				r = note_build_id(d, id, len);
		}
	}
	for (Elf_Scn *s = NULL; r < 0 && (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		if (d)
			r = note_build_id(d, id, len);
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return r;
}

int pkw_notes_build_id(const unsigned char *p, size_t n, unsigned char *id, size_t len)
{
	size_t off = 0;

	/* Elf_Nhdr: namesz, descsz, type; name and desc each padded to 4 */
	while (off + 12 <= n) {
		uint32_t namesz = data_rd32(p + off), descsz = data_rd32(p + off + 4);
		uint32_t type = data_rd32(p + off + 8);
		size_t name = off + 12;
		size_t desc = name + ((namesz + 3u) & ~3u);
		size_t next = desc + ((descsz + 3u) & ~3u);
		if (desc < name || next < desc || next > n)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name, "GNU", 4)) {
			size_t k = descsz < len ? descsz : len;
			memcpy(id, p + desc, k);
			return (int)k;
		}
		off = next;
	}
	return -ENOENT;
}

/* the build-id in the raw notes file SYSROOT/rel (the kernel's, a module's) */
static int notes_file_build_id(struct pk_data_writer *w, const char *rel, unsigned char *id,
			       size_t len)
{
	char path[PATH_MAX];
	unsigned char buf[4096];
	int fd = open(pkw_path(w, rel, path, sizeof(path)), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	size_t n = 0;
	for (ssize_t r; n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) != 0;) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	return pkw_notes_build_id(buf, n, id, len);
}

static bool is_kernel(const struct pkw_dso *d)
{
	return !strcmp(d->filename, KERNEL_NAME) || d->filename[0] == '[' ||
	       (d->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
}

int pkw_build_ids(struct pk_data_writer *w, struct pk_buf *b, bool as_records)
{
	for (size_t i = 0; i < w->nr_dsos; i++) {
		const struct pkw_dso *d = &w->dsos[i];
		struct pk_perf_build_id_record rec;
		unsigned char id[20];
		const char *name = d->filename;
		int n;

		memset(&rec, 0, sizeof(rec));
		if (is_kernel(d) && !strcmp(name, KERNEL_NAME)) {
			n = notes_file_build_id(w, "sys/kernel/notes", id, sizeof(id));
		} else if (name[0] == '[') {
			/* a module by name ("[ext4]"): its notes in sysfs; [vdso] and others: none */
			char rel[300];
			size_t l = strlen(name);
			if (!is_kernel(d) || l < 3 || name[l - 1] != ']' || strchr(name, '/'))
				continue;
			snprintf(rel, sizeof(rel), "sys/module/%.*s/notes/.note.gnu.build-id",
				 (int)(l - 2 < 200 ? l - 2 : 200), name + 1);
			n = notes_file_build_id(w, rel, id, sizeof(id));
		} else {
			char path[PATH_MAX];
			n = pkw_elf_build_id(pkw_path(w, name, path, sizeof(path)), id, sizeof(id));
		}
		if (n <= 0)
			continue;
		/*
		 * The record (36 bytes) and the name: perf pads the name to 8 in
		 * the file's table, and the whole record to 8 as a pipe's record.
		 */
		size_t nlen = strlen(name) + 1;
		size_t padded = as_records ? ((sizeof(rec) + nlen + 7) & ~(size_t)7) - sizeof(rec)
					   : (nlen + 7) & ~(size_t)7;
		if (sizeof(rec) + padded > PKW_MAX_RECORD)
			continue;
		if (as_records)
			rec.header.type = PK_RECORD_HEADER_BUILD_ID;
		rec.header.misc = d->misc | PK_RECORD_MISC_BUILD_ID_SIZE;
		rec.header.size = (uint16_t)(sizeof(rec) + padded);
		rec.pid = d->pid;
		memcpy(rec.build_id, id, (size_t)n);
		rec.build_id[20] = (uint8_t)n;
		static const char zeros[8];
		if (pk_buf__append(b, &rec, sizeof(rec)) < 0 || pk_buf__append(b, name, nlen) < 0 ||
		    pk_buf__append(b, zeros, padded - nlen) < 0)
			return -ENOMEM;
	}
	return 0;
}
