/* SPDX-License-Identifier: MIT */
/*
 * data_dump.c — prints what pmukit's perf.data reader (pmukit/data_read.h)
 * decodes, in the shapes perf 6.1 prints, so that tests compare them line
 * by line (tests/integration/data_read.sh):
 *   data_dump [opts] FILE       as `perf report -D -i FILE` (without the raw hex
 *                               dumps and the thread/dso lookup lines)
 *   data_dump -S FIELDS FILE    sample lines as `perf script -F FIELDS` with
 *                               FIELDS from pid,tid,cpu,time,period,event,ip,addr
 *                               (ip: the callchain's addresses, one a line)
 *   data_dump -H FILE           header lines as `perf report --header-only -I`
 *                               (hostname ... cmdline, sibling lists, CPU ids, pmu
 *                               mappings, groups, sample times, compression), then
 *                               "buildid HEX NAME" lines as perf buildid-list,
 *                               "event N NAME" and "tp ID SYSTEM:NAME FIELDS"
 *   data_dump -C FILE           a digest: one line per record (type, offset, size,
 *                               attr, decoded fields) for comparing two readings
 * Options: -o file (file order), -w BYTES (mapped window), -q BYTES (queue
 * limit), -n NAME (the name perf prints after '@'; default the path, "pipe"
 * for pipe-mode data).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pmukit/data_read.h>

static const char *kernel_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
};

static const char *user_names[] = {
	"ATTR",	       "EVENT_TYPE",   "TRACING_DATA", "BUILD_ID",  "FINISHED_ROUND",
	"ID_INDEX",    "AUXTRACE_INFO", "AUXTRACE",    "AUXTRACE_ERROR", "THREAD_MAP",
	"CPU_MAP",     "STAT_CONFIG",  "STAT",	       "STAT_ROUND", "EVENT_UPDATE",
	"TIME_CONV",   "FEATURE",      "COMPRESSED",   "FINISHED_INIT", "COMPRESSED2",
};

static const char *type_name(uint32_t t)
{
	if (t < sizeof(kernel_names) / sizeof(kernel_names[0]) && kernel_names[t])
		return kernel_names[t];
	if (t >= 64 && t - 64 < sizeof(user_names) / sizeof(user_names[0]))
		return user_names[t - 64];
	return "UNKNOWN";
}

static const char *x86_regs[] = { "AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP",
				  "IP", "FLAGS", "CS", "SS", "DS", "ES", "FS", "GS",
				  "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15" };

static void cpu_list(const void *data, size_t size)
{
	int32_t cpus[4096];
	long n = pk_data__cpu_map(data, size, cpus, 4096);
	if (n < 0) {
		printf("failed\n");
		return;
	}
	for (long i = 0; i < n && i < 4096;) {
		long j = i;
		while (j + 1 < n && j + 1 < 4096 && cpus[j + 1] == cpus[j] + 1)
			j++;
		printf("%s", i ? "," : "");
		if (j > i)
			printf("%d-%d", cpus[i], cpus[j]);
		else
			printf("%d", cpus[i]);
		i = j + 1;
	}
	printf("\n");
}

static void read_values(const struct pk_sample_read *rd)
{
	printf("... sample_read:\n");
	if (rd->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		printf("...... time enabled %016" PRIx64 "\n", rd->time_enabled);
	if (rd->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		printf("...... time running %016" PRIx64 "\n", rd->time_running);
	if (rd->read_format & PERF_FORMAT_GROUP)
		printf(".... group nr %" PRIu64 "\n", rd->nr);
	for (uint64_t i = 0; i < rd->nr; i++) {
		struct pk_sample_read_value v = pk_sample_read__value(rd, i);
		printf("..... id %016" PRIx64 ", value %016" PRIx64, v.id, v.value);
		if (rd->read_format & PERF_FORMAT_LOST)
			printf(", lost %" PRIu64, v.lost);
		printf("\n");
	}
}

static void page_size(const char *what, uint64_t sz)
{
	static const char units[] = "KMGTPE";
	if (!sz) {
		printf(" .. %s page size: N/A\n", what);
		return;
	}
	unsigned u = 0;
	uint64_t v = sz;
	if (v >= 1024) {
		v /= 1024;
		while (v >= 1024 && u < 5) {
			v /= 1024;
			u++;
		}
		printf(" .. %s page size: %" PRIu64 "%c\n", what, v, units[u]);
	} else {
		printf(" .. %s page size: %" PRIu64 "\n", what, v);
	}
}

static void regs(const char *kind, const struct pk_sample_regs *r)
{
	static const char *abi[] = { "none", "32-bit", "64-bit" };
	if (!r->regs)
		return;
	printf("... %s regs: mask 0x%" PRIx64 " ABI %s\n", kind, r->mask,
	       r->abi <= 2 ? abi[r->abi] : "unknown");
	unsigned i = 0;
	for (unsigned b = 0; b < 64; b++)
		if (r->mask & (1ULL << b))
			printf(".... %-5s 0x%016" PRIx64 "\n", b < 24 ? x86_regs[b] : "unknown",
			       r->regs[i++]);
}

static void dump_sample(const struct pk_data_reader *r, const struct pk_data_event *ev)
{
	const struct pk_sample *s = &ev->sample;
	const struct pk_data_attr *a = pk_data_reader__attr(r, (size_t)ev->attr);
	uint64_t t = s->sample_type;
	printf("(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n", ev->misc,
	       s->pid, s->tid, s->ip, s->period, s->addr);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		printf("... FP chain: nr:%" PRIu64 "\n", s->callchain.nr);
		for (uint64_t i = 0; i < s->callchain.nr; i++)
			printf("..... %2d: %016" PRIx64 "\n", (int)i, s->callchain.ips[i]);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		printf("... branch stack: nr:%" PRIu64 "\n", s->branch.nr);
		for (uint64_t i = 0; i < s->branch.nr; i++) {
			const struct perf_branch_entry *e = &s->branch.entries[i];
			printf("..... %2" PRIu64 ": %016llx -> %016llx %hu cycles %s%s%s%s %x\n", i,
			       (unsigned long long)e->from, (unsigned long long)e->to,
			       (unsigned short)e->cycles, e->mispred ? "M" : " ",
			       e->predicted ? "P" : " ", e->abort ? "A" : " ", e->in_tx ? "T" : " ",
			       (unsigned)e->reserved);
		}
	}
	if (t & PERF_SAMPLE_REGS_USER)
		regs("user", &s->user_regs);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs("intr", &s->intr_regs);
	if (t & PERF_SAMPLE_STACK_USER)
		printf("... ustack: size %" PRIu64 ", offset 0x%x\n", s->user_stack.dyn_size,
		       s->user_stack.data ? (unsigned)((const uint8_t *)s->user_stack.data - 8 -
						       (const uint8_t *)ev->raw)
					  : 0);
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		printf("... weight: %" PRIu64 "", s->weight);
		if (t & PERF_SAMPLE_WEIGHT_STRUCT)
			printf(",0x%x,0x%x", s->weight_var2, s->weight_var3);
		printf("\n");
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		printf(" . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		printf(" .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		page_size("data", s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		page_size("code", s->code_page_size);
	if (t & PERF_SAMPLE_TRANSACTION)
		printf("... transaction: %" PRIx64 "\n", s->transaction);
	if (t & PERF_SAMPLE_READ)
		read_values(&s->read);
	(void)a;
}

static void print_tstamp(const struct pk_data_reader *r, const struct pk_data_event *ev,
			 size_t nr_attrs_before)
{
	uint64_t combined = 0;
	size_t n = pk_data_reader__nr_attrs(r);
	if (ev->type == PK_RECORD_HEADER_ATTR)
		n = nr_attrs_before;
	for (size_t i = 0; i < n; i++)
		combined |= pk_data_reader__attr(r, i)->attr.sample_type;
	bool id_all = n && pk_data_reader__attr(r, 0)->attr.sample_id_all;
	if (ev->type != PERF_RECORD_SAMPLE && !id_all) {
		fputs("-1 -1 ", stdout);
		return;
	}
	uint32_t cpu = 0;
	uint64_t time = 0;
	if (ev->type < 64) {
		cpu = (uint32_t)ev->sample.cpu;
		time = ev->sample.time;
		if (!ev->has_sample) {
			cpu = UINT32_MAX;
			time = UINT64_MAX;
		}
	}
	if (combined & PERF_SAMPLE_CPU)
		printf("%u ", cpu);
	if (combined & PERF_SAMPLE_TIME)
		printf("%" PRIu64 " ", time);
}

static void dump_event(const struct pk_data_reader *r, const struct pk_data_event *ev,
		       const char *name)
{
	printf("%#" PRIx64 "@%s [%#x]: event: %u\n", ev->offset, name, ev->size, ev->type);
	size_t before = ev->type == PK_RECORD_HEADER_ATTR ? (size_t)ev->u.attr.idx : 0;
	print_tstamp(r, ev, before);
	printf("%#" PRIx64 " [%#x]: PERF_RECORD_%s", ev->offset, ev->size, type_name(ev->type));
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		dump_sample(r, ev);
		break;
	case PERF_RECORD_COMM:
		printf("%s: %s:%d/%d\n", ev->u.comm.exec ? " exec" : "", ev->u.comm.comm,
		       ev->u.comm.pid, ev->u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		printf("(%d:%d):(%d:%d)\n", ev->u.task.pid, ev->u.task.tid, ev->u.task.ppid,
		       ev->u.task.ptid);
		break;
	case PERF_RECORD_MMAP:
		printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
		       ev->u.mmap.pid, ev->u.mmap.tid, ev->u.mmap.start, ev->u.mmap.len,
		       ev->u.mmap.pgoff, ev->u.mmap.data ? 'r' : 'x', ev->u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2: {
		const __typeof__(ev->u.mmap) *m = &ev->u.mmap;
		printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, m->pid, m->tid, m->start,
		       m->len, m->pgoff);
		if (m->has_build_id) {
			printf(" <");
			for (unsigned i = 0; i < m->build_id_size; i++)
				printf("%02x", m->build_id[i]);
			printf(">");
		} else {
			printf(" %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
			       m->ino_generation);
		}
		printf("]: %c%c%c%c %s\n", (m->prot & PROT_READ) ? 'r' : '-',
		       (m->prot & PROT_WRITE) ? 'w' : '-', (m->prot & PROT_EXEC) ? 'x' : '-',
		       (m->flags & MAP_SHARED) ? 's' : 'p', m->filename);
		break;
	}
	case PERF_RECORD_LOST:
		printf(": id:%" PRIu64 ": lost:%" PRIu64 "\n", ev->u.lost.id, ev->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		printf(": id:%" PRIu64 ": lost samples :%" PRIu64 "%s\n", ev->sample.id,
		       ev->u.lost_samples.lost, ev->misc & (1 << 15) ? " (BPF)" : "");
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = ev->u.context_switch.out;
		const char *io = !out ? "IN         "
			       : !ev->u.context_switch.preempt ? "OUT        " : "OUT preempt";
		if (ev->type == PERF_RECORD_SWITCH)
			printf(" %s\n", io);
		else
			printf(" %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev",
			       ev->u.context_switch.next_prev_pid, ev->u.context_switch.next_prev_tid);
		break;
	}
	case PERF_RECORD_KSYMBOL:
		printf(" addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", ev->u.ksymbol.addr,
		       ev->u.ksymbol.len, ev->u.ksymbol.ksym_type, ev->u.ksymbol.flags,
		       ev->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		printf(" type %u, flags %u, id %u\n", ev->u.bpf.type, ev->u.bpf.flags, ev->u.bpf.id);
		break;
	case PERF_RECORD_CGROUP:
		printf(" cgroup: %" PRIu64 " %s\n", ev->u.cgroup.id, ev->u.cgroup.path);
		break;
	case PERF_RECORD_NAMESPACES: {
		static const char *ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
		uint64_t nr = ev->u.namespaces.nr;
		printf(" %d/%d - nr_namespaces: %u\n\t\t[", ev->u.namespaces.pid,
		       ev->u.namespaces.tid, (unsigned)nr);
		for (uint64_t i = 0; i < nr; i++) {
			if (i && i % 4 == 0)
				printf("\n\t\t ");
			printf("%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i, i < 7 ? ns[i] : "",
			       ev->u.namespaces.link[2 * i], ev->u.namespaces.link[2 * i + 1],
			       i + 1 != nr ? ", " : "]\n");
		}
		break;
	}
	case PERF_RECORD_ITRACE_START:
		printf(" pid: %u tid: %u\n", (unsigned)ev->u.itrace_start.pid,
		       (unsigned)ev->u.itrace_start.tid);
		break;
	case PERF_RECORD_AUX:
		printf(" offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
		       ev->u.aux.aux_offset, ev->u.aux.aux_size, ev->u.aux.flags,
		       ev->u.aux.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
		       ev->u.aux.flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
		       ev->u.aux.flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PK_RECORD_FINISHED_INIT:
	case PK_RECORD_AUXTRACE:
		printf(": unhandled!\n");
		break;
	case PK_RECORD_ID_INDEX:
		printf(" nr: %" PRIu64 "\n", ev->u.id_index.nr);
		for (uint64_t i = 0; i < ev->u.id_index.nr; i++) {
			const uint64_t *e = ev->u.id_index.entries + 4 * i;
			printf(" ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			       e[0], e[1], (int64_t)e[2], (int64_t)e[3]);
			if (ev->u.id_index.entries2)
				printf("  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n",
				       (int64_t)ev->u.id_index.entries2[2 * i],
				       ev->u.id_index.entries2[2 * i + 1]);
			else
				printf("\n");
		}
		break;
	case PK_RECORD_EVENT_UPDATE:
		printf("\n... id:    %" PRIu64 "\n", ev->u.event_update.id);
		switch (ev->u.event_update.type) {
		case 0:
			printf("... unit:  %s\n", ev->u.event_update.str);
			break;
		case 1:
			printf("... scale: %f\n", ev->u.event_update.scale);
			break;
		case 2:
			printf("... name:  %s\n", ev->u.event_update.str);
			break;
		case 3:
			printf("... ");
			cpu_list(ev->u.event_update.cpus, ev->u.event_update.cpus_size);
			break;
		default:
			printf("... unknown type\n");
		}
		break;
	case PK_RECORD_THREAD_MAP: {
		uint64_t nr = ev->u.thread_map.nr;
		printf(" nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < nr; i++) {
			int64_t pid;
			memcpy(&pid, (const uint8_t *)ev->u.thread_map.entries + 24 * i, 8);
			printf("%s%d", i ? ", " : "", (int)pid);
		}
		printf("\n: unhandled!\n");
		break;
	}
	case PK_RECORD_CPU_MAP:
		printf(": ");
		cpu_list(ev->u.cpu_map.data, ev->u.cpu_map.size);
		printf(": unhandled!\n");
		break;
	case PK_RECORD_TIME_CONV:
		printf("\n... Time Shift      %" PRIu64 "\n", ev->u.time_conv.time_shift);
		printf("... Time Muliplier  %" PRIu64 "\n", ev->u.time_conv.time_mult);
		printf("... Time Zero       %" PRIu64 "\n", ev->u.time_conv.time_zero);
		if (ev->u.time_conv.has_cycles) {
			printf("... Time Cycles     %" PRIu64 "\n", ev->u.time_conv.time_cycles);
			printf("... Time Mask       %#" PRIx64 "\n", ev->u.time_conv.time_mask);
			printf("... Cap Time Zero   %d\n", ev->u.time_conv.cap_user_time_zero);
			printf("... Cap Time Short  %d\n", ev->u.time_conv.cap_user_time_short);
		}
		break;
	default:
		printf("\n");
	}
}

/* ---- perf script -F lines --------------------------------------------------------------- */

enum { F_PID = 1, F_TID = 2, F_CPU = 4, F_TIME = 8, F_PERIOD = 16, F_EVENT = 32, F_IP = 64,
       F_ADDR = 128, F_TRACE = 256 };

static unsigned parse_fields(const char *s)
{
	static const char *names[] = { "pid", "tid", "cpu", "time", "period", "event", "ip", "addr",
				       "trace" };
	unsigned f = 0;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
		for (unsigned i = 0; i < 9; i++)
			if (!strcmp(tok, names[i]))
				f |= 1u << i;
	return f;
}

static void script_line(const struct pk_data_reader *r, const struct pk_data_event *ev,
			unsigned f)
{
	const struct pk_sample *s = &ev->sample;
	const struct pk_data_attr *a = pk_data_reader__attr(r, (size_t)ev->attr);
	if ((f & F_PID) && (f & F_TID))
		printf("%d/%d ", s->pid, s->tid);
	else if (f & (F_PID | F_TID))
		printf("%d ", f & F_PID ? s->pid : s->tid);
	if (f & F_CPU)
		printf("[%03d] ", s->cpu);
	if (f & F_TIME)
		printf("%" PRIu64 ".%06" PRIu64 ": ", s->time / 1000000000, s->time % 1000000000 / 1000);
	if (f & F_PERIOD)
		printf("%" PRIu64 " ", s->period);
	if (f & F_EVENT)
		printf("%s: ", a && a->name ? a->name : "unknown");
	if (f & F_ADDR)
		printf("%" PRIx64 " ", s->addr);
	if ((f & F_TRACE) && s->raw.data && a && a->attr.type == PERF_TYPE_TRACEPOINT) {
		/* the raw tracepoint fields as name=value (integers and strings) */
		const struct pk_tp_format *tf = pk_data_reader__tp_format(r, a->attr.config);
		const uint8_t *raw = s->raw.data;
		for (size_t i = 0; tf && i < tf->nr_fields; i++) {
			const struct pk_tp_field *fl = &tf->fields[i];
			if ((uint64_t)fl->offset + fl->size > s->raw.size)
				continue;
			if (fl->is_string && fl->is_array) {
				printf("%s=%.*s ", fl->name, (int)strnlen((const char *)raw + fl->offset,
									fl->size),
				       (const char *)raw + fl->offset);
			} else if (!fl->is_array && !fl->is_dynamic && fl->size <= 8) {
				uint64_t v = 0;
				memcpy(&v, raw + fl->offset, fl->size);
				if (fl->is_signed && fl->size < 8 && (v >> (8 * fl->size - 1)) & 1)
					v |= ~0ULL << (8 * fl->size);
				if (fl->is_signed)
					printf("%s=%" PRId64 " ", fl->name, (int64_t)v);
				else
					printf("%s=%" PRIu64 " ", fl->name, v);
			}
		}
	}
	if (f & F_IP) {
		if (s->sample_type & PERF_SAMPLE_CALLCHAIN) {
			printf("\n");
			for (uint64_t i = 0; i < s->callchain.nr; i++)
				if (s->callchain.ips[i] < (uint64_t)PERF_CONTEXT_MAX)
					printf("%" PRIx64 "\n", s->callchain.ips[i]);
		} else {
			printf("%" PRIx64 "", s->ip);
		}
	}
	printf("\n");
}

/* ---- digest ---------------------------------------------------------------------------------- */

static void digest(const struct pk_data_event *ev)
{
	const struct pk_sample *s = &ev->sample;
	printf("%u %#" PRIx64 " %u %d", ev->type, ev->offset, ev->size, ev->attr);
	if (ev->has_sample)
		printf(" s=%d/%d/%d/%" PRIu64 "/%" PRIx64 "/%" PRIx64, s->pid, s->tid, s->cpu, s->time,
		       s->id, s->stream_id);
	if (ev->type == PERF_RECORD_SAMPLE) {
		printf(" ip=%" PRIx64 " p=%" PRIu64 " a=%" PRIx64 " cc=%" PRIu64, s->ip, s->period,
		       s->addr, s->callchain.nr);
		for (uint64_t i = 0; i < s->callchain.nr; i++)
			printf(",%" PRIx64, s->callchain.ips[i]);
		if (s->raw.data) {
			printf(" raw=%u:", s->raw.size);
			for (uint32_t i = 0; i < s->raw.size; i++)
				printf("%02x", ((const uint8_t *)s->raw.data)[i]);
		}
		for (uint64_t i = 0; i < s->read.nr && (s->sample_type & PERF_SAMPLE_READ); i++) {
			struct pk_sample_read_value v = pk_sample_read__value(&s->read, i);
			printf(" rd=%" PRIu64 "/%" PRIu64 "/%" PRIu64, v.value, v.id, v.lost);
		}
		if (s->sample_type & PERF_SAMPLE_READ)
			printf(" te=%" PRIu64 " tr=%" PRIu64, s->read.time_enabled, s->read.time_running);
		for (unsigned i = 0; i < s->user_regs.nr; i++)
			printf("%sr%" PRIx64, i ? "," : " ur=", s->user_regs.regs[i]);
		if (s->user_stack.size) {
			uint64_t sum = 0;
			for (uint64_t i = 0; i < s->user_stack.size; i++)
				sum = sum * 31 + s->user_stack.data[i];
			printf(" us=%" PRIu64 "/%" PRIu64 "/%" PRIx64, s->user_stack.size,
			       s->user_stack.dyn_size, sum);
		}
		for (uint64_t i = 0; i < s->branch.nr; i++) {
			const struct perf_branch_entry *e = &s->branch.entries[i];
			printf(" br=%llx>%llx/%u%u%u%u/%u/%u/%u/%u/%u", (unsigned long long)e->from,
			       (unsigned long long)e->to, (unsigned)e->mispred, (unsigned)e->predicted,
			       (unsigned)e->in_tx, (unsigned)e->abort, (unsigned)e->cycles,
			       (unsigned)e->type, (unsigned)e->spec, (unsigned)e->new_type,
			       (unsigned)e->priv);
		}
		if (s->branch.has_hw_idx)
			printf(" hw_idx=%" PRIx64, s->branch.hw_idx);
		printf(" w=%" PRIu64 "/%u/%u ds=%" PRIx64 " tx=%" PRIx64 " ph=%" PRIx64 " cg=%" PRIu64
		       " pg=%" PRIu64 "/%" PRIu64,
		       s->weight, s->weight_var2, s->weight_var3, s->data_src, s->transaction,
		       s->phys_addr, s->cgroup, s->data_page_size, s->code_page_size);
		if (s->aux.size)
			printf(" aux=%" PRIu64, s->aux.size);
	}
	switch (ev->type) {
	case PERF_RECORD_COMM:
		printf(" comm=%d/%d/%s/%d", ev->u.comm.pid, ev->u.comm.tid, ev->u.comm.comm,
		       ev->u.comm.exec);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		printf(" mmap=%d/%d/%" PRIx64 "/%" PRIx64 "/%" PRIx64 "/%u:%u/%" PRIu64 "/%x/%x/%s",
		       ev->u.mmap.pid, ev->u.mmap.tid, ev->u.mmap.start, ev->u.mmap.len,
		       ev->u.mmap.pgoff, ev->u.mmap.maj, ev->u.mmap.min, ev->u.mmap.ino,
		       ev->u.mmap.prot, ev->u.mmap.flags, ev->u.mmap.filename);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		printf(" task=%d/%d/%d/%d/%" PRIu64, ev->u.task.pid, ev->u.task.ppid, ev->u.task.tid,
		       ev->u.task.ptid, ev->u.task.time);
		break;
	case PK_RECORD_HEADER_ATTR:
		printf(" attr=%d", ev->u.attr.idx);
		break;
	case PK_RECORD_HEADER_FEATURE:
		printf(" feat=%" PRIu64 "/%zu", ev->u.feature.feat, ev->u.feature.size);
		break;
	default:
		break;
	}
	printf("\n");
}

/* ---- header ------------------------------------------------------------------------------------ */

static void print_header(const struct pk_data_reader *r)
{
	const struct pk_data_env *e = pk_data_reader__env(r);
	if (e->hostname)
		printf("# hostname : %s\n", e->hostname);
	if (e->osrelease)
		printf("# os release : %s\n", e->osrelease);
	if (e->version)
		printf("# perf version : %s\n", e->version);
	if (e->arch)
		printf("# arch : %s\n", e->arch);
	if (e->has_nrcpus) {
		printf("# nrcpus online : %u\n", e->nr_cpus_online);
		printf("# nrcpus avail : %u\n", e->nr_cpus_avail);
	}
	if (e->cpudesc)
		printf("# cpudesc : %s\n", e->cpudesc);
	if (e->cpuid)
		printf("# cpuid : %s\n", e->cpuid);
	if (pk_data_reader__has_feat(r, PK_FEAT_TOTAL_MEM))
		printf("# total memory : %" PRIu64 " kB\n", e->total_mem);
	if (e->cmdline) {
		printf("# cmdline : ");
		for (uint32_t i = 0; i < e->nr_cmdline; i++)
			printf("%s ", e->cmdline[i]);
		printf("\n");
	}
	for (uint32_t i = 0; i < e->nr_core_siblings; i++)
		printf("# sibling sockets : %s\n", e->core_siblings[i]);
	for (uint32_t i = 0; i < e->nr_die_siblings; i++)
		printf("# sibling dies    : %s\n", e->die_siblings[i]);
	for (uint32_t i = 0; i < e->nr_thread_siblings; i++)
		printf("# sibling threads : %s\n", e->thread_siblings[i]);
	for (uint32_t i = 0; i < e->nr_cpu_topo; i++) {
		printf("# CPU %u: Core ID %d, ", i, e->cpu_topo[i].core_id);
		if (e->nr_die_siblings)
			printf("Die ID %d, ", e->cpu_topo[i].die_id);
		printf("Socket ID %d\n", e->cpu_topo[i].socket_id);
	}
	if (e->nr_pmu_mappings) {
		printf("# pmu mappings: ");
		for (uint32_t i = 0; i < e->nr_pmu_mappings; i++)
			printf("%s%s = %u", i ? ", " : "", e->pmu_mappings[i].name,
			       e->pmu_mappings[i].type);
		printf("\n");
	}
	for (uint32_t g = 0; g < e->nr_groups; g++) {
		const struct pk_data_group_desc *d = &e->groups[g];
		printf("# group: %s{", d->name && strcmp(d->name, "{anon_group}") ? d->name : "");
		for (uint32_t m = 0; m < d->nr_members; m++) {
			const struct pk_data_attr *a = pk_data_reader__attr(r, d->leader_idx + m);
			printf("%s%s", m ? "," : "", a && a->name ? a->name : "?");
		}
		printf("}\n");
	}
	if (pk_data_reader__has_feat(r, PK_FEAT_SAMPLE_TIME)) {
		printf("# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		       e->first_sample_time / 1000000000, e->first_sample_time % 1000000000 / 1000);
		printf("# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		       e->last_sample_time / 1000000000, e->last_sample_time % 1000000000 / 1000);
	}
	if (e->has_compressed)
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       e->comp_type == 1 ? "Zstd" : "Unknown", e->comp_level, e->comp_ratio);
	for (size_t i = 0; i < pk_data_reader__nr_build_ids(r); i++) {
		const struct pk_data_build_id *b = pk_data_reader__build_id(r, i);
		printf("buildid ");
		for (unsigned k = 0; k < b->size; k++)
			printf("%02x", b->id[k]);
		printf(" %s\n", b->filename);
	}
	for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
		const struct pk_data_attr *a = pk_data_reader__attr(r, i);
		printf("event %zu %s\n", i, a->name ? a->name : "");
	}
	for (size_t i = 0; i < pk_data_reader__nr_tp_formats(r); i++) {
		const struct pk_tp_format *f = pk_data_reader__tp_format_at(r, i);
		printf("tp %" PRIu64 " %s:%s", f->id, f->system ? f->system : "", f->name);
		for (size_t k = 0; k < f->nr_fields; k++)
			printf(" %s@%u/%u%s%s", f->fields[k].name, f->fields[k].offset,
			       f->fields[k].size, f->fields[k].is_signed ? "s" : "",
			       f->fields[k].is_string ? "S" : "");
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	struct pk_data_reader_opts o = { .sz = sizeof(o) };
	const char *fields = NULL, *name = NULL;
	int mode = 'D', c;
	while ((c = getopt(argc, argv, "S:HCow:q:n:")) != -1) {
		switch (c) {
		case 'S':
			fields = optarg;
			mode = 'S';
			break;
		case 'H':
		case 'C':
			mode = c;
			break;
		case 'o':
			o.order = PK_DATA_ORDER_FILE;
			break;
		case 'w':
			o.window_bytes = strtoull(optarg, NULL, 0);
			break;
		case 'q':
			o.queue_bytes = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			name = optarg;
			break;
		default:
			fprintf(stderr, "usage: data_dump [-S FIELDS|-H|-C] [-o] [-w N] [-q N] FILE\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: data_dump [-S FIELDS|-H|-C] [-o] [-w N] [-q N] FILE\n");
		return 2;
	}
	struct pk_data_reader *r;
	struct pk_error err = { 0 };
	char buf[1024];
	if (pk_data_reader__open(&r, argv[optind], &o, &err)) {
		fprintf(stderr, "data_dump: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return 1;
	}
	if (!name)
		name = pk_data_reader__is_pipe(r) ? "pipe" : argv[optind];
	unsigned f = fields ? parse_fields(fields) : 0;
	const struct pk_data_event *ev;
	int rc;
	while ((rc = pk_data_reader__next(r, &ev, &err)) > 0) {
		if (mode == 'D')
			dump_event(r, ev, name);
		else if (mode == 'S' && ev->type == PERF_RECORD_SAMPLE)
			script_line(r, ev, f);
		else if (mode == 'C')
			digest(ev);
	}
	if (mode == 'H')
		print_header(r);
	int status = 0;
	const char *w;
	for (size_t i = 0; (w = pk_data_reader__warning(r, i)); i++)
		fprintf(stderr, "data_dump: warning: %s\n", w);
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "data_dump: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		status = 1;
	}
	pk_data_reader__free(r);
	return status;
}
