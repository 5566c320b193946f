/* SPDX-License-Identifier: MIT */
/*
 * cmd-buildid-list.c — `pmukit buildid-list`: the build-ids of a perf.data
 * file as perf 6.1's `perf buildid-list` prints them ("%-40s %s": id, DSO),
 * in perf's DSO order (the file's build-id table first, then DSOs as their
 * first map appears); -H only the DSOs a sample's ip falls in (always so
 * for a pipe or a file without a build-id table); -k the running kernel's
 * build-id (/sys/kernel/notes); -m its map. An ELF file as input: its own build-id.
 */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <pmukit/session.h>
#include <pmukit/symbol.h>

#include "cli-opts.h"
#include "cli.h"

int cmd_buildid_list(int argc, char **argv);


/* one DSO as perf's dsos list holds it */
struct entry {
	const char *name;
	const struct pk_dso *dso;	/* a session DSO of that name, once seen */
	uint8_t id[20];
	uint8_t size;
	bool hit;
	uint64_t order;			/* table index, or 1 << 32 plus the first map's id */
};

struct list {
	struct entry *e;
	size_t n, cap;
};

static struct entry *find_or_add(struct list *l, const char *name, uint64_t order)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].name, name)) {
			if (order < l->e[i].order)
				l->e[i].order = order;
			return &l->e[i];
		}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct entry *e = realloc(l->e, cap * sizeof(*e));
		if (!e)
			return NULL;
		l->e = e;
		l->cap = cap;
	}
	struct entry *e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->order = order;
	return e;
}

static void set_id(struct entry *e, const uint8_t *id, uint8_t size)
{
	e->size = size < sizeof(e->id) ? size : sizeof(e->id);
	memcpy(e->id, id, e->size);
}

static int by_order(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* perf's build_id__mark_dso_hit for every sample; pipes' HEADER_BUILD_ID records */
static int mark_hits(struct pk_session *s, struct list *l)
{
	struct pk_error err = { 0 };
	const struct pk_data_event *ev;
	int rc;
	uint64_t seq = 0;
	while ((rc = pk_session__next(s, &ev, &err)) > 0) {
		if (ev->type == PK_RECORD_HEADER_BUILD_ID) {
			struct entry *e = find_or_add(l, ev->u.build_id.filename, (2ull << 32) + seq++);
			if (!e)
				return -1;
			set_id(e, ev->u.build_id.id, ev->u.build_id.size);
			continue;
		}
		if (ev->type != PERF_RECORD_SAMPLE || ev->attr < 0)
			continue;
		const struct pk_sample *sa = &ev->sample;
		const struct pk_thread *t = pk_session__thread(s, sa->pid, sa->tid);
		uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		const struct pk_map *m = t ? pk_session__find_map(s, t, cpumode, sa->ip) : NULL;
		if (!m || !m->dso)
			continue;
		struct entry *e = find_or_add(l, pk_dso__name(m->dso), (1ull << 32) + m->id);
		if (!e)
			return -1;
		e->hit = true;
	}
	if (rc < 0) {
		char buf[1024];
		fprintf(stderr, "pmukit buildid-list: %s\n", pk_error__format(&err, buf, sizeof(buf)));
	}
	return 0;
}

static int list_build_ids(const char *input, bool with_hits)
{
	struct pk_session_opts so = { .sz = sizeof(so),
				      .flags = PK_SESSION_NO_SYMBOLS | PK_SESSION_DROP_EXITED,
				      .nr_threads = 1 };
	struct pk_session *s;
	struct pk_error err = { 0 };
	if (pk_session__open(&s, input, &so, &err)) {
		char buf[1024];
		fprintf(stderr, "pmukit buildid-list: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return 255;
	}
	struct pk_data_reader *r = pk_session__reader(s);
	bool pipe = pk_data_reader__is_pipe(r);
	struct list l = { 0 };
	int rc = 0;
	if (!pipe && pk_data_reader__has_feat(r, PK_FEAT_AUXTRACE))
		with_hits = false;	/* perf does not decode the trace: every DSO */
	if (!pk_data_reader__has_feat(r, PK_FEAT_BUILD_ID))
		with_hits = true;
	for (size_t i = 0; i < pk_data_reader__nr_build_ids(r); i++) {
		const struct pk_data_build_id *b = pk_data_reader__build_id(r, i);
		uint16_t cpumode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
			continue;	/* a guest machine's DSOs (not listed here) */
		struct entry *e = find_or_add(&l, b->filename, i);
		if (!e) {
			rc = 255;
			goto out;
		}
		set_id(e, b->id, b->size);
	}
	if ((with_hits || pipe) && mark_hits(s, &l)) {
		rc = 255;
		goto out;
	}
	if (l.n)
		qsort(l.e, l.n, sizeof(*l.e), by_order);
	for (size_t i = 0; i < l.n; i++) {
		char hex[41];
		if (with_hits && !l.e[i].hit)
			continue;
		for (unsigned j = 0; j < l.e[i].size; j++)
			snprintf(hex + 2 * j, 3, "%02x", l.e[i].id[j]);
		hex[2 * l.e[i].size] = 0;
		printf("%-40s %s\n", hex, l.e[i].name);
	}
	rc = fflush(stdout) ? 255 : 0;
out:
	free(l.e);
	pk_session__free(s);
	return rc;
}

/* perf's sysfs__fprintf_build_id: the GNU build-id note of /sys/kernel/notes (hex in out) */
static int kernel_build_id_hex(char out[41])
{
	FILE *f = fopen("/sys/kernel/notes", "r");
	unsigned char buf[4096];
	size_t len = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	for (size_t off = 0; off + 12 <= len;) {
		Elf32_Nhdr nh;
		memcpy(&nh, buf + off, sizeof(nh));
		size_t na = (nh.n_namesz + 3u) & ~3u, da = (nh.n_descsz + 3u) & ~3u;
		off += sizeof(nh);
		if (na > len - off || da > len - off - na)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    nh.n_descsz == 20) {
			for (unsigned j = 0; j < 20; j++)
				snprintf(out + 2 * j, 3, "%02x", buf[off + na + j]);
			return 0;
		}
		off += na + da;
	}
	return 1;
}

/* perf's filename__fprintf_build_id: the GNU build-id note of an ELF file's
 * .note.gnu.build-id, .notes or .note section; 0 when it printed one */
static int elf_build_id(const char *path)
{
	static const char *const secs[] = { ".note.gnu.build-id", ".notes", ".note" };
	int fd = open(path, O_RDONLY), rc = -1;
	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t shstr;
	for (size_t k = 0; e && rc && k < 3 && !elf_getshdrstrndx(e, &shstr); k++) {
		for (Elf_Scn *scn = NULL; rc && (scn = elf_nextscn(e, scn));) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;
			Elf_Data *d = name && !strcmp(name, secs[k]) ? elf_getdata(scn, NULL) : NULL;
			GElf_Nhdr nh;
			size_t off = 0, noff, doff;
			while (rc && d && d->d_buf && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
				if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
				    memcmp((char *)d->d_buf + noff, "GNU", 4) || nh.n_descsz > 20 ||
				    doff + nh.n_descsz > d->d_size)
					continue;
				for (unsigned j = 0; j < nh.n_descsz; j++)
					printf("%02x", ((unsigned char *)d->d_buf)[doff + j]);
				putchar('\n');
				rc = 0;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

static int kernel_build_id(void)
{
	char hex[41];
	if (kernel_build_id_hex(hex))
		return 1;
	printf("%s\n", hex);
	return fflush(stdout) ? 1 : 0;
}

/*
 * perf's buildid__show_kernel_maps for a kernel without modules: its map
 * from _text to _etext (/proc/kallsyms) with its build-id
 */
static int kernel_maps(void)
{
	FILE *f = fopen("/proc/modules", "r");
	int c = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	if (c != EOF) {
		fprintf(stderr, "pmukit buildid-list: -m with kernel modules loaded is not "
				"supported\n");
		return 129;
	}
	char hex[41] = "", line[512], name[256];
	unsigned long long start = 0, end = 0, a;
	char t;
	if (kernel_build_id_hex(hex))
		hex[0] = 0;
	if (!(f = fopen("/proc/kallsyms", "r")))
		return 255;
	while ((!start || !end) && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3) {
			if (!strcmp(name, "_text"))
				start = a;
			else if (!strcmp(name, "_etext"))
				end = a;
		}
	fclose(f);
	printf("%s %16llx %16llx [kernel.kallsyms]\n", hex, start, end);
	return fflush(stdout) ? 255 : 0;
}

int cmd_buildid_list(int argc, char **argv)
{
	const char *input = "perf.data";
	bool with_hits = false, kernel = false, maps = false, force = false;
	int verbose = 0;
	const struct cli_opt opts[] = {
		CLI_STRING('i', "input", &input, "file", "input file name"),
		CLI_BOOL('H', "with-hits", &with_hits, "show only DSOs with hits"),
		CLI_BOOL('k', "kernel", &kernel, "show current kernel build-id"),
		CLI_BOOL('m', "kernel-maps", &maps, "show the running kernel's map and build-id (no modules)"),
		CLI_BOOL('f', "force", &force, "don't complain, do it"),
		CLI_INCR('v', "verbose", &verbose, "be more verbose (accepted)"),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts, "pmukit buildid-list [<options>]\n\n"
				"List the build-ids of a perf.data file as perf buildid-list does.", 0);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;
	if (kernel)
		return kernel_build_id();
	if (maps)
		return kernel_maps();
	if (!elf_build_id(input))
		return fflush(stdout) ? 255 : 0;
	return list_build_ids(input, with_hits);
}
