/* SPDX-License-Identifier: MIT */
/*
 * session/work.c — the session's worker threads (opts.nr_threads - 1 of
 * them, the caller being the last): DSO symbol tables loaded in the
 * background as soon as a map needs them (and debug info as soon as a
 * caller says it will want source lines), and parallel loops over
 * independent items (pk_session__prepare_srclines). Nothing here decides
 * what the session outputs: workers only fill caches whose contents do not
 * depend on which thread fills them or when.
 */
#include "session/session_int.h"

#include <errno.h>
#include <stdlib.h>

struct sess_workers {
	pthread_mutex_t lock;
	pthread_cond_t wake, done;
	pthread_t *tids;
	int nr;
	bool stop;
	/* prefetch queue: a DSO's symbols, or the source line at an address of it */
	struct job { struct pk_dso *d; uint64_t rip; bool srcline; } *q;
	size_t qhead, qtail, qcap;
	struct pk_u64map queued;	/* DSOs ever queued (each is loaded once) */
	/* the current parallel loop */
	void (*fn)(void *arg, size_t i);
	void *arg;
	size_t n, next, finished;
};

/* Take one index of the loop, or prefetch one DSO; false when there is nothing to do. */
static bool work_one(struct sess_workers *w, bool loop_only)
{
	if (w->fn && w->next < w->n) {
		size_t i = w->next++;
		void (*fn)(void *, size_t) = w->fn;
		void *arg = w->arg;
		pthread_mutex_unlock(&w->lock);
		fn(arg, i);
		pthread_mutex_lock(&w->lock);
		if (++w->finished == w->n)
			pthread_cond_broadcast(&w->done);
		return true;
	}
	if (!loop_only && w->qhead < w->qtail) {
		struct job j = w->q[w->qhead++ % w->qcap];
		pthread_mutex_unlock(&w->lock);
		if (j.srcline) {
			/* opens the debug info, reads the address's unit: cached for later */
			struct pk_srcline sl = { .sz = sizeof(sl) };
			(void)pk_dso__srcline(j.d, j.rip, &sl);
		} else {
			(void)pk_dso__nr_syms(j.d);	/* loads the symbol table once */
		}
		pthread_mutex_lock(&w->lock);
		return true;
	}
	return false;
}

static void *worker(void *p)
{
	struct sess_workers *w = p;
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		if (!work_one(w, false))
			pthread_cond_wait(&w->wake, &w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int workers__new(struct pk_session *s)
{
	int nr = s->o.nr_threads ? s->o.nr_threads : 2;
	if (nr <= 1)
		return 0;
	struct sess_workers *w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->tids = calloc((size_t)nr - 1, sizeof(*w->tids));
	if (!w->tids) {
		free(w);
		return -ENOMEM;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->done, NULL);
	for (int i = 0; i < nr - 1; i++) {
		if (pthread_create(&w->tids[i], NULL, worker, w))
			break;
		w->nr++;
	}
	s->workers = w;
	return 0;
}

void workers__free(struct pk_session *s)
{
	struct sess_workers *w = s->workers;
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < w->nr; i++)
		pthread_join(w->tids[i], NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->done);
	free(w->tids);
	free(w->q);
	pk_u64map__free(&w->queued);
	free(w);
	s->workers = NULL;
}

static void queue_job(struct pk_session *s, struct job job)
{
	struct sess_workers *w = s->workers;
	uint64_t key = (uint64_t)(uintptr_t)job.d;
	pthread_mutex_lock(&w->lock);
	/* a DSO's symbols once */
	if (!job.srcline &&
	    (pk_u64map__find(&w->queued, key) || pk_u64map__set(&w->queued, key, 1))) {
		pthread_mutex_unlock(&w->lock);
		return;
	}
	if (w->qtail - w->qhead == w->qcap) {
		size_t ncap = w->qcap ? w->qcap * 2 : 64;
		struct job *nq = malloc(ncap * sizeof(*nq));
		if (!nq) {
			pthread_mutex_unlock(&w->lock);
			return;	/* the DSO loads on first use instead */
		}
		size_t n = 0;
		for (; n < w->qcap; n++)	/* full: qtail - qhead == qcap */
			nq[n] = w->q[(w->qhead + n) % w->qcap];
		free(w->q);
		w->q = nq;
		w->qcap = ncap;
		w->qhead = 0;
		w->qtail = n;
	}
	w->q[w->qtail++ % w->qcap] = job;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

void workers__prefetch(struct pk_session *s, struct pk_dso *d)
{
	struct sess_workers *w = s->workers;
	if (w && w->nr && d && !(s->o.flags & PK_SESSION_NO_SYMBOLS))
		queue_job(s, (struct job){ d, 0, false });
}

void pk_session__prefetch_srcline(struct pk_session *s, struct pk_dso *d, uint64_t rip)
{
	struct sess_workers *w = s ? s->workers : NULL;
	if (w && w->nr && d && !(s->o.flags & PK_SESSION_NO_SYMBOLS))
		queue_job(s, (struct job){ d, rip, true });
}

void workers__run(struct pk_session *s, size_t n, void (*fn)(void *arg, size_t i), void *arg)
{
	struct sess_workers *w = s->workers;
	if (!w || !w->nr || n < 2) {
		for (size_t i = 0; i < n; i++)
			fn(arg, i);
		return;
	}
	pthread_mutex_lock(&w->lock);
	w->fn = fn;
	w->arg = arg;
	w->n = n;
	w->next = w->finished = 0;
	pthread_cond_broadcast(&w->wake);
	while (work_one(w, true))
		;
	while (w->finished < w->n)
		pthread_cond_wait(&w->done, &w->lock);
	w->fn = NULL;
	w->n = 0;
	pthread_mutex_unlock(&w->lock);
}
