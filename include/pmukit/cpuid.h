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

#ifdef __cplusplus
extern "C" {
#endif

/* The arch directory name of the machine this library was built for ("x86", "arm64", ...). */
const char *pk_cpuid__host_arch(void);

/*
 * The identifier of CPU cpu (-1: any online CPU) of this machine. cpu_root
 * replaces /sys/devices/system/cpu (tests; arm64 MIDR and riscv read files
 * there or in /proc/cpuinfo). Returns 0 or a negative errno.
 */
int pk_cpuid__host(const char *cpu_root, int cpu, char *buf, size_t len);

/*
 * 0 when the mapfile pattern map_cpuid matches cpuid under arch's rules, 1 when
 * not, -EINVAL when the pattern is invalid.
 */
int pk_cpuid__match(const char *arch, const char *map_cpuid, const char *cpuid);

/* The arch an identifier's shape belongs to, or NULL when none fits. */
const char *pk_cpuid__guess_arch(const char *cpuid);

/*
 * How far cpuid is from the CPUs a mapfile pattern matches (0 = matches,
 * larger = further; UINT_MAX = unrelated, e.g. another vendor). Used to name
 * the closest known models when an identifier is unknown.
 */
unsigned pk_cpuid__distance(const char *arch, const char *map_cpuid, const char *cpuid);

#ifdef __cplusplus
}
#endif
#endif
