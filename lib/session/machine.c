/* SPDX-License-Identifier: MIT */
/*
 * session/machine.c — perf's struct machine for the host: threads found or
 * created by (pid, tid) as machine__findnew_thread does (a thread of a
 * known process shares its leader's address space), COMM/FORK/EXIT as
 * machine__process_{comm,fork,exit}_event, user maps from MMAP/MMAP2 with
 * perf's overlap rules (maps__fixup_overlap_and_insert: an older map is cut
 * into the parts the new one does not cover), the kernel map from the
 * "[kernel.kallsyms]_text" MMAP (relocated through its pgoff) and module
 * maps, and the file's build-id table given to the symbolizer.
 */
#include "session/session_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/perf_event.h>

#include "util/bsearch.h"
#include "util/error.h"
#include "util/grow.h"

/* ---- comms ------------------------------------------------------------------------- */

struct comm_node {
	const char *s;
	struct comm_node *next;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

const char *machine__intern_comm(struct pk_session *s, const char *comm)
{
	uint64_t h = str_hash(comm);
	uint64_t *v = pk_u64map__find(&s->comms, h);
	struct comm_node *head = v ? (struct comm_node *)(uintptr_t)*v : NULL;
	for (struct comm_node *n = head; n; n = n->next)
		if (!strcmp(n->s, comm))
			return n->s;
	struct comm_node *n = pk_arena__alloc(&s->arena, sizeof(*n));
	if (!n || !(n->s = pk_arena__strdup(&s->arena, comm)))
		return NULL;
	n->next = head;
	if (pk_u64map__set(&s->comms, h, (uint64_t)(uintptr_t)n))
		return NULL;
	return n->s;
}

/* ---- address spaces ------------------------------------------------------------------ */

static struct sess_maps *maps_new(struct pk_session *s)
{
	struct sess_maps *m = pk_arena__alloc(&s->arena, sizeof(*m));
	if (!m)
		return NULL;
	m->next_all = s->all_maps;
	s->all_maps = m;
	return m;
}

static int maps_reserve(struct sess_maps *m, size_t more)
{
	if (more > SIZE_MAX - m->nr)
		return -ENOMEM;
	return PK_GROW(m->v, m->cap, m->nr + more);
}

/* Index of the first map whose end is past addr (ends are sorted as the maps do not overlap). */
static bool map_ends_by(const void *elem, const void *addr)
{
	return (*(struct sess_map *const *)elem)->pub.end <= *(const uint64_t *)addr;
}

static size_t maps_first_after(const struct sess_maps *m, uint64_t addr)
{
	return pk_bsearch(&addr, m->v, m->nr, sizeof(*m->v), map_ends_by);
}

const struct sess_map *maps__find(const struct sess_maps *m, uint64_t addr)
{
	if (!m || !m->nr)
		return NULL;
	size_t i = maps_first_after(m, addr);
	if (i < m->nr && m->v[i]->pub.start <= addr)
		return m->v[i];
	return NULL;
}

static struct sess_map *map_clone(struct pk_session *s, const struct sess_map *o)
{
	struct sess_map *n = pk_arena__alloc(&s->arena, sizeof(*n));
	if (!n)
		return NULL;
	*n = *o;
	n->pub.id = s->nr_maps++;
	return n;
}

/*
 * perf's maps__fixup_overlap_and_insert: maps overlapping nm are removed,
 * their parts before and after nm kept as new maps, then nm is inserted.
 */
static int maps_insert(struct pk_session *s, struct sess_maps *m, struct sess_map *nm)
{
	s->maps_epoch++;
	uint64_t start = nm->pub.start, end = nm->pub.end;
	size_t i = maps_first_after(m, start), j = i;
	if (end > start)
		while (j < m->nr && m->v[j]->pub.start < end)
			j++;
	else
		/* an empty map overlaps nothing: insert it before the first map starting after it */
		while (j < m->nr && m->v[j]->pub.start <= start)
			i = ++j;
	struct sess_map *before = NULL, *after = NULL;
	if (j > i) {
		const struct sess_map *first = m->v[i], *last = m->v[j - 1];
		if (first->pub.start < start) {
			if (!(before = map_clone(s, first)))
				return -ENOMEM;
			before->pub.end = start;
		}
		if (last->pub.end > end) {
			if (!(after = map_clone(s, last)))
				return -ENOMEM;
			after->pub.pgoff += end - last->pub.start;
			after->pub.start = end;
		}
	}
	size_t nnew = 1 + !!before + !!after;
	if (maps_reserve(m, nnew))
		return -ENOMEM;
	/* replace v[i..j) by before, nm, after */
	memmove(&m->v[i + nnew], &m->v[j], (m->nr - j) * sizeof(*m->v));
	m->nr = m->nr - (j - i) + nnew;
	size_t k = i;
	if (before)
		m->v[k++] = before;
	m->v[k++] = nm;
	if (after)
		m->v[k++] = after;
	return 0;
}

/* Copy the parent's maps into a new process (perf's maps__clone). */
static int maps_clone_into(struct pk_session *s, struct sess_maps *dst, const struct sess_maps *src)
{
	if (!src->nr)
		return 0;
	if (!dst->nr) {
		if (maps_reserve(dst, src->nr))
			return -ENOMEM;
		memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
		dst->nr = src->nr;
		return 0;
	}
	for (size_t i = 0; i < src->nr; i++) {
		struct sess_map *c = map_clone(s, src->v[i]);
		if (!c || maps_insert(s, dst, c))
			return -ENOMEM;
	}
	return 0;
}

/* ---- threads ------------------------------------------------------------------------- */

struct sess_thread *machine__find_thread(const struct pk_session *s, int32_t tid)
{
	uint64_t *v = pk_u64map__find(&s->tids, (uint64_t)(uint32_t)tid);
	return v && *v != UINT64_MAX ? s->threads[*v] : NULL;
}

static struct sess_thread *thread_new(struct pk_session *s, int32_t pid, int32_t tid)
{
	if (PK_GROW(s->threads, s->cap_threads, s->nr_threads + 1))
		return NULL;
	struct sess_thread *t = pk_arena__alloc(&s->arena, sizeof(*t));
	if (!t)
		return NULL;
	char def[24];
	snprintf(def, sizeof(def), ":%d", tid);
	t->pub.pid = pid;
	t->pub.tid = tid;
	t->pub.ppid = -1;
	t->pub.id = (uint32_t)s->nr_threads;
	if (!(t->pub.comm = machine__intern_comm(s, def)))
		return NULL;
	if (pk_u64map__set(&s->tids, (uint64_t)(uint32_t)tid, s->nr_threads))
		return NULL;
	s->threads[s->nr_threads++] = t;
	return t;
}

/* perf's machine__update_thread_pid: a thread learns its pid and joins its leader's maps. */
static void thread_update_pid(struct pk_session *s, struct sess_thread *t, int32_t pid)
{
	if (pid == t->pub.pid || pid == -1 || t->pub.pid != -1)
		return;
	t->pub.pid = pid;
	if (pid == t->pub.tid)
		return;
	struct sess_thread *leader = machine__findnew_thread(s, pid, pid);
	if (leader && leader->maps)
		t->maps = leader->maps;
}

struct sess_thread *machine__findnew_thread(struct pk_session *s, int32_t pid, int32_t tid)
{
	/* samples come in runs of one thread: the last one found first */
	struct sess_thread *t = s->last_thread;
	if (!t || t->pub.tid != tid)
		t = machine__find_thread(s, tid);
	if (t) {
		t->pub.task_seen |= s->in_task_record;
		thread_update_pid(s, t, pid);
		s->last_thread = t;
		return t;
	}
	if (!(t = thread_new(s, pid, tid)))
		return NULL;
	t->pub.task_seen = s->in_task_record;
	/* perf's thread__init_maps */
	if (pid == tid || pid == -1) {
		t->maps = maps_new(s);
	} else {
		struct sess_thread *leader = machine__findnew_thread(s, pid, pid);
		t->maps = leader ? leader->maps : NULL;
	}
	return t->maps ? t : NULL;
}

static void thread_remove(struct pk_session *s, struct sess_thread *t)
{
	uint64_t *v = pk_u64map__find(&s->tids, (uint64_t)(uint32_t)t->pub.tid);
	if (v && s->threads[*v] == t)
		*v = UINT64_MAX;	/* no thread has that tid any more */
	if (s->last_thread == t)
		s->last_thread = NULL;
}

/* perf's machine__find_thread(pid, tid): no creation, but the pid is learnt */
static struct sess_thread *find_live(struct pk_session *s, int32_t pid, int32_t tid)
{
	struct sess_thread *t = machine__find_thread(s, tid);
	if (t)
		thread_update_pid(s, t, pid);
	return t;
}

static int process_comm(struct pk_session *s, const struct pk_data_event *ev)
{
	struct sess_thread *t = machine__findnew_thread(s, ev->u.comm.pid, ev->u.comm.tid);
	if (!t)
		return -ENOMEM;
	const char *c = machine__intern_comm(s, ev->u.comm.comm);
	if (!c)
		return -ENOMEM;
	t->pub.comm = c;
	t->pub.comm_set = true;
	return 0;
}

static int process_fork(struct pk_session *s, const struct pk_data_event *ev)
{
	int32_t pid = ev->u.task.pid, tid = ev->u.task.tid;
	int32_t ppid = ev->u.task.ppid, ptid = ev->u.task.ptid;
	struct sess_thread *t = find_live(s, pid, tid);
	struct sess_thread *parent = machine__findnew_thread(s, ppid, ptid);
	/* a thread of that tid that is not the parent: its FORK was lost, start anew */
	if (parent && parent->pub.pid != ppid) {
		thread_remove(s, parent);
		parent = machine__findnew_thread(s, ppid, ptid);
	}
	if (t)
		thread_remove(s, t);
	t = machine__findnew_thread(s, pid, tid);
	if (!t || !parent)
		return -ENOMEM;
	/* perf's thread__fork */
	if (parent->pub.comm_set) {
		t->pub.comm = parent->pub.comm;
		t->pub.comm_set = true;
	}
	t->pub.ppid = parent->pub.tid;
	if (t->pub.pid == parent->pub.pid)
		return 0;	/* a new thread shares its process's maps */
	if (ev->misc & PERF_RECORD_MISC_FORK_EXEC)
		return 0;	/* synthesized: MMAP records follow */
	if (t->maps == parent->maps || !parent->maps)
		return 0;
	return maps_clone_into(s, t->maps, parent->maps);
}

static int process_exit(struct pk_session *s, const struct pk_data_event *ev)
{
	struct sess_thread *t = find_live(s, ev->u.task.pid, ev->u.task.tid);
	if (!t)
		return 0;
	t->pub.exited = true;
	if (s->o.flags & PK_SESSION_DROP_EXITED)
		thread_remove(s, t);
	return 0;
}

/* ---- build-ids ------------------------------------------------------------------------- */

static bool bid_before(const void *elem, const void *filename)
{
	return strcmp(((const struct sess_bid *)elem)->filename, filename) < 0;
}

static int bid_cmp(const void *a, const void *b)
{
	const struct sess_bid *x = a, *y = b;
	int c = strcmp(x->filename, y->filename);
	if (c)
		return c;
	return (int)y->kernel - (int)x->kernel;
}

static struct pk_dso *kernel_dso(struct pk_session *s);
static const struct sess_bid *find_bid(struct pk_session *s, const char *filename);

void machine__take_build_ids(struct pk_session *s)
{
	size_t n = pk_data_reader__nr_build_ids(s->r), from = s->bids_seen;
	for (; s->bids_seen < n; s->bids_seen++) {
		const struct pk_data_build_id *b = pk_data_reader__build_id(s->r, s->bids_seen);
		uint16_t mode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (!b->filename || !b->size ||
		    (mode != PERF_RECORD_MISC_KERNEL && mode != PERF_RECORD_MISC_USER))
			continue;	/* guests' build-ids belong to their machines */
		if (PK_GROW(s->bids, s->cap_bids, s->nr_bids + 1))
			return;
		struct sess_bid *nb = &s->bids[s->nr_bids++];
		*nb = (struct sess_bid){ .filename = b->filename,
					 .size = b->size > sizeof(nb->id) ? sizeof(nb->id) : b->size,
					 .kernel = mode == PERF_RECORD_MISC_KERNEL };
		memcpy(nb->id, b->id, nb->size);
		s->bids_sorted = false;
	}
	/*
	 * perf makes the DSO of each entry as it reads it (__event_process_build_id),
	 * before the maps that name it: the DSOs' creation order, which orders
	 * callchain siblings of two DSOs (pk_dso__order). The kernel's and user
	 * files' (modules are named only when their maps come).
	 */
	for (size_t i = from; i < n; i++) {
		const struct pk_data_build_id *b = pk_data_reader__build_id(s->r, i);
		uint16_t mode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (!b->filename || !b->size)
			continue;
		if (mode == PERF_RECORD_MISC_KERNEL && !strcmp(b->filename, "[kernel.kallsyms]")) {
			kernel_dso(s);
			continue;
		}
		if (mode != PERF_RECORD_MISC_USER || (b->filename[0] != '/' && b->filename[0] != '[') ||
		    !strncmp(b->filename, "/tmp/perf-", 10))
			continue;
		const struct sess_bid *sb = find_bid(s, b->filename);
		if (!sb || sb->kernel)
			continue;
		struct pk_sym_map sm = { .filename = b->filename, .build_id = sb->id,
					 .build_id_size = sb->size, .prot = PROT_EXEC };
		(void)pk_symbolizer__map_dso(s->sym, &sm);	/* NULL: its map fails then */
	}
}

static const struct sess_bid *find_bid(struct pk_session *s, const char *filename)
{
	machine__take_build_ids(s);
	if (!s->nr_bids)
		return NULL;
	if (!s->bids_sorted) {
		/* stable for equal names: the first entry of a name wins, as perf's first set */
		qsort(s->bids, s->nr_bids, sizeof(*s->bids), bid_cmp);
		s->bids_sorted = true;
	}
	size_t lo = pk_bsearch(filename, s->bids, s->nr_bids, sizeof(*s->bids), bid_before);
	if (lo < s->nr_bids && !strcmp(s->bids[lo].filename, filename))
		return &s->bids[lo];
	return NULL;
}

/* ---- maps ------------------------------------------------------------------------------ */

static struct sess_map *map_new(struct pk_session *s, uint64_t start, uint64_t len, uint64_t pgoff,
				const char *filename, uint32_t prot, uint32_t flags, bool kernel)
{
	struct sess_map *m = pk_arena__alloc(&s->arena, sizeof(*m));
	if (!m || !(m->filename = pk_arena__strdup(&s->arena, filename ? filename : "")))
		return NULL;
	m->pub.start = start;
	m->pub.end = start + len;
	m->pub.pgoff = pgoff;
	m->pub.prot = prot;
	m->pub.flags = flags;
	m->pub.kernel = kernel;
	m->pub.id = s->nr_maps++;
	return m;
}

struct pk_dso *pk_session__kernel_dso(struct pk_session *s)
{
	return s->kernel;
}

static struct pk_dso *kernel_dso(struct pk_session *s)
{
	if (!s->kernel) {
		const struct sess_bid *b = find_bid(s, "[kernel.kallsyms]");
		if (b && !b->kernel)
			b = NULL;
		s->kernel = pk_symbolizer__kernel(s->sym, b ? b->id : NULL, b ? b->size : 0);
	}
	return s->kernel;
}

/*
 * perf's module name: "[name]" as recorded, or from a path the basename
 * without ".ko" (and a compression suffix), '-' as '_', in brackets.
 */
static void module_name(const char *path, char *out, size_t size)
{
	if (path[0] == '[') {
		snprintf(out, size, "%s", path);
		return;
	}
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strcspn(b, ".");
	if (n + 3 > size)
		n = size - 3;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[i + 1] = b[i] == '-' ? '_' : b[i];
	out[n + 1] = ']';
	out[n + 2] = '\0';
}

/* Whether kallsyms (this machine's, or the one given) has symbols in [start, end). */
static bool kallsyms_covers(struct pk_dso *k, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = pk_dso__nr_syms(k);
	while (lo < hi) {	/* the first symbol starting at or after start */
		size_t mid = lo + (hi - lo) / 2;
		if (pk_dso__sym(k, mid)->start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pk_dso__nr_syms(k) && pk_dso__sym(k, lo)->start < end;
}

/*
 * A module map. Loaded here (kallsyms has its "name [module]" symbols): the
 * kernel DSO, which holds them at their absolute addresses. Not loaded
 * (another machine's recording): a DSO named as perf names the module
 * ("[ext4]", from the recorded path or name), without symbols, its
 * addresses module-relative as perf prints them ("0x0000000000000100").
 */
static int process_module_mmap(struct pk_session *s, const struct pk_data_event *ev)
{
	const char *name = ev->u.mmap.filename;
	struct pk_dso *k = kernel_dso(s);
	if (!k)
		return -ENOMEM;
	uint64_t start = ev->u.mmap.start, len = ev->u.mmap.len;
	struct sess_map *m = map_new(s, start, len, ev->u.mmap.pgoff, name, PROT_EXEC, 0, true);
	if (!m)
		return -ENOMEM;
	if (kallsyms_covers(k, start, start + len)) {
		m->pub.dso = k;
		m->delta = 0;
	} else {
		char mod[128];
		module_name(name, mod, sizeof(mod));
		struct pk_sym_map sm = { .start = start, .len = len, .pgoff = ev->u.mmap.pgoff,
					 .filename = mod, .pid = -1, .prot = PROT_EXEC };
		if (!(m->pub.dso = pk_symbolizer__map_dso(s->sym, &sm)))
			return -ENOMEM;
		m->delta = start - ev->u.mmap.pgoff;
	}
	return maps_insert(s, &s->kmaps, m);
}

/* Replace the kernel map (perf's machine__update_kernel_mmap) or add a module map. */
static int process_kernel_mmap(struct pk_session *s, const struct pk_data_event *ev)
{
	const char *name = ev->u.mmap.filename;
	static const char kname[] = "[kernel.kallsyms]";
	bool is_kernel = !strncmp(name, kname, sizeof(kname) - 2);
	if (name[0] == '/' || (!is_kernel && name[0] == '['))
		return process_module_mmap(s, ev);
	if (!is_kernel)
		return 0;
	struct pk_dso *k = kernel_dso(s);
	if (!k)
		return -ENOMEM;
	uint64_t len = ev->u.mmap.len;
	struct sess_map *m = map_new(s, ev->u.mmap.start, len, ev->u.mmap.pgoff, kname, PROT_EXEC,
				     0, true);
	if (!m)
		return -ENOMEM;
	if (ev->u.mmap.start == 0 && len == 0)
		m->pub.end = UINT64_MAX;
	if (m->pub.end < m->pub.start)
		m->pub.end = UINT64_MAX;
	m->pub.dso = k;
	m->delta = 0;
	/* perf's ref_reloc_sym: "_text" at pgoff when recorded (0: kptr_restrict hid it) */
	const char *sym = name + sizeof(kname) - 1;
	if (ev->u.mmap.pgoff && *sym)
		(void)pk_dso__kernel_reloc(k, sym, ev->u.mmap.pgoff);	/* -EBUSY: already set */
	/* the previous kernel map goes (not cut: perf removes and reinserts it) */
	for (size_t i = 0; i < s->kmaps.nr; i++) {
		if (s->kmaps.v[i] == s->kernel_map) {
			memmove(&s->kmaps.v[i], &s->kmaps.v[i + 1],
				(s->kmaps.nr - i - 1) * sizeof(*s->kmaps.v));
			s->kmaps.nr--;
			break;
		}
	}
	int rc = maps_insert(s, &s->kmaps, m);
	s->kernel_map = m;
	s->kernel_map_fixed = false;
	if (!rc)
		workers__prefetch(s, k);
	return rc;
}

static int process_mmap(struct pk_session *s, const struct pk_data_event *ev)
{
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		return process_kernel_mmap(s, ev);
	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return 0;	/* guest machines are not modelled */
	struct sess_thread *t = machine__findnew_thread(s, ev->u.mmap.pid, ev->u.mmap.tid);
	if (!t)
		return -ENOMEM;
	uint32_t prot, flags;
	if (ev->u.mmap.mmap2) {
		prot = ev->u.mmap.prot;
		flags = ev->u.mmap.flags;
	} else {
		prot = ev->u.mmap.data ? 0 : PROT_EXEC;
		flags = 0;
	}
	struct sess_map *m = map_new(s, ev->u.mmap.start, ev->u.mmap.len, ev->u.mmap.pgoff,
				     ev->u.mmap.filename, prot, flags, false);
	if (!m)
		return -ENOMEM;
	m->pub.ino = ev->u.mmap.mmap2 ? ev->u.mmap.ino : 0;
	struct pk_sym_map sm = { .start = m->pub.start, .len = ev->u.mmap.len,
				 .pgoff = m->pub.pgoff, .filename = m->filename,
				 .pid = t->pub.pid, .prot = prot, .flags = flags };
	if (ev->u.mmap.has_build_id && ev->u.mmap.build_id_size) {
		sm.build_id = ev->u.mmap.build_id;
		sm.build_id_size = ev->u.mmap.build_id_size;
	} else if (m->filename[0] == '/' || m->filename[0] == '[') {
		const struct sess_bid *b = find_bid(s, m->filename);
		if (b && !b->kernel) {
			sm.build_id = b->id;
			sm.build_id_size = b->size;
		}
	}
	m->pub.dso = pk_symbolizer__map_dso(s->sym, &sm);
	if (!m->pub.dso)
		return -ENOMEM;
	m->delta = m->pub.start - pk_sym_map__map_ip(&sm, m->pub.start);
	/* code of a file: its symbols are loaded on the other thread meanwhile */
	if ((prot & PROT_EXEC) && m->filename[0] == '/')
		workers__prefetch(s, m->pub.dso);
	if (!t->maps)
		return 0;
	return maps_insert(s, t->maps, m);
}

uint64_t pk_map__map_ip(const struct pk_map *m, uint64_t ip)
{
	return ip - ((const struct sess_map *)m)->delta;
}

uint64_t pk_map__unmap_ip(const struct pk_map *m, uint64_t rip)
{
	return rip + ((const struct sess_map *)m)->delta;
}

/* ---- lookups ---------------------------------------------------------------------------- */

/*
 * perf's map__fixup_end after kallsyms is loaded: the kernel map, recorded up to _etext,
 * ends where the kernel's last own symbol ends (init text: start_kernel, the idle tasks'
 * x86_64_start_kernel...), short of the next map. Once per kernel map; true if it grew.
 */
bool machine__kernel_map_fixup(struct pk_session *s)
{
	struct sess_map *k = s->kernel_map;
	if (!k || s->kernel_map_fixed)
		return false;
	s->kernel_map_fixed = true;
	uint64_t end = pk_dso__kernel_end(k->pub.dso);
	if (end <= k->pub.end)
		return false;
	for (size_t i = 0; i < s->kmaps.nr; i++)
		if (s->kmaps.v[i]->pub.start >= k->pub.end && s->kmaps.v[i]->pub.start < end)
			end = s->kmaps.v[i]->pub.start;
	bool grew = end > k->pub.end;
	if (grew) {
		k->pub.end = end;
		s->maps_epoch++;
	}
	return grew;
}

const struct sess_maps *machine__maps_for(struct pk_session *s, const struct sess_thread *t,
					  uint8_t cpumode, char *level)
{
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		*level = 'k';
		if (!s->kmaps.nr && !s->kernel) {
			/*
			 * No kernel MMAP (yet): perf starts with a kernel map from the
			 * running kernel up to the end of the address space.
			 */
			struct pk_dso *k = kernel_dso(s);
			struct sess_map *m = k ? map_new(s, 0, 0, 0, "[kernel.kallsyms]", PROT_EXEC, 0,
							 true) : NULL;
			if (m) {
				m->pub.end = UINT64_MAX;
				m->pub.dso = k;
				if (!maps_insert(s, &s->kmaps, m))
					s->kernel_map = m;
			}
		}
		return &s->kmaps;
	}
	if (cpumode == PERF_RECORD_MISC_USER) {
		*level = '.';
		return t ? t->maps : NULL;
	}
	*level = 'H';
	return NULL;
}

/* ---- the entry points ------------------------------------------------------------------- */

int machine__init(struct pk_session *s)
{
	/* perf's machine__idle_thread: 0/0 is "swapper" */
	struct sess_thread *idle = machine__findnew_thread(s, 0, 0);
	if (!idle || !(idle->pub.comm = machine__intern_comm(s, "swapper")))
		return -ENOMEM;
	idle->pub.comm_set = true;
	idle->pub.task_seen = true;
	return 0;
}

void machine__fini(struct pk_session *s)
{
	for (struct sess_maps *m = s->all_maps; m; m = m->next_all)
		free(m->v);
	free(s->kmaps.v);
	free(s->threads);
	free(s->bids);
	pk_u64map__free(&s->tids);
	pk_u64map__free(&s->comms);
}

int machine__process(struct pk_session *s, const struct pk_data_event *ev, struct pk_error *err)
{
	int rc = 0;
	s->in_task_record = ev->type == PERF_RECORD_COMM || ev->type == PERF_RECORD_FORK ||
			    ev->type == PERF_RECORD_EXIT;
	switch (ev->type) {
	case PERF_RECORD_COMM:
		rc = process_comm(s, ev);
		break;
	case PERF_RECORD_FORK:
		rc = process_fork(s, ev);
		break;
	case PERF_RECORD_EXIT:
		rc = process_exit(s, ev);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		rc = process_mmap(s, ev);
		break;
	default:
		break;
	}
	s->in_task_record = false;
	if (rc)
		return pk_error__set(err, rc, "", 0, 0, "offset %#llx: out of memory processing a record",
				     (unsigned long long)ev->offset);
	return 0;
}

/* ---- public lookups --------------------------------------------------------------------- */

const struct pk_thread *pk_session__thread(struct pk_session *s, int32_t pid, int32_t tid)
{
	struct sess_thread *t = machine__findnew_thread(s, pid, tid);
	return t ? &t->pub : NULL;
}

const struct pk_thread *pk_session__find_thread(const struct pk_session *s, int32_t tid)
{
	struct sess_thread *t = machine__find_thread(s, tid);
	return t ? &t->pub : NULL;
}

size_t pk_session__nr_threads(const struct pk_session *s)
{
	return s->nr_threads;
}

const struct pk_thread *pk_session__thread_at(const struct pk_session *s, uint32_t id)
{
	return id < s->nr_threads ? &s->threads[id]->pub : NULL;
}

const struct pk_map *pk_session__find_map(struct pk_session *s, const struct pk_thread *t,
					  uint8_t cpumode, uint64_t addr)
{
	char level;
	const struct sess_maps *m = machine__maps_for(s, (const struct sess_thread *)t, cpumode,
						      &level);
	const struct sess_map *map = maps__find(m, addr);
	return map ? &map->pub : NULL;
}

const struct pk_map *pk_session__thread_map_at(struct pk_session *s, const struct pk_thread *t,
					       size_t i)
{
	(void)s;
	const struct sess_maps *m = t ? ((const struct sess_thread *)t)->maps : NULL;
	return m && i < m->nr ? &m->v[i]->pub : NULL;
}
