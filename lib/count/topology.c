/* SPDX-License-Identifier: MIT */
/*
 * topology.c — CPU topology from a sysfs CPU root (pmukit/topology.h): per
 * CPU socket/die/cluster/core with perf's defaults for missing files, the
 * metric literals' facts, and perf stat's aggregation keys and labels; on
 * request (pk_topology_read_lists, count_int.h) also the sibling lists and
 * raw die ids that perf.data's CPU_TOPOLOGY keeps, for its writer.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmukit/topology.h>

#include "count/count_int.h"
#include "util/buf.h"
#include "util/error.h"

struct cpu_info {
	bool known;		/* has a topology directory */
	struct pk_cpu_topo topo;
	int die_id;		/* die_id as read: -1 when missing (perf.data's value) */
	char *lists[PK_TOPO_NR_LISTS];	/* pk_topology_read_lists: as read, or NULL */
};

struct pk_topology {
	struct pk_cpu_map *online, *present;
	struct cpu_info *info;	/* per present CPU, in map order */
	size_t nr_info;
	int smt_active;		/* ROOT/smt/active, -1 when unreadable */
};

/* A decimal (possibly negative) integer file; 0 or -errno/-EINVAL. */
static int read_int(const char *path, int *v)
{
	char buf[64], *end;
	int n = pk_count_read_small(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	errno = 0;
	long l = strtol(buf, &end, 10);
	if (end == buf || errno || l < -2147483647L - 1 || l > 2147483647L)
		return -EINVAL;
	while (*end == ' ' || *end == '\n' || *end == '\t')
		end++;
	if (*end)
		return -EINVAL;
	*v = (int)l;
	return 0;
}

static int topo_int(const char *root, int cpu, const char *name, int dflt)
{
	char path[4096];
	int v;
	snprintf(path, sizeof(path), "%s/cpu%d/topology/%s", root, cpu, name);
	return read_int(path, &v) ? dflt : v;
}

/* ROOT/cpuN/topology/name, else .../old (NULL: none), as text without its trailing white
 * space: 0 (*out NULL when neither can be read) or -ENOMEM. */
static int topo_text(const char *root, int cpu, const char *name, const char *old, char **out)
{
	*out = NULL;
	for (const char *n = name; n; n = n == name ? old : NULL) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/cpu%d/topology/%s", root, cpu, n);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct pk_buf b = { 0 };
		int rc = pk_buf__read_fd(&b, fd, 64);
		close(fd);
		if (rc) {
			pk_buf__free(&b);
			if (rc == -ENOMEM)
				return rc;
			continue;
		}
		while (b.len && isspace(b.data[b.len - 1]))
			b.len--;
		*out = pk_buf__detach(&b, NULL);
		return *out ? 0 : -ENOMEM;
	}
	return 0;
}

/* The sibling lists perf.data's CPU_TOPOLOGY keeps (newer names first): 0 or -ENOMEM. */
static int read_lists(const char *root, int cpu, struct cpu_info *ci)
{
	static const char *const names[PK_TOPO_NR_LISTS][2] = {
		[PK_TOPO_PACKAGE_CPUS] = { "package_cpus_list", "core_siblings_list" },
		[PK_TOPO_DIE_CPUS] = { "die_cpus_list", NULL },
		[PK_TOPO_CORE_CPUS] = { "core_cpus_list", "thread_siblings_list" },
	};
	for (int l = 0; l < PK_TOPO_NR_LISTS; l++) {
		int rc = topo_text(root, cpu, names[l][0], names[l][1], &ci->lists[l]);
		if (rc)
			return rc;
	}
	return 0;
}

void pk_topology__free(struct pk_topology *t)
{
	if (!t)
		return;
	pk_cpu_map__free(t->online);
	pk_cpu_map__free(t->present);
	for (size_t i = 0; t->info && i < t->nr_info; i++)
		for (int l = 0; l < PK_TOPO_NR_LISTS; l++)
			free(t->info[i].lists[l]);
	free(t->info);
	free(t);
}

static int topology_read(struct pk_topology **out, const char *root, bool lists,
			 struct pk_error *err)
{
	struct pk_topology *t = calloc(1, sizeof(*t));
	char path[4096];
	int ret;

	*out = NULL;
	if (!root)
		root = PK_CPU_ROOT_DEFAULT;
	if (!t)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	if ((ret = pk_cpu_map__online(root, &t->online, err)))
		goto fail;
	ret = pk_cpu_map__present(root, &t->present, NULL);
	if (ret == -ENOMEM)
		goto oom;
	if (ret) {	/* no present file: the online CPUs */
		if (!(t->present = pk_cpu_map__dup(t->online)))
			goto oom;
	}
	size_t n = pk_cpu_map__nr(t->present);
	t->info = calloc(n ? n : 1, sizeof(*t->info));
	if (!t->info)
		goto oom;
	t->nr_info = n;
	for (size_t i = 0; i < n; i++) {
		int cpu = pk_cpu_map__cpu(t->present, i);
		struct cpu_info *ci = &t->info[i];
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s/cpu%d/topology", root, cpu);
		if (pk_count_is_dir(dir) <= 0)
			continue;
		ci->known = true;
		ci->topo.socket = topo_int(root, cpu, "physical_package_id", -1);
		int die = topo_int(root, cpu, "die_id", INT_MIN);	/* INT_MIN: missing */
		ci->topo.die = die == INT_MIN ? 0 : die;
		ci->die_id = die == INT_MIN ? -1 : die;
		ci->topo.cluster = topo_int(root, cpu, "cluster_id", 0);
		ci->topo.core = topo_int(root, cpu, "core_id", -1);
		if (lists && read_lists(root, cpu, ci))
			goto oom;
	}
	snprintf(path, sizeof(path), "%s/smt/active", root);
	if (read_int(path, &t->smt_active))
		t->smt_active = -1;
	*out = t;
	return 0;
oom:
	ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
fail:
	pk_topology__free(t);
	return ret;
}

int pk_topology__read(struct pk_topology **out, const char *root, struct pk_error *err)
{
	return topology_read(out, root, false, err);
}

int pk_topology_read_lists(struct pk_topology **out, const char *root, struct pk_error *err)
{
	return topology_read(out, root, true, err);
}

const struct pk_cpu_map *pk_topology__online(const struct pk_topology *t)
{
	return t->online;
}

const struct pk_cpu_map *pk_topology__present(const struct pk_topology *t)
{
	return t->present;
}

static const struct cpu_info *info_of(const struct pk_topology *t, int cpu)
{
	int i = pk_cpu_map__idx(t->present, cpu);
	return i >= 0 && t->info[i].known ? &t->info[i] : NULL;
}

const char *pk_topology_cpu_list(const struct pk_topology *t, int cpu, enum pk_topo_list which)
{
	const struct cpu_info *ci = info_of(t, cpu);
	return ci ? ci->lists[which] : NULL;
}

int pk_topology_die_id(const struct pk_topology *t, int cpu)
{
	const struct cpu_info *ci = info_of(t, cpu);
	return ci ? ci->die_id : -1;
}

int pk_topology__cpu(const struct pk_topology *t, int cpu, struct pk_cpu_topo *out)
{
	const struct cpu_info *ci = info_of(t, cpu);
	if (!ci)
		return -ENOENT;
	*out = ci->topo;
	return 0;
}

/* Distinct keys of mode over the online CPUs with a topology; the largest group size in *max_group. */
static unsigned count_keys(const struct pk_topology *t, enum pk_stat_aggr mode, unsigned *max_group)
{
	struct pk_aggr_id *ids = NULL;
	size_t nr = 0;
	unsigned n = 0;

	if (max_group)
		*max_group = 0;
	struct pk_cpu_map *m = NULL;
	size_t no = pk_cpu_map__nr(t->online);
	int *cpus = malloc((no ? no : 1) * sizeof(int));
	size_t k = 0;
	if (!cpus)
		return 0;
	for (size_t i = 0; i < no; i++) {
		int cpu = pk_cpu_map__cpu(t->online, i);
		if (info_of(t, cpu))
			cpus[k++] = cpu;
	}
	if (!pk_cpu_map__new(&m, cpus, k) && !pk_topology__aggr_ids(t, mode, m, &ids, &nr)) {
		n = (unsigned)nr;
		for (size_t a = 0; max_group && a < nr; a++) {
			unsigned g = 0;
			for (size_t i = 0; i < k; i++) {
				struct pk_aggr_id id = pk_topology__aggr_id(t, mode, cpus[i]);
				g += pk_aggr_id__equal(&id, &ids[a]);
			}
			if (g > *max_group)
				*max_group = g;
		}
	}
	free(ids);
	free(cpus);
	pk_cpu_map__free(m);
	return n;
}

bool pk_topology__smt_on(const struct pk_topology *t)
{
	unsigned max_group;
	if (t->smt_active >= 0)
		return t->smt_active == 1;
	count_keys(t, PK_STAT_AGGR_CORE, &max_group);
	return max_group > 1;
}

unsigned pk_topology__nr_packages(const struct pk_topology *t)
{
	return count_keys(t, PK_STAT_AGGR_SOCKET, NULL);
}

unsigned pk_topology__nr_dies(const struct pk_topology *t)
{
	return count_keys(t, PK_STAT_AGGR_DIE, NULL);
}

unsigned pk_topology__nr_cores(const struct pk_topology *t)
{
	return count_keys(t, PK_STAT_AGGR_CORE, NULL);
}

unsigned pk_topology__num_cpus(const struct pk_topology *t)
{
	size_t n = pk_cpu_map__nr(t->present);
	return n ? (unsigned)pk_cpu_map__cpu(t->present, n - 1) + 1 : 0;
}

unsigned pk_topology__num_cpus_online(const struct pk_topology *t)
{
	return (unsigned)pk_cpu_map__nr(t->online);
}

/* --- aggregation ---------------------------------------------------------------------------- */

static const struct pk_aggr_id no_id = { -1, -1, -1, -1, -1, -1 };

struct pk_aggr_id pk_topology__aggr_id(const struct pk_topology *t, enum pk_stat_aggr mode, int cpu)
{
	struct pk_aggr_id id = no_id;
	const struct cpu_info *ci = t ? info_of(t, cpu) : NULL;
	struct pk_cpu_topo tp = ci ? ci->topo : (struct pk_cpu_topo){ -1, -1, -1, -1 };

	switch (mode) {
	case PK_STAT_AGGR_CPU:
		id.cpu = cpu;
		/* fall through */
	case PK_STAT_AGGR_CORE:
		id.core = tp.core;
		/* fall through */
	case PK_STAT_AGGR_CLUSTER:
		id.cluster = tp.cluster;
		/* fall through */
	case PK_STAT_AGGR_DIE:
		id.die = tp.die;
		/* fall through */
	case PK_STAT_AGGR_SOCKET:
		id.socket = tp.socket;
		break;
	case PK_STAT_AGGR_GLOBAL:
	case PK_STAT_AGGR_THREAD:
		break;
	}
	return id;
}

bool pk_aggr_id__equal(const struct pk_aggr_id *a, const struct pk_aggr_id *b)
{
	return a->socket == b->socket && a->die == b->die && a->cluster == b->cluster &&
	       a->core == b->core && a->cpu == b->cpu && a->thread == b->thread;
}

static int cmp3(int a, int b)
{
	return (a > b) - (a < b);
}

static int cmp_topo(const void *pa, const void *pb)
{
	const struct pk_aggr_id *a = pa, *b = pb;
	int r;
	if ((r = cmp3(a->socket, b->socket)) || (r = cmp3(a->die, b->die)) ||
	    (r = cmp3(a->cluster, b->cluster)) || (r = cmp3(a->core, b->core)))
		return r;
	return cmp3(a->cpu, b->cpu);
}

int pk_topology__aggr_ids(const struct pk_topology *t, enum pk_stat_aggr mode,
			  const struct pk_cpu_map *map, struct pk_aggr_id **ids, size_t *nr)
{
	size_t n = pk_cpu_map__nr(map), k = 0;

	*ids = NULL;
	*nr = 0;
	if (mode == PK_STAT_AGGR_THREAD)
		return -EINVAL;
	if (mode == PK_STAT_AGGR_GLOBAL) {
		if (!(*ids = malloc(sizeof(**ids))))
			return -ENOMEM;
		(*ids)[0] = no_id;
		*nr = 1;
		return 0;
	}
	if (!n)
		return 0;
	struct pk_aggr_id *v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct pk_aggr_id id = pk_topology__aggr_id(t, mode, pk_cpu_map__cpu(map, i));
		bool dup = false;
		for (size_t j = 0; j < k && !dup; j++)
			dup = pk_aggr_id__equal(&v[j], &id);
		if (!dup)
			v[k++] = id;
	}
	/* perf keeps -A in CPU map order (already ascending); the others sorted by place */
	if (mode != PK_STAT_AGGR_CPU)
		qsort(v, k, sizeof(*v), cmp_topo);
	*ids = v;
	*nr = k;
	return 0;
}

const char *pk_aggr_id__format(const struct pk_aggr_id *id, enum pk_stat_aggr mode, char *buf,
			       size_t len)
{
	switch (mode) {
	case PK_STAT_AGGR_CPU:
		snprintf(buf, len, "CPU%d", id->cpu);
		break;
	case PK_STAT_AGGR_CORE:
		snprintf(buf, len, "S%d-D%d-C%d", id->socket, id->die, id->core);
		break;
	case PK_STAT_AGGR_CLUSTER:
		snprintf(buf, len, "S%d-D%d-CLS%d", id->socket, id->die, id->cluster);
		break;
	case PK_STAT_AGGR_DIE:
		snprintf(buf, len, "S%d-D%d", id->socket, id->die);
		break;
	case PK_STAT_AGGR_SOCKET:
		snprintf(buf, len, "S%d", id->socket);
		break;
	case PK_STAT_AGGR_THREAD:
		snprintf(buf, len, "%d", id->thread);
		break;
	case PK_STAT_AGGR_GLOBAL:
	default:
		if (len)
			buf[0] = '\0';
		break;
	}
	return buf;
}
