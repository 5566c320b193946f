/* SPDX-License-Identifier: MIT */
/*
 * pmukit/cpuid.h — identify a CPU the way perf forms its identifier, and
 * match identifiers against mapfile.csv patterns with perf's rules.
 *
 *   x86      "GenuineIntel-6-55-4"  vendor-family(decimal)-model(hex)-stepping(hex)
 *   arm64    "0x00000000410fd0c0"   MIDR_EL1
 *   powerpc  "0x004e1200"           PVR
 *   s390     "IBM,8561,703,T01,3.6,002f"
 *   riscv    "0x489-0x8000000000000007-0x0000000020181004" mvendorid-marchid-mimpid
 */
#ifndef PMUKIT_CPUID_H
#define PMUKIT_CPUID_H

#include <stddef.h>

#include <pmukit/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The arch directory name of the machine this library was built for ("x86",
 * "arm64", "powerpc", "s390", "riscv"; "arm" or "unknown" elsewhere).
 */
PK_API const char *pk_cpuid__host_arch(void);

/*
 * The identifier of CPU cpu (-1: any online CPU) of this machine. cpu_root
 * replaces /sys/devices/system/cpu (tests; arm64 MIDR and riscv read files
 * there or in /proc/cpuinfo). Returns 0 or a negative errno.
 *
 * With cpu_root NULL, x86 and powerpc ask the CPU itself (cpuid, mfspr PVR;
 * cpu is ignored: perf reads them on whichever CPU it runs), the other arches
 * read their files as pk_cpuid__read() does. With cpu_root set, every arch
 * reads files: pk_cpuid__read(pk_cpuid__host_arch(), cpu_root, cpu, ...).
 * -ENOBUFS when len is too small, -ENOTSUP on an arch perf has no mapfile for.
 */
PK_API int pk_cpuid__host(const char *cpu_root, int cpu, char *buf, size_t len);

/*
 * The identifier of a machine of arch arch from its files, live or captured.
 * cpu_root replaces /sys/devices/system/cpu; NULL for the live machine. When
 * cpu_root is set, the /proc files are read from that same directory instead
 * of /proc: <cpu_root>/cpuinfo, <cpu_root>/sysinfo, <cpu_root>/service_levels.
 *
 *   arm64    <cpu_root>/cpuN/regs/identification/midr_el1 as "0x%016lx";
 *            cpu -1: the lowest CPU listed in <cpu_root>/online that has the
 *            file (all cpuN directories when online is missing)
 *   x86      cpuinfo vendor_id, cpu family, model, stepping (perf's form)
 *   powerpc  cpuinfo "revision : ... (pvr 004e 1202)" as "0x004e1202"
 *   riscv    cpuinfo mvendorid-marchid-mimpid
 *   s390     sysinfo Manufacturer, Type, Model words (+ service_levels CPU-MF
 *            version and authorization when present); cpu is ignored
 *
 * For cpuinfo, cpu selects the "processor : N" block (-1: the first one).
 * Returns 0, -ENOENT (file, CPU or field missing), -EINVAL (unreadable
 * content), -ENOBUFS (len too small) or -ENOTSUP (arch without a reader).
 */
PK_API int pk_cpuid__read(const char *arch, const char *cpu_root, int cpu, char *buf, size_t len);

/*
 * 0 when the mapfile pattern map_cpuid matches cpuid under arch's rules, 1 when
 * not, -EINVAL when the pattern is invalid.
 *
 *   arm64    MIDRs compared as numbers without variant [23:20] and revision
 *            [3:0]; then cpuid's variant.revision must be >= the pattern's
 *   x86      POSIX extended regex that must cover the whole id; a "full"
 *            text has exactly three '-' (vendor-family-model-stepping): a
 *            pattern that is not full ignores a full id's stepping, a full
 *            pattern never matches an id that is not full
 *   others   POSIX extended regex that must cover the whole id
 *
 * arch NULL: the arch pk_cpuid__guess_arch() finds for cpuid (regex rules if
 * none). Each call compiles the pattern; see pk_cpuid_cache for many calls.
 */
PK_API int pk_cpuid__match(const char *arch, const char *map_cpuid, const char *cpuid);

/*
 * The arch an identifier's shape belongs to, or NULL when none fits:
 * "Vendor-F-M[-S]" (F decimal, M and S hex) x86, "0x" + 16 hex digits arm64,
 * "0x" + 8 hex digits powerpc, "IBM,..." s390, "0x..-0x..-0x.." riscv.
 */
PK_API const char *pk_cpuid__guess_arch(const char *cpuid);

/*
 * How far cpuid is from the CPUs a mapfile pattern matches (0 = matches,
 * larger = further; UINT_MAX = unrelated, e.g. another vendor). Used to name
 * the closest known models when an identifier is unknown.
 *
 *   x86      same vendor and family required; then |model - m| for the
 *            nearest model m (0..FF) the pattern accepts (for patterns with a
 *            stepping: with any stepping); 1 when only the stepping differs
 *   arm64    same implementer [31:24] required; then the partnum [15:4]
 *            difference; 1 when only the variant/revision is too old
 *   powerpc  the difference of PVR versions (upper 16 bits) to the nearest
 *            version the pattern accepts, within 0x100 (else UINT_MAX)
 *   riscv    same mvendorid required; then an edit distance to the pattern
 *   others   an edit distance between pattern text and cpuid (>= 1)
 *
 * Cheap enough to rank every row of every mapfile on each call (a few ms in
 * all without a cache; less with one).
 */
PK_API unsigned pk_cpuid__distance(const char *arch, const char *map_cpuid, const char *cpuid);

/*
 * Compiled mapfile patterns, kept for repeated matching (a table of rows
 * matched against one identifier, or many identifiers). Owned by the caller;
 * not thread-safe: use one per thread. NULL is accepted by the functions below
 * and means "no cache" (compile on every call).
 */
struct pk_cpuid_cache;

PK_API struct pk_cpuid_cache *pk_cpuid_cache__new(void);
PK_API void pk_cpuid_cache__free(struct pk_cpuid_cache *cache);
/* pk_cpuid__match() and pk_cpuid__distance() with patterns compiled once. */
PK_API int pk_cpuid_cache__match(struct pk_cpuid_cache *cache, const char *arch,
				 const char *map_cpuid, const char *cpuid);
PK_API unsigned pk_cpuid_cache__distance(struct pk_cpuid_cache *cache, const char *arch,
					 const char *map_cpuid, const char *cpuid);

#ifdef __cplusplus
}
#endif
#endif
