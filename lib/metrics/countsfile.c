/* SPDX-License-Identifier: MIT */
/*
 * metrics/countsfile.c — reading `perf stat -j` / `pmukit stat -j` output:
 * one JSON object a line (json-c), checked field by field with line:column
 * errors, into records; records grouped into sets of one (interval,
 * aggregation key, cgroup) with the duration each interval covers. The
 * metric evaluation over a set is in countsfile_eval.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <json-c/json.h>

#include <pmukit/countsfile.h>

#include "metrics/countsfile_int.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/grow.h"

const char *pk_counts_aggr__name(enum pk_counts_aggr aggr)
{
	static const char *const names[] = { "", "cpu", "core", "cache", "cluster",
					     "die", "socket", "node", "thread" };
	return (unsigned)aggr < sizeof(names) / sizeof(names[0]) ? names[aggr] : "";
}

/* The keys of an aggregation, most specific first (a line naming two takes the first). */
static const struct {
	const char *key;
	enum pk_counts_aggr aggr;
} aggr_keys[] = {
	{ "cpu", PK_COUNTS_CPU },	{ "thread", PK_COUNTS_THREAD },
	{ "core", PK_COUNTS_CORE },	{ "cache", PK_COUNTS_CACHE },
	{ "cluster", PK_COUNTS_CLUSTER }, { "die", PK_COUNTS_DIE },
	{ "socket", PK_COUNTS_SOCKET }, { "node", PK_COUNTS_NODE },
};

struct pline {
	struct pk_counts *c;
	const char *file;
	const char *text;	/* the line */
	size_t len;
	unsigned no;
	struct pk_error *err;
};

/* The column of "key" in the line (1-based), for errors about its value. */
static unsigned key_col(const struct pline *l, const char *key)
{
	char pat[64];
	int n = snprintf(pat, sizeof(pat), "\"%s\"", key);
	for (size_t i = 0; n > 0 && i + (size_t)n <= l->len; i++)
		if (!memcmp(l->text + i, pat, (size_t)n))
			return (unsigned)i + 1;
	return 1;
}

static int bad(const struct pline *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const struct pline *l, const char *key, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pk_error__set(l->err, -EINVAL, l->file ? l->file : "", l->no,
			     key ? key_col(l, key) : 1, "%s", msg);
}
#ifdef __clang_analyzer__
/* the analyzer does not follow variadic functions: tell it what bad() returns */
#define bad(...) (bad(__VA_ARGS__), -EINVAL)
#endif

/* A number, or a string holding one (perf prints counter values as strings). */
static int get_number(const struct pline *l, json_object *o, const char *key, double *v)
{
	json_object *x;
	*v = NAN;
	if (!json_object_object_get_ex(o, key, &x) || json_object_is_type(x, json_type_null))
		return 0;
	if (json_object_is_type(x, json_type_int) || json_object_is_type(x, json_type_double)) {
		*v = json_object_get_double(x);
		return 1;
	}
	if (json_object_is_type(x, json_type_string)) {
		const char *s = json_object_get_string(x);
		char *end;
		*v = strtod(s, &end);
		if (end != s && !*end)
			return 1;
	}
	return bad(l, key, "\"%s\" must be a number", key);
}

/* A string (NULL when absent); for aggregation keys integers too ("cpu" : 3). */
static int get_string(const struct pline *l, json_object *o, const char *key, const char **s)
{
	json_object *x;
	bool key_id = strcmp(key, "event") && strcmp(key, "unit") && strcmp(key, "cgroup");
	*s = NULL;
	if (!json_object_object_get_ex(o, key, &x) || json_object_is_type(x, json_type_null))
		return 0;
	if (json_object_is_type(x, json_type_string) &&
	    strlen(json_object_get_string(x)) != (size_t)json_object_get_string_len(x))
		return bad(l, key, "\"%s\" holds a NUL character", key);
	if (json_object_is_type(x, json_type_string) ||
	    (key_id && json_object_is_type(x, json_type_int))) {
		*s = pk_arena__strdup(&l->c->arena, json_object_get_string(x));
		return *s ? 1 : -ENOMEM;
	}
	return bad(l, key, "\"%s\" must be a string", key);
}

static int push_record(struct pk_counts *c, const struct pk_counts_record *r)
{
	if (PK_GROW(c->recs, c->cap, c->nr + 1))
		return -ENOMEM;
	c->recs[c->nr++] = *r;
	return 0;
}

static int take_object(const struct pline *l, json_object *o)
{
	struct pk_counts_record r = { .line = l->no, .aggr_nr = -1 };
	const char *cv = "";
	double d;
	int rc;
	if ((rc = get_string(l, o, "event", &r.event)) < 0)
		return rc;
	if (!rc) {
		l->c->skipped++;	/* a metric-only line */
		return 0;
	}
	if ((rc = get_number(l, o, "interval", &r.interval)) < 0)
		return rc;
	r.has_interval = rc;
	if (rc && !(isfinite(r.interval) && r.interval >= 0))
		return bad(l, "interval", "\"interval\" must be a finite number >= 0");
	if (l->c->nr && l->c->recs[0].has_interval != r.has_interval)
		return bad(l, r.has_interval ? "interval" : "event",
			   "interval and total counts mixed in one file (line %u has %s)",
			   l->c->recs[0].line, r.has_interval ? "none" : "an interval");
	r.aggr_id = "";
	for (size_t i = 0; i < sizeof(aggr_keys) / sizeof(aggr_keys[0]); i++) {
		const char *id;
		if ((rc = get_string(l, o, aggr_keys[i].key, &id)) < 0)
			return rc;
		if (rc && aggr_keys[i].aggr == PK_COUNTS_CPU && id[strspn(id, "0123456789")])
			return bad(l, "cpu", "\"cpu\" must be a CPU number, not \"%s\"", id);
		if (rc && r.aggr == PK_COUNTS_GLOBAL) {
			r.aggr = aggr_keys[i].aggr;
			r.aggr_id = id;
		}
	}
	if ((rc = get_number(l, o, "aggregate-number", &d)) < 0)
		return rc;
	if (rc) {
		if (!(d >= 0 && d <= 1e9 && d == (int)d))
			return bad(l, "aggregate-number", "\"aggregate-number\" must be a count");
		r.aggr_nr = (int)d;
	}
	if ((rc = get_string(l, o, "cgroup", &r.cgroup)) < 0 ||
	    (rc = get_string(l, o, "unit", &r.unit)) < 0)
		return rc;
	if (!r.unit)
		r.unit = "";
	if ((rc = get_number(l, o, "event-runtime", &r.runtime)) < 0 ||
	    (rc = get_number(l, o, "pcnt-running", &r.pcnt_running)) < 0 ||
	    (rc = get_number(l, o, "variance", &r.variance)) < 0)
		return rc;
	static const char *const nonneg[] = { "event-runtime", "pcnt-running", "variance" };
	const double *vals[] = { &r.runtime, &r.pcnt_running, &r.variance };
	for (size_t i = 0; i < 3; i++)
		if (!isnan(*vals[i]) && !(isfinite(*vals[i]) && *vals[i] >= 0))
			return bad(l, nonneg[i], "\"%s\" must be a finite number >= 0", nonneg[i]);

	json_object *x;
	r.value = NAN;
	if (!json_object_object_get_ex(o, "counter-value", &x))
		return bad(l, "event", "a counter line needs \"counter-value\"");
	if (json_object_is_type(x, json_type_string))
		cv = json_object_get_string(x);
	if (!strcmp(cv, "<not counted>")) {
		r.status = PK_COUNTS_NOT_COUNTED;
	} else if (!strcmp(cv, "<not supported>")) {
		r.status = PK_COUNTS_NOT_SUPPORTED;
	} else {
		if ((rc = get_number(l, o, "counter-value", &r.value)) < 0)
			return bad(l, "counter-value",
				   "\"counter-value\" must be a number, \"<not counted>\" or "
				   "\"<not supported>\"");
		if (!rc)
			return bad(l, "counter-value", "\"counter-value\" is null");
		if (!(isfinite(r.value) && r.value >= 0))
		{
			char shown[64];
			if (*cv)
				snprintf(shown, sizeof(shown), "\"%.40s\"", cv);
			else
				snprintf(shown, sizeof(shown), "%g", r.value);
			return bad(l, "counter-value",
				   "\"counter-value\" must be a finite count >= 0, not %s", shown);
		}
	}
	return push_record(l->c, &r);
}

/* perf 6.1 prints NaN metric values as a bare -nan/nan/inf: make them null. */
static char *nan_to_null(const char *s, size_t n)
{
	char *o = malloc(2 * n + 1);
	size_t k = 0;
	bool str = false;
	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (str) {
			if (s[i] == '\\' && i + 1 < n)
				o[k++] = s[i++];
			else if (s[i] == '"')
				str = false;
			o[k++] = s[i];
			continue;
		}
		if (s[i] == '"') {
			str = true;
			o[k++] = s[i];
			continue;
		}
		size_t m = s[i] == '-' ? 1 : 0;
		if (i + m + 3 <= n && (!strncasecmp(s + i + m, "nan", 3) || !strncasecmp(s + i + m, "inf", 3))) {
			memcpy(o + k, "null", 4);
			k += 4;
			i += m + 2;
			continue;
		}
		o[k++] = s[i];
	}
	o[k] = '\0';
	return o;
}

static json_object *parse_json(json_tokener *tok, const char *s, size_t n, size_t *end,
			       enum json_tokener_error *je)
{
	json_tokener_reset(tok);
	json_object *o = json_tokener_parse_ex(tok, s, (int)n);
	*je = json_tokener_get_error(tok);
	*end = json_tokener_get_parse_end(tok);
	if (o && *je == json_tokener_success) {
		for (size_t i = *end; i < n; i++) {
			if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') {
				json_object_put(o);
				*end = i;
				*je = json_tokener_error_parse_unexpected;
				return NULL;
			}
		}
		return o;
	}
	if (o)
		json_object_put(o);
	if (*je == json_tokener_continue)
		*end = n;
	return NULL;
}

static int take_line(struct pline *l, json_tokener *tok)
{
	size_t i = 0;
	while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t' || l->text[i] == '\r'))
		i++;
	if (i == l->len || l->text[i] == '#') {
		l->c->skipped++;
		return 0;
	}
	if (memchr(l->text, '\0', l->len))
		return pk_error__set(l->err, -EINVAL, l->file ? l->file : "", l->no,
				     (unsigned)((const char *)memchr(l->text, '\0', l->len) - l->text) + 1,
				     "NUL byte in a counts line");
	if (l->len > INT32_MAX / 2)
		return pk_error__set(l->err, -EINVAL, l->file ? l->file : "", l->no, 1,
				     "line too long");
	size_t end;
	enum json_tokener_error je;
	json_object *o = parse_json(tok, l->text, l->len, &end, &je);
	if (!o) {
		char *fixed = nan_to_null(l->text, l->len);
		size_t end2;
		enum json_tokener_error je2;
		if (fixed)
			o = parse_json(tok, fixed, strlen(fixed), &end2, &je2);
		free(fixed);
		if (!o)
			return pk_error__set(l->err, -EINVAL, l->file ? l->file : "", l->no,
					     (unsigned)(end < l->len ? end : l->len) + 1,
					     "not a JSON line of perf stat -j: %s",
					     je == json_tokener_continue ? "unexpected end of line"
					     : json_tokener_error_desc(je));
	}
	int rc = json_object_is_type(o, json_type_object)
			 ? take_object(l, o)
			 : pk_error__set(l->err, -EINVAL, l->file ? l->file : "", l->no, (unsigned)i + 1,
					 "expected a JSON object, one per line");
	json_object_put(o);
	return rc;
}

/* --- sets -------------------------------------------------------------------------------- */

static bool same_key(const struct pk_counts_set *s, const struct pk_counts_record *r)
{
	return s->has_interval == r->has_interval &&
	       (!s->has_interval || s->interval == r->interval) && s->aggr == r->aggr &&
	       !strcmp(s->aggr_id, r->aggr_id) &&
	       !strcmp(s->cgroup ? s->cgroup : "", r->cgroup ? r->cgroup : "") &&
	       (s->cgroup == NULL) == (r->cgroup == NULL);
}

static int build_sets(struct pk_counts *c)
{
	size_t *set_of = calloc(c->nr ? c->nr : 1, sizeof(*set_of));
	if (!set_of)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr; i++) {
		const struct pk_counts_record *r = &c->recs[i];
		size_t s = c->nr_sets;
		/* records of a set are usually near: look back from the end */
		for (size_t k = c->nr_sets; k-- > 0;)
			if (same_key(&c->sets[k].pub, r)) {
				s = k;
				break;
			}
		if (s == c->nr_sets) {
			if (PK_GROW(c->sets, c->cap_sets, c->nr_sets + 1))
				goto nomem;
			c->sets[c->nr_sets++] = (struct counts_set){
				.pub = { .has_interval = r->has_interval, .interval = r->interval,
					 .aggr = r->aggr, .aggr_id = r->aggr_id, .cgroup = r->cgroup,
					 .duration = NAN },
				.dur_rec = -1,
			};
		}
		struct counts_set *cs = &c->sets[s];
		if (PK_GROW(cs->idx, cs->cap, cs->n + 1))
			goto nomem;
		cs->idx[cs->n++] = i;
		set_of[i] = s;
	}

	/*
	 * Durations: each distinct interval minus the one before it, in file
	 * order; slot j of seen/dur is a distinct interval, the last slot the
	 * records without one.
	 */
	size_t ns = c->nr_sets ? c->nr_sets : 1, nseen = 0;
	double *seen = malloc(ns * sizeof(*seen));
	size_t *slot = calloc(ns ? ns : 1, sizeof(*slot));	/* every set gets one below */
	long *dur = malloc((ns + 1) * sizeof(*dur));
	if (!seen || !slot || !dur) {
		free(seen);
		free(slot);
		free(dur);
		goto nomem;
	}
	for (size_t j = 0; j <= ns; j++)
		dur[j] = -1;	/* no duration_time record yet */
	for (size_t k = 0; k < c->nr_sets; k++) {
		struct pk_counts_set *s = &c->sets[k].pub;
		if (!s->has_interval) {
			slot[k] = ns;
			continue;
		}
		size_t j = nseen;
		if (nseen && s->interval == seen[nseen - 1]) {
			j = nseen - 1;
		} else {
			/* perf prints intervals in increasing order: search only when not */
			if (nseen && s->interval < seen[nseen - 1])
				for (j = 0; j < nseen && seen[j] != s->interval; j++)
					;
			if (j == nseen)
				seen[nseen++] = s->interval;
		}
		slot[k] = j;
		s->duration = s->interval - (j ? seen[j - 1] : 0);
	}
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->recs[i].event, "duration_time") && dur[slot[set_of[i]]] < 0)
			dur[slot[set_of[i]]] = (long)i;
	for (size_t k = 0; k < c->nr_sets; k++) {
		c->sets[k].dur_rec = dur[slot[k]];
		c->sets[k].pub.nr_records = c->sets[k].n;
		c->sets[k].pub.records = c->sets[k].idx;
	}
	free(seen);
	free(slot);
	free(dur);
	free(set_of);
	return 0;
nomem:
	free(set_of);
	return -ENOMEM;
}

/* --- the object ----------------------------------------------------------------------------- */

int pk_counts__parse(struct pk_counts **out, const char *buf, size_t len, const char *file,
		     struct pk_error *err)
{
	*out = NULL;
	struct pk_counts *c = calloc(1, sizeof(*c));
	json_tokener *tok = json_tokener_new();
	int rc = c && tok ? 0 : -ENOMEM;
	struct pline l = { .c = c, .file = file, .err = err };
	for (size_t off = 0; !rc && off < len;) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (buf + off)) : len - off;
		l.text = buf + off;
		l.len = n;
		l.no++;
		rc = take_line(&l, tok);
		off += n + 1;
	}
	if (!rc)
		rc = build_sets(c);
	if (rc == -ENOMEM)
		pk_error__set(err, rc, file ? file : "", 0, 0, "out of memory");
	if (tok)
		json_tokener_free(tok);
	if (rc) {
		pk_counts__free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int pk_counts__read(struct pk_counts **out, const char *path, struct pk_error *err)
{
	*out = NULL;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0)
		return pk_error__set(err, -errno, path, 0, 0, "cannot open: %s", strerror(errno));
	struct pk_buf b = { 0 };
	int rc = pk_buf__read_fd(&b, fd, 65536);
	if (fd > 0)
		close(fd);
	if (!rc)
		rc = pk_counts__parse(out, (const char *)b.data, b.len, path, err);
	else if (rc == -ENOMEM)
		pk_error__set(err, rc, path, 0, 0, "out of memory");
	else
		pk_error__set(err, rc, path, 0, 0, "cannot read: %s", strerror(-rc));
	pk_buf__free(&b);
	return rc;
}

void pk_counts__free(struct pk_counts *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_sets; i++)
		free(c->sets[i].idx);
	free(c->sets);
	free(c->recs);
	pk_arena__free(&c->arena);
	free(c);
}

size_t pk_counts__nr_records(const struct pk_counts *c)
{
	return c->nr;
}

const struct pk_counts_record *pk_counts__record(const struct pk_counts *c, size_t idx)
{
	return idx < c->nr ? &c->recs[idx] : NULL;
}

size_t pk_counts__nr_skipped(const struct pk_counts *c)
{
	return c->skipped;
}

size_t pk_counts__nr_sets(const struct pk_counts *c)
{
	return c->nr_sets;
}

const struct pk_counts_set *pk_counts__set(const struct pk_counts *c, size_t idx)
{
	return idx < c->nr_sets ? &c->sets[idx].pub : NULL;
}
