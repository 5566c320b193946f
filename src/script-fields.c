/* SPDX-License-Identifier: MIT */
/*
 * script-fields.c — perf script's output fields: the default set for each
 * event type, `-F` as perf parses it ("comm,tid", "+addr", "-period",
 * "sw:ip,sym", "trace:"), and the check that drops a default field the
 * recorded samples cannot give (no PERF_SAMPLE_CPU: no cpu column) while
 * refusing it when the user asked for it, with perf's messages.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "script.h"

static const struct {
	const char *str;
	uint32_t field;
} fields[] = {
	{ "comm", SF_COMM },		{ "tid", SF_TID },
	{ "pid", SF_PID },		{ "time", SF_TIME },
	{ "cpu", SF_CPU },		{ "event", SF_EVNAME },
	{ "trace", SF_TRACE },		{ "ip", SF_IP },
	{ "sym", SF_SYM },		{ "dso", SF_DSO },		{ "addr", SF_ADDR },
	{ "symoff", SF_SYMOFFSET },	{ "srcline", SF_SRCLINE },
	{ "period", SF_PERIOD },	{ "data_src", SF_DATA_SRC },
	{ "weight", SF_WEIGHT },	{ "bpf-output", SF_BPF_OUTPUT },
	{ "phys_addr", SF_PHYS_ADDR },	{ "misc", SF_MISC },
	{ "data_page_size", SF_DATA_PAGE_SIZE },
	{ "code_page_size", SF_CODE_PAGE_SIZE },
	{ "ins_lat", SF_INS_LAT },
	{ "brstack", SF_BRSTACK },	{ "brstacksym", SF_BRSTACKSYM },
	/* guest samples only: nothing to print for the host's */
	{ "machine_pid", SF_OTHER },	{ "vcpu", SF_OTHER },
};

/*
 * perf 6.1's other fields (the list is 6.1's: later ones such as dsoff or
 * cgroup are refused as 6.1 refuses them): they need hardware tracing,
 * registers or tools that pmukit does not print.
 */
static const char *const unsupported[] = {
	"iregs", "uregs", "callindent", "insn", "insnlen",
	"brstackinsn", "brstackoff", "synth", "metric", "srccode", "ipc", "tod",
	"brstackinsnlen",
};

#define DEF_COMMON (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME)
#define DEF_IP (SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO)

void script_fields__defaults(struct script *sc)
{
	memset(sc->out, 0, sizeof(sc->out));
	for (int t = 0; t < ST_MAX; t++) {
		sc->out[t].fields = DEF_COMMON | DEF_IP | SF_PERIOD;
		sc->out[t].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	}
	sc->out[PERF_TYPE_SOFTWARE].fields |= SF_BPF_OUTPUT;
	sc->out[PERF_TYPE_SOFTWARE].invalid_fields = SF_TRACE;
	sc->out[PERF_TYPE_TRACEPOINT].fields = DEF_COMMON | SF_TRACE;
	sc->out[PERF_TYPE_TRACEPOINT].invalid_fields = 0;
	sc->out[PERF_TYPE_RAW].fields |= SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR |
					 SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE | SF_INS_LAT;
	sc->out[ST_SYNTH].fields = DEF_COMMON | DEF_IP;
}

static const char *type_name(int t)
{
	switch (t) {
	case PERF_TYPE_HARDWARE: return "hardware";
	case PERF_TYPE_SOFTWARE: return "software";
	case PERF_TYPE_TRACEPOINT: return "tracepoint";
	case PERF_TYPE_RAW: return "raw";
	case PERF_TYPE_BREAKPOINT: return "breakpoint";
	case ST_SYNTH: return "synth";
	default: return "unknown";
	}
}

static const char *field_name(uint32_t f)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].field == f)
			return fields[i].str;
	return "";
}

static bool any_user_set(const struct script *sc)
{
	for (int t = 0; t < ST_MAX; t++)
		if (sc->out[t].user_set)
			return true;
	return false;
}

/* the type word of "-F type:fields": the output type, or -1 */
static int type_of(const char *s)
{
	static const struct {
		const char *name;
		int type;
	} types[] = {
		{ "hw", PERF_TYPE_HARDWARE }, { "sw", PERF_TYPE_SOFTWARE },
		{ "trace", PERF_TYPE_TRACEPOINT }, { "raw", PERF_TYPE_RAW },
		{ "break", PERF_TYPE_BREAKPOINT }, { "synth", ST_SYNTH },
	};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(s, types[i].name))
			return types[i].type;
	return -1;
}

/* a field name's SF_* bit; 0 for a name not known */
static uint32_t field_bit(const char *tok)
{
	uint32_t f = 0;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(tok, fields[i].str))
			f = fields[i].field;
	return f;
}

/* the error for an unknown field: perf's, or ours for one perf has and pmukit not */
static void unknown_field(const char *tok)
{
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
		if (!strcmp(tok, unsupported[i])) {
			fprintf(stderr, "pmukit script: field '%s' is not supported\n", tok);
			return;
		}
	}
	fprintf(stderr, "Invalid field requested.\n");
}

/* -F without a type: field f set (or removed) for every type it is valid for */
static void change_all(struct script *sc, const char *tok, uint32_t f, bool remove)
{
	for (int j = 0; j < ST_MAX; j++) {
		struct script_output *o = &sc->out[j];
		if (o->invalid_fields & f) {
			fprintf(stderr, "'%s' not valid for %s events. Ignoring.\n", tok, type_name(j));
			continue;
		}
		if (remove) {
			o->fields &= ~f;
			o->user_set_fields &= ~f;
			o->user_unset_fields |= f;
		} else {
			o->fields |= f;
			o->user_set_fields |= f;
			o->user_unset_fields &= ~f;
		}
		o->user_set = true;
		o->wildcard_set = true;
	}
}

int script_fields__parse(struct script *sc, const char *arg)
{
	char *str = strdup(arg), *tok, *save = NULL;
	int type = -1, rc = -1;
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	if (!str)
		return -1;
	tok = strchr(str, ':');
	if (tok) {
		*tok++ = '\0';
		type = type_of(str);
		if (type < 0) {
			fprintf(stderr, "Invalid event type in field string.\n");
			goto out;
		}
		if (sc->out[type].user_set)
			fprintf(stderr, "Overriding previous field request for %s events.\n",
				type_name(type));
		if (!strchr(tok, '+') && !strchr(tok, '-')) {
			sc->out[type].fields = 0;
			sc->out[type].user_set = true;
			sc->out[type].wildcard_set = false;
		}
	} else {
		tok = str;
		if (!*str) {
			fprintf(stderr, "Cannot set fields to 'none' for all event types.\n");
			goto out;
		}
		if (!strchr(str, '+') && !strchr(str, '-')) {
			if (any_user_set(sc))
				fprintf(stderr, "Overriding previous field request for all events.\n");
			for (int j = 0; j < ST_MAX; j++) {
				sc->out[j].fields = 0;
				sc->out[j].user_set = true;
				sc->out[j].wildcard_set = true;
			}
		}
	}
	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*tok == '+') {
			if (change == SET)
				goto badmix;
			change = ADD;
			tok++;
		} else if (*tok == '-') {
			if (change == SET)
				goto badmix;
			change = REMOVE;
			tok++;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		uint32_t f = field_bit(tok);
		if (!f && !strcmp(tok, "flags"))
			continue;	/* branch flags: none without hardware tracing */
		if (!f) {
			unknown_field(tok);
			goto out;
		}
		if (type == -1) {
			change_all(sc, tok, f, change == REMOVE);
		} else {
			struct script_output *o = &sc->out[type];
			if (o->invalid_fields & f) {
				fprintf(stderr, "'%s' not valid for %s events.\n", tok, type_name(type));
				goto out;
			}
			if (change == REMOVE)
				o->fields &= ~f;
			else
				o->fields |= f;
			o->user_set = true;
			o->wildcard_set = true;
		}
	}
	rc = 0;
	goto out;
badmix:
	fprintf(stderr, "Cannot mix +-field with overridden fields\n");
out:
	free(str);
	return rc;
}

/* perf's evsel__do_check_stype */
static int check_stype(struct script *sc, int type, const struct pk_data_attr *a, const char *name,
		       uint64_t bit, const char *msg, uint32_t field, bool allow_user_set)
{
	if (a->attr.sample_type & bit)
		return 0;
	if (sc->out[type].user_set_fields & field) {
		if (allow_user_set)
			return 0;
		fprintf(stderr,
			"Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.\n",
			name, msg, field_name(field));
		return -1;
	}
	sc->out[type].fields &= ~field;
	return 0;
}

int script_fields__check(struct script *sc, const struct pk_data_attr *a, const char *name,
			 bool has_stat, bool has_auxtrace)
{
	int t = script__type(a->attr.type);
	uint32_t f = sc->out[t].fields;
	if (a->attr.type == PERF_TYPE_SOFTWARE && a->attr.config == PERF_COUNT_SW_DUMMY)
		return 0;
	if (has_stat || !f)
		return 0;
	bool aus = has_auxtrace;
#define PF(x) (sc->out[t].fields & (x))
	if (PF(SF_IP) && check_stype(sc, t, a, name, PERF_SAMPLE_IP, "IP", SF_IP, false))
		return -1;
	if (PF(SF_ADDR) && check_stype(sc, t, a, name, PERF_SAMPLE_ADDR, "ADDR", SF_ADDR, aus))
		return -1;
	if (PF(SF_DATA_SRC) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_DATA_SRC, "DATA_SRC", SF_DATA_SRC, aus))
		return -1;
	if (PF(SF_WEIGHT) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT",
			SF_WEIGHT, aus))
		return -1;
	if (PF(SF_SYM) && !(a->attr.sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(stderr, "Display of symbols requested but neither sample IP nor sample address\n"
				"available. Hence, no addresses to convert to symbols.\n");
		return -1;
	}
	if (PF(SF_SYMOFFSET) && !PF(SF_SYM)) {
		fprintf(stderr, "Display of offsets requested but symbol is notselected.\n");
		return -1;
	}
	if (PF(SF_DSO) && !(a->attr.sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(stderr, "Display of DSO requested but no address to convert.\n");
		return -1;
	}
	if (PF(SF_SRCLINE) && !PF(SF_IP)) {
		fprintf(stderr, "Display of source line number requested but sample IP is not\n"
				"selected. Hence, no address to lookup the source line number.\n");
		return -1;
	}
	if (PF(SF_PID | SF_TID) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_TID, "TID", SF_TID | SF_PID, false))
		return -1;
	if (PF(SF_TIME) && check_stype(sc, t, a, name, PERF_SAMPLE_TIME, "TIME", SF_TIME, false))
		return -1;
	if (PF(SF_CPU) && check_stype(sc, t, a, name, PERF_SAMPLE_CPU, "CPU", SF_CPU, aus))
		return -1;
	if (PF(SF_PHYS_ADDR) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", SF_PHYS_ADDR, aus))
		return -1;
	if (PF(SF_DATA_PAGE_SIZE) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE",
			SF_DATA_PAGE_SIZE, false))
		return -1;
	if (PF(SF_CODE_PAGE_SIZE) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE",
			SF_CODE_PAGE_SIZE, false))
		return -1;
	if (PF(SF_INS_LAT) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SF_INS_LAT, false))
		return -1;
	if (PF(SF_CGROUP) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_CGROUP, "CGROUP", SF_CGROUP, false)) {
		fprintf(stderr, "Hint: run 'perf record --all-cgroups ...'\n");
		return -1;
	}
	if (PF(SF_RETIRE_LAT) &&
	    check_stype(sc, t, a, name, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SF_RETIRE_LAT,
			false))
		return -1;
#undef PF
	/* 'dsoff' implies 'dso' */
	if (sc->out[t].fields & SF_DSOFF)
		sc->out[t].fields |= SF_DSO;
	return 0;
}

void script_fields__callchain_defaults(struct script *sc, const struct pk_data_reader *r)
{
	if (!sc->use_callchain || sc->out[PERF_TYPE_TRACEPOINT].user_set)
		return;
	for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
		const struct pk_data_attr *a = pk_data_reader__attr(r, i);
		if (a->attr.type == PERF_TYPE_TRACEPOINT &&
		    (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			sc->out[PERF_TYPE_TRACEPOINT].fields |= DEF_IP;
			return;
		}
	}
}
