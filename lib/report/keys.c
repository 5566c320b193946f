/* SPDX-License-Identifier: MIT */
/*
 * report/keys.c — perf report's columns and sort keys: their names (matched
 * by prefix in perf's order), the output and sort lists built from --sort,
 * -F and the defaults (perf's setup_sorting), -g's argument, and the three
 * comparisons perf makes of two entries by each key: when samples are added
 * (cmp), when entries are merged (collapse) and for the output order (sort).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/report_int.h"
#include "util/error.h"

static const struct {
	const char *name, *header;
} cols[RP_COL_NR] = {
	[RP_COL_OVERHEAD] = { "overhead", "Overhead" },
	[RP_COL_OVERHEAD_SYS] = { "overhead_sys", "sys" },
	[RP_COL_OVERHEAD_US] = { "overhead_us", "usr" },
	[RP_COL_OVERHEAD_GUEST_SYS] = { "overhead_guest_sys", "guest sys" },
	[RP_COL_OVERHEAD_GUEST_US] = { "overhead_guest_us", "guest usr" },
	[RP_COL_CHILDREN] = { "overhead_children", "Children" },
	[RP_COL_SAMPLES] = { "sample", "Samples" },
	[RP_COL_PERIOD] = { "period", "Period" },
	[RP_COL_TD_RETIRING] = { "td_retiring", "Retiring" },
	[RP_COL_TD_BAD_SPEC] = { "td_bad_spec", "Bad Spec" },
	[RP_COL_TD_FE_BOUND] = { "td_fe_bound", "FE Bound" },
	[RP_COL_TD_BE_BOUND] = { "td_be_bound", "BE Bound" },
	[RP_COL_TD_HEAVY_OPS] = { "td_heavy_ops", "Heavy Ops" },
	[RP_COL_TD_LIGHT_OPS] = { "td_light_ops", "Light Ops" },
	[RP_COL_TD_BR_MISPREDICT] = { "td_br_mispredict", "Br Mispredict" },
	[RP_COL_TD_MACHINE_CLEARS] = { "td_machine_clears", "Machine Clears" },
	[RP_COL_TD_FETCH_LAT] = { "td_fetch_lat", "Fetch Lat" },
	[RP_COL_TD_FETCH_BW] = { "td_fetch_bw", "Fetch BW" },
	[RP_COL_TD_MEM_BOUND] = { "td_mem_bound", "Mem Bound" },
	[RP_COL_TD_CORE_BOUND] = { "td_core_bound", "Core Bound" },
	[RP_KEY_PID] = { "pid", "    Pid:Command" },
	[RP_KEY_COMM] = { "comm", "Command" },
	[RP_KEY_DSO] = { "dso", "Shared Object" },
	[RP_KEY_SYM] = { "symbol", "Symbol" },
	[RP_KEY_CPU] = { "cpu", "CPU" },
	[RP_KEY_SRCLINE] = { "srcline", "Source:Line" },
	[RP_KEY_LOCAL_WEIGHT] = { "local_weight", "Local Weight" },
	[RP_KEY_WEIGHT] = { "weight", "Weight" },
	[RP_KEY_LOCAL_INS_LAT] = { "local_ins_lat", "Local INSTR Latency" },
	[RP_KEY_INS_LAT] = { "ins_lat", "INSTR Latency" },
	[RP_KEY_LOCAL_P_STAGE_CYC] = { "local_p_stage_cyc", "Local Pipeline Stage Cycle" },
	[RP_KEY_P_STAGE_CYC] = { "p_stage_cyc", "Pipeline Stage Cycle" },
	[RP_KEY_TID] = { "tid", "    Tid:Command" },
	[RP_KEY_TRACE] = { "trace", "Trace output" },
	[RP_KEY_SRCFILE] = { "srcfile", "Source File" },
	[RP_KEY_SYM_SIZE] = { "symbol_size", "Symbol size" },
	[RP_KEY_IPC_NULL] = { "ipc_null", "IPC   [IPC Coverage]" },
	[RP_KEY_PARENT] = { "parent", "Parent symbol" },
	[RP_KEY_TIME] = { "time", "Time" },
};

/*
 * perf 6.1's sort dimensions in its order (prefixes match the first), -1 for
 * the ones pmukit does not implement; then its hpp (value) dimensions.
 */
static const struct {
	const char *name;
	int col;
} sort_dims[] = {
	{ "pid", RP_KEY_PID }, { "comm", RP_KEY_COMM }, { "dso", RP_KEY_DSO },
	{ "symbol", RP_KEY_SYM }, { "parent", RP_KEY_PARENT }, { "cpu", RP_KEY_CPU },
	{ "socket", -1 }, { "srcline", RP_KEY_SRCLINE }, { "srcfile", RP_KEY_SRCFILE },
	{ "local_weight", RP_KEY_LOCAL_WEIGHT }, { "weight", RP_KEY_WEIGHT },
	{ "transaction", -1 }, { "trace", RP_KEY_TRACE }, { "symbol_size", RP_KEY_SYM_SIZE }, { "dso_size", -1 },
	{ "cgroup", -1 }, { "cgroup_id", -1 }, { "ipc_null", RP_KEY_IPC_NULL }, { "time", RP_KEY_TIME },
	{ "code_page_size", -1 }, { "local_ins_lat", RP_KEY_LOCAL_INS_LAT },
	{ "ins_lat", RP_KEY_INS_LAT }, { "local_p_stage_cyc", RP_KEY_LOCAL_P_STAGE_CYC },
	{ "p_stage_cyc", RP_KEY_P_STAGE_CYC }, { "addr", -1 },
	/* perf 6.12's names for the weight struct's third part */
	{ "local_retire_lat", RP_KEY_LOCAL_P_STAGE_CYC }, { "retire_lat", RP_KEY_P_STAGE_CYC },
	/* pmukit */
	{ "tid", RP_KEY_TID },
}, hpp_dims[] = {
	{ "overhead", RP_COL_OVERHEAD }, { "overhead_sys", RP_COL_OVERHEAD_SYS },
	{ "overhead_us", RP_COL_OVERHEAD_US }, { "overhead_guest_sys", RP_COL_OVERHEAD_GUEST_SYS },
	{ "overhead_guest_us", RP_COL_OVERHEAD_GUEST_US },
	{ "overhead_children", RP_COL_CHILDREN }, { "sample", RP_COL_SAMPLES },
	{ "period", RP_COL_PERIOD },
	/* pmukit: TopDown shares */
	{ "td_retiring", RP_COL_TD_RETIRING }, { "td_bad_spec", RP_COL_TD_BAD_SPEC },
	{ "td_fe_bound", RP_COL_TD_FE_BOUND }, { "td_be_bound", RP_COL_TD_BE_BOUND },
	{ "td_heavy_ops", RP_COL_TD_HEAVY_OPS }, { "td_light_ops", RP_COL_TD_LIGHT_OPS },
	{ "td_br_mispredict", RP_COL_TD_BR_MISPREDICT },
	{ "td_machine_clears", RP_COL_TD_MACHINE_CLEARS },
	{ "td_fetch_lat", RP_COL_TD_FETCH_LAT }, { "td_fetch_bw", RP_COL_TD_FETCH_BW },
	{ "td_mem_bound", RP_COL_TD_MEM_BOUND }, { "td_core_bound", RP_COL_TD_CORE_BOUND },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int match(const char *tok, size_t len, const char *name)
{
	return len <= strlen(name) && !strncasecmp(tok, name, len);
}

/* -2: a perf key pmukit does not implement; -1: unknown */
static int lookup_in(const char *tok, size_t len, bool hpp_first)
{
	for (int pass = 0; pass < 2; pass++) {
		bool hpp = (pass == 0) == hpp_first;
		if (hpp) {
			for (size_t i = 0; i < ARRAY_SIZE(hpp_dims); i++)
				if (match(tok, len, hpp_dims[i].name))
					return hpp_dims[i].col;
		} else {
			for (size_t i = 0; i < ARRAY_SIZE(sort_dims); i++)
				if (match(tok, len, sort_dims[i].name))
					return sort_dims[i].col < 0 ? -2 : sort_dims[i].col;
		}
	}
	return -1;
}

int rp_col__lookup(const char *name, size_t len, bool value_cols)
{
	return lookup_in(name, len, value_cols);
}

const char *rp_col__name(int c)
{
	return cols[c].name;
}

const char *rp_col__header(int c)
{
	return cols[c].header;
}

/* ---- -g ------------------------------------------------------------------------------ */

static bool prefix_of(const char *tok, const char *word)
{
	return !strncmp(tok, word, strlen(tok));
}

int rp_parse_callchain(struct rp_callchain_param *p, const char *arg, struct pk_error *err)
{
	*p = (struct rp_callchain_param){
		.mode = RP_CG_GRAPH_ABS, .min_percent = 0.5, .enabled = true,
	};
	if (!arg)
		return 0;
	bool min_set = false;
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	int rc = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (prefix_of(tok, "none")) {
			p->mode = RP_CG_NONE;
			p->enabled = false;
			break;
		}
		if (prefix_of(tok, "graph"))
			p->mode = RP_CG_GRAPH_ABS;
		else if (prefix_of(tok, "flat"))
			p->mode = RP_CG_FLAT;
		else if (prefix_of(tok, "fractal"))
			p->mode = RP_CG_GRAPH_REL;
		else if (prefix_of(tok, "folded"))
			p->mode = RP_CG_FOLDED;
		else if (prefix_of(tok, "caller"))
			p->caller = p->order_set = true;
		else if (prefix_of(tok, "callee"))
			p->caller = false, p->order_set = true;
		else if (prefix_of(tok, "function"))
			p->key = RP_CCKEY_FUNCTION;
		else if (prefix_of(tok, "address"))
			p->key = RP_CCKEY_ADDRESS;
		else if (prefix_of(tok, "srcline"))
			p->key = RP_CCKEY_SRCLINE;
		else if (prefix_of(tok, "branch")) {
			rc = pk_error__set(err, -EINVAL, "", 0, 0,
					   "call graph 'branch' (LBR call stacks) is not supported");
			break;
		} else if (prefix_of(tok, "percent"))
			p->value = RP_CCVAL_PERCENT;
		else if (prefix_of(tok, "period"))
			p->value = RP_CCVAL_PERIOD;
		else if (prefix_of(tok, "count"))
			p->value = RP_CCVAL_COUNT;
		else {
			char *end;
			if (!min_set) {
				p->min_percent = strtod(tok, &end);
				min_set = p->min_set = true;
			} else {
				p->print_limit = (uint32_t)strtoul(tok, &end, 0);
			}
			if (end == tok) {
				rc = pk_error__set(err, -EINVAL, "", 0, 0,
						   "Invalid callchain mode: %s", tok);
				break;
			}
		}
	}
	free(copy);
	return rc;
}

/* ---- output and sort lists --------------------------------------------------------- */

static bool in_list(const int *l, int n, int c)
{
	for (int i = 0; i < n; i++)
		if (l[i] == c)
			return true;
	return false;
}

static int add_to(int *l, int *n, int c)
{
	/* the same key twice is taken once (perf's dimension->taken) */
	if (in_list(l, *n, c))
		return 0;
	if (*n >= 32)
		return -E2BIG;
	l[(*n)++] = c;
	return 0;
}

static int parse_list(struct pk_report *r, const char *str, bool fields, struct pk_error *err)
{
	const char *p = str;
	while (*p) {
		while (*p == ',' || *p == ' ')
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, ", ");
		int c = lookup_in(p, len, fields);
		if (c == -1 || c == -2)
			return pk_error__set(err, -EINVAL, "", 0, 0,
					     c == -1 ? "Unknown --%s key: `%.*s'"
						     : "The --%s key `%.*s' is not supported by pmukit",
					     fields ? "fields" : "sort", (int)len, p);
		int rc = fields ? add_to(r->fields, &r->nr_fields, c) : add_to(r->sorts, &r->nr_sorts, c);
		if (rc)
			return pk_error__set(err, rc, "", 0, 0, "too many --%s keys",
					     fields ? "fields" : "sort");
		p += len;
	}
	return 0;
}

int rp_setup_columns(struct pk_report *r, struct pk_error *err)
{
	const char *sort = r->opts.sort, *fields = r->opts.fields;
	r->field_order = fields && *fields != '+';
	bool children = r->children;
	/* sort keys: the default, "+keys" appended to it, or the given ones */
	char buf[512];
	if (!sort || *sort == '+') {
		if (sort && !sort[1])
			return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid --sort key: `+'");
		if (!sort && r->field_order) {
			buf[0] = 0;	/* -F alone: no default sort keys */
		} else {
			snprintf(buf, sizeof(buf), "%s%s%s",
				 r->all_tracepoints && r->opts.trace_output ? "trace" : "comm,dso,symbol",
				 sort ? "," : "", sort ? sort + 1 : "");
		}
		sort = buf;
	}
	r->sort_starts_with_sym = !fields && r->opts.sort && !strncmp(r->opts.sort, "sym", 3);
	r->nr_sorts = r->nr_fields = 0;
	/* perf prepends the overhead columns to the sort keys unless -F is strict */
	if (*sort && !r->field_order) {
		if (children && !strstr(sort, "overhead_children"))
			add_to(r->sorts, &r->nr_sorts, RP_COL_CHILDREN);
		if (!strstr(sort, "overhead"))
			add_to(r->sorts, &r->nr_sorts, RP_COL_OVERHEAD);
	}
	int rc = parse_list(r, sort, false, err);
	if (rc)
		return rc;
	/* perf's hists__has(hists, sym): a sort key, not an output field of -F */
	r->sym_sorted = false;
	for (int i = 0; i < r->nr_sorts; i++)
		r->sym_sorted |= r->sorts[i] == RP_KEY_SYM;
	/* perf's setup_sorting: -p adds the parent key */
	if (r->opts.parent && add_to(r->sorts, &r->nr_sorts, RP_KEY_PARENT))
		return pk_error__set(err, -E2BIG, "", 0, 0, "too many --sort keys");
	/* output fields: perf_hpp__init's defaults, then -F, then the sort keys */
	if (!r->field_order) {
		if (children)
			add_to(r->fields, &r->nr_fields, RP_COL_CHILDREN);
		add_to(r->fields, &r->nr_fields, RP_COL_OVERHEAD);
		if (r->opts.show_cpu_utilization) {
			add_to(r->fields, &r->nr_fields, RP_COL_OVERHEAD_SYS);
			add_to(r->fields, &r->nr_fields, RP_COL_OVERHEAD_US);
		}
		if (r->opts.show_nr_samples)
			add_to(r->fields, &r->nr_fields, RP_COL_SAMPLES);
		if (r->opts.show_total_period)
			add_to(r->fields, &r->nr_fields, RP_COL_PERIOD);
	}
	if (fields) {
		const char *f = *fields == '+' ? fields + 1 : fields;
		if (!*f)
			return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid --fields key: `+'");
		rc = parse_list(r, f, true, err);
		if (rc)
			return rc;
	}
	for (int i = 0; i < r->nr_sorts; i++)
		if (add_to(r->fields, &r->nr_fields, r->sorts[i]))
			return pk_error__set(err, -E2BIG, "", 0, 0, "too many columns");
	for (int i = 0; i < r->nr_fields; i++)
		if (!rp_col__is_topdown(r->fields[i]) && add_to(r->sorts, &r->nr_sorts, r->fields[i]))
			return pk_error__set(err, -E2BIG, "", 0, 0, "too many sort keys");
	r->overhead_self = children && !r->field_order;
	memset(r->has_key, 0, sizeof(r->has_key));
	for (int i = 0; i < r->nr_sorts; i++)
		r->has_key[r->sorts[i]] = true;
	for (int i = 0; i < r->nr_fields; i++)
		if (rp_col__is_key(r->fields[i]))
			r->has_key[r->fields[i]] = true;
	r->ctx_comm = r->has_key[RP_KEY_COMM];
	r->ctx_thread = r->has_key[RP_KEY_PID] || r->has_key[RP_KEY_TID];
	r->ctx_cpu = r->has_key[RP_KEY_CPU];
	r->ctx_trace = r->has_key[RP_KEY_TRACE];
	if (r->ctx_trace && !r->opts.trace_output)
		return pk_error__set(err, -EINVAL, "", 0, 0,
				     "The --sort key `trace' needs the tracepoints' formats");
	r->ctx_weight[0] = r->has_key[RP_KEY_LOCAL_WEIGHT] || r->has_key[RP_KEY_WEIGHT];
	r->ctx_weight[1] = r->has_key[RP_KEY_LOCAL_INS_LAT] || r->has_key[RP_KEY_INS_LAT];
	r->ctx_weight[2] = r->has_key[RP_KEY_LOCAL_P_STAGE_CYC] || r->has_key[RP_KEY_P_STAGE_CYC];
	r->lc_dso = r->has_key[RP_KEY_DSO];
	r->lc_sym = r->has_key[RP_KEY_SYM] || r->has_key[RP_KEY_IPC_NULL] ||
		    r->has_key[RP_KEY_SYM_SIZE];
	r->lc_addr = r->has_key[RP_KEY_SRCLINE] || r->has_key[RP_KEY_SRCFILE];
	return 0;
}

/* ---- comparisons (perf's sort.c, argument order kept) ---------------------------------- */

static const struct rp_lclass *lcl(const struct pk_report *r, const struct rp_entry *e)
{
	return rp_lclass(r, e->lclass);
}

static int64_t cmp_null(const void *l, const void *rr)
{
	if (!l && !rr)
		return 0;
	return !l ? -1 : 1;
}

static int64_t scmp(const char *a, const char *b)
{
	int c = strcmp(a, b);
	return c < 0 ? -1 : c > 0;
}

/* perf's _sort__dso_cmp compares the long names with -v */
static const char *dso_name(const struct pk_report *r, struct pk_dso *d)
{
	return r->opts.verbose > 0 ? pk_dso__name(d) : pk_dso__short_name(d);
}

/* perf's sort__dso_cmp(left, right) */
static int64_t dso_cmp(const struct pk_report *r, const struct rp_entry *a, const struct rp_entry *b)
{
	struct pk_dso *dl = lcl(r, b)->dso, *dr = lcl(r, a)->dso;	/* _sort__dso_cmp(right, left) */
	if (!dl || !dr)
		return cmp_null(dr, dl);
	return scmp(dso_name(r, dl), dso_name(r, dr));
}

static int64_t sym_cmp2(const struct pk_sym *l, const struct pk_sym *rr)
{
	if (!l || !rr)
		return cmp_null(l, rr);
	if (l == rr)
		return 0;
	if (l->inlined || rr->inlined) {
		/* perf: inlined functions by name, equal where their ranges meet */
		int ret = strcmp(l->name, rr->name);
		if (ret)
			return ret;
		if (l->start <= rr->end && l->end >= rr->start)
			return 0;
	}
	if (l->start != rr->start)
		return (int64_t)(rr->start - l->start);
	return (int64_t)(rr->end - l->end);
}

static int64_t sym_cmp(const struct pk_report *r, const struct rp_entry *a, const struct rp_entry *b)
{
	const struct rp_lclass *la = lcl(r, a), *lb = lcl(r, b);
	if (!la->sym && !lb->sym)
		return (int64_t)(lb->addr - la->addr);
	if (!r->has_key[RP_KEY_DSO]) {
		int64_t ret = dso_cmp(r, a, b);
		if (ret)
			return ret;
	}
	return sym_cmp2(la->sym, lb->sym);
}

static int64_t tid_of(const struct rp_entry *e)
{
	return e->thread ? e->thread->tid : -1;
}

static int64_t u64_diff(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

int64_t rp_key_cmp(const struct pk_report *r, int key, const struct rp_entry *a,
		   const struct rp_entry *b)
{
	switch (key) {
	case RP_KEY_PID:
	case RP_KEY_TID:
		return tid_of(b) - tid_of(a);
	case RP_KEY_COMM:
		return scmp(b->comm, a->comm);
	case RP_KEY_TRACE: {
		const char *ta = rp_ctx_trace(r, rp_ctx(r, a->ctx)), *tb = rp_ctx_trace(r, rp_ctx(r, b->ctx));
		if (!ta || !tb)
			return 0;	/* not a tracepoint */
		return scmp(tb, ta);
	}
	case RP_KEY_DSO:
		return dso_cmp(r, a, b);
	case RP_KEY_SYM:
	case RP_KEY_IPC_NULL:
		return sym_cmp(r, a, b);
	case RP_KEY_SYM_SIZE: {
		/* perf's sort__sym_size_cmp(left, right): right's size against left's */
		const struct pk_sym *sl = lcl(r, b)->sym, *sr = lcl(r, a)->sym;
		uint64_t zl = sl ? sl->end - sl->start : 0, zr = sr ? sr->end - sr->start : 0;
		return zl < zr ? -1 : zl > zr;
	}
	case RP_KEY_CPU:
		return (int64_t)b->cpu - a->cpu;
	case RP_KEY_TIME:
		return u64_diff(rp_ctx(r, b->ctx)->time, rp_ctx(r, a->ctx)->time);
	case RP_KEY_PARENT: {
		const struct pk_sym *pl = rp_ctx(r, a->ctx)->parent, *pr = rp_ctx(r, b->ctx)->parent;
		if (!pl || !pr)
			return cmp_null(pl, pr);
		return scmp(pr->name, pl->name);
	}
	case RP_KEY_SRCLINE:
	case RP_KEY_SRCFILE: {
		int64_t ret = u64_diff(lcl(r, b)->addr, lcl(r, a)->addr);
		return ret ? ret : dso_cmp(r, a, b);
	}
	case RP_KEY_LOCAL_WEIGHT:
	case RP_KEY_WEIGHT:
		return u64_diff(a->weight[0], b->weight[0]);
	case RP_KEY_LOCAL_INS_LAT:
	case RP_KEY_INS_LAT:
		return u64_diff(a->weight[1], b->weight[1]);
	case RP_KEY_LOCAL_P_STAGE_CYC:
	case RP_KEY_P_STAGE_CYC:
		return u64_diff(a->weight[2], b->weight[2]);
	default:
		return 0;	/* value columns: perf's hpp__nop_cmp */
	}
}

int64_t rp_key_collapse(const struct pk_report *r, int key, const struct rp_entry *a,
			const struct rp_entry *b)
{
	if (key == RP_KEY_SRCLINE)
		return scmp(lcl(r, b)->srcline, lcl(r, a)->srcline);
	if (key == RP_KEY_SRCFILE)
		return scmp(lcl(r, b)->srcfile, lcl(r, a)->srcfile);
	return rp_key_cmp(r, key, a, b);
}

static int64_t field_cmp(uint64_t a, uint64_t b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

static uint64_t value_of(int col, const struct rp_entry *e)
{
	switch (col) {
	case RP_COL_OVERHEAD:
		return e->stat.period;
	case RP_COL_OVERHEAD_SYS:
		return e->stat.period_sys;
	case RP_COL_OVERHEAD_US:
		return e->stat.period_us;
	case RP_COL_OVERHEAD_GUEST_SYS:
		return e->stat.period_guest_sys;
	case RP_COL_OVERHEAD_GUEST_US:
		return e->stat.period_guest_us;
	case RP_COL_SAMPLES:
		return e->stat.nr_events;
	case RP_COL_PERIOD:
		return e->stat.period;
	default:
		return 0;
	}
}

/* perf's __hpp__sort: the leader's value, then (group view) each member's */
static int64_t hpp_sort(const struct pk_report *r, int col, const struct rp_entry *a,
			const struct rp_entry *b)
{
	int64_t ret = field_cmp(value_of(col, a), value_of(col, b));
	if (ret || !r->group || !a->pairs || !b->pairs)
		return ret;
	int h = rp_ctx(r, a->ctx)->hists;
	for (int i = 1; i < r->hists[h].nr_members; i++) {
		uint64_t va = a->pairs[i] != UINT32_MAX ? value_of(col, rp_entry(r, a->pairs[i])) : 0;
		uint64_t vb = b->pairs[i] != UINT32_MAX ? value_of(col, rp_entry(r, b->pairs[i])) : 0;
		ret = field_cmp(va, vb);
		if (ret)
			break;
	}
	return ret;
}

int64_t rp_col_sort(const struct pk_report *r, int col, const struct rp_entry *a,
		    const struct rp_entry *b)
{
	switch (col) {
	case RP_COL_OVERHEAD:
	case RP_COL_OVERHEAD_SYS:
	case RP_COL_OVERHEAD_US:
	case RP_COL_OVERHEAD_GUEST_SYS:
	case RP_COL_OVERHEAD_GUEST_US:
	case RP_COL_SAMPLES:
	case RP_COL_PERIOD:
		return hpp_sort(r, col, a, b);
	case RP_COL_CHILDREN: {
		/* perf's __hpp__sort_acc: callers above callees at equal periods */
		if (!r->children)
			return 0;
		int64_t ret = field_cmp(a->acc.period, b->acc.period);
		if (ret)
			return ret;
		int h = rp_ctx(r, a->ctx)->hists;
		if (a->thread != b->thread || !r->hists[h].has_callchain || !r->cg.enabled)
			return 0;
		ret = (int64_t)b->max_depth - a->max_depth;
		return r->cg.caller ? -ret : ret;
	}
	case RP_KEY_COMM:
		return scmp(b->comm, a->comm);
	case RP_KEY_SYM: {
		const struct pk_sym *sa = lcl(r, a)->sym, *sb = lcl(r, b)->sym;
		if (!sa || !sb)
			return cmp_null(sa, sb);
		return scmp(sb->name, sa->name);
	}
	case RP_KEY_SRCLINE:
	case RP_KEY_SRCFILE:
		return rp_key_collapse(r, col, a, b);
	default:
		if (rp_col__is_key(col))
			return rp_key_cmp(r, col, a, b);
		return 0;
	}
}
