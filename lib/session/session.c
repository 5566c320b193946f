/* SPDX-License-Identifier: MIT */
/*
 * session/session.c — the session object: opens the reader and the
 * symbolizer, applies each side-band record to the machine before handing
 * the event out (perf's machine__process_event before the tool's handler),
 * names events, counts.
 */
#include "session/session_int.h"
#include "session/session_lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

/*
 * The reader's warnings about a damaged or unfinished file (a cut pipe, a
 * killed perf's file), each once on stderr as perf prints its warnings.
 */
static void session_warn(struct pk_session *s)
{
	const char *w;
	while ((w = pk_data_reader__warning(s->r, s->nr_warned))) {
		fprintf(stderr, "Warning: %s\n", w);
		s->nr_warned++;
	}
}

/* The caller's options over the defaults, honouring its struct's size. */
static void opts_copy(struct pk_session_opts *dst, const struct pk_session_opts *src)
{
	memset(dst, 0, sizeof(*dst));
	(void)PK_OPTS_LOAD(dst, src);	/* checked by the callers */
}

static int session_start(struct pk_session *s, struct pk_error *err)
{
	struct pk_symbolizer_opts so = { .sz = sizeof(so) };
	if (PK_OPTS_LOAD(&so, s->o.symbolizer))
		return pk_opts__error(err, "pk_symbolizer_opts", s->o.symbolizer->sz);
	if (s->o.symfs)
		so.symfs = s->o.symfs;
	int rc = pk_symbolizer__new(&s->sym, &so, err);
	if (rc)
		return rc;
	if ((rc = machine__init(s)))
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	machine__take_build_ids(s);
	if ((rc = workers__new(s)))
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	return 0;
}

/*
 * The file's bytes mapped at once: a session reads the file once, forward,
 * so a window larger than this only adds resident pages (8 MiB, the
 * reader's default, cost report 5 MiB more peak RSS for no time gained).
 */
#define SESSION_WINDOW	(2u << 20)

/*
 * The reader's options: the caller's, or with none, the defaults and the
 * read-ahead thread when the session may use threads and the file is more
 * than one window (a smaller one is mapped at once: a thread to fetch it
 * costs more than it saves).
 */
static const struct pk_data_reader_opts *reader_opts(const struct pk_session *s, const char *path,
						     int fd, struct pk_data_reader_opts *def)
{
	if (s->o.reader)
		return s->o.reader;
	struct stat st;
	bool got = fd >= 0 ? !fstat(fd, &st) : path && !stat(path, &st);
	bool small = got && S_ISREG(st.st_mode) && st.st_size <= (off_t)SESSION_WINDOW;
	*def = (struct pk_data_reader_opts){ .sz = sizeof(*def),
					     .read_ahead = s->o.nr_threads != 1 && !small,
					     .window_bytes = SESSION_WINDOW };
	return def;
}

static struct pk_session *session_alloc(const struct pk_session_opts *opts)
{
	struct pk_session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	opts_copy(&s->o, opts);
	return s;
}

int pk_session__open(struct pk_session **out, const char *path, const struct pk_session_opts *opts,
		     struct pk_error *err)
{
	*out = NULL;
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_session_opts", opts->sz);
	struct pk_session *s = session_alloc(opts);
	if (!s)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	struct pk_data_reader_opts ro;
	int rc = pk_data_reader__open(&s->r, path, reader_opts(s, path, -1, &ro), err);
	if (!rc && !(s->path = strdup(path)))
		rc = pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	if (!rc) {
		session_warn(s);
		rc = session_start(s, err);
	}
	if (rc) {
		pk_session__free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int pk_session__open_fd(struct pk_session **out, int fd, const char *name,
			const struct pk_session_opts *opts, struct pk_error *err)
{
	*out = NULL;
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_session_opts", opts->sz);
	struct pk_session *s = session_alloc(opts);
	if (!s)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	s->fd = fd;
	struct pk_data_reader_opts ro;
	int rc = pk_data_reader__open_fd(&s->r, fd, name, reader_opts(s, NULL, fd, &ro), err);
	if (!rc) {
		session_warn(s);
		rc = session_start(s, err);
	}
	if (rc) {
		pk_session__free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void pk_session__free(struct pk_session *s)
{
	if (!s)
		return;
	workers__free(s);
	resolve__fini(s);
	machine__fini(s);
	free(s->evnames);
	free(s->lost);
	if (s->sym)
		pk_symbolizer__free(s->sym);
	if (s->r)
		pk_data_reader__free(s->r);
	pk_arena__free(&s->arena);
	free(s->path);
	free(s);
}

struct pk_data_reader *pk_session__reader(struct pk_session *s)
{
	return s->r;
}

struct pk_symbolizer *pk_session__symbolizer(struct pk_session *s)
{
	return s->sym;
}

/* perf's PERF_AUXTRACE_* kinds, as a person names them */
static const char *const aux_names[] = {
	[1] = "Intel PT", [2] = "Intel BTS", [3] = "CoreSight ETM", [4] = "Arm SPE",
	[5] = "s390 CPU-MF", [6] = "HiSilicon PTT",
};

/*
 * AUXTRACE_INFO: the file has an AUX area trace (Intel PT, Arm SPE,
 * CoreSight...). pmukit does not decode them: said once on stderr; the
 * other samples are shown as perf shows them.
 */
static void aux_info(struct pk_session *s, const struct pk_data_event *ev)
{
	if (ev->raw->size < 16 || s->aux_type)
		return;
	uint32_t type;
	memcpy(&type, (const uint8_t *)ev->raw + 8, 4);
	s->aux_type = type ? type : UINT32_MAX;
	const char *n = type < sizeof(aux_names) / sizeof(*aux_names) ? aux_names[type] : NULL;
	fprintf(stderr, "Warning: %s: offset %#llx: %s%s AUX area traces are not decoded: only "
		"the other samples are shown\n", s->path ? s->path : "-",
		(unsigned long long)ev->offset, n ? n : "", n ? "" : "these (unknown kind)");
}

unsigned pk_session__aux_name_width(const struct pk_session *s)
{
	/* Arm SPE: perf's decoder adds "remote-access" (its default itrace options) */
	return s->aux_type == 4 ? 13 : 0;
}

int session__read(struct pk_session *s, const struct pk_data_event **ev, struct pk_error *err)
{
	int rc = pk_data_reader__next(s->r, ev, err);
	if (rc <= 0)
		session_warn(s);
	return rc;
}

bool session__changes_maps(uint32_t type)
{
	return type == PERF_RECORD_COMM || type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT ||
	       type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2;
}

int session__apply(struct pk_session *s, const struct pk_data_event *ev, struct pk_error *err)
{
	int rc;
	switch (ev->type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		s->maps_epoch++;	/* besides maps added: the kernel's moved, a thread's replaced */
		if ((rc = machine__process(s, ev, err)))
			return rc;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (attrs__lost_samples(s, ev) < 0)
			return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
		break;
	case PK_RECORD_HEADER_BUILD_ID:
		machine__take_build_ids(s);
		break;
	case PK_RECORD_AUXTRACE_INFO:
		aux_info(s, ev);
		break;
	default:
		break;
	}
	if (s->o.on_event)
		s->o.on_event(s->o.on_event_ctx, s, ev);
	return 0;
}

int pk_session__next(struct pk_session *s, const struct pk_data_event **ev, struct pk_error *err)
{
	int rc = session__read(s, ev, err);
	if (rc <= 0)
		return rc;
	rc = session__apply(s, *ev, err);
	return rc ? rc : 1;
}

const char *pk_session__event_name(struct pk_session *s, int attr)
{
	if (attr < 0 || (size_t)attr >= pk_data_reader__nr_attrs(s->r))
		return NULL;
	if ((size_t)attr >= s->nr_evnames) {
		size_t n = pk_data_reader__nr_attrs(s->r);
		if (PK_GROW(s->evnames, s->cap_evnames, n))
			return NULL;
		memset(s->evnames + s->nr_evnames, 0, (n - s->nr_evnames) * sizeof(*s->evnames));
		s->nr_evnames = n;
	}
	const struct pk_data_attr *a = pk_data_reader__attr(s->r, (size_t)attr);
	/* a pipe's name (EVENT_UPDATE) may come after the name was derived */
	if (!s->evnames[attr] || (a->name && s->evnames[attr] != a->name))
		s->evnames[attr] = a->name ? a->name : evname__derive(s, a);
	return s->evnames[attr];
}

int pk_session__stats(const struct pk_session *s, struct pk_session_stats *st)
{
	struct pk_session_stats full = s->st;
	full.sz = sizeof(full);
	full.nr_locs = s->nr_locs;
	full.nr_threads = s->nr_threads;
	full.nr_maps = s->nr_maps;
	return pk_opts__fill(st, &full, sizeof(full));	/* only the fields within st->sz */
}
