/* SPDX-License-Identifier: MIT */
/*
 * symbol/elf.c — ELF files for the symbolizer (libelf): opening (file or
 * memory), sections by name, the GNU build-id note, .gnu_debuglink,
 * MiniDebugInfo (.gnu_debugdata, xz) and the symbols perf 6.1 keeps from
 * .symtab/.dynsym: functions (STT_FUNC, STT_GNU_IFUNC), objects, and
 * visible NOTYPE labels in text/data sections; never undefined, absolute or
 * non-allocated ones; addresses moved to file offsets by their PT_LOAD
 * (p_vaddr - p_offset; else their section's sh_addr - sh_offset); then
 * `name@plt` for each .rela.plt/.rel.plt entry, at .plt's file offset past
 * its header, as perf synthesizes them.
 */
#include "symbol/symbol_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>

#include "util/grow.h"

/* MiniDebugInfo is small (tens of KiB to a few MiB): refuse to inflate past this */
#define MINIDEBUG_MAX (256u << 20)

static int elf_ready(void)
{
	return elf_version(EV_CURRENT) == EV_NONE ? -EINVAL : 0;
}

static int finish_open(struct pk_elf *e, const char *path)
{
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &e->ehdr)) {
		pkelf__close(e);
		return -ENOEXEC;
	}
	e->path = strdup(path);
	if (!e->path) {
		pkelf__close(e);
		return -ENOMEM;
	}
	return 0;
}

int pkelf__open(struct pk_elf *e, const char *path)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	if (elf_ready())
		return -EINVAL;
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		return -errno;
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	return finish_open(e, path);
}

int pkelf__open_mem(struct pk_elf *e, void *mem, size_t len, const char *name)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->mem = mem;
	e->mem_len = len;
	if (elf_ready()) {
		pkelf__close(e);
		return -EINVAL;
	}
	e->elf = elf_memory(mem, len);
	return finish_open(e, name);
}

void pkelf__close(struct pk_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->mem);
	free(e->path);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

Elf_Scn *pkelf__section(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		/* cppcheck-suppress uninitvar ; gelf_getshdr fills *sh (nothing is read before) */
		GElf_Shdr tmp, *sh = shdr ? shdr : &tmp;
		if (!gelf_getshdr(scn, sh))
			continue;
		const char *n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

int pkelf__build_id(Elf *elf, uint8_t *out)
{
	/* perf looks in these sections, in this order */
	static const char *const secs[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *scn = NULL;
	for (size_t i = 0; i < 3 && !scn; i++)
		scn = pkelf__section(elf, secs[i], NULL, NULL);
	if (!scn)
		return -1;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return -1;
	GElf_Nhdr nh;
	size_t off = 0, noff, doff;
	while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
			/* perf keeps the descriptor rounded up to 4 bytes, at most 20 */
			size_t sz = (nh.n_descsz + 3) & ~3u;
			if (sz > PK_BUILD_ID_MAX)
				sz = PK_BUILD_ID_MAX;
			if (doff + sz > d->d_size)
				return -1;
			memcpy(out, (char *)d->d_buf + doff, sz);
			return (int)sz;
		}
	}
	return -1;
}

char *pkelf__debuglink(Elf *elf)
{
	Elf_Scn *scn = pkelf__section(elf, ".gnu_debuglink", NULL, NULL);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d || !d->d_buf || !d->d_size)
		return NULL;
	return strndup(d->d_buf, d->d_size);
}

int pkelf__minidebuginfo(struct pk_elf *e, struct pk_elf *out)
{
	GElf_Shdr sh;
	Elf_Scn *scn = pkelf__section(e->elf, ".gnu_debugdata", &sh, NULL);
	if (!scn || sh.sh_type == SHT_NOBITS)
		return -ENOENT;
	Elf_Data *d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf || !d->d_size)
		return -ENOENT;
	lzma_stream z = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&z, MINIDEBUG_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	size_t cap = d->d_size * 4 + 4096, len = 0;
	unsigned char *buf = malloc(cap);
	int rc = -EINVAL;
	z.next_in = d->d_buf;
	z.avail_in = d->d_size;
	while (buf) {
		z.next_out = buf + len;
		z.avail_out = cap - len;
		lzma_ret r = lzma_code(&z, LZMA_FINISH);
		len = cap - z.avail_out;
		if (r == LZMA_STREAM_END) {
			rc = 0;
			break;
		}
		if (r != LZMA_OK && r != LZMA_BUF_ERROR)
			break;
		if (z.avail_out) /* input ended early */
			break;
		if (cap >= MINIDEBUG_MAX)
			break;
		if (PK_GROW(buf, cap, cap + 1)) {
			rc = -ENOMEM;
			break;
		}
	}
	lzma_end(&z);
	if (rc || !buf) {
		free(buf);
		return rc ? rc : -ENOMEM;
	}
	char name[4096];
	snprintf(name, sizeof(name), "%s[.gnu_debugdata]", e->path ? e->path : "");
	return pkelf__open_mem(out, buf, len, name);
}

uint64_t pkelf__text_offset(struct pk_elf *e)
{
	GElf_Shdr sh;
	if (pkelf__section(e->elf, ".text", &sh, NULL))
		return sh.sh_addr - sh.sh_offset;
	return 0;
}

/* perf's elf_read_program_header: the PT_LOAD holding vaddr */
static bool load_segment(Elf *elf, uint64_t vaddr, GElf_Phdr *out)
{
	size_t n;
	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, out) || out->p_type != PT_LOAD)
			continue;
		uint64_t sz = out->p_memsz > out->p_filesz ? out->p_memsz : out->p_filesz;
		if (sz && vaddr >= out->p_vaddr && vaddr < out->p_vaddr + sz)
			return true;
	}
	return false;
}

/* the symbol table section of this type, as perf's symsrc__init finds it */
static Elf_Scn *sym_section(Elf *elf, const char *name, Elf64_Word type, GElf_Shdr *sh,
			    size_t *idx)
{
	Elf_Scn *scn = pkelf__section(elf, name, sh, idx);
	return scn && sh->sh_type == type && sh->sh_entsize ? scn : NULL;
}

static int add_demangled(struct pk_sym_table *t, uint64_t start, uint64_t size, uint8_t bind,
			 uint8_t type, const char *name, const char *suffix, unsigned flags)
{
	char *dm = demangle__sym(name, flags);
	const char *n = dm ? dm : name;
	int r;
	if (suffix) {
		size_t a = strlen(n), b = strlen(suffix);
		char *full = malloc(a + b + 1);
		if (!full) {
			free(dm);
			return -ENOMEM;
		}
		memcpy(full, n, a);
		memcpy(full + a, suffix, b + 1);
		/* perf builds it in a 1024-byte buffer */
		r = symtab__add(t, start, size, bind, type, full, a + b < 1023 ? a + b : 1023);
		free(full);
	} else {
		r = symtab__add(t, start, size, bind, type, n, strlen(n));
	}
	free(dm);
	return r;
}

/* one symbol table (perf's dso__load_sym_internal for a user DSO) */
static int load_table(struct pk_sym_table *t, struct pk_elf *syms, struct pk_elf *rt,
		      Elf_Scn *scn, const GElf_Shdr *tsh, unsigned flags)
{
	Elf *elf = syms->elf;
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *strscn = elf_getscn(elf, tsh->sh_link);
	size_t shstr_sym, shstr_rt;
	if (!data || !strscn || elf_getshdrstrndx(elf, &shstr_sym) ||
	    elf_getshdrstrndx(rt->elf, &shstr_rt))
		return -EINVAL;
	size_t nr = tsh->sh_size / tsh->sh_entsize, added = 0;
	bool arm = syms->ehdr.e_machine == EM_ARM || syms->ehdr.e_machine == EM_AARCH64;
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym))
			break;
		int type = GELF_ST_TYPE(sym.st_info), vis = GELF_ST_VISIBILITY(sym.st_other);
		if (!sym.st_name || sym.st_shndx == SHN_UNDEF)
			continue;
		bool is_label = type == STT_NOTYPE && sym.st_shndx != SHN_ABS &&
				vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (!is_label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
			continue;
		const char *name = elf_strptr(elf, tsh->sh_link, sym.st_name);
		if (!name)
			continue;
		if (arm && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE)
			continue;
		Elf_Scn *sec = elf_getscn(elf, sym.st_shndx);
		GElf_Shdr sh;
		if (!sec || !gelf_getshdr(sec, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		size_t shstr = shstr_sym;
		if (sh.sh_type == SHT_NOBITS) {
			/* a debug file's section: the runtime binary's of that index has the offsets */
			Elf_Scn *rs = elf_getscn(rt->elf, sym.st_shndx);
			if (!rs || !gelf_getshdr(rs, &sh))
				continue;
			shstr = shstr_rt;
		}
		if (is_label) {
			const char *sn = elf_strptr(shstr == shstr_sym ? elf : rt->elf, shstr, sh.sh_name);
			if (!sn || (!strstr(sn, "text") && !strstr(sn, "data")))
				continue;
		}
		if (syms->ehdr.e_machine == EM_ARM && type == STT_FUNC && (sym.st_value & 1))
			sym.st_value--;
		GElf_Phdr ph;
		if (load_segment(rt->elf, sym.st_value, &ph))
			sym.st_value -= ph.p_vaddr - ph.p_offset;
		else
			sym.st_value -= sh.sh_addr - sh.sh_offset;
		int r = add_demangled(t, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
				      (uint8_t)type, name, NULL, flags);
		if (r)
			return r;
		added++;
	}
	if (added) {
		int r = symtab__fixup(t, false);
		if (r)
			return r;
	}
	return (int)added;
}

/* perf's dso__synthesize_plt_symbols */
static int synthesize_plt(struct pk_sym_table *t, struct pk_elf *rt, unsigned flags)
{
	Elf *elf = rt->elf;
	GElf_Shdr dynsh, relsh, pltsh;
	size_t dynidx;
	Elf_Scn *dyn = sym_section(elf, ".dynsym", SHT_DYNSYM, &dynsh, &dynidx);
	if (!dyn)
		return 0;
	Elf_Scn *rel = pkelf__section(elf, ".rela.plt", &relsh, NULL);
	if (!rel)
		rel = pkelf__section(elf, ".rel.plt", &relsh, NULL);
	if (!rel || relsh.sh_link != dynidx || !relsh.sh_entsize)
		return 0;
	if (!pkelf__section(elf, ".plt", &pltsh, NULL))
		return 0;
	Elf_Data *reld = elf_getdata(rel, NULL), *symd = elf_getdata(dyn, NULL);
	Elf_Scn *strs = elf_getscn(elf, dynsh.sh_link);
	Elf_Data *strd = strs ? elf_getdata(strs, NULL) : NULL;
	if (!reld || !symd || !strd || !strd->d_size)
		return 0;
	uint64_t hdr, ent;
	switch (rt->ehdr.e_machine) {
	case EM_ARM: hdr = 20; ent = 12; break;
	case EM_AARCH64: hdr = 32; ent = 16; break;
	case EM_SPARC: hdr = 48; ent = 12; break;
	case EM_SPARCV9: hdr = 128; ent = 32; break;
	default: hdr = ent = pltsh.sh_entsize; break;
	}
	uint64_t off = pltsh.sh_offset + hdr;
	size_t nr = relsh.sh_size / relsh.sh_entsize, added = 0;
	for (size_t i = 0; i < nr; i++) {
		size_t symidx;
		if (relsh.sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(reld, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else if (relsh.sh_type == SHT_REL) {
			GElf_Rel r;
			if (!gelf_getrel(reld, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			break;
		}
		GElf_Sym sym;
		const char *name = "";
		if (gelf_getsym(symd, (int)symidx, &sym) && sym.st_name < strd->d_size)
			name = (const char *)strd->d_buf + sym.st_name;
		int r = add_demangled(t, off, ent, STB_GLOBAL, STT_FUNC, name, "@plt", flags);
		if (r)
			return r;
		off += ent;
		added++;
	}
	return (int)added;
}

int pkelf__load_vmlinux_syms(struct pk_sym_table *t, struct pk_elf *e, const char *ref_sym,
			     uint64_t ref_addr, unsigned flags, uint64_t *reloc, uint64_t *text_start,
			     uint64_t *text_end)
{
	Elf *elf = e->elf;
	GElf_Shdr tsh, text;
	size_t text_idx, shstr;
	*reloc = 0;
	Elf_Scn *scn = sym_section(elf, ".symtab", SHT_SYMTAB, &tsh, NULL);
	if (!scn || !pkelf__section(elf, ".text", &text, &text_idx) || elf_getshdrstrndx(elf, &shstr))
		return -ENODATA;
	*text_start = text.sh_addr;
	*text_end = text.sh_addr + text.sh_size;
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data)
		return -EINVAL;
	size_t nr = tsh.sh_size / tsh.sh_entsize, added = 0;
	GElf_Sym sym;
	/* perf finds the relocation symbol first: the kernel map is moved by it */
	for (size_t i = 0; ref_sym && ref_addr && i < nr && gelf_getsym(data, (int)i, &sym); i++) {
		const char *name = sym.st_name ? elf_strptr(elf, tsh.sh_link, sym.st_name) : NULL;
		if (name && !strcmp(name, ref_sym)) {
			*reloc = ref_addr - sym.st_value;
			break;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		if (!gelf_getsym(data, (int)i, &sym))
			break;
		int type = GELF_ST_TYPE(sym.st_info), vis = GELF_ST_VISIBILITY(sym.st_other);
		if (!sym.st_name || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    sym.st_shndx != text_idx)
			continue;
		bool is_label = type == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (!is_label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
			continue;
		const char *name = elf_strptr(elf, tsh.sh_link, sym.st_name);
		if (!name)
			continue;
		if ((e->ehdr.e_machine == EM_ARM || e->ehdr.e_machine == EM_AARCH64) && name[0] == '$' &&
		    name[1] && strchr("adtx", name[1]) && (name[2] == '\0' || name[2] == '.'))
			continue;
		/* perf demangles kernel symbols only with --demangle-kernel */
		int r = add_demangled(t, sym.st_value + *reloc, sym.st_size, GELF_ST_BIND(sym.st_info),
				      (uint8_t)type, name, NULL, flags | PK_SYMBOLIZER_NO_DEMANGLE);
		if (r)
			return r;
		added++;
	}
	int r = added ? symtab__fixup(t, false) : 0;
	if (!r)
		r = symtab__finish(t);
	return r ? r : (int)added;
}

int pkelf__load_syms(struct pk_sym_table *t, struct pk_elf *syms, struct pk_elf *rt,
		     unsigned flags)
{
	GElf_Shdr sh;
	size_t idx;
	int total = 0, r;
	Elf_Scn *scn = sym_section(syms->elf, ".symtab", SHT_SYMTAB, &sh, &idx);
	if (scn) {
		if ((r = load_table(t, syms, rt, scn, &sh, flags)) < 0)
			return r;
		total += r;
	}
	scn = sym_section(syms->elf, ".dynsym", SHT_DYNSYM, &sh, &idx);
	if (scn) {
		if ((r = load_table(t, syms, rt, scn, &sh, flags)) < 0)
			return r;
		total += r;
	}
	if (total > 0) {
		if ((r = synthesize_plt(t, rt, flags)) < 0)
			return r;
		total += r;
	}
	if ((r = symtab__finish(t)))
		return r;
	return total;
}
