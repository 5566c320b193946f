/* SPDX-License-Identifier: MIT */
/*
 * evspec/explain.c — the meaning of an attr: privilege levels, arm64 exception
 * levels per system kind (Documentation/arch/arm64/perf.rst), arm64 counting
 * thresholds, Intel ACR reload masks in words, and reverse lookup of a raw
 * configuration in the tables.
 */
#include <pmukit/explain.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

void pk_explain__levels(const struct perf_event_attr *a, struct pk_levels *out)
{
	*out = (struct pk_levels){
		.user = !a->exclude_user,
		.kernel = !a->exclude_kernel,
		.hv = !a->exclude_hv,
		.host = !a->exclude_host,
		.guest = !a->exclude_guest,
		.idle = !a->exclude_idle,
	};
}

/* Append word to an "a, b and c" list of total words (*seen of them already in it). */
static void add(struct pk_buf *o, const char *word, int total, int *seen)
{
	(*seen)++;
	pk_buf__printf(o, "%s%s", *seen == 1 ? "" : *seen == total ? " and " : ", ", word);
}

const char *pk_explain__levels_text(const struct pk_levels *lv, char *buf, size_t len)
{
	struct pk_buf o;	/* on buf: cut when full, always NUL-terminated */
	pk_buf__init_fixed(&o, buf, len);
	int total = lv->user + lv->kernel + lv->hv, seen = 0;
	if (lv->user)
		add(&o, "user", total, &seen);
	if (lv->kernel)
		add(&o, "kernel", total, &seen);
	if (lv->hv)
		add(&o, "hypervisor", total, &seen);
	if (!total)
		add(&o, "no privilege level", 1, &seen);
	const char *ctx = lv->host && lv->guest ? "; host and guest"
			  : lv->host		? "; host only (guest excluded)"
			  : lv->guest		? "; guest only (host excluded)"
						: "; neither host nor guest";
	pk_buf__printf(&o, "%s%s", ctx, lv->idle ? "" : "; not when idle");
	return buf;
}

/*
 * perf.rst: user = EL0 everywhere; kernel = EL1 (non-VHE host, guests) or EL1
 * and EL2 (VHE host); hv = EL2 on a non-VHE host only, ignored on VHE and in
 * guests; host/guest exclusion switches whole contexts. EL2 is never counted
 * within a guest.
 */
void pk_explain__arm64_els(const struct perf_event_attr *a, enum pk_arm64_system sys,
			   struct pk_arm64_els *out)
{
	bool u = !a->exclude_user, k = !a->exclude_kernel, hv = !a->exclude_hv;
	bool host = !a->exclude_host, guest = !a->exclude_guest;
	memset(out, 0, sizeof(*out));
	switch (sys) {
	case PK_ARM64_VHE_HOST:
		out->host_el0 = host && u;
		out->host_el2 = host && k;	/* the VHE host kernel runs at EL2 */
		break;
	case PK_ARM64_NVHE_HOST:
		out->host_el0 = host && u;
		out->host_el1 = host && k;
		out->host_el2 = host && hv;
		out->blackout = out->host_el2;
		break;
	case PK_ARM64_GUEST:
		out->host_el0 = host && u;
		out->host_el1 = host && k;
		return;			/* nothing below a guest, EL2 never counted */
	}
	out->guest_el0 = guest && u;
	out->guest_el1 = guest && k;
}

const char *pk_explain__arm64_text(const struct pk_arm64_els *e, enum pk_arm64_system sys,
				   char *buf, size_t len)
{
	char h[32] = "", g[32] = "";
	snprintf(h, sizeof(h), "%s%s%s", e->host_el0 ? " EL0" : "", e->host_el1 ? " EL1" : "",
		 e->host_el2 ? " EL2" : "");
	snprintf(g, sizeof(g), "%s%s", e->guest_el0 ? " EL0" : "", e->guest_el1 ? " EL1" : "");
	const char *self = sys == PK_ARM64_GUEST ? "this guest" : "host";
	if (sys == PK_ARM64_GUEST)
		snprintf(buf, len, "%s:%s (EL2 is never counted within a guest)", self,
			 *h ? h : " nothing");
	else
		snprintf(buf, len, "%s:%s; guests:%s%s", self, *h ? h : " nothing", *g ? g : " nothing",
			 e->blackout ? "; note: with EL2 counted on non-VHE, host events at guest "
				       "entry/exit fall in a short blackout window"
				     : "");
	return buf;
}

void pk_explain__threshold(const struct pk_pmu *pmu, const struct perf_event_attr *a,
			   struct pk_threshold *out)
{
	memset(out, 0, sizeof(*out));
	const struct pk_pmu_format *t = pmu ? pk_pmu__find_format(pmu, "threshold") : NULL;
	if (!t)
		return;
	const uint64_t cfg[4] = { a->config, a->config1, a->config2, 0 };
	out->value = pk_pmu_format__extract(t, cfg);
	const struct pk_pmu_format *c = pk_pmu__find_format(pmu, "threshold_compare");
	const struct pk_pmu_format *n = pk_pmu__find_format(pmu, "threshold_count");
	out->compare = c ? (unsigned)pk_pmu_format__extract(c, cfg) : 0;
	out->count = n && pk_pmu_format__extract(n, cfg);
	out->present = out->value != 0;	/* 0 disables thresholding */
}

const char *pk_explain__threshold_text(const struct pk_threshold *t, const char *event, char *buf,
				       size_t len)
{
	static const char *const ops[] = { "!=", "==", ">=", "<" };
	if (!t->present) {
		snprintf(buf, len, "no threshold");
		return buf;
	}
	snprintf(buf, len, "counts %s on cycles where it increments by %s %" PRIu64 ", %s", event,
		 ops[t->compare & 3], t->value,
		 t->count ? "by 1 per such cycle" : "by the increment of that cycle");
	return buf;
}

/* "cpu_atom/cycles,period=1/" -> "cycles"; the table's name when there is one. */
static const char *short_name(const struct pk_evsel *e, char *buf, size_t len)
{
	if (e->table_event)
		return e->table_event;
	const char *n = e->name ? e->name : "?", *slash = strchr(n, '/');
	if (slash) {
		size_t k = strcspn(slash + 1, ",/");
		if (k && k < len && !memchr(slash + 1, '=', k)) {
			memcpy(buf, slash + 1, k);
			buf[k] = '\0';
			return buf;
		}
	}
	return n;
}

const char *pk_explain__acr_text(const struct pk_evlist *el, size_t idx, char *buf, size_t len)
{
	const struct pk_evsel *e = pk_evlist__evsel(el, idx);
	buf[0] = '\0';
	if (!e || !e->acr_mask)
		return buf;
	size_t lead = e->leader, n = pk_evlist__evsel(el, lead)->nr_members;
	size_t used = 0;
	int w;
	if (!e->attr.sample_period && !e->attr.freq) {
		/* counting: no period overflows, so nothing is reloaded */
		snprintf(buf, len, "no effect when counting (reloads happen when a sampling period "
			 "overflows: perf record)");
		return buf;
	}
	/* when does this one sample: it reaches its period before those that reload it */
	for (size_t j = 0; j < n; j++) {
		const struct pk_evsel *o = pk_evlist__evsel(el, lead + j);
		size_t me = idx - lead;
		if (lead + j == idx || !(o->acr_mask & (1ull << me)) || (e->acr_mask & (1ull << me)))
			continue;
		uint64_t p = e->attr.sample_period, q = o->attr.sample_period;
		if (!p || !q)
			continue;
		char b1[128], b2[128];
		w = snprintf(buf + used, len - used, "%ssamples when %s/%s > %g", used ? "; " : "",
			     short_name(e, b1, sizeof(b1)), short_name(o, b2, sizeof(b2)),
			     (double)p / (double)q);
		if (w > 0 && (size_t)w < len - used)
			used += (size_t)w;
	}
	w = snprintf(buf + used, len - used, "%sat %" PRIu64 " it overflows and reloads", used ? "; " : "",
		     (uint64_t)e->attr.sample_period);
	if (w > 0 && (size_t)w < len - used)
		used += (size_t)w;
	for (size_t j = 0, k = 0; j < n && j < 64; j++) {
		if (!(e->acr_mask & (1ull << j)))
			continue;
		char b1[128];
		w = snprintf(buf + used, len - used, "%s%s", k++ ? ", " : " ",
			     short_name(pk_evlist__evsel(el, lead + j), b1, sizeof(b1)));
		if (w > 0 && (size_t)w < len - used)
			used += (size_t)w;
	}
	return buf;
}

/* config words an encoding ("event=0x51,umask=1,period=2000003") gives on pmu. */
static int encode_terms(const struct pk_pmu *pmu, const char *enc, uint64_t cfg[4])
{
	memset(cfg, 0, 4 * sizeof(*cfg));
	while (*enc) {
		size_t n = strcspn(enc, ",");
		const char *eq = memchr(enc, '=', n);
		char name[64];
		size_t nl = eq ? (size_t)(eq - enc) : n;
		if (nl >= sizeof(name))
			return -EINVAL;
		memcpy(name, enc, nl);
		name[nl] = '\0';
		uint64_t v = eq ? strtoull(eq + 1, NULL, 0) : 1;
		const struct pk_pmu_format *f = pk_pmu__find_format(pmu, name);
		if (f) {
			if (pk_pmu_format__place(f, v, cfg))
				return -ERANGE;
		} else if (!strcmp(name, "config")) {
			cfg[0] = v;
		} else if (!strcmp(name, "config1")) {
			cfg[1] = v;
		} else if (!strcmp(name, "config2")) {
			cfg[2] = v;
		}	/* period=, name= ...: not part of the configuration */
		enc += n + (enc[n] == ',');
	}
	return 0;
}

int pk_explain__reverse(struct pk_catalog *cat, size_t model, const struct pk_pmu *pmu,
			const struct perf_event_attr *attr, struct pk_event *out)
{
	struct pk_model m;
	if (!cat || !pmu || pk_catalog__model(cat, model, &m))
		return -ENOENT;
	bool found = false;
	for (size_t i = 0; i < m.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		uint64_t cfg[4];
		pk_catalog__event_brief(cat, model, i, &e);
		if (!pk_pmu__matches_table_pmu(pmu, e.pmu) || encode_terms(pmu, e.encoding, cfg))
			continue;
		if (cfg[0] != attr->config || cfg[1] != attr->config1)
			continue;
		if (!e.deprecated)	/* a current name wins over a deprecated one */
			return pk_catalog__event(cat, model, i, out);
		if (!found)
			pk_catalog__event(cat, model, i, out);
		found = true;
	}
	return found ? 0 : -ENOENT;
}
