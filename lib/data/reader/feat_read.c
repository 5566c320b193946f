/* SPDX-License-Identifier: MIT */
/*
 * data/reader/feat_read.c — the header's feature sections (file mode: the table
 * after the data section; pipe mode: HEADER_FEATURE records), kept as
 * stored and decoded into struct pk_data_env: strings, CPU counts and
 * topology, memory, command line, event names (EVENT_DESC), PMU mappings,
 * groups, clocks, compression, sample times, build-ids. Layouts are those
 * of perf's util/header.c writers; sections may be longer than we read
 * (newer perf), never shorter than what they announce.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

const char *dr_cur_str(struct pk_data_reader *r, struct dr_cur *c)
{
	uint32_t len = dr_cur_u32(c);
	if (c->bad || len > (size_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	const char *s = (const char *)c->p;
	const char *nul = memchr(s, 0, len);
	c->p += len;
	char *out = pk_arena__strndup(&r->arena, s, nul ? (size_t)(nul - s) : len);
	if (!out)
		c->bad = true;
	return out;
}

/* A u32 count, then that many strings, into an arena array: the count, or 0 (*out NULL)
 * when they are not all there (the env never holds a count without its strings). */
static uint32_t cur_strs(struct pk_data_reader *r, struct dr_cur *c, const char *const **out)
{
	*out = NULL;
	uint32_t n = dr_cur_u32(c);
	if (c->bad || n > (size_t)(c->end - c->p) / 4) {
		c->bad = true;
		return 0;
	}
	const char **v = pk_arena__alloc(&r->arena, (n + 1) * sizeof(*v));
	if (!v) {
		c->bad = true;
		return 0;
	}
	for (uint32_t i = 0; i < n && !c->bad; i++)
		v[i] = dr_cur_str(r, c);
	if (c->bad)
		return 0;
	*out = v;
	return n;
}

int dr_add_build_id(struct pk_data_reader *r, int32_t pid, uint16_t misc, const uint8_t *id,
		    uint8_t size, const char *filename, size_t fn_len)
{
	if (PK_GROW(r->build_ids, r->cap_build_ids, r->nr_build_ids + 1))
		return -ENOMEM;
	struct pk_data_build_id *b = &r->build_ids[r->nr_build_ids];
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->misc = misc;
	b->size = size > 20 ? 20 : size;
	memcpy(b->id, id, b->size);
	b->filename = pk_arena__strndup(&r->arena, filename, fn_len);
	if (!b->filename)
		return -ENOMEM;
	r->nr_build_ids++;
	return 0;
}

/* BUILD_ID: build-id records (perf_record_header_build_id), or the old layout without pid. */
static int feat_build_id(struct pk_data_reader *r, const uint8_t *p, size_t size, uint64_t pos)
{
	const uint8_t *end = p + size;
	bool old = false;
	while (p < end) {
		if ((size_t)(end - p) < 8)
			return dr_fail(r, -EINVAL, pos, "BUILD_ID: %zu stray bytes", (size_t)(end - p));
		struct perf_event_header h;
		memcpy(&h, p, sizeof(h));
		if (r->swap) {
			h.type = dr_bswap32(h.type);
			h.misc = dr_bswap16(h.misc);
			h.size = dr_bswap16(h.size);
		}
		size_t fixed = old ? 8 + 24 : 8 + 4 + 24;
		if (h.size < fixed || h.size > (size_t)(end - p))
			return dr_fail(r, -EINVAL, pos, "BUILD_ID: entry of %u bytes", h.size);
		/* perf's ABI quirk: the kernel (first) entry of files written before the pid
		 * field existed reads "nel.kallsyms]" where the name should start */
		if (!old && h.size >= fixed + 13 && !memcmp(p + fixed, "nel.kallsyms]", 13)) {
			old = true;
			continue;
		}
		int32_t pid;
		const uint8_t *id;
		if (old) {
			pid = (h.misc == PERF_RECORD_MISC_GUEST_USER ||
			       h.misc == PERF_RECORD_MISC_GUEST_KERNEL) ? 0 : -1;
			id = p + 8;
		} else {
			uint32_t v = data_rd32(p + 8);
			pid = (int32_t)(r->swap ? dr_bswap32(v) : v);
			id = p + 12;
		}
		uint8_t idsz = (h.misc & PK_RECORD_MISC_BUILD_ID_SIZE) ? id[20] : 20;
		const char *fn = (const char *)p + fixed;
		size_t fmax = h.size - fixed;
		const char *nul = memchr(fn, 0, fmax);
		if (dr_add_build_id(r, pid, h.misc & ~PK_RECORD_MISC_BUILD_ID_SIZE, id, idsz, fn,
				    nul ? (size_t)(nul - fn) : fmax))
			return dr_fail(r, -ENOMEM, pos, "out of memory");
		p += h.size;
	}
	return 0;
}

static int feat_event_desc(struct pk_data_reader *r, struct dr_cur *c, uint64_t pos)
{
	uint32_t nre = dr_cur_u32(c), sz = dr_cur_u32(c);
	if (c->bad || !sz || sz > DR_ATTR_SIZE_MAX || nre > (size_t)(c->end - c->p) / sz)
		return dr_fail(r, -EINVAL, pos, "EVENT_DESC: %u events of %u bytes", nre, sz);
	const char **names = pk_arena__alloc(&r->arena, (nre + 1) * sizeof(*names));
	if (!names)
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	for (uint32_t i = 0; i < nre; i++) {
		if ((size_t)(c->end - c->p) < sz)
			return dr_fail(r, -EINVAL, pos, "EVENT_DESC: event %u runs past the section",
				       i);
		c->p += sz;	/* the attr: the attrs section has it already */
		uint32_t nr = dr_cur_u32(c);
		names[i] = dr_cur_str(r, c);
		if (c->bad || nr > (size_t)(c->end - c->p) / 8)
			return dr_fail(r, -EINVAL, pos, "EVENT_DESC: event %u runs past the section",
				       i);
		c->p += 8 * (size_t)nr;
	}
	r->evdesc_names = names;
	r->nr_evdesc = nre;
	for (uint32_t i = 0; i < nre && i < r->nr_attrs; i++)
		dr_apply_event_desc_name(r, i, names[i]);
	return 0;
}

static int feat_cpu_topology(struct pk_data_reader *r, struct dr_cur *c, uint64_t pos)
{
	struct pk_data_env *e = &r->env;
	e->nr_core_siblings = cur_strs(r, c, &e->core_siblings);
	e->nr_thread_siblings = cur_strs(r, c, &e->thread_siblings);
	if (c->bad)
		return dr_fail(r, -EINVAL, pos, "CPU_TOPOLOGY: sibling lists run past the section");
	uint32_t n = e->nr_cpus_avail;
	if (c->p == c->end || !n || (size_t)(c->end - c->p) < (size_t)n * 8)
		return 0;	/* written before core and socket ids existed */
	struct pk_data_cpu_topo *t = pk_arena__alloc(&r->arena, n * sizeof(*t));
	if (!t)
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		t[i].core_id = (int32_t)dr_cur_u32(c);
		t[i].socket_id = (int32_t)dr_cur_u32(c);
		t[i].die_id = -1;
	}
	e->cpu_topo = t;
	e->nr_cpu_topo = n;
	if (c->p == c->end)
		return 0;	/* before dies */
	e->nr_die_siblings = cur_strs(r, c, &e->die_siblings);
	if (c->bad || (size_t)(c->end - c->p) < (size_t)n * 4)
		return dr_fail(r, -EINVAL, pos, "CPU_TOPOLOGY: die ids run past the section");
	for (uint32_t i = 0; i < n; i++)
		t[i].die_id = (int32_t)dr_cur_u32(c);
	return 0;
}

/* PMU_MAPPINGS: a count, then a type and a name for each PMU; -ENOMEM or 0 (c->bad when an
 * entry runs past the section: the env then keeps none). */
static int feat_pmu_mappings(struct pk_data_reader *r, struct dr_cur *c)
{
	uint32_t n = dr_cur_u32(c);
	if (c->bad || n > (size_t)(c->end - c->p) / 8)
		return 0;	/* a count past the section: the feature is ignored */
	struct pk_data_pmu_mapping *m = pk_arena__alloc(&r->arena, (n + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		m[i].type = dr_cur_u32(c);
		m[i].name = dr_cur_str(r, c);
	}
	if (!c->bad) {
		r->env.nr_pmu_mappings = n;
		r->env.pmu_mappings = m;
	}
	return 0;
}

/* GROUP_DESC: a count, then name, leader index and member count of each group (applied to
 * the attrs at once); -ENOMEM or 0, as feat_pmu_mappings. */
static int feat_group_desc(struct pk_data_reader *r, struct dr_cur *c)
{
	uint32_t n = dr_cur_u32(c);
	if (c->bad || n > (size_t)(c->end - c->p) / 12)
		return 0;	/* a count past the section: the feature is ignored */
	struct pk_data_group_desc *g = pk_arena__alloc(&r->arena, (n + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		g[i].name = dr_cur_str(r, c);
		g[i].leader_idx = dr_cur_u32(c);
		g[i].nr_members = dr_cur_u32(c);
	}
	if (!c->bad) {
		r->env.nr_groups = n;
		r->env.groups = g;
		dr_apply_groups(r);
	}
	return 0;
}

static int feat_decode(struct pk_data_reader *r, unsigned feat, const uint8_t *data,
		       size_t size, uint64_t pos)
{
	struct dr_cur c = { .p = data, .end = data + size, .swap = r->swap };
	struct pk_data_env *e = &r->env;
	const char *name = "";
	switch (feat) {
	case PK_FEAT_TRACING_DATA:
		return dr_tracing_parse(r, data, size, pos);
	case PK_FEAT_BUILD_ID:
		return feat_build_id(r, data, size, pos);
	case PK_FEAT_HOSTNAME:
		e->hostname = dr_cur_str(r, &c);
		name = "HOSTNAME";
		break;
	case PK_FEAT_OSRELEASE:
		e->osrelease = dr_cur_str(r, &c);
		name = "OSRELEASE";
		break;
	case PK_FEAT_VERSION:
		e->version = dr_cur_str(r, &c);
		name = "VERSION";
		break;
	case PK_FEAT_ARCH:
		e->arch = dr_cur_str(r, &c);
		name = "ARCH";
		break;
	case PK_FEAT_CPUDESC:
		e->cpudesc = dr_cur_str(r, &c);
		name = "CPUDESC";
		break;
	case PK_FEAT_CPUID:
		e->cpuid = dr_cur_str(r, &c);
		name = "CPUID";
		break;
	case PK_FEAT_NRCPUS:
		e->nr_cpus_avail = dr_cur_u32(&c);
		e->nr_cpus_online = dr_cur_u32(&c);
		e->has_nrcpus = !c.bad;
		name = "NRCPUS";
		break;
	case PK_FEAT_TOTAL_MEM:
		e->total_mem = dr_cur_u64(&c);
		name = "TOTAL_MEM";
		break;
	case PK_FEAT_CMDLINE:
		e->nr_cmdline = cur_strs(r, &c, &e->cmdline);
		name = "CMDLINE";
		break;
	case PK_FEAT_EVENT_DESC:
		return feat_event_desc(r, &c, pos);
	case PK_FEAT_CPU_TOPOLOGY:
		return feat_cpu_topology(r, &c, pos);
	case PK_FEAT_PMU_MAPPINGS:
		name = "PMU_MAPPINGS";
		if (feat_pmu_mappings(r, &c))
			return dr_fail(r, -ENOMEM, pos, "out of memory");
		break;
	case PK_FEAT_GROUP_DESC:
		name = "GROUP_DESC";
		if (feat_group_desc(r, &c))
			return dr_fail(r, -ENOMEM, pos, "out of memory");
		break;
	case PK_FEAT_CLOCKID:
		e->clockid_res_ns = dr_cur_u64(&c);
		name = "CLOCKID";
		break;
	case PK_FEAT_CLOCK_DATA:
		name = "CLOCK_DATA";
		if (dr_cur_u32(&c) != 1)	/* version */
			break;
		e->clockid = dr_cur_u32(&c);
		e->clock_tod_ns = dr_cur_u64(&c);
		e->clock_clockid_ns = dr_cur_u64(&c);
		e->has_clock_data = !c.bad;
		break;
	case PK_FEAT_COMPRESSED:
		e->comp_version = dr_cur_u32(&c);
		e->comp_type = dr_cur_u32(&c);
		e->comp_level = dr_cur_u32(&c);
		e->comp_ratio = dr_cur_u32(&c);
		e->comp_mmap_len = dr_cur_u32(&c);
		e->has_compressed = !c.bad;
		name = "COMPRESSED";
		break;
	case PK_FEAT_SAMPLE_TIME:
		e->first_sample_time = dr_cur_u64(&c);
		e->last_sample_time = dr_cur_u64(&c);
		name = "SAMPLE_TIME";
		break;
	default:
		return 0;	/* kept as bytes only */
	}
	if (c.bad)
		return dr_fail(r, -EINVAL, pos, "feature %s (%u): section of %zu bytes is malformed",
			       name, feat, size);
	return 0;
}

int dr_feat_add(struct pk_data_reader *r, unsigned feat, const void *data, size_t size,
		uint64_t pos)
{
	uint8_t *copy = pk_arena__alloc(&r->arena, size ? size : 1);
	if (!copy)
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	memcpy(copy, data, size);
	r->feats[feat].data = copy;
	r->feats[feat].size = size;
	return feat_decode(r, feat, copy, size, pos);
}

/*
 * The feature sections, in bit order (NRCPUS before CPU_TOPOLOGY, as perf
 * processes them). As perf, damage stops the features, not the reading: a
 * table past the end of the file (a cut file) gives none, a section outside
 * the file or malformed ends them there; one warning says where.
 */
int dr_feat_load_file(struct pk_data_reader *r)
{
	const struct pk_perf_file_header *h = &r->hdr;
	size_t nr = 0;
	for (unsigned i = 0; i < PK_FEAT_BITS; i++)
		nr += (h->features[i / 64] >> (i % 64)) & 1;
	if (!nr)
		return 0;
	uint64_t toff = h->data.offset + h->data.size;
	if (toff > r->file_size || nr * 16 > r->file_size - toff) {
		dr_warn(r, toff, "the feature table (%zu sections) runs past the end of the file "
			"(%llu bytes): the header's features are lost", nr,
			(unsigned long long)r->file_size);
		return 0;
	}
	struct pk_perf_file_section *tab = malloc(nr * sizeof(*tab));
	if (!tab)
		return dr_fail(r, -ENOMEM, toff, "out of memory");
	int rc = dr_src_read_at(r, toff, tab, nr * sizeof(*tab));
	uint64_t total = 0;
	size_t good = nr;
	for (size_t i = 0; !rc && i < nr; i++) {
		if (r->swap) {
			tab[i].offset = dr_bswap64(tab[i].offset);
			tab[i].size = dr_bswap64(tab[i].size);
		}
		if (good == nr && (tab[i].offset > r->file_size ||
				   tab[i].size > r->file_size - tab[i].offset)) {
			dr_warn(r, toff + 16 * i,
				"feature section [%#llx, +%llu) is outside the file (%llu bytes): "
				"it and the features after it are lost",
				(unsigned long long)tab[i].offset, (unsigned long long)tab[i].size,
				(unsigned long long)r->file_size);
			good = i;
		}
		if (i < good)
			total += tab[i].size;
	}
	if (!rc && total > DR_MAX_FEATURE_BYTES)
		rc = dr_fail(r, -EINVAL, toff, "feature sections of %llu bytes",
			     (unsigned long long)total);
	if (!rc) {
		r->feat_buf = malloc(total ? total : 1);
		if (!rc && !r->feat_buf)
			rc = dr_fail(r, -ENOMEM, toff, "out of memory");
	}
	uint64_t at = 0;
	size_t s = 0;
	for (unsigned f = 0; !rc && s < good && f < PK_FEAT_BITS; f++) {
		if (!((h->features[f / 64] >> (f % 64)) & 1))
			continue;
		rc = dr_src_read_at(r, tab[s].offset, r->feat_buf + at, tab[s].size);
		r->feats[f].data = r->feat_buf + at;
		r->feats[f].size = tab[s].size;
		at += tab[s].size;
		s++;
	}
	s = 0;
	for (unsigned f = 0; !rc && s < good && f < PK_FEAT_BITS; f++) {
		if (!((h->features[f / 64] >> (f % 64)) & 1))
			continue;
		rc = feat_decode(r, f, r->feats[f].data, r->feats[f].size, tab[s].offset);
		s++;
	}
	free(tab);
	return rc;
}

bool pk_data_reader__has_feat(const struct pk_data_reader *r, unsigned feat)
{
	return feat < PK_FEAT_BITS && r->feats[feat].data;
}

const void *pk_data_reader__feat_data(const struct pk_data_reader *r, unsigned feat,
				      size_t *size)
{
	if (feat >= PK_FEAT_BITS || !r->feats[feat].data) {
		if (size)
			*size = 0;
		return NULL;
	}
	if (size)
		*size = r->feats[feat].size;
	return r->feats[feat].data;
}

const struct pk_data_env *pk_data_reader__env(const struct pk_data_reader *r)
{
	return &r->env;
}

size_t pk_data_reader__nr_build_ids(const struct pk_data_reader *r)
{
	return r->nr_build_ids;
}

const struct pk_data_build_id *pk_data_reader__build_id(const struct pk_data_reader *r, size_t i)
{
	return i < r->nr_build_ids ? &r->build_ids[i] : NULL;
}
