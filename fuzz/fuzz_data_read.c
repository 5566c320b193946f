/* SPDX-License-Identifier: MIT */
/*
 * fuzz_data_read.c — libFuzzer target for the perf.data reader
 * (pmukit/data_read.h). The input's first byte picks how it is read: file
 * mode (a memfd, mapped) or a real pipe (inputs up to 60000 bytes), perf's
 * order or file order, the smallest mapped window, a tiny ordering queue,
 * the read-ahead thread;
 * the rest is the file. Every event is read to the end and its decoded
 * arrays walked; the attrs, features and tracepoint formats are read back.
 * On error the message must name an offset ("offset 0x...: ..."). Seeds:
 * `make fuzz-smoke` records small files with perf into build/fuzz/seeds-data_read.
 *   build/fuzz/bin/fuzz_data_read -max_total_time=300 CORPUS build/fuzz/seeds-data_read
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pmukit/data_read.h>

static void check(int ok)
{
	if (!ok)
		abort();
}

static volatile uint64_t sink;

static void walk(const struct pk_data_event *ev)
{
	const struct pk_sample *s = &ev->sample;
	uint64_t x = ev->type + ev->size + ev->offset;
	check(ev->raw && ev->raw->size == ev->size && ev->size >= 8);
	for (uint64_t i = 0; i < s->callchain.nr; i++)
		x += s->callchain.ips[i];
	for (uint64_t i = 0; i < s->branch.nr; i++)
		x += s->branch.entries[i].from + (s->branch.counters ? s->branch.counters[i] : 0);
	for (uint32_t i = 0; i < s->raw.size; i++)
		x += ((const uint8_t *)s->raw.data)[i];
	for (unsigned i = 0; i < s->user_regs.nr; i++)
		x += s->user_regs.regs[i];
	for (unsigned i = 0; i < s->intr_regs.nr; i++)
		x += s->intr_regs.regs[i];
	for (uint64_t i = 0; i < s->user_stack.size; i++)
		x += s->user_stack.data[i];
	for (uint64_t i = 0; i < s->aux.size; i++)
		x += ((const uint8_t *)s->aux.data)[i];
	if (s->sample_type & PERF_SAMPLE_READ)
		for (uint64_t i = 0; i < s->read.nr; i++)
			x += pk_sample_read__value(&s->read, i).value;
	switch (ev->type) {
	case PERF_RECORD_COMM:
		x += strlen(ev->u.comm.comm);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		x += strlen(ev->u.mmap.filename);
		for (unsigned i = 0; ev->u.mmap.has_build_id && i < ev->u.mmap.build_id_size; i++)
			x += ev->u.mmap.build_id[i];
		break;
	case PERF_RECORD_NAMESPACES:
		for (uint64_t i = 0; i < 2 * ev->u.namespaces.nr; i++)
			x += ev->u.namespaces.link[i];
		break;
	case PERF_RECORD_KSYMBOL:
		x += strlen(ev->u.ksymbol.name);
		break;
	case PERF_RECORD_CGROUP:
		x += strlen(ev->u.cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		for (unsigned i = 0; i < (unsigned)ev->u.text_poke.old_len + ev->u.text_poke.new_len; i++)
			x += ev->u.text_poke.bytes[i];
		break;
	case PK_RECORD_ID_INDEX:
		for (uint64_t i = 0; i < 4 * ev->u.id_index.nr; i++)
			x += ev->u.id_index.entries[i];
		break;
	case PK_RECORD_THREAD_MAP:
		for (uint64_t i = 0; i < 24 * ev->u.thread_map.nr; i++)
			x += ((const uint8_t *)ev->u.thread_map.entries)[i];
		break;
	case PK_RECORD_CPU_MAP: {
		int32_t cpus[64];
		x += (uint64_t)pk_data__cpu_map(ev->u.cpu_map.data, ev->u.cpu_map.size, cpus, 64);
		break;
	}
	case PK_RECORD_EVENT_UPDATE:
		if (ev->u.event_update.str)
			x += strlen(ev->u.event_update.str);
		break;
	case PK_RECORD_HEADER_BUILD_ID:
		x += strlen(ev->u.build_id.filename);
		break;
	}
	sink += x;
}

static void after(const struct pk_data_reader *r)
{
	uint64_t x = 0;
	const struct pk_data_env *e = pk_data_reader__env(r);
	for (uint32_t i = 0; i < e->nr_cmdline; i++)
		x += strlen(e->cmdline[i]);
	for (uint32_t i = 0; i < e->nr_core_siblings; i++)
		x += strlen(e->core_siblings[i]);
	for (uint32_t i = 0; i < e->nr_thread_siblings; i++)
		x += strlen(e->thread_siblings[i]);
	for (uint32_t i = 0; i < e->nr_die_siblings; i++)
		x += strlen(e->die_siblings[i]);
	for (uint32_t i = 0; i < e->nr_cpu_topo; i++)
		x += (uint64_t)e->cpu_topo[i].core_id;
	for (uint32_t i = 0; i < e->nr_pmu_mappings; i++)
		x += strlen(e->pmu_mappings[i].name);
	for (uint32_t i = 0; i < e->nr_groups; i++)
		x += e->groups[i].name ? strlen(e->groups[i].name) : 0;
	for (size_t i = 0; i < pk_data_reader__nr_build_ids(r); i++)
		x += strlen(pk_data_reader__build_id(r, i)->filename);
	for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
		const struct pk_data_attr *a = pk_data_reader__attr(r, i);
		x += a->name ? strlen(a->name) : 0;
		for (size_t k = 0; k < a->nr_ids; k++)
			check(pk_data_reader__attr_of_id(r, a->ids[k]) >= 0);
		for (uint32_t k = 0; k < a->nr_extra; k++)
			x += a->extra[k];
		check(a->leader >= 0 && (size_t)a->leader < pk_data_reader__nr_attrs(r));
	}
	for (size_t i = 0; i < pk_data_reader__nr_tp_formats(r); i++) {
		const struct pk_tp_format *f = pk_data_reader__tp_format_at(r, i);
		check(pk_data_reader__tp_format(r, f->id) != NULL);
		for (size_t k = 0; k < f->nr_fields; k++)
			x += strlen(f->fields[k].name) + strlen(f->fields[k].type);
	}
	size_t sz;
	for (unsigned f = 0; f < PK_FEAT_BITS; f++)
		if (pk_data_reader__feat_data(r, f, &sz))
			x += sz;
	sink += x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	uint8_t how = data[0];
	data++;
	size--;
	struct pk_data_reader_opts o = { .sz = sizeof(o) };
	if (how & 2)
		o.order = PK_DATA_ORDER_FILE;
	if (how & 4)
		o.window_bytes = 1;
	if (how & 8)
		o.queue_bytes = 512;
	if (how & 16)
		o.read_ahead = true;	/* (a mapped file only: pipes are read here) */
	bool pipe_mode = (how & 1) && size <= 60000;
	int fds[2] = { -1, -1 }, fd;
	if (pipe_mode) {
		if (pipe(fds))
			return 0;
		if (size && write(fds[1], data, size) != (ssize_t)size) {
			close(fds[0]);
			close(fds[1]);
			return 0;
		}
		close(fds[1]);
		fd = fds[0];
	} else {
		fd = memfd_create("fuzz.data", MFD_CLOEXEC);
		if (fd < 0)
			return 0;
		if (size && write(fd, data, size) != (ssize_t)size) {
			close(fd);
			return 0;
		}
	}
	struct pk_data_reader *r;
	struct pk_error err = { 0 };
	int rc = pk_data_reader__open_fd(&r, fd, "fuzz", &o, &err);
	if (rc) {
		check(rc < 0 && !r && err.code == rc && !strncmp(err.msg, "offset ", 7));
		close(fd);
		return 0;
	}
	const struct pk_data_event *ev;
	while ((rc = pk_data_reader__next(r, &ev, &err)) > 0)
		walk(ev);
	if (rc < 0) {
		check(err.code == rc && !strncmp(err.msg, "offset ", 7));
		check(pk_data_reader__next(r, &ev, &err) == rc && !ev);
	} else {
		check(pk_data_reader__next(r, &ev, &err) == 0);
	}
	after(r);
	pk_data_reader__free(r);
	close(fd);
	return 0;
}
