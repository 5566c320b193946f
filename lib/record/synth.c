/* SPDX-License-Identifier: MIT */
/*
 * record/synth.c — the side-band perf record synthesizes for what existed
 * before its events were enabled: the kernel's map (PERF_RECORD_MMAP of
 * "[kernel.kallsyms]_text" from kallsyms' _text), and running tasks from
 * /proc — per thread a FORK from its parent and a COMM, and for each
 * process its mappings (PERF_RECORD_MMAP2 from /proc/PID/task/PID/maps).
 * Every record ends with a zeroed sample_id trailer of the session's size,
 * as perf writes synthesized records.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pmukit/record.h>

#include "util/error.h"
#include "util/grow.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

size_t pk_sample__id_size(uint64_t st)
{
	size_t n = 0;
	n += !!(st & PERF_SAMPLE_TID);
	n += !!(st & PERF_SAMPLE_TIME);
	n += !!(st & PERF_SAMPLE_ID);
	n += !!(st & PERF_SAMPLE_STREAM_ID);
	n += !!(st & PERF_SAMPLE_CPU);
	n += !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

/* A record of fixed part fixed (header included), a string, the trailer: into buf. */
static size_t build(void *buf, size_t cap, const void *fixed, size_t fixed_len, const char *str,
		    size_t id_size)
{
	size_t slen = str ? strlen(str) + 1 : 0, size = fixed_len + ALIGN8(slen) + id_size;
	if (size > cap || size > UINT16_MAX)
		return 0;
	memset(buf, 0, size);
	memcpy(buf, fixed, fixed_len);
	if (str)
		memcpy((char *)buf + fixed_len, str, slen);
	((struct perf_event_header *)buf)->size = (uint16_t)size;
	return size;
}

int pk_synth__kernel_mmap(const char *procfs, size_t id_size, pk_record_sink sink, void *ctx,
			  struct pk_error *err)
{
	char path[512], line[512];
	uint64_t text = 0;
	bool found = false, any = false;
	snprintf(path, sizeof(path), "%s/kallsyms", procfs ? procfs : "/proc");
	FILE *f = fopen(path, "re");
	if (!f)
		return pk_error__set(err, -errno, path, 0, 0, "cannot read the kernel's symbols: %s",
				     strerror(errno));
	/* _text (or _stext) is among the first lines: no need to read 100k more */
	for (int n = 0; n < 4096 && fgets(line, sizeof(line), f); n++) {
		char type, name[256];
		unsigned long long addr;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		any |= addr != 0;
		if (!strcmp(name, "_text") || (!found && !strcmp(name, "_stext"))) {
			text = addr;
			found = true;
			if (!strcmp(name, "_text"))
				break;
		}
	}
	fclose(f);
	if (!found || !text)
		return pk_error__set(err, -EPERM, path, 0, 0, "%s",
				     any || found ? "kernel addresses are hidden (kernel.kptr_restrict): "
						    "kernel samples will not resolve to symbols"
						  : "no _text symbol: kernel samples will not resolve");
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
	} m = { .h = { .type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL },
		.pid = UINT32_MAX,	/* perf's host kernel: pid -1 */
		.tid = 0,
		.start = text,
		.len = UINT64_MAX - text,	/* to the top: modules included */
		.pgoff = text };
	uint64_t buf[64];
	size_t n = build(buf, sizeof(buf), &m, sizeof(m), "[kernel.kallsyms]_text", id_size);
	return n ? sink(ctx, buf, n) : -EINVAL;
}

/* A small file into buf (NUL-terminated). Length or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	return n;
}

/* PPid from /proc/PID/stat ("pid (comm) S ppid ..."; comm may hold ') '). */
static int read_ppid(const char *procfs, pid_t pid, pid_t *ppid)
{
	char path[256], buf[1024];
	snprintf(path, sizeof(path), "%s/%d/stat", procfs, (int)pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -ESRCH;
	char *p = strrchr(buf, ')');
	int pp;
	char st;
	if (!p || sscanf(p + 1, " %c %d", &st, &pp) != 2)
		return -ESRCH;
	*ppid = pp;
	return 0;
}

static int emit_comm(pid_t tgid, pid_t tid, const char *comm, size_t id_size, pk_record_sink sink,
		     void *ctx)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
	} c = { .h = { .type = PERF_RECORD_COMM }, .pid = (uint32_t)tgid, .tid = (uint32_t)tid };
	uint64_t buf[16];
	size_t n = build(buf, sizeof(buf), &c, sizeof(c), comm, id_size);
	return n ? sink(ctx, buf, n) : -EINVAL;
}

int pk_synth__comm(pid_t pid, const char *comm, size_t id_size, pk_record_sink sink, void *ctx,
		   struct pk_error *err)
{
	int rc = emit_comm(pid, pid, comm, id_size, sink, ctx);
	if (rc == -EINVAL)
		return pk_error__set(err, rc, NULL, 0, 0, "COMM record of %d: name too long", (int)pid);
	return rc;
}

static int emit_fork(pid_t tgid, pid_t tid, pid_t ppid, size_t id_size, pk_record_sink sink,
		     void *ctx)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} fk = { .h = { .type = PERF_RECORD_FORK, .misc = PERF_RECORD_MISC_FORK_EXEC },
		 .pid = (uint32_t)tgid, .tid = (uint32_t)tid };
	/* perf: the main thread's parent is PPid; other threads are the main thread's */
	fk.ppid = fk.ptid = (uint32_t)(tgid == tid ? ppid : tgid);
	uint64_t buf[16];
	size_t n = build(buf, sizeof(buf), &fk, sizeof(fk), NULL, id_size);
	return n ? sink(ctx, buf, n) : -EINVAL;
}

/* The mappings of process pid as MMAP2 records (executable ones; readable data too with data). */
static int emit_maps(const char *procfs, pid_t pid, bool data, size_t id_size, pk_record_sink sink,
		     void *ctx)
{
	char path[256], line[4096 + 256];
	snprintf(path, sizeof(path), "%s/%d/task/%d/maps", procfs, (int)pid, (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;	/* it exited meanwhile */
	int ret = 0;
	uint64_t buf[(sizeof(line) + 128) / 8];
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj,
			   &min, &ino, &name_at) < 7)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = '\0';
		uint32_t prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
				(perms[2] == 'x' ? PROT_EXEC : 0);
		uint16_t misc = PERF_RECORD_MISC_USER;
		if (!(prot & PROT_EXEC)) {
			if (!data || !(prot & PROT_READ))
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		}
		if (!*name)
			name = "//anon";
		struct {
			struct perf_event_header h;
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
		} m = { .h = { .type = PERF_RECORD_MMAP2, .misc = misc },
			.pid = (uint32_t)pid, .tid = (uint32_t)pid,
			.start = start, .len = end - start, .pgoff = off,
			.maj = maj, .min = min, .ino = ino,
			.prot = prot, .flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE };
		size_t n = build(buf, sizeof(buf), &m, sizeof(m), name, id_size);
		if (n)
			ret = sink(ctx, buf, n);
	}
	fclose(f);
	return ret;
}

static int synth_process(const char *procfs, pid_t pid, bool data, size_t id_size,
			 pk_record_sink sink, void *ctx)
{
	char path[256], comm[64];
	pid_t ppid = 0;
	if (read_ppid(procfs, pid, &ppid))
		return 0;	/* gone */
	snprintf(path, sizeof(path), "%s/%d/task", procfs, (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int ret = 0;
	struct dirent *de;
	pid_t *tids = NULL;
	size_t nr = 0, cap = 0;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (PK_GROW(tids, cap, nr + 1)) {
			ret = -ENOMEM;
			break;
		}
		tids[nr++] = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; !ret && i < nr; i++) {
		pid_t tid = tids[i];
		snprintf(path, sizeof(path), "%s/%d/task/%d/comm", procfs, (int)pid, (int)tid);
		ssize_t n = read_small(path, comm, sizeof(comm));
		if (n < 0)
			continue;	/* exited just now */
		comm[strcspn(comm, "\n")] = '\0';
		if (!(ret = emit_fork(pid, tid, ppid, id_size, sink, ctx)) &&
		    !(ret = emit_comm(pid, tid, comm, id_size, sink, ctx)) && tid == pid)
			ret = emit_maps(procfs, pid, data, id_size, sink, ctx);
	}
	free(tids);
	return ret;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

int pk_synth__tasks(const char *procfs, const pid_t *pids, size_t nr, bool mmap_data,
		    size_t id_size, pk_record_sink sink, void *ctx, struct pk_error *err)
{
	const char *root = procfs ? procfs : "/proc";
	pid_t *all = NULL;
	int ret = 0;
	if (!nr) {
		DIR *d = opendir(root);
		if (!d)
			return pk_error__set(err, -errno, root, 0, 0, "cannot list processes: %s",
					     strerror(errno));
		size_t cap = 0;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			if (PK_GROW(all, cap, nr + 1)) {
				closedir(d);
				free(all);
				return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
			}
			all[nr++] = (pid_t)atoi(de->d_name);
		}
		closedir(d);
		if (nr)	/* qsort's base may not be NULL, even for no elements */
			qsort(all, nr, sizeof(*all), cmp_pid);
		pids = all;
	}
	for (size_t i = 0; !ret && i < nr; i++)
		ret = synth_process(root, pids[i], mmap_data, id_size, sink, ctx);
	free(all);
	if (ret)
		return pk_error__set(err, ret, NULL, 0, 0, "synthesizing tasks: %s", strerror(-ret));
	return 0;
}
