/* SPDX-License-Identifier: MIT */
/*
 * rows.c — a section's --stdio text as rows, for a browser (pmukit report's
 * TUI): the column header line, each printed entry's line with its index
 * (pk_report__entry), and an entry's callchain lines on request, the same
 * text pk_report__fprintf prints (print.c and chain_print.c make it); with
 * --hierarchy, hierarchy.c's lines with each node's level.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

/* the section's hists; -1 before finish, for no such section, or for --hierarchy unless hier_ok */
static int section_hists(const struct pk_report *r, size_t section, bool hier_ok)
{
	if (!r->finished || section >= r->nr_sections || (r->opts.hierarchy && !hier_ok))
		return -1;
	return r->sections[section];
}

/* the rows; total: their percentages of it (perf's filter-relative view), 0: of the section's */
static int foreach_row(struct pk_report *r, size_t section, uint64_t total,
		       int (*fn)(void *ctx, size_t entry, const char *line), void *ctx)
{
	int h = section_hists(r, section, false);
	if (h < 0)
		return -EINVAL;
	int rc = rp_chains_build(r, false);
	if (rc)
		return rc;
	rp_setup_elide(r, NULL);
	unsigned w[RP_COL_NR];
	rp_calc_widths(r, h, w);
	/* the header line: "# " and the names line of rp_print_headers, without "# " */
	char *hdr = NULL;
	size_t hlen = 0;
	FILE *mf = open_memstream(&hdr, &hlen);
	if (!mf)
		return -ENOMEM;
	rp_print_headers(r, w, mf);
	if (fclose(mf) || !hdr)
		return -ENOMEM;
	char *nl = strchr(hdr, '\n');
	if (nl)
		*nl = 0;
	rc = fn(ctx, (size_t)-1, hdr + (hdr[0] == '#' ? 2 : 0));
	free(hdr);
	size_t size = 4 + 1024 * 4;
	for (int i = 0; i < r->nr_fields; i++)
		size += w[r->fields[i]] + 2;
	char *line = malloc(size);
	if (!line)
		return -ENOMEM;
	struct rp_hists *hs = &r->hists[h];
	/* the percentages' total for the lines only: filter_relative's, restored after */
	bool rel = r->opts.filter_relative;
	uint64_t nf = hs->total_nf_period;
	for (size_t i = 0; i < hs->nr_out && !rc; i++) {
		const struct rp_entry *e = rp_entry(r, hs->out[i]);
		if (e->filtered || e->hidden)
			continue;
		if (total) {
			r->opts.filter_relative = true;
			hs->total_nf_period = total;
		}
		rp_entry_line(r, h, e, w, line, size);
		r->opts.filter_relative = rel;
		hs->total_nf_period = nf;
		rc = fn(ctx, i, line);
	}
	free(line);
	return rc;
}

int pk_report__foreach_row(struct pk_report *r, size_t section,
			   int (*fn)(void *ctx, size_t entry, const char *line), void *ctx)
{
	return foreach_row(r, section, 0, fn, ctx);
}

int pk_report__foreach_row_of(struct pk_report *r, size_t section, uint64_t total,
			      int (*fn)(void *ctx, size_t entry, const char *line), void *ctx)
{
	if (!total)
		return -EINVAL;
	int h = section_hists(r, section, false);
	if (h < 0 || (r->group && r->hists[h].nr_members > 1))
		return -EINVAL;
	return foreach_row(r, section, total, fn, ctx);
}

int pk_report__fprintf_callchain(struct pk_report *r, size_t section, size_t entry, FILE *fp)
{
	int h = section_hists(r, section, false);
	if (h < 0 || entry >= r->hists[h].nr_out)
		return -EINVAL;
	if (!r->hists[h].has_callchain || !r->cg.enabled)
		return 0;
	int rc = rp_chains_build(r, false);
	if (rc)
		return rc;
	rc = rp_chain_fprintf(r, rp_entry(r, r->hists[h].out[entry]), h, fp);
	return rc ? rc : ferror(fp) ? -EIO : 0;
}

int pk_report__snprintf_title(struct pk_report *r, size_t section, char *buf, size_t size)
{
	int h = section_hists(r, section, true);
	if (h < 0 || !size)
		return -EINVAL;
	uint64_t total;
	rp_section_head(r, h, buf, size, &total);
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, ", Event count (approx.): %" PRIu64, total);
	return 0;
}

/* a node line of --hierarchy's text: its first value (digits, '.', '%') ends at 2 + depth * 3 + w0 */
static int node_depth(const char *l, unsigned w0, int nk)
{
	size_t b = strspn(l, " "), e = b;
	bool digit = false;
	while (l[e] && strchr("0123456789.%", l[e])) {
		digit |= l[e] >= '0' && l[e] <= '9';
		e++;
	}
	if (!digit || (l[e] && l[e] != ' ') || e < 2 + w0 || (e - 2 - w0) % 3)
		return PK_REPORT_ROW_MORE;
	size_t d = (e - 2 - w0) / 3;
	return d < (size_t)nk ? (int)d : PK_REPORT_ROW_MORE;
}

/* perf's TUI header of --hierarchy: the values' headers, the levels' indent, the keys */
static int hierarchy_header(struct pk_report *r, const unsigned *w, int nk, const char *stdio_hdr,
			    int (*fn)(void *ctx, int depth, const char *line), void *ctx)
{
	char buf[2048];
	size_t n = 0, skip = 0;
	bool first = true;
	for (int i = 0; i < r->nr_fields && n < sizeof(buf); i++) {
		int c = r->fields[i];
		if (rp_col__is_key(c))
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%*s", first ? "" : "  ", (int)w[c],
				      rp_col__header(c));
		skip += w[c] + (first ? (unsigned)(nk - 1) * 3 : 2);
		first = false;
	}
	skip += 2;	/* "  " before the keys */
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, "%*s  %s", (nk - 1) * 3, "",
			 strlen(stdio_hdr) > skip ? stdio_hdr + skip : "");
	return fn(ctx, PK_REPORT_ROW_HEADER, buf);
}

int pk_report__foreach_hierarchy_row(struct pk_report *r, size_t section,
				     int (*fn)(void *ctx, int depth, const char *line), void *ctx)
{
	if (!r->finished || section >= r->nr_sections || !r->opts.hierarchy)
		return -EINVAL;
	int h = r->sections[section], nk = 0;
	int rc = rp_chains_build(r, false);
	if (rc)
		return rc;
	rp_setup_elide(r, NULL);
	unsigned w[RP_COL_NR], w0 = 0;
	rp_calc_widths(r, h, w);
	for (int i = 0; i < r->nr_sorts; i++)
		nk += rp_col__is_key(r->sorts[i]);
	for (int i = 0; i < r->nr_fields; i++)
		if (!rp_col__is_key(r->fields[i])) {
			w0 = w[r->fields[i]];
			break;
		}
	char *text = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&text, &len);
	if (!mf)
		return -ENOMEM;
	rc = rp_fprintf_hierarchy(r, h, w, false, mf);
	if (fclose(mf) && !rc)
		rc = -ENOMEM;
	char *save = NULL;
	int k = 0;
	for (char *l = rc || !text ? NULL : strtok_r(text, "\n", &save); l && !rc;
	     l = strtok_r(NULL, "\n", &save), k++) {
		size_t e = strlen(l);
		while (e && l[e - 1] == ' ')
			l[--e] = 0;
		if (k == 0)
			rc = hierarchy_header(r, w, nk, l + (l[0] == '#' ? 2 : 0), fn, ctx);
		else if (l[0] != '#' && e)	/* the dots and "#" lines, blank lines: none */
			rc = fn(ctx, node_depth(l, w0, nk), l);
	}
	free(text);
	return rc;
}
