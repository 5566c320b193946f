/* SPDX-License-Identifier: MIT */
/*
 * rows.c — a section's --stdio text as rows, for a browser (pmukit report's
 * TUI): the column header line, each printed entry's line with its index
 * (pk_report__entry), and an entry's callchain lines on request, the same
 * text pk_report__fprintf prints (print.c and chain_print.c make it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static int section_hists(const struct pk_report *r, size_t section)
{
	if (!r->finished || section >= r->nr_sections || r->opts.hierarchy)
		return -1;
	return r->sections[section];
}

int pk_report__foreach_row(struct pk_report *r, size_t section,
			   int (*fn)(void *ctx, size_t entry, const char *line), void *ctx)
{
	int h = section_hists(r, section);
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
	const struct rp_hists *hs = &r->hists[h];
	for (size_t i = 0; i < hs->nr_out && !rc; i++) {
		const struct rp_entry *e = rp_entry(r, hs->out[i]);
		if (e->filtered || e->hidden)
			continue;
		rp_entry_line(r, h, e, w, line, size);
		rc = fn(ctx, i, line);
	}
	free(line);
	return rc;
}

int pk_report__fprintf_callchain(struct pk_report *r, size_t section, size_t entry, FILE *fp)
{
	int h = section_hists(r, section);
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
	int h = section_hists(r, section);
	if (h < 0 || !size)
		return -EINVAL;
	uint64_t total;
	rp_section_head(r, h, buf, size, &total);
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, ", Event count (approx.): %" PRIu64, total);
	return 0;
}
