// SPDX-License-Identifier: MIT
/*
 * stat-serve-cgroup.c — -G/--cgroup for `stat` and `stat --serve`: the perf_event
 * cgroup mount (as perf finds it: a cgroup v1 hierarchy with the perf_event
 * controller, else the cgroup2 mount), and each event's cgroup directory
 * opened there, for pk_count_opts.cgroups; --for-each-cgroup's list of
 * cgroups (names, or regular expressions matched over the mount's tree).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <fts.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat-serve-cgroup.h"
#include "util/buf.h"

/* the mount point into buf; 0 or -1 */
static int perf_event_mount(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[4096], v2[PATH_MAX] = "";

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], mnt[PATH_MAX], type[64], opts[1024];
		if (sscanf(line, "%255s %4095s %63s %1023s", dev, mnt, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup2") && !*v2)
			snprintf(v2, sizeof(v2), "%s", mnt);
		if (strcmp(type, "cgroup"))
			continue;
		for (char *tok = strtok(opts, ","); tok; tok = strtok(NULL, ","))
			if (!strcmp(tok, "perf_event")) {
				fclose(f);
				snprintf(buf, len, "%s", mnt);
				return 0;
			}
	}
	fclose(f);
	if (!*v2)
		return -1;
	snprintf(buf, len, "%s", v2);
	return 0;
}

int serve_cgroups__open(struct serve_cgroups *cg, const char *list, size_t nr, size_t nr_named)
{
	char mnt[PATH_MAX];
	size_t items = 1;

	memset(cg, 0, sizeof(*cg));
	cg->nr = nr;
	cg->fd = malloc((nr ? nr : 1) * sizeof(*cg->fd));
	cg->name = calloc(nr ? nr : 1, sizeof(*cg->name));
	cg->list = strdup(list);
	if (!cg->fd || !cg->name || !cg->list) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < nr; i++)
		cg->fd[i] = -1;
	for (const char *p = list; (p = strchr(p, ',')); p++)
		items++;
	if (nr_named > nr)
		nr_named = nr;
	if (items > nr_named) {
		fprintf(stderr, "pmukit stat: -G %s: more cgroups than events (%zu)\n", list, nr_named);
		return -1;
	}
	if (perf_event_mount(mnt, sizeof(mnt))) {
		fprintf(stderr, "pmukit stat: -G: no cgroup mount with the perf_event controller\n");
		return -1;
	}
	char *s = cg->list;
	for (size_t i = 0; i < items; i++) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = 0;
		if (*s) {
			char path[PATH_MAX + 256];
			snprintf(path, sizeof(path), "%s/%s", mnt, *s == '/' ? s + 1 : s);
			int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0) {
				fprintf(stderr, "pmukit stat: -G %s: cannot open %s: %s\n", s, path,
					strerror(errno));
				return -1;
			}
			cg->fd[i] = fd;
			cg->name[i] = s;
		}
		s = comma ? comma + 1 : s;
	}
	/* perf: one cgroup is every event's */
	for (size_t i = 1; items == 1 && i < nr_named; i++) {
		cg->name[i] = cg->name[0];
		cg->fd[i] = cg->fd[0];
	}
	return 0;
}

int serve_cgroups__check(const char *list)
{
	char mnt[PATH_MAX], path[PATH_MAX + 256];
	for (const char *s = list; ; s++) {
		size_t n = strcspn(s, ",");
		if (n) {
			if (perf_event_mount(mnt, sizeof(mnt)))
				return -1;
			snprintf(path, sizeof(path), "%s/%.*s", mnt, (int)n, s);
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				fprintf(stderr, "no access to cgroup %s\n", path);
				return -1;
			}
			close(fd);
		}
		s += n;
		if (!*s)
			return 0;
	}
}

void serve_cgroups__close(struct serve_cgroups *cg)
{
	for (size_t i = 0; cg->fd && i < cg->nr; i++)
		if (cg->fd[i] >= 0 && (i == 0 || cg->fd[i] != cg->fd[0]))
			close(cg->fd[i]);
	free(cg->fd);
	free(cg->name);
	free(cg->list);
	memset(cg, 0, sizeof(*cg));
}

/* perf's name of a directory found under the mount: the path below it, without its first '/' */
static const char *below_mount(const char *path, size_t prefix)
{
	const char *n = path + prefix;
	return n[0] == '/' && n[1] ? n + 1 : n;
}

/* every directory under mnt whose name matches one of list's expressions, into b */
static int match_dirs(const char *mnt, const char *list, struct pk_buf *b, size_t *nr)
{
	/* the directories in perf's order: its nftw's, a walk in directory order, parents first */
	struct pk_buf dirs = { 0 };
	char *roots[] = { (char *)mnt, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!fts)
		return -1;
	for (FTSENT *e; (e = fts_read(fts));)
		if (e->fts_info == FTS_D)
			pk_buf__add(&dirs, e->fts_path, strlen(e->fts_path) + 1);
	fts_close(fts);
	int rc = 0;
	if (dirs.err) {
		pk_buf__free(&dirs);
		return -1;
	}
	size_t nr_dirs = 0;
	for (size_t o = 0; o < dirs.len; o += strlen((const char *)dirs.data + o) + 1)
		nr_dirs++;
	bool *used = calloc(nr_dirs ? nr_dirs : 1, sizeof(*used));
	if (!used) {
		pk_buf__free(&dirs);
		return -1;
	}
	size_t prefix = strlen(mnt);
	for (const char *s = list;; s++) {
		size_t n = strcspn(s, ",");
		if (!n) {
			used[0] = nr_dirs > 0;	/* an empty one: the mount's root */
		} else {
			char *re = strndup(s, n);
			regex_t reg;
			if (!re || regcomp(&reg, re, REG_NOSUB)) {
				free(re);
				rc = -1;
				break;
			}
			size_t i = 0;
			for (size_t o = 0; o < dirs.len; o += strlen((const char *)dirs.data + o) + 1, i++)
				used[i] |= !regexec(&reg, below_mount((const char *)dirs.data + o, prefix), 0,
						    NULL, 0);
			regfree(&reg);
			free(re);
		}
		s += n;
		if (!*s)
			break;
	}
	size_t i = 0;
	for (size_t o = 0; !rc && o < dirs.len; o += strlen((const char *)dirs.data + o) + 1, i++) {
		if (!used[i])
			continue;
		const char *name = below_mount((const char *)dirs.data + o, prefix);
		if (strchr(name, ',')) {
			fprintf(stderr, "pmukit stat: --for-each-cgroup: cgroup %s: a name with a comma\n",
				name);
			rc = -1;
			break;
		}
		pk_buf__printf(b, "%s%s", *nr ? "," : "", *name ? name : "/");
		(*nr)++;
	}
	free(used);
	pk_buf__free(&dirs);
	return rc;
}

int serve_cgroups__expand(const char *list, char **out, size_t *nr)
{
	struct pk_buf b = { 0 };
	*out = NULL;
	*nr = 0;
	if (strpbrk(list, "{}[]()|*+?^$")) {	/* perf's has_pattern_string */
		char mnt[PATH_MAX];
		if (perf_event_mount(mnt, sizeof(mnt)) || match_dirs(mnt, list, &b, nr)) {
			pk_buf__free(&b);
			return -1;
		}
	} else {
		for (const char *s = list;; s++) {
			size_t n = strcspn(s, ",");
			const char *name = n ? s : "/";
			size_t len = n ? n : 1;
			/* each once: perf's check_and_add_cgroup_name */
			bool seen = false;
			for (const char *p = (const char *)b.data; p && !seen && *p;) {
				size_t k = strcspn(p, ",");
				seen = k == len && !strncmp(p, name, len);
				p += k + (p[k] == ',');
			}
			if (!seen) {
				if (b.len)
					pk_buf__putc(&b, ',');
				pk_buf__add(&b, name, len);
				(*nr)++;
			}
			s += n;
			if (!*s)
				break;
		}
		if (!b.err && b.len && serve_cgroups__check((const char *)b.data)) {
			pk_buf__free(&b);
			return -1;
		}
	}
	if (!*nr && !b.err) {
		fprintf(stderr, "no cgroup matched: %s\n", list);
		pk_buf__free(&b);
		return -1;
	}
	pk_buf__putc(&b, '\0');
	if (b.err) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		pk_buf__free(&b);
		return -1;
	}
	*out = (char *)b.data;
	return 0;
}
