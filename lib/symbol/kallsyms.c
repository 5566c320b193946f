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

static int parse_kallsyms(struct pk_sym_table *t, const char *p, size_t len, const char *ref,
			  uint64_t *ref_addr)
{
	const char *end = p + len;
	bool ref_found = false;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		uint64_t addr = 0;
		int h, nd = 0;
		while (q < eol && (h = hexdig((unsigned char)*q)) >= 0 && nd < 16) {
			addr = addr << 4 | (uint64_t)h;
			q++;
			nd++;
		}
		/* "ADDR T name[\t[mod]]" */
		if (nd && q + 3 <= eol && q[0] == ' ' && q[2] == ' ') {
			char type = q[1];
			const char *name = q + 3;
			size_t nlen = (size_t)(eol - name);
			if (ref && !ref_found && nlen == strlen(ref) && !memcmp(name, ref, nlen) &&
			    (type == 'T' || type == 't')) {
				*ref_addr = addr;
				ref_found = true;
			}
			char up = (char)toupper((unsigned char)type);
			if ((up == 'T' || up == 'W' || up == 'D' || up == 'B') && nlen && name[0] != '$') {
				uint8_t bind = type == 'W' ? STB_WEAK : isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
				uint8_t st = (type == 't' || type == 'T' || type == 'w' || type == 'W') ? STT_FUNC : STT_OBJECT;
				if (nlen > 511)
					nlen = 511;	/* perf's KSYM_NAME_LEN */
				int r = symtab__add(t, addr, 0, bind, st, name, nlen);
				if (r)
					return r;
			}
		}
		p = eol + 1;
	}
	int r = symtab__fixup(t, true);
	if (!r)
		r = symtab__finish(t);
	/* cut the "\t[module]" off the names */
	for (size_t i = 0; !r && i < t->nr; i++) {
		char *tab = strchr(t->syms[i].name, '\t');
		if (tab)
			*tab = '\0';
	}
	return r;
}

int pk_sym_table__parse_kallsyms(struct pk_sym_table **out, const char *text, size_t len)
{
	struct pk_sym_table *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	symtab__init(t);
	int r = parse_kallsyms(t, text, len, NULL, NULL);
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

int dso__load_kernel(struct pk_dso *d)
{
	struct pk_symbolizer *s = d->owner;
	char path[4096];
	const char *file = s->kallsyms;
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
	char *buf;
	size_t len;
	int r = slurp(file, &buf, &len);
	if (r)
		return r;
	free(d->symsrc);
	d->symsrc = strdup(file);
	uint64_t now = 0;
	r = parse_kallsyms(&d->syms, buf, len, d->ref_sym, &now);
	free(buf);
	if (r)
		return r;
	/* perf's kallsyms__delta: shift to the addresses of the recording (order and tree stay) */
	if (d->ref_sym && now && now != d->ref_addr) {
		uint64_t delta = now - d->ref_addr;
		for (size_t i = 0; i < d->syms.nr; i++) {
			d->syms.syms[i].start -= delta;
			d->syms.syms[i].end -= delta;
		}
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
