/* SPDX-License-Identifier: MIT */
/*
 * events/cpuid_int.h — pieces of CPU identification shared inside the
 * library and exposed to unit tests (not part of the public API).
 */
#ifndef PMUKIT_EVENTS_CPUID_INT_H
#define PMUKIT_EVENTS_CPUID_INT_H

#include <stddef.h>

/*
 * perf's x86 identifier from the cpuid vendor string (leaf 0) and the leaf 1
 * signature in eax: "vendor-family-MODEL-STEPPING", family decimal with the
 * extended family added when the base family is 0xf, model upper-case hex
 * with the extended model when the family is >= 6. 0 or -ENOBUFS.
 */
int pk_cpuid__x86_format(const char *vendor, unsigned eax, char *buf, size_t len);

#endif
