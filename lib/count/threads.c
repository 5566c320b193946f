/* SPDX-License-Identifier: MIT */
/*
 * threads.c — the threads -p/-t attach to: PID lists expanded through
 * PROCFS/PID/task, TID lists checked against PROCFS, every thread of the
 * machine (-a --per-thread), and a thread's comm for --per-thread labels.
 * The procfs root is a parameter so tests can use a fake.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/count.h>

#include "count/count_int.h"
#include "util/error.h"
#include "util/grow.h"

#define PROCFS_DEFAULT "/proc"

struct ids {
	pid_t *v;
	size_t nr, cap;
};

static int push(struct ids *l, pid_t id, bool uniq)
{
	for (size_t i = 0; uniq && i < l->nr; i++)
		if (l->v[i] == id)
			return 0;
	if (PK_GROW(l->v, l->cap, l->nr + 1))
		return -ENOMEM;
	l->v[l->nr++] = id;
	return 0;
}

/* "N[,N...]", N a positive decimal < 2^31; ids into l (repeats dropped). */
static int parse_list(const char *s, const char *what, struct ids *l, struct pk_error *err)
{
	size_t pos = 0;

	if (!s || !*s)
		return pk_error__set(err, -EINVAL, NULL, 0, 1, "invalid %s list: empty", what);
	for (;;) {
		size_t start = pos;
		long long v = 0;
		while (isdigit((unsigned char)s[pos])) {
			v = v * 10 + (s[pos] - '0');
			if (v > 2147483647LL)
				return pk_error__set(err, -EINVAL, NULL, 0, (unsigned)start + 1,
						     "invalid %s list: number too large at offset %zu",
						     what, start);
			pos++;
		}
		if (pos == start || v == 0)
			return pk_error__set(err, -EINVAL, NULL, 0, (unsigned)start + 1,
					     "invalid %s list: expected a %s at offset %zu", what,
					     what, start);
		if (s[pos] && s[pos] != ',')
			return pk_error__set(err, -EINVAL, NULL, 0, (unsigned)pos + 1,
					     "invalid %s list: expected ',' at offset %zu", what, pos);
		if (push(l, (pid_t)v, true))
			return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		if (!s[pos])
			return 0;
		pos++;
	}
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The numeric entries of PROCFS/PID/task, ascending, appended to out. */
static int tasks_of(const char *procfs, pid_t pid, struct ids *out, struct pk_error *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%d/task", procfs, (int)pid);
	DIR *d = opendir(path);
	if (!d) {
		int e = errno;
		if (e == ENOENT || e == ENOTDIR)
			return pk_error__set(err, -ESRCH, NULL, 0, 0, "no such process %d", (int)pid);
		return pk_error__set(err, -e, path, 0, 0, "%s", strerror(e));
	}
	size_t first = out->nr;
	struct dirent *de;
	int ret = 0;
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (!isdigit((unsigned char)de->d_name[0]) || *end || v <= 0 || v > 2147483647L)
			continue;
		if (push(out, (pid_t)v, false)) {	/* distinct per process */
			ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
			break;
		}
	}
	closedir(d);
	if (!ret && out->nr == first)	/* a zombie's task directory is empty */
		ret = pk_error__set(err, -ESRCH, NULL, 0, 0, "no such process %d", (int)pid);
	if (!ret)
		qsort(out->v + first, out->nr - first, sizeof(pid_t), cmp_pid);
	return ret;
}

int pk_threads__from_pids(const char *pid_list, const char *procfs, pid_t **tids, size_t *nr,
			  struct pk_error *err)
{
	struct ids pids = { 0 }, out = { 0 };
	int ret;

	*tids = NULL;
	*nr = 0;
	if (!procfs)
		procfs = PROCFS_DEFAULT;
	if ((ret = parse_list(pid_list, "PID", &pids, err)))
		goto out;
	for (size_t i = 0; i < pids.nr; i++)
		if ((ret = tasks_of(procfs, pids.v[i], &out, err)))
			goto out;
	*tids = out.v;
	*nr = out.nr;
	out.v = NULL;
out:
	free(pids.v);
	free(out.v);
	return ret;
}

int pk_threads__parse(const char *tid_list, const char *procfs, pid_t **tids, size_t *nr,
		      struct pk_error *err)
{
	struct ids l = { 0 };
	int ret;

	*tids = NULL;
	*nr = 0;
	if (!procfs)
		procfs = PROCFS_DEFAULT;
	if ((ret = parse_list(tid_list, "TID", &l, err)))
		goto out;
	for (size_t i = 0; i < l.nr; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%d", procfs, (int)l.v[i]);
		int d = pk_count_is_dir(path);
		if (d < 0) {
			ret = pk_error__set(err, d, path, 0, 0, "%s", strerror(-d));
			goto out;
		}
		if (!d) {
			ret = pk_error__set(err, -ESRCH, NULL, 0, 0, "no such thread %d", (int)l.v[i]);
			goto out;
		}
	}
	*tids = l.v;
	*nr = l.nr;
	l.v = NULL;
out:
	free(l.v);
	return ret;
}

int pk_threads__all(const char *procfs, pid_t **tids, size_t *nr, struct pk_error *err)
{
	struct ids pids = { 0 }, out = { 0 };
	int ret = 0;

	*tids = NULL;
	*nr = 0;
	if (!procfs)
		procfs = PROCFS_DEFAULT;
	DIR *d = opendir(procfs);
	if (!d) {
		int e = errno;
		return pk_error__set(err, -e, procfs, 0, 0, "%s", strerror(e));
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (!isdigit((unsigned char)de->d_name[0]) || *end || v <= 0 || v > 2147483647L)
			continue;
		if (push(&pids, (pid_t)v, false)) {
			ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
			break;
		}
	}
	closedir(d);
	for (size_t i = 0; !ret && i < pids.nr; i++) {
		struct pk_error e2 = { 0 };
		int r = tasks_of(procfs, pids.v[i], &out, &e2);
		if (r == -ENOMEM)
			ret = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		/* a process gone since the listing (or a zombie): nothing to count */
	}
	if (!ret) {
		if (out.nr)	/* qsort's base may not be NULL, even for no elements */
			qsort(out.v, out.nr, sizeof(pid_t), cmp_pid);
		*tids = out.v;
		*nr = out.nr;
		out.v = NULL;
	}
	free(pids.v);
	free(out.v);
	return ret;
}

int pk_thread__comm(const char *procfs, pid_t tid, char *buf, size_t len)
{
	char path[4096], tmp[256];
	snprintf(path, sizeof(path), "%s/%d/comm", procfs ? procfs : PROCFS_DEFAULT, (int)tid);
	int n = pk_count_read_small(path, tmp, sizeof(tmp));
	if (n < 0)
		return n;
	while (n > 0 && (tmp[n - 1] == '\n'))
		tmp[--n] = '\0';
	if (len)
		snprintf(buf, len, "%s", tmp);
	return 0;
}
