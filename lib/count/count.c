/* SPDX-License-Identifier: MIT */
/*
 * count.c — counting mode over a pk_evlist: perf_event_open per evsel
 * (group members through their leader's fd, in evlist order), reads with
 * the attr's read_format, perf stat's scaling of multiplexed counts, and
 * <not supported>/<not counted> marks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmukit/count.h>

#include "util/error.h"
#include "util/sysctl.h"

struct cnt_ev {
	int fd;				/* -1 when not opened */
	int open_errno;
	size_t leader;			/* evlist index of its leader */
	uint64_t read_format;
	struct pk_count_value v;
};

struct pk_counter {
	size_t nr;
	struct cnt_ev *ev;
	uint64_t *buf;			/* read buffer, big enough for the largest group */
	size_t buf_words;
};

static bool not_supported(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == EINVAL || e == ENODEV;
}

double pk_count__scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	if (!running || running >= enabled)
		return (double)raw;
	/* perf_counts_values__scale: truncated to an integer count */
	return (double)(uint64_t)((double)raw * (double)enabled / (double)running);
}

static void finish(struct pk_count_value *v, uint64_t rf)
{
	bool times = (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && (rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	v->status = PK_COUNT_OK;
	v->scaled = (double)v->raw;
	v->percent = 100.0;
	if (!times)
		return;
	if (v->running != v->enabled)	/* perf: 100 * run / ena, 100 when equal */
		v->percent = v->enabled ? 100.0 * (double)v->running / (double)v->enabled : 100.0;
	if (!v->running) {
		v->status = PK_COUNT_NOT_COUNTED;
		v->scaled = 0;
		return;
	}
	v->scaled = pk_count__scale(v->raw, v->enabled, v->running);
}

int pk_count__decode(uint64_t rf, const void *buf, size_t len, size_t nr,
		     struct pk_count_value *out)
{
	const uint64_t *w = buf;
	size_t words = len / sizeof(uint64_t), i = 0;
	uint64_t ena = 0, run = 0;
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		if (words < 1 || w[0] != nr)
			return -EINVAL;
		i = 1;
	} else if (nr != 1) {
		return -EINVAL;
	}
	if (rf & PERF_FORMAT_GROUP) {
		size_t need = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + nr * per;
		if (words < need)
			return -EINVAL;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			ena = w[i++];
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			run = w[i++];
		for (size_t k = 0; k < nr; k++, i += per) {
			memset(&out[k], 0, sizeof(out[k]));
			out[k].raw = w[i];
			out[k].enabled = ena;
			out[k].running = run;
			finish(&out[k], rf);
		}
		return 0;
	}
	/* { value; [enabled]; [running]; [id]; [lost] } */
	size_t need = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + per - 1;
	if (words < need)
		return -EINVAL;
	memset(&out[0], 0, sizeof(out[0]));
	out[0].raw = w[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[0].enabled = w[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[0].running = w[i++];
	finish(&out[0], rf);
	return 0;
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

void pk_counter__close(struct pk_counter *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++)
		if (c->ev[i].fd >= 0)
			close(c->ev[i].fd);
	free(c->ev);
	free(c->buf);
	free(c);
}

int pk_counter__open(struct pk_counter **out, const struct pk_evlist *el,
		     const struct pk_count_opts *opts, struct pk_error *err)
{
	pid_t pid = opts && opts->sz >= offsetof(struct pk_count_opts, cpu) + sizeof(int) ? opts->pid : 0;
	int cpu = opts && opts->sz >= offsetof(struct pk_count_opts, cpu) + sizeof(int) ? opts->cpu : -1;
	struct pk_counter *c = calloc(1, sizeof(*c));
	size_t nr = pk_evlist__nr(el), maxg = 1;

	*out = NULL;
	if (!c || !(c->ev = calloc(nr ? nr : 1, sizeof(*c->ev)))) {
		free(c);
		pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		return -ENOMEM;
	}
	c->nr = nr;
	for (size_t i = 0; i < nr; i++)
		c->ev[i].fd = -1;
	for (size_t i = 0; i < nr; i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		struct cnt_ev *ev = &c->ev[i];
		struct perf_event_attr attr = e->attr;
		int group_fd = -1;

		ev->leader = e->leader < nr ? e->leader : i;
		ev->read_format = attr.read_format;
		if (e->nr_members > maxg)
			maxg = e->nr_members;
		if (ev->leader != i) {
			struct cnt_ev *l = &c->ev[ev->leader];
			if (l->fd < 0) {	/* its leader is not here: neither is it */
				ev->open_errno = l->open_errno;
				ev->v.status = PK_COUNT_NOT_SUPPORTED;
				ev->v.open_errno = l->open_errno;
				ev->v.percent = 100.0;
				continue;
			}
			group_fd = l->fd;
		}
		ev->fd = sys_perf_event_open(&attr, pid, cpu, group_fd);
		if (ev->fd >= 0)
			continue;
		int en = errno;
		if (not_supported(en)) {
			ev->open_errno = en;
			ev->v.status = PK_COUNT_NOT_SUPPORTED;
			ev->v.open_errno = en;
			ev->v.percent = 100.0;
			continue;
		}
		const char *name = e->name ? e->name : "event";
		if (en == EACCES || en == EPERM)
			pk_error__set(err, -en, NULL, 0, 0, "%s: permission denied (kernel.perf_event_paranoid is %d; "
				"counting other processes' events needs /proc/sys/kernel/"
				"perf_event_paranoid <= 2 for user mode, <= 1 for kernel mode, "
				"<= 0 for CPU-wide, or CAP_PERFMON)", name, pk_sysctl__perf_paranoid());
		else if (en == ESRCH)
			pk_error__set(err, -en, NULL, 0, 0, "%s: no such process %d", name, (int)pid);
		else if (en == ENOSYS)
			pk_error__set(err, -en, NULL, 0, 0, "%s: perf_event_open is not available (kernel without "
				"perf events, a seccomp filter, or an emulator)", name);
		else
			pk_error__set(err, -en, NULL, 0, 0, "%s: perf_event_open: %s", name, strerror(en));
		pk_counter__close(c);
		return -en;
	}
	/* group read: nr, enabled, running, lost? then { value, id, lost } per member */
	c->buf_words = 3 + maxg * 3;
	c->buf = calloc(c->buf_words, sizeof(uint64_t));
	if (!c->buf) {
		pk_counter__close(c);
		pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

int pk_counter__read(struct pk_counter *c, struct pk_error *err)
{
	struct pk_count_value vals[64];

	for (size_t i = 0; i < c->nr; i++) {
		struct cnt_ev *ev = &c->ev[i];
		bool group = ev->read_format & PERF_FORMAT_GROUP;

		if (ev->fd < 0 || (group && ev->leader != i))
			continue;
		ssize_t n = read(ev->fd, c->buf, c->buf_words * sizeof(uint64_t));
		if (n < 0) {
			int en = errno;
			pk_error__set(err, -en, NULL, 0, 0, "read: %s", strerror(en));
			return -en;
		}
		if (!group) {
			if (pk_count__decode(ev->read_format, c->buf, (size_t)n, 1, &ev->v))
				goto short_read;
			continue;
		}
		/* the opened members, in open order, follow their leader */
		size_t nr = (size_t)c->buf[0], k = 0;
		if (n < 8 || nr > sizeof(vals) / sizeof(vals[0]) ||
		    pk_count__decode(ev->read_format, c->buf, (size_t)n, nr, vals))
			goto short_read;
		for (size_t j = i; j < c->nr && k < nr; j++) {
			struct cnt_ev *m = &c->ev[j];
			if (m->leader != i || m->fd < 0)
				continue;
			m->v = vals[k++];
		}
	}
	return 0;
short_read:
	pk_error__set(err, -EIO, NULL, 0, 0, "read: unexpected counter data");
	return -EIO;
}

size_t pk_counter__nr(const struct pk_counter *c)
{
	return c ? c->nr : 0;
}

int pk_counter__value(const struct pk_counter *c, size_t idx, struct pk_count_value *v)
{
	if (!c || idx >= c->nr)
		return -EINVAL;
	*v = c->ev[idx].v;
	return 0;
}
