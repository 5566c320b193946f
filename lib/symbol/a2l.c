/* SPDX-License-Identifier: MIT */
/*
 * symbol/a2l.c — binutils' addr2line outside the DWARF: the symbol-table
 * answer (elf_find_function: of the function-like symbols of the address's
 * section, the closest one at or below it, ties broken as its better_fit;
 * the STT_FILE before it as the file, for local symbols or while no file
 * followed a symbol) and the separate debug file (DEBUGDIR/.build-id/xx/
 * rest.debug, then .gnu_debuglink's name beside the file, in .debug/ and
 * under DEBUGDIR, its CRC32 checked).
 */
#include "symbol/a2l.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "util/bsearch.h"

bool a2l__has_dwarf(Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *s = pkelf__section(elf, ".debug_info", &sh, NULL);
	if (!s)
		s = pkelf__section(elf, ".zdebug_info", &sh, NULL);
	return s && sh.sh_type != SHT_NOBITS && sh.sh_size;
}

static bool crc_ok(const char *path, uint32_t want)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	unsigned char buf[65536];
	uLong crc = crc32(0, Z_NULL, 0);
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)r);
	close(fd);
	return r == 0 && (uint32_t)crc == want;
}

/* bfd's separate debug file: build-id link, then .gnu_debuglink (CRC checked) */
bool a2l__open_separate(struct pk_elf *file, struct pk_elf *dwfile, const struct pk_symbolizer *s)
{
	char path[4096];
	uint8_t bid[PK_BUILD_ID_MAX];
	int n = pkelf__build_id(file->elf, bid);
	if (n > 0) {
		char h[2 * PK_BUILD_ID_MAX + 1];
		for (int i = 0; i < n; i++)
			sprintf(h + 2 * i, "%02x", bid[i]);
		sym__path(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", s->debug_dir, h, h + 2);
		if (!pkelf__open(dwfile, path)) {
			if (a2l__has_dwarf(dwfile->elf))
				return true;
			pkelf__close(dwfile);
		}
	}
	GElf_Shdr sh;
	Elf_Scn *scn = pkelf__section(file->elf, ".gnu_debuglink", &sh, NULL);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d || !d->d_buf || d->d_size < 8)
		return false;
	const char *link = d->d_buf;
	size_t ll = strnlen(link, d->d_size);
	size_t crcoff = (ll + 4) & ~(size_t)3;
	if (ll == d->d_size || crcoff + 4 > d->d_size)
		return false;
	uint32_t crc;
	memcpy(&crc, (char *)d->d_buf + crcoff, 4);
	char dir[4096];
	const char *slash = strrchr(file->path, '/');
	sym__path(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file->path) : 1,
		 slash ? file->path : ".");
	for (int i = 0; i < 3; i++) {
		if (i == 0)
			sym__path(path, sizeof(path), "%s/%.*s", dir, (int)ll, link);
		else if (i == 1)
			sym__path(path, sizeof(path), "%s/.debug/%.*s", dir, (int)ll, link);
		else
			sym__path(path, sizeof(path), "%s%s/%.*s", s->debug_dir, dir, (int)ll, link);
		if (!strcmp(path, file->path) || !crc_ok(path, crc))
			continue;
		if (!pkelf__open(dwfile, path)) {
			if (a2l__has_dwarf(dwfile->elf))
				return true;
			pkelf__close(dwfile);
		}
	}
	return false;
}

static int cmp_bsym(const void *a, const void *b)
{
	const struct bsym *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* the symbols binutils' elf_find_function may pick, with their STT_FILE name */
int a2l__index_syms(Elf *elf, struct bsym **out, size_t *nr_out)
{
	GElf_Shdr sh;
	Elf_Scn *scn = pkelf__section(elf, ".symtab", &sh, NULL);
	if (!scn || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) {
		scn = pkelf__section(elf, ".dynsym", &sh, NULL);
		if (!scn || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			return 0;
	}
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return 0;
	size_t nr = sh.sh_size / sh.sh_entsize, n = 0;
	struct bsym *syms = calloc(nr ? nr : 1, sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	enum { NOTHING, SYMBOL, FILE_AFTER_SYMBOL } state = NOTHING;
	const char *file = NULL;
	for (size_t i = 1; i < nr; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			break;
		int type = GELF_ST_TYPE(s.st_info), bind = GELF_ST_BIND(s.st_info);
		const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (type == STT_FILE) {
			file = name;
			if (state == SYMBOL)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING)
			state = SYMBOL;
		if (type == STT_SECTION || type == STT_OBJECT || type == STT_TLS || type == STT_COMMON)
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE || !name)
			continue;
		if (!s.st_size && bind == STB_LOCAL && type == STT_NOTYPE &&
		    GELF_ST_VISIBILITY(s.st_other) == STV_HIDDEN)
			continue;
		syms[n++] = (struct bsym){
			.value = s.st_value, .size = s.st_size ? s.st_size : 1,
			.shndx = s.st_shndx, .name = name,
			.file = file && (bind == STB_LOCAL || state != FILE_AFTER_SYMBOL) ? file : NULL,
			.func = type == STT_FUNC || type == STT_GNU_IFUNC,
			.notype = type == STT_NOTYPE, .order = (unsigned)i,
		};
	}
	qsort(syms, n, sizeof(*syms), cmp_bsym);
	*out = syms;
	*nr_out = n;
	return 0;
}

/* --- symbol-table answers (binutils' elf_find_function) ----------------------- */

static bool bsym_at_or_below(const void *elem, const void *key)
{
	const struct bsym *s = elem, *k = key;
	return s->shndx < k->shndx || (s->shndx == k->shndx && s->value <= k->value);
}

const struct bsym *a2l__find_sym(const struct bsym *syms, size_t nr, size_t shndx, uint64_t pc)
{
	/* the last symbol of the section at or below pc */
	const struct bsym key = { .shndx = shndx, .value = pc };
	size_t lo = pk_bsearch(&key, syms, nr, sizeof(*syms), bsym_at_or_below);
	if (!lo || syms[lo - 1].shndx != shndx)
		return NULL;
	uint64_t v = syms[lo - 1].value;
	size_t first = lo - 1;
	while (first > 0 && syms[first - 1].shndx == shndx && syms[first - 1].value == v)
		first--;
	/* binutils' better_fit over the symbols at that address, in table order */
	const struct bsym *best = NULL;
	for (size_t i = first; i < lo; i++) {
		const struct bsym *s = &syms[i];
		bool take;
		if (!best) {
			take = true;
		} else if (best->value + best->size <= pc) {
			take = s->size > best->size;
		} else if (s->value + s->size <= pc) {
			take = false;
		} else if (best->func != s->func) {
			take = s->func;
		} else if (best->notype != s->notype) {
			take = best->notype;
		} else {
			take = s->size < best->size;
		}
		if (take)
			best = s;
	}
	return best;
}

