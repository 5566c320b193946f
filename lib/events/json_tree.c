/* SPDX-License-Identifier: MIT */
/*
 * events/json_tree.c — ir_tree__load(): read a JSON arch/ tree (the layout of
 * perf's tools/perf/pmu-events/arch) into the IR.
 *
 *   root/ARCH/mapfile.csv          CPUID,Version,Dir,Type rows (header ignored)
 *   root/ARCH/NAME.json            standard events for ArchStdEvent
 *   root/ARCH/DIR[/DIR...]/NAME.json  a model: any directory 1..4 levels below
 *                                  the arch holding .json files ("sys" ones match
 *                                  by Compat); metricgroups.json describes groups
 *
 * This file walks the directories, reads the mapfiles and drives the loading;
 * json_jobs.c parses the files (models on a few threads, each model's files
 * in name order by one thread), so the tree does not depend on scheduling.
 * Errors name file, line and column.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include <pmukit/cpuid.h>

#include "events/json_mapfile.h"
#include "events/json_tree.h"
#include "util/bsearch.h"
#include "util/grow.h"

/* Sorted names of the sub-directories and of the regular *.json files of dir. */
static int list_dir(struct pk_arena *a, const char *dir, char ***dirs, size_t *nr_dirs,
		    char ***files, size_t *nr_files, size_t *bytes, struct pk_error *err)
{
	DIR *d = opendir(dir);
	if (!d) {
		int e = -errno;	/* < 0 after a failure: said so for scan-build */
		return pk_error__set(err, e < 0 ? e : -EIO, dir, 0, 0, "cannot open directory: %s",
				     strerror(-e));
	}
	size_t cap_d = 0, cap_f = 0;
	*dirs = NULL;
	*files = NULL;
	*nr_dirs = *nr_files = 0;
	if (bytes)
		*bytes = 0;
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		bool is_dir = de->d_type == DT_DIR, is_reg = de->d_type == DT_REG;
		if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK) {
			struct stat st;
			char *p = json_tree__path(a, dir, n);
			if (p && !stat(p, &st)) {
				is_dir = S_ISDIR(st.st_mode);
				is_reg = S_ISREG(st.st_mode);
			}
		}
		bool json = is_reg && json_tree__ends_with(n, ".json");
		char ***list = is_dir ? dirs : json ? files : NULL;
		if (!list)
			continue;
		struct stat fst;
		if (bytes && !is_dir && !fstatat(dirfd(d), n, &fst, 0))
			*bytes += (size_t)fst.st_size;
		size_t *nr = is_dir ? nr_dirs : nr_files, *cap = is_dir ? &cap_d : &cap_f;
		char *copy = pk_arena__strdup(a, n);
		if (!copy || pk_grow(list, cap, *nr + 1, sizeof(char *))) {
			rc = json_tree__oom(err);
			break;
		}
		(*list)[(*nr)++] = copy;
	}
	closedir(d);
	if (rc) {
		free(*dirs);
		free(*files);
		*dirs = *files = NULL;
		return rc;
	}
	if (*nr_dirs)
		qsort(*dirs, *nr_dirs, sizeof(char *), json_tree__cmp_str);
	if (*nr_files)
		qsort(*files, *nr_files, sizeof(char *), json_tree__cmp_str);
	return 0;
}

/* Model files are copied into the scratch arena so one free() path suffices. */
static int add_model(struct loader *L, size_t arch, const char *name, const char *dir,
		     char **files, size_t nr_files, size_t bytes, struct pk_error *err)
{
	if (pk_grow(&L->models, &L->cap_models, L->nr_models + 1, sizeof(*L->models)))
		return json_tree__oom(err);
	char **f = pk_arena__alloc(&L->scratch, nr_files * sizeof(char *));
	const char *nm = pk_arena__strdup(&L->tree->arena, name);
	char *d = pk_arena__strdup(&L->scratch, dir);
	if (!f || !nm || !d)
		return json_tree__oom(err);
	memcpy(f, files, nr_files * sizeof(char *));
	const char *base = strrchr(name, '/');
	L->models[L->nr_models++] = (struct model_tmp){
		.arch = arch,
		.name = nm,
		.dir = d,
		.files = f,
		.nr_files = nr_files,
		.bytes = bytes,
		.sys = !strcmp(base ? base + 1 : name, "sys"),
	};
	return 0;
}

/* Directories 1..4 levels below the arch that hold .json files are models. */
static int walk(struct loader *L, size_t arch, const char *dir, const char *rel, int depth,
		struct pk_error *err)
{
	char **dirs, **files;
	size_t nr_dirs, nr_files, bytes;
	int rc = list_dir(&L->scratch, dir, &dirs, &nr_dirs, &files, &nr_files, &bytes, err);
	if (rc)
		return rc;
	if (nr_files)
		rc = add_model(L, arch, rel, dir, files, nr_files, bytes, err);
	for (size_t i = 0; !rc && depth < MAX_MODEL_DEPTH && i < nr_dirs; i++) {
		char *sub = json_tree__path(&L->scratch, dir, dirs[i]);
		char *subrel = json_tree__path(&L->scratch, rel, dirs[i]);
		rc = sub && subrel ? walk(L, arch, sub, subrel, depth + 1, err)
				   : json_tree__oom(err);
	}
	free(dirs);
	free(files);
	return rc;
}

static int cmp_model(const void *a, const void *b)
{
	const struct model_tmp *x = a, *y = b;
	if (x->arch != y->arch)
		return x->arch < y->arch ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool model_before(const void *elem, const void *key)
{
	return cmp_model(elem, key) < 0;
}

static int find_model(const struct loader *L, size_t arch, const char *name, size_t *idx)
{
	const struct model_tmp key = { .arch = arch, .name = name };
	size_t i = pk_bsearch(&key, L->models, L->nr_models, sizeof(key), model_before);
	if (i == L->nr_models || cmp_model(&L->models[i], &key))
		return -ENOENT;
	*idx = i;
	return 0;
}

struct arch_rows {
	char *mapfile;		/* scratch */
	struct json_map_row *rows;
	size_t nr;
	const char *only;	/* the one model dir to read (only_cpuid matched a row), or NULL */
};

static int scan_arches(struct loader *L, struct pk_error *err)
{
	const char *only = L->opts ? L->opts->only_arch : NULL;
	char **dirs = NULL, **files = NULL, *one[1];
	size_t nr_dirs = 0, nr_files = 0;
	int rc = 0;
	if (only) {
		struct stat st;
		char *d = json_tree__path(&L->scratch, L->root, only);
		if (!d)
			return json_tree__oom(err);
		if (stat(d, &st) || !S_ISDIR(st.st_mode))
			return pk_error__set(err, -ENOENT, L->root, 0, 0,
					     "no arch directory \"%s\"", only);
		one[0] = (char *)only;
	} else {
		rc = list_dir(&L->scratch, L->root, &dirs, &nr_dirs, &files, &nr_files, NULL,
			      err);
		if (rc)
			return rc;
	}
	char **names = only ? one : dirs;
	size_t n = only ? 1 : nr_dirs;
	for (size_t i = 0; !rc && i < n; i++) {
		/* perf's own test arch is not a CPU; hidden directories are not arches */
		if (!only && (!strcmp(names[i], "test") || names[i][0] == '.'))
			continue;
		if (pk_grow(&L->arches, &L->cap_arches, L->nr_arches + 1,
				    sizeof(*L->arches))) {
			rc = json_tree__oom(err);
			break;
		}
		struct arch *A = &L->arches[L->nr_arches];
		*A = (struct arch){ .name = pk_arena__strdup(&L->tree->arena, names[i]),
				    .dir = json_tree__path(&L->scratch, L->root, names[i]) };
		if (!A->name || !A->dir)
			rc = json_tree__oom(err);
		else
			L->nr_arches++;
	}
	free(dirs);
	free(files);
	return rc;
}

/* Mapfile, standard events and model directories of one arch. */
static int load_arch(struct loader *L, size_t ai, struct arch_rows *ar, json_tokener *tok,
		     struct pk_buf *buf, struct pk_error *err)
{
	struct arch *A = &L->arches[ai];
	const char *only = L->opts ? L->opts->only_model : NULL;
	ar->mapfile = json_tree__path(&L->scratch, A->dir, "mapfile.csv");
	if (!ar->mapfile)
		return json_tree__oom(err);
	int rc = json_text__read(ar->mapfile, buf);
	if (rc)
		return pk_error__set(err, rc, ar->mapfile, 0, 0, "cannot read mapfile: %s",
				     strerror(-rc));
	rc = json_mapfile__parse(ar->mapfile, (const char *)buf->data, buf->len, &L->tree->arena,
				 &ar->rows, &ar->nr, err);
	if (rc)
		return rc;
	/* a pattern that cannot match anything is a mistake in the file, said where it is */
	const char *want = L->opts ? L->opts->only_cpuid : NULL;
	for (size_t i = 0; i < ar->nr; i++) {
		int m = pk_cpuid__match(A->name, ar->rows[i].cpuid, want ? want : "");
		if (m == -EINVAL)
			return pk_error__set(err, -EINVAL, ar->mapfile, ar->rows[i].line, 1,
					     "CPUID pattern \"%s\" is not a valid %s", ar->rows[i].cpuid,
					     strcmp(A->name, "arm64") ? "regular expression" : "MIDR");
		if (!m && want && !only && !ar->only)
			ar->only = ar->rows[i].dir;
	}
	if (!only)
		only = ar->only;

	char **dirs, **files;
	size_t nr_dirs, nr_files;
	rc = list_dir(&L->scratch, A->dir, &dirs, &nr_dirs, &files, &nr_files, NULL, err);
	if (rc)
		return rc;
	rc = json_tree__load_std(L, A, files, nr_files, tok, buf, err);
	if (!rc && only) {
		char *d = json_tree__path(&L->scratch, A->dir, only);
		char **sd, **sf;
		size_t nsd, nsf, bytes, depth = 1;
		struct stat st;
		for (const char *p = only; *p; p++)
			depth += *p == '/';
		bool any_arch = !L->opts->only_arch || ar->only;
		if (!d)
			rc = json_tree__oom(err);
		else if (depth > MAX_MODEL_DEPTH || stat(d, &st) || !S_ISDIR(st.st_mode))
			rc = any_arch ? 0 /* not in this arch; maybe in another */
				      : pk_error__set(err, -ENOENT, A->dir, 0, 0,
						      "no model directory \"%s\"", only);
		else if (!(rc = list_dir(&L->scratch, d, &sd, &nsd, &sf, &nsf, &bytes, err))) {
			if (!nsf)
				rc = pk_error__set(err, -ENOENT, d, 0, 0,
						   "no .json files in model directory");
			else
				rc = add_model(L, ai, only, d, sf, nsf, bytes, err);
			free(sd);
			free(sf);
		}
	}
	for (size_t i = 0; !rc && !only && i < nr_dirs; i++) {
		char *sub = json_tree__path(&L->scratch, A->dir, dirs[i]);
		rc = sub ? walk(L, ai, sub, dirs[i], 1, err) : json_tree__oom(err);
	}
	free(dirs);
	free(files);
	return rc;
}

/* Mapfile rows -> tree->maps, each pointing at a model that exists. */
static int resolve_maps(struct loader *L, struct arch_rows *ars, struct pk_error *err)
{
	const char *only_model = L->opts ? L->opts->only_model : NULL;
	struct ir_tree *t = L->tree;
	for (size_t ai = 0; ai < L->nr_arches; ai++) {
		const char *only = only_model ? only_model : ars[ai].only;
		for (size_t i = 0; i < ars[ai].nr; i++) {
			const struct json_map_row *r = &ars[ai].rows[i];
			size_t m;
			if (only && strcmp(r->dir, only))
				continue;
			if (find_model(L, ai, r->dir, &m)) {
				struct stat st;
				char *d = json_tree__path(&L->scratch, L->arches[ai].dir, r->dir);
				if (!d)
					return json_tree__oom(err);
				if (stat(d, &st)) {
					int e = errno;
					return pk_error__set(err, -e, ars[ai].mapfile, r->line,
							     r->dir_col, e == ENOENT
							     ? "directory \"%s\" does not exist"
							     : "directory \"%s\": %s", r->dir, strerror(e));
				}
				if (!S_ISDIR(st.st_mode))
					return pk_error__set(err, -ENOTDIR, ars[ai].mapfile, r->line,
							     r->dir_col, "\"%s\" is not a directory",
							     r->dir);
				return pk_error__set(err, -EINVAL, ars[ai].mapfile, r->line,
						     r->dir_col,
						     "\"%s\" is not a model directory (no .json "
						     "files 1..%d levels below the arch)",
						     r->dir, MAX_MODEL_DEPTH);
			}
			if (pk_grow(&t->maps, &t->cap_maps, t->nr_maps + 1,
					    sizeof(*t->maps)))
				return json_tree__oom(err);
			t->maps[t->nr_maps++] = (struct ir_map){
				.arch = L->arches[ai].name,
				.cpuid = r->cpuid,
				.version = r->version,
				.dir = r->dir,
				.type = r->type,
				.model = m,
			};
		}
	}
	return 0;
}

/* Hand the parsed models over to the tree. */
static int take_models(struct loader *L, struct pk_error *err)
{
	struct ir_tree *t = L->tree;
	t->models = calloc(L->nr_models ? L->nr_models : 1, sizeof(*t->models));
	if (!t->models)
		return json_tree__oom(err);
	for (size_t m = 0; m < L->nr_models; m++) {
		struct model_tmp *M = &L->models[m];
		t->models[m] = M->out;
		t->models[m].arch = L->arches[M->arch].name;
		t->models[m].name = M->name;
		t->models[m].sys = M->sys;
		memset(&M->out, 0, sizeof(M->out));
	}
	t->nr_models = t->cap_models = L->nr_models;
	return 0;
}

static void loader_fini(struct loader *L, struct arch_rows *ars)
{
	for (size_t i = 0; i < L->nr_arches; i++) {
		json_std__free(&L->arches[i].std);
		if (ars)
			free(ars[i].rows);
	}
	free(ars);
	for (size_t i = 0; i < L->nr_models; i++) {
		free(L->models[i].err);
		free(L->models[i].out.events);
		free(L->models[i].out.metrics);
		free(L->models[i].out.groups);
	}
	free(L->order);
	free(L->arches);
	free(L->models);
	pk_arena__free(&L->scratch);
}

int ir_tree__load(struct ir_tree *tree, const char *root, const struct ir_load_opts *opts,
		  struct pk_error *err)
{
	memset(tree, 0, sizeof(*tree));
	struct loader L = { .tree = tree, .opts = opts };
	struct arch_rows *ars = NULL;
	struct pk_buf buf = { 0 };
	json_tokener *tok = json_tokener_new();
	char *r = pk_arena__strdup(&L.scratch, root);
	int rc = 0;
	if (!tok || !r) {
		rc = json_tree__oom(err);
		goto out;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	for (size_t n = strlen(r); n > 1 && r[n - 1] == '/'; n--)
		r[n - 1] = '\0';
	L.root = r;
	if ((rc = scan_arches(&L, err)))
		goto out;
	ars = calloc(L.nr_arches ? L.nr_arches : 1, sizeof(*ars));
	if (!ars) {
		rc = json_tree__oom(err);
		goto out;
	}
	for (size_t i = 0; !rc && i < L.nr_arches; i++)
		rc = load_arch(&L, i, &ars[i], tok, &buf, err);
	if (!rc && opts && opts->only_model && !L.nr_models)
		rc = pk_error__set(err, -ENOENT, L.root, 0, 0,
				   "no model directory \"%s\" in any arch", opts->only_model);
	if (rc)
		goto out;
	if (L.nr_models)
		qsort(L.models, L.nr_models, sizeof(*L.models), cmp_model);
	if ((rc = resolve_maps(&L, ars, err)) || (rc = json_tree__parse_models(&L, err)) ||
	    (rc = take_models(&L, err)))
		goto out;
out:
	if (tok)
		json_tokener_free(tok);
	pk_buf__free(&buf);
	loader_fini(&L, ars);
	if (rc)
		ir_tree__free(tree);
	return rc;
}

void ir_tree__free(struct ir_tree *tree)
{
	for (size_t i = 0; i < tree->nr_models; i++) {
		free(tree->models[i].events);
		free(tree->models[i].metrics);
		free(tree->models[i].groups);
	}
	free(tree->models);
	free(tree->maps);
	pk_arena__free(&tree->arena);
	memset(tree, 0, sizeof(*tree));
}
