/* SPDX-License-Identifier: MIT */
/*
 * data/writer/feat.c — the feature sections of perf.data that describe the run and
 * the machine (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID,
 * TOTAL_MEM, CMDLINE, EVENT_DESC, GROUP_DESC, BRANCH_STACK, SAMPLE_TIME,
 * CLOCKID, CLOCK_DATA, COMPRESSED) in the layouts perf's header.c reads, and
 * which features a file or a pipe carries. The machine facts come from the
 * writer's sysroot (/proc and /sys under it). Topology, caches and memory
 * are in feat_topo.c, PMUs in feat_pmu.c, build-ids in buildid.c.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <pmukit/cpuid.h>

#include "data/writer/write_int.h"
#include "util/grow.h"

/* --- encoding ------------------------------------------------------------------ */

int pkw_put_u32(struct pk_buf *b, uint32_t v)
{
	return pk_buf__append(b, &v, sizeof(v)) < 0 ? -ENOMEM : 0;
}

int pkw_put_u64(struct pk_buf *b, uint64_t v)
{
	return pk_buf__append(b, &v, sizeof(v)) < 0 ? -ENOMEM : 0;
}

int pkw_put_string(struct pk_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + PKW_NAME_ALIGN - 1) / PKW_NAME_ALIGN * PKW_NAME_ALIGN;
	static const char zeros[PKW_NAME_ALIGN];

	if (pkw_put_u32(b, (uint32_t)padded) || pk_buf__append(b, s, n) < 0 ||
	    pk_buf__append(b, zeros, padded - n) < 0)
		return -ENOMEM;
	return 0;
}

/* --- the machine's files --------------------------------------------------------- */

const char *pkw_path(const struct pk_data_writer *w, const char *rel, char *buf, size_t len)
{
	const char *root = w->sysroot;
	size_t rl = strlen(root);

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1 && root[0] == '/')
		rl = 0;
	snprintf(buf, len, "%.*s/%s", (int)rl, root, rel[0] == '/' ? rel + 1 : rel);
	return buf;
}

int pkw_read_file(const char *path, struct pk_buf *b)
{
	return pkw_read_file_at(AT_FDCWD, path, b);
}

int pkw_read_text_at(int dirfd, const char *name, struct pk_buf *b)
{
	int r = pkw_read_file_at(dirfd, name, b);
	if (r)
		return r;
	while (b->len && isspace(b->data[b->len - 1]))
		b->len--;
	b->data[b->len] = '\0';
	return 0;
}

int pkw_read_file_at(int dirfd, const char *path, struct pk_buf *b)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	b->len = 0;
	if (fd < 0) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -EIO;
	}
	for (;;) {
		if (pk_buf__reserve(b, 4096)) {
			close(fd);
			return -ENOMEM;
		}
		ssize_t r = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (!r)
			break;
		b->len += (size_t)r;
	}
	close(fd);
	b->data[b->len] = '\0';
	return 0;
}

/*
 * The files several features read (the architecture, /proc/cpuinfo, the CPU
 * lists: the paths without a number in them) are read once for the writer.
 */
static bool kept(const char *rel)
{
	return !strpbrk(rel, "0123456789");
}

/* a copy of the text (NUL terminated, not counted) into b */
static int copy_text(const struct pk_buf *from, struct pk_buf *b)
{
	b->len = 0;
	if (pk_buf__reserve(b, from->len + 1))
		return -ENOMEM;
	memcpy(b->data, from->data, from->len);
	b->len = from->len;
	b->data[b->len] = '\0';
	return 0;
}

int pkw_read_text(struct pk_data_writer *w, const char *rel, struct pk_buf *b)
{
	char path[PATH_MAX];
	int r;

	if (kept(rel))
		for (size_t i = 0; i < w->nr_texts; i++)
			if (!strcmp(w->texts[i].rel, rel))
				return w->texts[i].r ? w->texts[i].r : copy_text(&w->texts[i].text, b);
	r = pkw_read_file(pkw_path(w, rel, path, sizeof(path)), b);
	if (r == -ENOMEM)
		return r;
	if (!r) {
		while (b->len && isspace(b->data[b->len - 1]))
			b->len--;
		b->data[b->len] = '\0';
	}
	if (kept(rel) && !PK_GROW(w->texts, w->cap_texts, w->nr_texts + 1)) {
		struct pkw_text *k = &w->texts[w->nr_texts];
		memset(k, 0, sizeof(*k));
		k->r = r;
		k->rel = strdup(rel);
		if (k->rel && (r || copy_text(b, &k->text) == 0)) {
			w->nr_texts++;
		} else {	/* not kept: read again next time */
			free(k->rel);
			pk_buf__free(&k->text);
		}
	}
	return r;
}

static bool live(const struct pk_data_writer *w)
{
	return !strcmp(w->sysroot, "/");
}

/* A one-line fact: SYSROOT/rel; on the live machine uname's field when the file is missing. */
static int put_fact(struct pk_data_writer *w, struct pk_buf *out, const char *rel, int field)
{
	struct pk_buf t = { 0 };
	struct utsname u;
	const char *s = NULL;
	int r = pkw_read_text(w, rel, &t);

	if (r == -ENOMEM)
		return r;
	if (!r && t.len)
		s = (const char *)t.data;
	else if (live(w) && uname(&u) == 0)
		s = field == 0 ? u.nodename : field == 1 ? u.release : u.machine;
	r = s ? (pkw_put_string(out, s) ? -ENOMEM : 1) : 0;
	pk_buf__free(&t);
	return r;
}

/* The machine's architecture as uname prints it ("x86_64", "aarch64") into buf. */
static int machine_arch(struct pk_data_writer *w, char *buf, size_t len)
{
	struct pk_buf t = { 0 };
	struct utsname u;
	int r = pkw_read_text(w, "proc/sys/kernel/arch", &t);

	if (!r && t.len)
		snprintf(buf, len, "%s", (const char *)t.data);
	else if (live(w) && uname(&u) == 0)
		snprintf(buf, len, "%s", u.machine);
	else
		buf[0] = '\0';
	pk_buf__free(&t);
	return buf[0] ? 0 : -ENOENT;
}

static bool is_x86(const char *m)
{
	return !strcmp(m, "x86_64") || (m[0] == 'i' && !strcmp(m + 2, "86"));
}

/*
 * The value of the first "key<spaces>: value" line of /proc/cpuinfo whose key
 * starts with key, as perf's CPUDESC reads it; NULL when none.
 */
static char *cpuinfo_value(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, kl))
			continue;
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		const char *c = memchr(l, ':', n);
		const char *v = l;
		if (c && (size_t)(c - l) + 2 < n && c[1] == ' ')
			v = c + 2;
		return strndup(v, n - (size_t)(v - l));
	}
	return NULL;
}

static int put_cpudesc(struct pk_data_writer *w, struct pk_buf *out)
{
	char arch[72];
	struct pk_buf t = { 0 };
	const char *key = "model name";
	int r;

	if (machine_arch(w, arch, sizeof(arch)) == 0) {
		if (!strncmp(arch, "ppc", 3) || !strncmp(arch, "sparc", 5) || !strncmp(arch, "parisc", 6))
			key = "cpu";
		else if (!strncmp(arch, "s390", 4))
			key = "vendor_id";
		else if (!strncmp(arch, "loongarch", 9))
			key = "Model Name";
	}
	if ((r = pkw_read_text(w, "proc/cpuinfo", &t)))
		return r == -ENOMEM ? r : 0;
	char *v = cpuinfo_value((const char *)t.data, key);
	if (!v && !strncmp(arch, "arm", 3))
		v = cpuinfo_value((const char *)t.data, "Processor");
	pk_buf__free(&t);
	if (!v)
		return 0;
	/* runs of white space become one space, as perf squashes branding strings */
	char *d = v;
	for (const char *s = v; *s; s++) {
		if (isspace((unsigned char)*s)) {
			*d++ = ' ';
			while (isspace((unsigned char)s[1]))
				s++;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
	r = pkw_put_string(out, v) ? -ENOMEM : 1;
	free(v);
	return r;
}

/* x86: "GenuineIntel,6,85,4" (vendor, family, model, stepping in decimal) from cpuinfo */
static int x86_cpuid(struct pk_data_writer *w, char *buf, size_t len)
{
	struct pk_buf t = { 0 };
	int r = pkw_read_text(w, "proc/cpuinfo", &t);

	if (r)
		return r;
	char *vendor = cpuinfo_value((const char *)t.data, "vendor_id");
	char *family = cpuinfo_value((const char *)t.data, "cpu family");
	char *model = cpuinfo_value((const char *)t.data, "model\t");
	char *step = cpuinfo_value((const char *)t.data, "stepping");
	r = -ENOENT;
	if (vendor && family && model && step) {
		snprintf(buf, len, "%s,%u,%u,%u", vendor, (unsigned)strtoul(family, NULL, 10),
			 (unsigned)strtoul(model, NULL, 10), (unsigned)strtoul(step, NULL, 10));
		r = 0;
	}
	free(vendor);
	free(family);
	free(model);
	free(step);
	pk_buf__free(&t);
	return r;
}

static int put_cpuid(struct pk_data_writer *w, struct pk_buf *out)
{
	char arch[72], id[256], root[PATH_MAX];
	int r = -ENOENT;

	if (machine_arch(w, arch, sizeof(arch)))
		return 0;
	if (is_x86(arch))
		r = x86_cpuid(w, id, sizeof(id));
	else if (!strcmp(arch, "aarch64"))	/* MIDR_EL1 of the first CPU that shows it */
		r = pk_cpuid__read("arm64", pkw_path(w, "sys/devices/system/cpu", root, sizeof(root)),
				   -1, id, sizeof(id));
	else if (live(w))
		r = pk_cpuid__host(NULL, -1, id, sizeof(id));
	if (r == -ENOMEM)
		return r;
	if (r)
		return 0;
	return pkw_put_string(out, id) ? -ENOMEM : 1;
}

static int put_total_mem(struct pk_data_writer *w, struct pk_buf *out)
{
	struct pk_buf t = { 0 };
	int r = pkw_read_text(w, "proc/meminfo", &t);

	if (r)
		return r == -ENOMEM ? r : 0;
	char *v = cpuinfo_value((const char *)t.data, "MemTotal:");
	pk_buf__free(&t);
	if (!v)
		return 0;
	unsigned long long kb = strtoull(v, NULL, 10);
	free(v);
	return pkw_put_u64(out, kb) ? -ENOMEM : 1;
}

/* The recorder's executable (the running process), then argv[1..]: perf's CMDLINE. */
static int put_cmdline(struct pk_data_writer *w, struct pk_buf *out)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0)
		exe[n] = '\0';
	else
		snprintf(exe, sizeof(exe), "%s", w->argc ? w->argv[0] : "pmukit");
	int args = w->argc > 1 ? w->argc - 1 : 0;
	if (pkw_put_u32(out, (uint32_t)args + 1) || pkw_put_string(out, exe))
		return -ENOMEM;
	for (int i = 1; i < w->argc; i++)
		if (pkw_put_string(out, w->argv[i]))
			return -ENOMEM;
	return 1;
}

static int put_event_desc(struct pk_data_writer *w, struct pk_buf *out)
{
	if (pkw_put_u32(out, (uint32_t)w->nr_attrs) || pkw_put_u32(out, w->attr_size))
		return -ENOMEM;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct pkw_attr *a = &w->attrs[i];
		if (pk_buf__append(out, a->attr, w->attr_size) < 0 ||
		    pkw_put_u32(out, (uint32_t)a->nr_ids) || pkw_put_string(out, a->name) ||
		    pk_buf__append(out, a->ids, a->nr_ids * 8) < 0)
			return -ENOMEM;
	}
	return 1;
}

static int put_group_desc(struct pk_data_writer *w, struct pk_buf *out)
{
	if (pkw_put_u32(out, (uint32_t)w->nr_groups))
		return -ENOMEM;
	for (size_t i = 0; i < w->nr_groups; i++)
		if (pkw_put_string(out, w->groups[i].name) || pkw_put_u32(out, w->groups[i].leader) ||
		    pkw_put_u32(out, w->groups[i].nr))
			return -ENOMEM;
	return 1;
}

/* perf's HEADER_COMPRESSED: version 1, type zstd (1), level, ratio, the decompression buffer */
static int put_compressed(struct pk_data_writer *w, struct pk_buf *out)
{
	uint32_t ratio = 0;

	if (w->data_size)
		ratio = (uint32_t)((double)w->data_bytes / (double)w->data_size + 0.5);
	if (pkw_put_u32(out, 1) || pkw_put_u32(out, 1) || pkw_put_u32(out, (uint32_t)w->comp_level) ||
	    pkw_put_u32(out, ratio) || pkw_put_u32(out, PKW_COMP_CHUNK))
		return -ENOMEM;
	return 1;
}

/* --- which, and dispatch ------------------------------------------------------- */

bool pkw_feature_wanted(const struct pk_data_writer *w, int feat, bool pipe_header)
{
	switch (feat) {
	case PK_FEAT_HOSTNAME: case PK_FEAT_OSRELEASE: case PK_FEAT_VERSION: case PK_FEAT_ARCH:
	case PK_FEAT_NRCPUS: case PK_FEAT_CPUDESC: case PK_FEAT_CPUID: case PK_FEAT_TOTAL_MEM:
	case PK_FEAT_CMDLINE: case PK_FEAT_EVENT_DESC: case PK_FEAT_CPU_TOPOLOGY:
	case PK_FEAT_NUMA_TOPOLOGY: case PK_FEAT_PMU_MAPPINGS:
		return true;
	case PK_FEAT_MEM_TOPOLOGY: case PK_FEAT_CPU_PMU_CAPS: case PK_FEAT_PMU_CAPS:
		return true;
	case PK_FEAT_TRACING_DATA:	/* a pipe carries it as a record of its own */
		return !pipe_header && pkw_has_tracepoints(w);
	case PK_FEAT_BUILD_ID:
	case PK_FEAT_CACHE:		/* perf sends neither in a pipe's header */
		return !pipe_header;
	case PK_FEAT_BRANCH_STACK:
		if (pipe_header)
			return false;
		for (size_t i = 0; i < w->nr_attrs; i++) {
			/* perf record writes it for -b/-j, not for --call-graph lbr's call stacks */
			const struct perf_event_attr *a = (const void *)w->attrs[i].attr;
			if ((a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
			    !(a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
				return true;
		}
		return false;
	case PK_FEAT_GROUP_DESC:
		return w->nr_groups > 0;
	case PK_FEAT_SAMPLE_TIME:	/* known at the end only */
		return !pipe_header && w->have_time;
	case PK_FEAT_CLOCKID:
		return w->use_clockid && w->clockid_res_ns;
	case PK_FEAT_CLOCK_DATA:
		return w->use_clockid;
	case PK_FEAT_COMPRESSED:
		return w->comp_level > 0;
	default:
		return false;
	}
}

/* Features whose bytes depend on what was recorded: computed each time. */
static bool depends_on_data(int feat)
{
	return feat == PK_FEAT_BUILD_ID || feat == PK_FEAT_SAMPLE_TIME || feat == PK_FEAT_COMPRESSED;
}

int pkw_feature_prefetch(struct pk_data_writer *w, int feat)
{
	/* (the data-dependent ones first: their wanted() reads what the data changes) */
	if (feat <= 0 || feat >= PK_FEAT_LAST || depends_on_data(feat) ||
	    !pkw_feature_wanted(w, feat, false))
		return 0;
	struct pkw_feat_cache *c = &w->feat_cache[feat];
	if (!c->read) {
		int k = pkw_feature(w, feat, &c->bytes);
		if (k < 0)
			return k;
		c->read = true;
		c->have = k > 0;
	}
	return 0;
}

int pkw_feature_get(struct pk_data_writer *w, int feat, struct pk_buf *b)
{
	if (feat <= 0 || feat >= PK_FEAT_LAST || depends_on_data(feat))
		return pkw_feature(w, feat, b);
	struct pkw_feat_cache *c = &w->feat_cache[feat];
	int k = pkw_feature_prefetch(w, feat);
	if (k < 0)
		return k;
	if (!c->have)
		return 0;
	return pk_buf__append(b, c->bytes.data, c->bytes.len) < 0 ? -ENOMEM : 1;
}

int pkw_feature(struct pk_data_writer *w, int feat, struct pk_buf *b)
{
	switch (feat) {
	case PK_FEAT_TRACING_DATA:
		return pkw_feat_tracing_data(w, b);
	case PK_FEAT_BUILD_ID:
		return pkw_build_ids(w, b, false) < 0 ? -ENOMEM : 1;
	case PK_FEAT_HOSTNAME:
		return put_fact(w, b, "proc/sys/kernel/hostname", 0);
	case PK_FEAT_OSRELEASE:
		return put_fact(w, b, "proc/sys/kernel/osrelease", 1);
	case PK_FEAT_VERSION:
		return pkw_put_string(b, w->version) ? -ENOMEM : 1;
	case PK_FEAT_ARCH:
		return put_fact(w, b, "proc/sys/kernel/arch", 2);
	case PK_FEAT_NRCPUS:
		return pkw_feat_nrcpus(w, b);
	case PK_FEAT_CPUDESC:
		return put_cpudesc(w, b);
	case PK_FEAT_CPUID:
		return put_cpuid(w, b);
	case PK_FEAT_TOTAL_MEM:
		return put_total_mem(w, b);
	case PK_FEAT_CMDLINE:
		return put_cmdline(w, b);
	case PK_FEAT_EVENT_DESC:
		return put_event_desc(w, b);
	case PK_FEAT_CPU_TOPOLOGY:
		return pkw_feat_cpu_topology(w, b);
	case PK_FEAT_NUMA_TOPOLOGY:
		return pkw_feat_numa_topology(w, b);
	case PK_FEAT_BRANCH_STACK:
		return 1;	/* a flag: the section is empty */
	case PK_FEAT_PMU_MAPPINGS:
		return pkw_feat_pmu_mappings(w, b);
	case PK_FEAT_GROUP_DESC:
		return put_group_desc(w, b);
	case PK_FEAT_CACHE:
		return pkw_feat_cache(w, b);
	case PK_FEAT_MEM_TOPOLOGY:
		return pkw_feat_mem_topology(w, b);
	case PK_FEAT_CPU_PMU_CAPS:
		return pkw_feat_cpu_pmu_caps(w, b);
	case PK_FEAT_PMU_CAPS:
		return pkw_feat_pmu_caps(w, b);
	case PK_FEAT_SAMPLE_TIME:
		return pkw_put_u64(b, w->first_time) || pkw_put_u64(b, w->last_time) ? -ENOMEM : 1;
	case PK_FEAT_CLOCKID:
		return pkw_put_u64(b, w->clockid_res_ns) ? -ENOMEM : 1;
	case PK_FEAT_CLOCK_DATA:
		if (pkw_put_u32(b, 1) || pkw_put_u32(b, (uint32_t)w->clockid) ||
		    pkw_put_u64(b, w->tod_ns) || pkw_put_u64(b, w->clockid_ns))
			return -ENOMEM;
		return 1;
	case PK_FEAT_COMPRESSED:
		return put_compressed(w, b);
	default:
		return 0;
	}
}
