/* SPDX-License-Identifier: MIT */
/*
 * report-header.c — perf report --header / --header-only: the perf.data
 * header and its feature sections as perf 6.1 prints them (perf's
 * perf_header__fprintf_info): when and where the data is, each feature in
 * its order ("# hostname : ...", "# event : name = ..., id = { ... },
 * type = ..."), "<FEATURE> info available, use -I to display" for the
 * topology-like ones, and the features the file lacks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <linux/perf_event.h>

#include <pmukit/data_read.h>

#include "report-cli.h"

/* perf 6.1's feature names, by bit (its HEADER_LAST_FEATURE is 31) */
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
#define PERF61_LAST_FEATURE 32	/* Debian's perf 6.1 knows PMU_CAPS (31) */

struct bit_name {
	uint64_t bit;
	const char *name;
};

static void bits(char *buf, size_t size, uint64_t v, const struct bit_name *b)
{
	size_t off = 0;
	buf[0] = 0;
	for (; b->name; b++)
		if (v & b->bit && off < size)
			off += (size_t)snprintf(buf + off, size - off, "%s%s", off ? "|" : "", b->name);
}

#define B(p, n) { p##n, #n }
static const struct bit_name sample_bits[] = {
	B(PERF_SAMPLE_, IP), B(PERF_SAMPLE_, TID), B(PERF_SAMPLE_, TIME), B(PERF_SAMPLE_, ADDR),
	B(PERF_SAMPLE_, READ), B(PERF_SAMPLE_, CALLCHAIN), B(PERF_SAMPLE_, ID),
	B(PERF_SAMPLE_, CPU), B(PERF_SAMPLE_, PERIOD), B(PERF_SAMPLE_, STREAM_ID),
	B(PERF_SAMPLE_, RAW), B(PERF_SAMPLE_, BRANCH_STACK), B(PERF_SAMPLE_, REGS_USER),
	B(PERF_SAMPLE_, STACK_USER), B(PERF_SAMPLE_, IDENTIFIER), B(PERF_SAMPLE_, REGS_INTR),
	B(PERF_SAMPLE_, DATA_SRC), B(PERF_SAMPLE_, WEIGHT), B(PERF_SAMPLE_, PHYS_ADDR),
	B(PERF_SAMPLE_, AUX), B(PERF_SAMPLE_, CGROUP), B(PERF_SAMPLE_, DATA_PAGE_SIZE),
	B(PERF_SAMPLE_, CODE_PAGE_SIZE), B(PERF_SAMPLE_, WEIGHT_STRUCT), { 0, NULL },
};
static const struct bit_name read_bits[] = {
	B(PERF_FORMAT_, TOTAL_TIME_ENABLED), B(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	B(PERF_FORMAT_, ID), B(PERF_FORMAT_, GROUP), B(PERF_FORMAT_, LOST), { 0, NULL },
};
static const struct bit_name branch_bits[] = {
	B(PERF_SAMPLE_BRANCH_, USER), B(PERF_SAMPLE_BRANCH_, KERNEL), B(PERF_SAMPLE_BRANCH_, HV),
	B(PERF_SAMPLE_BRANCH_, ANY), B(PERF_SAMPLE_BRANCH_, ANY_CALL),
	B(PERF_SAMPLE_BRANCH_, ANY_RETURN), B(PERF_SAMPLE_BRANCH_, IND_CALL),
	B(PERF_SAMPLE_BRANCH_, ABORT_TX), B(PERF_SAMPLE_BRANCH_, IN_TX), B(PERF_SAMPLE_BRANCH_, NO_TX),
	B(PERF_SAMPLE_BRANCH_, COND), B(PERF_SAMPLE_BRANCH_, CALL_STACK),
	B(PERF_SAMPLE_BRANCH_, IND_JUMP), B(PERF_SAMPLE_BRANCH_, CALL),
	B(PERF_SAMPLE_BRANCH_, NO_FLAGS), B(PERF_SAMPLE_BRANCH_, NO_CYCLES),
	B(PERF_SAMPLE_BRANCH_, TYPE_SAVE), B(PERF_SAMPLE_BRANCH_, HW_INDEX), { 0, NULL },
};
#undef B

/* perf 6.1's perf_event_attr__fprintf through its header callback: ", name = value" */
static void attr_fprintf(FILE *fp, const struct perf_event_attr *a)
{
	char buf[1024];
#define U(name, v) do { if (v) fprintf(fp, ", %s = %" PRIu64, name, (uint64_t)(v)); } while (0)
#define X(name, v) do { if (v) fprintf(fp, ", %s = %#" PRIx64, name, (uint64_t)(v)); } while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type) {
		bits(buf, sizeof(buf), a->sample_type, sample_bits);
		fprintf(fp, ", sample_type = %s", buf);
	}
	if (a->read_format) {
		bits(buf, sizeof(buf), a->read_format, read_bits);
		fprintf(fp, ", read_format = %s", buf);
	}
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch);
	U("write_backward", a->write_backward);
	U("namespaces", a->namespaces);
	U("ksymbol", a->ksymbol);
	U("bpf_event", a->bpf_event);
	U("aux_output", a->aux_output);
	U("cgroup", a->cgroup);
	U("text_poke", a->text_poke);
	U("build_id", a->build_id);
	U("inherit_thread", a->inherit_thread);
	U("remove_on_exec", a->remove_on_exec);
	U("sigtrap", a->sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	if (a->branch_sample_type) {
		bits(buf, sizeof(buf), a->branch_sample_type, branch_bits);
		fprintf(fp, ", branch_sample_type = %s", buf);
	}
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(fp, ", clockid = %" PRId64, (int64_t)a->clockid);
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
	U("aux_sample_size", a->aux_sample_size);
	U("sig_data", a->sig_data);
#undef U
#undef X
}

/* the value of a perf string in a feature section: u32 length, bytes */
static const char *fstr(const uint8_t **p, const uint8_t *end, bool swap)
{
	if (end - *p < 4)
		return NULL;
	uint32_t n;
	memcpy(&n, *p, 4);
	if (swap)
		n = __builtin_bswap32(n);
	if ((size_t)(end - *p - 4) < n)
		return NULL;
	const char *s = (const char *)*p + 4;
	*p += 4 + n;
	return n && s[n - 1] == 0 ? s : NULL;
}

static void print_feature(struct pk_session *s, unsigned f, FILE *fp)
{
	struct pk_data_reader *r = pk_session__reader(s);
	const struct pk_data_env *env = pk_data_reader__env(r);
	bool swap = pk_data_reader__needs_swap(r);
	switch (f) {
	case PK_FEAT_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", env->hostname ? env->hostname : "");
		break;
	case PK_FEAT_OSRELEASE:
		fprintf(fp, "# os release : %s\n", env->osrelease ? env->osrelease : "");
		break;
	case PK_FEAT_VERSION:
		fprintf(fp, "# perf version : %s\n", env->version ? env->version : "");
		break;
	case PK_FEAT_ARCH:
		fprintf(fp, "# arch : %s\n", env->arch ? env->arch : "");
		break;
	case PK_FEAT_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", env->nr_cpus_online,
			env->nr_cpus_avail);
		break;
	case PK_FEAT_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", env->cpudesc ? env->cpudesc : "");
		break;
	case PK_FEAT_CPUID:
		fprintf(fp, "# cpuid : %s\n", env->cpuid ? env->cpuid : "");
		break;
	case PK_FEAT_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", env->total_mem);
		break;
	case PK_FEAT_CMDLINE:
		fputs("# cmdline : ", fp);
		for (uint32_t i = 0; i < env->nr_cmdline; i++) {
			/* perf escapes quotes as \' */
			for (const char *c = env->cmdline[i]; *c; c++) {
				if (*c == '\'')
					fputs("\\'", fp);
				else
					fputc(*c, fp);
			}
			fputc(' ', fp);
		}
		fputc('\n', fp);
		break;
	case PK_FEAT_EVENT_DESC:
		for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
			const struct pk_data_attr *a = pk_data_reader__attr(r, i);
			fprintf(fp, "# event : name = %s, ", pk_session__event_name(s, (int)i));
			if (a->nr_ids) {
				fputs(", id = {", fp);
				for (size_t j = 0; j < a->nr_ids; j++)
					fprintf(fp, "%s %" PRIu64, j ? "," : "", a->ids[j]);
				fputs(" }", fp);
			}
			attr_fprintf(fp, &a->attr);
			fputc('\n', fp);
		}
		break;
	case PK_FEAT_CPU_TOPOLOGY:
	case PK_FEAT_NUMA_TOPOLOGY:
	case PK_FEAT_CACHE:
	case PK_FEAT_MEM_TOPOLOGY:
	case PK_FEAT_HYBRID_TOPOLOGY:
		fprintf(fp, "# %s info available, use -I to display\n", feat_names[f]);
		break;
	case PK_FEAT_BRANCH_STACK:
		fputs("# contains samples with branch stack\n", fp);
		break;
	case PK_FEAT_PMU_MAPPINGS:
		if (!env->nr_pmu_mappings) {
			fputs("# pmu mappings: not available\n", fp);
			break;
		}
		for (uint32_t i = 0; i < env->nr_pmu_mappings; i++)
			fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
				env->pmu_mappings[i].name, env->pmu_mappings[i].type);
		fputc('\n', fp);
		break;
	case PK_FEAT_GROUP_DESC:
		for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
			const struct pk_data_attr *a = pk_data_reader__attr(r, i);
			if (a->leader != (int)i || a->nr_members < 2)
				continue;
			fprintf(fp, "# group: %s{%s", a->group_name ? a->group_name : "",
				pk_session__event_name(s, (int)i));
			for (int m = 1; m < a->nr_members; m++)
				fprintf(fp, ",%s", pk_session__event_name(s, (int)i + m));
			fputs("}\n", fp);
		}
		break;
	case PK_FEAT_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
		break;
	case PK_FEAT_STAT:
		fputs("# contains stat data\n", fp);
		break;
	case PK_FEAT_SAMPLE_TIME: {
		uint64_t a = env->first_sample_time, b = env->last_sample_time;
		fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", a / 1000000000,
			a % 1000000000 / 1000);
		fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", b / 1000000000,
			b % 1000000000 / 1000);
		fprintf(fp, "# sample duration : %10.3f ms\n", (double)(b - a) / 1e6);
		break;
	}
	case PK_FEAT_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", env->clockid_res_ns * 1000);
		break;
	case PK_FEAT_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			env->comp_type == 1 ? "Zstd" : "Unknown", (int)env->comp_level,
			(int)env->comp_ratio);
		break;
	case PK_FEAT_CPU_PMU_CAPS: {
		size_t size;
		const uint8_t *p = pk_data_reader__feat_data(r, f, &size), *end = p ? p + size : p;
		uint32_t nr = 0;
		if (p && size >= 4) {
			memcpy(&nr, p, 4);
			if (swap)
				nr = __builtin_bswap32(nr);
			p += 4;
		}
		if (!nr) {
			fputs("# cpu pmu capabilities: not available\n", fp);
			break;
		}
		fputs("# cpu pmu capabilities: ", fp);
		for (uint32_t i = 0; i < nr; i++) {
			const char *name = fstr(&p, end, swap), *val = name ? fstr(&p, end, swap) : NULL;
			if (!val)
				break;
			fprintf(fp, "%s%s=%s", i ? ", " : "", name, val);
		}
		fputc('\n', fp);
		break;
	}
	default:
		break;	/* TRACING_DATA, BUILD_ID, DIR_FORMAT, BPF_*, CLOCK_DATA: nothing without -I */
	}
}

int report_header__fprintf(struct pk_session *s, const char *path, FILE *fp)
{
	struct pk_data_reader *r = pk_session__reader(s);
	fputs("# ========\n", fp);
	/* perf: the modification time of its input (a pipe's: when it was made) */
	struct stat st;
	time_t mt = 0;
	if (!strcmp(path, "-") ? !fstat(0, &st) : !stat(path, &st))
		mt = st.st_mtime;
	fprintf(fp, "# captured on    : %s", ctime(&mt));
	if (pk_data_reader__is_pipe(r)) {
		/* a pipe's header, then its features as they come */
		fputs("# header version : 1\n# data offset    : 0\n# data size      : 0\n"
		      "# feat offset    : 0\n# ========\n#\n", fp);
		const struct pk_data_event *ev;
		struct pk_error err = { 0 };
		int rc;
		while ((rc = pk_session__next(s, &ev, &err)) > 0) {
			if (ev->type != PK_RECORD_HEADER_FEATURE)
				continue;
			unsigned f = (unsigned)ev->u.feature.feat;
			if (f >= PERF61_LAST_FEATURE)
				break;	/* the end-of-features marker */
			print_feature(s, f, fp);
		}
		return rc < 0 ? -1 : 0;
	}
	uint64_t off = pk_data_reader__data_offset(r), size = pk_data_reader__data_size(r);
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", off);
	fprintf(fp, "# data size      : %" PRIu64 "\n", size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", off + size);
	for (unsigned f = 1; f < PERF61_LAST_FEATURE; f++)
		if (pk_data_reader__has_feat(r, f))
			print_feature(s, f, fp);
	fputs("# missing features: ", fp);
	for (unsigned f = 1; f < PERF61_LAST_FEATURE; f++)
		if (!pk_data_reader__has_feat(r, f))
			fprintf(fp, "%s ", feat_names[f]);
	fputs("\n# ========\n#\n", fp);
	return 0;
}
