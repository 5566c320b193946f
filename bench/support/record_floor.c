/* SPDX-License-Identifier: MIT */
/*
 * bench/support/record_floor.c — the least any `record -e cpu-clock CMD` can
 * do, as a yardstick for pmukit record's start-up: start CMD held before
 * exec (clone sharing memory, a pipe to release it), open cpu-clock on it on
 * every online CPU with enable_on_exec (perf record's default frequency),
 * mmap one ring buffer per CPU, release it, wait, drain the buffers into
 * FILE and write a perf.data header (attrs with their ids, the data
 * section). No options, no tables, no side-band, no feature sections.
 * Linked statically like the pmukit CLI.
 *
 *   record_floor FILE CMD [ARGS]
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

#define MAX_CPUS 1024
#define DATA_PAGES 128

struct args {
	char **argv;
	int go;
};

static int child(void *p)
{
	struct args *a = p;
	char c;
	if (read(a->go, &c, 1) != 1)
		_exit(127);
	execvp(a->argv[0], a->argv);
	_exit(127);
}

int main(int argc, char **argv)
{
	static char stack[64 * 1024];
	static int fds[MAX_CPUS];
	static uint64_t ids[MAX_CPUS];
	static void *maps[MAX_CPUS];
	int gp[2], st, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (DATA_PAGES + 1) * page;

	if (argc < 3 || ncpu < 1 || ncpu > MAX_CPUS || pipe2(gp, O_CLOEXEC))
		return 2;
	int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct args a = { .argv = argv + 2, .go = gp[0] };
	pid_t pid = clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD, &a);
	if (out < 0 || pid < 0)
		return 2;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = 4000, .freq = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.read_format = PERF_FORMAT_ID, .disabled = 1, .inherit = 1, .enable_on_exec = 1,
		.mmap = 1, .comm = 1, .task = 1, .sample_id_all = 1, .exclude_guest = 1,
	};
	attr.size = 128;
	for (int c = 0; c < ncpu; c++) {
		fds[c] = (int)syscall(SYS_perf_event_open, &attr, pid, c, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[c] < 0 || ioctl(fds[c], PERF_EVENT_IOC_ID, &ids[c]))
			return 2;
		maps[c] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fds[c], 0);
		if (maps[c] == MAP_FAILED)
			return 2;
	}
	if (write(gp[1], "g", 1) != 1)
		return 2;
	close(gp[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* header, attrs (attr then its ids' section), ids, then the data */
	struct {
		uint64_t magic, size, attr_size;
		uint64_t attrs[2], data[2], types[2];
		uint64_t features[4];
	} h = { .magic = 0x32454c4946524550ULL, .size = sizeof(h), .attr_size = 128 + 16 };
	uint64_t ids_off = sizeof(h), attrs_off = ids_off + (uint64_t)ncpu * 8;
	uint64_t data_off = attrs_off + h.attr_size, data_size = 0;
	unsigned char entry[128 + 16];
	memcpy(entry, &attr, 128);
	uint64_t sec[2] = { ids_off, (uint64_t)ncpu * 8 };
	memcpy(entry + 128, sec, 16);
	if (pwrite(out, ids, sec[1], (off_t)ids_off) < 0 || pwrite(out, entry, sizeof(entry), (off_t)attrs_off) < 0)
		return 2;
	for (int c = 0; c < ncpu; c++) {
		struct perf_event_mmap_page *pg = maps[c];
		unsigned char *d = (unsigned char *)maps[c] + page;
		uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
		uint64_t size = DATA_PAGES * page;
		while (tail < head) {	/* at most two pieces: up to the end, from the start */
			uint64_t off = tail & (size - 1), n = head - tail;
			if (n > size - off)
				n = size - off;
			if (pwrite(out, d + off, n, (off_t)(data_off + data_size)) < 0)
				return 2;
			data_size += n;
			tail += n;
		}
		__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	}
	h.attrs[0] = attrs_off;
	h.attrs[1] = h.attr_size;
	h.data[0] = data_off;
	h.data[1] = data_size;
	if (pwrite(out, &h, sizeof(h), 0) < 0)
		return 2;
	close(out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
