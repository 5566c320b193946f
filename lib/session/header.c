/* SPDX-License-Identifier: MIT */
/*
 * session/header.c — the header perf 6.1's `perf script --header` and
 * `perf report --header` print: when the file was captured, its layout,
 * then each feature section that is present in bit order (hostname, ...,
 * cmdline, one line per event with its attr's non-zero fields, pmu
 * mappings, sample times), "info available, use -I" for the topology kind,
 * and the features that are missing.
 */
#include "session/session_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <linux/perf_event.h>

#include "util/error.h"

/* perf 6.1's feature names, by bit; NULL past the last it knows */
static const char *const feat_names[] = {
	[PK_FEAT_TRACING_DATA] = "TRACING_DATA", [PK_FEAT_BUILD_ID] = "BUILD_ID",
	[PK_FEAT_HOSTNAME] = "HOSTNAME", [PK_FEAT_OSRELEASE] = "OSRELEASE",
	[PK_FEAT_VERSION] = "VERSION", [PK_FEAT_ARCH] = "ARCH", [PK_FEAT_NRCPUS] = "NRCPUS",
	[PK_FEAT_CPUDESC] = "CPUDESC", [PK_FEAT_CPUID] = "CPUID", [PK_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PK_FEAT_CMDLINE] = "CMDLINE", [PK_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PK_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [PK_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PK_FEAT_BRANCH_STACK] = "BRANCH_STACK", [PK_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PK_FEAT_GROUP_DESC] = "GROUP_DESC", [PK_FEAT_AUXTRACE] = "AUXTRACE", [PK_FEAT_STAT] = "STAT",
	[PK_FEAT_CACHE] = "CACHE", [PK_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PK_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [PK_FEAT_CLOCKID] = "CLOCKID",
	[PK_FEAT_DIR_FORMAT] = "DIR_FORMAT", [PK_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PK_FEAT_BPF_BTF] = "BPF_BTF", [PK_FEAT_COMPRESSED] = "COMPRESSED",
	[PK_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS", [PK_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PK_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY", [PK_FEAT_PMU_CAPS] = "PMU_CAPS",
};
#define NR_FEAT_NAMES (sizeof(feat_names) / sizeof(feat_names[0]))

struct bit_name {
	uint64_t bit;
	const char *name;
};

#define B(p, n) { p##n, #n }
static const struct bit_name sample_bits[] = {
	B(PERF_SAMPLE_, IP), B(PERF_SAMPLE_, TID), B(PERF_SAMPLE_, TIME), B(PERF_SAMPLE_, ADDR),
	B(PERF_SAMPLE_, READ), B(PERF_SAMPLE_, CALLCHAIN), B(PERF_SAMPLE_, ID), B(PERF_SAMPLE_, CPU),
	B(PERF_SAMPLE_, PERIOD), B(PERF_SAMPLE_, STREAM_ID), B(PERF_SAMPLE_, RAW),
	B(PERF_SAMPLE_, BRANCH_STACK), B(PERF_SAMPLE_, REGS_USER), B(PERF_SAMPLE_, STACK_USER),
	B(PERF_SAMPLE_, IDENTIFIER), B(PERF_SAMPLE_, REGS_INTR), B(PERF_SAMPLE_, DATA_SRC),
	B(PERF_SAMPLE_, WEIGHT), B(PERF_SAMPLE_, PHYS_ADDR), B(PERF_SAMPLE_, AUX),
	B(PERF_SAMPLE_, CGROUP), B(PERF_SAMPLE_, DATA_PAGE_SIZE), B(PERF_SAMPLE_, CODE_PAGE_SIZE),
	B(PERF_SAMPLE_, WEIGHT_STRUCT), { 0, NULL },
};
static const struct bit_name branch_bits[] = {
	B(PERF_SAMPLE_BRANCH_, USER), B(PERF_SAMPLE_BRANCH_, KERNEL), B(PERF_SAMPLE_BRANCH_, HV),
	B(PERF_SAMPLE_BRANCH_, ANY), B(PERF_SAMPLE_BRANCH_, ANY_CALL),
	B(PERF_SAMPLE_BRANCH_, ANY_RETURN), B(PERF_SAMPLE_BRANCH_, IND_CALL),
	B(PERF_SAMPLE_BRANCH_, ABORT_TX), B(PERF_SAMPLE_BRANCH_, IN_TX), B(PERF_SAMPLE_BRANCH_, NO_TX),
	B(PERF_SAMPLE_BRANCH_, COND), B(PERF_SAMPLE_BRANCH_, CALL_STACK),
	B(PERF_SAMPLE_BRANCH_, IND_JUMP), B(PERF_SAMPLE_BRANCH_, CALL),
	B(PERF_SAMPLE_BRANCH_, NO_FLAGS), B(PERF_SAMPLE_BRANCH_, NO_CYCLES),
	B(PERF_SAMPLE_BRANCH_, TYPE_SAVE), B(PERF_SAMPLE_BRANCH_, HW_INDEX),
	B(PERF_SAMPLE_BRANCH_, PRIV_SAVE), { 0, NULL },
};
static const struct bit_name read_bits[] = {
	B(PERF_FORMAT_, TOTAL_TIME_ENABLED), B(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	B(PERF_FORMAT_, ID), B(PERF_FORMAT_, GROUP), B(PERF_FORMAT_, LOST), { 0, NULL },
};
#undef B

/*
 * Where the attr's fields go: the header's ", name = value" or perf
 * evlist -v's ": name: value" then ", name: value" (perf's comma_fprintf).
 */
struct attr_out {
	FILE *f;
	bool evlist, first;
};

static void field(struct attr_out *o, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void field(struct attr_out *o, const char *name, const char *fmt, ...)
{
	va_list ap;
	if (o->evlist)
		fprintf(o->f, "%s %s: ", o->first ? ":" : ",", name);
	else
		fprintf(o->f, ", %s = ", name);
	o->first = false;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

static void bits(struct attr_out *o, const char *name, uint64_t v, const struct bit_name *b)
{
	if (!v)
		return;
	field(o, name, "%s", "");
	bool first = true;
	for (; b->name; b++) {
		if (v & b->bit) {
			fprintf(o->f, "%s%s", first ? "" : "|", b->name);
			first = false;
		}
	}
}

static void u(struct attr_out *o, const char *name, uint64_t v)
{
	if (v)
		field(o, name, "%" PRIu64, v);
}

static void x(struct attr_out *o, const char *name, uint64_t v)
{
	if (v)
		field(o, name, "%#" PRIx64, v);
}

/* perf 6.1's perf_event_attr__fprintf: the non-zero fields in its order */
static void print_attr(struct attr_out *f, const struct perf_event_attr *a)
{
	u(f, "type", a->type);
	u(f, "size", a->size);
	x(f, "config", a->config);
	u(f, "{ sample_period, sample_freq }", a->sample_period);
	bits(f, "sample_type", a->sample_type, sample_bits);
	bits(f, "read_format", a->read_format, read_bits);
#define F(n) u(f, #n, a->n)
	F(disabled); F(inherit); F(pinned); F(exclusive); F(exclude_user); F(exclude_kernel);
	F(exclude_hv); F(exclude_idle); F(mmap); F(comm); F(freq); F(inherit_stat);
	F(enable_on_exec); F(task); F(watermark); F(precise_ip); F(mmap_data); F(sample_id_all);
	F(exclude_host); F(exclude_guest); F(exclude_callchain_kernel);
	F(exclude_callchain_user); F(mmap2); F(comm_exec); F(use_clockid); F(context_switch);
	F(write_backward); F(namespaces); F(ksymbol); F(bpf_event); F(aux_output); F(cgroup);
	F(text_poke); F(build_id); F(inherit_thread); F(remove_on_exec); F(sigtrap);
#undef F
	u(f, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	u(f, "bp_type", a->bp_type);
	x(f, "{ bp_addr, config1 }", a->bp_addr);
	x(f, "{ bp_len, config2 }", a->bp_len);
	bits(f, "branch_sample_type", a->branch_sample_type, branch_bits);
	x(f, "sample_regs_user", a->sample_regs_user);
	u(f, "sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		field(f, "clockid", "%" PRId64, (int64_t)a->clockid);
	x(f, "sample_regs_intr", a->sample_regs_intr);
	u(f, "aux_watermark", a->aux_watermark);
	u(f, "sample_max_stack", a->sample_max_stack);
	u(f, "aux_sample_size", a->aux_sample_size);
}

int pk_session__fprintf_attr(struct pk_session *s, FILE *f, int attr, unsigned flags)
{
	const struct pk_data_attr *a = attr >= 0 ? pk_data_reader__attr(s->r, (size_t)attr) : NULL;
	if (!a)
		return -EINVAL;
	struct attr_out o = { f, !!(flags & PK_ATTR_PRINT_EVLIST), true };
	print_attr(&o, &a->attr);
	return 0;
}

static void print_time(FILE *f, const char *what, uint64_t t)
{
	fprintf(f, "# %s : %" PRIu64 ".%06" PRIu64 "\n", what, t / 1000000000u,
		(t % 1000000000u) / 1000u);
}

/* the value of a perf string in a feature section: u32 length, bytes */
static const char *feat_str(const uint8_t **p, const uint8_t *end, bool swap)
{
	if (end - *p < 4)
		return NULL;
	uint32_t n;
	memcpy(&n, *p, 4);
	if (swap)
		n = __builtin_bswap32(n);
	if ((size_t)(end - *p - 4) < n)
		return NULL;
	const char *str = (const char *)*p + 4;
	*p += 4 + n;
	return n && str[n - 1] == 0 ? str : NULL;
}

/* perf 6.1's print_cpu_pmu_caps: "name=value" pairs, from the section itself */
static void print_cpu_pmu_caps(struct pk_session *s, FILE *f)
{
	bool swap = pk_data_reader__needs_swap(s->r);
	size_t size;
	const uint8_t *p = pk_data_reader__feat_data(s->r, PK_FEAT_CPU_PMU_CAPS, &size);
	const uint8_t *end = p ? p + size : p;
	uint32_t nr = 0;
	if (p && size >= 4) {
		memcpy(&nr, p, 4);
		if (swap)
			nr = __builtin_bswap32(nr);
		p += 4;
	}
	if (!nr) {
		fputs("# cpu pmu capabilities: not available\n", f);
		return;
	}
	fputs("# cpu pmu capabilities: ", f);
	for (uint32_t i = 0; i < nr; i++) {
		const char *name = feat_str(&p, end, swap);
		const char *val = name ? feat_str(&p, end, swap) : NULL;
		if (!val)
			break;
		fprintf(f, "%s%s=%s", i ? ", " : "", name, val);
	}
	fputc('\n', f);
}

static void print_cmdline(const struct pk_data_env *e, FILE *f)
{
	fprintf(f, "# cmdline : ");
	for (uint32_t i = 0; i < e->nr_cmdline; i++) {
		/* perf writes a quote as \' */
		for (const char *c = e->cmdline[i]; *c; c++)
			fputs(*c == '\'' ? "\\'" : (char[2]){ *c, 0 }, f);
		fputc(' ', f);
	}
	fputc('\n', f);
}

static void print_event_desc(struct pk_session *s, FILE *f)
{
	for (size_t i = 0; i < pk_data_reader__nr_attrs(s->r); i++) {
		const struct pk_data_attr *a = pk_data_reader__attr(s->r, i);
		fprintf(f, "# event : name = %s, ", a->name ? a->name : "");
		if (a->nr_ids) {
			fprintf(f, ", id = {");
			for (size_t j = 0; j < a->nr_ids; j++)
				fprintf(f, "%s %" PRIu64, j ? "," : "", a->ids[j]);
			fprintf(f, " }");
		}
		struct attr_out o = { f, false, false };
		print_attr(&o, &a->attr);
		fputc('\n', f);
	}
}

static void print_pmu_mappings(const struct pk_data_env *e, FILE *f)
{
	if (!e->nr_pmu_mappings) {
		fprintf(f, "# pmu mappings: not available\n");
		return;
	}
	for (uint32_t i = 0; i < e->nr_pmu_mappings; i++)
		fprintf(f, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
			e->pmu_mappings[i].name, e->pmu_mappings[i].type);
	fputc('\n', f);
}

static void print_group_desc(struct pk_session *s, const struct pk_data_env *e, FILE *f)
{
	for (uint32_t i = 0; i < e->nr_groups; i++) {
		const struct pk_data_group_desc *g = &e->groups[i];
		if (g->nr_members < 2)
			continue;
		/* perf writes an unnamed group as "{anon_group}" and reads it back as none */
		const char *gname = g->name && strcmp(g->name, "{anon_group}") &&
				    strcmp(g->name, "anon") ? g->name : "";
		fprintf(f, "# group: %s{", gname);
		for (uint32_t m = 0; m < g->nr_members; m++)
			fprintf(f, "%s%s", m ? "," : "",
				pk_session__event_name(s, (int)(g->leader_idx + m)));
		fprintf(f, "}\n");
	}
}

static void print_sample_time(struct pk_session *s, const struct pk_data_env *e, FILE *f)
{
	/* perf prints its evlist's times: in a pipe, none seen yet when the feature comes */
	bool pipe = pk_data_reader__is_pipe(s->r);
	uint64_t first = pipe ? 0 : e->first_sample_time, last = pipe ? 0 : e->last_sample_time;
	print_time(f, "time of first sample", first);
	print_time(f, "time of last sample", last);
	fprintf(f, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
}

static void print_feat(struct pk_session *s, FILE *f, unsigned feat)
{
	const struct pk_data_env *e = pk_data_reader__env(s->r);
	switch (feat) {
	case PK_FEAT_HOSTNAME:
		fprintf(f, "# hostname : %s\n", e->hostname ? e->hostname : "");
		break;
	case PK_FEAT_OSRELEASE:
		fprintf(f, "# os release : %s\n", e->osrelease ? e->osrelease : "");
		break;
	case PK_FEAT_VERSION:
		fprintf(f, "# perf version : %s\n", e->version ? e->version : "");
		break;
	case PK_FEAT_ARCH:
		fprintf(f, "# arch : %s\n", e->arch ? e->arch : "");
		break;
	case PK_FEAT_NRCPUS:
		fprintf(f, "# nrcpus online : %u\n# nrcpus avail : %u\n", e->nr_cpus_online,
			e->nr_cpus_avail);
		break;
	case PK_FEAT_CPUDESC:
		fprintf(f, "# cpudesc : %s\n", e->cpudesc ? e->cpudesc : "");
		break;
	case PK_FEAT_CPUID:
		fprintf(f, "# cpuid : %s\n", e->cpuid ? e->cpuid : "");
		break;
	case PK_FEAT_TOTAL_MEM:
		fprintf(f, "# total memory : %" PRIu64 " kB\n", e->total_mem);
		break;
	case PK_FEAT_CMDLINE:
		print_cmdline(e, f);
		break;
	case PK_FEAT_EVENT_DESC:
		print_event_desc(s, f);
		break;
	case PK_FEAT_CPU_TOPOLOGY:
	case PK_FEAT_NUMA_TOPOLOGY:
	case PK_FEAT_CACHE:
	case PK_FEAT_MEM_TOPOLOGY:
	case PK_FEAT_HYBRID_TOPOLOGY:
		fprintf(f, "# %s info available, use -I to display\n", feat_names[feat]);
		break;
	case PK_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(e, f);
		break;
	case PK_FEAT_GROUP_DESC:
		print_group_desc(s, e, f);
		break;
	case PK_FEAT_BRANCH_STACK:
		fprintf(f, "# contains samples with branch stack\n");
		break;
	case PK_FEAT_CPU_PMU_CAPS:
		print_cpu_pmu_caps(s, f);
		break;
	case PK_FEAT_AUXTRACE:
		fprintf(f, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PK_FEAT_STAT:
		fprintf(f, "# contains stat data\n");
		break;
	case PK_FEAT_SAMPLE_TIME:
		print_sample_time(s, e, f);
		break;
	case PK_FEAT_CLOCKID:
		fprintf(f, "# clockid frequency: %" PRIu64 " MHz\n", e->clockid_res_ns * 1000);
		break;
	case PK_FEAT_COMPRESSED:
		fprintf(f, "# compressed : %s, level = %u, ratio = %u\n",
			e->comp_type == 1 ? "Zstd" : "Unknown", e->comp_level, e->comp_ratio);
		break;
	default:
		/* TRACING_DATA, BUILD_ID, DIR_FORMAT, BPF_*, CLOCK_DATA: nothing without -I */
		break;
	}
}

int pk_session__fprintf_feature(struct pk_session *s, FILE *f, unsigned feat)
{
	if (feat == 0 || feat >= NR_FEAT_NAMES)
		return -EINVAL;
	print_feat(s, f, feat);
	return 0;
}

int pk_session__fprintf_header(struct pk_session *s, FILE *f, struct pk_error *err)
{
	struct pk_data_reader *r = s->r;
	bool pipe = pk_data_reader__is_pipe(r);
	struct stat st;
	if (s->path && strcmp(s->path, "-") ? stat(s->path, &st) : fstat(s->fd, &st))
		return pk_error__set(err, -errno, "", 0, 0, "cannot stat the input: %s",
				     strerror(errno));
	time_t mt = st.st_mtime;
	char tbuf[64];
	fprintf(f, "# captured on    : %s", ctime_r(&mt, tbuf) ? tbuf : "\n");
	uint64_t off = pk_data_reader__data_offset(r), size = pk_data_reader__data_size(r);
	fprintf(f, "# header version : %u\n", pk_data_reader__header_version(r));
	fprintf(f, "# data offset    : %" PRIu64 "\n", off);
	fprintf(f, "# data size      : %" PRIu64 "\n", size);
	fprintf(f, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : off + size);
	if (pipe)
		return 0;	/* the features come as records: pk_session__fprintf_feature */
	for (unsigned feat = 1; feat < NR_FEAT_NAMES; feat++)
		if (pk_data_reader__has_feat(r, feat))
			print_feat(s, f, feat);
	fprintf(f, "# missing features: ");
	for (unsigned feat = 1; feat < NR_FEAT_NAMES; feat++)
		if (!pk_data_reader__has_feat(r, feat))
			fprintf(f, "%s ", feat_names[feat]);
	fprintf(f, "\n");
	return 0;
}
