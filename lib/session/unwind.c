/* SPDX-License-Identifier: MIT */
/*
 * session/unwind.c — the user-space frames of samples recorded with
 * --call-graph dwarf (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER: the
 * kernel's callchain stops at the kernel, the sample carries the user
 * registers and a copy of the top of the user stack), unwound with libdw's
 * frame unwinder (dwfl_attach_state, dwfl_getthread_frames) the way perf
 * 6.1's thread__resolve_callchain_unwind appends them after the kernel's
 * entries, with the rules of perf 6.1 as Debian builds it (libunwind):
 *
 *   - the first frame is the user ip itself; every later frame's pc is the
 *     return address less one (unless the frame is an activation: libdw's
 *     rule, as perf's libdw unwinder), at most max_stack frames;
 *   - memory at [sp, sp + dump size - 8) is read from the dump (perf's
 *     libunwind reader leaves out the dump's last word), other addresses
 *     from the file mapped there, at its file offset; an address in no map
 *     cannot be read, one in a map whose file cannot be read there reads as
 *     zero (perf's reader answers 1 there, which libunwind takes for a
 *     success): a return address read so ends the chain with a frame at
 *     0 - 1, as perf shows ("ffffffffffffffff [unknown]" where a short dump
 *     ends in the stack);
 *   - a callee-saved register a frame's CFI has no rule for keeps the value
 *     it has in the frame inside, and one whose rule cannot be read (a save
 *     slot below the stack pointer) is unknown above (libunwind's rules;
 *     elfutils 0.188 takes x86_64's rbx for undefined there, and glibc's
 *     _dl_runtime_resolve keeps its CFA in rbx, so the unwind goes on from
 *     the frame where libdw stopped, with rbx carried up);
 *   - a frame in no file the unwinder can read (no map, anonymous or JIT
 *     code, a file not found) is the last one, as libunwind finds no unwind
 *     information there; a [vdso] that is not in the build-id cache is this
 *     process's own where the symbolizer took it for the recorded one (a
 *     pipe's, whose build-ids come last), as perf reads its own vdso.
 *
 * One Dwfl per process (its address space), its modules reported as frames
 * reach them (the map's file as the symbolizer found it, loaded where the
 * file's lowest map less its offset says, as perf's libunwind reader finds
 * the load address: right for files whose code segment's address and file
 * offset differ more than the first segment's), kept across the process's
 * samples so that each file's CFI is read once. A process whose
 * maps changed under a reported module (an exec, a library unloaded and
 * another mapped there) gets a fresh Dwfl at its next sample. At most
 * UNW_PROCS of them are alive (the least recently used goes): each holds
 * its files open. The registers are read for the file's arch, so x86_64
 * and aarch64 files unwind on either (libdw's backends are all built in).
 */
#include "session/session_int.h"

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>

#include "util/grow.h"

/* live Dwfl objects (one per process) */
#define UNW_PROCS 16

/*
 * What a read of a mapped address whose file has nothing there gives:
 * libunwind's zero. Not zero itself, which libdw takes for the end of the
 * chain before the frame is seen; frame_cb turns it into libunwind's frame.
 */
#define UNW_SOFT_ZERO UINT64_C(0xdead00000000dea1)

/* how a file's arch names its registers */
struct unw_arch {
	int ip, sp;			/* perf_regs numbers */
	const int8_t *dwarf;		/* the perf_regs number of each DWARF register */
	unsigned nr_dwarf;
	bool pc_apart;			/* the pc is no DWARF register: set on its own */
	/*
	 * Callee-saved DWARF registers (bits) that libdw's ABI CFI leaves
	 * undefined where a frame's CFI says nothing of them, while libunwind
	 * (perf's) takes them for unchanged: elfutils 0.188's x86_64 rule
	 * names rax (0) where rbx (3) is meant.
	 */
	uint32_t carried;
};

#define UNW_REGS 32	/* DWARF registers kept per frame, at most */
#define UNW_RULE_CACHE 64	/* rules_at's answers kept (direct-mapped) */

/*
 * x86_64: perf_regs AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15
 * (0..23); DWARF rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip (0..16).
 */
static const int8_t x86_64_dwarf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
static const struct unw_arch x86_64 = { .ip = 8, .sp = 7, .dwarf = x86_64_dwarf, .nr_dwarf = 17,
					.carried = 1u << 3 };

/* aarch64: perf_regs x0..x30, sp, pc (0..32); DWARF x0..x30, sp (0..31) */
static const int8_t arm64_dwarf[32] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};
static const struct unw_arch arm64 = { .ip = 32, .sp = 31, .dwarf = arm64_dwarf, .nr_dwarf = 32,
				       .pc_apart = true };

struct unw_proc {
	const struct sess_maps *maps;	/* the process's address space: the key */
	Dwfl *dwfl;
	bool attached;			/* dwfl_attach_state done (needs a module's ELF) */
	bool stale;			/* a reported module no longer matches the maps */
	uint64_t used;			/* LRU clock */
};

struct sess_unwind {
	struct unw_proc procs[UNW_PROCS];
	size_t nr_procs;
	uint64_t clock;
	/* the sample being unwound (the callbacks' view) */
	struct unw_proc *p;
	const struct sess_thread *t;
	const struct unw_arch *arch;
	const struct pk_sample *smp;
	uint64_t sp;
	bool has_sp;
	/* its frames' pcs (callee first), at most max of them */
	uint64_t *pcs;
	size_t nr_pcs, cap_pcs, max;
	bool initial;			/* the next frame is the initial one (the ip, taken already) */
	/*
	 * The last frame's registers and pc, a callee-saved register no frame
	 * saved taking its value from the frame inside (libunwind's rule;
	 * elfutils 0.188's x86_64 ABI CFI says so of rax instead of rbx, so
	 * libdw loses rbx at the first frame that does not save it), and
	 * whether the next unwind starts from them instead of the sample's.
	 */
	Dwarf_Word regs[UNW_REGS], carry[UNW_REGS];
	uint32_t have, carried, filled;
	uint64_t last_pc;
	bool capture;			/* keep each frame's registers (keep_regs) */
	bool from_last;
	/* the registers the CFI rules at a file's address read, by (file, address): most chains end in _start */
	struct unw_rule_use {
		const struct pk_dso *d;
		uint64_t off;
		uint32_t used;		/* registers the CFA and return address rules read */
		uint32_t unspec;	/* arch->carried registers the CFI has no rule for */
	} rule_use[UNW_RULE_CACHE];
	int vdso_fd;			/* this process's vdso as a file; -1 none, -2 not made yet */
};

/* ---- registers ------------------------------------------------------------------------ */

/* this machine's */
static const struct unw_arch *host_arch(void)
{
#if defined(__aarch64__)
	return &arm64;
#elif defined(__x86_64__)
	return &x86_64;
#else
	return NULL;
#endif
}

static const struct unw_arch *arch_of(struct pk_session *s)
{
	const struct pk_data_env *env = pk_data_reader__env(s->r);
	const char *a = env && env->arch ? env->arch : NULL;
	if (!a)
		return host_arch() ? host_arch() : &x86_64;	/* not recorded: a pipe before its features */
	if (!strcmp(a, "x86_64"))
		return &x86_64;
	if (!strcmp(a, "aarch64") || !strcmp(a, "arm64"))
		return &arm64;
	return NULL;
}

/* perf_reg_value: the value of perf register id, packed in the mask's bit order */
static bool reg_value(const struct pk_sample_regs *r, int id, uint64_t *val)
{
	uint64_t bit = UINT64_C(1) << id;
	if (!(r->mask & bit))
		return false;
	unsigned idx = (unsigned)__builtin_popcountll(r->mask & (bit - 1));
	if (idx >= r->nr)
		return false;
	*val = r->regs[idx];
	return true;
}

/* ---- modules ---------------------------------------------------------------------------- */

/*
 * A module's separate debug file: the DSO's symbol file when it is another
 * file (perf's __find_debuginfo), for .debug_frame when .eh_frame has no
 * entry.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod;
	(void)modname;
	(void)base;
	(void)debuglink_file;
	(void)debuglink_crc;
	struct pk_dso *d = *userdata;
	const char *symsrc = d ? pk_dso__symsrc(d) : NULL;
	if (!symsrc || (file_name && !strcmp(symsrc, file_name)))
		return -1;
	/* libdwfl opens the file of the name it is given */
	*debuginfo_file_name = strdup(symsrc);
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The module's DSO and start address. */
static struct pk_dso *module_dso(Dwfl_Module *mod, Dwarf_Addr *start)
{
	void **userdata;
	dwfl_module_info(mod, &userdata, start, NULL, NULL, NULL, NULL, NULL);
	return *userdata;
}

/*
 * Where the file of map m is loaded: perf's libunwind reader takes the
 * lowest map of the file less its offset (the file's first segment); a JIT
 * dump's ELF (perf inject --jit) maps its code alone, at the map's start.
 */
static uint64_t load_base(const struct sess_maps *maps, const struct sess_map *m)
{
	if (!strncmp(pk_dso__name(m->pub.dso), "/tmp/jitted-", 12))
		return m->pub.start;
	for (size_t i = 0; i < maps->nr; i++)	/* by start: the first one of the file */
		if (maps->v[i]->pub.dso == m->pub.dso)
			return maps->v[i]->pub.start - maps->v[i]->pub.pgoff;
	return m->pub.start - m->pub.pgoff;
}

/* A new fd of this process's vdso image (a memfd made once), -1 when there is none. */
static int own_vdso_fd(struct sess_unwind *u)
{
	if (u->vdso_fd == -2) {
		u->vdso_fd = -1;
		unsigned long base = getauxval(AT_SYSINFO_EHDR);
		const GElf_Ehdr *eh = (const GElf_Ehdr *)base;
		/* the image ends with its section headers */
		size_t len = base ? eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize : 0;
		int fd = len >= sizeof(*eh) && len <= (1u << 20) ? memfd_create("vdso", MFD_CLOEXEC) : -1;
		if (fd >= 0 && write(fd, (const void *)base, len) == (ssize_t)len)
			u->vdso_fd = fd;
		else if (fd >= 0)
			close(fd);
	}
	return u->vdso_fd >= 0 ? dup(u->vdso_fd) : -1;
}

/* dwfl_report_elf of d's binary, or of this process's vdso where perf would take it */
static Dwfl_Module *report_file(struct sess_unwind *u, Dwfl *dwfl, struct pk_dso *d,
				Dwarf_Addr base)
{
	const char *path = pk_dso__runtime(d);
	if (path)
		return dwfl_report_elf(dwfl, pk_dso__short_name(d), path, -1, base, false);
	/* the symbolizer's choice: symbols from this process's vdso (its build-id, if known) */
	if (pk_dso__kind(d) != PK_DSO_VDSO || u->arch != host_arch() || !pk_dso__nr_syms(d))
		return NULL;
	int fd = own_vdso_fd(u);
	Dwfl_Module *mod = fd >= 0 ? dwfl_report_elf(dwfl, "[vdso]", "[vdso]", fd, base, false) : NULL;
	if (!mod && fd >= 0)
		close(fd);	/* consumed only on success */
	return mod;
}

/*
 * perf's __report_module: the module of the file mapped at pc, reported
 * when first reached; NULL when pc is in no file the unwinder can read.
 */
static Dwfl_Module *report_module(struct sess_unwind *u, Dwfl *dwfl, uint64_t pc)
{
	const struct sess_map *m = maps__find(u->t->maps, pc);
	struct pk_dso *d = m ? m->pub.dso : NULL;
	if (!d || (pk_dso__kind(d) != PK_DSO_USER && pk_dso__kind(d) != PK_DSO_VDSO))
		return NULL;
	Dwarf_Addr start;
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	if (mod) {
		if (module_dso(mod, &start) == d)
			return mod;
		/* another file was mapped here since: start again at the next sample */
		u->p->stale = true;
		return NULL;
	}
	mod = report_file(u, dwfl, d, load_base(u->t->maps, m));
	if (!mod)
		return NULL;
	void **userdata;
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = d;
	if (dwfl_addrmodule(dwfl, pc) != mod) {
		u->p->stale = true;	/* it overlaps an older module */
		return NULL;
	}
	return mod;
}

/* ---- libdw's callbacks ------------------------------------------------------------------ */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

/* the one thread: the sample's (registers and stack set before each unwind) */
static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static uint64_t word_le(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * perf's access_dso_mem: the word at addr of the file mapped there, at its
 * file offset (of the files the unwinder has reached: the modules'); a map
 * without such a file there gives UNW_SOFT_ZERO, no map a failure.
 */
static bool file_read(struct sess_unwind *u, Dwfl *dwfl, uint64_t addr, Dwarf_Word *result)
{
	const struct sess_map *m = maps__find(u->t->maps, addr);
	if (!m || !m->pub.dso)
		return false;
	*result = UNW_SOFT_ZERO;
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr start, bias;
	if (!mod || module_dso(mod, &start) != m->pub.dso)
		return true;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t size;
	const char *raw = elf ? elf_rawfile(elf, &size) : NULL;
	uint64_t off = addr - m->pub.start + m->pub.pgoff;
	if (raw && off <= size && size - off >= sizeof(uint64_t))
		*result = word_le((const uint8_t *)raw + off);
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct sess_unwind *u = arg;
	if (!u->has_sp || addr + sizeof(uint64_t) < addr)
		return false;
	/* perf's user_stack.size is the dump's valid part (dyn_size) */
	uint64_t end = u->sp + u->smp->user_stack.dyn_size;
	if (end < u->sp)
		end = UINT64_MAX;
	/* perf 6.1's libunwind reader: the last word of the dump is outside it */
	if (addr < u->sp || addr + sizeof(uint64_t) >= end)
		return file_read(u, dwfl, addr, result);
	*result = word_le(u->smp->user_stack.data + (addr - u->sp));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct sess_unwind *u = arg;
	const struct unw_arch *a = u->arch;
	if (u->from_last) {	/* the last frame of an unwind stopped short, pc and all */
		for (unsigned i = 0; i < a->nr_dwarf; i++) {
			Dwarf_Word w = u->regs[i];
			if ((u->have & 1u << i) && !dwfl_thread_state_registers(thread, (int)i, 1, &w))
				return false;
		}
		dwfl_thread_state_register_pc(thread, u->last_pc);
		return true;
	}
	const struct pk_sample_regs *r = &u->smp->user_regs;
	/* registers not recorded stay undefined (rules that need them fail) */
	for (unsigned i = 0; i < a->nr_dwarf; i++) {
		uint64_t v;
		Dwarf_Word w;
		if (!reg_value(r, a->dwarf[i], &v))
			continue;
		w = v;
		if (!dwfl_thread_state_registers(thread, (int)i, 1, &w))
			return false;
	}
	uint64_t pc;
	if (a->pc_apart && reg_value(r, a->ip, &pc))
		dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/*
 * The frame's registers into u->regs. A register of arch->carried that libdw
 * does not know here takes its value from the frame inside (u->carry) when
 * that frame's CFI has no rule for it (unspecified_regs): libunwind's
 * rule; where a rule failed (a save slot below the stack pointer), it
 * stays unknown, as in libunwind.
 */
static uint32_t unspecified_regs(struct sess_unwind *u, Dwfl *dwfl, uint64_t pc);

static void keep_regs(struct sess_unwind *u, Dwfl_Frame *state, Dwfl *dwfl)
{
	const struct unw_arch *a = u->arch;
	uint32_t inner = u->have;	/* the frame inside's, before this one's */
	uint32_t unspec = UINT32_MAX;	/* looked up when needed */
	u->have = u->filled = 0;
	for (unsigned i = 0; i < a->nr_dwarf && i < UNW_REGS; i++) {
		uint32_t bit = 1u << i;
		if (dwfl_frame_reg(state, i, &u->regs[i]) == 0) {
			u->have |= bit;
			if (a->carried & bit) {
				u->carry[i] = u->regs[i];
				u->carried |= bit;
			}
			continue;
		}
		if (!(inner & bit))
			u->carried &= ~bit;	/* unknown inside too: no value to carry */
		if (!(u->carried & bit))
			continue;
		if (unspec == UINT32_MAX)
			unspec = unspecified_regs(u, dwfl, u->last_pc);
		if (unspec & bit) {
			u->regs[i] = u->carry[i];
			u->have |= bit;
			u->filled |= bit;
		} else {
			u->carried &= ~bit;	/* unknown from here on */
		}
	}
}

/* the registers a DWARF expression reads (bits of those below UNW_REGS) */
static uint32_t expr_regs(const Dwarf_Op *ops, size_t nops)
{
	uint32_t regs = 0;
	for (size_t i = 0; i < nops; i++) {
		unsigned r = UNW_REGS;
		if (ops[i].atom >= DW_OP_reg0 && ops[i].atom <= DW_OP_reg31)
			r = ops[i].atom - DW_OP_reg0;
		else if (ops[i].atom >= DW_OP_breg0 && ops[i].atom <= DW_OP_breg31)
			r = ops[i].atom - DW_OP_breg0;
		else if (ops[i].atom == DW_OP_regx || ops[i].atom == DW_OP_bregx)
			r = ops[i].number < UNW_REGS ? (unsigned)ops[i].number : UNW_REGS;
		if (r < UNW_REGS)
			regs |= 1u << r;
	}
	return regs;
}

/*
 * The CFI rules at pc (a frame's lookup address) of a file the unwind
 * reached, cached by file and address (most chains end in _start): the
 * registers its CFA and return address rules read (glibc's
 * _dl_runtime_resolve keeps its CFA in rbx), and which of arch->carried it
 * has no rule for. NULL when pc has no CFI.
 */
static const struct unw_rule_use *rules_at(struct sess_unwind *u, Dwfl *dwfl, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_Addr start;
	const struct pk_dso *d = mod ? module_dso(mod, &start) : NULL;
	if (!d)
		return NULL;
	uint64_t off = pc - start;
	struct unw_rule_use *c = &u->rule_use[(off ^ (uintptr_t)d >> 4) % UNW_RULE_CACHE];
	if (c->d == d && c->off == off)
		return c;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi)
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
	Dwarf_Frame *fr;
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &fr))
		return NULL;
	Dwarf_Op *ops, ops_mem[3];
	size_t nops;
	uint32_t used = 0, unspec = 0;
	if (!dwarf_frame_cfa(fr, &ops, &nops))
		used |= expr_regs(ops, nops);
	Dwarf_Addr lo, hi;
	bool signal;
	int ra = dwarf_frame_info(fr, &lo, &hi, &signal);
	if (ra >= 0 && !dwarf_frame_register(fr, ra, ops_mem, &ops, &nops))
		used |= expr_regs(ops, nops);
	/* no rule: libdw says "undefined" (no ops) or "same value" (no ops either) */
	for (unsigned i = 0; i < UNW_REGS; i++)
		if ((u->arch->carried & 1u << i) &&
		    !dwarf_frame_register(fr, (int)i, ops_mem, &ops, &nops) && !nops)
			unspec |= 1u << i;
	free(fr);
	*c = (struct unw_rule_use){ d, off, used, unspec };
	return c;
}

static uint32_t unspecified_regs(struct sess_unwind *u, Dwfl *dwfl, uint64_t pc)
{
	const struct unw_rule_use *c = rules_at(u, dwfl, pc);
	return c ? c->unspec : 0;
}

/* One frame: perf's frame_callback, with libunwind's end where no file is mapped. */
static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct sess_unwind *u = arg;
	if (u->initial) {
		u->initial = false;	/* the sample's ip (or the last frame): taken already */
		if (u->capture) {
			u->have = 0;	/* nothing inside it */
			keep_regs(u, state, dwfl_thread_dwfl(dwfl_frame_thread(state)));
		}
		return DWARF_CB_OK;
	}
	Dwfl *dwfl = dwfl_thread_dwfl(dwfl_frame_thread(state));
	Dwarf_Addr pc;
	bool activation;
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	if (pc == UNW_SOFT_ZERO) {
		/* libunwind's zero return address: the frame at 0 - 1, the last one */
		u->pcs[u->nr_pcs++] = UINT64_MAX;
		return DWARF_CB_ABORT;
	}
	/* the module before dwfl_frame_pc's look at the caller (activation) */
	(void)report_module(u, dwfl, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	u->pcs[u->nr_pcs++] = pc;
	if (u->nr_pcs >= u->max || !report_module(u, dwfl, pc))
		return DWARF_CB_ABORT;
	if (u->capture)
		keep_regs(u, state, dwfl);
	u->last_pc = pc;
	return DWARF_CB_OK;
}

/* ---- processes -------------------------------------------------------------------------- */

static void proc_reset(struct unw_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = dwfl_begin(&dwfl_callbacks);
	p->attached = false;
	p->stale = false;
}

/* The process's Dwfl: found, or made in a free slot or the least recently used one. */
static struct unw_proc *proc_get(struct sess_unwind *u, const struct sess_maps *maps)
{
	struct unw_proc *p = NULL;
	for (size_t i = 0; i < u->nr_procs && !p; i++)
		if (u->procs[i].maps == maps)
			p = &u->procs[i];
	if (!p) {
		if (u->nr_procs < UNW_PROCS) {
			p = &u->procs[u->nr_procs++];
		} else {
			p = &u->procs[0];
			for (size_t i = 1; i < UNW_PROCS; i++)
				if (u->procs[i].used < p->used)
					p = &u->procs[i];
		}
		p->maps = maps;
		proc_reset(p);
	} else if (p->stale || !p->dwfl) {
		proc_reset(p);
	}
	p->used = ++u->clock;
	return p->dwfl ? p : NULL;
}

/* dwfl_attach_state once per Dwfl, with the ELF of its first module for the arch */
static bool proc_attach(struct sess_unwind *u, struct unw_proc *p, Dwfl_Module *mod, int32_t pid)
{
	if (p->attached)
		return true;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	if (!elf || !dwfl_attach_state(p->dwfl, elf, pid > 0 ? pid : 1, &thread_callbacks, u))
		return false;
	p->attached = true;
	return true;
}

/* ---- the entry points -------------------------------------------------------------------- */

/* The frames' pcs of the sample into u->pcs: the ip, then what libdw unwinds. */
static void unwind_pcs(struct sess_unwind *u, uint64_t ip, int32_t pid)
{
	u->nr_pcs = 0;
	u->pcs[u->nr_pcs++] = ip;
	if (u->max < 2)
		return;
	struct unw_proc *p = proc_get(u, u->t->maps);
	if (!p)
		return;
	u->p = p;
	Dwfl_Module *mod = report_module(u, p->dwfl, ip);
	if (!mod || !proc_attach(u, p, mod, pid))
		return;	/* libunwind: no unwind information for the ip, the ip alone */
	u->from_last = u->capture = false;
	u->carried = 0;
	u->last_pc = ip;
	/*
	 * An error ends the chain where it stopped (perf keeps the frames so
	 * far). Where libdw ended it for want of a callee-saved register that
	 * libunwind would have (u->filled), the unwind goes on from the last
	 * frame with it: when the last frame's rules read such a register, the
	 * sample is unwound again keeping the registers of each frame.
	 */
	for (;;) {
		size_t before = u->nr_pcs;
		u->initial = true;
		if (dwfl_getthread_frames(p->dwfl, dwfl_pid(p->dwfl), frame_cb, u) != 0 ||
		    u->nr_pcs >= u->max || (u->from_last && u->nr_pcs == before))
			break;
		const struct unw_rule_use *c = u->arch->carried ? rules_at(u, p->dwfl, u->last_pc) : NULL;
		uint32_t used = c ? c->used & u->arch->carried : 0;
		if (!used)
			break;
		if (!u->capture) {	/* again from the sample, keeping the registers */
			u->capture = true;
			u->nr_pcs = 1;
			u->last_pc = ip;
			continue;
		}
		if (!(used & u->filled))
			break;
		u->from_last = true;
	}
	u->from_last = false;
}

int unwind__append(struct pk_session *s, const struct sess_thread *t, const struct pk_sample *smp,
		   size_t *n)
{
	const uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	/* perf: both in the attr, registers recorded (an ABI) and a non-empty dump */
	if ((smp->sample_type & both) != both || !smp->user_regs.abi || !smp->user_regs.regs ||
	    !smp->user_stack.dyn_size || !smp->user_stack.data || !t->maps)
		return 0;
	if (smp->user_stack.dyn_size > smp->user_stack.size)
		return 0;	/* perf: "user stack dump failure" */
	/* 64-bit processes only (perf 6.1 as Debian builds it has no 32-bit unwinder) */
	const struct unw_arch *arch = arch_of(s);
	uint64_t ip;
	if (!arch || smp->user_regs.abi != PERF_SAMPLE_REGS_ABI_64 ||
	    !reg_value(&smp->user_regs, arch->ip, &ip))
		return 0;
	if (!s->unwind) {
		if (!(s->unwind = calloc(1, sizeof(*s->unwind))))
			return -ENOMEM;
		s->unwind->vdso_fd = -2;
	}
	struct sess_unwind *u = s->unwind;
	u->max = s->o.max_stack ? s->o.max_stack : SESS_DEFAULT_MAX_STACK;
	if (PK_GROW(u->pcs, u->cap_pcs, u->max))
		return -ENOMEM;
	u->t = t;
	u->smp = smp;
	u->arch = arch;
	u->has_sp = reg_value(&smp->user_regs, arch->sp, &u->sp);
	unwind_pcs(u, ip, t->pub.pid);
	for (size_t i = 0; i < u->nr_pcs; i++) {
		/* libunwind's cursor shows no zero address */
		if (u->pcs[i] && resolve__append_unwound(s, t, u->pcs[i], n))
			return -ENOMEM;
	}
	return 0;
}

void unwind__fini(struct pk_session *s)
{
	struct sess_unwind *u = s->unwind;
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
	if (u->vdso_fd >= 0)
		close(u->vdso_fd);
	free(u->pcs);
	free(u);
	s->unwind = NULL;
}
