/* SPDX-License-Identifier: MIT */
/*
 * tui.h — pmukit report's interactive browser (perf report's TUI): the
 * model of what it shows (tui-model.c: the report's rows, callchains folded
 * or not, zooms and the symbol filter, perf.hist.N dumps), the ncurses
 * front end (tui-report.c: drawing, perf's keys, resize, signals) and its
 * annotate view (tui-annotate.c: perf's annotate browser over pmukit/annotate.h).
 */
#ifndef PMUKIT_TUI_H
#define PMUKIT_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/report.h>
#include <pmukit/session.h>

/*
 * One printed entry of the section. Its callchain's lines are counted when
 * first needed (the fold sign) and their text kept only while unfolded: one
 * block of '\0'-ended lines and their offsets (--hierarchy: a node's own
 * lines, kept), so that the browser holds no second copy of the report.
 */
struct tui_row {
	size_t entry;			/* pk_report__entry index; (size_t)-1: a --hierarchy node */
	int depth;			/* --hierarchy: the node's level (0 otherwise) */
	char *line;			/* its --stdio line (formatted when shown; --hierarchy: kept) */
	char *chain;			/* its callchain lines while unfolded, '\0'-ended */
	uint32_t *chain_off;		/* where each starts in chain */
	size_t chain_len;		/* bytes used in chain */
	uint32_t nr_chain;
	bool chain_read, expanded;
	bool want;			/* tui_model__prepare: its line to be formatted */
};

/* one line of the view: an entry, or line `chain` of its callchain (-1: the entry) */
struct tui_line {
	uint32_t row;
	int32_t chain;
};

enum tui_zoom { TUI_ZOOM_DSO, TUI_ZOOM_THREAD, TUI_ZOOM_FILTER };

struct tui_model {
	struct pk_report *r;
	size_t section;
	char *header;			/* the column header line */
	struct tui_row *rows;
	size_t nr_rows;
	bool has_chains;		/* the section has callchains to show */
	bool hier;			/* --hierarchy: rows are its nodes, folded per level */
	/* zooms, in the order applied (ESC backs out of the last) */
	enum tui_zoom zooms[3];
	int nr_zooms;
	const struct pk_dso *dso;
	const struct pk_thread *thread;
	char filter[256];
	double min_pcnt;		/* L: entries under this percent of the total hidden (0: none) */
	bool relative;			/* F: percentages of what the zooms leave (perf's filter_relative) */
	uint64_t rel_samples, rel_total;	/* then: the samples and period the zooms leave */
	struct tui_line *view;		/* the view */
	size_t nr_lines;
	uint32_t *cached;		/* the rows whose line is formatted (not --hierarchy's) */
	size_t nr_cached;
	uint64_t cache_total;		/* the total their percentages are of (0: the section's) */
};

int tui_model__init(struct tui_model *m, struct pk_report *r, size_t section);
void tui_model__free(struct tui_model *m);
/* the view's lines from the rows, their folding and the zooms; 0 or -ENOMEM */
int tui_model__rebuild(struct tui_model *m);
/* fold or unfold one row's callchain (reads it the first time); 0 or a negative errno */
int tui_model__toggle(struct tui_model *m, size_t row);
/* E / C: every row unfolded or folded */
int tui_model__set_all(struct tui_model *m, bool expanded);
/* whether the sort keys allow zoom z (perf: the dso key for d, pid or comm for t) */
bool tui_model__can_zoom(const struct tui_model *m, enum tui_zoom z);
/* zoom into the DSO or thread of row (again: out of it), the symbol filter ("" none) */
void tui_model__zoom(struct tui_model *m, enum tui_zoom z, size_t row);
void tui_model__set_filter(struct tui_model *m, const char *filter);
/* L: hide the entries under pcnt percent of the section's total (perf's percent limit) */
void tui_model__set_percent_limit(struct tui_model *m, double pcnt);
/* F: the percentages of what the zooms leave, or of the section's total; 0 or a negative errno */
int tui_model__set_relative(struct tui_model *m, bool relative);
/* k: zoom into dso (the kernel's), or out of the DSO zoom there is */
void tui_model__zoom_dso(struct tui_model *m, const struct pk_dso *dso);
/* back out of the last zoom; false when there was none */
bool tui_model__unzoom(struct tui_model *m);
/* perf's convert_unit: n as v K, M or G (unit ' ' below 1000) */
void tui_convert_unit(uint64_t n, unsigned long *v, char *unit);
/*
 * the title line as perf's: "Samples: ... of event '...'[, N Hz], Event count (approx.): N
 * [, Thread: ..][, DSO: ..]" (freq: perf top's N Hz, -1: none)
 */
void tui_model__title(const struct tui_model *m, int64_t freq, char *buf, size_t size);
/* the callchains of view lines [from, from + n) counted (their fold sign known: '+' or none) */
int tui_model__read_chains(struct tui_model *m, size_t from, size_t n);
/* view lines [from, from + n) ready to be shown: their rows' lines formatted, their chains counted */
int tui_model__prepare(struct tui_model *m, size_t from, size_t n);
/* line i of the view as shown: fold sign, then the --stdio text */
void tui_model__line(const struct tui_model *m, size_t i, char *buf, size_t size);
/* P: the view written to the first free perf.hist.N; 0 (name set) or -errno */
int tui_model__dump(struct tui_model *m, char *name, size_t size);

/*
 * Whether `pmukit report` opens the browser: forced (--tui) or stdout a
 * terminal, and not stdio-like (--stdio and the modes that print text).
 * Without a usable terminal (TERM=dumb, no terminfo) it says why on stderr
 * and answers false.
 */
bool report_tui__want(bool force, bool stdio);
/* where the annotate view (a) reads the samples again: a session of its own on the same file */
struct tui_annotate_src {
	const char *input;		/* the perf.data path */
	struct pk_session_opts opts;	/* report's (symfs, ...); on_event cleared */
};
/*
 * Browse the finished report; s for the header view (i), src for the
 * annotate view (a; NULL: none). The exit status.
 */
int report_tui__run(struct pk_report *r, struct pk_session *s, const struct tui_annotate_src *src);

/*
 * Before the screen is built (tui-mem.c): what reading left resident and
 * unneeded given back (freed heap pages; input's mapped pages, NULL: none).
 */
void tui_release_input(const char *input);

/* ---- shared by the views (tui-report.c) ---- */
/* a reversed bar on row y */
void tui_bar(int y, const char *text);
/* a key, or ERR once a quit signal came */
int tui_get_key(void);
/* a scrollable text (help, header); q, ESC, ←, h, ? or Ctrl-C closes it */
void tui_view_text(const char *title, const char *text);

/*
 * The annotate view of entry e of the section (perf's annotate browser) until
 * q/ESC/←. 0 (a failure to annotate said in status), or -ENOMEM.
 */
int tui_annotate(const struct tui_annotate_src *src, struct pk_report *r, size_t section,
		 const struct pk_report_entry *e, char *status, size_t size);
/* the annotate browser's title: the report's with " N Hz," after the event name, as perf's */
void tui_annotate_title(struct pk_report *r, size_t section, uint64_t freq, char *buf, size_t size);
/*
 * A live browser (pmukit top): every delay_ms, next(ctx) hands over a newer
 * finished report (NULL: keep the one shown), shown in place of the old one
 * (its section, selection and zooms kept), after which release(ctx, old)
 * gets the old one; a newer report with nothing to show in that section is
 * not shown: release(ctx, it) at once. The one shown at the end stays the
 * caller's.
 */
struct tui_live {
	struct pk_report *(*next)(void *ctx);
	void (*release)(void *ctx, struct pk_report *old);
	void *ctx;
	int delay_ms;
	/* perf top's title: " N Hz," after the event's name (the attr's sample_freq,
	 * as perf prints it), then tail(ctx) at its end (" lost: .. drop: ..") */
	uint64_t freq;
	void (*tail)(void *ctx, char *buf, size_t size);
	/* a: where to annotate from (NULL: not here); before each a, snapshot(ctx)
	 * brings ann->input up to date: 0, or -1 with why said in status */
	const struct tui_annotate_src *ann;
	int (*snapshot)(void *ctx, char *status, size_t size);
};
int report_tui__run_live(struct pk_report *r, struct pk_session *s, const struct tui_live *live);

#endif
