/* SPDX-License-Identifier: MIT */
/*
 * cpumap.c — CPU sets (pmukit/cpumap.h): perf's CPU list syntax parsed with
 * the position of a bad byte, sysfs list files (online, present, PMU cpus),
 * lookup by binary search, intersection/merge, printing back as a list.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/cpumap.h>

#include "count/count_int.h"
#include "util/bsearch.h"
#include "util/error.h"
#include "util/grow.h"

struct pk_cpu_map {
	size_t nr;
	int cpu[];
};

static struct pk_cpu_map *map_alloc(size_t nr)
{
	struct pk_cpu_map *m = malloc(sizeof(*m) + (nr ? nr : 1) * sizeof(int));
	if (m)
		m->nr = nr;
	return m;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int pk_cpu_map__new(struct pk_cpu_map **out, const int *cpus, size_t nr)
{
	*out = NULL;
	for (size_t i = 0; i < nr; i++)
		if (cpus[i] < 0 || cpus[i] >= PK_CPU_MAX)
			return -EINVAL;
	struct pk_cpu_map *m = map_alloc(nr);
	if (!m)
		return -ENOMEM;
	if (nr)
		memcpy(m->cpu, cpus, nr * sizeof(int));
	qsort(m->cpu, nr, sizeof(int), cmp_int);
	size_t j = 0;
	for (size_t i = 0; i < nr; i++)
		if (!j || m->cpu[j - 1] != m->cpu[i])
			m->cpu[j++] = m->cpu[i];
	m->nr = j;
	*out = m;
	return 0;
}

struct pk_cpu_map *pk_cpu_map__dup(const struct pk_cpu_map *map)
{
	size_t nr = pk_cpu_map__nr(map);
	struct pk_cpu_map *m = map_alloc(nr);
	if (m && nr)
		memcpy(m->cpu, map->cpu, nr * sizeof(int));
	return m;
}

void pk_cpu_map__free(struct pk_cpu_map *map)
{
	free(map);
}

size_t pk_cpu_map__nr(const struct pk_cpu_map *map)
{
	return map ? map->nr : 0;
}

int pk_cpu_map__cpu(const struct pk_cpu_map *map, size_t idx)
{
	return map && idx < map->nr ? map->cpu[idx] : -1;
}

static bool cpu_before(const void *elem, const void *key)
{
	return *(const int *)elem < *(const int *)key;
}

int pk_cpu_map__idx(const struct pk_cpu_map *map, int cpu)
{
	size_t nr = pk_cpu_map__nr(map);
	size_t i = nr ? pk_bsearch(&cpu, map->cpu, nr, sizeof(int), cpu_before) : 0;
	return i < nr && map->cpu[i] == cpu ? (int)i : -1;
}

bool pk_cpu_map__has(const struct pk_cpu_map *map, int cpu)
{
	return pk_cpu_map__idx(map, cpu) >= 0;
}

bool pk_cpu_map__equal(const struct pk_cpu_map *a, const struct pk_cpu_map *b)
{
	size_t n = pk_cpu_map__nr(a);
	if (n != pk_cpu_map__nr(b))
		return false;
	return !n || !memcmp(a->cpu, b->cpu, n * sizeof(int));
}

bool pk_cpu_map__is_subset(const struct pk_cpu_map *map, const struct pk_cpu_map *sub)
{
	for (size_t i = 0; i < pk_cpu_map__nr(sub); i++)
		if (!pk_cpu_map__has(map, sub->cpu[i]))
			return false;
	return true;
}

int pk_cpu_map__intersect(const struct pk_cpu_map *a, const struct pk_cpu_map *b,
			  struct pk_cpu_map **out)
{
	size_t na = pk_cpu_map__nr(a), nb = pk_cpu_map__nr(b), i = 0, j = 0;
	struct pk_cpu_map *m = map_alloc(na < nb ? na : nb);

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->nr = 0;
	while (i < na && j < nb) {
		if (a->cpu[i] < b->cpu[j])
			i++;
		else if (a->cpu[i] > b->cpu[j])
			j++;
		else {
			m->cpu[m->nr++] = a->cpu[i];
			i++;
			j++;
		}
	}
	*out = m;
	return 0;
}

int pk_cpu_map__merge(const struct pk_cpu_map *a, const struct pk_cpu_map *b,
		      struct pk_cpu_map **out)
{
	size_t na = pk_cpu_map__nr(a), nb = pk_cpu_map__nr(b), i = 0, j = 0;
	struct pk_cpu_map *m = map_alloc(na + nb);

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->nr = 0;
	while (i < na || j < nb) {
		if (j >= nb || (i < na && a->cpu[i] < b->cpu[j]))
			m->cpu[m->nr++] = a->cpu[i++];
		else if (i >= na || b->cpu[j] < a->cpu[i])
			m->cpu[m->nr++] = b->cpu[j++];
		else {
			m->cpu[m->nr++] = a->cpu[i++];
			j++;
		}
	}
	*out = m;
	return 0;
}

size_t pk_cpu_map__format(const struct pk_cpu_map *map, char *buf, size_t len)
{
	size_t need = 0, n = pk_cpu_map__nr(map);

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && map->cpu[j + 1] == map->cpu[j] + 1)
			j++;
		char item[32];
		int w = j > i ? snprintf(item, sizeof(item), "%s%d-%d", i ? "," : "", map->cpu[i], map->cpu[j])
			      : snprintf(item, sizeof(item), "%s%d", i ? "," : "", map->cpu[i]);
		if (need + (size_t)w < len)
			memcpy(buf + need, item, (size_t)w + 1);
		else if (len && need < len)
			buf[need] = '\0';
		need += (size_t)w;
		i = j + 1;
	}
	return need;
}

/* --- parsing -------------------------------------------------------------------------------- */

/* A decimal CPU number at s[*pos]; -1 (pos unchanged) when none, -2 when too large. */
static long parse_num(const char *s, size_t *pos)
{
	size_t p = *pos;
	long v = 0;

	if (!isdigit((unsigned char)s[p]))
		return -1;
	while (isdigit((unsigned char)s[p])) {
		v = v * 10 + (s[p] - '0');
		if (v >= PK_CPU_MAX)
			return -2;
		p++;
	}
	*pos = p;
	return v;
}

static int bad(struct pk_error *err, const char *file, size_t off, const char *fmt, const char *what)
{
	char msg[192];
	snprintf(msg, sizeof(msg), fmt, what);
	return pk_error__set(err, -EINVAL, file, file ? 1 : 0, (unsigned)off + 1,
			     "invalid CPU list: %s at offset %zu", msg, off);
}

static const char *show(const char *s, size_t off, char *buf, size_t len)
{
	unsigned char c = (unsigned char)s[off];
	if (!c)
		snprintf(buf, len, "end of list");
	else if (isprint(c))
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

/* Parse the terminated list s; file (or NULL) goes into err. */
int pk_cpu_map_parse_in(const char *s, const char *file, struct pk_cpu_map **out,
			struct pk_error *err)
{
	uint8_t *seen = calloc(PK_CPU_MAX / 8, 1);
	int *cpus = NULL;
	size_t nr = 0, cap = 0, pos = 0;
	char tmp[32];
	int ret;

	*out = NULL;
	if (!seen)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	if (!s[0]) {
		ret = pk_error__set(err, -EINVAL, file, file ? 1 : 0, 1, "invalid CPU list: empty");
		goto out;
	}
	while (s[pos]) {
		size_t start = pos;
		long lo = parse_num(s, &pos), hi;
		if (lo < 0) {
			ret = bad(err, file, pos, lo == -2 ? "CPU number too large (max %s)" :
				  "expected a CPU number, got %s", lo == -2 ? "65535" : show(s, pos, tmp, sizeof(tmp)));
			goto out;
		}
		hi = lo;
		if (s[pos] == '-') {
			size_t hpos = ++pos;
			hi = parse_num(s, &pos);
			if (hi < 0) {
				ret = bad(err, file, hpos, hi == -2 ? "CPU number too large (max %s)" :
					  "expected the end of the range, got %s",
					  hi == -2 ? "65535" : show(s, hpos, tmp, sizeof(tmp)));
				goto out;
			}
			if (hi < lo) {
				char r[64];
				snprintf(r, sizeof(r), "%ld-%ld", lo, hi);
				ret = bad(err, file, hpos, "range %s ends below its start", r);
				goto out;
			}
		}
		if (s[pos] && s[pos] != ',') {
			ret = bad(err, file, pos, "expected ',' or '-', got %s", show(s, pos, tmp, sizeof(tmp)));
			goto out;
		}
		for (long c = lo; c <= hi; c++) {
			if (seen[c / 8] & (1u << (c % 8))) {
				char r[32];
				snprintf(r, sizeof(r), "%ld", c);
				ret = bad(err, file, start, "CPU %s listed twice", r);
				goto out;
			}
			seen[c / 8] |= (uint8_t)(1u << (c % 8));
			if (PK_GROW(cpus, cap, nr + 1)) {
				ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
				goto out;
			}
			cpus[nr++] = (int)c;
		}
		if (s[pos] == ',')
			pos++;
	}
	ret = pk_cpu_map__new(out, cpus, nr);
	if (ret)
		pk_error__set(err, ret, NULL, 0, 0, "out of memory");
out:
	free(cpus);
	free(seen);
	return ret;
}

int pk_cpu_map__parse(struct pk_cpu_map **out, const char *list, struct pk_error *err)
{
	return pk_cpu_map_parse_in(list ? list : "", NULL, out, err);
}

int pk_count_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -EIO;
	}
	size_t n = 0;
	while (n + 1 < len) {
		ssize_t r = read(fd, buf + n, len - 1 - n);
		if (r < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return (int)n;
}

int pk_cpu_map__read(struct pk_cpu_map **out, const char *path, struct pk_error *err)
{
	char buf[8192];
	int n = pk_count_read_small(path, buf, sizeof(buf));

	*out = NULL;
	if (n < 0)
		return pk_error__set(err, n, path, 0, 0, "%s", strerror(-n));
	char *s = buf, *e = buf + n;
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (s == e) {
		*out = map_alloc(0);
		return *out ? 0 : pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	return pk_cpu_map_parse_in(s, path, out, err);
}

static int read_root(const char *root, const char *name, struct pk_cpu_map **out,
		     struct pk_error *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", root ? root : PK_CPU_ROOT_DEFAULT, name);
	return pk_cpu_map__read(out, path, err);
}

int pk_cpu_map__online(const char *root, struct pk_cpu_map **out, struct pk_error *err)
{
	return read_root(root, "online", out, err);
}

int pk_cpu_map__present(const char *root, struct pk_cpu_map **out, struct pk_error *err)
{
	return read_root(root, "present", out, err);
}

int pk_count_is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	return S_ISDIR(st.st_mode) ? 1 : 0;
}
