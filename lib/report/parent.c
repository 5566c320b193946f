/* SPDX-License-Identifier: MIT */
/*
 * report/parent.c — what perf report keeps of a sample's callchain besides
 * its entries: the "parent" sort key (-p REGEX, perf's default
 * "^sys_|^do_page_fault": the first callchain entry, in the order the
 * callchain is resolved, whose symbol matches; -x leaves out the entries
 * without one), and -U (--hide-unresolved), which drops the samples whose
 * address has no symbol and the callchain entries without one, as perf's
 * process_sample_event and add_callchain_ip do.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>

#include "report/report_int.h"
#include "util/error.h"

#define DEFAULT_PARENT "^sys_|^do_page_fault"

int rp_parent_setup(struct pk_report *r, struct pk_error *err)
{
	if (r->parent_re || !r->has_key[RP_KEY_PARENT])
		return 0;
	regex_t *re = malloc(sizeof(*re));
	if (!re)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	const char *pat = r->opts.parent ? r->opts.parent : DEFAULT_PARENT;
	int rc = regcomp(re, pat, REG_EXTENDED);
	if (rc) {
		char msg[256];
		regerror(rc, re, msg, sizeof(msg));
		free(re);
		return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid regex: %s\n%s", pat, msg);
	}
	r->parent_re = re;
	return 0;
}

void rp_parent_free(struct pk_report *r)
{
	if (r->parent_re) {
		regfree(r->parent_re);
		free(r->parent_re);
		r->parent_re = NULL;
	}
	pk_buf__free(&r->unresolved_chain);
}

const struct pk_sym *rp_parent_of(const struct pk_report *r, const struct pk_resolved *rs)
{
	if (!r->parent_re)
		return NULL;
	/* in the order perf resolves the callchain: from the root with caller order */
	for (size_t k = 0; k < rs->nr_chain; k++) {
		size_t i = r->cg.caller ? rs->nr_chain - 1 - k : k;
		const struct pk_sym *sym = rs->chain[i]->sym;
		if (sym && !regexec(r->parent_re, sym->name, 0, NULL, 0))
			return sym;
	}
	return NULL;
}

int rp_hide_unresolved(struct pk_report *r, const struct pk_resolved *rs, struct pk_resolved *out)
{
	*out = *rs;
	if (!rs->loc->sym)
		return 0;
	size_t k = 0;
	r->unresolved_chain.len = 0;
	for (size_t i = 0; i < rs->nr_chain; i++) {
		if (!rs->chain[i]->sym)
			continue;
		if (pk_buf__append(&r->unresolved_chain, &rs->chain[i], sizeof(rs->chain[i])) < 0)
			return -1;
		k++;
	}
	out->chain = (const struct pk_loc *const *)r->unresolved_chain.data;
	out->nr_chain = k;
	return 1;
}
