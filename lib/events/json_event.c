/* SPDX-License-Identifier: MIT */
/*
 * events/json_event.c — the jevents translation rules: one JSON object of a
 * vendor event file to the attributes perf 6.12's jevents.py computes (our own
 * implementation of its documented behaviour, checked against it by
 * tests/integration/jevents_oracle.sh over the whole real tree):
 *   - name: EventName lower-cased; pmu from Unit through a fixed table,
 *     "uncore_<lower>" otherwise, "default_core" when absent;
 *   - encoding: config=/eventid=/event= (EventCode's first item | ExtSel << 8),
 *     then the ordered optional fields (zero values skipped, numbers
 *     canonicalized), Filter, and the MSR term; well-known fixed events
 *     replace it;
 *   - descriptions: trailing ".  ", ". ", "." removed, Data_LA/Errata/PEBS notes;
 *   - ArchStdEvent: the standard event's encoding, and its values for every
 *     attribute the entry leaves empty.
 * Numbers follow Python's int() (whitespace, '_' separators, base prefixes).
 */
#include "events/json_event.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/events.h>

#include "events/json_text.h"
#include "util/bsearch.h"
#include "util/buf.h"
#include "util/error.h"

enum json_key {
	K_AGGREGATION_MODE, K_ANY_THREAD, K_ARCH_STD_EVENT, K_BRIEF_DESCRIPT6ION,
	K_BRIEF_DESCRIPTION, K_COMPAT, K_CONFIG_CODE, K_COUNTER, K_COUNTER_MASK,
	K_COUNTERS_NUM_FIXED, K_COUNTERS_NUM_GENERIC, K_DATA_LA, K_DEFAULT_METRICGROUP_NAME,
	K_DEPRECATED, K_EDGE_DETECT, K_EN_ALL_CORES, K_EN_ALL_SLICES, K_ERRATA, K_EVENT_CODE,
	K_EVENT_NAME, K_EVENTID_CODE, K_EXPERIMENTAL, K_EXT_SEL, K_FC_MASK, K_FILTER, K_INVERT,
	K_MSR_INDEX, K_MSR_VALUE, K_METRIC_CONSTRAINT, K_METRIC_EXPR, K_METRIC_GROUP,
	K_METRIC_NAME, K_METRIC_THRESHOLD, K_METRICGROUP_NO_GROUP, K_NODE_TYPE, K_PEBS,
	K_PER_PKG, K_PORT_MASK, K_PUBLIC_DESCRIPTION, K_PUBLIC_DESCRITION, K_RD_WR_MASK,
	K_SAMPLE_AFTER_VALUE, K_SCALE_UNIT, K_SLICE_ID, K_THREAD_MASK, K_UMASK, K_UNIT,
	K__COUNT
};

/* Value types accepted: jevents calls string methods on most values; a few it
 * only formats or converts with int(), and those accept JSON integers too. */
enum { TY_STR = 1, TY_INT = 2 };

_Static_assert(K__COUNT < sizeof(((struct json_ctx *)0)->key_hint), "key_hint too small");

/*
 * Every key used in perf 6.12's arch/ tree, plus ExtSel which jevents reads.
 * Sorted by strcmp (json_key__lookup bisects; a test checks the order).
 * "BriefDescript6ion" and "PublicDescrition" are misspellings present in the
 * real tree; jevents never reads them, so they are accepted and ignored.
 * Counter, CountersNumFixed and CountersNumGeneric are not read by jevents
 * 6.12 either (the counter.json files even use integers there).
 */
static const struct key_def {
	const char *name;
	unsigned char types;
} keys[K__COUNT] = {
	[K_AGGREGATION_MODE] = { "AggregationMode", TY_STR },
	[K_ANY_THREAD] = { "AnyThread", TY_STR },
	[K_ARCH_STD_EVENT] = { "ArchStdEvent", TY_STR },
	[K_BRIEF_DESCRIPT6ION] = { "BriefDescript6ion", TY_STR | TY_INT },
	[K_BRIEF_DESCRIPTION] = { "BriefDescription", TY_STR },
	[K_COMPAT] = { "Compat", TY_STR | TY_INT },
	[K_CONFIG_CODE] = { "ConfigCode", TY_STR },
	[K_COUNTER] = { "Counter", TY_STR | TY_INT },
	[K_COUNTER_MASK] = { "CounterMask", TY_STR },
	[K_COUNTERS_NUM_FIXED] = { "CountersNumFixed", TY_STR | TY_INT },
	[K_COUNTERS_NUM_GENERIC] = { "CountersNumGeneric", TY_STR | TY_INT },
	[K_DATA_LA] = { "Data_LA", TY_STR | TY_INT },
	[K_DEFAULT_METRICGROUP_NAME] = { "DefaultMetricgroupName", TY_STR | TY_INT },
	[K_DEPRECATED] = { "Deprecated", TY_STR },
	[K_EDGE_DETECT] = { "EdgeDetect", TY_STR },
	[K_EN_ALL_CORES] = { "EnAllCores", TY_STR },
	[K_EN_ALL_SLICES] = { "EnAllSlices", TY_STR },
	[K_ERRATA] = { "Errata", TY_STR },
	[K_EVENT_CODE] = { "EventCode", TY_STR },
	[K_EVENT_NAME] = { "EventName", TY_STR },
	[K_EVENTID_CODE] = { "EventidCode", TY_STR },
	[K_EXPERIMENTAL] = { "Experimental", TY_STR | TY_INT },
	[K_EXT_SEL] = { "ExtSel", TY_STR | TY_INT },
	[K_FC_MASK] = { "FCMask", TY_STR },
	[K_FILTER] = { "Filter", TY_STR | TY_INT },
	[K_INVERT] = { "Invert", TY_STR },
	[K_MSR_INDEX] = { "MSRIndex", TY_STR },
	[K_MSR_VALUE] = { "MSRValue", TY_STR | TY_INT },
	[K_METRIC_CONSTRAINT] = { "MetricConstraint", TY_STR },
	[K_METRIC_EXPR] = { "MetricExpr", TY_STR },
	[K_METRIC_GROUP] = { "MetricGroup", TY_STR | TY_INT },
	[K_METRIC_NAME] = { "MetricName", TY_STR },
	[K_METRIC_THRESHOLD] = { "MetricThreshold", TY_STR },
	[K_METRICGROUP_NO_GROUP] = { "MetricgroupNoGroup", TY_STR | TY_INT },
	[K_NODE_TYPE] = { "NodeType", TY_STR },
	[K_PEBS] = { "PEBS", TY_STR | TY_INT },
	[K_PER_PKG] = { "PerPkg", TY_STR },
	[K_PORT_MASK] = { "PortMask", TY_STR },
	[K_PUBLIC_DESCRIPTION] = { "PublicDescription", TY_STR },
	[K_PUBLIC_DESCRITION] = { "PublicDescrition", TY_STR | TY_INT },
	[K_RD_WR_MASK] = { "RdWrMask", TY_STR },
	[K_SAMPLE_AFTER_VALUE] = { "SampleAfterValue", TY_STR },
	[K_SCALE_UNIT] = { "ScaleUnit", TY_STR | TY_INT },
	[K_SLICE_ID] = { "SliceId", TY_STR },
	[K_THREAD_MASK] = { "ThreadMask", TY_STR },
	[K_UMASK] = { "UMask", TY_STR },
	[K_UNIT] = { "Unit", TY_STR },
};

/* The optional encoding terms, in the order perf emits them. */
static const struct {
	unsigned char key;
	const char *term;
} event_fields[] = {
	{ K_ANY_THREAD, "any=" },	  { K_PORT_MASK, "ch_mask=" },
	{ K_COUNTER_MASK, "cmask=" },	  { K_EDGE_DETECT, "edge=" },
	{ K_FC_MASK, "fc_mask=" },	  { K_INVERT, "inv=" },
	{ K_SAMPLE_AFTER_VALUE, "period=" }, { K_UMASK, "umask=" },
	{ K_NODE_TYPE, "type=" },	  { K_RD_WR_MASK, "rdwrmask=" },
	{ K_EN_ALL_CORES, "enallcores=" }, { K_EN_ALL_SLICES, "enallslices=" },
	{ K_SLICE_ID, "sliceid=" },	  { K_THREAD_MASK, "threadmask=" },
};

/* Units whose PMU name is not "uncore_<lower-cased unit>". */
static const struct {
	const char *unit, *pmu;
} unit_pmus[] = {
	{ "CBO", "uncore_cbox" },	   { "QPI LL", "uncore_qpi" },
	{ "SBO", "uncore_sbox" },	   { "iMPH-U", "uncore_arb" },
	{ "CPU-M-CF", "cpum_cf" },	   { "CPU-M-SF", "cpum_sf" },
	{ "PAI-CRYPTO", "pai_crypto" },	   { "PAI-EXT", "pai_ext" },
	{ "UPI LL", "uncore_upi" },	   { "hisi_sicl,cpa", "hisi_sicl,cpa" },
	{ "hisi_sccl,ddrc", "hisi_sccl,ddrc" }, { "hisi_sccl,hha", "hisi_sccl,hha" },
	{ "hisi_sccl,l3c", "hisi_sccl,l3c" }, { "imx8_ddr", "imx8_ddr" },
	{ "imx9_ddr", "imx9_ddr" },	   { "L3PMC", "amd_l3" },
	{ "DFPMC", "amd_df" },		   { "UMCPMC", "amd_umc" },
	{ "cpu_core", "cpu_core" },	   { "cpu_atom", "cpu_atom" },
	{ "ali_drw", "ali_drw" },	   { "arm_cmn", "arm_cmn" },
};

/* Events whose encoding perf hard-codes, whatever the JSON says. */
static const struct {
	const char *name, *event;
} fixed_events[] = {
	{ "inst_retired.any", "event=0xc0,period=2000003" },
	{ "inst_retired.any_p", "event=0xc0,period=2000003" },
	{ "cpu_clk_unhalted.ref", "event=0x0,umask=0x03,period=2000003" },
	{ "cpu_clk_unhalted.thread", "event=0x3c,period=2000003" },
	{ "cpu_clk_unhalted.core", "event=0x3c,period=2000003" },
	{ "cpu_clk_unhalted.thread_any", "event=0x3c,any=1,period=2000003" },
};

/* MSRIndex (first of a list) -> encoding term. */
static const struct {
	unsigned msr;
	const char *term;
} msr_terms[] = {
	{ 0x3f6, "ldlat=" },
	{ 0x1a6, "offcore_rsp=" },
	{ 0x1a7, "offcore_rsp=" },
	{ 0x3f7, "frontend=" },
};

/* keys[] elements start with their name */
static bool key_before(const void *elem, const void *name)
{
	return strcmp(((const struct key_def *)elem)->name, name) < 0;
}

int json_key__lookup(const char *name)
{
	size_t k = pk_bsearch(name, keys, K__COUNT, sizeof(keys[0]), key_before);
	return k < K__COUNT && !strcmp(keys[k].name, name) ? (int)k : -1;
}

#undef json_ctx__error	/* scan-build's stand-in (json_event.h): this is the function */
int json_ctx__error(const struct json_ctx *ctx, struct pk_error *err, long index,
		    const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	unsigned line = 0, col = 0;
	if (ctx->text) {
		size_t off = json_text__find(ctx->text, ctx->len, index, key);
		if (off != JSON_TEXT_NOT_FOUND)
			json_text__linecol(ctx->text, ctx->len, off, &line, &col);
	}
	return pk_error__set(err, -EINVAL, ctx->path, line, col, "%s", msg);
}

/* A value as text: strings as they are, integers in decimal (Python's f'{x}'). */
struct val {
	const char *s;
	size_t len;
	bool is_int;
	long long i;
	char tmp[24];
};

static void get_val(json_object *o, struct val *v)
{
	if (json_object_get_type(o) == json_type_int) {
		v->is_int = true;
		v->i = json_object_get_int64(o);
		v->len = (size_t)snprintf(v->tmp, sizeof(v->tmp), "%lld", v->i);
		v->s = v->tmp;
	} else {
		v->is_int = false;
		v->s = json_object_get_string(o);
		v->len = (size_t)json_object_get_string_len(o);
	}
}

/* Python truthiness: "" and 0 are false. */
static bool val_true(const struct val *v)
{
	return v->is_int ? v->i != 0 : v->len != 0;
}

/* Arena copy of a value, NULL when it is falsy (perf stores those as NULL). */
static const char *dup_val(struct pk_arena *a, json_object *o, bool *oom)
{
	if (!o)
		return NULL;
	struct val v;
	get_val(o, &v);
	if (!val_true(&v))
		return NULL;
	char *p = pk_arena__strndup(a, v.s, v.len);
	if (!p)
		*oom = true;
	return p;
}

static const char *dup_lower(struct pk_arena *a, const char *s, size_t len, bool *oom)
{
	char *p = pk_arena__alloc(a, len + 1);
	if (!p) {
		*oom = true;
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		p[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	return p;
}

/* perf's fixdesc: strip one trailing ".  ", then ". ", then "." (in that order). */
static size_t desc_len(const char *s, size_t len)
{
	static const char *const sfx[] = { ".  ", ". ", "." };
	for (size_t k = 0; k < 3; k++) {
		size_t n = strlen(sfx[k]);
		if (len >= n && !memcmp(s + len - n, sfx[k], n))
			len -= n;
	}
	return len;
}

static const char *unit_to_pmu(struct json_ctx *ctx, json_object *o, bool *oom)
{
	if (!o || !json_object_get_string_len(o))
		return "default_core";
	const char *u = json_object_get_string(o);
	size_t len = (size_t)json_object_get_string_len(o);
	if (ctx->last_unit && ctx->last_unit_len == len && !memcmp(ctx->last_unit, u, len))
		return ctx->last_pmu;
	const char *pmu = NULL;
	for (size_t k = 0; k < sizeof(unit_pmus) / sizeof(unit_pmus[0]); k++)
		if (!strcmp(u, unit_pmus[k].unit)) {
			pmu = unit_pmus[k].pmu;
			break;
		}
	if (!pmu) {
		char *p = pk_arena__alloc(ctx->arena, len + 8);
		if (!p) {
			*oom = true;
			return NULL;
		}
		memcpy(p, "uncore_", 7);
		for (size_t i = 0; i < len; i++)
			p[7 + i] = (char)(u[i] >= 'A' && u[i] <= 'Z' ? u[i] + 32 : u[i]);
		pmu = p;
	}
	char *key = pk_arena__strndup(ctx->arena, u, len);
	if (key) {
		ctx->last_unit = key;
		ctx->last_unit_len = len;
		ctx->last_pmu = pmu;
	}
	return pmu;
}

/* "", "0", "1" -> enum json_flag; anything else is refused. */
static int parse_flag(const struct json_ctx *ctx, json_object *o, unsigned index, int k,
		      unsigned char *out, struct pk_error *err)
{
	struct val v;
	if (!o)
		return 0;
	get_val(o, &v);
	if (v.len == 0)
		*out = JSON_FLAG_NONE;
	else if (v.len == 1 && v.s[0] == '0')
		*out = JSON_FLAG_ZERO;
	else if (v.len == 1 && v.s[0] == '1')
		*out = JSON_FLAG_ONE;
	else
		return json_ctx__error(ctx, err, index, keys[k].name,
				       "\"%s\" must be \"0\" or \"1\", not \"%s\"", keys[k].name,
				       v.s);
	return 0;
}

static int bad_number(const struct json_ctx *ctx, unsigned index, int k, const char *s,
		      struct pk_error *err)
{
	return json_ctx__error(ctx, err, index, keys[k].name,
			       "\"%s\": invalid or out-of-range number \"%s\"", keys[k].name, s);
}

/* One optional encoding term (perf's is_zero + canonicalize_value). */
static int add_field(const struct json_ctx *ctx, unsigned index, int k, json_object *o,
		     const char *term, struct pk_buf *enc, struct pk_error *err)
{
	const char *s = json_object_get_string(o);
	size_t len = (size_t)json_object_get_string_len(o);
	bool hex = len >= 2 && s[0] == '0' && s[1] == 'x', neg;
	unsigned long long v;
	if (!json_py_int(s, len, hex ? 16 : 10, &neg, &v))
		return bad_number(ctx, index, k, s, err);
	if (!v)
		return 0;
	char num[32];
	size_t n = hex ? json_fmt_llx(num, neg, v) : json_fmt_num(num, neg, v, false);
	pk_buf__putc(enc, ',');
	pk_buf__puts(enc, term);
	pk_buf__add(enc, num, n);
	return 0;
}

/* int(x, 0) of the first item of a comma-separated list. */
static bool first_int(json_object *o, bool *neg, unsigned long long *v)
{
	const char *s = json_object_get_string(o);
	size_t len = (size_t)json_object_get_string_len(o);
	const char *comma = memchr(s, ',', len);
	return json_py_int(s, comma ? (size_t)(comma - s) : len, 0, neg, v);
}

static const char *join_desc(struct json_ctx *ctx, const char *s, size_t len, const char *extra,
			     size_t elen, bool *oom)
{
	const char *p = json_strtab__join(&ctx->strtab, ctx->arena, s, len, extra, elen);
	if (!p)
		*oom = true;
	return p;
}

static void inherit(struct json_entry *e, const struct json_entry *std)
{
#define INHERIT(f)           \
	do {                 \
		if (!e->f)   \
			e->f = std->f; \
	} while (0)
	INHERIT(name);
	INHERIT(desc);
	INHERIT(long_desc);
	INHERIT(compat);
	INHERIT(unit);
	INHERIT(perpkg);
	INHERIT(deprecated);
	INHERIT(aggr_mode);
	INHERIT(grouping);
	INHERIT(metric_name);
	INHERIT(metric_expr);
	INHERIT(metric_threshold);
	INHERIT(metric_group);
	INHERIT(nogroup);
	INHERIT(default_group);
#undef INHERIT
}

/* The rest of json_entry__parse: everything after the keys have been checked. */
static int translate(struct json_ctx *ctx, json_object *const *v, unsigned index,
		     struct json_entry *e, struct pk_error *err);

int json_entry__parse(struct json_ctx *ctx, json_object *obj, unsigned index,
		      struct json_entry *out, struct pk_error *err)
{
	json_object *v[K__COUNT] = { 0 };
	int prev = K__COUNT;
	memset(out, 0, sizeof(*out));
	out->index = index;
	json_object_object_foreach(obj, key, val) {
		int k = ctx->key_hint[prev];
		if (k >= K__COUNT || strcmp(key, keys[k].name)) {
			k = json_key__lookup(key);
			if (k < 0) {
				/*
				 * perf's jevents uses the keys it knows and ignores the
				 * rest: older trees have keys 6.12 dropped
				 * (CollectPEBSRecord, PEBScounters, ...), newer ones will
				 * add some. Counted, so a tool can say so.
				 * TODO: perf 6.1's tree has UMaskExt on 1,289 uncore events
				 * (SKX/CLX/ICX/SNR/SPR CHA, IIO, ...); 6.1's jevents drops it,
				 * so does this, and those events lose their umask extension
				 * bits (a perf 6.1 bug: later trees fold it in, UMask |
				 * UMaskExt << 8, as 1,029 of them read in 6.12). Folding it
				 * would part from perf 6.1's attrs: a decision still to take.
				 */
				ctx->nr_ignored_keys++;
				continue;
			}
			ctx->key_hint[prev] = (unsigned char)k;
		}
		prev = k;
		enum json_type t = json_object_get_type(val);
		if (t != json_type_string && !(t == json_type_int && (keys[k].types & TY_INT)))
			return json_ctx__error(ctx, err, index, key, "\"%s\" must be %s, not %s",
					       key,
					       keys[k].types & TY_INT ? "a string or an integer"
								      : "a string",
					       json_type_to_name(t));
		v[k] = val;
	}
	return translate(ctx, v, index, out, err);
}

/* The encoding's start: config=, eventid= or event= (EventCode's first item | ExtSel << 8). */
static int encode_code(const struct json_ctx *ctx, json_object *const *v, unsigned index,
		       struct pk_buf *enc, struct pk_error *err)
{
	bool neg = false;
	unsigned long long code = 0, x;
	char num[40];
	if (v[K_EVENT_CODE] && (!first_int(v[K_EVENT_CODE], &neg, &code) || neg))
		return bad_number(ctx, index, K_EVENT_CODE, json_object_get_string(v[K_EVENT_CODE]),
				  err);
	if (v[K_EXT_SEL]) {
		struct val ev;
		get_val(v[K_EXT_SEL], &ev);
		bool ok = ev.is_int ? (x = (unsigned long long)ev.i, ev.i >= 0)
				    : json_py_int(ev.s, ev.len, 10, &neg, &x) && !neg;
		if (!ok || x > (ULLONG_MAX >> 8))
			return bad_number(ctx, index, K_EXT_SEL, ev.s, err);
		code |= x << 8;
	}
	if (v[K_CONFIG_CODE] || v[K_EVENTID_CODE]) {
		int k = v[K_CONFIG_CODE] ? K_CONFIG_CODE : K_EVENTID_CODE;
		const char *s = json_object_get_string(v[k]);
		if (!json_py_int(s, (size_t)json_object_get_string_len(v[k]), 0, &neg, &x))
			return bad_number(ctx, index, k, s, err);
		/* A bad EventidCode after a good ConfigCode still fails in perf. */
		if (k == K_CONFIG_CODE && v[K_EVENTID_CODE]) {
			bool n2;
			unsigned long long x2;
			const char *s2 = json_object_get_string(v[K_EVENTID_CODE]);
			size_t l2 = (size_t)json_object_get_string_len(v[K_EVENTID_CODE]);
			if (!json_py_int(s2, l2, 0, &n2, &x2))
				return bad_number(ctx, index, K_EVENTID_CODE, s2, err);
		}
		pk_buf__puts(enc, k == K_CONFIG_CODE ? "config=" : "eventid=");
	} else {
		neg = false;
		x = code;
		pk_buf__puts(enc, "event=");
	}
	pk_buf__add(enc, num, json_fmt_llx(num, neg, x));
	return 0;
}

/* The term MSRIndex (the first of a list) stands for, or NULL without one. */
static int find_msr_term(const struct json_ctx *ctx, json_object *const *v, unsigned index,
			 const char **term, struct pk_error *err)
{
	bool neg;
	unsigned long long x;
	*term = NULL;
	if (!v[K_MSR_INDEX] || !json_object_get_string_len(v[K_MSR_INDEX]))
		return 0;
	if (first_int(v[K_MSR_INDEX], &neg, &x) && !neg)
		for (size_t k = 0; k < sizeof(msr_terms) / sizeof(msr_terms[0]); k++)
			if (msr_terms[k].msr == x)
				*term = msr_terms[k].term;
	if (!*term)
		return json_ctx__error(ctx, err, index, "MSRIndex",
				       "\"MSRIndex\": unknown MSR \"%s\" (known: 0x3f6, 0x1a6, "
				       "0x1a7, 0x3f7)",
				       json_object_get_string(v[K_MSR_INDEX]));
	return 0;
}

/* Name, compat, PMU and unit: what names the event. */
static void fill_names(struct json_ctx *ctx, json_object *const *v, struct json_entry *e,
		       bool *oom)
{
	if (v[K_EVENT_NAME] && json_object_get_string_len(v[K_EVENT_NAME]))
		e->name = dup_lower(ctx->arena, json_object_get_string(v[K_EVENT_NAME]),
				    (size_t)json_object_get_string_len(v[K_EVENT_NAME]), oom);
	e->compat = dup_val(ctx->arena, v[K_COMPAT], oom);
	e->pmu = unit_to_pmu(ctx, v[K_UNIT], oom);
	e->unit = dup_val(ctx->arena, v[K_SCALE_UNIT], oom);
}

/* PerPkg, Deprecated, Experimental and AggregationMode. */
static int fill_flags(const struct json_ctx *ctx, json_object *const *v, unsigned index,
		      struct json_entry *e, struct pk_error *err)
{
	int rc;
	if ((rc = parse_flag(ctx, v[K_PER_PKG], index, K_PER_PKG, &e->perpkg, err)) ||
	    (rc = parse_flag(ctx, v[K_DEPRECATED], index, K_DEPRECATED, &e->deprecated, err)))
		return rc;
	if (v[K_EXPERIMENTAL]) {
		unsigned char f = 0;
		if ((rc = parse_flag(ctx, v[K_EXPERIMENTAL], index, K_EXPERIMENTAL, &f, err)))
			return rc;
		e->experimental = f == JSON_FLAG_ONE;
	}
	if (v[K_AGGREGATION_MODE] && json_object_get_string_len(v[K_AGGREGATION_MODE])) {
		const char *s = json_object_get_string(v[K_AGGREGATION_MODE]);
		if (!strcmp(s, "PerChip"))
			e->aggr_mode = PK_AGGR_PER_CHIP;
		else if (!strcmp(s, "PerCore"))
			e->aggr_mode = PK_AGGR_PER_CORE;
		else
			return json_ctx__error(ctx, err, index, "AggregationMode",
					       "\"AggregationMode\": unknown value \"%s\" (known: "
					       "PerChip, PerCore)", s);
	}
	return 0;
}

/* The metric's fields: name, groups, constraint, expression, threshold. */
static int fill_metric(struct json_ctx *ctx, json_object *const *v, unsigned index,
		       struct json_entry *e, bool *oom, struct pk_error *err)
{
	static const struct {
		const char *name;
		unsigned char val;
	} mc[] = {
		{ "NO_GROUP_EVENTS", PK_GROUPING_NO_GROUP_EVENTS },
		{ "NO_GROUP_EVENTS_NMI", PK_GROUPING_NO_GROUP_EVENTS_NMI },
		{ "NO_NMI_WATCHDOG", PK_GROUPING_NO_GROUP_EVENTS_NMI },
		{ "NO_GROUP_EVENTS_SMT", PK_GROUPING_NO_GROUP_EVENTS_SMT },
	};
	if (v[K_METRIC_NAME] && json_object_get_string_len(v[K_METRIC_NAME]))
		e->metric_name = dup_val(ctx->arena, v[K_METRIC_NAME], oom);
	e->metric_group = dup_val(ctx->arena, v[K_METRIC_GROUP], oom);
	e->nogroup = dup_val(ctx->arena, v[K_METRICGROUP_NO_GROUP], oom);
	e->default_group = dup_val(ctx->arena, v[K_DEFAULT_METRICGROUP_NAME], oom);
	if (v[K_METRIC_CONSTRAINT] && json_object_get_string_len(v[K_METRIC_CONSTRAINT])) {
		const char *s = json_object_get_string(v[K_METRIC_CONSTRAINT]);
		for (size_t k = 0; k < sizeof(mc) / sizeof(mc[0]); k++)
			if (!strcmp(s, mc[k].name))
				e->grouping = mc[k].val;
		if (!e->grouping)
			return json_ctx__error(ctx, err, index, "MetricConstraint",
					       "\"MetricConstraint\": unknown value \"%s\" (known: "
					       "NO_GROUP_EVENTS, NO_GROUP_EVENTS_NMI, "
					       "NO_NMI_WATCHDOG, NO_GROUP_EVENTS_SMT)", s);
	}
	if (v[K_METRIC_EXPR]) {
		/* perf parses it and fails on an empty expression */
		if (!json_object_get_string_len(v[K_METRIC_EXPR]))
			return json_ctx__error(ctx, err, index, "MetricExpr",
					       "\"MetricExpr\" is empty");
		e->metric_expr = dup_val(ctx->arena, v[K_METRIC_EXPR], oom);
	}
	e->metric_threshold = dup_val(ctx->arena, v[K_METRIC_THRESHOLD], oom);
	return 0;
}

/* The descriptions after perf's fix-ups, with the Data_LA, Errata and PEBS notes. */
static void fill_descs(struct json_ctx *ctx, json_object *const *v, struct json_entry *e,
		       struct pk_buf *extra, bool *oom)
{
	if (v[K_DATA_LA]) {
		pk_buf__puts(extra, "  Supports address when precise");
		if (v[K_ERRATA])
			pk_buf__puts(extra, ".");
	}
	if (v[K_ERRATA]) {
		pk_buf__puts(extra, "  Spec update: ");
		pk_buf__puts(extra, json_object_get_string(v[K_ERRATA]));
	}
	const char *bd = NULL, *pd = NULL;
	size_t bdl = 0, pdl = 0;
	if (v[K_BRIEF_DESCRIPTION]) {
		bd = json_object_get_string(v[K_BRIEF_DESCRIPTION]);
		bdl = desc_len(bd, (size_t)json_object_get_string_len(v[K_BRIEF_DESCRIPTION]));
	}
	if (v[K_PUBLIC_DESCRIPTION]) {
		pd = json_object_get_string(v[K_PUBLIC_DESCRIPTION]);
		pdl = desc_len(pd, (size_t)json_object_get_string_len(v[K_PUBLIC_DESCRIPTION]));
	}
	if (v[K_PEBS] && bdl && !memmem(bd, bdl, "(Precise Event)", 15)) {
		struct val pv;
		get_val(v[K_PEBS], &pv);
		if (val_true(&pv))
			pk_buf__puts(extra, !pv.is_int && pv.len == 1 && pv.s[0] == '2'
						    ? " (Must be precise)"
						    : " (Precise event)");
	}
	if (extra->err)
		return;	/* the caller sees it */
	if (bdl)
		e->desc = join_desc(ctx, bd, bdl, (const char *)extra->data, extra->len, oom);
	if (pdl) /* interned: equal to desc, it is the same pointer */
		e->long_desc = join_desc(ctx, pd, pdl, (const char *)extra->data, extra->len, oom);
}

/* The encoding's rest: the optional terms, Filter and the MSR term. */
static int encode_terms(const struct json_ctx *ctx, json_object *const *v, unsigned index,
			const char *msr_term, struct pk_buf *enc, struct pk_error *err)
{
	int rc;
	for (size_t k = 0; k < sizeof(event_fields) / sizeof(event_fields[0]); k++) {
		int key = event_fields[k].key;
		if (v[key] && (rc = add_field(ctx, index, key, v[key], event_fields[k].term, enc,
					      err)))
			return rc;
	}
	if (v[K_FILTER]) {
		struct val fv;
		get_val(v[K_FILTER], &fv);
		if (val_true(&fv)) {
			pk_buf__putc(enc, ',');
			pk_buf__add(enc, fv.s, fv.len);
		}
	}
	if (msr_term) {
		pk_buf__putc(enc, ',');
		pk_buf__puts(enc, msr_term);
		if (v[K_MSR_VALUE]) {
			struct val mv;
			get_val(v[K_MSR_VALUE], &mv);
			pk_buf__add(enc, mv.s, mv.len);
		} else {
			/* jevents formats Python's None: keep its output byte for byte */
			pk_buf__puts(enc, "None");
		}
	}
	return 0;
}

/* The encoding built, replaced by the ArchStdEvent's (whose values fill the gaps) or perf's own. */
static int resolve_event(struct json_ctx *ctx, json_object *const *v, unsigned index,
			 struct json_entry *e, const struct pk_buf *enc, bool *oom,
			 struct pk_error *err)
{
	e->event = pk_arena__strndup(ctx->arena, (const char *)enc->data, enc->len);
	if (!e->event)
		*oom = true;
	if (v[K_ARCH_STD_EVENT]) {
		const char *s = json_object_get_string(v[K_ARCH_STD_EVENT]);
		size_t len = (size_t)json_object_get_string_len(v[K_ARCH_STD_EVENT]);
		const struct json_entry *std = ctx->std ? json_std__find(ctx->std, s, len) : NULL;
		if (!std)
			return json_ctx__error(ctx, err, index, "ArchStdEvent",
					       "unknown ArchStdEvent \"%s\" (not in the %s standard "
					       "event files)", s, ctx->arch ? ctx->arch : "arch's");
		e->event = std->event;
		inherit(e, std);
	}
	if (e->name && (e->name[0] == 'i' || e->name[0] == 'c')) {
		for (size_t k = 0; k < sizeof(fixed_events) / sizeof(fixed_events[0]); k++)
			if (!strcmp(e->name, fixed_events[k].name))
				e->event = fixed_events[k].event;
	}
	return 0;
}

/*
 * The rest of json_entry__parse, once the keys are checked. Errors come in
 * the order jevents meets them: the event code, MSRIndex, the flags, the
 * metric fields, the optional terms, ArchStdEvent.
 */
static int translate(struct json_ctx *ctx, json_object *const *v, unsigned index,
		     struct json_entry *e, struct pk_error *err)
{
	bool oom = false;
	const char *msr_term = NULL;
	char enc_mem[512], extra_mem[512];	/* on the heap only when too small */
	struct pk_buf enc, extra;
	pk_buf__init_spill(&enc, enc_mem, sizeof(enc_mem));
	pk_buf__init_spill(&extra, extra_mem, sizeof(extra_mem));

	int rc = encode_code(ctx, v, index, &enc, err);
	if (!rc) {
		fill_names(ctx, v, e, &oom);
		rc = find_msr_term(ctx, v, index, &msr_term, err);
	}
	if (!rc)
		rc = fill_flags(ctx, v, index, e, err);
	if (!rc)
		rc = fill_metric(ctx, v, index, e, &oom, err);
	if (!rc) {
		fill_descs(ctx, v, e, &extra, &oom);
		rc = encode_terms(ctx, v, index, msr_term, &enc, err);
	}
	if (!rc && (enc.err || extra.err))
		oom = true;
	else if (!rc)
		rc = resolve_event(ctx, v, index, e, &enc, &oom, err);
	pk_buf__free(&enc);
	pk_buf__free(&extra);
	if (!rc && oom)
		rc = pk_error__set(err, -ENOMEM, ctx->path, 0, 0, "out of memory");
	return rc;
}

void json_entry__to_event(const struct json_entry *e, const char *topic, const char *file,
			  struct ir_event *out)
{
	*out = (struct ir_event){
		.name = e->name,
		.pmu = e->pmu,
		.topic = topic,
		.encoding = e->event,
		.desc = e->desc,
		.long_desc = e->long_desc,
		.compat = e->compat,
		.unit = e->unit,
		.deprecated = e->deprecated == JSON_FLAG_ONE,
		.perpkg = e->perpkg == JSON_FLAG_ONE,
		.experimental = e->experimental,
		.file = file,
	};
}

void json_entry__to_metric(const struct json_entry *e, const char *file, struct ir_metric *out)
{
	*out = (struct ir_metric){
		.name = e->metric_name,
		.pmu = e->pmu,
		.expr = e->metric_expr,
		.threshold = e->metric_threshold,
		.groups = e->metric_group,
		.nogroup = e->nogroup,
		.default_group = e->default_group,
		.desc = e->desc,
		.long_desc = e->long_desc,
		.unit = e->unit,
		.compat = e->compat,
		.aggr_mode = e->aggr_mode,
		.grouping = e->grouping,
		.file = file,
	};
}
