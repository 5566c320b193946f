/* SPDX-License-Identifier: MIT */
/*
 * dump-per-event.c — perf script --per-event-dump: each event's sample lines
 * go to a file of its own, INPUT.EVENT.dump (side-band records stay on
 * stdout), and at the end one line per event says what was written, with
 * perf 6.1's size: what had reached the file before it was closed (the
 * whole blocks of stdio's buffer).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dump.h"
#include "script.h"

struct ped_file {
	char *name;
	FILE *f;
	uint64_t samples;
};

struct per_event_dump {
	struct pk_session *s;
	const char *input;
	struct ped_file *v;
	size_t nr;
	int current;		/* attr whose file sc->ob writes to; -1: stdout */
};

/* files for the attrs not seen yet (a pipe's arrive as it is read) */
static int open_new(struct per_event_dump *p)
{
	size_t n = pk_data_reader__nr_attrs(pk_session__reader(p->s));
	if (n <= p->nr)
		return 0;
	struct ped_file *v = realloc(p->v, n * sizeof(*v));
	if (!v)
		return -1;
	p->v = v;
	for (; p->nr < n; p->nr++) {
		struct ped_file *e = &v[p->nr];
		const char *ev = pk_session__event_name(p->s, (int)p->nr);
		size_t len = strlen(p->input) + strlen(ev) + 8;
		memset(e, 0, sizeof(*e));
		if (!(e->name = malloc(len)))
			return -1;
		snprintf(e->name, len, "%s.%s.dump", p->input, ev);
		if (!(e->f = fopen(e->name, "w"))) {
			free(e->name);
			return -1;
		}
	}
	return 0;
}

struct per_event_dump *per_event_dump__new(struct pk_session *s, const char *input)
{
	struct per_event_dump *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->s = s;
	p->input = input;
	p->current = -1;
	if (open_new(p)) {
		for (size_t i = 0; i < p->nr; i++) {
			fclose(p->v[i].f);
			free(p->v[i].name);
		}
		free(p->v);
		free(p);
		return NULL;
	}
	return p;
}

int per_event_dump__select(struct per_event_dump *p, struct script *sc, int attr)
{
	if (attr >= 0 && open_new(p))
		return -1;
	if (attr == p->current)
		goto count;
	obuf__flush(&sc->ob);
	sc->ob.f = attr >= 0 && (size_t)attr < p->nr ? p->v[attr].f : stdout;
	p->current = attr;
count:
	if (attr >= 0 && (size_t)attr < p->nr)
		p->v[attr].samples++;
	return 0;
}

void per_event_dump__finish(struct per_event_dump *p, struct script *sc)
{
	per_event_dump__select(p, sc, -1);
	for (size_t i = 0; i < p->nr; i++) {
		struct ped_file *e = &p->v[i];
		struct stat st;
		off_t written = ftello(e->f);
		long blk = !fstat(fileno(e->f), &st) && st.st_blksize > 0 ? (long)st.st_blksize : 4096;
		/* perf fstat()s the file still open: its last partial buffer is not there yet */
		off_t seen = written > 0 ? written / blk * blk : 0;
		printf("[ perf script: Wrote %.3f MB %s (%llu samples) ]\n",
		       (double)seen / 1024.0 / 1024.0, e->name, (unsigned long long)e->samples);
		fclose(e->f);
		free(e->name);
	}
	free(p->v);
	free(p);
}
