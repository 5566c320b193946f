/* SPDX-License-Identifier: MIT */
/*
 * script-trace.c — tracepoint samples' raw data printed as perf script
 * prints them: the event formats, kallsyms, printk formats and saved
 * cmdlines of the file's tracing data are given to libtraceevent (the
 * library perf 6.1 uses), which prints each record through its print fmt
 * ("prev_comm=sh prev_pid=12 ... ==> next_comm=..."). The tracing data
 * container (perf's trace-event-info layout) is walked here; every size is
 * checked against the bytes that are there.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "script.h"

struct script_trace {
	struct tep_handle *tep;
	struct trace_seq seq;
};

struct walk {
	const uint8_t *p, *end;
	bool be;
};

static bool take(struct walk *w, void *out, size_t n)
{
	if ((size_t)(w->end - w->p) < n)
		return false;
	memcpy(out, w->p, n);
	w->p += n;
	return true;
}

static bool u32_(struct walk *w, uint32_t *v)
{
	if (!take(w, v, 4))
		return false;
	*v = w->be ? be32toh(*v) : le32toh(*v);
	return true;
}

static bool u64_(struct walk *w, uint64_t *v)
{
	if (!take(w, v, 8))
		return false;
	*v = w->be ? be64toh(*v) : le64toh(*v);
	return true;
}

/* A NUL-terminated copy of the next n bytes (libtraceevent parsers want C strings). */
static char *blob(struct walk *w, uint64_t n)
{
	if ((uint64_t)(w->end - w->p) < n)
		return NULL;
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, w->p, n);
	s[n] = '\0';
	w->p += n;
	return s;
}

static const char *cstr(struct walk *w)
{
	const uint8_t *z = memchr(w->p, '\0', (size_t)(w->end - w->p));
	if (!z)
		return NULL;
	const char *s = (const char *)w->p;
	w->p = z + 1;
	return s;
}

/* "name\0" + u64 size + data, as the header page and header event are stored */
static char *named_blob(struct walk *w, const char *name, uint64_t *size)
{
	const char *n = cstr(w);
	if (!n || strcmp(n, name) || !u64_(w, size))
		return NULL;
	return blob(w, *size);
}

/*
 * The printk formats ("ADDR : \"FORMAT\"" a line) as libtraceevent can take
 * them: its parser steps one byte past the ':' of each line, past the end
 * of the text for a line without one (or ending in it). Such lines (a
 * damaged or foreign file) are dropped, in place; the others kept.
 */
static void printk_lines_check(char *s)
{
	char *out = s;
	for (char *line = s; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *colon = memchr(line, ':', len);
		if (colon && colon + 1 < line + len) {
			memmove(out, line, len);
			out += len;
			if (nl)
				*out++ = '\n';
		}
		line += len + (nl ? 1 : 0);
	}
	*out = '\0';
}

static int load(struct script_trace *t, const uint8_t *data, size_t size)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct walk w = { data, data + size, false };
	uint8_t be, long_size;
	uint32_t page_size, n;
	uint64_t sz;
	char *s;
	if (size < sizeof(magic) || memcmp(data, magic, sizeof(magic)))
		return -EINVAL;
	w.p += sizeof(magic);
	const char *version = cstr(&w);
	if (!version || !take(&w, &be, 1) || !take(&w, &long_size, 1))
		return -EINVAL;
	w.be = be;
	if (!u32_(&w, &page_size))
		return -EINVAL;
	tep_set_file_bigendian(t->tep, be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, __BYTE_ORDER == __BIG_ENDIAN ? TEP_BIG_ENDIAN
								     : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)page_size);
	if (!(s = named_blob(&w, "header_page", &sz)))
		return -EINVAL;
	tep_parse_header_page(t->tep, s, sz, long_size);
	free(s);
	if (!(s = named_blob(&w, "header_event", &sz)))
		return -EINVAL;
	free(s);
	/* ftrace's own events */
	if (!u32_(&w, &n))
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		if (!u64_(&w, &sz) || !(s = blob(&w, sz)))
			return -EINVAL;
		tep_parse_event(t->tep, s, sz, "ftrace");
		free(s);
	}
	/* the recorded events, by system */
	uint32_t nsys;
	if (!u32_(&w, &nsys))
		return -EINVAL;
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = cstr(&w);
		if (!sys || !u32_(&w, &n))
			return -EINVAL;
		for (uint32_t j = 0; j < n; j++) {
			if (!u64_(&w, &sz) || !(s = blob(&w, sz)))
				return -EINVAL;
			tep_parse_event(t->tep, s, sz, sys);
			free(s);
		}
	}
	/* kallsyms, printk formats, and (0.6) saved cmdlines: optional from here on */
	if (u32_(&w, &n) && (s = blob(&w, n))) {
		if (n)
			tep_parse_kallsyms(t->tep, s);
		free(s);
	} else {
		return 0;
	}
	if (u32_(&w, &n) && (s = blob(&w, n))) {
		printk_lines_check(s);
		if (*s)
			tep_parse_printk_formats(t->tep, s);
		free(s);
	} else {
		return 0;
	}
	if (strcmp(version, "0.6") >= 0 && u64_(&w, &sz) && (s = blob(&w, sz))) {
		if (sz)
			tep_parse_saved_cmdlines(t->tep, s);
		free(s);
	}
	return 0;
}

int script_trace__new(struct script_trace **out, struct pk_data_reader *r)
{
	size_t size;
	const void *data = pk_data_reader__tracing_data(r, &size);
	*out = NULL;
	if (!data)
		return -ENOENT;
	struct script_trace *t = calloc(1, sizeof(*t));
	if (!t || !(t->tep = tep_alloc())) {
		free(t);
		return -ENOMEM;
	}
	trace_seq_init(&t->seq);
	int rc = load(t, data, size);
	if (rc) {
		script_trace__free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void script_trace__free(struct script_trace *t)
{
	if (!t)
		return;
	trace_seq_destroy(&t->seq);
	tep_free(t->tep);
	free(t);
}

bool script_trace__print(struct script_trace *t, uint64_t config, int cpu, const void *raw,
			 uint32_t size, struct obuf *b)
{
	struct tep_event *ev = tep_find_event(t->tep, (int)config);
	if (!ev)
		return false;
	struct tep_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.data = (void *)raw;
	rec.size = (int)size;
	trace_seq_reset(&t->seq);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	size_t n = strlen(t->seq.buffer);
	if (b->buf.cap - b->buf.len < n)
		obuf__flush(b);
	if (b->buf.cap - b->buf.len >= n) {
		memcpy(b->buf.data + b->buf.len, t->seq.buffer, n);
		b->buf.len += n;
	} else {
		obuf__flush(b);
		if (fwrite(t->seq.buffer, 1, n, b->f) != n)
			b->err = true;
	}
	return true;
}
