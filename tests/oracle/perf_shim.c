/* SPDX-License-Identifier: MIT */
/*
 * tests/oracle/perf_shim.c — an LD_PRELOAD shim that lets perf 6.1 "open"
 * events on a machine without their PMU, so the perf_event_attr it builds
 * for a spec can be recorded (tests/oracle/perf_attr.sh drives it).
 *
 * perf opens events with libc's syscall(__NR_perf_event_open, ...). The shim
 * overrides syscall(): for perf_event_open it appends one JSON line to the
 * file named by $PMUKIT_ORACLE_OUT and returns a real fd on /dev/zero (so
 * perf's mmap of a ring buffer works and reads empty data); every other
 * syscall goes to libc. On those fds only:
 *   read()   answers a well-formed read_format record, counts and times 1,
 *            nr = group size for PERF_FORMAT_GROUP;
 *   ioctl()  succeeds (PERF_EVENT_IOC_ID hands out 1000 + open index);
 *   poll()   leaves them out (never ready) and waits at most 10 ms;
 *   close()  logs a close line.
 * Everything else is forwarded untouched. Directories under
 * /sys/bus/event_source/devices are listed in kernfs order (see opendir()).
 *
 * Lines written:
 *   {"open":N,"pid":P,"cpu":C,"group_fd":G,"leader":L,"flags":F,"attr":{...}}
 *       L is the "open" index of the line whose fd was G (-1 without group,
 *       null if G was not one of ours); with "errno":E when the shim refused
 *       the open (see below): no fd was made then. "attr" comes last, in
 *       pk_attr__to_json() form.
 *   {"close":N}
 * N counts opens in this process from 0. perf's feature probes are the opens
 * closed before a later open, or made on perf itself (pid 0);
 * perf_attr.sh sorts them out.
 *
 * Kernel checks kept: a group member must name a leader (not a member) on
 * the same CPU and task, else EINVAL (perf 6.1 builds cross-CPU hybrid
 * groups in record mode that a real kernel refuses).
 *
 * Optional hardware emulation: $PMUKIT_ORACLE_MAX_PRECISE=N makes opens with
 * precise_ip > N fail with EOPNOTSUPP, as the kernel does, for types 0 (HW),
 * 3 (HW cache), 4 (raw) and the types listed in $PMUKIT_ORACLE_CORE_TYPES
 * ("4,10"), so perf's ":P" fallback settles on the fixture's max_precise.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <json-c/json.h>
#include <linux/perf_event.h>

#include "evspec/attr_json.h"

typedef long (*syscall_fn)(long, ...);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*read_chk_fn)(int, void *, size_t, size_t);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef int (*close_fn)(int);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
typedef DIR *(*opendir_fn)(const char *);
typedef struct dirent64 *(*readdir64_fn)(DIR *);
typedef int (*closedir_fn)(DIR *);
typedef void (*rewinddir_fn)(DIR *);

static syscall_fn real_syscall;
static read_fn real_read;
static read_chk_fn real_read_chk;
static ioctl_fn real_ioctl;
static close_fn real_close;
static poll_fn real_poll;
static opendir_fn real_opendir;
static readdir64_fn real_readdir64;
static closedir_fn real_closedir;
static rewinddir_fn real_rewinddir;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* One fake event fd. */
struct fake {
	int used;
	long idx;		/* "open" index */
	long leader;		/* open index of its leader, -1 when it leads */
	uint64_t read_format;
	int pid, cpu;
};

static struct fake *fakes;	/* indexed by fd */
static size_t nfakes;
static long nopens;

static void resolve(void)
{
	/* Object pointers to function pointers: POSIX allows it, ISO C does not say. */
	void *p;

	p = dlsym(RTLD_NEXT, "syscall");
	memcpy(&real_syscall, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "read");
	memcpy(&real_read, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "__read_chk");
	memcpy(&real_read_chk, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "ioctl");
	memcpy(&real_ioctl, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "close");
	memcpy(&real_close, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "poll");
	memcpy(&real_poll, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "opendir");
	memcpy(&real_opendir, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "readdir64");
	memcpy(&real_readdir64, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "closedir");
	memcpy(&real_closedir, &p, sizeof(p));
	p = dlsym(RTLD_NEXT, "rewinddir");
	memcpy(&real_rewinddir, &p, sizeof(p));
}

static void init(void)
{
	pthread_once(&once, resolve);
}

/* The fake for fd or NULL; call with lock held. */
static struct fake *fake_of(int fd)
{
	if (fd < 0 || (size_t)fd >= nfakes || !fakes[fd].used)
		return NULL;
	return &fakes[fd];
}

static int fake_add(int fd, long idx, long leader, uint64_t read_format, int pid, int cpu)
{
	if ((size_t)fd >= nfakes) {
		size_t n = nfakes ? nfakes : 64;
		struct fake *f;

		while (n <= (size_t)fd)
			n *= 2;
		f = realloc(fakes, n * sizeof(*f));
		if (!f)
			return -1;
		memset(f + nfakes, 0, (n - nfakes) * sizeof(*f));
		fakes = f;
		nfakes = n;
	}
	fakes[fd] = (struct fake){ 1, idx, leader, read_format, pid, cpu };
	return 0;
}

/* Appends one line to $PMUKIT_ORACLE_OUT (one write, O_APPEND). */
static void emit(const char *line)
{
	const char *path = getenv("PMUKIT_ORACLE_OUT");
	size_t len = strlen(line);
	char *buf;
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	buf = malloc(len + 2);
	if (buf) {
		memcpy(buf, line, len);
		buf[len] = '\n';
		if (write(fd, buf, len + 1) < 0) {
			/* nothing to do: the driver notices missing lines */
		}
		free(buf);
	}
	real_close(fd);
}

static int in_list(const char *list, unsigned long v)
{
	while (list && *list) {
		char *end;
		unsigned long x = strtoul(list, &end, 0);

		if (end == list)
			return 0;
		if (x == v)
			return 1;
		list = *end ? end + 1 : end;
	}
	return 0;
}

/* EOPNOTSUPP when the emulated PMU would refuse this precise_ip, else 0. */
static int refused(const struct perf_event_attr *attr)
{
	const char *max = getenv("PMUKIT_ORACLE_MAX_PRECISE");

	if (!max || !*max || attr->precise_ip <= strtoul(max, NULL, 0))
		return 0;
	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
	    attr->type == PERF_TYPE_RAW || in_list(getenv("PMUKIT_ORACLE_CORE_TYPES"), attr->type))
		return EOPNOTSUPP;
	return 0;
}

static long fake_open(const struct perf_event_attr *uattr, long pid, long cpu, long group_fd,
		      unsigned long flags)
{
	struct perf_event_attr attr;
	struct json_object *line = NULL, *jattr = NULL;
	struct fake *lf;
	long idx, leader, ret;
	int err = 0;
	uint32_t size;

	if (!uattr) {
		errno = EFAULT;
		return -1;
	}
	/* The kernel reads attr->size bytes (0 means VER0); keep what we know. */
	memcpy(&size, (const char *)uattr + offsetof(struct perf_event_attr, size), sizeof(size));
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, uattr, size < sizeof(attr) ? size : sizeof(attr));

	pthread_mutex_lock(&lock);
	idx = nopens++;
	leader = -1;
	if (group_fd >= 0) {
		lf = fake_of((int)group_fd);
		leader = lf ? lf->idx : -2;
		/* the kernel's checks: a leader, same CPU, same task */
		if (lf && (lf->leader != -1 || lf->cpu != cpu || lf->pid != pid))
			err = EINVAL;
	}
	if (!err)
		err = refused(&attr);
	if (err) {
		ret = -1;
	} else {
		ret = open("/dev/zero", O_RDWR | O_CLOEXEC);
		if (ret < 0)
			err = errno;
		else if (fake_add((int)ret, idx, leader, attr.read_format, (int)pid, (int)cpu)) {
			real_close((int)ret);
			ret = -1;
			err = ENOMEM;
		}
	}
	if (attr_json__to_object(&attr, &jattr) == 0 && (line = json_object_new_object())) {
		json_object_object_add(line, "open", json_object_new_int64(idx));
		json_object_object_add(line, "pid", json_object_new_int64(pid));
		json_object_object_add(line, "cpu", json_object_new_int64(cpu));
		json_object_object_add(line, "group_fd", json_object_new_int64(group_fd));
		json_object_object_add(line, "leader",
				       leader == -2 ? NULL : json_object_new_int64(leader));
		json_object_object_add(line, "flags", json_object_new_uint64(flags));
		if (err)
			json_object_object_add(line, "errno", json_object_new_int(err));
		json_object_object_add(line, "attr", jattr);
		emit(json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN));
		json_object_put(line);
	} else {
		json_object_put(jattr);
		emit("{\"error\":\"out of memory\"}");
	}
	pthread_mutex_unlock(&lock);
	if (ret < 0) {
		errno = err;
		return -1;
	}
	return ret;
}

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];

	/*
	 * The callers pass up to six long-sized arguments; reading six is what
	 * glibc's own syscall() does too (the unused ones are junk, ignored).
	 */
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	init();
	if (nr == __NR_perf_event_open)
		/* pid, cpu and group_fd are C ints: the upper halves are junk. */
		return fake_open((const struct perf_event_attr *)a[0], (int)a[1], (int)a[2],
				 (int)a[3], (unsigned long)a[4]);
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* A read_format record: counts and times 1, ids 1000 + open index; returns its size. */
static size_t fake_record(const struct fake *f, uint64_t *rec, size_t max_words)
{
	size_t n = 0;
	uint64_t rf = f->read_format;

#define PUT(v)                         \
	do {                           \
		if (n < max_words)     \
			rec[n] = (v);  \
		n++;                   \
	} while (0)
	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = 1;
		long members[256];
		size_t nm = 0;

		members[nm++] = f->idx;
		for (size_t fd = 0; fd < nfakes; fd++)
			if (fakes[fd].used && fakes[fd].leader == f->idx) {
				if (nm < sizeof(members) / sizeof(members[0]))
					members[nm++] = fakes[fd].idx;
				nr++;
			}
		PUT(nr);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			PUT(1);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			PUT(1);
		for (uint64_t i = 0; i < nr; i++) {
			PUT(1);
			if (rf & PERF_FORMAT_ID)
				PUT(1000 + (uint64_t)(i < nm ? members[i] : 0));
			if (rf & PERF_FORMAT_LOST)
				PUT(0);
		}
	} else {
		PUT(1);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			PUT(1);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			PUT(1);
		if (rf & PERF_FORMAT_ID)
			PUT(1000 + (uint64_t)f->idx);
		if (rf & PERF_FORMAT_LOST)
			PUT(0);
	}
#undef PUT
	return n * sizeof(uint64_t);
}

/* -1 when fd is not ours, else the bytes "read". */
static ssize_t fake_read(int fd, void *buf, size_t count)
{
	uint64_t rec[1024];
	struct fake *f;
	size_t len;

	pthread_mutex_lock(&lock);
	f = fake_of(fd);
	if (!f) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	len = fake_record(f, rec, sizeof(rec) / sizeof(rec[0]));
	pthread_mutex_unlock(&lock);
	if (len > sizeof(rec))
		len = sizeof(rec);
	if (len > count)
		len = count;
	memcpy(buf, rec, len);
	return (ssize_t)len;
}

ssize_t read(int fd, void *buf, size_t count)
{
	ssize_t r;

	init();
	r = fake_read(fd, buf, count);
	return r >= 0 ? r : real_read(fd, buf, count);
}

ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen)
{
	ssize_t r;

	init();
	if (nbytes > buflen)
		return real_read_chk(fd, buf, nbytes, buflen);	/* let glibc abort */
	r = fake_read(fd, buf, nbytes);
	return r >= 0 ? r : real_read_chk(fd, buf, nbytes, buflen);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	struct fake *f;
	long idx = -1;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	init();
	pthread_mutex_lock(&lock);
	f = fake_of(fd);
	if (f)
		idx = f->idx;
	pthread_mutex_unlock(&lock);
	if (idx < 0)
		return real_ioctl(fd, req, arg);
	if (req == PERF_EVENT_IOC_ID && arg) {
		uint64_t id = 1000 + (uint64_t)idx;

		memcpy(arg, &id, sizeof(id));
	}
	return 0;	/* enable, disable, reset, set-output, filters...: accepted */
}

/*
 * perf record polls its ring-buffer fds; /dev/zero is always readable, which
 * would make it spin until the workload ends. Our fds are left out of the
 * poll (fd -1 is ignored) and the wait is capped at 10 ms, so perf's loops
 * (main and side-band thread) sleep yet still see their "done" flags soon.
 */
int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	int saved[64], r, any = 0;
	nfds_t n = nfds < 64 ? nfds : 64;

	init();
	pthread_mutex_lock(&lock);
	for (nfds_t i = 0; i < n; i++) {
		saved[i] = fds[i].fd;
		if (fake_of(fds[i].fd)) {
			fds[i].fd = -1;
			any = 1;
		}
	}
	pthread_mutex_unlock(&lock);
	if (any && (timeout < 0 || timeout > 10))
		timeout = 10;
	r = real_poll(fds, nfds, timeout);
	if (any)
		for (nfds_t i = 0; i < n; i++) {
			if (fds[i].fd == -1 && saved[i] != -1)
				fds[i].revents = 0;
			fds[i].fd = saved[i];
		}
	return r;
}

int close(int fd)
{
	struct fake *f;
	char line[64];
	long idx = -1;

	init();
	pthread_mutex_lock(&lock);
	f = fake_of(fd);
	if (f) {
		idx = f->idx;
		f->used = 0;
		snprintf(line, sizeof(line), "{\"close\":%ld}", idx);
		emit(line);
	}
	pthread_mutex_unlock(&lock);
	return real_close(fd);
}

/*
 * Directory order. perf 6.1 keeps PMUs (and aliases) in readdir order, and
 * sysfs (kernfs) lists a directory by (name hash, name) after "." and "..".
 * A fixture on ext4 or tmpfs lists in some other, machine-dependent order,
 * so under /sys/bus/event_source/devices the shim reads the whole directory
 * at opendir() and hands the entries back in kernfs order: perf sees what it
 * would on a real machine, and runs are reproducible. (On the real sysfs
 * this is the order it had anyway.)
 */
_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "LFS dirent layout");

#define SYSFS_PMUS "/sys/bus/event_source/devices"

struct sorted_dir {
	DIR *dir;
	struct dirent64 *ents;
	size_t n, pos;
	struct sorted_dir *next;
};

static struct sorted_dir *sorted_dirs;

/* kernfs_name_hash() for a NULL namespace on a 64-bit kernel. */
static unsigned kernfs_hash(const char *name)
{
	uint64_t h = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h + ((uint64_t)*p << 4) + (*p >> 4)) * 11;
	h = (h * UINT64_C(0x61C8864680B583EB)) >> 32;	/* hash_long(h, 32) */
	h &= 0x7fffffffU;
	if (h < 2)
		h += 2;
	if (h >= 0x7fffffffU)
		h = 0x7fffffffU - 1;
	return (unsigned)h;
}

static int dot_rank(const char *n)
{
	return !strcmp(n, ".") ? 0 : !strcmp(n, "..") ? 1 : 2;
}

static int kernfs_cmp(const void *a, const void *b)
{
	const struct dirent64 *x = a, *y = b;
	int rx = dot_rank(x->d_name), ry = dot_rank(y->d_name);
	unsigned hx, hy;

	if (rx != 2 || ry != 2)
		return rx - ry;
	hx = kernfs_hash(x->d_name);
	hy = kernfs_hash(y->d_name);
	if (hx != hy)
		return hx < hy ? -1 : 1;
	return strcmp(x->d_name, y->d_name);
}

static struct sorted_dir *sorted_of(DIR *d)
{
	for (struct sorted_dir *s = sorted_dirs; s; s = s->next)
		if (s->dir == d)
			return s;
	return NULL;
}

DIR *opendir(const char *name)
{
	DIR *d;
	struct sorted_dir *s;
	struct dirent64 *e;
	size_t cap = 0;

	init();
	d = real_opendir(name);
	if (!d || strncmp(name, SYSFS_PMUS, strlen(SYSFS_PMUS)) ||
	    (name[strlen(SYSFS_PMUS)] && name[strlen(SYSFS_PMUS)] != '/'))
		return d;
	s = calloc(1, sizeof(*s));
	if (!s)
		return d;
	s->dir = d;
	while ((e = real_readdir64(d))) {
		if (s->n == cap) {
			struct dirent64 *ne;

			cap = cap ? cap * 2 : 32;
			ne = realloc(s->ents, cap * sizeof(*ne));
			if (!ne) {
				free(s->ents);
				free(s);
				real_rewinddir(d);
				return d;
			}
			s->ents = ne;
		}
		s->ents[s->n++] = *e;
	}
	if (s->n)	/* qsort's base may not be NULL, even for no elements */
		qsort(s->ents, s->n, sizeof(*s->ents), kernfs_cmp);
	pthread_mutex_lock(&lock);
	s->next = sorted_dirs;
	sorted_dirs = s;
	pthread_mutex_unlock(&lock);
	return d;
}

struct dirent64 *readdir64(DIR *d)
{
	struct sorted_dir *s;
	struct dirent64 *e = NULL;

	init();
	pthread_mutex_lock(&lock);
	s = sorted_of(d);
	if (s && s->pos < s->n)
		e = &s->ents[s->pos++];
	pthread_mutex_unlock(&lock);
	if (s)
		return e;
	return real_readdir64(d);
}

struct dirent *readdir(DIR *d)
{
	return (struct dirent *)(void *)readdir64(d);
}

void rewinddir(DIR *d)
{
	struct sorted_dir *s;

	init();
	pthread_mutex_lock(&lock);
	s = sorted_of(d);
	if (s)
		s->pos = 0;
	pthread_mutex_unlock(&lock);
	real_rewinddir(d);
}

int closedir(DIR *d)
{
	struct sorted_dir **pp, *s = NULL;

	init();
	pthread_mutex_lock(&lock);
	for (pp = &sorted_dirs; *pp; pp = &(*pp)->next)
		if ((*pp)->dir == d) {
			s = *pp;
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&lock);
	if (s) {
		free(s->ents);
		free(s);
	}
	return real_closedir(d);
}
