/* SPDX-License-Identifier: MIT */
/*
 * test_data_read.c — pmukit/data_read.h on files built here (test_data_read.h):
 * every sample_type bit perf 6.12 writes (group and single READ with LOST,
 * branch stack with hw_idx and counters, user and intr regs, user stack,
 * weight struct, data source, page sizes, aux, cgroup, identifier), every
 * side-band and tool record, the features; the same file in pipe mode (a
 * real pipe and a pipe-format file), with larger attrs (perf 6.3+), with its
 * records in COMPRESSED and COMPRESSED2 chunks cut at odd places; the order
 * perf delivers them in; ids to attrs (IDENTIFIER, ID, no ids, id 0, an
 * unknown id); v1 and bad headers refused with a message.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_data_read_rich.h"

static struct pk_data_reader *open_bytes(const struct pk_buf *b, int *fd,
					 const struct pk_data_reader_opts *o)
{
	struct pk_data_reader *r;
	struct pk_error err = { 0 };
	*fd = mem_fd(b->data, b->len);
	if (pk_data_reader__open_fd(&r, *fd, "mem", o, &err))
		fail_msg("open: %s", err.msg);
	return r;
}

static const struct pk_data_event *next(struct pk_data_reader *r)
{
	const struct pk_data_event *ev;
	struct pk_error err = { 0 };
	int rc = pk_data_reader__next(r, &ev, &err);
	if (rc < 0)
		fail_msg("next: %s", err.msg);
	return rc ? ev : NULL;
}

/* ---- the rich file: every field ------------------------------------------------------------ */

static void check_sample0(const struct pk_data_event *ev, uint64_t i, uint64_t time)
{
	const struct pk_sample *s = &ev->sample;
	assert_int_equal(ev->attr, 0);
	assert_true(ev->has_sample);
	assert_int_equal(ev->misc, PERF_RECORD_MISC_USER);
	assert_int_equal(s->sample_type, RICH_T0);
	assert_int_equal(s->id, RICH_ID0);
	assert_int_equal(s->ip, 0x400000 + i);
	assert_int_equal(s->pid, 100 + i);
	assert_int_equal(s->tid, 200 + i);
	assert_int_equal(s->time, time);
	assert_int_equal(s->addr, 0xdead0000 + i);
	assert_int_equal(s->stream_id, 5555);
	assert_int_equal(s->cpu, i % 2);
	assert_int_equal(s->period, 1000 + i);
	assert_int_equal(s->read.nr, 2);
	assert_int_equal(s->read.time_enabled, 10 * i + 1);
	assert_int_equal(s->read.time_running, 10 * i + 2);
	struct pk_sample_read_value v0 = pk_sample_read__value(&s->read, 0);
	struct pk_sample_read_value v1 = pk_sample_read__value(&s->read, 1);
	assert_int_equal(v0.value, 300 + i);
	assert_int_equal(v0.id, RICH_ID0);
	assert_int_equal(v0.lost, 1);
	assert_int_equal(v1.value, 400 + i);
	assert_int_equal(v1.id, RICH_ID1);
	assert_int_equal(v1.lost, 2);
	assert_int_equal(s->callchain.nr, 4);
	assert_int_equal(s->callchain.ips[0], (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(s->callchain.ips[2], 0x401000 + i);
	assert_int_equal(s->raw.size, 12);
	assert_int_equal(((const uint8_t *)s->raw.data)[11], (uint8_t)(0xa0 + 11 + i));
	assert_int_equal(s->branch.nr, 2);
	assert_true(s->branch.has_hw_idx);
	assert_int_equal(s->branch.hw_idx, 0x77 + i);
	const struct perf_branch_entry *e = &s->branch.entries[1];
	assert_int_equal(e->from, 0x500001);
	assert_int_equal(e->to, 0x600001 + i);
	assert_int_equal(e->mispred, 1);
	assert_int_equal(e->predicted, 0);
	assert_int_equal(e->in_tx, 1);
	assert_int_equal(e->cycles, 1235);
	assert_int_equal(e->type, 5);
	assert_int_equal(e->spec, 2);
	assert_int_equal(e->new_type, 3);
	assert_int_equal(e->priv, 6);
	assert_non_null(s->branch.counters);
	assert_int_equal(s->branch.counters[1], 0x22);
	assert_int_equal(s->user_regs.abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s->user_regs.nr, 3);
	assert_int_equal(s->user_regs.mask, 0x7);
	assert_int_equal(s->user_regs.regs[0], 0x1110 + i);
	assert_int_equal(s->user_regs.regs[2], 0x3330);
	assert_int_equal(s->user_stack.size, 16);
	assert_int_equal(s->user_stack.dyn_size, 12);
	assert_int_equal(s->user_stack.data[15], (uint8_t)(15 * 7 + i));
	assert_int_equal(s->weight, 0x12345);
	assert_int_equal(s->weight_var2, 0x66);
	assert_int_equal(s->weight_var3, 0x77);
	assert_int_equal(s->data_src, 0x1e05080021ULL);
	assert_int_equal(s->transaction, 3);
	assert_int_equal(s->intr_regs.nr, 2);
	assert_int_equal(s->intr_regs.mask, 0x180);
	assert_int_equal(s->intr_regs.regs[1], 0xbbb0 + i);
	assert_int_equal(s->phys_addr, 0xfeed000 + i);
	assert_int_equal(s->cgroup, 42);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2 << 20);
	assert_int_equal(s->aux.size, 8);
	uint64_t aux;
	memcpy(&aux, s->aux.data, 8);
	assert_int_equal(aux, 0x0102030405060708ULL);
}

static void check_sample1(const struct pk_data_event *ev, uint64_t i, uint64_t time)
{
	const struct pk_sample *s = &ev->sample;
	assert_int_equal(ev->attr, 1);
	assert_int_equal(s->id, RICH_ID1);
	assert_int_equal(s->ip, 0xffffffff81000000ULL + i);
	assert_int_equal(s->pid, 300);
	assert_int_equal(s->tid, 301);
	assert_int_equal(s->time, time);
	assert_int_equal(s->cpu, 1);
	assert_int_equal(s->period, 1);
	assert_int_equal(s->read.nr, 1);
	assert_int_equal(s->read.time_running, 50);
	assert_int_equal(s->read.time_enabled, 0);
	struct pk_sample_read_value v = pk_sample_read__value(&s->read, 0);
	assert_int_equal(v.value, 999 + i);
	assert_int_equal(v.id, RICH_ID1);
	assert_int_equal(v.lost, 3);
	assert_int_equal(s->weight, 321);
	/* fields not in sample_type: perf's defaults */
	assert_int_equal(s->addr, 0);
	assert_int_equal(s->stream_id, UINT64_MAX);
	assert_int_equal(s->callchain.nr, 0);
}

/* the trailer of every rich side-band record */
static void check_trailer(const struct pk_data_event *ev, uint64_t time)
{
	assert_true(ev->has_sample);
	assert_int_equal(ev->attr, 0);
	assert_int_equal(ev->sample.pid, 77);
	assert_int_equal(ev->sample.tid, 78);
	assert_int_equal(ev->sample.time, time);
	assert_int_equal(ev->sample.id, RICH_ID0);
	assert_int_equal(ev->sample.stream_id, 5555);
	assert_int_equal(ev->sample.cpu, 1);
}

static void check_rich(struct pk_data_reader *r, bool pipe)
{
	static const uint32_t tools[] = {
		PK_RECORD_ID_INDEX,	  PK_RECORD_TIME_CONV,	   PK_RECORD_THREAD_MAP,
		PK_RECORD_CPU_MAP,	  PK_RECORD_CPU_MAP,	   PK_RECORD_CPU_MAP,
		PK_RECORD_CPU_MAP,	  PK_RECORD_EVENT_UPDATE,  PK_RECORD_EVENT_UPDATE,
		PK_RECORD_EVENT_UPDATE,	  PK_RECORD_HEADER_BUILD_ID, PK_RECORD_AUXTRACE_INFO,
		PK_RECORD_AUXTRACE,	  PK_RECORD_STAT_ROUND,	   PK_RECORD_FINISHED_INIT,
		PK_RECORD_FINISHED_ROUND, PK_RECORD_FINISHED_ROUND,
	};
	static const uint32_t kernel[] = {
		PERF_RECORD_COMM,	  PERF_RECORD_MMAP,	    PERF_RECORD_MMAP2,
		PERF_RECORD_MMAP2,	  PERF_RECORD_FORK,	    PERF_RECORD_EXIT,
		PERF_RECORD_LOST,	  PERF_RECORD_LOST_SAMPLES, PERF_RECORD_THROTTLE,
		PERF_RECORD_UNTHROTTLE,	  PERF_RECORD_SWITCH,	    PERF_RECORD_SWITCH_CPU_WIDE,
		PERF_RECORD_KSYMBOL,	  PERF_RECORD_BPF_EVENT,    PERF_RECORD_TEXT_POKE,
		PERF_RECORD_CGROUP,	  PERF_RECORD_NAMESPACES,   PERF_RECORD_READ,
		PERF_RECORD_AUX,	  PERF_RECORD_ITRACE_START, PERF_RECORD_AUX_OUTPUT_HW_ID,
	};
	const struct pk_data_event *ev;
	if (pipe) {	/* attrs and features first */
		for (int i = 0; i < 2; i++) {
			ev = next(r);
			assert_int_equal(ev->type, PK_RECORD_HEADER_ATTR);
			assert_int_equal(ev->u.attr.idx, i);
		}
		while ((ev = next(r)) && ev->type == PK_RECORD_HEADER_FEATURE)
			;
	} else {
		ev = next(r);
	}
	/* tool records as read; the queue's first round flushes nothing */
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++, ev = next(r)) {
		assert_non_null(ev);
		assert_int_equal(ev->type, tools[i]);
		assert_int_equal(ev->attr, -1);
		switch (ev->type) {
		case PK_RECORD_ID_INDEX:
			assert_int_equal(ev->u.id_index.nr, 2);
			assert_int_equal(ev->u.id_index.entries[4], RICH_ID1);
			break;
		case PK_RECORD_TIME_CONV:
			assert_int_equal(ev->u.time_conv.time_shift, 31);
			assert_int_equal(ev->u.time_conv.time_mult, 1000);
			assert_int_equal(ev->u.time_conv.time_zero, 5000);
			assert_true(ev->u.time_conv.has_cycles);
			assert_int_equal(ev->u.time_conv.time_cycles, 123);
			assert_int_equal(ev->u.time_conv.time_mask, 0xffff);
			assert_true(ev->u.time_conv.cap_user_time_short);
			break;
		case PK_RECORD_THREAD_MAP:
			assert_int_equal(ev->u.thread_map.nr, 2);
			assert_string_equal((const char *)ev->u.thread_map.entries + 24 + 8, "worker");
			break;
		case PK_RECORD_HEADER_BUILD_ID:
			assert_int_equal(ev->u.build_id.pid, 77);
			assert_int_equal(ev->u.build_id.size, 20);
			assert_string_equal(ev->u.build_id.filename, "/usr/bin/app");
			break;
		case PK_RECORD_AUXTRACE:
			assert_int_equal(ev->u.auxtrace.size, 16);
			assert_int_equal(ev->u.auxtrace.reference, 0x77);
			assert_int_equal(ev->u.auxtrace.tid, 78);
			assert_int_equal(ev->u.auxtrace.cpu, 1);
			break;
		}
	}
	/* the second round: every side-band record, by time (= file order) */
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++, ev = next(r)) {
		assert_non_null(ev);
		assert_int_equal(ev->type, kernel[i]);
		check_trailer(ev, 1000 + i);
		switch (ev->type) {
		case PERF_RECORD_COMM:
			assert_string_equal(ev->u.comm.comm, "worker");
			assert_true(ev->u.comm.exec);
			assert_int_equal(ev->u.comm.pid, 77);
			break;
		case PERF_RECORD_MMAP:
			assert_false(ev->u.mmap.mmap2);
			assert_true(ev->u.mmap.data);
			assert_int_equal(ev->u.mmap.start, 0x7000);
			assert_int_equal(ev->u.mmap.pgoff, 0x200);
			assert_string_equal(ev->u.mmap.filename, "/tmp/data.bin");
			break;
		case PERF_RECORD_MMAP2:
			assert_true(ev->u.mmap.mmap2);
			if (ev->u.mmap.has_build_id) {
				assert_int_equal(ev->u.mmap.build_id_size, 20);
				assert_int_equal(ev->u.mmap.build_id[19], 0xc0 + 19);
				/* perf 6.1's dso id: the build id's bytes where ino was */
				uint64_t ino;
				memcpy(&ino, ev->u.mmap.build_id + 4, 8);
				assert_int_equal(ev->u.mmap.ino, ino);
				assert_int_equal(ev->u.mmap.flags, MAP_SHARED);
				assert_string_equal(ev->u.mmap.filename, "/usr/lib/libbar.so");
			} else {
				assert_int_equal(ev->u.mmap.maj, 0xfe);
				assert_int_equal(ev->u.mmap.min, 1);
				assert_int_equal(ev->u.mmap.ino, 424242);
				assert_int_equal(ev->u.mmap.ino_generation, 7);
				assert_int_equal(ev->u.mmap.prot, PROT_READ | PROT_EXEC);
				assert_string_equal(ev->u.mmap.filename, "/usr/bin/app");
			}
			break;
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT:
			assert_int_equal(ev->u.task.pid, 77);
			assert_int_equal(ev->u.task.ppid, 70);
			assert_int_equal(ev->u.task.tid, 79);
			assert_int_equal(ev->u.task.ptid, 71);
			assert_int_equal(ev->u.task.time, 1000 + i);
			break;
		case PERF_RECORD_LOST:
			assert_int_equal(ev->u.lost.lost, 17);
			break;
		case PERF_RECORD_LOST_SAMPLES:
			assert_int_equal(ev->u.lost_samples.lost, 19);
			break;
		case PERF_RECORD_THROTTLE:
		case PERF_RECORD_UNTHROTTLE:
			assert_int_equal(ev->u.throttle.time, 1000 + i);
			assert_int_equal(ev->u.throttle.id, RICH_ID0);
			break;
		case PERF_RECORD_SWITCH:
			assert_true(ev->u.context_switch.out);
			assert_false(ev->u.context_switch.preempt);
			break;
		case PERF_RECORD_SWITCH_CPU_WIDE:
			assert_true(ev->u.context_switch.preempt);
			assert_int_equal(ev->u.context_switch.next_prev_pid, 500);
			assert_int_equal(ev->u.context_switch.next_prev_tid, 501);
			break;
		case PERF_RECORD_KSYMBOL:
			assert_int_equal(ev->u.ksymbol.len, 0x80);
			assert_int_equal(ev->u.ksymbol.ksym_type, 1);
			assert_string_equal(ev->u.ksymbol.name, "bpf_prog_x");
			break;
		case PERF_RECORD_BPF_EVENT:
			assert_int_equal(ev->u.bpf.id, 33);
			assert_int_equal(ev->u.bpf.tag[7], 8);
			break;
		case PERF_RECORD_TEXT_POKE:
			assert_int_equal(ev->u.text_poke.old_len, 2);
			assert_int_equal(ev->u.text_poke.new_len, 3);
			assert_int_equal(ev->u.text_poke.bytes[4], 5);
			break;
		case PERF_RECORD_CGROUP:
			assert_int_equal(ev->u.cgroup.id, 42);
			assert_string_equal(ev->u.cgroup.path, "/system.slice");
			break;
		case PERF_RECORD_NAMESPACES:
			assert_int_equal(ev->u.namespaces.nr, 2);
			assert_int_equal(ev->u.namespaces.link[3], 0xf0000002);
			break;
		case PERF_RECORD_READ: {
			assert_int_equal(ev->u.read.values.nr, 2);
			assert_int_equal(ev->u.read.values.time_enabled, 10);
			struct pk_sample_read_value v = pk_sample_read__value(&ev->u.read.values, 1);
			assert_int_equal(v.value, 222);
			assert_int_equal(v.id, RICH_ID1);
			break;
		}
		case PERF_RECORD_AUX:
			assert_int_equal(ev->u.aux.aux_size, 0x2000);
			assert_int_equal(ev->u.aux.flags, PERF_AUX_FLAG_TRUNCATED);
			break;
		case PERF_RECORD_ITRACE_START:
			assert_int_equal(ev->u.itrace_start.tid, 78);
			break;
		case PERF_RECORD_AUX_OUTPUT_HW_ID:
			assert_int_equal(ev->u.aux_output_hw_id.hw_id, 0x99);
			break;
		}
	}
	/* the final flush: samples by time, equal times in file order */
	static const struct {
		int attr;
		uint64_t i, time;
	} order[] = { { 0, 1, 1500 }, { 1, 0, 1600 }, { 0, 3, 1800 }, { 1, 1, 1900 },
		      { 0, 0, 2000 }, { 0, 5, 2200 }, { 1, 2, 2200 }, { 0, 2, 2500 },
		      { 1, 3, 2500 }, { 0, 4, 3000 } };
	for (size_t i = 0; i < 10; i++, ev = next(r)) {
		assert_non_null(ev);
		assert_int_equal(ev->type, PERF_RECORD_SAMPLE);
		if (order[i].attr == 0)
			check_sample0(ev, order[i].i, order[i].time);
		else
			check_sample1(ev, order[i].i, order[i].time);
	}
	assert_null(ev);
	assert_null(next(r));	/* the end stays the end */
	const struct pk_data_stats *st = pk_data_reader__stats(r);
	assert_int_equal(st->nr_records[PERF_RECORD_SAMPLE], 10);
	assert_int_equal(st->total_lost, 17);
	assert_int_equal(st->total_lost_samples, 19);
}

static void check_rich_env(const struct pk_data_reader *r)
{
	const struct pk_data_env *e = pk_data_reader__env(r);
	assert_string_equal(e->hostname, "host-a");
	assert_string_equal(e->osrelease, "6.1.0-test");
	assert_string_equal(e->version, "6.1.187");
	assert_string_equal(e->arch, "x86_64");
	assert_string_equal(e->cpudesc, "Test CPU");
	assert_string_equal(e->cpuid, "GenuineIntel,6,85,4");
	assert_true(e->has_nrcpus);
	assert_int_equal(e->nr_cpus_avail, 4);
	assert_int_equal(e->nr_cpus_online, 2);
	assert_int_equal(e->total_mem, 16384000);
	assert_int_equal(e->nr_cmdline, 3);
	assert_string_equal(e->cmdline[2], "-g");
	assert_int_equal(e->nr_core_siblings, 1);
	assert_int_equal(e->nr_thread_siblings, 2);
	assert_string_equal(e->thread_siblings[1], "2-3");
	assert_int_equal(e->nr_cpu_topo, 4);
	assert_int_equal(e->cpu_topo[3].core_id, 1);
	assert_int_equal(e->cpu_topo[3].die_id, 0);
	assert_int_equal(e->nr_die_siblings, 1);
	assert_int_equal(e->nr_pmu_mappings, 2);
	assert_string_equal(e->pmu_mappings[1].name, "software");
	assert_int_equal(e->pmu_mappings[0].type, 4);
	assert_int_equal(e->nr_groups, 1);
	assert_int_equal(e->clockid_res_ns, 1);
	assert_true(e->has_clock_data);
	assert_int_equal(e->clockid, 1);
	assert_int_equal(e->clock_clockid_ns, 123456789);
	assert_true(e->has_compressed);
	assert_int_equal(e->comp_level, 3);
	assert_int_equal(e->comp_mmap_len, 528384);
	assert_int_equal(e->first_sample_time, 1000);
	assert_int_equal(e->last_sample_time, 9000000);
	/* build-ids: the section's two, then the record's (read by now) */
	assert_int_equal(pk_data_reader__nr_build_ids(r), 3);
	const struct pk_data_build_id *b = pk_data_reader__build_id(r, 0);
	assert_int_equal(b->pid, -1);
	assert_int_equal(b->size, 20);
	assert_int_equal(b->id[19], 20);
	assert_string_equal(b->filename, "[kernel.kallsyms]");
	b = pk_data_reader__build_id(r, 1);
	assert_int_equal(b->pid, 77);
	assert_int_equal(b->size, 16);
	assert_int_equal(b->misc, PERF_RECORD_MISC_USER);
	assert_string_equal(b->filename, "/usr/lib/libfoo.so");
	/* attrs: names from EVENT_DESC, then EVENT_UPDATE; the group */
	assert_int_equal(pk_data_reader__nr_attrs(r), 2);
	const struct pk_data_attr *a0 = pk_data_reader__attr(r, 0), *a1 = pk_data_reader__attr(r, 1);
	assert_string_equal(a0->name, "cycles:pp");
	assert_string_equal(a1->name, "page-faults");
	assert_string_equal(a1->unit, "faults");
	assert_true(a1->scale == 0.5);
	assert_int_equal(a0->leader, 0);
	assert_int_equal(a1->leader, 0);
	assert_int_equal(a0->nr_members, 2);
	assert_string_equal(a0->group_name, "{cycles:pp,page-faults}");
	assert_int_equal(a0->attr.sample_type, RICH_T0);
	assert_int_equal(a0->attr.precise_ip, 1);
	assert_int_equal(a1->attr.precise_ip, 2);
	assert_int_equal(a0->attr.clockid, 1);
	assert_int_equal(a0->attr.sig_data, 0x5151);
	assert_int_equal(a0->nr_ids, 1);
	assert_int_equal(a0->ids[0], RICH_ID0);
	assert_int_equal(pk_data_reader__attr_of_id(r, RICH_ID1), 1);
	assert_int_equal(pk_data_reader__attr_of_id(r, 12345), -1);
	int32_t cpu, tid;
	assert_int_equal(pk_data_reader__id_info(r, RICH_ID1, &cpu, &tid), 0);
	assert_int_equal(cpu, 1);
	assert_int_equal(tid, 78);
	size_t sz;
	assert_non_null(pk_data_reader__feat_data(r, PK_FEAT_HOSTNAME, &sz));
	assert_int_equal(sz, 4 + 64);
	assert_null(pk_data_reader__feat_data(r, PK_FEAT_NUMA_TOPOLOGY, &sz));
	assert_false(pk_data_reader__has_feat(r, PK_FEAT_NUMA_TOPOLOGY));
}

static void test_rich_file(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, false, 128, NULL);
	int fd;
	struct pk_data_reader *r = open_bytes(&b, &fd, NULL);
	assert_false(pk_data_reader__is_pipe(r));
	assert_false(pk_data_reader__needs_swap(r));
	check_rich(r, false);
	check_rich_env(r);
	pk_data_reader__free(r);
	close(fd);
	pk_buf__free(&b);
}

static void test_rich_pipe(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, true, 128, NULL);
	/* a real pipe */
	struct pipe_src ps;
	int fd = pipe_open(&ps, b.data, b.len);
	struct pk_data_reader *r;
	struct pk_error err;
	assert_int_equal(pk_data_reader__open_fd(&r, fd, "pipe", NULL, &err), 0);
	assert_true(pk_data_reader__is_pipe(r));
	check_rich(r, true);
	check_rich_env(r);
	pk_data_reader__free(r);
	pipe_close(&ps);
	/* a pipe-mode file: same digest as the pipe; the file mode one without offsets */
	char *p = dg_bytes(b.data, b.len, NULL, true, true);
	char *f = dg_bytes(b.data, b.len, NULL, false, true);
	assert_string_equal(p, f);
	free(p);
	free(f);
	pk_buf__free(&b);
}

/* attrs of perf 6.3+ (config3) and later (unknown words past it) */
static void test_larger_attrs(void **state)
{
	(void)state;
	uint8_t extra[24] = { 0 };
	uint64_t c3 = 0xc3c3, more = 0;
	memcpy(extra, &c3, 8);	/* config3 at 128 */
	memcpy(extra + 8, &more, 8);
	for (int pipe = 0; pipe < 2; pipe++) {
		for (int nonzero = 0; nonzero < 2; nonzero++) {
			extra[16] = (uint8_t)nonzero;
			struct pk_buf b;
			rich_build(&b, pipe, 152, extra);
			int fd;
			struct pk_data_reader *r = open_bytes(&b, &fd, NULL);
			check_rich(r, pipe);
			const struct pk_data_attr *a = pk_data_reader__attr(r, 0);
			assert_int_equal(a->attr.size, 152);
			assert_int_equal(a->config3, 0xc3c3);
			assert_int_equal(a->nr_extra, 16);
			assert_int_equal(a->extra_nonzero, nonzero);
			assert_int_equal(a->attr.sample_type, RICH_T0);
			pk_data_reader__free(r);
			close(fd);
			/* the same events as the 128-byte attrs */
			struct pk_buf b0;
			rich_build(&b0, pipe, 128, NULL);
			char *d0 = dg_bytes(b0.data, b0.len, NULL, false, false);
			char *d1 = dg_bytes(b.data, b.len, NULL, false, false);
			char *cut0 = strstr(d0, "attr 0"), *cut1 = strstr(d1, "attr 0");
			*cut0 = *cut1 = 0;
			/* HEADER_ATTR records differ in size: compare what follows them */
			char *s0 = d0, *s1 = d1;
			while (!strncmp(s0, "t=64 ", 5))
				s0 = strchr(s0, '\n') + 1;
			while (!strncmp(s1, "t=64 ", 5))
				s1 = strchr(s1, '\n') + 1;
			assert_string_equal(s0, s1);
			free(d0);
			free(d1);
			pk_buf__free(&b);
			pk_buf__free(&b0);
		}
	}
}

/* The rich records again, compressed: one zstd stream cut into chunks anywhere. */
static void build_compressed(struct pk_buf *out, bool pipe, uint32_t type, const size_t *cuts,
			     size_t nr_cuts)
{
	struct syn s = { .pipe = pipe };
	rich_attrs(&s, 128, NULL);
	rich_features(&s);
	struct pk_buf recs = { 0 };
	rich_records(&recs);
	/* the AUXTRACE payload must stay out of compressed data: cut the records at it */
	syn_compressed(&s, recs.data, recs.len, cuts, nr_cuts, type);
	syn_build(&s, out);
	syn_free(&s);
	pk_buf__free(&recs);
}

static void test_compressed(void **state)
{
	(void)state;
	static const size_t cuts[][6] = { { 1, 1, 7, 13, 100, 5 }, { 3000 }, { 17, 250, 2, 9, 64, 33 } };
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pk_buf plain;
		rich_build(&plain, pipe, 128, NULL);
		char *want = dg_bytes(plain.data, plain.len, NULL, false, false);
		for (uint32_t type = PK_RECORD_COMPRESSED; type <= PK_RECORD_COMPRESSED2; type += 2) {
			for (size_t c = 0; c < 3; c++) {
				struct pk_buf z;
				build_compressed(&z, pipe, type, cuts[c], 6);
				for (int as_pipe = 0; as_pipe <= pipe; as_pipe++) {
					char *got = dg_bytes(z.data, z.len, NULL, as_pipe, false);
					assert_string_equal(got, want);
					free(got);
				}
				/* every decompressed record says so, with its chunk's offset */
				int fd;
				struct pk_data_reader *r = open_bytes(&z, &fd, NULL);
				const struct pk_data_event *ev;
				size_t nr = 0;
				while ((ev = next(r)))
					if (ev->type == PERF_RECORD_SAMPLE) {
						assert_true(ev->decompressed);
						uint32_t t;
						uint64_t at = ev->offset + (pipe ? 16 : 0);
						memcpy(&t, z.data + at, 4);
						assert_int_equal(t, type);
						nr++;
					}
				assert_int_equal(nr, 10);
				assert_true(pk_data_reader__stats(r)->bytes_decompressed > 0);
				pk_data_reader__free(r);
				close(fd);
				pk_buf__free(&z);
			}
		}
		free(want);
		pk_buf__free(&plain);
	}
}

/* ---- ids to attrs --------------------------------------------------------------------------- */

static void two_attrs(struct syn *s, uint64_t type, bool ids)
{
	uint64_t id[2] = { 11, 22 };
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = (uint64_t)i };
		a.sample_type = type;
		a.sample_id_all = 1;
		syn_attr(s, &a, 128, NULL, ids ? &id[i] : NULL, ids ? 1 : 0);
	}
}

static void test_ids(void **state)
{
	(void)state;
	/* PERF_SAMPLE_ID (not IDENTIFIER): its position from sample_type */
	uint64_t t = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	struct syn s = { 0 };
	two_attrs(&s, t, true);
	struct rb r;
	uint64_t ids[] = { 22, 11, 0, 22 };
	for (int i = 0; i < 4; i++) {
		rb_start(&r, PERF_RECORD_SAMPLE, 0);
		rb_u64(&r, 0x1000 + (uint64_t)i);
		rb_u32x2(&r, 1, 1);
		rb_u64(&r, 10 + (uint64_t)i);
		rb_u64(&r, 0xa);
		rb_u64(&r, ids[i]);
		rb_u32x2(&r, 0, 0);
		rb_u64(&r, 1);
		syn_rec(&s, rb_end(&r));
	}
	/* a side-band record: trailer TID, TIME, ID, CPU; its id from the end */
	rb_start(&r, PERF_RECORD_COMM, 0);
	rb_u32x2(&r, 1, 1);
	rb_str(&r, "x");
	rb_u32x2(&r, 1, 1);
	rb_u64(&r, 20);
	rb_u64(&r, 22);
	rb_u32x2(&r, 3, 0);
	syn_rec(&s, rb_end(&r));
	struct pk_buf b;
	syn_build(&s, &b);
	int fd;
	struct pk_data_reader *rd = open_bytes(&b, &fd, NULL);
	int want[] = { 1, 0, 0, 1, 1 };
	const struct pk_data_event *ev;
	for (int i = 0; (ev = next(rd)); i++) {
		assert_int_equal(ev->attr, want[i]);
		if (i == 4) {
			assert_int_equal(ev->sample.time, 20);
			assert_int_equal(ev->sample.cpu, 3);
		} else {
			assert_int_equal(ev->sample.addr, 0xa);
			assert_int_equal(ev->sample.id, ids[i]);
		}
	}
	pk_data_reader__free(rd);
	close(fd);
	pk_buf__free(&b);
	/* an id no attr has: an error naming the record's offset */
	uint64_t data_off;
	rb_start(&r, PERF_RECORD_SAMPLE, 0);
	for (int k = 0; k < 4; k++)
		rb_u64(&r, 0);
	rb_u64(&r, 99);
	rb_u64(&r, 0);
	rb_u64(&r, 0);
	syn_rec(&s, rb_end(&r));
	syn_build(&s, &b);
	memcpy(&data_off, b.data + 40, 8);
	rd = open_bytes(&b, &fd, NULL);
	struct pk_error err;
	int rc;
	size_t before = 0;
	while ((rc = pk_data_reader__next(rd, &ev, &err)) > 0)
		before++;
	assert_int_equal(before, 5);	/* the records queued before it still come out */
	assert_int_equal(rc, -EINVAL);
	char want_msg[128];
	snprintf(want_msg, sizeof(want_msg), "offset %#llx: record type 9: id 99 belongs to no attr",
		 (unsigned long long)(data_off + s.data.len - r.len));
	assert_string_equal(err.msg, want_msg);
	assert_string_equal(err.file, "mem");
	assert_int_equal(pk_data_reader__next(rd, &ev, &err), -EINVAL);	/* sticks */
	pk_data_reader__free(rd);
	close(fd);
	pk_buf__free(&b);
	syn_free(&s);

	/* attrs without ids: every record is the first attr's */
	s = (struct syn){ 0 };
	two_attrs(&s, PERF_SAMPLE_IP | PERF_SAMPLE_TIME, false);
	rb_start(&r, PERF_RECORD_SAMPLE, 0);
	rb_u64(&r, 0x42);
	rb_u64(&r, 7);
	syn_rec(&s, rb_end(&r));
	syn_build(&s, &b);
	rd = open_bytes(&b, &fd, NULL);
	ev = next(rd);
	assert_int_equal(ev->attr, 0);
	assert_int_equal(ev->sample.ip, 0x42);
	assert_int_equal(ev->sample.time, 7);
	assert_int_equal(ev->sample.pid, -1);
	assert_null(next(rd));
	pk_data_reader__free(rd);
	close(fd);
	pk_buf__free(&b);
	syn_free(&s);
}

/*
 * The fields a sample does not have are zero whatever the sample before it
 * had: the reader clears the raw data, read values and later fields only
 * when the last sample set some.
 */
static void test_fields_cleared(void **state)
{
	(void)state;
	struct syn s = { 0 };
	uint64_t id[3] = { 11, 22, 33 };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_id_all = 1 };
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_READ |
			PERF_SAMPLE_RAW;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	syn_attr(&s, &a, 128, NULL, &id[0], 1);
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP;
	a.read_format = 0;
	a.config = 1;
	syn_attr(&s, &a, 128, NULL, &id[1], 1);
	/* read values without raw data: the common path's */
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.config = 2;
	syn_attr(&s, &a, 128, NULL, &id[2], 1);
	struct rb r;
	const int which[] = { 1, 0, 1, 1, 2, 1, 2, 0, 2, 1 };
	const int n = (int)(sizeof(which) / sizeof(which[0]));
	for (int i = 0; i < n; i++) {
		rb_start(&r, PERF_RECORD_SAMPLE, 0);
		rb_u64(&r, id[which[i]]);
		rb_u64(&r, 0x1000 + (uint64_t)i);
		if (which[i] != 1) {
			rb_u64(&r, 5);		/* value */
			rb_u64(&r, 6);		/* time_enabled */
		}
		if (!which[i]) {
			rb_u32(&r, 4);		/* raw size */
			rb_u32(&r, 0xdeadbeef);
		}
		syn_rec(&s, rb_end(&r));
	}
	struct pk_buf b;
	syn_build(&s, &b);
	int fd;
	struct pk_data_reader *rd = open_bytes(&b, &fd, NULL);
	const struct pk_data_event *ev;
	int i = 0;
	for (; (ev = next(rd)); i++) {
		assert_int_equal(ev->attr, which[i]);
		assert_int_equal(ev->sample.ip, 0x1000 + (uint64_t)i);
		if (which[i] != 1) {
			assert_int_equal(ev->sample.raw.size, which[i] ? 0 : 4);
			assert_int_equal(ev->sample.read.one.value, 5);
			assert_int_equal(ev->sample.read.time_enabled, 6);
			continue;
		}
		assert_int_equal(ev->sample.raw.size, 0);
		assert_null(ev->sample.raw.data);
		assert_int_equal(ev->sample.read.one.value, 0);
		assert_int_equal(ev->sample.read.time_enabled, 0);
		assert_int_equal(ev->sample.read.read_format, 0);
		assert_null(ev->sample.read.group);
	}
	assert_int_equal(i, n);
	pk_data_reader__free(rd);
	close(fd);
	pk_buf__free(&b);
	syn_free(&s);
}

/* ---- headers ----------------------------------------------------------------------------------- */

static void expect_open_error(const void *p, size_t n, const char *msg_part)
{
	int fd = mem_fd(p, n);
	struct pk_data_reader *r = (void *)1;
	struct pk_error err = { 0 };
	int rc = pk_data_reader__open_fd(&r, fd, "bad.data", NULL, &err);
	assert_true(rc < 0);
	assert_null(r);
	if (!strstr(err.msg, msg_part))
		fail_msg("'%s' lacks '%s'", err.msg, msg_part);
	assert_string_equal(err.file, "bad.data");
	close(fd);
}

static void test_bad_headers(void **state)
{
	(void)state;
	char v1[128] = "PERFFILE";
	expect_open_error(v1, sizeof(v1), "a version 1 perf.data whose attr entry size 0 is no known one");
	expect_open_error("hello world, not perf data", 26, "offset 0: not a perf.data file");
	expect_open_error("PERFILE2", 8, "too short for a perf.data header");
	struct pk_buf b;
	rich_build(&b, false, 128, NULL);
	/* cut before its records: nothing to recover (cut after: read with a warning,
	 * test_data_read_corrupt.c) */
	expect_open_error(b.data, sizeof(struct pk_perf_file_header) + 8, "outside the file");
	uint64_t bad = 77;
	memcpy(b.data + 8, &bad, 8);
	expect_open_error(b.data, b.len, "header size 77");
	pk_buf__free(&b);
	/* a file-mode perf.data can not come through a pipe */
	rich_build(&b, false, 128, NULL);
	struct pipe_src ps;
	int fd = pipe_open(&ps, b.data, b.len);
	struct pk_data_reader *r;
	struct pk_error err;
	assert_int_equal(pk_data_reader__open_fd(&r, fd, "p", NULL, &err), -ESPIPE);
	pipe_close(&ps);
	pk_buf__free(&b);
	/* opts with a bad size */
	struct pk_data_reader_opts o = { .sz = 3 };
	rich_build(&b, false, 128, NULL);
	fd = mem_fd(b.data, b.len);
	assert_int_equal(pk_data_reader__open_fd(&r, fd, "x", &o, &err), -EINVAL);
	close(fd);
	pk_buf__free(&b);
	assert_int_equal(pk_data_reader__open(&r, "/nonexistent/perf.data", NULL, &err), -ENOENT);
}

/* file order: records as stored */
static void test_file_order(void **state)
{
	(void)state;
	struct pk_buf b;
	rich_build(&b, false, 128, NULL);
	struct pk_data_reader_opts o = { .sz = sizeof(o), .order = PK_DATA_ORDER_FILE };
	int fd;
	struct pk_data_reader *r = open_bytes(&b, &fd, &o);
	const struct pk_data_event *ev;
	uint64_t last = 0;
	size_t n = 0;
	while ((ev = next(r))) {
		assert_true(ev->offset >= last);
		last = ev->offset;
		n++;
	}
	assert_int_equal(n, 21 + 17 + 10);
	pk_data_reader__free(r);
	close(fd);
	pk_buf__free(&b);
}

static void test_cpu_map(void **state)
{
	(void)state;
	int32_t c[8];
	uint8_t bad[3] = { 7, 0, 0 };
	assert_int_equal(pk_data__cpu_map(bad, 3, c, 8), -EINVAL);
	uint16_t list[] = { 0, 3, 5, 6, 7 };
	assert_int_equal(pk_data__cpu_map(list, sizeof(list), c, 2), 3);	/* counted past max */
	assert_int_equal(c[1], 6);
	assert_int_equal(pk_data__cpu_map(list, 8, c, 8), -EINVAL);	/* 3 cpus need 10 bytes */
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rich_file),    cmocka_unit_test(test_rich_pipe),
		cmocka_unit_test(test_larger_attrs), cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_ids),	     cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_file_order),   cmocka_unit_test(test_cpu_map),
		cmocka_unit_test(test_fields_cleared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
