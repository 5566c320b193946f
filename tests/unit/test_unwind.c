/* SPDX-License-Identifier: MIT */
/*
 * test_unwind.c — the session's unwinder (lib/session/unwind.c) on samples
 * of this process itself: the user registers and the top of the stack are
 * taken inside a chain of functions of this binary (leaf <- mid <- top <-
 * the test), written as a --call-graph dwarf sample of a perf.data built
 * here with this binary's maps as MMAP2 records, and unwound by the
 * session: the frames are the chain's functions, callee first, the first
 * one the ip itself; max_stack cuts them (counted apart from the kernel's
 * entries); a dump cut short stops the chain (in no map: there; in the
 * stack's map: at perf's "0 - 1" frame); no ip register, no dump, no
 * frames; the Dwfl of a process serves its next samples (same locations);
 * on x86_64, a frame whose CFA is in rbx under a leaf that does not save it
 * (found) and under one whose rbx save slot is below the stack pointer (not).
 * The registers are this arch's (x86_64 or aarch64: make check-cross runs
 * this under qemu-aarch64), named by the file's arch feature.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>

#include <pmukit/perf_data.h>
#include <pmukit/session.h>

#include "test_data_read.h"

#if defined(__x86_64__)
#define ARCH "x86_64"
/* perf's x86_64 mask: AX..SS and R8..R15 (no DS, ES, FS, GS) */
#define REGS_MASK UINT64_C(0xff0fff)
#define REG_IP 8
#define REG_SP 7
#elif defined(__aarch64__)
#define ARCH "aarch64"
#define REGS_MASK ((UINT64_C(1) << 33) - 1)
#define REG_IP 32
#define REG_SP 31
#endif

#define STACK_BYTES 8192
#define PID 4242

struct snap {
	uint64_t regs[33];		/* by perf_regs number */
	uint64_t sp;
	uint8_t stack[STACK_BYTES];
	size_t nr_stack;
};

static struct snap snap;
static volatile int sink;

#ifdef ARCH
/* The registers at this point of the caller, by perf_regs number. */
#if defined(__x86_64__)
#define CAPTURE(r)                                                                         \
	__asm__ volatile("movq %%rax, 0(%0)\n\tmovq %%rbx, 8(%0)\n\tmovq %%rcx, 16(%0)\n\t"  \
			 "movq %%rdx, 24(%0)\n\tmovq %%rsi, 32(%0)\n\tmovq %%rdi, 40(%0)\n\t" \
			 "movq %%rbp, 48(%0)\n\tmovq %%rsp, 56(%0)\n\t"                       \
			 "movq %%r8, 128(%0)\n\tmovq %%r9, 136(%0)\n\tmovq %%r10, 144(%0)\n\t" \
			 "movq %%r11, 152(%0)\n\tmovq %%r12, 160(%0)\n\tmovq %%r13, 168(%0)\n\t" \
			 "movq %%r14, 176(%0)\n\tmovq %%r15, 184(%0)\n\t"                     \
			 "leaq 0(%%rip), %%rax\n\tmovq %%rax, 64(%0)"                          \
			 : : "r"(r) : "rax", "memory")
#else
#define CAPTURE(r)                                                                         \
	__asm__ volatile("stp x0, x1, [%0, #0]\n\tstp x2, x3, [%0, #16]\n\t"                   \
			 "stp x4, x5, [%0, #32]\n\tstp x6, x7, [%0, #48]\n\t"                  \
			 "stp x8, x9, [%0, #64]\n\tstp x10, x11, [%0, #80]\n\t"                \
			 "stp x12, x13, [%0, #96]\n\tstp x14, x15, [%0, #112]\n\t"             \
			 "stp x16, x17, [%0, #128]\n\tstp x18, x19, [%0, #144]\n\t"            \
			 "stp x20, x21, [%0, #160]\n\tstp x22, x23, [%0, #176]\n\t"            \
			 "stp x24, x25, [%0, #192]\n\tstp x26, x27, [%0, #208]\n\t"            \
			 "stp x28, x29, [%0, #224]\n\tstr x30, [%0, #240]\n\t"                 \
			 "mov x9, sp\n\tstr x9, [%0, #248]\n\tadr x9, .\n\tstr x9, [%0, #256]" \
			 : : "r"(r) : "x9", "memory")
#endif

/* the stack above sp, as the kernel copies it (not through ASan's checks of other frames) */
__attribute__((noinline, no_sanitize_address)) static size_t copy_stack(uint8_t *dst, uint64_t sp)
{
	pthread_attr_t at;
	void *lo;
	size_t size, n = STACK_BYTES;
	if (!pthread_getattr_np(pthread_self(), &at)) {
		if (!pthread_attr_getstack(&at, &lo, &size) && (uintptr_t)lo + size - sp < n)
			n = (size_t)((uintptr_t)lo + size - sp);
		pthread_attr_destroy(&at);
	}
	for (size_t i = 0; i < n; i++)
		dst[i] = ((volatile const uint8_t *)(uintptr_t)sp)[i];
	return n;
}

__attribute__((noinline)) void unwind_test_leaf(int x)
{
	CAPTURE(snap.regs);
	snap.sp = snap.regs[REG_SP];
	snap.nr_stack = copy_stack(snap.stack, snap.sp);
	sink += x;
}

__attribute__((noinline)) void unwind_test_mid(int x)
{
	unwind_test_leaf(x + 1);
	sink += x;	/* no tail call */
}

__attribute__((noinline)) void unwind_test_top(int x)
{
	unwind_test_mid(x + 1);
	sink += x;
}

#if defined(__x86_64__)
/*
 * A frame whose CFA is kept in rbx (glibc's _dl_runtime_resolve: the stack
 * realigned for xsave) above a leaf that does not save rbx: the leaf's CFI
 * says nothing of rbx, so its value is the one the sample recorded.
 */
__attribute__((noinline)) void unwind_test_rbx_leaf(void)
{
	CAPTURE(snap.regs);
	snap.sp = snap.regs[REG_SP];
	snap.nr_stack = copy_stack(snap.stack, snap.sp);
}

/* calls leaf (rdi) with the stack realigned, its CFA in rbx */
void unwind_test_realign(void (*leaf)(void));
__asm__(".text\n"
	".globl unwind_test_realign\n"
	".type unwind_test_realign, @function\n"
	"unwind_test_realign:\n"
	".cfi_startproc\n"
	"push %rbx\n"
	".cfi_adjust_cfa_offset 8\n"
	".cfi_offset %rbx, -16\n"
	"mov %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"and $-64, %rsp\n"
	"sub $128, %rsp\n"
	"call *%rdi\n"
	"mov %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"pop %rbx\n"
	".cfi_adjust_cfa_offset -8\n"
	".cfi_restore %rbx\n"
	"ret\n"
	".cfi_endproc\n"
	".size unwind_test_realign, .-unwind_test_realign\n");

/*
 * A leaf whose CFI still names rbx's save slot after popping it: the slot
 * is below the stack pointer, outside the dump, so rbx is unknown above it
 * (libunwind's read fails there; its value is not carried up).
 */
uint64_t unwind_test_regs[33];
void unwind_test_gone_finish(void);
void unwind_test_gone_finish(void)
{
	memcpy(snap.regs, unwind_test_regs, sizeof(snap.regs));
	snap.sp = snap.regs[REG_SP];
	snap.nr_stack = copy_stack(snap.stack, snap.sp);
}

void unwind_test_rbx_gone(void);
__asm__(".text\n"
	".globl unwind_test_rbx_gone\n"
	".type unwind_test_rbx_gone, @function\n"
	"unwind_test_rbx_gone:\n"
	".cfi_startproc\n"
	"push %rbx\n"
	".cfi_adjust_cfa_offset 8\n"
	".cfi_offset %rbx, -16\n"
	"pop %rbx\n"
	".cfi_adjust_cfa_offset -8\n"
	"movq %rax, unwind_test_regs+0(%rip)\n"
	"movq %rbx, unwind_test_regs+8(%rip)\n"
	"movq %rcx, unwind_test_regs+16(%rip)\n"
	"movq %rdx, unwind_test_regs+24(%rip)\n"
	"movq %rsi, unwind_test_regs+32(%rip)\n"
	"movq %rdi, unwind_test_regs+40(%rip)\n"
	"movq %rbp, unwind_test_regs+48(%rip)\n"
	"movq %rsp, unwind_test_regs+56(%rip)\n"
	"movq %r8, unwind_test_regs+128(%rip)\n"
	"movq %r9, unwind_test_regs+136(%rip)\n"
	"movq %r10, unwind_test_regs+144(%rip)\n"
	"movq %r11, unwind_test_regs+152(%rip)\n"
	"movq %r12, unwind_test_regs+160(%rip)\n"
	"movq %r13, unwind_test_regs+168(%rip)\n"
	"movq %r14, unwind_test_regs+176(%rip)\n"
	"movq %r15, unwind_test_regs+184(%rip)\n"
	"leaq 0(%rip), %rax\n"
	"movq %rax, unwind_test_regs+64(%rip)\n"
	"sub $8, %rsp\n"
	".cfi_adjust_cfa_offset 8\n"
	"call unwind_test_gone_finish@PLT\n"
	"add $8, %rsp\n"
	".cfi_adjust_cfa_offset -8\n"
	"ret\n"
	".cfi_endproc\n"
	".size unwind_test_rbx_gone, .-unwind_test_rbx_gone\n");
#endif

/* ---- the file ------------------------------------------------------------------------- */

static char self[4096];

/* this binary's maps, as MMAP2 records of PID */
static void maps(struct syn *s)
{
	FILE *f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	char line[8192];
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8], path[4096] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perms, &off,
			   path) < 4)
			continue;
		bool stack = !strcmp(path, "[stack]");
		if (strcmp(path, self) && !stack)
			continue;
		struct rb r;
		rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		rb_u32x2(&r, PID, PID);
		rb_u64(&r, start);
		rb_u64(&r, end - start);
		rb_u64(&r, off);
		rb_u32x2(&r, 8, 1);
		rb_u64(&r, 42);
		rb_u64(&r, 0);
		uint32_t prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) |
				(perms[2] == 'x' ? 4 : 0);
		rb_u32x2(&r, prot, 2 /* MAP_PRIVATE */);
		rb_str(&r, path);
		rb_u32x2(&r, PID, PID);	/* sample_id_all: TID, TIME */
		rb_u64(&r, 1);
		syn_rec(s, rb_end(&r));
	}
	fclose(f);
}

struct smp_opts {
	uint64_t mask;			/* registers recorded */
	size_t dump;			/* valid bytes of the stack copy */
};

static void sample(struct syn *s, const struct smp_opts *o, uint64_t t)
{
	static struct rb r;
	rb_start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(&r, snap.regs[REG_IP]);
	rb_u32x2(&r, PID, PID);
	rb_u64(&r, t);
	rb_u64(&r, 1000);	/* period */
	rb_u64(&r, 0);		/* callchain: the kernel's has no user entries */
	rb_u64(&r, PERF_SAMPLE_REGS_ABI_64);
	for (int i = 0; i < 33; i++)
		if (REGS_MASK & (UINT64_C(1) << i))
			rb_u64(&r, (o->mask & (UINT64_C(1) << i)) ? snap.regs[i] : 0);
	rb_u64(&r, STACK_BYTES);
	rb_put(&r, snap.stack, STACK_BYTES);
	rb_u64(&r, o->dump);
	syn_rec(s, rb_end(&r));
}

/* one sample per opts, in a file with this binary's maps (and the stack's when stack_map) */
static void build(struct pk_buf *out, const struct smp_opts *o, size_t n, bool stack_map)
{
	struct syn s = { .pipe = false };
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_period = 1000, .sample_id_all = 1, .exclude_callchain_user = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER,
		.sample_regs_user = REGS_MASK, .sample_stack_user = STACK_BYTES,
	};
	uint64_t no_ids[1] = { 0 };
	syn_attr(&s, &a, sizeof(a), NULL, no_ids, 0);
	struct pk_buf arch = { 0 };
	fs_str(&arch, ARCH);
	syn_feat(&s, PK_FEAT_ARCH, arch.data, arch.len);
	pk_buf__free(&arch);
	struct syn m = { 0 };
	maps(&m);
	/* the stack's map only when asked for */
	size_t at = 0;
	while (at < m.data.len) {
		const struct perf_event_header *h = (const void *)(m.data.data + at);
		const char *name = (const char *)(m.data.data + at + 72);	/* MMAP2's filename */
		if (stack_map || strcmp(name, "[stack]"))
			syn_rec(&s, h);
		at += h->size;
	}
	pk_buf__free(&m.data);
	for (size_t i = 0; i < n; i++)
		sample(&s, &o[i], 2 + i);
	syn_build(&s, out);
	syn_free(&s);
}

struct run {
	struct pk_buf file;
	int fd;
	struct pk_session *s;
	const struct pk_loc *chain[8][64];
	size_t nr[8];
	size_t n;
};

static void run(struct run *r, const struct smp_opts *o, size_t n, bool stack_map,
		unsigned max_stack)
{
	memset(r, 0, sizeof(*r));
	build(&r->file, o, n, stack_map);
	r->fd = mem_fd(r->file.data, r->file.len);
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1, .max_stack = max_stack };
	struct pk_error err = { 0 };
	if (pk_session__open_fd(&r->s, r->fd, "mem", &so, &err))
		fail_msg("open: %s", err.msg);
	const struct pk_data_event *ev;
	int rc;
	while ((rc = pk_session__next(r->s, &ev, &err)) > 0) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		struct pk_resolved rs = { .sz = sizeof(rs) };
		assert_int_equal(pk_session__resolve(r->s, ev, PK_RESOLVE_CALLCHAIN, &rs, &err), 0);
		assert_true(r->n < 8 && rs.nr_chain <= 64);
		for (size_t i = 0; i < rs.nr_chain; i++)
			r->chain[r->n][i] = rs.chain[i];
		r->nr[r->n++] = rs.nr_chain;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(r->n, n);
}

static void run_free(struct run *r)
{
	pk_session__free(r->s);
	close(r->fd);
	pk_buf__free(&r->file);
}

static const char *name_of(const struct pk_loc *l)
{
	return l && l->sym ? l->sym->name : "[unknown]";
}

/* ---- tests ------------------------------------------------------------------------------ */

__attribute__((noinline)) static void take(void)
{
	unwind_test_top(1);
	sink++;
}

static void test_frames(void **state)
{
	(void)state;
	take();
	struct smp_opts o[2] = { { REGS_MASK, STACK_BYTES }, { REGS_MASK, STACK_BYTES } };
	o[0].dump = o[1].dump = snap.nr_stack;
	struct run r;
	run(&r, o, 2, false, 0);
	/* PMUKIT_UNWIND_SAVE=FILE: the file kept (an aarch64 one read by an x86_64 pmukit...) */
	const char *keep = getenv("PMUKIT_UNWIND_SAVE");
	FILE *kf = keep ? fopen(keep, "w") : NULL;
	if (kf) {
		fwrite(r.file.data, 1, r.file.len, kf);
		fclose(kf);
	}
	assert_true(r.nr[0] >= 5);
	assert_int_equal(r.chain[0][0]->ip, snap.regs[REG_IP]);	/* the ip itself */
	assert_string_equal(name_of(r.chain[0][0]), "unwind_test_leaf");
	assert_string_equal(name_of(r.chain[0][1]), "unwind_test_mid");
	assert_string_equal(name_of(r.chain[0][2]), "unwind_test_top");
	assert_string_equal(name_of(r.chain[0][3]), "take");
	assert_string_equal(name_of(r.chain[0][4]), "test_frames");
	for (size_t i = 0; i < r.nr[0]; i++) {
		assert_int_equal(r.chain[0][i]->cpumode, PERF_RECORD_MISC_USER);
		/* a caller's frame is its return address less one */
		if (i && r.chain[0][i]->map)
			assert_true(r.chain[0][i]->sym != NULL);
	}
	/* the same process's next sample: the same frames, the same locations */
	assert_int_equal(r.nr[1], r.nr[0]);
	for (size_t i = 0; i < r.nr[0]; i++)
		assert_ptr_equal(r.chain[1][i], r.chain[0][i]);
	run_free(&r);
}

static void test_max_stack(void **state)
{
	(void)state;
	take();
	struct smp_opts o = { REGS_MASK, 0 };
	o.dump = snap.nr_stack;
	struct run r;
	run(&r, &o, 1, false, 2);
	assert_int_equal(r.nr[0], 2);
	assert_string_equal(name_of(r.chain[0][0]), "unwind_test_leaf");
	assert_string_equal(name_of(r.chain[0][1]), "unwind_test_mid");
	run_free(&r);
	run(&r, &o, 1, false, 1);
	assert_int_equal(r.nr[0], 1);
	run_free(&r);
}

static void test_short_dump(void **state)
{
	(void)state;
	take();
	/* 8 bytes: nothing of the leaf's frame; the return address is past the dump */
	struct smp_opts o = { REGS_MASK, 8 };
	struct run r;
	run(&r, &o, 1, false, 0);
	assert_int_equal(r.nr[0], 1);	/* not in any map: the ip alone */
	assert_string_equal(name_of(r.chain[0][0]), "unwind_test_leaf");
	run_free(&r);
	/* in the stack's map: libunwind reads a zero there, a frame at 0 - 1 as perf shows */
	run(&r, &o, 1, true, 0);
	assert_int_equal(r.nr[0], 2);
	assert_int_equal(r.chain[0][1]->ip, UINT64_MAX);
	assert_null(r.chain[0][1]->map);
	run_free(&r);
}

static void test_nothing(void **state)
{
	(void)state;
	take();
	/* no ip register: perf unwinds nothing; an empty dump: neither */
	struct smp_opts o[2] = { { REGS_MASK & ~(UINT64_C(1) << REG_IP), STACK_BYTES },
				 { REGS_MASK, 0 } };
	o[0].dump = snap.nr_stack;
	struct run r;
	run(&r, o, 2, false, 0);
	assert_int_equal(r.nr[0], 0);
	assert_int_equal(r.nr[1], 0);
	run_free(&r);
}

#if defined(__x86_64__)
__attribute__((noinline)) static void take_realign(void (*leaf)(void))
{
	unwind_test_realign(leaf);
	sink++;
}

/*
 * The caller of the rbx-framed function is found: libunwind's rule for a
 * callee-saved register a frame does not save (its value goes on), where
 * elfutils 0.188's x86_64 ABI CFI leaves rbx undefined.
 */
static void test_rbx_cfa(void **state)
{
	(void)state;
	take_realign(unwind_test_rbx_leaf);
	struct smp_opts o = { REGS_MASK, 0 };
	o.dump = snap.nr_stack;
	struct run r;
	run(&r, &o, 1, false, 0);
	assert_true(r.nr[0] >= 4);
	assert_string_equal(name_of(r.chain[0][0]), "unwind_test_rbx_leaf");
	assert_string_equal(name_of(r.chain[0][1]), "unwind_test_realign");
	assert_string_equal(name_of(r.chain[0][2]), "take_realign");
	assert_string_equal(name_of(r.chain[0][3]), "test_rbx_cfa");
	run_free(&r);
	/* max_stack still cuts the chain that went on */
	run(&r, &o, 1, false, 3);
	assert_int_equal(r.nr[0], 3);
	assert_string_equal(name_of(r.chain[0][2]), "take_realign");
	run_free(&r);
}

/* rbx's save slot is gone (below sp): unknown above, the chain ends at the rbx-framed caller */
static void test_rbx_slot_gone(void **state)
{
	(void)state;
	take_realign(unwind_test_rbx_gone);
	struct smp_opts o = { REGS_MASK, 0 };
	o.dump = snap.nr_stack;
	struct run r;
	run(&r, &o, 1, false, 0);
	assert_int_equal(r.nr[0], 2);
	assert_string_equal(name_of(r.chain[0][0]), "unwind_test_rbx_gone");
	assert_string_equal(name_of(r.chain[0][1]), "unwind_test_realign");
	run_free(&r);
}
#endif

int main(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0)
		self[n] = '\0';
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_max_stack),
		cmocka_unit_test(test_short_dump),
		cmocka_unit_test(test_nothing),
#if defined(__x86_64__)
		cmocka_unit_test(test_rbx_cfa),
		cmocka_unit_test(test_rbx_slot_gone),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void)
{
	printf("1..0 # SKIP no unwinder registers for this arch\n");
	return 0;
}
#endif
