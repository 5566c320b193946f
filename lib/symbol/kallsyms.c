/* SPDX-License-Identifier: MIT */
/*
 * symbol/kallsyms.c — kernel symbols as perf 6.1 reads them without a
 * vmlinux: /proc/kallsyms when the recorded kernel's build-id is the running
 * one's (/sys/kernel/notes) or when none was recorded, else the copy perf
 * record left in the build-id cache (~/.debug/[kernel.kallsyms]/BUILDID/
 * kallsyms), else nothing ([unknown]). Parsing: types T/W/D/B in either
 * case kept, '$' names dropped, "name\t[module]" lines kept with the module
 * cut off after the fix-ups (which stop a symbol at a kernel/module
 * boundary at the next page); addresses moved by the relocation between the
 * recorded and the current reference symbol (_text). Also perf-PID.map.
 */
#include "symbol/symbol_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/buf.h"

/* The whole file (procfs files have no size): malloc'd, NUL-terminated. */
static int slurp(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -EIO;
	}
	struct pk_buf b = { 0 };
	int rc = pk_buf__read_fd(&b, fd, 1 << 20);
	close(fd);
	if (rc) {
		pk_buf__free(&b);
		return rc;
	}
	*out = pk_buf__detach(&b, len);
	return *out ? 0 : -ENOMEM;
}

static int hexdig(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * The text to parse: all of it (fill NULL), or a file being read by another
 * thread, parsed as its lines arrive (struct kfill below).
 */
struct ktext {
	const char *p;
	size_t len;
	struct kfill *fill;
};

/*
 * A file read by a thread of its own into reserved address space (nothing
 * moves), while the caller parses what has arrived: /proc/kallsyms costs the
 * kernel about as much to print as it costs to parse, and the two overlap.
 */
struct kfill {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	pthread_t tid;
	bool threaded;
	int fd;
	char *buf;
	size_t cap;
	size_t len;		/* bytes read so far */
	bool done, stop;
	int err;
};

#define KFILL_RESERVE	((size_t)1 << 30)
#define KFILL_STEP	((size_t)64 << 10)

static void *kfill_run(void *p)
{
	struct kfill *f = p;
	size_t len = 0;
	int err = 0;
	for (;;) {
		pthread_mutex_lock(&f->lock);
		bool stop = f->stop;
		pthread_mutex_unlock(&f->lock);
		if (stop)
			break;
		size_t room = f->cap - len;
		if (!room) {
			err = -EFBIG;
			break;
		}
		ssize_t n = read(f->fd, f->buf + len, room < KFILL_STEP ? room : KFILL_STEP);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				err = errno ? -errno : -EIO;
			break;
		}
		len += (size_t)n;
		pthread_mutex_lock(&f->lock);
		f->len = len;
		pthread_cond_signal(&f->cv);
		pthread_mutex_unlock(&f->lock);
	}
	pthread_mutex_lock(&f->lock);
	f->len = len;
	f->err = err;
	f->done = true;
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static int kfill_start(struct kfill *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		int r = -errno;
		return r < 0 ? r : -EIO;
	}
	f->cap = KFILL_RESERVE;
	f->buf = mmap(NULL, f->cap, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f->buf == MAP_FAILED) {
		close(f->fd);
		return -ENOMEM;
	}
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cv, NULL);
	f->threaded = !pthread_create(&f->tid, NULL, kfill_run, f);
	if (!f->threaded)
		kfill_run(f);	/* no thread: read it all first */
	return 0;
}

/* The bytes read when more than have are, or the reading ended. */
static size_t kfill_wait(struct kfill *f, size_t have)
{
	pthread_mutex_lock(&f->lock);
	while (f->len <= have && !f->done)
		pthread_cond_wait(&f->cv, &f->lock);
	size_t n = f->len;
	pthread_mutex_unlock(&f->lock);
	return n;
}

/* Stop and wait for the reading; its error. */
static int kfill_end(struct kfill *f)
{
	if (f->threaded) {
		pthread_mutex_lock(&f->lock);
		f->stop = true;
		pthread_mutex_unlock(&f->lock);
		pthread_join(f->tid, NULL);
	}
	int err = f->err;
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->cv);
	munmap(f->buf, f->cap);
	close(f->fd);
	return err;
}

/* One line: a symbol added (or not), the reference symbol noted. */
static int parse_line(struct pk_sym_table *t, const char *p, const char *eol, const char *ref,
		      bool *ref_found, uint64_t *ref_addr)
{
	const char *q = p;
	uint64_t addr = 0;
	int h, nd = 0;
	while (q < eol && (h = hexdig((unsigned char)*q)) >= 0 && nd < 16) {
		addr = addr << 4 | (uint64_t)h;
		q++;
		nd++;
	}
	/* "ADDR T name[\t[mod]]" */
	if (!nd || q + 3 > eol || q[0] != ' ' || q[2] != ' ')
		return 0;
	char type = q[1];
	const char *name = q + 3;
	size_t nlen = (size_t)(eol - name);
	if (ref && !*ref_found && nlen == strlen(ref) && !memcmp(name, ref, nlen) &&
	    (type == 'T' || type == 't')) {
		*ref_addr = addr;
		*ref_found = true;
	}
	char up = (char)toupper((unsigned char)type);
	if ((up == 'T' || up == 'W' || up == 'D' || up == 'B') && nlen && name[0] != '$') {
		uint8_t bind = type == 'W' ? STB_WEAK : isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
		uint8_t st = (type == 't' || type == 'T' || type == 'w' || type == 'W') ? STT_FUNC : STT_OBJECT;
		if (nlen > 511)
			nlen = 511;	/* perf's KSYM_NAME_LEN */
		return symtab__add(t, addr, 0, bind, st, name, nlen);
	}
	return 0;
}

/*
 * kend (when not NULL): the end of the last symbol that is the kernel's own (no
 * "[module]"), after the fix-ups: where perf's kernel map ends once kallsyms is loaded
 * (map__fixup_end over the kernel DSO, modules split off), past _etext and the init text.
 */
static int parse_kallsyms(struct pk_sym_table *t, struct ktext *x, const char *ref,
			  uint64_t *ref_addr, uint64_t *kend)
{
	bool ref_found = false;
	size_t at = 0, len = x->fill ? kfill_wait(x->fill, 0) : x->len;
	for (;;) {
		const char *eol = at < len ? memchr(x->p + at, '\n', len - at) : NULL;
		if (!eol && x->fill) {	/* the rest of the line is still being read */
			size_t more = kfill_wait(x->fill, len);
			if (more > len) {
				len = more;
				continue;
			}
		}
		if (at >= len)
			break;
		if (!eol)
			eol = x->p + len;
		int r = parse_line(t, x->p + at, eol, ref, &ref_found, ref_addr);
		if (r)
			return r;
		at = (size_t)(eol - x->p) + 1;
	}
	int r = symtab__fixup(t, true);
	if (!r)
		r = symtab__finish(t);
	/* cut the "\t[module]" off the names */
	uint64_t last_start = 0;
	for (size_t i = 0; !r && i < t->nr; i++) {
		char *tab = strchr(t->syms[i].name, '\t');
		if (tab)
			*tab = '\0';
		else if (kend && (!*kend || t->syms[i].start >= last_start)) {
			last_start = t->syms[i].start;
			*kend = t->syms[i].end;
		}
	}
	return r;
}

int pk_sym_table__parse_kallsyms(struct pk_sym_table **out, const char *text, size_t len)
{
	struct pk_sym_table *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	symtab__init(t);
	struct ktext x = { .p = text, .len = len };
	int r = parse_kallsyms(t, &x, NULL, NULL, NULL);
	if (r) {
		pk_sym_table__free(t);
		return r;
	}
	*out = t;
	return 0;
}

/* perf's sysfs__read_build_id over /sys/kernel/notes: a sequence of ELF notes */
static int notes_build_id(const char *path, uint8_t *out)
{
	char *buf;
	size_t len;
	if (slurp(path, &buf, &len))
		return -1;
	int r = -1;
	size_t off = 0;
	while (off + 12 <= len) {
		uint32_t nsz, dsz, type;
		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t na = ((size_t)nsz + 3) & ~(size_t)3, da = ((size_t)dsz + 3) & ~(size_t)3;
		off += 12;
		if (na > len - off || da > len - off - na)
			break;
		if (type == NT_GNU_BUILD_ID && nsz == 4 && !memcmp(buf + off, "GNU", 4)) {
			size_t n = da < PK_BUILD_ID_MAX ? da : PK_BUILD_ID_MAX;
			memcpy(out, buf + off + na, n);
			r = (int)n;
			break;
		}
		off += na + da;
	}
	free(buf);
	return r;
}

/*
 * perf's dso__load_vmlinux: the symbols of -k's file (under --symfs), which
 * is then the kernel's symbol, source and code file; the kernel map ends
 * where its .text does (perf remaps it to .text).
 */
static int load_vmlinux(struct pk_dso *d)
{
	struct pk_symbolizer *s = d->owner;
	char path[4096];
	struct pk_elf e;
	dso__symfs_path(s, s->vmlinux, path, sizeof(path));
	int r = pkelf__open(&e, path);
	if (r)
		return r;
	uint64_t reloc, start, end;
	r = pkelf__load_vmlinux_syms(&d->syms, &e, d->ref_sym, d->ref_addr, s->o.flags, &reloc, &start,
				     &end);
	pkelf__close(&e);
	if (r < 0)
		return r;
	free(d->symsrc);
	free(d->runtime);
	d->symsrc = strdup(path);
	d->runtime = strdup(path);
	if (!d->symsrc || !d->runtime)
		return -ENOMEM;
	d->text_offset = (uint64_t)0 - reloc;	/* an address in the file: rip - reloc */
	d->kernel_end = end + reloc;
	return r ? 0 : -ENODATA;
}

int dso__load_kernel(struct pk_dso *d)
{
	struct pk_symbolizer *s = d->owner;
	char path[4096];
	const char *file = s->kallsyms;
	if (s->vmlinux)
		return load_vmlinux(d);
	/* perf: "do not try local files if a symfs was given" (vmlinux is not read here) */
	if (s->symfs[0])
		return -ENOENT;
	if (d->build_id_size) {
		uint8_t host[PK_BUILD_ID_MAX];
		int n = notes_build_id(s->kernel_notes, host);
		bool is_host = n > 0 && (size_t)n == d->build_id_size &&
			       !memcmp(host, d->build_id, (size_t)n);
		if (!is_host) {
			/* perf record's copy in the build-id cache, new then old layout */
			char h[2 * PK_BUILD_ID_MAX + 1];
			for (size_t i = 0; i < d->build_id_size; i++)
				sprintf(h + 2 * i, "%02x", d->build_id[i]);
			file = NULL;
			if (s->buildid_dir[0]) {
				sym__path(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", s->buildid_dir, h);
				if (access(path, F_OK)) {
					sym__path(path, sizeof(path), "%s/[kernel.kallsyms]/%s", s->buildid_dir, h);
					if (access(path, F_OK) == 0)
						file = path;
				} else {
					file = path;
				}
			}
			if (!file)
				return -EILSEQ;
		}
	}
	struct kfill f;
	int r = kfill_start(&f, file);
	if (r)
		return r;
	free(d->symsrc);
	d->symsrc = strdup(file);
	uint64_t now = 0;
	struct ktext x = { .p = f.buf, .fill = &f };
	d->kernel_end = 0;
	r = parse_kallsyms(&d->syms, &x, d->ref_sym, &now, &d->kernel_end);
	int rr = kfill_end(&f);
	if (r || (r = rr))
		return r;
	/* perf's kallsyms__delta: shift to the addresses of the recording (order and tree stay) */
	if (d->ref_sym && now && now != d->ref_addr) {
		uint64_t delta = now - d->ref_addr;
		for (size_t i = 0; i < d->syms.nr; i++) {
			d->syms.syms[i].start -= delta;
			d->syms.syms[i].end -= delta;
		}
		if (d->kernel_end)
			d->kernel_end -= delta;
	}
	return d->syms.nr ? 0 : -ENODATA;
}

/* --- perf-PID.map --------------------------------------------------------- */

/* perf's dso__load_perf_map, line by line ("START SIZE name", hex); bad lines skipped */
static int parse_perf_map(struct pk_sym_table *t, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char stackbuf[512];
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t ll = eol ? (size_t)(eol - p) + 1 : (size_t)(end - p);
		/* perf drops the line's last character, newline or not */
		size_t line_len = ll - 1;
		char *line = line_len < sizeof(stackbuf) ? stackbuf : malloc(line_len + 1);
		if (!line)
			return -ENOMEM;
		memcpy(line, p, line_len);
		line[line_len] = '\0';
		p += ll;
		char *e;
		size_t pos;
		unsigned long long start = strtoull(line, &e, 16), size;
		pos = (size_t)(e - line) + 1;
		if (pos + 2 >= line_len)
			goto next;
		size = strtoull(line + pos, &e, 16);
		pos = (size_t)(e - line) + 1;
		if (pos + 2 >= line_len)
			goto next;
		if (symtab__add(t, start, size, STB_GLOBAL, STT_FUNC, line + pos, strlen(line + pos))) {
			if (line != stackbuf)
				free(line);
			return -ENOMEM;
		}
next:
		if (line != stackbuf)
			free(line);
	}
	return symtab__finish(t);
}

int pk_sym_table__parse_perf_map(struct pk_sym_table **out, const char *text, size_t len)
{
	struct pk_sym_table *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	symtab__init(t);
	int r = parse_perf_map(t, text, len);
	if (r) {
		pk_sym_table__free(t);
		return r;
	}
	*out = t;
	return 0;
}

int dso__load_perf_map(struct pk_dso *d)
{
	struct pk_symbolizer *s = d->owner;
	char path[4096];
	const char *base = strrchr(d->name, '/');
	sym__path(path, sizeof(path), "%s%s", s->perf_map_dir, base ? base : d->name);
	char *buf;
	size_t len;
	int r = slurp(path, &buf, &len);
	if (r)
		return r;
	d->symsrc = strdup(path);
	r = parse_perf_map(&d->syms, buf, len);
	free(buf);
	if (r)
		return r;
	return d->syms.nr ? 0 : -ENODATA;
}

uint64_t pk_dso__kernel_end(struct pk_dso *d)
{
	if (!d || d->kind != PK_DSO_KERNEL || !pk_dso__nr_syms(d))	/* loads them */
		return 0;
	return d->kernel_end;
}

int pk_dso__kernel_reloc(struct pk_dso *d, const char *ref_sym, uint64_t recorded_addr)
{
	if (!d || d->kind != PK_DSO_KERNEL || !ref_sym)
		return -EINVAL;
	pthread_mutex_lock(&d->lock);
	int r = 0;
	if (atomic_load(&d->loaded)) {
		r = -EBUSY;
	} else {
		free(d->ref_sym);
		d->ref_sym = strdup(ref_sym);
		d->ref_addr = recorded_addr;
		r = d->ref_sym ? 0 : -ENOMEM;
	}
	pthread_mutex_unlock(&d->lock);
	return r;
}
