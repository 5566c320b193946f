/* SPDX-License-Identifier: MIT */
/*
 * data/writer/feat_topo.c — the feature sections that describe the machine's
 * topology (under the writer's sysroot). NRCPUS and CPU_TOPOLOGY (package
 * and core sibling lists, per-CPU core and socket ids, die lists and ids
 * where perf writes them: x86_64 and s390x with die_cpus_list) come from
 * count's topology module (pk_topology_read_lists); NUMA_TOPOLOGY, CACHE and
 * MEM_TOPOLOGY (the memory blocks of each NUMA node), which no other module
 * reads, from sysfs here.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/cpumap.h>

#include "count/count_int.h"
#include "data/writer/write_int.h"
#include "util/grow.h"

#define CPU_DIR "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"

/* the CPU list SYSROOT/rel; NULL when unreadable */
static struct pk_cpu_map *read_map(struct pk_data_writer *w, const char *rel)
{
	char path[PATH_MAX];
	struct pk_cpu_map *m = NULL;

	if (pk_cpu_map__read(&m, pkw_path(w, rel, path, sizeof(path)), NULL))
		return NULL;
	return m;
}

/* The CPU topology under the sysroot (count's topology module, with the sibling lists), read
 * once for the writer: 0 (*t NULL when it can not be read: perf then leaves the features
 * out) or -ENOMEM. */
static int topology(struct pk_data_writer *w, const struct pk_topology **t)
{
	if (!w->topo_read) {
		char path[PATH_MAX];
		int r = pk_topology_read_lists(&w->topo, pkw_path(w, CPU_DIR, path, sizeof(path)),
					       NULL);
		if (r == -ENOMEM)
			return r;
		w->topo_read = true;
	}
	*t = w->topo;
	return 0;
}

/* perf's nr_cpus_avail: the highest present CPU + 1 (online when present is missing) */
static int max_present(struct pk_data_writer *w)
{
	const struct pk_topology *t;
	if (topology(w, &t) || !t)
		return -1;
	return (int)pk_topology__num_cpus(t);
}

int pkw_feat_nrcpus(struct pk_data_writer *w, struct pk_buf *b)
{
	const struct pk_topology *t;
	int r = topology(w, &t);

	if (r || !t)
		return r;
	if (pkw_put_u32(b, pk_topology__num_cpus(t)) ||
	    pkw_put_u32(b, pk_topology__num_cpus_online(t)))
		return -ENOMEM;
	return 1;
}

/* --- CPU_TOPOLOGY -------------------------------------------------------------- */

struct strset {
	char **s;
	size_t n, cap;
};

/* s once (a CPU's list when no CPU before it had the same); NULL (a missing list) is left
 * out. 0 or -ENOMEM. */
static int strset_add(struct strset *ss, const char *s)
{
	if (!s)
		return 0;
	for (size_t i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i], s))
			return 0;
	if (PK_GROW(ss->s, ss->cap, ss->n + 1))
		return -ENOMEM;
	if (!(ss->s[ss->n] = strdup(s)))
		return -ENOMEM;
	ss->n++;
	return 0;
}

static void strset_free(struct strset *ss)
{
	for (size_t i = 0; i < ss->n; i++)
		free(ss->s[i]);
	free(ss->s);
}

static int put_strset(struct pk_buf *b, const struct strset *ss)
{
	if (pkw_put_u32(b, (uint32_t)ss->n))
		return -ENOMEM;
	for (size_t i = 0; i < ss->n; i++)
		if (pkw_put_string(b, ss->s[i]))
			return -ENOMEM;
	return 0;
}

/* perf writes die lists and ids on x86_64 and s390x, when CPU 0 has a die_cpus_list */
static bool has_dies(struct pk_data_writer *w, const struct pk_topology *t)
{
	struct pk_buf a = { 0 };
	bool arch_ok = false;

	if (pkw_read_text(w, "proc/sys/kernel/arch", &a) == 0)
		arch_ok = !strcmp((char *)a.data, "x86_64") || !strcmp((char *)a.data, "s390x");
	else if (!strcmp(w->sysroot, "/"))
#if defined(__x86_64__) || defined(__s390x__)
		arch_ok = true;
#else
		arch_ok = false;
#endif
	pk_buf__free(&a);
	return arch_ok && pk_topology_cpu_list(t, 0, PK_TOPO_DIE_CPUS);
}

/* the package, die and core lists of the online CPUs, each list once, in CPU order */
static int put_lists(const struct pk_topology *t, int nr, bool dies, struct strset *pkg,
		     struct strset *die, struct strset *core)
{
	const struct pk_cpu_map *on = pk_topology__online(t);
	int r = 0;

	for (int cpu = 0; cpu < nr && r == 0; cpu++) {
		if (!pk_cpu_map__has(on, cpu))
			continue;
		r = strset_add(pkg, pk_topology_cpu_list(t, cpu, PK_TOPO_PACKAGE_CPUS));
		if (!r && dies)
			r = strset_add(die, pk_topology_cpu_list(t, cpu, PK_TOPO_DIE_CPUS));
		if (!r)
			r = strset_add(core, pk_topology_cpu_list(t, cpu, PK_TOPO_CORE_CPUS));
	}
	return r;
}

int pkw_feat_cpu_topology(struct pk_data_writer *w, struct pk_buf *b)
{
	struct strset pkg = { 0 }, die = { 0 }, core = { 0 };
	const struct pk_topology *t;
	int r = topology(w, &t);

	if (r || !t)
		return r;
	int nr = (int)pk_topology__num_cpus(t);
	bool dies = has_dies(w, t);
	if ((r = put_lists(t, nr, dies, &pkg, &die, &core)) || (r = put_strset(b, &pkg)) ||
	    (r = put_strset(b, &core)))
		goto out;
	r = -ENOMEM;
	for (int cpu = 0; cpu < nr; cpu++) {	/* ids: -1 where the file is missing */
		struct pk_cpu_topo tp;
		if (pk_topology__cpu(t, cpu, &tp))
			tp.core = tp.socket = -1;
		if (pkw_put_u32(b, (uint32_t)tp.core) || pkw_put_u32(b, (uint32_t)tp.socket))
			goto out;
	}
	if (dies && die.n) {
		if (put_strset(b, &die))
			goto out;
		for (int cpu = 0; cpu < nr; cpu++)
			if (pkw_put_u32(b, (uint32_t)pk_topology_die_id(t, cpu)))
				goto out;
	}
	r = 1;
out:
	strset_free(&pkg);
	strset_free(&die);
	strset_free(&core);
	return r;
}

/* --- NUMA_TOPOLOGY ------------------------------------------------------------- */

/* "Node 0 MemTotal:  5597400 kB" lines of nodeN/meminfo */
static uint64_t node_mem(const char *text, const char *field)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char f[32];
		unsigned long long v;
		if (sscanf(l, "%*s %*d %31s %llu", f, &v) == 2 && !strcmp(f, field))
			return v;
	}
	return 0;
}

int pkw_feat_numa_topology(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_cpu_map *nodes = read_map(w, NODE_DIR "/online");
	struct pk_buf t = { 0 }, body = { 0 };
	int r = 0;

	if (!nodes)
		return 0;
	for (size_t i = 0; i < pk_cpu_map__nr(nodes); i++) {
		int node = pk_cpu_map__cpu(nodes, i);
		char rel[128];
		snprintf(rel, sizeof(rel), NODE_DIR "/node%d/meminfo", node);
		if ((r = pkw_read_text(w, rel, &t)))
			goto out;
		uint64_t total = node_mem((const char *)t.data, "MemTotal:");
		uint64_t free_kb = node_mem((const char *)t.data, "MemFree:");
		snprintf(rel, sizeof(rel), NODE_DIR "/node%d/cpulist", node);
		if ((r = pkw_read_text(w, rel, &t)))
			goto out;
		if (pkw_put_u32(&body, (uint32_t)node) || pkw_put_u64(&body, total) ||
		    pkw_put_u64(&body, free_kb) || pkw_put_string(&body, (const char *)t.data)) {
			r = -ENOMEM;
			goto out;
		}
	}
	if (pkw_put_u32(b, (uint32_t)pk_cpu_map__nr(nodes)) ||
	    pk_buf__append(b, body.data, body.len) < 0)
		r = -ENOMEM;
	else
		r = 1;
out:
	if (r < 0 && r != -ENOMEM)
		r = 0;	/* a node's files are missing: perf leaves the feature out */
	pk_cpu_map__free(nodes);
	pk_buf__free(&t);
	pk_buf__free(&body);
	return r;
}

/* --- CACHE --------------------------------------------------------------------- */

struct cache_level {
	uint32_t level, line, sets, ways;
	char *type, *size, *map;
};

static void cache_free(struct cache_level *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

/* cpuN/cache/indexI: 1 read, 0 no such index, -ENOENT unreadable, -ENOMEM */
static int cache_read(struct pk_data_writer *w, int cpu, int idx, struct cache_level *c,
		      struct pk_buf *t)
{
	static const char *const nums[] = { "level", "coherency_line_size", "number_of_sets",
					    "ways_of_associativity" };
	static const char *const strs[] = { "type", "size", "shared_cpu_list" };
	char rel[160], path[PATH_MAX];
	uint32_t v[4] = { 0 };
	int r = 0;

	memset(c, 0, sizeof(*c));
	snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cache/index%d", cpu, idx);
	int dfd = open(pkw_path(w, rel, path, sizeof(path)), O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	for (int i = 0; i < 4 && !r; i++)
		if (!(r = pkw_read_text_at(dfd, nums[i], t)))
			v[i] = (uint32_t)strtoul((const char *)t->data, NULL, 10);
	c->level = v[0], c->line = v[1], c->sets = v[2], c->ways = v[3];
	char **dst[3] = { &c->type, &c->size, &c->map };
	for (int i = 0; i < 3 && !r; i++)
		if (!(r = pkw_read_text_at(dfd, strs[i], t)) &&
		    !(*dst[i] = strdup((const char *)t->data)))
			r = -ENOMEM;
	close(dfd);
	if (r || !c->type || !c->size || !c->map) {
		cache_free(c);
		return r == -ENOMEM ? r : -ENOENT;
	}
	return 1;
}

static bool cache_same(const struct cache_level *a, const struct cache_level *b)
{
	return a->level == b->level && a->line == b->line && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

int pkw_feat_cache(struct pk_data_writer *w, struct pk_buf *b)
{
	struct cache_level *cs = NULL;
	size_t n = 0, cap_cs = 0;
	struct pk_buf t = { 0 };
	struct pk_cpu_map *poss = read_map(w, CPU_DIR "/possible");
	int nr = poss && pk_cpu_map__nr(poss) ? pk_cpu_map__cpu(poss, pk_cpu_map__nr(poss) - 1) + 1
					       : max_present(w);
	int r = 0;

	pk_cpu_map__free(poss);
	for (int cpu = 0; cpu < nr && r >= 0; cpu++) {
		for (int idx = 0; idx < 10; idx++) {
			struct cache_level c;
			r = cache_read(w, cpu, idx, &c, &t);
			if (r <= 0)
				break;
			size_t i = 0;
			while (i < n && !cache_same(&cs[i], &c))
				i++;
			if (i < n) {
				cache_free(&c);
				continue;
			}
			if (PK_GROW(cs, cap_cs, n + 1)) {
				cache_free(&c);
				r = -ENOMEM;
				break;
			}
			cs[n++] = c;
		}
	}
	if (r < 0)	/* an unreadable cache: perf leaves the feature out */
		goto out;
	/* by level, in the order found within one level (perf's sort keeps it) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && cs[j - 1].level > cs[j].level; j--) {
			struct cache_level x = cs[j];
			cs[j] = cs[j - 1];
			cs[j - 1] = x;
		}
	r = -ENOMEM;
	if (pkw_put_u32(b, 1) || pkw_put_u32(b, (uint32_t)n))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (pkw_put_u32(b, cs[i].level) || pkw_put_u32(b, cs[i].line) ||
		    pkw_put_u32(b, cs[i].sets) || pkw_put_u32(b, cs[i].ways) ||
		    pkw_put_string(b, cs[i].type) || pkw_put_string(b, cs[i].size) ||
		    pkw_put_string(b, cs[i].map))
			goto out;
	r = n ? 1 : 0;
out:
	if (r == -ENOENT)
		r = 0;
	for (size_t i = 0; i < n; i++)
		cache_free(&cs[i]);
	free(cs);
	pk_buf__free(&t);
	return r;
}

/* --- MEM_TOPOLOGY ------------------------------------------------------------------ */

struct mem_node {
	uint64_t node, size;	/* size: bits of the map (highest block + 1) */
	uint64_t *map;
};

/* N of a "memoryN" entry, or -1 (a directory of a few hundred entries: no sscanf) */
static long memory_block(const char *name)
{
	if (strncmp(name, "memory", 6) || name[6] < '0' || name[6] > '9')
		return -1;
	char *end;
	unsigned long v = strtoul(name + 6, &end, 10);
	return *end || v > UINT32_MAX ? -1 : (long)v;
}

/* the memoryN entries of nodeI: a bitmap of block numbers */
static int mem_node_read(struct pk_data_writer *w, unsigned idx, struct mem_node *n)
{
	char rel[64], path[PATH_MAX];
	uint32_t *blocks = NULL;
	size_t nr = 0, cap = 0;
	long max = 0;	/* perf: one bit even without blocks */
	struct dirent *e;

	snprintf(rel, sizeof(rel), NODE_DIR "/node%u", idx);
	DIR *d = opendir(pkw_path(w, rel, path, sizeof(path)));
	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		long m = memory_block(e->d_name);
		if (m < 0)
			continue;
		if (PK_GROW(blocks, cap, nr + 1)) {
			closedir(d);
			free(blocks);
			return -ENOMEM;
		}
		blocks[nr++] = (uint32_t)m;
		if (m > max)
			max = m;
	}
	closedir(d);
	n->node = idx;
	n->size = (uint64_t)(max + 1);
	n->map = calloc((n->size + 63) / 64, 8);
	if (n->map)
		for (size_t i = 0; i < nr; i++)
			n->map[blocks[i] / 64] |= UINT64_C(1) << (blocks[i] % 64);
	free(blocks);
	return n->map ? 0 : -ENOMEM;
}

int pkw_feat_mem_topology(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_buf t = { 0 };
	char path[PATH_MAX];
	struct mem_node *ns = NULL;
	size_t nr = 0, cap_ns = 0;
	int r = pkw_read_text(w, "sys/devices/system/memory/block_size_bytes", &t);

	if (r) {
		pk_buf__free(&t);
		return r == -ENOMEM ? r : 0;
	}
	uint64_t bsize = strtoull((const char *)t.data, NULL, 16);
	pk_buf__free(&t);
	DIR *d = opendir(pkw_path(w, NODE_DIR, path, sizeof(path)));
	if (!d)
		return 0;
	struct dirent *e;
	unsigned idx;
	r = 0;
	while (!r && (e = readdir(d))) {
		if (sscanf(e->d_name, "node%u", &idx) != 1)
			continue;
		if (PK_GROW(ns, cap_ns, nr + 1)) {
			r = -ENOMEM;
			break;
		}
		r = mem_node_read(w, idx, &ns[nr]);
		if (!r)
			nr++;
	}
	closedir(d);
	if (r)
		goto out;
	for (size_t i = 1; i < nr; i++)		/* by node */
		for (size_t j = i; j > 0 && ns[j - 1].node > ns[j].node; j--) {
			struct mem_node x = ns[j];
			ns[j] = ns[j - 1];
			ns[j - 1] = x;
		}
	r = -ENOMEM;
	if (pkw_put_u64(b, 1) || pkw_put_u64(b, bsize) || pkw_put_u64(b, nr))
		goto out;
	for (size_t i = 0; i < nr; i++)
		if (pkw_put_u64(b, ns[i].node) || pkw_put_u64(b, ns[i].size) ||
		    pkw_put_u64(b, ns[i].size) ||
		    pk_buf__append(b, ns[i].map, (ns[i].size + 63) / 64 * 8) < 0)
			goto out;
	r = 1;
out:
	if (r == -ENOENT)
		r = 0;
	for (size_t i = 0; i < nr; i++)
		free(ns[i].map);
	free(ns);
	return r;
}
