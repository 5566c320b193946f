/* SPDX-License-Identifier: MIT */
/*
 * report/parent.c — what perf report keeps of a sample's callchain besides
 * its entries: the "parent" sort key (-p REGEX, perf's default
 * "^sys_|^do_page_fault": the first callchain entry, in the order the
 * callchain is resolved, whose symbol matches; -x leaves out the entries
 * without one), and -U (--hide-unresolved), which drops the samples whose
 * address has no symbol and the callchain entries without one, as perf's
 * process_sample_event and add_callchain_ip do. The regexes see the
 * entries add_callchain_ip sees: with --call-graph dwarf the kernel's, not
 * the unwound user frames (perf's unwind_entry matches neither).
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>

#include <linux/perf_event.h>

#include "report/report_int.h"
#include "util/error.h"

#define DEFAULT_PARENT "^sys_|^do_page_fault"

/* an entry the regexes see */
static const struct pk_sym *matchable(const struct pk_loc *loc, bool dwarf)
{
	return dwarf && loc->cpumode == PERF_RECORD_MISC_USER ? NULL : loc->sym;
}

static int compile(void **out, const char *pat, struct pk_error *err)
{
	regex_t *re = malloc(sizeof(*re));
	if (!re)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	int rc = regcomp(re, pat, REG_EXTENDED);
	if (rc) {
		char msg[256];
		regerror(rc, re, msg, sizeof(msg));
		free(re);
		return pk_error__set(err, -EINVAL, "", 0, 0, "Invalid regex: %s\n%s", pat, msg);
	}
	*out = re;
	return 0;
}

int rp_parent_setup(struct pk_report *r, struct pk_error *err)
{
	int rc = 0;
	if (!r->parent_re && r->has_key[RP_KEY_PARENT])
		rc = compile(&r->parent_re, r->opts.parent ? r->opts.parent : DEFAULT_PARENT, err);
	if (!rc && !r->ignore_re && r->opts.ignore_callees)
		rc = compile(&r->ignore_re, r->opts.ignore_callees, err);
	return rc;
}

static void re_free(void **re)
{
	if (*re) {
		regfree(*re);
		free(*re);
		*re = NULL;
	}
}

void rp_parent_free(struct pk_report *r)
{
	re_free(&r->parent_re);
	re_free(&r->ignore_re);
	pk_buf__free(&r->unresolved_chain);
}

void rp_ignore_callees(const struct pk_report *r, const struct pk_resolved *rs, bool dwarf,
		       struct pk_resolved *out)
{
	*out = *rs;
	if (!r->ignore_re)
		return;
	size_t n = rs->nr_chain, last = SIZE_MAX;
	bool parent_found = false;
	for (size_t k = 0; k < n; k++) {
		size_t i = r->cg.caller ? n - 1 - k : k;
		const struct pk_sym *sym = matchable(rs->chain[i], dwarf);
		if (!sym)
			continue;
		/* perf checks the parent regex first: a frame that becomes the parent is not a root */
		if (r->parent_re && !parent_found && !regexec(r->parent_re, sym->name, 0, NULL, 0)) {
			parent_found = true;
			continue;
		}
		if (!regexec(r->ignore_re, sym->name, 0, NULL, 0))
			last = i;
	}
	if (last == SIZE_MAX)
		return;
	/* the matching entry is the sample's location and the first entry kept */
	out->loc = rs->chain[last];
	out->cpumode = rs->chain[last]->cpumode;
	if (r->cg.caller) {
		out->nr_chain = last + 1;	/* callee-first array: entries 0..last */
	} else {
		out->chain = rs->chain + last;
		out->nr_chain = n - last;
	}
}

const struct pk_sym *rp_parent_of(const struct pk_report *r, const struct pk_resolved *rs,
				  bool dwarf)
{
	if (!r->parent_re)
		return NULL;
	/* in the order perf resolves the callchain: from the root with caller order */
	for (size_t k = 0; k < rs->nr_chain; k++) {
		size_t i = r->cg.caller ? rs->nr_chain - 1 - k : k;
		const struct pk_sym *sym = matchable(rs->chain[i], dwarf);
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
