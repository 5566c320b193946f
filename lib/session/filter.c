/* SPDX-License-Identifier: MIT */
/*
 * session/filter.c — perf's sample filters (pmukit/session.h,
 * pk_sample_filter): the comm, DSO and symbol lists (perf's strlist),
 * the pid and tid lists (intlist), the -C CPU list and the --time ranges
 * (perf's time-utils: absolute "start,stop" ranges and the percent forms
 * over the file's sample time range). Samples outside the CPUs or ranges
 * are dropped; the lists give a resolved sample filter bits, as perf's
 * machine__resolve sets al->filtered.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <pmukit/session.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

struct strlist {
	bool set;		/* given (perhaps with no entry: everything filtered) */
	char **v;		/* sorted, unique */
	size_t n;
};

struct intlist {
	bool set;
	long *v;		/* sorted */
	size_t n;
};

struct range {
	uint64_t start, end;	/* ns; 0: open */
};

struct pk_sample_filter {
	struct strlist comms, dsos, syms;
	struct intlist pids, tids;
	bool cpu_set;
	uint8_t *cpus;		/* one byte per CPU below nr_cpus (the list's highest + 1) */
	size_t nr_cpus;
	struct range *ranges;
	size_t nr_ranges;
};

/* ---- lists ----------------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

/* perf's strlist__add: a duplicate is an error (-EEXIST) */
static int strlist_add(struct strlist *l, const char *s, size_t len, size_t *cap)
{
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == len && !memcmp(l->v[i], s, len))
			return -EEXIST;
	if (PK_GROW(l->v, *cap, l->n + 1))
		return -ENOMEM;
	l->v[l->n] = strndup(s, len);
	return l->v[l->n++] ? 0 : -ENOMEM;
}

/* perf's strlist__load: one entry a line, its last character (the newline) cut */
static int strlist_load(struct strlist *l, const char *path, size_t *cap)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int rc = 0;
	if (!f)
		return -errno;
	while (!rc && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		if (len)
			rc = strlist_add(l, line, len - 1, cap);
	}
	fclose(f);
	return rc;
}

static int strlist_entry(struct strlist *l, const char *s, size_t len, size_t *cap)
{
	if (len >= 7 && !strncmp(s, "file://", 7)) {
		char *path = strndup(s + 7, len - 7);
		int rc = path ? strlist_load(l, path, cap) : -ENOMEM;
		free(path);
		return rc;
	}
	return strlist_add(l, s, len, cap);
}

/*
 * perf's strlist__parse_list: comma separated, a trailing empty entry
 * ignored, "file://PATH" entries read from PATH; sorted for lookups.
 */
static int strlist_parse(struct strlist *l, const char *s)
{
	size_t cap = 0;
	const char *sep;
	int rc = 0;
	l->set = true;
	while (!rc && (sep = strchr(s, ',')) != NULL) {
		rc = strlist_entry(l, s, (size_t)(sep - s), &cap);
		s = sep + 1;
	}
	if (!rc && *s)
		rc = strlist_entry(l, s, strlen(s), &cap);
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	return rc;
}

static bool strlist_has(const struct strlist *l, const char *s)
{
	return l->n && bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_str);
}

static void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* perf's intlist__parse_list: numbers separated by commas, a duplicate is an error */
static int intlist_parse(struct intlist *l, const char *s)
{
	size_t cap = 0;
	char *sep;
	l->set = true;
	do {
		long v = strtol(s, &sep, 10);
		if (*sep != ',' && *sep != '\0')
			return -EINVAL;
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i] == v)
				return -EINVAL;
		if (PK_GROW(l->v, cap, l->n + 1))
			return -ENOMEM;
		l->v[l->n++] = v;
		s = sep + 1;
	} while (*sep != '\0');
	qsort(l->v, l->n, sizeof(*l->v), cmp_long);
	return 0;
}

static bool intlist_has(const struct intlist *l, long v)
{
	return l->n && bsearch(&v, l->v, l->n, sizeof(*l->v), cmp_long);
}

/* ---- CPUs ------------------------------------------------------------------------------ */

/*
 * perf's perf_session__cpu_bitmap: every event type's first event must
 * sample the CPU; the list as perf_cpu_map__new reads it; each CPU below
 * the file's nr_cpus_avail.
 */
static int cpus_parse(struct pk_sample_filter *f, struct pk_session *s, const char *list,
		      struct pk_error *err)
{
	struct pk_data_reader *rd = pk_session__reader(s);
	bool seen[PERF_TYPE_MAX] = { 0 };
	for (size_t i = 0; i < pk_data_reader__nr_attrs(rd); i++) {
		const struct perf_event_attr *a = &pk_data_reader__attr(rd, i)->attr;
		if (a->type >= PERF_TYPE_MAX || seen[a->type])
			continue;
		seen[a->type] = true;
		if (!(a->sample_type & PERF_SAMPLE_CPU))
			return pk_error__set(err, -EINVAL, "", 0, 0,
					     "File does not contain CPU events. "
					     "Remove -C option to proceed.");
	}
	/*
	 * The file's CPU count bounds the list; a pipe's comes later (perf then
	 * refuses every CPU): unbounded there.
	 */
	const struct pk_data_env *env = pk_data_reader__env(rd);
	unsigned long limit = env && env->nr_cpus_avail ? env->nr_cpus_avail : 1ul << 20;
	unsigned long too_large = ULONG_MAX;
	f->cpu_set = true;
	const char *p = list;
	while (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long a = strtoul(p, &end, 0), b = a;
		if (*end == '-') {
			b = strtoul(end + 1, &end, 0);
			if (b < a)
				return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid cpu_list");
		}
		if (*end && *end != ',')
			return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid cpu_list");
		if (b >= limit) {
			if (a < too_large)	/* said once the whole list is read, as perf */
				too_large = a >= limit ? a : limit;
			p = *end ? end + 1 : end;
			continue;
		}
		if (b >= f->nr_cpus) {
			uint8_t *n = realloc(f->cpus, b + 1);
			if (!n)
				return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
			memset(n + f->nr_cpus, 0, b + 1 - f->nr_cpus);
			f->cpus = n;
			f->nr_cpus = b + 1;
		}
		memset(f->cpus + a, 1, b - a + 1);
		p = *end ? end + 1 : end;
	}
	if (*p && p == list)	/* perf 6.1 ignores what follows a valid list */
		return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid cpu_list");
	if (too_large != ULONG_MAX)
		return pk_error__set(err, -EINVAL, "", 0, 0,
				     "Requested CPU %lu too large. Consider raising MAX_NR_CPUS",
				     too_large);
	return 0;
}

/* ---- time ranges ----------------------------------------------------------------------- */

/* perf's parse_nsec_time: seconds with up to 9 decimals */
static int parse_nsec(const char *s, size_t len, uint64_t *out)
{
	char buf[64], *end;
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (!*buf)
		return 0;	/* an open side */
	uint64_t sec = strtoull(buf, &end, 10), nsec = 0;
	if (*end != '.' && *end)
		return -1;
	if (*end == '.') {
		const char *d = end + 1;
		size_t nd = strlen(d);
		if (nd > 9)
			return -1;
		char frac[10] = "000000000";
		memcpy(frac, d, nd);
		nsec = strtoull(frac, &end, 10);
		if (*end)
			return -1;
	}
	*out = sec * 1000000000ull + nsec;
	return 0;
}

/* "start,stop" (either may be empty) */
static int parse_one(const char *s, size_t len, struct range *r)
{
	const char *comma = memchr(s, ',', len);
	r->start = r->end = 0;
	if (!comma)
		return parse_nsec(s, len, &r->start);
	if (parse_nsec(s, (size_t)(comma - s), &r->start) ||
	    parse_nsec(comma + 1, len - (size_t)(comma - s) - 1, &r->end))
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/* perf's perf_time__parse_strs: ranges "a,b c,d": one comma each, spaces between */
static int parse_abs(struct pk_sample_filter *f, const char *s)
{
	size_t commas = 0;
	for (const char *c = s; *c; c++)
		commas += *c == ',';
	if (!commas)
		return -1;
	f->ranges = calloc(commas, sizeof(*f->ranges));
	if (!f->ranges)
		return -ENOMEM;
	const char *p = s;
	for (size_t i = 0; i + 1 < commas; i++) {
		const char *arg = p;
		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				return -1;
		if (parse_one(arg, (size_t)(p - arg), &f->ranges[i]))
			return -1;
		if (*p)
			p++;
	}
	if (parse_one(p, strlen(p), &f->ranges[commas - 1]))
		return -1;
	for (size_t i = 0; i + 1 < commas; i++)
		if (f->ranges[i].end >= f->ranges[i + 1].start)
			return -1;
	f->nr_ranges = commas;
	return 0;
}

/* "N%" (the whole string, up to '%'), as a fraction */
static int parse_pct(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	const char *pc = memchr(s, '%', len);
	if (!pc || (size_t)(pc - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(pc - s));
	buf[pc - s] = 0;
	*out = strtod(buf, &end) / 100.0;
	return *end ? -1 : 0;
}

/* perf's set_percent_time */
static int set_pct(struct range *r, double a, double b, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;
	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	r->start = first + (uint64_t)round(a * (double)total);
	r->end = first + (uint64_t)round(b * (double)total);
	if (r->end > r->start && r->end != last)
		r->end -= 1;
	return 0;
}

/* one piece of a percent form: "10%/2" (slash) or "0%-10%" (dash) */
static int parse_pct_piece(const char *s, size_t len, bool slash, struct range *r,
			   uint64_t first, uint64_t last)
{
	char sep = slash ? '/' : '-';
	const char *d = memchr(s, sep, len);
	double a, b;
	if (!d)
		return -1;
	if (slash) {
		double pct;
		char buf[32], *end;
		size_t nl = len - (size_t)(d - s) - 1;
		if (parse_pct(s, (size_t)(d - s), &pct) || nl >= sizeof(buf))
			return -1;
		memcpy(buf, d + 1, nl);
		buf[nl] = 0;
		long i = strtol(buf, &end, 10);
		if (*end || pct <= 0.0)
			return -1;
		a = pct * (double)(i - 1);
		b = pct * (double)i;
	} else {
		if (parse_pct(s, (size_t)(d - s), &a) || parse_pct(d + 1, len - (size_t)(d - s) - 1, &b))
			return -1;
	}
	return set_pct(r, a, b, first, last);
}

/* perf's perf_time__percent_parse_str */
static int parse_percent_forms(struct pk_sample_filter *f, const char *s, uint64_t first,
			       uint64_t last)
{
	size_t size = 1;
	for (const char *c = s; *c; c++)
		size += *c == ',';
	f->ranges = calloc(size, sizeof(*f->ranges));
	if (!f->ranges)
		return -ENOMEM;
	bool slash = strchr(s, '/') != NULL, dash = strchr(s, '-') != NULL;
	if (!slash && !dash) {
		/* "N%": the first N%; '%' must end the string */
		size_t len = strlen(s);
		double pct;
		if (strchr(s, '%') != s + len - 1 || parse_pct(s, len, &pct) || pct <= 0.0)
			return -1;
		if (set_pct(&f->ranges[0], 0.0, pct, first, last))
			return -1;
		f->nr_ranges = 1;
		return 0;
	}
	const char *p = s, *end = s + strlen(s);
	size_t n = 0;
	while (p < end) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : (size_t)(end - p);
		if (n >= size || parse_pct_piece(p, len, slash, &f->ranges[n], first, last))
			return -1;
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	f->nr_ranges = n;
	return 0;
}

static int time_parse(struct pk_sample_filter *f, struct pk_session *s, const char *str,
		      bool reltime, struct pk_error *err)
{
	const struct pk_data_env *env = pk_data_reader__env(pk_session__reader(s));
	uint64_t first = env ? env->first_sample_time : 0, last = env ? env->last_sample_time : 0;
	bool pct = strchr(str, '%') != NULL;
	if ((pct || reltime) && !first && !last)
		return pk_error__set(err, -EINVAL, "", 0, 0,
				     "HINT: no first/last sample time found in perf data.\n"
				     "Please use latest perf binary to execute 'perf record'\n"
				     "(if '--buildid-all' is enabled, please set "
				     "'--timestamp-boundary').");
	int rc = pct ? parse_percent_forms(f, str, first, last) : parse_abs(f, str);
	if (rc == -ENOMEM)
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	if (rc)
		return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid time string");
	if (reltime)
		for (size_t i = 0; i < f->nr_ranges; i++) {
			f->ranges[i].start += first;
			f->ranges[i].end += first;
		}
	return 0;
}

/* ---- the object ------------------------------------------------------------------------ */

int pk_sample_filter__new(struct pk_sample_filter **out, struct pk_session *s,
			  const struct pk_sample_filter_opts *opts, struct pk_error *err)
{
	struct pk_sample_filter_opts o = { .sz = sizeof(o) };
	*out = NULL;
	if (PK_OPTS_LOAD(&o, opts))
		return pk_opts__error(err, "pk_sample_filter_opts", opts->sz);
	struct pk_sample_filter *f = calloc(1, sizeof(*f));
	if (!f)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	int rc = 0;
	/* perf's symbol__init order: dsos, comms, pids, tids, symbols */
	if (o.dsos && strlist_parse(&f->dsos, o.dsos))
		rc = pk_error__set(err, -EINVAL, "", 0, 0, "problems parsing dso list");
	if (!rc && o.comms && strlist_parse(&f->comms, o.comms))
		rc = pk_error__set(err, -EINVAL, "", 0, 0, "problems parsing comm list");
	if (!rc && o.pids && intlist_parse(&f->pids, o.pids))
		rc = pk_error__set(err, -EINVAL, "", 0, 0, "problems parsing pid list");
	if (!rc && o.tids && intlist_parse(&f->tids, o.tids))
		rc = pk_error__set(err, -EINVAL, "", 0, 0, "problems parsing tid list");
	if (!rc && o.symbols && strlist_parse(&f->syms, o.symbols))
		rc = pk_error__set(err, -EINVAL, "", 0, 0, "problems parsing symbol list");
	if (!rc && o.cpus)
		rc = cpus_parse(f, s, o.cpus, err);
	if (!rc && o.time)
		rc = time_parse(f, s, o.time, o.reltime, err);
	if (rc) {
		pk_sample_filter__free(f);
		return rc;
	}
	*out = f;
	return 0;
}

void pk_sample_filter__free(struct pk_sample_filter *f)
{
	if (!f)
		return;
	strlist_free(&f->comms);
	strlist_free(&f->dsos);
	strlist_free(&f->syms);
	free(f->pids.v);
	free(f->tids.v);
	free(f->cpus);
	free(f->ranges);
	free(f);
}

bool pk_sample_filter__drop_cpu(const struct pk_sample_filter *f, int32_t cpu)
{
	if (!f || !f->cpu_set || cpu == -1)
		return false;
	return cpu < 0 || (size_t)cpu >= f->nr_cpus || !f->cpus[cpu];
}

/* perf's perf_time__ranges_skip_sample */
static bool skip_time(const struct pk_sample_filter *f, uint64_t t)
{
	if (!f->nr_ranges || !t)
		return false;
	if (f->nr_ranges == 1) {
		const struct range *r = &f->ranges[0];
		return (r->start && t < r->start) || (r->end && t > r->end);
	}
	for (size_t i = 0; i < f->nr_ranges; i++)
		if (t >= f->ranges[i].start && (t <= f->ranges[i].end || !f->ranges[i].end))
			return false;
	return true;
}

bool pk_sample_filter__drop(const struct pk_sample_filter *f, const struct pk_data_event *ev)
{
	if (!f)
		return false;
	if (skip_time(f, ev->sample.time))
		return true;
	return f->cpu_set && pk_sample_filter__drop_cpu(f, (int32_t)ev->sample.cpu);
}

unsigned pk_sample_filter__hide(const struct pk_sample_filter *f, const struct pk_resolved *rs)
{
	if (!f)
		return 0;
	unsigned bits = 0;
	const struct pk_thread *t = rs->thread;
	if ((f->comms.set && !strlist_has(&f->comms, rs->comm ? rs->comm : "")) ||
	    (f->pids.set && !intlist_has(&f->pids, t ? t->pid : -1)) ||
	    (f->tids.set && !intlist_has(&f->tids, t ? t->tid : -1)))
		bits |= PK_FILTER_THREAD;
	const struct pk_loc *l = rs->loc;
	if (f->dsos.set && l->map) {
		/* perf: the short name, or the long one when it differs */
		if (!l->dso || !(strlist_has(&f->dsos, pk_dso__short_name(l->dso)) ||
				 strlist_has(&f->dsos, pk_dso__name(l->dso))))
			bits |= PK_FILTER_DSO;
	}
	if (f->syms.set) {
		bool ok = false;
		if (l->sym && l->map) {
			char addr[32];
			ok = strlist_has(&f->syms, l->sym->name);
			snprintf(addr, sizeof(addr), "0x%" PRIx64, pk_map__unmap_ip(l->map, l->sym->start));
			ok = ok || strlist_has(&f->syms, addr);
		} else if (l->sym) {
			ok = strlist_has(&f->syms, l->sym->name);
		}
		if (!ok)
			bits |= PK_FILTER_SYMBOL;
	}
	return bits;
}

unsigned pk_sample_filter__hides(const struct pk_sample_filter *f)
{
	if (!f)
		return 0;
	return (f->comms.set || f->pids.set || f->tids.set ? PK_FILTER_THREAD : 0) |
	       (f->dsos.set ? PK_FILTER_DSO : 0) | (f->syms.set ? PK_FILTER_SYMBOL : 0);
}

const char *pk_sample_filter__only(const struct pk_sample_filter *f, int list)
{
	if (!f)
		return NULL;
	const struct strlist *l = list == PK_FILTER_LIST_COMM ? &f->comms :
				  list == PK_FILTER_LIST_DSO  ? &f->dsos : &f->syms;
	return l->n == 1 ? l->v[0] : NULL;
}

size_t pk_sample_filter__nr_ranges(const struct pk_sample_filter *f)
{
	return f ? f->nr_ranges : 0;
}

void pk_sample_filter__range(const struct pk_sample_filter *f, size_t i, uint64_t *start,
			     uint64_t *end)
{
	*start = i < f->nr_ranges ? f->ranges[i].start : 0;
	*end = i < f->nr_ranges ? f->ranges[i].end : 0;
}
