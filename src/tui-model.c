/* SPDX-License-Identifier: MIT */
/*
 * tui-model.c — what pmukit report's browser shows, without drawing it: the
 * rows of a report section (its --stdio lines, pk_report__foreach_row), their
 * callchains (pk_report__fprintf_callchain) folded or not, the zooms into a
 * DSO or a thread and the symbol filter as perf's TUI applies them, the
 * title line, and P's perf.hist.N dump of the view.
 *
 * It keeps no copy of the report's text: the rows' lines are formatted for
 * the lines shown (tui_model__prepare: one pass of pk_report__foreach_row up
 * to the last of them), a callchain is counted for its fold sign and its
 * text kept only while unfolded, so that the first screen needs no more
 * memory than --stdio's printing (bench/tui.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmukit/symbol.h>

#include "tui.h"

static int add_row(void *ctx, size_t entry, const char *line)
{
	struct tui_model *m = ctx;
	if (entry == (size_t)-1) {
		free(m->header);
		m->header = strdup(line);
		return m->header ? 0 : -ENOMEM;
	}
	if ((m->nr_rows & (m->nr_rows - 1)) == 0) {	/* grow at powers of two */
		size_t cap = m->nr_rows ? m->nr_rows * 2 : 64;
		struct tui_row *n = realloc(m->rows, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		m->rows = n;
	}
	m->rows[m->nr_rows++] = (struct tui_row){ .entry = entry };
	(void)line;	/* formatted again when shown */
	return 0;
}

/* one more line at the end of row's callchain block */
static int chain_append(struct tui_row *row, const char *line)
{
	size_t len = strlen(line) + 1;
	char *t = realloc(row->chain, row->chain_len + len);
	if (!t)
		return -ENOMEM;
	row->chain = t;
	if ((row->nr_chain & (row->nr_chain - 1)) == 0) {	/* grow at powers of two */
		uint32_t *o = realloc(row->chain_off, (row->nr_chain ? row->nr_chain * 2 : 1) * sizeof(*o));
		if (!o)
			return -ENOMEM;
		row->chain_off = o;
	}
	memcpy(t + row->chain_len, line, len);
	row->chain_off[row->nr_chain++] = (uint32_t)row->chain_len;
	row->chain_len += len;
	return 0;
}

/* a --hierarchy line: a node, or one more line of the node before (its callchain) */
static int add_hrow(void *ctx, int depth, const char *line)
{
	struct tui_model *m = ctx;
	if (depth == PK_REPORT_ROW_HEADER)
		return add_row(ctx, (size_t)-1, line);
	if (depth == PK_REPORT_ROW_MORE) {
		if (!m->nr_rows)
			return 0;
		return chain_append(&m->rows[m->nr_rows - 1], line);
	}
	int rc = add_row(ctx, 0, line);
	if (!rc) {
		struct tui_row *row = &m->rows[m->nr_rows - 1];
		row->entry = (size_t)-1;
		row->depth = depth;
		row->chain_read = true;
		row->line = strdup(line);	/* (the nodes' text is not formatted again) */
		if (!row->line)
			return -ENOMEM;
	}
	return rc;
}

/* a --hierarchy node has something to unfold: a deeper node after it, or its own lines */
static bool hier_children(const struct tui_model *m, size_t i)
{
	return m->rows[i].nr_chain || (i + 1 < m->nr_rows && m->rows[i + 1].depth > m->rows[i].depth);
}

static void free_rows(struct tui_model *m)
{
	for (size_t i = 0; i < m->nr_rows; i++) {
		free(m->rows[i].line);
		free(m->rows[i].chain);
		free(m->rows[i].chain_off);
	}
	free(m->rows);
	m->rows = NULL;
	m->nr_rows = 0;
	free(m->cached);
	m->cached = NULL;
	m->nr_cached = 0;
}

/* the formatted lines dropped (not --hierarchy's: those are its rows) */
static void evict_lines(struct tui_model *m)
{
	for (size_t i = 0; i < m->nr_cached; i++) {
		free(m->rows[m->cached[i]].line);
		m->rows[m->cached[i]].line = NULL;
	}
	m->nr_cached = 0;
}

/* a row's callchain text dropped when folded (its count kept) */
static void chain_drop(struct tui_model *m, struct tui_row *row)
{
	if (m->hier || row->expanded)
		return;
	free(row->chain);
	free(row->chain_off);
	row->chain = NULL;
	row->chain_off = NULL;
	row->chain_len = 0;
}

/* row's callchain counted (keep: its text kept too, one line after another) */
static int read_chain(struct tui_model *m, struct tui_row *row, bool keep)
{
	if (row->chain_read && (!keep || row->chain || !row->nr_chain))
		return 0;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp)
		return -ENOMEM;
	int rc = pk_report__fprintf_callchain(m->r, m->section, row->entry, fp);
	if (fclose(fp) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(text);
		return rc;
	}
	/* one element per non-empty line; the blank line closing the chain dropped */
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = 0;
	uint32_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += (i == 0 || text[i - 1] == '\n') && text[i] != '\n';
	uint32_t *off = keep && n ? malloc(n * sizeof(*off)) : NULL;
	if (keep && n && !off) {
		free(text);
		return -ENOMEM;
	}
	if (off) {
		uint32_t k = 0;
		for (size_t i = 0; i < len; i++) {
			if ((i == 0 || text[i - 1] == 0) && text[i] != '\n')
				off[k++] = (uint32_t)i;
			if (text[i] == '\n')
				text[i] = 0;
		}
		row->chain = text;
		row->chain_off = off;
		row->chain_len = len + 1;
	} else {
		free(text);
	}
	row->nr_chain = n;
	row->chain_read = true;
	return 0;
}

int tui_model__init(struct tui_model *m, struct pk_report *r, size_t section)
{
	*m = (struct tui_model){ .r = r, .section = section };
	int rc = pk_report__foreach_hierarchy_row(r, section, add_hrow, m);
	m->hier = !rc;
	if (rc == -EINVAL)
		rc = pk_report__foreach_row(r, section, add_row, m);
	if (rc) {
		tui_model__free(m);
		return rc;
	}
	if (m->hier) {
		m->has_chains = true;	/* the levels fold */
		return tui_model__rebuild(m);
	}
	/* whether entries have callchains: the first one's tells */
	if (m->nr_rows && !read_chain(m, &m->rows[0], false))
		m->has_chains = m->rows[0].nr_chain > 0;
	return tui_model__rebuild(m);
}

void tui_model__free(struct tui_model *m)
{
	free_rows(m);
	free(m->header);
	free(m->view);
	*m = (struct tui_model){ 0 };
}

/* entry e is left by the zooms and the symbol filter */
static bool zoomed_in(const struct tui_model *m, const struct pk_report_entry *e)
{
	if (m->dso && e->dso != m->dso)
		return false;
	if (m->thread && e->thread != m->thread)
		return false;
	if (m->filter[0] && (!e->sym || !strstr(e->sym->name, m->filter)))
		return false;
	return true;
}

static bool shown(const struct tui_model *m, const struct tui_row *row)
{
	if (m->hier)
		return true;	/* (no zoom, filter or limit there) */
	const struct pk_report_entry *e = pk_report__entry(m->r, m->section, row->entry);
	if (!e || !zoomed_in(m, e))
		return false;
	if (m->min_pcnt > 0) {	/* perf's hist_entry__get_percent_limit: children's period with them */
		const struct pk_report_section *s = pk_report__section(m->r, m->section);
		if (!s || !s->total_period ||
		    (double)e->period_children * 100.0 / (double)s->total_period < m->min_pcnt)
			return false;
	}
	return true;
}

/* --hierarchy: row i under a folded node (fold: the depth folded at, -1 none; updated) */
static bool folded_away(const struct tui_model *m, size_t i, int *fold)
{
	const struct tui_row *row = &m->rows[i];
	if (!m->hier)
		return false;
	if (*fold >= 0 && row->depth > *fold)
		return true;
	*fold = row->expanded ? -1 : row->depth;
	return false;
}

/* F: the total the zooms leave (perf's non-filtered one), the lines' percentages of it */
static void rel_total(struct tui_model *m)
{
	m->rel_samples = m->rel_total = 0;
	if (!m->relative || m->hier)
		return;
	for (size_t i = 0; i < pk_report__nr_entries(m->r, m->section); i++) {
		const struct pk_report_entry *e = pk_report__entry(m->r, m->section, i);
		if (e && !e->hidden && zoomed_in(m, e)) {
			m->rel_total += e->period;
			m->rel_samples += e->nr_samples;
		}
	}
}

/* the total the rows' lines are formatted with (0: the section's) */
static uint64_t lines_total(const struct tui_model *m)
{
	return m->relative && !m->hier ? m->rel_total : 0;
}

int tui_model__set_relative(struct tui_model *m, bool relative)
{
	m->relative = relative;
	return tui_model__rebuild(m);
}

int tui_model__rebuild(struct tui_model *m)
{
	rel_total(m);
	if (lines_total(m) != m->cache_total) {	/* other percentages: the lines again */
		evict_lines(m);
		m->cache_total = lines_total(m);
	}
	size_t n = 0;
	int fold = -1;
	for (size_t i = 0; i < m->nr_rows; i++)
		if (shown(m, &m->rows[i]) && !folded_away(m, i, &fold))
			n += 1 + (m->rows[i].expanded ? m->rows[i].nr_chain : 0);
	struct tui_line *l = realloc(m->view, (n ? n : 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	m->view = l;
	m->nr_lines = 0;
	fold = -1;
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct tui_row *row = &m->rows[i];
		if (!shown(m, row) || folded_away(m, i, &fold))
			continue;
		l[m->nr_lines++] = (struct tui_line){ .row = (uint32_t)i, .chain = -1 };
		for (size_t k = 0; row->expanded && k < row->nr_chain; k++)
			l[m->nr_lines++] = (struct tui_line){ .row = (uint32_t)i, .chain = (int32_t)k };
	}
	return 0;
}

int tui_model__toggle(struct tui_model *m, size_t row)
{
	if (row >= m->nr_rows)
		return 0;
	struct tui_row *r = &m->rows[row];
	int rc = read_chain(m, r, !r->expanded);
	if (rc)
		return rc;
	r->expanded = !r->expanded && (m->hier ? hier_children(m, row) : r->nr_chain > 0);
	chain_drop(m, r);
	return tui_model__rebuild(m);
}

int tui_model__set_all(struct tui_model *m, bool expanded)
{
	for (size_t i = 0; i < m->nr_rows; i++) {
		if (expanded && m->has_chains) {
			int rc = read_chain(m, &m->rows[i], true);
			if (rc)
				return rc;
		}
		m->rows[i].expanded = expanded && (m->hier ? hier_children(m, i) : m->rows[i].nr_chain > 0);
		chain_drop(m, &m->rows[i]);
	}
	return tui_model__rebuild(m);
}

static void push_zoom(struct tui_model *m, enum tui_zoom z)
{
	int k = 0;
	for (int i = 0; i < m->nr_zooms; i++)	/* at most once each, the latest last */
		if (m->zooms[i] != z)
			m->zooms[k++] = m->zooms[i];
	m->zooms[k++] = z;
	m->nr_zooms = k;
}

static void drop_zoom(struct tui_model *m, enum tui_zoom z)
{
	int k = 0;
	for (int i = 0; i < m->nr_zooms; i++)
		if (m->zooms[i] != z)
			m->zooms[k++] = m->zooms[i];
	m->nr_zooms = k;
	if (z == TUI_ZOOM_DSO)
		m->dso = NULL;
	else if (z == TUI_ZOOM_THREAD)
		m->thread = NULL;
	else
		m->filter[0] = 0;
}

/* the sort key of a column header is shown (perf's hists__has) */
static bool has_column(const struct tui_model *m, const char *name)
{
	const char *p = m->header ? strstr(m->header, name) : NULL;
	return p && (p == m->header || p[-1] == ' ');
}

bool tui_model__can_zoom(const struct tui_model *m, enum tui_zoom z)
{
	/* perf zooms into a DSO with the dso key, into a thread with the pid or comm key */
	if (m->hier)
		return false;	/* (not with --hierarchy here) */
	if (z == TUI_ZOOM_DSO)
		return has_column(m, "Shared Object");
	if (z == TUI_ZOOM_THREAD)
		return has_column(m, "Pid:Command") || has_column(m, "Command");
	return true;
}

void tui_model__zoom(struct tui_model *m, enum tui_zoom z, size_t row)
{
	const struct pk_report_entry *e =
		row < m->nr_rows ? pk_report__entry(m->r, m->section, m->rows[row].entry) : NULL;
	if (z == TUI_ZOOM_DSO && !m->dso && e && e->dso) {
		m->dso = e->dso;
		push_zoom(m, z);
	} else if (z == TUI_ZOOM_THREAD && !m->thread && e && e->thread) {
		m->thread = e->thread;
		push_zoom(m, z);
	} else if (z != TUI_ZOOM_FILTER) {
		drop_zoom(m, z);	/* perf: the same key zooms out */
	}
	tui_model__rebuild(m);
}

void tui_model__zoom_dso(struct tui_model *m, const struct pk_dso *dso)
{
	if (m->dso || !dso) {
		drop_zoom(m, TUI_ZOOM_DSO);	/* perf: k zooms out of a DSO zoom as d does */
	} else {
		m->dso = dso;
		push_zoom(m, TUI_ZOOM_DSO);
	}
	tui_model__rebuild(m);
}

void tui_model__set_percent_limit(struct tui_model *m, double pcnt)
{
	m->min_pcnt = pcnt;
	tui_model__rebuild(m);
}

void tui_model__set_filter(struct tui_model *m, const char *filter)
{
	if (!filter || !*filter) {
		drop_zoom(m, TUI_ZOOM_FILTER);
	} else {
		snprintf(m->filter, sizeof(m->filter), "%s", filter);
		push_zoom(m, TUI_ZOOM_FILTER);
	}
	tui_model__rebuild(m);
}

bool tui_model__unzoom(struct tui_model *m)
{
	if (!m->nr_zooms)
		return false;
	drop_zoom(m, m->zooms[m->nr_zooms - 1]);
	tui_model__rebuild(m);
	return true;
}

void tui_convert_unit(uint64_t n, unsigned long *v, char *unit)
{
	/* perf's convert_unit */
	double d = (double)n;
	*unit = ' ';
	if (d > 1000.0)
		d /= 1000.0, *unit = 'K';
	if (d > 1000.0)
		d /= 1000.0, *unit = 'M';
	if (d > 1000.0)
		d /= 1000.0, *unit = 'G';
	*v = (unsigned long)d;
}

void tui_model__title(const struct tui_model *m, int64_t freq, char *buf, size_t size)
{
	if (pk_report__snprintf_title(m->r, m->section, buf, size)) {
		snprintf(buf, size, "no samples");
		return;
	}
	char *ec = strstr(buf, "', Event count");
	if (freq >= 0 && ec) {	/* perf top's show_freq: " N Hz," after the event's name */
		char t[1024];
		snprintf(t, sizeof(t), "%.*s', %" PRId64 " Hz,%s", (int)(ec - buf), buf, freq, ec + 2);
		snprintf(buf, size, "%s", t);
	}
	int n = (int)strlen(buf);
	const char *of = strstr(buf, " of event"), *cnt = strstr(buf, "(approx.): ");
	if (m->relative && m->rel_total && of && cnt) {	/* perf: the non-filtered samples and period */
		char t[1024];
		unsigned long v;
		char unit;
		tui_convert_unit(m->rel_samples, &v, &unit);
		snprintf(t, sizeof(t), "Samples: %lu%c%.*s%" PRIu64, v, unit, (int)(cnt + 11 - of), of,
			 m->rel_total);
		n = snprintf(buf, size, "%s", t);
	}
	/* perf: the tid with the pid key (its "Pid:Command" column) */
	if (n > 0 && (size_t)n < size && m->thread && has_column(m, "Pid:Command"))
		n += snprintf(buf + n, size - (size_t)n, ", Thread: %s(%d)", m->thread->comm,
			      (int)m->thread->tid);
	else if (n > 0 && (size_t)n < size && m->thread)
		n += snprintf(buf + n, size - (size_t)n, ", Thread: %s", m->thread->comm);
	if (n > 0 && (size_t)n < size && m->dso)
		n += snprintf(buf + n, size - (size_t)n, ", DSO: %s", pk_dso__short_name(m->dso));
	if (n > 0 && (size_t)n < size && m->filter[0])
		snprintf(buf + n, size - (size_t)n, ", Symbol filter: %s", m->filter);
}

int tui_model__read_chains(struct tui_model *m, size_t from, size_t n)
{
	for (size_t i = from; m->has_chains && i < m->nr_lines && i - from < n; i++) {
		int rc = read_chain(m, &m->rows[m->view[i].row], false);
		if (rc)
			return rc;
	}
	return 0;
}

/* tui_model__prepare's pass: the lines of the rows wanted, up to the last of them */
struct fill {
	struct tui_model *m;
	size_t k, last;
	int rc;
};

static int fill_line(void *ctx, size_t entry, const char *line)
{
	struct fill *f = ctx;
	struct tui_model *m = f->m;
	if (entry == (size_t)-1)
		return 0;	/* (the header) */
	size_t k = f->k++;
	if (k >= m->nr_rows || m->rows[k].entry != entry) {	/* (rows and lines come in the same order) */
		f->rc = -EINVAL;
		return 1;
	}
	struct tui_row *row = &m->rows[k];
	if (row->want && !row->line) {
		row->want = false;
		row->line = strdup(line);
		if (!row->line) {
			f->rc = -ENOMEM;
			return 1;
		}
		m->cached[m->nr_cached++] = (uint32_t)k;
	}
	return k >= f->last;	/* 1: stop, the last one is there */
}

int tui_model__prepare(struct tui_model *m, size_t from, size_t n)
{
	int rc = tui_model__read_chains(m, from, n);
	if (rc || m->hier)
		return rc;
	/* the page and its neighbours, so that moving about needs no pass */
	size_t lo = from > n ? from - n : 0, hi = from + 2 * n, last = 0, nr = 0;
	bool need = false;
	for (size_t i = lo; i < hi && i < m->nr_lines; i++)
		need |= m->view[i].chain < 0 && !m->rows[m->view[i].row].line;
	if (!need)
		return 0;
	evict_lines(m);
	for (size_t i = lo; i < hi && i < m->nr_lines; i++)
		if (m->view[i].chain < 0 && !m->rows[m->view[i].row].want) {
			m->rows[m->view[i].row].want = true;
			last = m->view[i].row;
			nr++;
		}
	uint32_t *c = realloc(m->cached, (nr ? nr : 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	m->cached = c;
	struct fill f = { .m = m, .last = last };
	rc = m->cache_total ? pk_report__foreach_row_of(m->r, m->section, m->cache_total, fill_line, &f) :
			      pk_report__foreach_row(m->r, m->section, fill_line, &f);
	for (size_t i = 0; i < m->nr_rows; i++)
		m->rows[i].want = false;
	return f.rc ? f.rc : rc < 0 ? rc : 0;
}

void tui_model__line(const struct tui_model *m, size_t i, char *buf, size_t size)
{
	if (i >= m->nr_lines) {
		if (size)
			buf[0] = 0;
		return;
	}
	const struct tui_line *l = &m->view[i];
	const struct tui_row *row = &m->rows[l->row];
	if (l->chain >= 0) {
		snprintf(buf, size, "%s", row->chain && (uint32_t)l->chain < row->nr_chain ?
					  row->chain + row->chain_off[l->chain] : "");
		return;
	}
	/* perf's fold sign in place of the line's first blank (--hierarchy: at the node's indent) */
	bool kids = m->hier ? hier_children(m, l->row) : m->has_chains && (!row->chain_read || row->nr_chain);
	char sign = !kids ? ' ' : row->expanded ? '-' : '+';
	size_t at = (size_t)row->depth * 3;
	snprintf(buf, size, "%s", row->line ? row->line : "");	/* (tui_model__prepare formats it) */
	if (at < strlen(buf))
		buf[at] = sign;
}

int tui_model__dump(struct tui_model *m, char *name, size_t size)
{
	evict_lines(m);
	int rc = tui_model__prepare(m, 0, m->nr_lines);	/* every line, dropped after */
	if (rc)
		return rc;
	int fd = -1;
	for (int n = 0; n < 10000 && fd < 0; n++) {
		snprintf(name, size, "perf.hist.%d", n);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!fp) {
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	char line[8192];
	for (size_t i = 0; i < m->nr_lines; i++) {
		tui_model__line(m, i, line, sizeof(line));
		fprintf(fp, "%s\n", line);
	}
	evict_lines(m);
	return fclose(fp) ? -EIO : 0;
}
