// SPDX-License-Identifier: MIT
/*
 * session/attrs.c — the file's attrs and the facts about them that report,
 * diff and script ask for (pipe mode, which attrs have callchains, the
 * samples the kernel lost per attr), so that they ask the session alone
 * and not its reader.
 */
#include "session/session_int.h"

#include <errno.h>
#include <string.h>

#include "util/grow.h"

/* PERF_RECORD_MISC_LOST_SAMPLES_BPF (perf 6.1's headers may lack it) */
#define MISC_LOST_SAMPLES_BPF (1u << 15)

bool pk_session__is_pipe(const struct pk_session *s)
{
	return pk_data_reader__is_pipe(s->r);
}

size_t pk_session__nr_attrs(const struct pk_session *s)
{
	return pk_data_reader__nr_attrs(s->r);
}

const struct pk_data_attr *pk_session__attr(const struct pk_session *s, int attr)
{
	return attr < 0 ? NULL : pk_data_reader__attr(s->r, (size_t)attr);	/* bounds-checked */
}

int pk_session__attr_of_id(const struct pk_session *s, uint64_t id)
{
	return pk_data_reader__attr_of_id(s->r, id);
}

bool pk_session__has_feat(const struct pk_session *s, unsigned feat)
{
	return pk_data_reader__has_feat(s->r, feat);
}

bool pk_session__any_sample_type(const struct pk_session *s, uint64_t bits)
{
	size_t n = pk_data_reader__nr_attrs(s->r);
	for (size_t i = 0; i < n; i++)
		if ((pk_data_reader__attr(s->r, i)->attr.sample_type & bits) == bits)
			return true;
	return false;
}

uint64_t pk_session__lost_samples(const struct pk_session *s, int attr)
{
	if (attr < 0)
		return s->st.nr_lost_samples;
	return (size_t)attr < s->nr_lost ? s->lost[attr] : 0;
}

uint64_t pk_session__nr_records(const struct pk_session *s, uint32_t type)
{
	return pk_data_reader__stats(s->r)->nr_records[type < 128 ? type : 127];
}

/*
 * A LOST_SAMPLES record (not one BPF filters dropped, which perf leaves out
 * of "Total Lost Samples"): counted in total and for its attr (the attr of
 * its sample id; none without one).
 */
int attrs__lost_samples(struct pk_session *s, const struct pk_data_event *ev)
{
	if (ev->misc & MISC_LOST_SAMPLES_BPF)
		return 0;
	uint64_t lost = ev->u.lost_samples.lost;
	s->st.nr_lost_samples += lost;
	if (ev->attr < 0)
		return 0;
	size_t a = (size_t)ev->attr;
	if (a >= s->nr_lost) {
		if (PK_GROW(s->lost, s->cap_lost, a + 1))
			return -ENOMEM;
		memset(s->lost + s->nr_lost, 0, (a + 1 - s->nr_lost) * sizeof(*s->lost));
		s->nr_lost = a + 1;
	}
	s->lost[a] += lost;
	return 0;
}
