/* SPDX-License-Identifier: MIT */
/*
 * events/cpuid.c — the identifier of a CPU in the form perf's mapfile.csv rows
 * are written for: the x86 cpuid instruction, the powerpc PVR, arm64 MIDR_EL1
 * from sysfs, riscv m*id and x86/powerpc values from /proc/cpuinfo, s390 from
 * /proc/sysinfo and /proc/service_levels. The file readers work on any build
 * (pk_cpuid__read), so captured files of another machine can be identified.
 * Matching identifiers against mapfile patterns is in cpuid_match.c.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* getline, strdup, strtok_r */
#endif
#include <pmukit/cpuid.h>
#include "events/cpuid_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define CPU_ROOT_DEFAULT "/sys/devices/system/cpu"
#define MIDR_PATH "regs/identification/midr_el1"

const char *pk_cpuid__host_arch(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return "x86";
#elif defined(__aarch64__)
	return "arm64";
#elif defined(__powerpc__) || defined(__powerpc64__)
	return "powerpc";
#elif defined(__s390x__) || defined(__s390__)
	return "s390";
#elif defined(__riscv)
	return "riscv";
#elif defined(__arm__)
	return "arm";
#else
	return "unknown";
#endif
}

/* snprintf into buf: 0, or -ENOBUFS when it did not fit. */
static int put(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		return -ENOBUFS;
	}
	return 0;
}

static char *trim(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* The first line of a small file, trimmed, into out. */
static int read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -ENOENT;
	}
	char line[4096];
	bool ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok)
		return -EINVAL;
	return put(out, len, "%s", trim(line));
}

/* "0x1f", "1f", "0X1F" → value; false on anything else or overflow. */
static bool parse_hex(const char *s, uint64_t *out)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return false;
	uint64_t v = 0;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (v >> 60)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return true;
}

static bool parse_uint(const char *s, unsigned *out)
{
	if (!isdigit((unsigned char)*s))
		return false;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || errno || v > 0xffffffffUL)
		return false;
	*out = (unsigned)v;
	return true;
}

/* ---- arm64: MIDR_EL1 from <cpu_root>/cpuN/regs/identification/midr_el1 ---- */

static int midr_of(const char *root, int cpu, char *buf, size_t len)
{
	char path[4096], text[64];
	if (put(path, sizeof(path), "%s/cpu%d/" MIDR_PATH, root, cpu))
		return -ENAMETOOLONG;
	int ret = read_line(path, text, sizeof(text));
	if (ret)
		return ret == -ENOBUFS ? -EINVAL : ret;
	uint64_t midr;
	if (!parse_hex(text, &midr))
		return -EINVAL;
	return put(buf, len, "0x%016" PRIx64, midr);
}

/* Smallest CPU number > after in a list such as "0-3,8,10-11", or -1. */
static int cpulist_next(const char *list, int after)
{
	int best = -1;
	const char *p = list;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			break;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1)
				break;
			p = end;
		}
		if (hi > after && lo <= hi && lo >= 0 && hi <= 1 << 20) {
			long c = lo > after ? lo : after + 1;
			if (best < 0 || c < best)
				best = (int)c;
		}
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
	}
	return best;
}

/* First CPU (lowest number) whose MIDR can be read: from "online", else cpuN dirs. */
static int midr_any(const char *root, char *buf, size_t len)
{
	char path[4096], list[4096];
	if (put(path, sizeof(path), "%s/online", root))
		return -ENAMETOOLONG;
	if (read_line(path, list, sizeof(list)) == 0) {
		for (int c = cpulist_next(list, -1); c >= 0; c = cpulist_next(list, c)) {
			int ret = midr_of(root, c, buf, len);
			if (ret == 0 || ret == -ENOBUFS)
				return ret;
		}
		return -ENOENT;
	}
	DIR *dir = opendir(root);
	if (!dir)
		return errno ? -errno : -ENOENT;
	int best = -1, ret = -ENOENT;
	char value[32];
	struct dirent *de;
	while ((de = readdir(dir))) {
		unsigned n;
		if (strncmp(de->d_name, "cpu", 3) || !parse_uint(de->d_name + 3, &n) || n > 1u << 20)
			continue;
		if (best >= 0 && (int)n > best)
			continue;
		if (midr_of(root, (int)n, value, sizeof(value)) == 0) {
			best = (int)n;
			ret = put(buf, len, "%s", value);
		}
	}
	closedir(dir);
	return ret;
}

/* ---- /proc/cpuinfo: "key : value" lines in "processor : N" blocks ---- */

#define CPUINFO_MAX_KEYS 4
#define CPUINFO_VAL 128

/*
 * Values of keys in the block of processor cpu (cpu < 0: the first block).
 * Keys are compared whole ("model" is not "model name"). Returns 0 when every
 * key was found, -ENOENT when the file or the CPU or a key is missing.
 */
static int cpuinfo_fields(const char *path, int cpu, const char *const *keys, size_t nkeys,
			  char vals[][CPUINFO_VAL])
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -ENOENT;
	}
	bool found[CPUINFO_MAX_KEYS] = { false };
	bool in_target = false, seen_target = false;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) != -1) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *key = trim(line), *val = trim(colon + 1);
		if (!strcmp(key, "processor")) {
			if (seen_target)
				break;
			unsigned n;
			in_target = cpu < 0 || (parse_uint(val, &n) && n == (unsigned)cpu);
			seen_target = in_target;
			continue;
		}
		if (!in_target)
			continue;
		for (size_t i = 0; i < nkeys; i++) {
			if (!found[i] && !strcmp(key, keys[i])) {
				snprintf(vals[i], CPUINFO_VAL, "%s", val);
				found[i] = true;
			}
		}
	}
	free(line);
	fclose(f);
	for (size_t i = 0; i < nkeys; i++)
		if (!found[i])
			return -ENOENT;
	return 0;
}

static int proc_path(char *out, size_t len, const char *cpu_root, const char *name)
{
	if (cpu_root)
		return put(out, len, "%s/%s", cpu_root, name) ? -ENAMETOOLONG : 0;
	return put(out, len, "/proc/%s", name) ? -ENAMETOOLONG : 0;
}

/* x86 from cpuinfo: the kernel prints family and model already combined, in decimal. */
static int x86_from_cpuinfo(const char *path, int cpu, char *buf, size_t len)
{
	static const char *const keys[] = { "vendor_id", "cpu family", "model", "stepping" };
	char v[4][CPUINFO_VAL];
	int ret = cpuinfo_fields(path, cpu, keys, 4, v);
	if (ret)
		return ret;
	unsigned family, model, stepping;
	if (!v[0][0] || strchr(v[0], '-') || !parse_uint(v[1], &family) ||
	    !parse_uint(v[2], &model) || !parse_uint(v[3], &stepping))
		return -EINVAL;
	return put(buf, len, "%s-%u-%X-%X", v[0], family, model, stepping);
}

/* powerpc from cpuinfo: "revision : 2.2 (pvr 004e 1202)" → "0x004e1202". */
static int ppc_from_cpuinfo(const char *path, int cpu, char *buf, size_t len)
{
	static const char *const keys[] = { "revision" };
	char v[1][CPUINFO_VAL];
	int ret = cpuinfo_fields(path, cpu, keys, 1, v);
	if (ret)
		return ret;
	const char *p = strstr(v[0], "pvr ");
	unsigned hi, lo;
	int used = 0;
	if (!p || sscanf(p + 4, "%4x %4x%n", &hi, &lo, &used) != 2 || used == 0)
		return -EINVAL;
	return put(buf, len, "0x%04x%04x", hi, lo);
}

/* The last blank-separated word of a value, as perf takes it. */
static const char *last_word(const char *s)
{
	const char *sp = strrchr(s, ' ');
	return sp ? sp + 1 : s;
}

/* riscv from cpuinfo: mvendorid-marchid-mimpid of the hart. */
static int riscv_from_cpuinfo(const char *path, int cpu, char *buf, size_t len)
{
	static const char *const keys[] = { "mvendorid", "marchid", "mimpid" };
	char v[3][CPUINFO_VAL];
	int ret = cpuinfo_fields(path, cpu, keys, 3, v);
	if (ret)
		return ret;
	for (int i = 0; i < 3; i++)
		if (!*last_word(v[i]))
			return -EINVAL;
	return put(buf, len, "%s-%s-%s", last_word(v[0]), last_word(v[1]), last_word(v[2]));
}

/* ---- s390: /proc/sysinfo (+ /proc/service_levels) ---- */

/* Append word to a fixed field of size cap, truncating as perf's buffers do. */
static void field_add(char *field, size_t cap, const char *sep, const char *word)
{
	size_t n = strlen(field);
	if (n + 1 >= cap)
		return;
	snprintf(field + n, cap - n, "%s%s", n ? sep : "", word);
}

/* Blank-separated words after a "Key:" prefix, joined with sep into field. */
static void words_into(char *rest, char *field, size_t cap, const char *sep)
{
	char *save = NULL;
	for (char *w = strtok_r(rest, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		field_add(field, cap, sep, w);
}

/*
 * "Manufacturer,Type,Model[,Model id],version,authorization": manufacturer and
 * type words are concatenated, model words joined with ',' (the capacity and
 * the model id); the CPU-MF counter facility version and authorization from
 * service_levels are appended when both are known.
 */
static int s390_from_files(const char *sysinfo, const char *levels, char *buf, size_t len)
{
	char manu[32] = "", type[8] = "", model[33] = "", version[8] = "", auth[8] = "";
	FILE *f = fopen(sysinfo, "r");
	if (!f) {
		int r = -errno;	/* < 0 after a failure: said so for scan-build */
		return r < 0 ? r : -ENOENT;
	}
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) != -1) {
		if (!strncmp(line, "Manufacturer:", 13)) {
			words_into(line + 13, manu, sizeof(manu), "");
		} else if (!strncmp(line, "Type:", 5)) {
			words_into(line + 5, type, sizeof(type), "");
		} else if (!strncmp(line, "Model:", 6)) {
			words_into(line + 6, model, sizeof(model), ",");
			break;
		}
	}
	fclose(f);
	if (!manu[0] || !type[0] || !model[0]) {
		free(line);
		return -EINVAL;
	}
	f = levels ? fopen(levels, "r") : NULL;	/* absent on z/VM guests */
	while (f && getline(&line, &cap, f) != -1) {
		if (strncmp(line, "CPU-MF:", 7))
			continue;
		char *save = NULL;
		for (char *w = strtok_r(line + 7, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
			if (!strncmp(w, "version=", 8))
				field_add(version, sizeof(version), "", w + 8);
			else if (!strncmp(w, "authorization=", 14))
				field_add(auth, sizeof(auth), "", w + 14);
		}
	}
	if (f)
		fclose(f);
	free(line);
	if (version[0] && auth[0])
		return put(buf, len, "%s,%s,%s,%s,%s", manu, type, model, version, auth);
	return put(buf, len, "%s,%s,%s", manu, type, model);
}

int pk_cpuid__read(const char *arch, const char *cpu_root, int cpu, char *buf, size_t len)
{
	if (!arch || !buf || !len)
		return -EINVAL;
	buf[0] = '\0';
	char path[4096], path2[4096];
	int ret;
	if (!strcmp(arch, "arm64")) {
		const char *root = cpu_root ? cpu_root : CPU_ROOT_DEFAULT;
		return cpu >= 0 ? midr_of(root, cpu, buf, len) : midr_any(root, buf, len);
	}
	if (!strcmp(arch, "s390")) {
		if ((ret = proc_path(path, sizeof(path), cpu_root, "sysinfo")) ||
		    (ret = proc_path(path2, sizeof(path2), cpu_root, "service_levels")))
			return ret;
		return s390_from_files(path, path2, buf, len);
	}
	if ((ret = proc_path(path, sizeof(path), cpu_root, "cpuinfo")))
		return ret;
	if (!strcmp(arch, "x86"))
		return x86_from_cpuinfo(path, cpu, buf, len);
	if (!strcmp(arch, "powerpc"))
		return ppc_from_cpuinfo(path, cpu, buf, len);
	if (!strcmp(arch, "riscv"))
		return riscv_from_cpuinfo(path, cpu, buf, len);
	return -ENOTSUP;
}

int pk_cpuid__x86_format(const char *vendor, unsigned eax, char *buf, size_t len)
{
	unsigned family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf, stepping = eax & 0xf;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family >= 6)
		model |= ((eax >> 16) & 0xf) << 4;
	return put(buf, len, "%s-%u-%X-%X", vendor, family, model, stepping);
}

#if defined(__x86_64__) || defined(__i386__)
/* Vendor from leaf 0 (ebx, edx, ecx), signature from leaf 1. */
static int x86_from_insn(char *buf, size_t len)
{
	unsigned max, a, b, c, d;
	char vendor[13];
	__cpuid(0, max, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (max < 1)
		return -ENOTSUP;
	__cpuid(1, a, b, c, d);
	return pk_cpuid__x86_format(vendor, a, buf, len);
}
#endif

#if defined(__powerpc__) || defined(__powerpc64__)
static int ppc_from_insn(char *buf, size_t len)
{
	unsigned long pvr;
	__asm__ volatile("mfspr %0, 287" : "=r"(pvr));	/* SPRN_PVR */
	return put(buf, len, "0x%08lx", pvr & 0xffffffffUL);
}
#endif

int pk_cpuid__host(const char *cpu_root, int cpu, char *buf, size_t len)
{
	if (!buf || !len)
		return -EINVAL;
#if defined(__x86_64__) || defined(__i386__)
	if (!cpu_root)
		return x86_from_insn(buf, len);
#elif defined(__powerpc__) || defined(__powerpc64__)
	if (!cpu_root)
		return ppc_from_insn(buf, len);
#endif
	return pk_cpuid__read(pk_cpuid__host_arch(), cpu_root, cpu, buf, len);
}
