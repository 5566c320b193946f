/* SPDX-License-Identifier: MIT */
/*
 * dump-raw.c — perf's -D / --dump-raw-trace, shared by report and script:
 * each record as it is processed (perf's order), "OFFSET@FILE [SIZE]: event:
 * TYPE", its bytes in hex and ASCII, then its time stamp and what perf 6.1
 * decodes of it ("PERF_RECORD_SAMPLE(IP, 0x1): pid/tid: ip period: ..."),
 * and for a sample the thread and DSO perf's machine__resolve finds.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/perf_event.h>

#include <pmukit/symbol.h>

#include "dump.h"

static const char *const x86_regs[] = { "AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP",
					"IP", "FLAGS", "CS", "SS", "DS", "ES", "FS", "GS",
					"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15" };

/* perf's trace_event: print_binary with 16 bytes a line */
static void hex(FILE *f, const uint8_t *p, size_t len)
{
	fprintf(f, ".\n. ... raw event: size %zu bytes\n", len);
	for (size_t i = 0; i < len; i += 16) {
		size_t n = len - i < 16 ? len - i : 16;
		fprintf(f, ".  %04zx: ", i);
		for (size_t j = 0; j < n; j++)
			fprintf(f, " %02x", p[i + j]);
		fprintf(f, "%*s  ", (int)(3 * (16 - n)), "");
		for (size_t j = 0; j < n; j++)
			fputc(isprint(p[i + j]) && isascii(p[i + j]) ? p[i + j] : '.', f);
		fprintf(f, "%*s\n", (int)(16 - n), "");
	}
	fputc('\n', f);
}

static void cpu_list(FILE *f, const void *data, size_t size)
{
	int32_t cpus[4096];
	long n = pk_data__cpu_map(data, size, cpus, 4096);
	if (n < 0) {
		fprintf(f, "failed\n");
		return;
	}
	for (long i = 0; i < n && i < 4096;) {
		long j = i;
		while (j + 1 < n && j + 1 < 4096 && cpus[j + 1] == cpus[j] + 1)
			j++;
		fprintf(f, "%s", i ? "," : "");
		if (j > i)
			fprintf(f, "%d-%d", cpus[i], cpus[j]);
		else
			fprintf(f, "%d", cpus[i]);
		i = j + 1;
	}
	fprintf(f, "\n");
}

static void read_values(FILE *f, const struct pk_sample_read *rd)
{
	fprintf(f, "... sample_read:\n");
	if (rd->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(f, "...... time enabled %016" PRIx64 "\n", rd->time_enabled);
	if (rd->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(f, "...... time running %016" PRIx64 "\n", rd->time_running);
	if (rd->read_format & PERF_FORMAT_GROUP)
		fprintf(f, ".... group nr %" PRIu64 "\n", rd->nr);
	for (uint64_t i = 0; i < rd->nr; i++) {
		struct pk_sample_read_value v = pk_sample_read__value(rd, i);
		fprintf(f, "..... id %016" PRIx64 ", value %016" PRIx64, v.id, v.value);
		if (rd->read_format & PERF_FORMAT_LOST)
			fprintf(f, ", lost %" PRIu64, v.lost);
		fprintf(f, "\n");
	}
}

static void page_size(FILE *f, const char *what, uint64_t sz)
{
	static const char units[] = "KMGTPE";
	if (!sz) {
		fprintf(f, " .. %s page size: N/A\n", what);
		return;
	}
	unsigned u = 0;
	uint64_t v = sz;
	if (v < 1024) {
		fprintf(f, " .. %s page size: %" PRIu64 "\n", what, v);
		return;
	}
	for (v /= 1024; v >= 1024 && u < 5; u++)
		v /= 1024;
	fprintf(f, " .. %s page size: %" PRIu64 "%c\n", what, v, units[u]);
}

static void regs(FILE *f, const char *kind, const struct pk_sample_regs *r)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	if (!r->regs)
		return;
	fprintf(f, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", kind, r->mask,
		r->abi <= 2 ? abi[r->abi] : "unknown");
	unsigned i = 0;
	for (unsigned b = 0; b < 64; b++)
		if (r->mask & (1ULL << b))
			fprintf(f, ".... %-5s 0x%016" PRIx64 "\n", b < 24 ? x86_regs[b] : "unknown",
				r->regs[i++]);
}

const char *dump__branch_type(const struct perf_branch_entry *e)
{
	static const char *const names[] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
	};
	return e->type ? names[e->type] : "";
}

static void branch_stack(FILE *f, const struct pk_sample *s)
{
	fprintf(f, "... branch stack: nr:%" PRIu64 "\n", s->branch.nr);
	for (uint64_t i = 0; i < s->branch.nr; i++) {
		const struct perf_branch_entry *e = &s->branch.entries[i];
		fprintf(f, "..... %2" PRIu64 ": %016llx -> %016llx %hu cycles %s%s%s%s %x %s\n", i,
			(unsigned long long)e->from, (unsigned long long)e->to,
			(unsigned short)e->cycles, e->mispred ? "M" : " ", e->predicted ? "P" : " ",
			e->abort ? "A" : " ", e->in_tx ? "T" : " ", (unsigned)e->reserved,
			dump__branch_type(e));
	}
}

/* perf's dump_sample */
static void sample(FILE *f, const struct pk_data_event *ev)
{
	const struct pk_sample *s = &ev->sample;
	uint64_t t = s->sample_type;
	fprintf(f, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		ev->misc, s->pid, s->tid, s->ip, s->period, s->addr);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		fprintf(f, "... FP chain: nr:%" PRIu64 "\n", s->callchain.nr);
		for (uint64_t i = 0; i < s->callchain.nr; i++)
			fprintf(f, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain.ips[i]);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK)
		branch_stack(f, s);
	if (t & PERF_SAMPLE_REGS_USER)
		regs(f, "user", &s->user_regs);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs(f, "intr", &s->intr_regs);
	if (t & PERF_SAMPLE_STACK_USER)
		fprintf(f, "... ustack: size %" PRIu64 ", offset 0x%x\n", s->user_stack.dyn_size,
			s->user_stack.data ? (unsigned)((const uint8_t *)s->user_stack.data - 8 -
							(const uint8_t *)ev->raw)
					   : 0);
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(f, "... weight: %" PRIu64 "", s->weight);
		if (t & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(f, ",0x%x,0x%x", s->weight_var2, s->weight_var3);
		fprintf(f, "\n");
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		fprintf(f, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		fprintf(f, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		page_size(f, "data", s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		page_size(f, "code", s->code_page_size);
	if (t & PERF_SAMPLE_TRANSACTION)
		fprintf(f, "... transaction: %" PRIx64 "\n", s->transaction);
	if (t & PERF_SAMPLE_READ)
		read_values(f, &s->read);
}

/* perf's evlist__print_tstamp: cpu and time as the evlist's combined sample_type has them */
static void tstamp(FILE *f, struct pk_data_reader *r, const struct pk_data_event *ev)
{
	size_t n = pk_data_reader__nr_attrs(r);
	if (ev->type == PK_RECORD_HEADER_ATTR)
		n = (size_t)ev->u.attr.idx;	/* as perf's evlist was before the attr */
	uint64_t combined = 0;
	for (size_t i = 0; i < n; i++)
		combined |= pk_data_reader__attr(r, i)->attr.sample_type;
	bool id_all = n && pk_data_reader__attr(r, 0)->attr.sample_id_all;
	if (ev->type != PERF_RECORD_SAMPLE && !id_all) {
		fputs("-1 -1 ", f);
		return;
	}
	uint32_t cpu = 0;
	uint64_t time = 0;
	if (ev->type < 64) {
		cpu = ev->has_sample ? (uint32_t)ev->sample.cpu : UINT32_MAX;
		time = ev->has_sample ? ev->sample.time : UINT64_MAX;
	}
	if (combined & PERF_SAMPLE_CPU)
		fprintf(f, "%u ", cpu);
	if (combined & PERF_SAMPLE_TIME)
		fprintf(f, "%" PRIu64 " ", time);
}

static void mmap_event(FILE *f, const struct pk_data_event *ev)
{
	const __typeof__(ev->u.mmap) *m = &ev->u.mmap;
	if (ev->type == PERF_RECORD_MMAP) {
		fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n", m->pid,
			m->tid, m->start, m->len, m->pgoff, m->data ? 'r' : 'x', m->filename);
		return;
	}
	fprintf(f, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, m->pid, m->tid, m->start,
		m->len, m->pgoff);
	if (m->has_build_id) {
		fprintf(f, " <");
		for (unsigned i = 0; i < m->build_id_size; i++)
			fprintf(f, "%02x", m->build_id[i]);
		fprintf(f, ">");
	} else {
		fprintf(f, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
			m->ino_generation);
	}
	fprintf(f, "]: %c%c%c%c %s\n", (m->prot & PROT_READ) ? 'r' : '-',
		(m->prot & PROT_WRITE) ? 'w' : '-', (m->prot & PROT_EXEC) ? 'x' : '-',
		(m->flags & MAP_SHARED) ? 's' : 'p', m->filename);
}

static void switch_event(FILE *f, const struct pk_data_event *ev)
{
	bool out = ev->u.context_switch.out;
	const char *io = !out ? "IN         " : !ev->u.context_switch.preempt ? "OUT        "
									   : "OUT preempt";
	if (ev->type == PERF_RECORD_SWITCH)
		fprintf(f, " %s\n", io);
	else
		fprintf(f, " %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev",
			ev->u.context_switch.next_prev_pid, ev->u.context_switch.next_prev_tid);
}

static void namespaces(FILE *f, const struct pk_data_event *ev)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint64_t nr = ev->u.namespaces.nr;
	fprintf(f, " %d/%d - nr_namespaces: %u\n\t\t[", ev->u.namespaces.pid, ev->u.namespaces.tid,
		(unsigned)nr);
	for (uint64_t i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			fprintf(f, "\n\t\t ");
		fprintf(f, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i, i < 7 ? ns[i] : "",
			ev->u.namespaces.link[2 * i], ev->u.namespaces.link[2 * i + 1],
			i + 1 != nr ? ", " : "]\n");
	}
}

static void id_index(FILE *f, const struct pk_data_event *ev)
{
	fprintf(f, " nr: %" PRIu64 "\n", ev->u.id_index.nr);
	for (uint64_t i = 0; i < ev->u.id_index.nr; i++) {
		const uint64_t *e = ev->u.id_index.entries + 4 * i;
		fprintf(f, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			e[0], e[1], (int64_t)e[2], (int64_t)e[3]);
		if (ev->u.id_index.entries2)
			fprintf(f, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n",
				(int64_t)ev->u.id_index.entries2[2 * i], ev->u.id_index.entries2[2 * i + 1]);
		else
			fprintf(f, "\n");
	}
}

static void event_update(FILE *f, const struct pk_data_event *ev)
{
	fprintf(f, "\n... id:    %" PRIu64 "\n", ev->u.event_update.id);
	switch (ev->u.event_update.type) {
	case 0:
		fprintf(f, "... unit:  %s\n", ev->u.event_update.str);
		break;
	case 1:
		fprintf(f, "... scale: %f\n", ev->u.event_update.scale);
		break;
	case 2:
		fprintf(f, "... name:  %s\n", ev->u.event_update.str);
		break;
	case 3:
		fprintf(f, "... ");
		cpu_list(f, ev->u.event_update.cpus, ev->u.event_update.cpus_size);
		break;
	default:
		fprintf(f, "... unknown type\n");
	}
}

static void time_conv(FILE *f, const struct pk_data_event *ev)
{
	fprintf(f, "\n... Time Shift      %" PRIu64 "\n", ev->u.time_conv.time_shift);
	fprintf(f, "... Time Muliplier  %" PRIu64 "\n", ev->u.time_conv.time_mult);
	fprintf(f, "... Time Zero       %" PRIu64 "\n", ev->u.time_conv.time_zero);
	if (ev->u.time_conv.has_cycles) {
		fprintf(f, "... Time Cycles     %" PRIu64 "\n", ev->u.time_conv.time_cycles);
		fprintf(f, "... Time Mask       %#" PRIx64 "\n", ev->u.time_conv.time_mask);
		fprintf(f, "... Cap Time Zero   %d\n", ev->u.time_conv.cap_user_time_zero);
		fprintf(f, "... Cap Time Short  %d\n", ev->u.time_conv.cap_user_time_short);
	}
}

void dump_raw__resolve(struct dump_raw *d, const struct pk_data_event *ev)
{
	const struct pk_sample *s = &ev->sample;
	const struct pk_thread *t = pk_session__thread(d->s, s->pid, s->tid);
	if (!t)
		return;
	fprintf(d->f, " ... thread: %s:%d\n", t->comm, t->tid);
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct pk_map *m = pk_session__find_map(d->s, t, cpumode, s->ip);
	const char *dso = m && m->dso ? pk_dso__name(m->dso) : NULL;
	bool hv = cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER;
	fprintf(d->f, " ...... dso: %s\n", dso ? dso : hv ? "[hypervisor]" : "<not found>");
}

/* perf's dump_read: the record's fields at their places in a one-value read */
static void read_event(struct dump_raw *d, const struct pk_data_event *ev)
{
	uint64_t v[5] = { 0 };
	size_t n = ev->size > 16 ? (ev->size - 16) / 8 : 0;
	memcpy(v, (const uint8_t *)ev->raw + 16, (n < 5 ? n : 5) * 8);
	const struct pk_data_attr *a = ev->attr >= 0 ?
		pk_data_reader__attr(pk_session__reader(d->s), (size_t)ev->attr) : NULL;
	fprintf(d->f, ": %d %d %s %" PRIu64 "\n", ev->u.read.pid, ev->u.read.tid,
		a ? pk_session__event_name(d->s, ev->attr) : "(null)", v[0]);
	if (!a)
		return;
	uint64_t rf = a->attr.read_format;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(d->f, "... time enabled : %" PRIu64 "\n", v[1]);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(d->f, "... time running : %" PRIu64 "\n", v[2]);
	if (rf & PERF_FORMAT_ID)
		fprintf(d->f, "... id           : %" PRIu64 "\n", v[3]);
	if (rf & PERF_FORMAT_LOST)
		fprintf(d->f, "... lost         : %" PRIu64 "\n", v[4]);
}

static void kernel_record(struct dump_raw *d, const struct pk_data_event *ev)
{
	FILE *f = d->f;
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		sample(f, ev);
		break;
	case PERF_RECORD_READ:
		read_event(d, ev);
		if (!d->report)
			fprintf(f, ": unhandled!\n");	/* perf script has no READ handler */
		break;
	case PERF_RECORD_COMM:
		fprintf(f, "%s: %s:%d/%d\n", ev->u.comm.exec ? " exec" : "", ev->u.comm.comm,
			ev->u.comm.pid, ev->u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(f, "(%d:%d):(%d:%d)\n", ev->u.task.pid, ev->u.task.tid, ev->u.task.ppid,
			ev->u.task.ptid);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		mmap_event(f, ev);
		break;
	case PERF_RECORD_LOST:
		fprintf(f, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", ev->u.lost.id, ev->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(f, ": id:%" PRIu64 ": lost samples :%" PRIu64 "%s\n", ev->sample.id,
			ev->u.lost_samples.lost, ev->misc & (1 << 15) ? " (BPF)" : "");
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		switch_event(f, ev);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(f, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
			ev->u.ksymbol.addr, ev->u.ksymbol.len, ev->u.ksymbol.ksym_type,
			ev->u.ksymbol.flags, ev->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(f, " type %u, flags %u, id %u\n", ev->u.bpf.type, ev->u.bpf.flags,
			ev->u.bpf.id);
		break;
	case PERF_RECORD_CGROUP:
		fprintf(f, " cgroup: %" PRIu64 " %s\n", ev->u.cgroup.id, ev->u.cgroup.path);
		break;
	case PERF_RECORD_NAMESPACES:
		namespaces(f, ev);
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(f, " pid: %u tid: %u\n", (unsigned)ev->u.itrace_start.pid,
			(unsigned)ev->u.itrace_start.tid);
		break;
	case PERF_RECORD_AUX:
		fprintf(f, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			ev->u.aux.aux_offset, ev->u.aux.aux_size, ev->u.aux.flags,
			ev->u.aux.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			ev->u.aux.flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			ev->u.aux.flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		fprintf(f, ": unhandled!\n");
		break;
	default:
		fprintf(f, "\n");
	}
}

static void thread_map(FILE *f, const struct pk_data_event *ev, bool report)
{
	uint64_t nr = ev->u.thread_map.nr;
	fprintf(f, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
	for (uint64_t i = 0; i < nr; i++) {
		int64_t pid;
		memcpy(&pid, (const uint8_t *)ev->u.thread_map.entries + 24 * i, 8);
		fprintf(f, "%s%d", i ? ", " : "", (int)pid);
	}
	fprintf(f, "\n%s", report ? ": unhandled!\n" : "");
}

static void user_record(struct dump_raw *d, const struct pk_data_event *ev)
{
	FILE *f = d->f;
	switch (ev->type) {
	case PK_RECORD_HEADER_ATTR:
	case PK_RECORD_HEADER_FEATURE:
	case PK_RECORD_HEADER_TRACING_DATA:
		break;	/* perf prints nothing after the name */
	case PK_RECORD_FINISHED_INIT:
	case PK_RECORD_AUXTRACE:
		fprintf(f, ": unhandled!\n");
		break;
	case PK_RECORD_ID_INDEX:
		id_index(f, ev);
		break;
	case PK_RECORD_EVENT_UPDATE:
		event_update(f, ev);
		break;
	case PK_RECORD_THREAD_MAP:
		thread_map(f, ev, d->report);
		break;
	case PK_RECORD_CPU_MAP:
		fprintf(f, ": ");
		cpu_list(f, ev->u.cpu_map.data, ev->u.cpu_map.size);
		if (d->report)
			fprintf(f, ": unhandled!\n");
		break;
	case PK_RECORD_TIME_CONV:
		time_conv(f, ev);
		break;
	default:
		fprintf(f, "\n");
	}
}

void dump__fprintf_event(FILE *f, const struct pk_data_event *ev)
{
	fprintf(f, "PERF_RECORD_%s", dump__type_name(ev->type));
	switch (ev->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		switch_event(f, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		namespaces(f, ev);
		break;
	case PERF_RECORD_LOST:
		fprintf(f, " lost %" PRIu64 "\n", ev->u.lost.lost);
		break;
	case PERF_RECORD_CGROUP:
		fprintf(f, " cgroup: %" PRIu64 " %s\n", ev->u.cgroup.id, ev->u.cgroup.path);
		break;
	default:
		fprintf(f, "\n");
	}
}

void dump_raw__event(struct dump_raw *d, const struct pk_data_event *ev)
{
	struct pk_data_reader *r = pk_session__reader(d->s);
	fprintf(d->f, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", ev->offset, d->name, ev->size,
		ev->type);
	hex(d->f, (const uint8_t *)ev->raw, ev->size);
	tstamp(d->f, r, ev);
	fprintf(d->f, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", ev->offset, ev->size,
		dump__type_name(ev->type));
	if (ev->type < 64)
		kernel_record(d, ev);
	else
		user_record(d, ev);
}

const char *dump_raw__file_name(struct pk_session *s, const char *path)
{
	return pk_data_reader__is_pipe(pk_session__reader(s)) ? "pipe" : path;
}
