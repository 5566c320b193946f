/* SPDX-License-Identifier: MIT */
/*
 * events/json_mapfile.h — reading an arch's mapfile.csv: the rows that map a
 * CPU identifier pattern to a model directory.
 */
#ifndef PMUKIT_EVENTS_JSON_MAPFILE_H
#define PMUKIT_EVENTS_JSON_MAPFILE_H

#include <stddef.h>

#include <pmukit/error.h>

#include "util/arena.h"

struct json_map_row {
	const char *cpuid, *version, *dir, *type; /* arena strings */
	unsigned line;		/* 1-based line in the mapfile */
	unsigned dir_col;	/* 1-based column of the Dir field */
};

/*
 * Parse the text of a mapfile: the first line is a header and is ignored, as
 * are empty lines and lines starting with '#'; every other line must have
 * exactly four comma-separated columns CPUID,Version,Dir,Type (no quoting:
 * fields never hold commas). *rows is malloc()ed.
 */
int json_mapfile__parse(const char *path, const char *text, size_t len, struct pk_arena *arena,
			struct json_map_row **rows, size_t *nr, struct pk_error *err);

#endif
