/* SPDX-License-Identifier: MIT */
/*
 * annotate/stdio2.c — an annotation as perf 6.1's `perf annotate --stdio2`
 * prints it: the hists title ("Samples: N  of event 'e', F Hz, Event count
 * (approx.): P, [percent: t]"), "sym() dso", then every line as perf's
 * annotate browser writes it into a zero-width screen: the percent columns
 * (or "Percent" over a first line without any), the offset of jump targets,
 * an arrow before jumps, calls and returns, the instruction rebuilt from its
 * operands as perf's x86 instruction table parses them (targets as offsets
 * or symbol names, %rip operands by their symbol), and perf's padding (its
 * negative widths pad every field to the left).
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include <pmukit/annotate.h>
#include <pmukit/symbol.h>

#include "annotate_priv.h"
#include "util/buf.h"

/* perf's x86 instruction kinds (its ins_ops) */
enum ins_kind { K_NONE, K_MOV, K_DEC, K_NOP, K_RET, K_LOCK, K_CALL, K_JUMP };

/* perf 6.1's x86 mnemonic table (arch/x86/annotate/instructions.c), sorted */
static const struct {
	const char *name;
	enum ins_kind kind;
} x86_ins[] = {
	{ "adc", K_MOV }, { "adcb", K_MOV }, { "adcl", K_MOV }, { "add", K_MOV }, { "addl", K_MOV },
	{ "addq", K_MOV }, { "addsd", K_MOV }, { "addw", K_MOV }, { "and", K_MOV }, { "andb", K_MOV },
	{ "andl", K_MOV }, { "andpd", K_MOV }, { "andps", K_MOV }, { "andq", K_MOV }, { "andw", K_MOV },
	{ "bsr", K_MOV }, { "bt", K_MOV }, { "btr", K_MOV }, { "bts", K_MOV }, { "btsq", K_MOV },
	{ "call", K_CALL }, { "callq", K_CALL }, { "cmovae", K_MOV }, { "cmovbe", K_MOV },
	{ "cmove", K_MOV }, { "cmp", K_MOV }, { "cmpb", K_MOV }, { "cmpl", K_MOV }, { "cmpq", K_MOV },
	{ "cmpw", K_MOV }, { "cmpxch", K_MOV }, { "cmpxchg", K_MOV }, { "cs", K_MOV }, { "dec", K_DEC },
	{ "decl", K_DEC }, { "divsd", K_MOV }, { "divss", K_MOV }, { "gs", K_MOV }, { "imul", K_MOV },
	{ "inc", K_DEC }, { "incl", K_DEC }, { "ja", K_JUMP }, { "jae", K_JUMP }, { "jb", K_JUMP },
	{ "jbe", K_JUMP }, { "jc", K_JUMP }, { "jcxz", K_JUMP }, { "je", K_JUMP }, { "jecxz", K_JUMP },
	{ "jg", K_JUMP }, { "jge", K_JUMP }, { "jl", K_JUMP }, { "jle", K_JUMP }, { "jmp", K_JUMP },
	{ "jmpq", K_JUMP }, { "jna", K_JUMP }, { "jnae", K_JUMP }, { "jnb", K_JUMP }, { "jnbe", K_JUMP },
	{ "jnc", K_JUMP }, { "jne", K_JUMP }, { "jng", K_JUMP }, { "jnge", K_JUMP }, { "jnl", K_JUMP },
	{ "jnle", K_JUMP }, { "jno", K_JUMP }, { "jnp", K_JUMP }, { "jns", K_JUMP }, { "jnz", K_JUMP },
	{ "jo", K_JUMP }, { "jp", K_JUMP }, { "jpe", K_JUMP }, { "jpo", K_JUMP }, { "jrcxz", K_JUMP },
	{ "js", K_JUMP }, { "jz", K_JUMP }, { "lea", K_MOV }, { "lock", K_LOCK }, { "mov", K_MOV },
	{ "movapd", K_MOV }, { "movaps", K_MOV }, { "movb", K_MOV }, { "movdqa", K_MOV },
	{ "movdqu", K_MOV }, { "movl", K_MOV }, { "movq", K_MOV }, { "movsd", K_MOV },
	{ "movslq", K_MOV }, { "movss", K_MOV }, { "movupd", K_MOV }, { "movups", K_MOV },
	{ "movw", K_MOV }, { "movzbl", K_MOV }, { "movzwl", K_MOV }, { "mulsd", K_MOV },
	{ "mulss", K_MOV }, { "nop", K_NOP }, { "nopl", K_NOP }, { "nopw", K_NOP }, { "or", K_MOV },
	{ "orb", K_MOV }, { "orl", K_MOV }, { "orps", K_MOV }, { "orq", K_MOV }, { "paddq", K_MOV },
	{ "pand", K_MOV }, { "pcmpeqb", K_MOV }, { "por", K_MOV }, { "rclb", K_MOV }, { "rcll", K_MOV },
	{ "ret", K_RET }, { "retq", K_RET }, { "sbb", K_MOV }, { "sbbl", K_MOV }, { "sete", K_MOV },
	{ "sub", K_MOV }, { "subl", K_MOV }, { "subq", K_MOV }, { "subsd", K_MOV }, { "subw", K_MOV },
	{ "test", K_MOV }, { "testb", K_MOV }, { "testl", K_MOV }, { "ucomisd", K_MOV },
	{ "ucomiss", K_MOV }, { "vaddsd", K_MOV }, { "vandpd", K_MOV }, { "vmovdqa", K_MOV },
	{ "vmovq", K_MOV }, { "vmovsd", K_MOV }, { "vmulsd", K_MOV }, { "vorpd", K_MOV },
	{ "vsubsd", K_MOV }, { "vucomisd", K_MOV }, { "xadd", K_MOV }, { "xbeginl", K_JUMP },
	{ "xbeginq", K_JUMP }, { "xchg", K_MOV }, { "xor", K_MOV }, { "xorb", K_MOV },
	{ "xorpd", K_MOV }, { "xorps", K_MOV },
};

/* perf's scnprintf into its 256-byte bf: cut where it cuts */
__attribute__((format(printf, 3, 4))) static void put(char *bf, size_t sz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(bf, sz, fmt, ap);
	va_end(ap);
}

static enum ins_kind ins_find(const char *name)
{
	size_t lo = 0, hi = sizeof(x86_ins) / sizeof(x86_ins[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, x86_ins[mid].name);
		if (!c)
			return x86_ins[mid].kind;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return K_NONE;
}

/* One instruction as perf parses it: its kind, and the text perf writes for it. */
struct insn {
	enum ins_kind kind;	/* K_NONE: perf found no ops (or their parse failed) */
	bool outside;		/* a jump out of the symbol: drawn as a call */
	int64_t target;		/* a jump's offset in the symbol, -1: none */
	char name[64];
	const char *raw;	/* the operands, trimmed (points into the line's copy) */
	char body[256];		/* perf's bf: disasm_line__scnprintf's text, cut at 255 */
};

/* perf's disasm_line__parse: the first word and the rest, trimmed (in place) */
static int split(char *line, char *name, size_t nsz, const char **raw)
{
	while (isspace((unsigned char)*line))
		line++;
	if (!*line)
		return -1;
	char *r = line + 1;
	while (*r && !isspace((unsigned char)*r))
		r++;
	put(name, nsz, "%.*s", (int)(r - line), line);
	while (isspace((unsigned char)*r))
		r++;
	size_t n = strlen(r);
	while (n && isspace((unsigned char)r[n - 1]))
		r[--n] = '\0';
	*raw = r;
	return 0;
}

/* perf's comment__symbol: the <name> of "# addr <name>" for a %rip operand, else NULL */
static void comment_symbol(const char *op, const char *comment, char *out, size_t osz)
{
	out[0] = '\0';
	if (!comment || !strstr(op, "(%rip)"))
		return;
	char *end;
	strtoull(comment + 1, &end, 16);
	if (end == comment + 1)
		return;
	const char *n = strchr(end, '<'), *t = n ? strchr(n + 1, '>') : NULL;
	if (t)
		put(out, osz, "%.*s", (int)(t - n - 1), n + 1);
}

/* perf's mov__parse and mov__scnprintf: "name source,target", -1 when it does not parse */
static int fmt_mov(const char *name, const char *raw, int w, char *bf, size_t sz)
{
	const char *s = strchr(raw, ',');
	if (!s)
		return -1;
	if (memchr(raw, '(', (size_t)(s - raw))) {	/* in the source: SIB addressing */
		s = strchr(raw, ')');
		if (!s || s[1] != ',')
			return -1;
		s++;
	}
	char src[256], tgt[256], sname[256], tname[256];
	put(src, sizeof(src), "%.*s", (int)(s - raw), raw);
	const char *target = s + 1;
	while (isspace((unsigned char)*target))
		target++;
	const char *comment = strchr(s + 1, '#');
	const char *e = comment ? comment - 1 : s + 1 + strlen(s + 1) - 1;
	while (e > target && isspace((unsigned char)*e))
		e--;
	e++;
	put(tgt, sizeof(tgt), "%.*s", e > target ? (int)(e - target) : 0, target);
	comment_symbol(src, comment, sname, sizeof(sname));
	comment_symbol(tgt, comment, tname, sizeof(tname));
	put(bf, sz, "%-*s %s,%s", w, name, *sname ? sname : src, *tname ? tname : tgt);
	return 0;
}

/* perf's dec__parse and dec__scnprintf: "name target" */
static void fmt_dec(const char *name, const char *raw, int w, char *bf, size_t sz)
{
	size_t n = 0;
	while (raw[n] && !isspace((unsigned char)raw[n]))
		n++;
	char tgt[256], tname[256];
	put(tgt, sizeof(tgt), "%.*s", (int)n, raw);
	comment_symbol(tgt, strchr(raw + n, '#'), tname, sizeof(tname));
	put(bf, sz, "%-*s %s", w, name, *tname ? tname : tgt);
}

/*
 * perf's symbol at objdump address addr (maps__find_ams): perf looks it up in
 * the recorded maps, the executable ones only, so a data object (whose
 * segment perf record did not map) is not found.
 */
static const char *sym_at(const struct pk_annotation *an, uint64_t addr)
{
	const struct pk_sym *s = pk_dso__find(an->dso, addr - (uint64_t)an->rip_delta);
	return s && s->type != STT_OBJECT && s->type != STT_TLS ? s->name : NULL;
}

/* perf's call__parse and call__scnprintf; -1: perf drops the ops (no '>' after '<') */
static int fmt_call(const struct pk_annotation *an, const char *name, const char *raw, int w,
		    char *bf, size_t sz)
{
	char *end;
	uint64_t addr = strtoull(raw, &end, 16);
	char tname[256] = "";
	const char *n = strchr(end, '<');
	if (n) {
		const char *t = strchr(n + 1, '>');
		if (!t)
			return -1;
		put(tname, sizeof(tname), "%.*s", (int)(t - n - 1), n + 1);
	} else if (strchr(end, '*')) {
		if (!strstr(end + 1, "(%r"))
			addr = strtoull(end + 1, NULL, 16);
	}
	const char *sym = addr ? sym_at(an, addr) : NULL;
	if (sym)
		put(bf, sz, "%-*s %s", w, name, sym);
	else if (!addr)
		put(bf, sz, "%-*s %s", w, name, raw);
	else if (*tname)
		put(bf, sz, "%-*s %s", w, name, tname);
	else
		put(bf, sz, "%-*s *%" PRIx64, w, name, addr);
	return 0;
}

/* perf's jump__parse and jump__scnprintf (x86: no comma before the target) */
static void fmt_jump(const struct pk_annotation *an, struct insn *in, int w)
{
	const char *raw = in->raw, *cmt = strchr(raw, '#'), *fs = strchr(raw, '<');
	const char *c = strchr(raw, ',');
	if (c && ((cmt && c > cmt) || (fs && c > fs)))
		c = NULL;
	uint64_t addr;
	if (c) {
		addr = strtoull(c + 1, NULL, 16);
		if (!addr) {
			const char *c2 = strchr(c + 1, ',');
			if (c2 && !((cmt && c2 > cmt) || (fs && c2 > fs)))
				addr = strtoull(c2 + 1, NULL, 16);
		}
	} else {
		addr = strtoull(raw, NULL, 16);
	}
	/* perf compares memory addresses; objdump's differ from them by a constant */
	in->outside = addr < an->start || addr > an->start + an->size;
	const char *sym = in->outside && addr ? sym_at(an, addr) : NULL;
	/* perf 6.1 keeps the offset of an outside target too: one before the symbol prints raw */
	int64_t off = (int64_t)(addr - an->start);
	in->target = in->outside ? -1 : off;
	if (!addr || off < 0)
		put(in->body, sizeof(in->body), "%-*s %s", w, in->name, raw);
	else if (in->outside && sym)
		put(in->body, sizeof(in->body), "%-*s %s", w, in->name, sym);
	else
		put(in->body, sizeof(in->body), "%-*s %" PRIx64, w, in->name, off);
}

/* The text perf writes for an instruction whose name and operands are in in. */
static void format_insn(const struct pk_annotation *an, struct insn *in, int w)
{
	char *bf = in->body;
	size_t sz = sizeof(in->body);
	in->target = -1;
	switch (in->kind) {
	case K_MOV:
		if (fmt_mov(in->name, in->raw, w, bf, sz))
			in->kind = K_NONE;
		break;
	case K_DEC:
		fmt_dec(in->name, in->raw, w, bf, sz);
		break;
	case K_NOP:
		put(bf, sz, "%-*s", w, "nop");
		break;
	case K_CALL:
		if (fmt_call(an, in->name, in->raw, w, bf, sz))
			in->kind = K_NONE;
		break;
	case K_JUMP:
		fmt_jump(an, in, w);
		break;
	case K_LOCK: {
		/* perf's lock__parse: the locked instruction, formatted after "lock " */
		struct insn inner = { 0 };
		char copy[256];
		put(copy, sizeof(copy), "%s", in->raw);
		int n = snprintf(bf, sz, "%-*s ", w, in->name);
		if (split(copy, inner.name, sizeof(inner.name), &inner.raw) ||
		    (inner.kind = ins_find(inner.name)) == K_NONE || inner.kind == K_LOCK) {
			put(bf, sz, "%-*s %s", w, in->name, in->raw);
			break;
		}
		format_insn(an, &inner, w);
		if (inner.kind == K_NONE)
			put(inner.body, sizeof(inner.body), "%-*s %s", w, inner.name, inner.raw);
		put(bf + n, sz - (size_t)n, "%s", inner.body);
		break;
	}
	default:
		break;
	}
	if (in->kind == K_NONE || in->kind == K_RET)
		put(bf, sz, "%-*s %s", w, in->name, in->raw);
}

static int hex_width(uint64_t v)
{
	int n = 1;
	while ((v >>= 4))
		++n;
	return n;
}

/* perf's convert_unit: K, M, G above a thousand */
static uint64_t convert_unit(uint64_t v, char *unit)
{
	*unit = ' ';
	const char units[] = "KMG";
	for (int i = 0; i < 3 && v > 1000; i++) {
		v /= 1000;
		*unit = units[i];
	}
	return v;
}

static void print_title(const struct pk_annotation *an, FILE *f, const struct pk_annotation_print_opts *o)
{
	uint64_t samples = 0;
	for (int m = 0; m < an->nr_group; m++)
		samples += an->ev_totals[an->attr + m].nr_samples;
	char unit;
	samples = convert_unit(samples, &unit);
	/* the members' hists are not sorted yet when perf prints the leader's: no period */
	fprintf(f, "Samples: %" PRIu64 "%c of event%s '%s', %d Hz, Event count (approx.): %" PRIu64
		", [percent: %s]\n%s() %s\n",
		samples, unit, an->nr_group > 1 ? "s" : "", an->event, (int)(uint32_t)an->sample_freq,
		an->ev_totals[an->attr].period, ann_percent_names[o->percent_type], an->sym_name,
		an->dso_long);
}

/* parse every instruction; count each local jump's target (perf's jump_sources) */
static struct insn *parse_all(const struct pk_annotation *an, unsigned *sources, int *max_name)
{
	struct insn *v = calloc(an->nr_lines ? an->nr_lines : 1, sizeof(*v));
	char **copies = calloc(an->nr_lines ? an->nr_lines : 1, sizeof(*copies));
	if (!v || !copies) {
		free(v);
		free(copies);
		return NULL;
	}
	*max_name = 0;
	for (size_t i = 0; i < an->nr_lines; i++) {
		const struct pk_annotation_line *l = &an->lines[i];
		if (l->offset < 0)
			continue;
		copies[i] = strdup(l->text);
		if (!copies[i] || split(copies[i], v[i].name, sizeof(v[i].name), &v[i].raw)) {
			v[i].raw = "";
			continue;
		}
		v[i].kind = ins_find(v[i].name);
		int n = (int)strlen(v[i].name);
		if (n > *max_name)
			*max_name = n;
	}
	for (size_t i = 0; i < an->nr_lines; i++)
		if (an->lines[i].offset >= 0)
			format_insn(an, &v[i], *max_name);
	bool plt = strstr(an->sym_name, "@plt") != NULL;
	for (size_t i = 0; i < an->nr_lines && !plt; i++) {
		if (v[i].kind != K_JUMP || v[i].target < 0 || (uint64_t)v[i].target >= an->size)
			continue;
		for (size_t j = 0; j < an->nr_lines; j++)
			if (an->lines[j].offset == v[i].target) {
				sources[j]++;
				break;
			}
	}
	for (size_t i = 0; i < an->nr_lines; i++)
		free(copies[i]);
	free(copies);
	return v;
}

static const char *arrow(const struct insn *in, int64_t offset)
{
	switch (in->kind) {
	case K_JUMP:
		if (in->outside)
			return "→ ";
		return in->target > offset ? "↓ " : "↑ ";
	case K_CALL:
		return "→ ";
	case K_RET:
		return "← ";
	default:
		return "  ";
	}
}

int ann_print__stdio2(const struct pk_annotation *an, FILE *f, const struct pk_annotation_print_opts *o)
{
	bool period = o->flags & PK_ANNOTATE_PRINT_PERIOD, nr = o->flags & PK_ANNOTATE_PRINT_NR_SAMPLES;
	if ((o->flags & PK_ANNOTATE_PRINT_LINES) && ann_print__summary(an, f, o->percent_type))
		return -ENOMEM;
	print_title(an, f, o);
	unsigned *sources = calloc(an->nr_lines ? an->nr_lines : 1, sizeof(*sources));
	int max_name;
	struct insn *v = sources ? parse_all(an, sources, &max_name) : NULL;
	if (!v) {
		free(sources);
		return -ENOMEM;
	}
	int pcnt = (period ? 12 : 7) * an->nr_group, addr_w = hex_width(an->size);
	for (size_t i = 0; i < an->nr_lines; i++) {
		const struct pk_annotation_line *l = &an->lines[i];
		double max = l->offset >= 0 ? ann_print__max_percent(an, l, o->percent_type) : 0.0;
		if (l->offset >= 0 && max != 0.0) {
			for (int m = an->attr; m < an->attr + an->nr_group; m++) {
				if (period)
					fprintf(f, "%11" PRIu64 " ", l->period[m]);
				else if (nr)
					fprintf(f, "%6" PRIu64 " ", l->nr_samples[m]);
				else
					fprintf(f, "%6.2f ", ann_print__percent(an, l, m, o->percent_type));
			}
		} else {
			fprintf(f, "%-*s", pcnt, i ? " " : period ? "Period" : nr ? "Samples" : "Percent");
		}
		fputc(' ', f);
		if (!*l->text && l->offset < 0) {
			fprintf(f, "%-*s\n", pcnt, " ");
		} else if (l->offset < 0) {
			int printed = fprintf(f, "%-*s  ", addr_w, " ");
			fprintf(f, "%-*s\n", printed + pcnt - 1, l->text);
		} else {
			int printed = sources[i] ? fprintf(f, "%*" PRIx64 ": ", addr_w, (uint64_t)l->offset)
						 : fprintf(f, "%-*s  ", addr_w, " ");
			fputs(arrow(&v[i], l->offset), f);
			fprintf(f, "%-*s\n", pcnt + 3 + printed, v[i].body);
		}
	}
	free(v);
	free(sources);
	return ferror(f) ? -EIO : 0;
}
