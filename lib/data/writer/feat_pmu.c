/* SPDX-License-Identifier: MIT */
/*
 * data/writer/feat_pmu.c — the feature sections that describe the machine's PMUs
 * (SYSROOT/sys/bus/event_source/devices), in directory order as perf 6.1
 * lists them: PMU_MAPPINGS (type and name of each), CPU_PMU_CAPS (the caps/
 * files of the "cpu" PMU) and PMU_CAPS (those of every other PMU that has
 * some, with its name).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/writer/write_int.h"

#define PMU_DIR "sys/bus/event_source/devices"

/* --- PMU_MAPPINGS -------------------------------------------------------------- */

int pkw_feat_pmu_mappings(struct pk_data_writer *w, struct pk_buf *b)
{
	char path[PATH_MAX];
	DIR *d = opendir(pkw_path(w, PMU_DIR, path, sizeof(path)));
	struct pk_buf t = { 0 }, body = { 0 };
	uint32_t n = 0;
	int r = 1;

	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char rel[NAME_MAX + 64];
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), PMU_DIR "/%s/type", e->d_name);
		int k = pkw_read_text(w, rel, &t);
		if (k == -ENOMEM) {
			r = k;
			break;
		}
		if (k || !t.len)
			continue;
		if (pkw_put_u32(&body, (uint32_t)strtoul((const char *)t.data, NULL, 10)) ||
		    pkw_put_string(&body, e->d_name)) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r == 1 && (pkw_put_u32(b, n) || pk_buf__append(b, body.data, body.len) < 0))
		r = -ENOMEM;
	pk_buf__free(&t);
	pk_buf__free(&body);
	return r;
}

/*
 * The caps/ files of PMU name into b: u32 count, then name and value (its
 * first line) of each; with_name: the PMU's name after them. *nr: the count;
 * 0 when the PMU has no caps/ directory.
 */
static int put_caps(struct pk_data_writer *w, const char *name, bool with_name, struct pk_buf *b,
		    uint32_t *nr)
{
	char rel[NAME_MAX + 64], path[PATH_MAX];
	struct pk_buf body = { 0 }, t = { 0 };
	int r = 0;

	*nr = 0;
	snprintf(rel, sizeof(rel), PMU_DIR "/%s/caps", name);
	DIR *d = opendir(pkw_path(w, rel, path, sizeof(path)));
	if (d) {
		for (struct dirent *e; r == 0 && (e = readdir(d));) {
			char frel[2 * NAME_MAX + 80];
			if (e->d_name[0] == '.')
				continue;
			snprintf(frel, sizeof(frel), PMU_DIR "/%s/caps/%s", name, e->d_name);
			r = pkw_read_text(w, frel, &t);
			if (r) {
				r = r == -ENOMEM ? r : 0;
				continue;
			}
			char *nl = strchr((char *)t.data, '\n');
			if (nl)
				*nl = '\0';
			if (pkw_put_string(&body, e->d_name) || pkw_put_string(&body, (char *)t.data))
				r = -ENOMEM;
			else
				(*nr)++;
		}
		closedir(d);
	}
	if (!r && (pkw_put_u32(b, *nr) || pk_buf__append(b, body.data, body.len) < 0 ||
		   (with_name && pkw_put_string(b, name))))
		r = -ENOMEM;
	pk_buf__free(&body);
	pk_buf__free(&t);
	return r;
}

/* CPU_PMU_CAPS: the "cpu" PMU's caps (perf leaves the feature out without such a PMU) */
int pkw_feat_cpu_pmu_caps(struct pk_data_writer *w, struct pk_buf *b)
{
	char path[PATH_MAX];
	DIR *d = opendir(pkw_path(w, PMU_DIR "/cpu", path, sizeof(path)));
	uint32_t nr;

	if (!d)
		return 0;
	closedir(d);
	return put_caps(w, "cpu", false, b, &nr) ? -ENOMEM : 1;
}

/* PMU_CAPS: u32 count of the other PMUs with caps, then each one's caps and name */
int pkw_feat_pmu_caps(struct pk_data_writer *w, struct pk_buf *b)
{
	char path[PATH_MAX];
	struct pk_buf body = { 0 };
	uint32_t n = 0;
	int r = 1;
	DIR *d = opendir(pkw_path(w, PMU_DIR, path, sizeof(path)));

	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "cpu"))
			continue;
		size_t start = body.len;
		uint32_t nr;
		if (put_caps(w, e->d_name, true, &body, &nr)) {
			r = -ENOMEM;
			break;
		}
		if (nr)
			n++;
		else
			body.len = start;
	}
	closedir(d);
	if (r == 1 && (pkw_put_u32(b, n) || pk_buf__append(b, body.data, body.len) < 0))
		r = -ENOMEM;
	pk_buf__free(&body);
	return r;
}
