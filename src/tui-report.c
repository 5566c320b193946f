/* SPDX-License-Identifier: MIT */
/*
 * tui-report.c — pmukit report's interactive browser on ncurses: the title
 * line, the column headers, the view of tui-model.c with a selection, perf's
 * keys (help: h/?), the help and header views, the / prompt; resizes redraw
 * (ncurses' KEY_RESIZE); SIGTERM, SIGHUP, SIGQUIT and the crash signals leave
 * the terminal as it was (endwin) before the signal takes its course.
 * ncurses (terminfo, its own SIGWINCH handling, on every Debian) draws:
 * no escape sequence is written here.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <time.h>
#include <unistd.h>

#include "report-cli.h"
#include "tui.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* a crash: the terminal back first (perf's ui__signal_backtrace does as much) */
static void on_crash(int sig)
{
	endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int quit_signals[] = { SIGTERM, SIGHUP, SIGQUIT, SIGINT };
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL };

static void signals_set(bool on)
{
	for (size_t i = 0; i < sizeof(quit_signals) / sizeof(quit_signals[0]); i++)
		signal(quit_signals[i], on ? on_signal : SIG_DFL);
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		signal(crash_signals[i], on ? on_crash : SIG_DFL);
}

bool report_tui__want(bool force, bool stdio)
{
	if (stdio || (!force && !isatty(STDOUT_FILENO)))
		return false;
	if (!isatty(STDOUT_FILENO)) {
		fprintf(stderr, "pmukit report: --tui: stdout is not a terminal, printing --stdio output\n");
		return false;
	}
	const char *term = getenv("TERM");
	if (!term || !*term || !strcmp(term, "dumb")) {
		fprintf(stderr, "pmukit report: TERM=%s: no interactive browser, printing --stdio output\n",
			term && *term ? term : "(unset)");
		return false;
	}
	int fd = open("/dev/tty", O_RDONLY | O_CLOEXEC);	/* the keys' terminal */
	if (fd < 0) {
		fprintf(stderr, "pmukit report: no controlling terminal, printing --stdio output\n");
		return false;
	}
	close(fd);
	int err = 0;
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		fprintf(stderr, "pmukit report: no terminfo entry for TERM=%s, printing --stdio output\n",
			term);
		return false;
	}
	const char *cup = tigetstr("cup");
	bool ok = cup && cup != (char *)-1;
	del_curterm(cur_term);
	if (!ok)
		fprintf(stderr, "pmukit report: TERM=%s cannot move the cursor, printing --stdio output\n",
			term);
	return ok;
}

/* ---- drawing -------------------------------------------------------------------------- */

struct tui {
	struct tui_model m;
	struct pk_session *s;
	size_t sel, top;		/* selected line of the view, first line shown */
	char status[512];		/* the bottom line's message */
	bool menu;			/* more than one event: their menu first (ESC back to it) */
	bool no_headers;		/* H: the column headers hidden */
	const struct tui_live *live;	/* pmukit top: newer reports every live->delay_ms */
	const struct tui_annotate_src *ann;	/* a: where to annotate from (NULL: not here) */
	struct timespec due;		/* the next one's time */
	char line[8192];
};

#define TUI_KEY_LIVE (KEY_MAX + 1)	/* get_key: time for the live browser's next report */

static bool live_due(struct tui *t)
{
	struct timespec now;
	if (!t || !t->live)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < t->due.tv_sec || (now.tv_sec == t->due.tv_sec && now.tv_nsec < t->due.tv_nsec))
		return false;
	t->due = now;
	t->due.tv_sec += t->live->delay_ms / 1000;
	t->due.tv_nsec += (long)(t->live->delay_ms % 1000) * 1000000L;
	if (t->due.tv_nsec >= 1000000000L) {
		t->due.tv_sec++;
		t->due.tv_nsec -= 1000000000L;
	}
	return true;
}

/* the live browser's newer report in place of the shown one, zooms and selection kept */
static int live_swap(struct tui *t)
{
	struct pk_report *r = t->live->next(t->live->ctx), *old = t->m.r;
	if (!r)
		return 0;
	struct tui_model keep = t->m;
	size_t sec = keep.section;
	if (sec >= pk_report__nr_sections(r) || !pk_report__nr_entries(r, sec)) {
		t->live->release(t->live->ctx, r);	/* nothing to show yet: the old one stays */
		return 0;
	}
	struct tui_model m;
	int rc = tui_model__init(&m, r, sec);
	if (rc) {
		t->live->release(t->live->ctx, r);
		return rc;
	}
	memcpy(m.zooms, keep.zooms, sizeof(m.zooms));
	m.nr_zooms = keep.nr_zooms;
	m.dso = keep.dso;
	m.thread = keep.thread;
	memcpy(m.filter, keep.filter, sizeof(m.filter));
	tui_model__free(&t->m);
	t->m = m;
	t->live->release(t->live->ctx, old);
	return tui_model__rebuild(&t->m);
}

/* the rows of entries: all but the title, the column headers (unless H hid them), the status */
static int page_rows(const struct tui *t)
{
	int n = LINES - (t->no_headers ? 2 : 3);
	return n > 0 ? n : 1;
}

void tui_bar(int y, const char *text)
{
	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y, 0, text, COLS);
	attroff(A_REVERSE);
}

static void fit(struct tui *t)
{
	size_t rows = (size_t)page_rows(t);
	if (t->m.nr_lines && t->sel >= t->m.nr_lines)
		t->sel = t->m.nr_lines - 1;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + rows)
		t->top = t->sel - rows + 1;
}

static void draw(struct tui *t)
{
	erase();
	fit(t);
	tui_model__title(&t->m, t->live ? (int64_t)t->live->freq : -1, t->line, sizeof(t->line));
	size_t tl = strlen(t->line);
	if (t->live && t->live->tail && tl < sizeof(t->line))
		t->live->tail(t->live->ctx, t->line + tl, sizeof(t->line) - tl);
	tui_bar(0, t->line);
	int y0 = t->no_headers ? 1 : 2;
	if (!t->no_headers) {
		snprintf(t->line, sizeof(t->line), "  %s", t->m.header ? t->m.header : "");
		tui_bar(1, t->line);
	}
	int rows = page_rows(t);
	tui_model__prepare(&t->m, t->top, (size_t)rows);	/* their lines and fold signs */
	for (int y = 0; y < rows && t->top + (size_t)y < t->m.nr_lines; y++) {
		size_t i = t->top + (size_t)y;
		tui_model__line(&t->m, i, t->line, sizeof(t->line));
		if (i == t->sel) {
			attron(A_REVERSE);
			mvhline(y0 + y, 0, ' ', COLS);
		}
		mvaddnstr(y0 + y, 0, t->line, COLS);
		if (i == t->sel)
			attroff(A_REVERSE);
	}
	mvaddnstr(LINES - 1, 0, t->status[0] ? t->status : "Press '?' for help on key bindings", COLS);
	move(0, 0);	/* the (hidden) cursor home: a terminal shrinking keeps the top */
	refresh();
}

/* a key, or ERR once a quit signal came (TUI_KEY_LIVE: a live browser's refresh is due) */
static int get_key_live(struct tui *t)
{
	for (;;) {
		if (got_signal)
			return ERR;
		if (live_due(t))
			return TUI_KEY_LIVE;
		int k = getch();
		if (k != ERR)
			return k;
	}
}

int tui_get_key(void)
{
	return get_key_live(NULL);
}

/* a scrollable text (help, header); any of q, ESC, ←, h, ? or Ctrl-C closes it */
void tui_view_text(const char *title, const char *text)
{
	size_t n = 0, top = 0;
	const char *ls[4096];
	for (const char *p = text; *p && n < 4096;) {
		ls[n++] = p;
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	for (;;) {
		erase();
		tui_bar(0, title);
		int rows = LINES > 2 ? LINES - 2 : 1;
		for (int y = 0; y < rows && top + (size_t)y < n; y++) {
			const char *l = ls[top + (size_t)y];
			const char *nl = strchr(l, '\n');
			int len = nl ? (int)(nl - l) : (int)strlen(l);
			mvaddnstr(1 + y, 0, l, len < COLS ? len : COLS);
		}
		mvaddnstr(LINES - 1, 0, "Press 'q' or ESC to go back", COLS);
		refresh();
		int k = tui_get_key();
		if (k == ERR || k == 'q' || k == 27 || k == KEY_LEFT || k == 'h' || k == '?' || k == 3)
			return;
		if (k == KEY_DOWN && top + (size_t)rows < n)
			top++;
		else if (k == KEY_UP && top)
			top--;
		else if (k == KEY_NPAGE || k == ' ')
			top = top + 2 * (size_t)rows < n ? top + (size_t)rows : n > (size_t)rows ? n - (size_t)rows : 0;
		else if (k == KEY_PPAGE)
			top = top > (size_t)rows ? top - (size_t)rows : 0;
	}
}

static const char help_text[] =
	"Keys of pmukit report's browser (perf report's):\n"
	"\n"
	"UP/DOWN/PGUP/PGDN/SPACE  move the selection; HOME/END: first and last line\n"
	"+ or ENTER    fold or unfold the selected entry's callchain\n"
	"e             the same (perf: the main entry's callchain)\n"
	"E             unfold every callchain\n"
	"C             fold every callchain\n"
	"d             zoom into the selected entry's DSO (again: zoom out)\n"
	"k             zoom into the kernel map (again: zoom out)\n"
	"m             the context menu (annotate, zooms, expand; ENTER without a callchain)\n"
	"S             zoom into the selected entry's processor socket (perf's: only with\n"
	"              the socket sort key, which pmukit report refuses: nothing happens,\n"
	"              as in perf without it)\n"
	"t             zoom into the selected entry's thread (again: zoom out)\n"
	"/             show only symbols whose name contains a string (empty: all)\n"
	"ESC/LEFT      back out of the last zoom or filter\n"
	"a             annotate the selected symbol (perf's annotate browser; q/ESC/LEFT back)\n"
	"i             the perf.data header (as report --header-only)\n"
	"H             show or hide the column headers\n"
	"F             percentages of what the zooms leave, or of the total (perf's toggle)\n"
	"L             hide the entries under a percent of the total (perf's percent limit)\n"
	"P             write the view to perf.hist.N (the first free N)\n"
	"TAB/UNTAB     the next or previous event\n"
	"h/?/F1        this help\n"
	"q/CTRL+C      back out of a zoom, or quit\n"
	"\n"
	"perf keys not supported here:\n"
	"V             verbose (DSOs in the callchains, addresses in the rows)\n"
	"0-9           sort by event N of a group (perf's messages without a group)\n"
	"r, s          scripts, switch data file: the status line says why\n"
	"\n"
	"The rows and callchains are those of pmukit report --stdio (its callchain text\n"
	"under an unfolded entry).\n";

/* the / prompt on the bottom line: the string typed, ESC cancels (false) */
static bool prompt(const char *label, char *buf, size_t size)
{
	size_t len = strlen(buf);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		mvaddnstr(LINES - 1, 0, label, COLS);
		addnstr(buf, COLS > (int)strlen(label) ? COLS - (int)strlen(label) - 1 : 0);
		refresh();
		int k = tui_get_key();
		if (k == ERR || k == 27 || k == 3)
			return false;
		if (k == '\n' || k == '\r' || k == KEY_ENTER)
			return true;
		if ((k == KEY_BACKSPACE || k == 127 || k == 8) && len)
			buf[--len] = 0;
		else if (k >= 32 && k < 127 && len + 1 < size) {
			buf[len++] = (char)k;
			buf[len] = 0;
		}
	}
}

static void show_header(struct tui *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp)
		return;
	int rc = t->s ? report_header__fprintf(t->s, fp) : -1;
	if (fclose(fp) || rc || !text)
		snprintf(t->status, sizeof(t->status), "no header information");
	else
		tui_view_text("perf.data header", text);
	free(text);
}

static size_t sel_row(const struct tui *t)
{
	return t->sel < t->m.nr_lines ? t->m.view[t->sel].row : (size_t)-1;
}

/* the selection kept on its row's entry line across a rebuild */
static void reselect(struct tui *t, size_t row)
{
	for (size_t i = 0; i < t->m.nr_lines; i++)
		if (t->m.view[i].row == row && t->m.view[i].chain < 0) {
			t->sel = i;
			return;
		}
	t->sel = 0;
}

static void move_sel(struct tui *t, long d)
{
	long n = (long)t->m.nr_lines, s = (long)t->sel + d;
	t->sel = (size_t)(s < 0 || !n ? 0 : s >= n ? n - 1 : s);
}

static int switch_section(struct tui *t, int d)
{
	size_t n = pk_report__nr_sections(t->m.r), sec = t->m.section;
	for (size_t k = 0; k < n; k++) {
		sec = (sec + n + (size_t)(long)d) % n;
		if (pk_report__nr_entries(t->m.r, sec))
			break;
	}
	if (sec == t->m.section)
		return 0;
	struct pk_report *r = t->m.r;
	tui_model__free(&t->m);
	t->sel = t->top = 0;
	return tui_model__init(&t->m, r, sec);
}

/* L: perf's "Percent Limit" input; entries under it hidden (their callchains as they were) */
static void percent_limit(struct tui *t)
{
	char buf[64] = "", *end;
	if (!prompt("Percent limit: ", buf, sizeof(buf)))
		return;
	double p = strtod(buf, &end);	/* perf's: no number is 0 */
	if (p < 0 || p > 100) {
		snprintf(t->status, sizeof(t->status), "Invalid percent: %.2f", p);
		return;
	}
	tui_model__set_percent_limit(&t->m, p);
	t->sel = t->top = 0;
}

static bool is_group(const struct tui *t)
{
	const struct pk_report_entry *e = pk_report__entry(t->m.r, t->m.section, 0);
	return e && e->nr_group > 1;
}

/* 0-9: perf's "sort by event n in group", its messages; the sort itself not here */
static void sort_by_member(struct tui *t, int idx)
{
	const struct pk_report_entry *e = pk_report__entry(t->m.r, t->m.section, 0);
	int nr = e && e->nr_group > 1 ? (int)e->nr_group : 1;
	if (nr < 2)
		snprintf(t->status, sizeof(t->status), "Sort by index only available with group events!");
	else if (idx >= nr)
		snprintf(t->status, sizeof(t->status), "Max event group index to sort is %d (index from 0 to %d)",
			 nr - 1, nr - 1);
	else
		snprintf(t->status, sizeof(t->status), "sorting by group member %d is not supported here",
			 idx);
}

/* a: the annotate view of the selected entry's symbol (perf: nothing without samples of it) */
static int annotate(struct tui *t, size_t row)
{
	const struct pk_report_entry *e = row < t->m.nr_rows ?
		pk_report__entry(t->m.r, t->m.section, t->m.rows[row].entry) : NULL;
	if (!t->ann) {
		snprintf(t->status, sizeof(t->status), "annotate: not in this browser");
		return 0;
	}
	if (!e || !e->sym || !e->dso || !e->period)
		return 0;
	if (t->live && t->live->snapshot && t->live->snapshot(t->live->ctx, t->status, sizeof(t->status)))
		return 0;
	return tui_annotate(t->ann, t->m.r, t->m.section, e, t->status, sizeof(t->status));
}

static bool foldable(struct tui *t, size_t row)
{
	if (row >= t->m.nr_rows || !t->m.has_chains)
		return false;
	tui_model__read_chains(&t->m, t->sel, 1);
	return t->m.rows[row].nr_chain > 0;
}

enum { MENU_ANNOTATE, MENU_THREAD, MENU_DSO, MENU_EXPAND, MENU_EXIT, MENU_NR };

/* the menu's items for row as perf's (popup) context menu words them; *what their actions */
static int menu_lines(struct tui *t, size_t row, char items[MENU_NR][512], int *what)
{
	const struct pk_report_entry *e = row < t->m.nr_rows ?
		pk_report__entry(t->m.r, t->m.section, t->m.rows[row].entry) : NULL;
	int n = 0;
	if (!e)
		return 0;
	if (t->ann && e->sym && e->dso && e->period) {
		snprintf(items[n], 512, "Annotate %s", e->sym->name);
		what[n++] = MENU_ANNOTATE;
	}
	if (t->m.thread || (e->thread && tui_model__can_zoom(&t->m, TUI_ZOOM_THREAD))) {
		const struct pk_thread *th = t->m.thread ? t->m.thread : e->thread;
		char name[300];
		if (tui_model__can_zoom(&t->m, TUI_ZOOM_THREAD) && strstr(t->m.header, "Pid:Command"))
			snprintf(name, sizeof(name), "%s(%d)", th->comm, (int)th->tid);
		else
			snprintf(name, sizeof(name), "%s", th->comm);
		snprintf(items[n], 512, "Zoom %s %s thread", t->m.thread ? "out of" : "into", name);
		what[n++] = MENU_THREAD;
	}
	if (t->m.dso || (e->dso && tui_model__can_zoom(&t->m, TUI_ZOOM_DSO))) {
		const char *d = pk_dso__short_name(t->m.dso ? t->m.dso : e->dso);
		if (t->m.dso)
			snprintf(items[n], 512, "Zoom out of %s DSO", d);
		else
			snprintf(items[n], 512, "Zoom into %s DSO (use the 'k' hotkey to zoom directly into the kernel)", d);
		what[n++] = MENU_DSO;
	}
	if (foldable(t, row) && e->sym) {
		snprintf(items[n], 512, "%s [%s] callchain (one level, same as '+' hotkey, use 'e'/'c' for the whole main level entry)",
			 t->m.rows[row].expanded ? "Collapse" : "Expand", e->sym->name);
		what[n++] = MENU_EXPAND;
	}
	snprintf(items[n], 512, "Exit");
	what[n++] = MENU_EXIT;
	return n;
}

/* m (and ENTER without a callchain): perf's context menu of the selected entry */
static int context_menu(struct tui *t, size_t row)
{
	char items[MENU_NR][512];
	int what[MENU_NR], n = menu_lines(t, row, items, what), sel = 0;
	for (int done = !n; !done;) {
		erase();
		for (int i = 0; i < n && i < LINES - 2; i++) {
			if (i == sel) {
				attron(A_REVERSE);
				mvhline(1 + i, 0, ' ', COLS);
			}
			mvaddnstr(1 + i, 0, items[i], COLS);
			if (i == sel)
				attroff(A_REVERSE);
		}
		refresh();
		switch (tui_get_key()) {
		case ERR: case 27: case 'q': case KEY_LEFT: case 3:
			return 0;
		case KEY_UP: sel -= sel > 0; break;
		case KEY_DOWN: sel += sel + 1 < n; break;
		case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: done = 1; break;
		default: break;
		}
	}
	switch (n ? what[sel] : MENU_EXIT) {
	case MENU_ANNOTATE: return annotate(t, row);
	case MENU_THREAD: tui_model__zoom(&t->m, TUI_ZOOM_THREAD, row); reselect(t, row); return 0;
	case MENU_DSO: tui_model__zoom(&t->m, TUI_ZOOM_DSO, row); reselect(t, row); return 0;
	case MENU_EXPAND: {
		int rc = tui_model__toggle(&t->m, row);
		reselect(t, row);
		return rc;
	}
	default: return 1;	/* perf: Exit quits */
	}
}

/* one key of the main view: 1 to quit, 0 to go on, a negative errno */
static int key(struct tui *t, int k)
{
	size_t row = sel_row(t);
	int rc = 0;
	t->status[0] = 0;
	switch (k) {
	case KEY_DOWN: move_sel(t, 1); break;
	case KEY_UP: move_sel(t, -1); break;
	case KEY_NPAGE: case ' ': move_sel(t, page_rows(t)); break;
	case KEY_PPAGE: move_sel(t, -page_rows(t)); break;
	case KEY_HOME: t->sel = 0; break;
	case KEY_END: move_sel(t, (long)t->m.nr_lines); break;
	case '+': case 'e': case '\n': case '\r': case KEY_ENTER:
		/* perf: ENTER on an entry without a callchain to unfold opens the menu */
		if ((k == '\n' || k == '\r' || k == KEY_ENTER) && !foldable(t, row)) {
			rc = context_menu(t, row);
			break;
		}
		rc = tui_model__toggle(&t->m, row);
		reselect(t, row);
		break;
	case 'E': case 'C':
		rc = tui_model__set_all(&t->m, k == 'E');
		reselect(t, row);
		break;
	case 'd': case 't':
		if (!tui_model__can_zoom(&t->m, k == 'd' ? TUI_ZOOM_DSO : TUI_ZOOM_THREAD)) {
			snprintf(t->status, sizeof(t->status), k == 'd' ?
				 "no Shared Object column (--sort dso) to zoom into" :
				 "no Command or Pid:Command column (--sort comm or pid) to zoom into");
			break;
		}
		tui_model__zoom(&t->m, k == 'd' ? TUI_ZOOM_DSO : TUI_ZOOM_THREAD, row);
		reselect(t, row);
		break;
	case '/': {
		char buf[256];
		if (t->m.hier) {
			snprintf(t->status, sizeof(t->status), "the symbol filter is not supported with --hierarchy here");
			break;
		}
		snprintf(buf, sizeof(buf), "%s", t->m.filter);
		if (prompt("Symbol to show: ", buf, sizeof(buf))) {
			tui_model__set_filter(&t->m, buf);
			t->sel = t->top = 0;
		}
		break;
	}
	case 27: case KEY_LEFT:
		if (!tui_model__unzoom(&t->m) && t->menu)
			return 2;	/* back to the events */
		reselect(t, row);
		break;
	case 'q': case 3:
		if (!tui_model__unzoom(&t->m))
			return 1;
		reselect(t, row);
		break;
	case 'h': case '?': case KEY_F(1):
		tui_view_text("Help", help_text);
		break;
	case 'i':
		show_header(t);
		break;
	case 'P': {
		char name[64];
		int drc = tui_model__dump(&t->m, name, sizeof(name));
		snprintf(t->status, sizeof(t->status), drc ? "cannot write perf.hist.N: %s" :
			 "%s written!", drc ? strerror(-drc) : name);
		break;
	}
	case '\t': case KEY_BTAB:
		rc = switch_section(t, k == '\t' ? 1 : -1);
		break;
	case 'a':
		rc = annotate(t, row);
		break;
	case 'k':
		if (!t->m.dso && !tui_model__can_zoom(&t->m, TUI_ZOOM_DSO)) {
			snprintf(t->status, sizeof(t->status), "no Shared Object column (--sort dso) to zoom into");
			break;
		}
		tui_model__zoom_dso(&t->m, t->m.dso ? NULL : t->s ? pk_session__kernel_dso(t->s) : NULL);
		reselect(t, row);
		break;
	case 'm':
		rc = context_menu(t, row);
		break;
	case 'r': case 's':
		snprintf(t->status, sizeof(t->status), k == 'r' ? "no scripts here: pmukit script runs none" :
			 "switching the data file is not supported here: run pmukit report -i FILE");
		break;
	case 'H':
		t->no_headers = !t->no_headers;	/* perf: show_headers toggled */
		break;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
	case '9':
		sort_by_member(t, k - '0');
		break;
	case 'L':
		if (t->m.hier)
			snprintf(t->status, sizeof(t->status), "L is not supported with --hierarchy here");
		else
			percent_limit(t);
		break;
	case 'F':
		if (t->m.hier || is_group(t))
			snprintf(t->status, sizeof(t->status), "F is not supported with --hierarchy or --group here");
		else
			rc = tui_model__set_relative(&t->m, !t->m.relative);
		break;
	case 'S':
		/* perf's do_zoom_socket: nothing without the socket sort key (pmukit has none) */
		break;
	case 'V':
		snprintf(t->status, sizeof(t->status),
			 "'%c' is a perf key not supported here: press '?' for the keys", k);
		break;
	case KEY_RESIZE:
	default:
		break;
	}
	return rc;
}

/* perf's "Available samples" menu of the events: 1 to quit, 0 with *sec chosen */
static int menu(struct pk_report *r, size_t *sec)
{
	size_t n = pk_report__nr_sections(r), sel = *sec;
	char buf[512];
	for (;;) {
		erase();
		tui_bar(0, "Available samples");
		for (size_t i = 0; i < n && (int)i < LINES - 2; i++) {
			const struct pk_report_section *s = pk_report__section(r, i);
			unsigned long v;
			char unit;
			tui_convert_unit(s->nr_samples, &v, &unit);
			snprintf(buf, sizeof(buf), "%lu%c%s%s", v, unit, unit == ' ' ? "" : " ", s->name);
			if (i == sel) {
				attron(A_REVERSE);
				mvhline(1 + (int)i, 0, ' ', COLS);
			}
			mvaddnstr(1 + (int)i, 0, buf, COLS);
			if (i == sel)
				attroff(A_REVERSE);
		}
		mvaddnstr(LINES - 1, 0, "ESC: exit, ENTER|->: Browse histograms", COLS);
		refresh();
		switch (tui_get_key()) {
		case ERR: case 27: case 'q': case 3:
			return 1;
		case KEY_UP:
			sel -= sel > 0;
			break;
		case KEY_DOWN:
			sel += sel + 1 < n;
			break;
		case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
			*sec = sel;
			return 0;
		default:
			break;
		}
	}
}

/* the browser on one section: 1 to quit, 2 back to the menu, a negative errno */
static int browse(struct tui *t)
{
	int rc = 0;
	while (!rc) {
		draw(t);
		int k = get_key_live(t);
		rc = k == ERR ? 1 : k == TUI_KEY_LIVE ? live_swap(t) : key(t, k);
	}
	return rc;
}

static int browse_all(struct tui *t, struct pk_report *r)
{
	size_t sec = 0, nr = 0;
	for (size_t i = pk_report__nr_sections(r); i-- > 0;)
		if (pk_report__nr_entries(r, i)) {
			sec = i;
			nr++;
		}
	t->menu = nr > 1 && !t->live;	/* perf: a menu of the events first (not live: one event) */
	for (;;) {
		if (t->menu && menu(r, &sec))
			return 0;
		int rc = tui_model__init(&t->m, r, sec);
		if (!rc) {
			t->sel = t->top = 0;
			rc = browse(t);
		}
		sec = t->m.section;
		tui_model__free(&t->m);
		if (rc != 2)
			return rc < 0 ? rc : 0;
	}
}

static int run(struct pk_report *r, struct pk_session *s, const struct tui_live *live,
	       const struct tui_annotate_src *ann)
{
	struct tui *t = calloc(1, sizeof(*t));
	if (!t)
		return 255;
	t->s = s;
	t->live = live;
	t->ann = ann;
	if (live)
		live_due(t);	/* the first refresh delay_ms from now */
	tui_release_input(ann && !live ? ann->input : NULL);
	/*
	 * What reading the file freed (the reader's and the symbol workers'
	 * scratch, resident still) back to the system before the screen is
	 * built: the browser then stays up on what is live (the entries and
	 * their callchains), its first screen within --stdio's memory
	 * (bench/tui.c).
	 */
	malloc_trim(0);
	/* the terminal's character set (UTF-8 line drawing in the annotate view), for the browser only */
	char *ctype = strdup(setlocale(LC_CTYPE, NULL));
	setlocale(LC_CTYPE, "");
	FILE *in = fopen("/dev/tty", "r");
	SCREEN *scr = in ? newterm(NULL, stdout, in) : NULL;
	if (!scr) {
		fprintf(stderr, "pmukit report: cannot open the terminal\n");
		if (in)
			fclose(in);
		free(t);
		setlocale(LC_CTYPE, ctype ? ctype : "C");
		free(ctype);
		return 255;
	}
	signals_set(true);
	raw();		/* Ctrl-C a key (perf's: it backs out or quits), as in perf's browser */
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(100);	/* getch wakes up to see a signal */
	curs_set(0);
	int rc = browse_all(t, r);
	endwin();
	delscreen(scr);
	fclose(in);
	setlocale(LC_CTYPE, ctype ? ctype : "C");
	free(ctype);
	signals_set(false);
	int sig = got_signal;
	free(t);
	if (sig)
		raise(sig);	/* the terminal is back: the signal takes its course */
	if (rc < 0)
		fprintf(stderr, "pmukit report: the browser cannot show this report: %s\n", strerror(-rc));
	return rc < 0 ? 255 : 0;
}

int report_tui__run(struct pk_report *r, struct pk_session *s, const struct tui_annotate_src *src)
{
	return run(r, s, NULL, src);
}

int report_tui__run_live(struct pk_report *r, struct pk_session *s, const struct tui_live *live)
{
	return run(r, s, live, live->ann);
}
