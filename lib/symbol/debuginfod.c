/* SPDX-License-Identifier: MIT */
/*
 * symbol/debuginfod.c — debug files from debuginfod servers ($DEBUGINFOD_URLS),
 * only with PK_SYMBOLIZER_DEBUGINFOD: libdebuginfod is loaded with dlopen
 * when first needed (the static CLI does not link it), each download is
 * cut off after the timeout (its progress callback says stop), and the
 * caller's progress function gets a line when a download starts, while it
 * runs (at most once a second) and when it ends, so it never looks hung.
 */
#include "symbol/symbol_int.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct debuginfod_client debuginfod_client;
typedef int (*progress_fn)(debuginfod_client *, long, long);

struct dbg {
	void *lib;
	debuginfod_client *(*begin)(void);
	void (*end)(debuginfod_client *);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *, int, char **);
	int (*find_executable)(debuginfod_client *, const unsigned char *, int, char **);
	void (*set_progressfn)(debuginfod_client *, progress_fn);
	void (*set_user_data)(debuginfod_client *, void *);
	void *(*get_user_data)(debuginfod_client *);
	bool failed;
};

struct call {
	struct pk_symbolizer *s;
	struct timespec start;
	double timeout;
	time_t last_report;
	char what[96];
};

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void say(struct pk_symbolizer *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct pk_symbolizer *s, const char *fmt, ...)
{
	if (!s->o.progress)
		return;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->o.progress(s->o.progress_ctx, line);
}

static struct dbg *dbg_get(struct pk_symbolizer *s)
{
	struct dbg *g = s->debuginfod;
	if (!g) {
		g = calloc(1, sizeof(*g));
		if (!g)
			return NULL;
		s->debuginfod = g;
		g->lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
		if (g->lib) {
			*(void **)&g->begin = dlsym(g->lib, "debuginfod_begin");
			*(void **)&g->end = dlsym(g->lib, "debuginfod_end");
			*(void **)&g->find_debuginfo = dlsym(g->lib, "debuginfod_find_debuginfo");
			*(void **)&g->find_executable = dlsym(g->lib, "debuginfod_find_executable");
			*(void **)&g->set_progressfn = dlsym(g->lib, "debuginfod_set_progressfn");
			*(void **)&g->set_user_data = dlsym(g->lib, "debuginfod_set_user_data");
			*(void **)&g->get_user_data = dlsym(g->lib, "debuginfod_get_user_data");
		}
		if (!g->begin || !g->end || !g->find_debuginfo || !g->find_executable ||
		    !g->set_progressfn || !g->set_user_data || !g->get_user_data) {
			g->failed = true;
			say(s, "debuginfod: libdebuginfod.so.1 not available");
		}
	}
	return g->failed ? NULL : g;
}

/*
 * libdebuginfod passes only the client: its user data is read through the
 * library itself (already loaded, so RTLD_NOLOAD), not a global.
 */
static int on_progress_call(debuginfod_client *cl, long a, long b)
{
	void *h = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *(*get)(debuginfod_client *) = NULL;
	if (h)
		*(void **)&get = dlsym(h, "debuginfod_get_user_data");
	struct call *c = get ? get(cl) : NULL;
	if (h)
		dlclose(h);
	if (!c)
		return 0;
	double t = since(&c->start);
	if ((time_t)t != c->last_report) {
		c->last_report = (time_t)t;
		if (b > 0)
			say(c->s, "debuginfod: %s: %ld/%ld bytes, %.0f s", c->what, a, b, t);
		else
			say(c->s, "debuginfod: %s: %.0f s", c->what, t);
	}
	return t > c->timeout ? 1 : 0;	/* non-zero: give up */
}

char *debuginfod__find(struct pk_symbolizer *s, const uint8_t *bid, size_t n, bool debuginfo)
{
	if (!(s->o.flags & PK_SYMBOLIZER_DEBUGINFOD) || !n)
		return NULL;
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !*urls)
		return NULL;
	struct dbg *g = dbg_get(s);
	if (!g)
		return NULL;
	debuginfod_client *cl = g->begin();
	if (!cl)
		return NULL;
	struct call c = { .s = s, .timeout = s->o.debuginfod_timeout > 0 ? s->o.debuginfod_timeout : 30,
			  .last_report = -1 };
	clock_gettime(CLOCK_MONOTONIC, &c.start);
	size_t k = 0;
	for (size_t i = 0; i < n && k + 3 < sizeof(c.what); i++)
		k += (size_t)snprintf(c.what + k, sizeof(c.what) - k, "%02x", bid[i]);
	snprintf(c.what + k, sizeof(c.what) - k, " %s", debuginfo ? "debuginfo" : "executable");
	g->set_user_data(cl, &c);
	g->set_progressfn(cl, on_progress_call);
	say(s, "debuginfod: %s: asking %s", c.what, urls);
	char *path = NULL;
	int fd = debuginfo ? g->find_debuginfo(cl, bid, (int)n, &path)
			   : g->find_executable(cl, bid, (int)n, &path);
	if (fd >= 0)
		close(fd);
	else
		path = NULL;
	double took = since(&c.start);
	if (path)
		say(s, "debuginfod: %s: %s (%.1f s)", c.what, path, took);
	else if (took > c.timeout)
		say(s, "debuginfod: %s: gave up after %.0f s", c.what, took);
	else
		say(s, "debuginfod: %s: %s (%.1f s)", c.what, strerror(-fd), took);
	g->end(cl);
	return path;
}

void debuginfod__free(struct pk_symbolizer *s)
{
	struct dbg *g = s->debuginfod;
	if (!g)
		return;
	if (g->lib)
		dlclose(g->lib);
	free(g);
	s->debuginfod = NULL;
}
