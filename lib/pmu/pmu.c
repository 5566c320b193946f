/* SPDX-License-Identifier: MIT */
/*
 * pmu/pmu.c — PMU discovery: walks a PMU tree (/sys/bus/event_source/devices
 * or a fake one), reads each PMU's type, format/, events/ (with their
 * .unit/.scale/.per-pkg/.snapshot side files), caps/, cpumask/cpus and
 * identifier into one arena, and answers lookups on the result.
 */
#include <pmukit/pmu.h>

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmu/pmu_int.h"
#include "util/arena.h"
#include "util/bsearch.h"
#include "util/error.h"
#include "util/grow.h"

/* Larger files are treated as absent: sysfs attributes fit in one page. */
#define READ_CAP (64 * 1024)

/* State of one pk_pmu_tree__open() call. */
struct scan {
	const char *root;		/* for messages */
	struct pk_arena *arena;
	char *buf;			/* READ_CAP + 1 bytes */
	locale_t c_locale;		/* for .scale, written by the kernel in "C" */
	struct pk_pmu_problem *tree_problems;	/* entries that are not PMUs, and why */
};

/* --- small helpers ---------------------------------------------------------- */

/* A growable array of elsize-byte elements; returns a zeroed new slot. */
struct vec {
	void *data;
	size_t n, cap, elsize;
};

static void *vec_push(struct vec *v)
{
	if (pk_grow(&v->data, &v->cap, v->n + 1, v->elsize))
		return NULL;
	void *slot = (char *)v->data + v->n++ * v->elsize;
	memset(slot, 0, v->elsize);
	return slot;
}

/* Copy of the vector's elements into the arena (NULL for none); *ok false on ENOMEM. */
static void *vec_to_arena(struct vec *v, struct pk_arena *a, bool *ok)
{
	void *p = NULL;
	if (v->n) {
		p = pk_arena__alloc(a, v->n * v->elsize);
		if (p)
			memcpy(p, v->data, v->n * v->elsize);
		else
			*ok = false;
	}
	free(v->data);
	v->data = NULL;
	v->n = v->cap = 0;
	return p;
}

static int ascii_casecmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = (unsigned char)*a, cb = (unsigned char)*b;
		if (ca >= 'A' && ca <= 'Z')
			ca += 'a' - 'A';
		if (cb >= 'A' && cb <= 'Z')
			cb += 'a' - 'A';
		if (ca != cb || !ca)
			return ca - cb;
	}
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls > lx && !strcmp(s + ls - lx, suffix);
}

/* --- reading the tree --------------------------------------------------------- */

/*
 * The content of dirfd/name, NUL-terminated in s->buf (valid until the next
 * read), or NULL when it is not a regular file, cannot be read, or is larger
 * than READ_CAP. O_NONBLOCK: a FIFO planted in a tree must not hang us.
 */
static const char *read_raw(int dirfd, const char *name, struct scan *s)
{
	struct stat st;
	size_t n = 0;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto fail;
	for (;;) {
		ssize_t r = read(fd, s->buf + n, READ_CAP + 1 - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > READ_CAP)
			goto fail;
	}
	close(fd);
	s->buf[n] = '\0';
	return s->buf;
fail:
	close(fd);
	return NULL;
}

/*
 * The trimmed content of dirfd/name copied into the arena: 0 with *out set,
 * or NULL when absent (see read_raw); -ENOMEM.
 */
static int read_value(int dirfd, const char *name, struct scan *s, const char **out)
{
	const char *raw = read_raw(dirfd, name, s);
	size_t len;

	*out = NULL;
	if (!raw)
		return 0;
	while (is_space(*raw))
		raw++;
	len = strlen(raw);
	while (len && is_space(raw[len - 1]))
		len--;
	*out = pk_arena__strndup(s->arena, raw, len);
	return *out ? 0 : -ENOMEM;
}

static bool exists_at(int dirfd, const char *name)
{
	return faccessat(dirfd, name, F_OK, 0) == 0;
}

/*
 * The entry names of directory dirfd (not "." or ".."), copied into the arena,
 * as a malloc'd array in *names (free() it). An unreadable directory has no
 * entries. 0 or -ENOMEM.
 */
static int list_dir(int dirfd, struct scan *s, const char ***names, size_t *nr)
{
	struct vec v = { .elsize = sizeof(const char *) };
	struct dirent *de;
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	*names = NULL;
	*nr = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		const char **slot;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		slot = vec_push(&v);
		if (!slot || !(*slot = pk_arena__strdup(s->arena, de->d_name))) {
			closedir(d);
			free(v.data);
			return -ENOMEM;
		}
	}
	closedir(d);
	*names = v.data;
	*nr = v.n;
	return 0;
}

/* A subdirectory fd, or -1 when sub is missing or not a directory. */
static int open_subdir(int dirfd, const char *sub)
{
	return openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static bool parse_u32(const char *p, uint32_t *out)
{
	uint64_t v = 0;
	const char *start;

	while (is_space(*p))
		p++;
	start = p;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return false;
		p++;
	}
	if (p == start)
		return false;
	while (is_space(*p))
		p++;
	if (*p)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int format_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pk_pmu_format *)a)->name,
		      ((const struct pk_pmu_format *)b)->name);
}

/* Note why name was left out: "ROOT/PMU/SUB/FILE: why"; 0 or -ENOMEM. */
static int add_problem(struct scan *s, struct pk_pmu_problem **list, const char *name,
		       const char *pmu, const char *sub, const char *why)
{
	char msg[PATH_MAX + 256];
	snprintf(msg, sizeof(msg), "%s/%s%s%s: %s", s->root, pmu, sub ? "/" : "", sub ? sub : "", why);
	struct pk_pmu_problem *p = pk_arena__alloc(s->arena, sizeof(*p));
	if (!p || !(p->msg = pk_arena__strdup(s->arena, msg)))
		return -ENOMEM;
	p->name = name;
	p->next = *list;
	*list = p;
	return 0;
}

static int read_formats(int pmufd, struct scan *s, struct pk_pmu *pmu)
{
	struct vec v = { .elsize = sizeof(struct pk_pmu_format) };
	const char **names;
	size_t nr;
	bool ok = true;
	int dfd = open_subdir(pmufd, "format");
	int rc;

	if (dfd < 0)
		return 0;
	rc = list_dir(dfd, s, &names, &nr);
	for (size_t i = 0; !rc && i < nr; i++) {
		struct pk_pmu_format f = { .name = names[i] };
		const char *body = read_raw(dfd, names[i], s);
		struct pk_pmu_format *slot;

		char why[160], sub[NAME_MAX + 16];
		if (!body || pk_pmu_format__parse_why(body, &f, why, sizeof(why)) != 0) {
			/* skipped, and said when the term is used */
			snprintf(sub, sizeof(sub), "format/%s", names[i]);
			rc = add_problem(s, &pmu->format_problems, names[i], pmu->name, sub,
					 body ? why : "cannot be read");
			continue;
		}
		slot = vec_push(&v);
		if (!slot)
			rc = -ENOMEM;
		else
			*slot = f;
	}
	free(names);
	close(dfd);
	if (v.n)
		qsort(v.data, v.n, v.elsize, format_cmp);
	pmu->nr_formats = v.n;
	pmu->formats = vec_to_arena(&v, s->arena, &ok);
	return rc ? rc : ok ? 0 : -ENOMEM;
}

static bool is_side_file(const char *name)
{
	return has_suffix(name, ".unit") || has_suffix(name, ".scale") ||
	       has_suffix(name, ".per-pkg") || has_suffix(name, ".snapshot");
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Side file NAME.suffix of events/, when the (sorted) listing has it: 0 or -ENOMEM. */
static int read_side(int evfd, const char *const *sorted, size_t nr, const char *name,
		     const char *suffix, struct scan *s, const char **out)
{
	char path[NAME_MAX + 16];
	const char *key = path;

	*out = NULL;
	snprintf(path, sizeof(path), "%s%s", name, suffix);
	if (!bsearch(&key, sorted, nr, sizeof(*sorted), str_cmp))
		return 0;	/* no open(2) for a file the listing does not have */
	return read_value(evfd, path, s, out);
}

/* Fill alias a (name and encoding set) from its side files among the sorted names. */
static int read_side_files(int evfd, const char *const *sorted, size_t nr, struct scan *s,
			   struct pk_pmu_alias *a)
{
	const char *v;
	int rc;

	a->scale = 1.0;
	if ((rc = read_side(evfd, sorted, nr, a->name, ".unit", s, &a->unit)))
		return rc;
	if ((rc = read_side(evfd, sorted, nr, a->name, ".scale", s, &v)))
		return rc;
	if (v) {
		char *end;
		double d = strtod_l(v, &end, s->c_locale);
		if (end != v && !*end && isfinite(d))
			a->scale = d;
	}
	if ((rc = read_side(evfd, sorted, nr, a->name, ".per-pkg", s, &v)))
		return rc;
	a->per_pkg = v && strcmp(v, "0");
	if ((rc = read_side(evfd, sorted, nr, a->name, ".snapshot", s, &v)))
		return rc;
	a->snapshot = v && strcmp(v, "0");
	return 0;
}

static int alias_cmp(const void *a, const void *b)
{
	const char *na = ((const struct pk_pmu_alias *)a)->name;
	const char *nb = ((const struct pk_pmu_alias *)b)->name;
	int c = ascii_casecmp(na, nb);
	return c ? c : strcmp(na, nb);
}

static int read_aliases(int pmufd, struct scan *s, struct pk_pmu *pmu)
{
	struct vec v = { .elsize = sizeof(struct pk_pmu_alias) };
	const char **names;
	size_t nr;
	bool ok = true;
	int dfd = open_subdir(pmufd, "events");
	int rc;

	if (dfd < 0)
		return 0;
	rc = list_dir(dfd, s, &names, &nr);
	if (nr)
		qsort(names, nr, sizeof(*names), str_cmp);
	for (size_t i = 0; !rc && i < nr; i++) {
		struct pk_pmu_alias a = { .name = names[i] };

		if (is_side_file(names[i]))
			continue;
		rc = read_value(dfd, names[i], s, &a.encoding);
		if (rc || !a.encoding)
			continue;
		rc = read_side_files(dfd, names, nr, s, &a);
		if (!rc) {
			struct pk_pmu_alias *slot = vec_push(&v);
			if (!slot)
				rc = -ENOMEM;
			else
				*slot = a;
		}
	}
	free(names);
	close(dfd);
	if (v.n)
		qsort(v.data, v.n, v.elsize, alias_cmp);
	pmu->nr_aliases = v.n;
	pmu->aliases = vec_to_arena(&v, s->arena, &ok);
	return rc ? rc : ok ? 0 : -ENOMEM;
}

static int cap_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pk_pmu_cap *)a)->name, ((const struct pk_pmu_cap *)b)->name);
}

static int read_caps(int pmufd, struct scan *s, struct pk_pmu *pmu)
{
	struct vec v = { .elsize = sizeof(struct pk_pmu_cap) };
	const char **names;
	size_t nr;
	bool ok = true;
	int dfd = open_subdir(pmufd, "caps");
	int rc;

	if (dfd < 0)
		return 0;
	rc = list_dir(dfd, s, &names, &nr);
	for (size_t i = 0; !rc && i < nr; i++) {
		struct pk_pmu_cap c = { .name = names[i] };
		struct pk_pmu_cap *slot;

		rc = read_value(dfd, names[i], s, &c.value);
		if (rc || !c.value)
			continue;
		slot = vec_push(&v);
		if (!slot)
			rc = -ENOMEM;
		else
			*slot = c;
	}
	free(names);
	close(dfd);
	if (v.n)
		qsort(v.data, v.n, v.elsize, cap_cmp);
	pmu->nr_caps = v.n;
	pmu->caps = vec_to_arena(&v, s->arena, &ok);
	return rc ? rc : ok ? 0 : -ENOMEM;
}

/*
 * Read PMU `name` of the tree into *pmu: 1 when it is a PMU, 0 when the entry
 * is not one (no directory, no valid type), -ENOMEM.
 */
static int read_pmu(int rootfd, const char *name, struct scan *s, struct pk_pmu *pmu)
{
	const char *raw;
	int rc, fd = open_subdir(rootfd, name);

	if (fd < 0)
		return 0;
	raw = read_raw(fd, "type", s);
	if (!raw || !parse_u32(raw, &pmu->type)) {
		close(fd);
		char why[96];
		if (raw)
			snprintf(why, sizeof(why), "'%.*s' is not a PMU type number",
				 (int)(strcspn(raw, "\n") > 40 ? 40 : strcspn(raw, "\n")), raw);
		else
			snprintf(why, sizeof(why), "missing or unreadable");
		int r = add_problem(s, &s->tree_problems, name, name, "type", why);
		return r ? r : 0;
	}
	pmu->name = name;
	pmu->is_core = !strcmp(name, "cpu") || !strcmp(name, "cpum_cf") || exists_at(fd, "cpus");
	pmu->is_uncore = exists_at(fd, "cpumask");
	rc = read_value(fd, "cpumask", s, &pmu->cpus);
	if (!rc && (!pmu->cpus || !*pmu->cpus))
		rc = read_value(fd, "cpus", s, &pmu->cpus);
	if (!rc)
		rc = read_value(fd, "identifier", s, &pmu->identifier);
	if (!rc)
		rc = read_formats(fd, s, pmu);
	if (!rc)
		rc = read_aliases(fd, s, pmu);
	if (!rc)
		rc = read_caps(fd, s, pmu);
	close(fd);
	return rc ? rc : 1;
}

/*
 * Name order with digit runs compared as numbers (glibc's strverscmp, as
 * `ls -v`): uncore_cha_2 before uncore_cha_10; strcmp breaks any tie.
 */
int pk_pmu__cmp(const void *a, const void *b)
{
	const char *na = ((const struct pk_pmu *)a)->name;
	const char *nb = ((const struct pk_pmu *)b)->name;
	int c = strverscmp(na, nb);

	return c ? c : strcmp(na, nb);
}

int pk_pmu_tree__open(struct pk_pmu_tree **out, const char *root, struct pk_error *err)
{
	struct pk_pmu_tree *tree;
	struct scan s = { 0 };
	struct vec pmus = { .elsize = sizeof(struct pk_pmu) };
	const char **names = NULL;
	size_t nr = 0;
	int rootfd, rc;

	if (!out)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "no output for the PMU tree");
	*out = NULL;
	if (!root)
		root = PK_SYSFS_DEFAULT;
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		int e = errno;
		return pk_error__set(err, -e, root, 0, 0, "cannot open PMU tree: %s", strerror(e));
	}
	tree = calloc(1, sizeof(*tree));
	s.root = root;
	s.buf = malloc(READ_CAP + 1);
	s.c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	s.arena = tree ? &tree->arena : NULL;
	rc = tree && s.buf && s.c_locale ? list_dir(rootfd, &s, &names, &nr) : -ENOMEM;
	for (size_t i = 0; !rc && i < nr; i++) {
		struct pk_pmu pmu = { 0 };
		int r = read_pmu(rootfd, names[i], &s, &pmu);
		struct pk_pmu *slot;

		if (r < 0)
			rc = r;
		else if (r > 0 && !(slot = vec_push(&pmus)))
			rc = -ENOMEM;
		else if (r > 0)
			*slot = pmu;
	}
	free(names);
	free(s.buf);
	if (s.c_locale)
		freelocale(s.c_locale);
	close(rootfd);
	if (rc) {
		free(pmus.data);
		pk_pmu_tree__free(tree);
		return pk_error__set(err, rc, root, 0, 0, "reading the PMU tree: %s", strerror(-rc));
	}
	if (pmus.n)
		qsort(pmus.data, pmus.n, pmus.elsize, pk_pmu__cmp);
	tree->pmus = pmus.data;
	tree->nr_pmus = pmus.n;
	tree->pmu_problems = s.tree_problems;
	if ((rc = pk_pmu_tree__derive(tree))) {
		pk_pmu_tree__free(tree);
		return pk_error__set(err, rc, root, 0, 0, "reading the PMU tree: %s", strerror(-rc));
	}
	*out = tree;
	return 0;
}

void pk_pmu_tree__free(struct pk_pmu_tree *tree)
{
	if (!tree)
		return;
	free(tree->pmus);
	pk_pmu_tree__free_derived(tree);
	pk_arena__free(&tree->arena);
	free(tree);
}

/* --- lookups ------------------------------------------------------------------ */

size_t pk_pmu_tree__nr_pmus(const struct pk_pmu_tree *tree)
{
	return tree ? tree->nr_pmus : 0;
}

const struct pk_pmu *pk_pmu_tree__pmu(const struct pk_pmu_tree *tree, size_t idx)
{
	return tree && idx < tree->nr_pmus ? &tree->pmus[idx] : NULL;
}

const struct pk_pmu *pk_pmu_tree__find(const struct pk_pmu_tree *tree, const char *name)
{
	if (!tree || !name)
		return NULL;
	/* A few hundred PMUs at most; the order is not strcmp's, so scan. */
	for (size_t i = 0; i < tree->nr_pmus; i++)
		if (!strcmp(tree->pmus[i].name, name))
			return &tree->pmus[i];
	return NULL;
}

const char *pk_pmu__name(const struct pk_pmu *pmu)
{
	return pmu ? pmu->name : NULL;
}

uint32_t pk_pmu__type(const struct pk_pmu *pmu)
{
	return pmu ? pmu->type : 0;
}

bool pk_pmu__is_core(const struct pk_pmu *pmu)
{
	return pmu ? pmu->is_core : false;
}

bool pk_pmu__is_uncore(const struct pk_pmu *pmu)
{
	return pmu ? pmu->is_uncore : false;
}

const char *pk_pmu__cpus(const struct pk_pmu *pmu)
{
	return pmu ? pmu->cpus : NULL;
}

const char *pk_pmu__identifier(const struct pk_pmu *pmu)
{
	return pmu ? pmu->identifier : NULL;
}

size_t pk_pmu__nr_formats(const struct pk_pmu *pmu)
{
	return pmu ? pmu->nr_formats : 0;
}

const struct pk_pmu_format *pk_pmu__format(const struct pk_pmu *pmu, size_t idx)
{
	return pmu && idx < pmu->nr_formats ? &pmu->formats[idx] : NULL;
}

/* Formats are in strcmp order; the first bytes are compared inline, strcmp only on a tie. */
static bool format_before(const void *elem, const void *key)
{
	const unsigned char *fn = (const unsigned char *)((const struct pk_pmu_format *)elem)->name;
	const unsigned char *name = key;
	return fn[0] != name[0] ? fn[0] < name[0] : strcmp((const char *)fn, key) < 0;
}

const struct pk_pmu_format *pk_pmu__find_format(const struct pk_pmu *pmu, const char *name)
{
	if (!pmu || !name)
		return NULL;
	if (pmu->derived.format_bloom_set &&
	    !(pmu->derived.format_bloom & pk_pmu__alias_bloom_bit(name)))
		return NULL;	/* no format starts with these two letters */
	size_t i = pk_bsearch(name, pmu->formats, pmu->nr_formats, sizeof(*pmu->formats),
			      format_before);
	return i < pmu->nr_formats && !strcmp(pmu->formats[i].name, name) ? &pmu->formats[i] : NULL;
}

size_t pk_pmu__nr_aliases(const struct pk_pmu *pmu)
{
	return pmu ? pmu->nr_aliases : 0;
}

const struct pk_pmu_alias *pk_pmu__alias(const struct pk_pmu *pmu, size_t idx)
{
	return pmu && idx < pmu->nr_aliases ? &pmu->aliases[idx] : NULL;
}

static bool alias_before(const void *elem, const void *key)
{
	return ascii_casecmp(((const struct pk_pmu_alias *)elem)->name, key) < 0;
}

/* The exact-case alias when there is one, else the first that differs only in case. */
const struct pk_pmu_alias *pk_pmu__find_alias(const struct pk_pmu *pmu, const char *name)
{
	if (!pmu || !name)
		return NULL;
	if (pmu->derived.alias_bloom_set && !(pmu->derived.alias_bloom & pk_pmu__alias_bloom_bit(name)))
		return NULL;	/* no alias starts with these two letters */
	/* the first alias not below name, ignoring case */
	size_t lo = pk_bsearch(name, pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases),
			       alias_before);
	for (size_t i = lo; i < pmu->nr_aliases; i++) {
		if (ascii_casecmp(pmu->aliases[i].name, name))
			break;
		if (!strcmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	}
	if (lo < pmu->nr_aliases && !ascii_casecmp(pmu->aliases[lo].name, name))
		return &pmu->aliases[lo];
	return NULL;
}

const char *pk_pmu__cap(const struct pk_pmu *pmu, const char *name)
{
	struct pk_pmu_cap key = { .name = name };
	const struct pk_pmu_cap *c;

	if (!pmu || !name || !pmu->nr_caps)
		return NULL;
	c = bsearch(&key, pmu->caps, pmu->nr_caps, sizeof(key), cap_cmp);
	return c ? c->value : NULL;
}

static const char *find_problem(const struct pk_pmu_problem *p, const char *name)
{
	for (; p; p = p->next)
		if (!strcmp(p->name, name))
			return p->msg;
	return NULL;
}

const char *pk_pmu__format_problem(const struct pk_pmu *pmu, const char *name)
{
	return pmu && name ? find_problem(pmu->format_problems, name) : NULL;
}

const char *pk_pmu_tree__pmu_problem(const struct pk_pmu_tree *tree, const char *name)
{
	return tree && name ? find_problem(tree->pmu_problems, name) : NULL;
}
