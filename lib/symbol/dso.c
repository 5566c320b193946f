/* SPDX-License-Identifier: MIT */
/*
 * symbol/dso.c — the symbolizer and its DSOs: a map (MMAP/MMAP2) to the DSO
 * perf would use for it (anonymous executable memory: /tmp/perf-PID.map;
 * [vdso]; the kernel; a file), one DSO per (name, build-id), loaded once on
 * first use under its lock; and the search for a user DSO's symbol files in
 * perf 6.1's order: .gnu_debuglink, the build-id cache (~/.debug), the
 * distributions' debug directories, the file itself (all under --symfs),
 * then (not perf 6.1) MiniDebugInfo and debuginfod. A file whose build-id
 * differs from the recorded one is never used.
 */
#include "symbol/symbol_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/opts.h"

static char *dup_or(const char *s, const char *def)
{
	return strdup(s ? s : def);
}

int pk_symbolizer__new(struct pk_symbolizer **out, const struct pk_symbolizer_opts *opts,
		       struct pk_error *err)
{
	*out = NULL;
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_symbolizer_opts", opts->sz);
	struct pk_symbolizer *s = calloc(1, sizeof(*s));
	if (!s)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	PK_OPTS_LOAD(&s->o, opts);
	char home[4096];
	const char *h = getenv("HOME");
	snprintf(home, sizeof(home), "%s/.debug", h && *h ? h : "");
	s->symfs = dup_or(s->o.symfs, "");
	s->buildid_dir = dup_or(s->o.buildid_dir, h && *h ? home : "");
	s->debug_dir = dup_or(s->o.debug_dir, "/usr/lib/debug");
	s->kallsyms = dup_or(s->o.kallsyms, "/proc/kallsyms");
	s->kernel_notes = dup_or(s->o.kernel_notes, "/sys/kernel/notes");
	s->perf_map_dir = dup_or(s->o.perf_map_dir, "/tmp");
	if (s->o.vmlinux && !(s->vmlinux = strdup(s->o.vmlinux))) {
		pk_symbolizer__free(s);
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	s->nr_tab = 256;
	s->tab = calloc(s->nr_tab, sizeof(*s->tab));
	if (!s->symfs || !s->buildid_dir || !s->debug_dir || !s->kallsyms || !s->kernel_notes ||
	    !s->perf_map_dir || !s->tab) {
		pk_symbolizer__free(s);
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	pthread_mutex_init(&s->lock, NULL);
	*out = s;
	return 0;
}

static void dso_free(struct pk_dso *d)
{
	pthread_mutex_destroy(&d->lock);
	symtab__fini(&d->syms);
	srcline__free(d->src);
	free(d->name);
	free(d->short_name);
	free(d->symsrc);
	free(d->runtime);
	free(d->ref_sym);
	free(d);
}

void pk_symbolizer__free(struct pk_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->tab && i < s->nr_tab; i++) {
		for (struct pk_dso *d = s->tab[i], *n; d; d = n) {
			n = d->hnext;
			dso_free(d);
		}
	}
	if (s->tab)
		pthread_mutex_destroy(&s->lock);
	debuginfod__free(s);
	pk_arena__free(&s->arena);
	free(s->tab);
	free(s->symfs);
	free(s->buildid_dir);
	free(s->debug_dir);
	free(s->kallsyms);
	free(s->kernel_notes);
	free(s->perf_map_dir);
	free(s->vmlinux);
	free(s);
}

bool sym__path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len;
}

void dso__symfs_path(const struct pk_symbolizer *s, const char *path, char *buf, size_t len)
{
	sym__path(buf, len, "%s%s", s->symfs, path);
}

static uint32_t dso_hash(enum pk_dso_kind kind, const char *name, const uint8_t *bid, size_t n, int pid)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ bid[i]) * 16777619u;
	return (h ^ (uint32_t)pid) * 16777619u;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* find or create, under s->lock */
static struct pk_dso *dso_get(struct pk_symbolizer *s, enum pk_dso_kind kind, const char *name,
			      const uint8_t *bid, size_t n, int pid)
{
	if (n > PK_BUILD_ID_MAX)
		n = PK_BUILD_ID_MAX;
	if (!bid)
		n = 0;
	uint32_t h = dso_hash(kind, name, bid, n, pid);
	pthread_mutex_lock(&s->lock);
	struct pk_dso *d = s->tab[h % s->nr_tab];
	for (; d; d = d->hnext)
		if (d->hash == h && d->kind == kind && d->pid == pid && d->key_build_id_size == n &&
		    (!n || !memcmp(d->key_build_id, bid, n)) && !strcmp(d->name, name))
			break;
	if (!d && (d = calloc(1, sizeof(*d)))) {
		d->owner = s;
		d->kind = kind;
		d->hash = h;
		d->pid = pid;
		d->build_id_size = d->key_build_id_size = n;
		if (n) {
			memcpy(d->build_id, bid, n);
			memcpy(d->key_build_id, bid, n);
		}
		d->name = strdup(name);
		/*
		 * perf's short name (dso__set_basename): the basename of any name, a
		 * relative one too ("[JIT] tid PID" for a perf map); "[...]" names have no '/'
		 */
		int tid;
		char jit[64];
		if (sscanf(name, "/tmp/perf-%d.map", &tid) == 1) {
			snprintf(jit, sizeof(jit), "[JIT] tid %d", tid);
			d->short_name = strdup(jit);
		} else {
			d->short_name = strdup(base_name(name));
		}
		pthread_mutex_init(&d->lock, NULL);
		symtab__init(&d->syms);
		if (!d->name || !d->short_name) {
			dso_free(d);
			d = NULL;
		} else {
			if (s->nr_dsos + 1 > s->nr_tab * 2) {
				/* grow: rehash every chain */
				size_t nn = s->nr_tab * 4;
				struct pk_dso **t = calloc(nn, sizeof(*t));
				if (t) {
					for (size_t i = 0; i < s->nr_tab; i++)
						for (struct pk_dso *e = s->tab[i], *nx; e; e = nx) {
							nx = e->hnext;
							e->hnext = t[e->hash % nn];
							t[e->hash % nn] = e;
						}
					free(s->tab);
					s->tab = t;
					s->nr_tab = nn;
				}
			}
			d->hnext = s->tab[h % s->nr_tab];
			s->tab[h % s->nr_tab] = d;
			d->order = s->nr_dsos++;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return d;
}

uint64_t pk_sym_map__map_ip(const struct pk_sym_map *m, uint64_t ip)
{
	const char *f = m->filename ? m->filename : "";
	bool anon = !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
		    !strncmp(f, "/anon_hugepage", 14) || (m->flags & MAP_HUGETLB);
	bool nodso = !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
	if (m->kernel || anon || nodso)
		return ip;
	if (!strcmp(f, "[vdso]"))
		return ip - m->start;	/* perf maps the vdso with pgoff 0 */
	return ip - m->start + m->pgoff;
}

struct pk_dso *pk_symbolizer__map_dso(struct pk_symbolizer *s, const struct pk_sym_map *m)
{
	const char *f = m->filename ? m->filename : "";
	if (m->kernel || !strncmp(f, "[kernel.kallsyms]", 17))
		return pk_symbolizer__kernel(s, m->build_id, m->build_id_size);
	bool anon = !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
		    !strncmp(f, "/anon_hugepage", 14) || (m->flags & MAP_HUGETLB);
	bool nodso = !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
	if ((anon || nodso) && (m->prot & PROT_EXEC)) {
		char name[64];
		snprintf(name, sizeof(name), "/tmp/perf-%d.map", m->pid);
		return dso_get(s, PK_DSO_PERF_MAP, name, NULL, 0, m->pid);
	}
	if (anon || nodso)
		return dso_get(s, PK_DSO_ANON, f, NULL, 0, 0);
	if (!strcmp(f, "[vdso]"))
		return dso_get(s, PK_DSO_VDSO, f, m->build_id, m->build_id_size, 0);
	if (!strncmp(f, "/tmp/perf-", 10))
		return dso_get(s, PK_DSO_PERF_MAP, f, NULL, 0, m->pid);
	return dso_get(s, PK_DSO_USER, f, m->build_id, m->build_id_size, 0);
}

struct pk_dso *pk_symbolizer__kernel(struct pk_symbolizer *s, const uint8_t *bid, size_t n)
{
	return dso_get(s, PK_DSO_KERNEL, "[kernel.kallsyms]", bid, n, 0);
}

struct pk_dso *pk_symbolizer__dso(struct pk_symbolizer *s, const char *path, const uint8_t *bid,
				  size_t n)
{
	struct pk_sym_map m = { .filename = path, .build_id = bid, .build_id_size = n,
				.prot = PROT_EXEC };
	return pk_symbolizer__map_dso(s, &m);
}

/* --- loading ---------------------------------------------------------------- */

static bool regular_file(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/* perf's build-id cache entry: .build-id/xx/rest, a file (old layout) or a directory with `what` */
static bool buildid_cache_path(const struct pk_symbolizer *s, const struct pk_dso *d,
			       const char *what, char *buf, size_t len)
{
	if (!d->build_id_size || !s->buildid_dir[0])
		return false;
	char h[2 * PK_BUILD_ID_MAX + 1];
	hex(d->build_id, d->build_id_size, h);
	sym__path(buf, len, "%s/.build-id/%.2s/%s", s->buildid_dir, h, h + 2);
	if (regular_file(buf))
		return true;
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "/%s", what);
	return true;
}

/*
 * Open path as a candidate symbol file: an ELF whose build-id (when the
 * DSO has one) is the DSO's. -EILSEQ on a mismatch.
 */
static int open_candidate(struct pk_dso *d, const char *path, struct pk_elf *e)
{
	if (!regular_file(path))
		return -ENOENT;
	int r = pkelf__open(e, path);
	if (r)
		return r;
	if (d->build_id_size) {
		uint8_t bid[PK_BUILD_ID_MAX];
		int n = pkelf__build_id(e->elf, bid);
		if (n <= 0 || (size_t)n != d->build_id_size || memcmp(bid, d->build_id, (size_t)n)) {
			pkelf__close(e);
			return -EILSEQ;
		}
	}
	return 0;
}

static bool has_section(Elf *elf, const char *name, Elf64_Word type)
{
	GElf_Shdr sh;
	return pkelf__section(elf, name, &sh, NULL) && sh.sh_type == type;
}

/* candidate file names, perf 6.1's binary_type_symtab order for a user DSO */
enum { C_DEBUGLINK, C_BUILDID_CACHE, C_BUILDID_CACHE_DEBUG, C_FEDORA, C_UBUNTU, C_BUILDID_DEBUG,
       C_SYSTEM, C_OPENEMBEDDED, C_MIXEDUP_UBUNTU, C_NR };

static bool candidate(struct pk_dso *d, int which, char *buf, size_t len)
{
	struct pk_symbolizer *s = d->owner;
	const char *ln = d->name;
	char h[2 * PK_BUILD_ID_MAX + 1];
	switch (which) {
	case C_DEBUGLINK: {
		char path[4096], dir[4096];
		dso__symfs_path(s, ln, path, sizeof(path));
		const char *slash = strrchr(path, '/');
		sym__path(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
		if (!regular_file(path))
			return false;
		struct pk_elf e;
		if (pkelf__open(&e, path))
			return false;
		char *link = pkelf__debuglink(e.elf);
		pkelf__close(&e);
		if (!link)
			return false;
		/* perf's debuglink_paths: as is (relative to the cwd), dir/, dir/.debug/, debug dir */
		bool found = false;
		for (int i = 0; i < 4 && !found; i++) {
			if (i == 0)
				sym__path(buf, len, "%s", link);
			else if (i == 1)
				sym__path(buf, len, "%s/%s", dir, link);
			else if (i == 2)
				sym__path(buf, len, "%s/.debug/%s", dir, link);
			else
				sym__path(buf, len, "%s%s/%s", s->debug_dir, dir, link);
			found = regular_file(buf);
		}
		free(link);
		return found;
	}
	case C_BUILDID_CACHE:
		return buildid_cache_path(s, d, d->kind == PK_DSO_VDSO ? "vdso" : "elf", buf, len);
	case C_BUILDID_CACHE_DEBUG:
		return buildid_cache_path(s, d, "debug", buf, len);
	case C_FEDORA:
		sym__path(buf, len, "%s%s%s.debug", s->symfs, s->debug_dir, ln);
		return true;
	case C_UBUNTU:
		sym__path(buf, len, "%s%s%s", s->symfs, s->debug_dir, ln);
		return true;
	case C_BUILDID_DEBUG:
		if (!d->build_id_size)
			return false;
		hex(d->build_id, d->build_id_size, h);
		sym__path(buf, len, "%s%s/.build-id/%.2s/%s.debug", s->symfs, s->debug_dir, h, h + 2);
		return true;
	case C_SYSTEM:
		dso__symfs_path(s, ln, buf, len);
		return true;
	case C_OPENEMBEDDED: {
		const char *slash = strrchr(ln, '/');
		if (!slash)
			return false;
		sym__path(buf, len, "%s%.*s/.debug%s", s->symfs, (int)(slash - ln), ln, slash);
		return true;
	}
	case C_MIXEDUP_UBUNTU:
		if (strncmp(ln, "/usr/lib/", 9))
			return false;
		sym__path(buf, len, "%s%s%s", s->symfs, s->debug_dir, ln + 4);
		return true;
	}
	return false;
}

/* the vdso of this process, copied (perf uses its own when the cache has none) */
static int own_vdso(struct pk_elf *e)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return -ENOENT;
	const GElf_Ehdr *eh = (const GElf_Ehdr *)base;
	/* the image ends with its section headers */
	size_t len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (len < sizeof(*eh) || len > (1u << 20))
		return -EINVAL;
	void *copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, (const void *)base, len);
	return pkelf__open_mem(e, copy, len, "[vdso]");
}

/* no recorded build-id: the file's own (perf reads it from the symfs path) */
static void own_build_id(struct pk_dso *d)
{
	char path[4096];
	struct pk_elf e;
	if (d->build_id_size || d->kind != PK_DSO_USER || !regular_file(d->name))
		return;
	dso__symfs_path(d->owner, d->name, path, sizeof(path));
	if (!pkelf__open(&e, path)) {
		int n = pkelf__build_id(e.elf, d->build_id);
		if (n > 0)
			d->build_id_size = (size_t)n;
		pkelf__close(&e);
	}
}

/* the files a DSO's symbols come from: the symbol table's (syms) and the runtime one (rt) */
struct picks {
	struct pk_elf ss[4];	/* opened; closed by picks_close */
	int nss;
	struct pk_elf *syms, *rt;
	int err;		/* why none, when none */
};

static void picks_close(struct picks *pk)
{
	for (int i = 0; i < pk->nss; i++)
		pkelf__close(&pk->ss[i]);
}

/* perf's candidates in its order, until both are found */
static void pick_candidates(struct pk_dso *d, struct picks *pk)
{
	char path[4096];
	for (int c = 0; c < C_NR && !(pk->syms && pk->rt); c++) {
		if (d->kind == PK_DSO_VDSO && c != C_BUILDID_CACHE)
			continue;
		if (!candidate(d, c, path, sizeof(path)))
			continue;
		struct pk_elf *e = &pk->ss[pk->nss];
		int r = open_candidate(d, path, e);
		if (r) {
			if (r == -EILSEQ || (r == -ENOEXEC && pk->err == -ENOENT))
				pk->err = r;
			continue;
		}
		bool used = false;
		if (!pk->syms && has_section(e->elf, ".symtab", SHT_SYMTAB)) {
			pk->syms = e;
			used = true;
			free(d->symsrc);
			d->symsrc = strdup(path);
		}
		if (!pk->rt && (has_section(e->elf, ".dynsym", SHT_DYNSYM) ||
				has_section(e->elf, ".opd", SHT_PROGBITS))) {
			pk->rt = e;
			used = true;
		}
		if (used) {
			if (c == C_SYSTEM || c == C_BUILDID_CACHE) {
				free(d->runtime);
				d->runtime = strdup(path);
			}
			pk->nss++;
		} else {
			pkelf__close(e);
			if (pk->err == -ENOENT)
				pk->err = -ENODATA;
		}
	}
}

/* a [vdso] not found: this process's own stands in when its build-id is the recorded one */
static void pick_own_vdso(struct pk_dso *d, struct picks *pk)
{
	struct pk_elf *e = &pk->ss[pk->nss];
	if (d->kind != PK_DSO_VDSO || pk->syms || pk->rt || own_vdso(e))
		return;
	uint8_t bid[PK_BUILD_ID_MAX];
	int n = pkelf__build_id(e->elf, bid);
	if (d->build_id_size && (n <= 0 || (size_t)n != d->build_id_size ||
				 memcmp(bid, d->build_id, (size_t)n))) {
		pkelf__close(e);
		pk->err = -EILSEQ;
	} else {
		pk->syms = pk->rt = e;
		pk->nss++;
	}
}

/* not perf 6.1: debuginfod, when asked for */
static void pick_debuginfod(struct pk_dso *d, struct picks *pk)
{
	struct pk_symbolizer *s = d->owner;
	if (pk->syms || !(s->o.flags & PK_SYMBOLIZER_DEBUGINFOD) || !d->build_id_size)
		return;
	char *p = debuginfod__find(s, d->build_id, d->build_id_size, true);
	struct pk_elf *e = &pk->ss[pk->nss];
	if (p && !open_candidate(d, p, e)) {
		if (has_section(e->elf, ".symtab", SHT_SYMTAB)) {
			pk->syms = e;
			pk->nss++;
			free(d->symsrc);
			d->symsrc = p;
			p = NULL;
		} else {
			pkelf__close(e);
		}
	}
	free(p);
	if (!pk->rt && (p = debuginfod__find(s, d->build_id, d->build_id_size, false))) {
		if (!open_candidate(d, p, &pk->ss[pk->nss]))
			pk->rt = &pk->ss[pk->nss++];
		free(p);
	}
}

int dso__load_user(struct pk_dso *d)
{
	unsigned flags = d->owner->o.flags;
	struct picks pk = { .err = -ENOENT };
	struct pk_elf mini;
	memset(&mini, 0, sizeof(mini));
	mini.fd = -1;
	own_build_id(d);
	pick_candidates(d, &pk);
	pick_own_vdso(d, &pk);
	pick_debuginfod(d, &pk);
	/* not perf 6.1 either: MiniDebugInfo */
	if (!pk.syms && pk.rt && !(flags & PK_SYMBOLIZER_NO_MINIDEBUGINFO) &&
	    !pkelf__minidebuginfo(pk.rt, &mini) && has_section(mini.elf, ".symtab", SHT_SYMTAB))
		pk.syms = &mini;
	if (!pk.syms && !pk.rt) {
		picks_close(&pk);
		return pk.err;
	}
	if (!pk.syms)
		pk.syms = pk.rt;
	if (!pk.rt)
		pk.rt = pk.syms;
	d->text_offset = pkelf__text_offset(pk.rt);
	int n = pkelf__load_syms(&d->syms, pk.syms, pk.rt, flags);
	picks_close(&pk);
	pkelf__close(&mini);
	if (n < 0)
		return n;
	return n ? 0 : -ENODATA;
}

/* --- access ------------------------------------------------------------------- */

static void ensure_loaded(struct pk_dso *d)
{
	if (atomic_load_explicit(&d->loaded, memory_order_acquire))
		return;
	pthread_mutex_lock(&d->lock);
	if (!atomic_load_explicit(&d->loaded, memory_order_relaxed)) {
		switch (d->kind) {
		case PK_DSO_USER:
		case PK_DSO_VDSO:
			d->load_error = dso__load_user(d);
			break;
		case PK_DSO_KERNEL:
			d->load_error = dso__load_kernel(d);
			break;
		case PK_DSO_PERF_MAP:
			d->load_error = dso__load_perf_map(d);
			break;
		case PK_DSO_ANON:
			d->load_error = -ENODATA;
			break;
		}
		atomic_store_explicit(&d->loaded, true, memory_order_release);
	}
	pthread_mutex_unlock(&d->lock);
}

bool pk_dso__loaded(const struct pk_dso *d)
{
	return d && atomic_load_explicit(&d->loaded, memory_order_acquire);
}

const struct pk_sym *pk_dso__find(struct pk_dso *d, uint64_t rip)
{
	if (!d)
		return NULL;
	ensure_loaded(d);
	return symtab__find(&d->syms, rip);
}

size_t pk_dso__nr_syms(struct pk_dso *d)
{
	if (!d)
		return 0;
	ensure_loaded(d);
	return d->syms.nr;
}

const struct pk_sym *pk_dso__sym(struct pk_dso *d, size_t i)
{
	return i < pk_dso__nr_syms(d) ? &d->syms.syms[i] : NULL;
}

const char *pk_dso__name(const struct pk_dso *d)
{
	return d ? d->name : NULL;
}

uint64_t pk_dso__order(const struct pk_dso *d)
{
	return d ? d->order : 0;
}

const char *pk_dso__short_name(const struct pk_dso *d)
{
	return d ? d->short_name : NULL;
}

const char *pk_dso__symsrc(struct pk_dso *d)
{
	if (!d)
		return NULL;
	ensure_loaded(d);
	return d->symsrc;
}

const char *pk_dso__runtime(struct pk_dso *d)
{
	if (!d)
		return NULL;
	ensure_loaded(d);
	return d->runtime;
}

enum pk_dso_kind pk_dso__kind(const struct pk_dso *d)
{
	return d->kind;
}

int pk_dso__load_error(struct pk_dso *d)
{
	if (!d)
		return -EINVAL;
	ensure_loaded(d);
	return d->load_error;
}

uint64_t pk_dso__objdump_addr(struct pk_dso *d, uint64_t rip)
{
	/* the kernel's: 0, or a vmlinux's relocation taken back */
	if (!d || (d->kind != PK_DSO_USER && d->kind != PK_DSO_VDSO && d->kind != PK_DSO_KERNEL))
		return rip;
	ensure_loaded(d);
	return rip + d->text_offset;
}
