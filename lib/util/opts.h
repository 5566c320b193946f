/* SPDX-License-Identifier: MIT */
/*
 * util/opts.h — the one options idiom (libbpf's OPTS_VALID / OPTS_GET): every
 * public options struct begins with `size_t sz`, the caller's sizeof. The
 * library checks it in one place:
 *
 *   - NULL opts: every default;
 *   - sz < PK_OPTS_MIN_SZ (not even the sz field): -EINVAL;
 *   - sz <= the library's sizeof (an older, shorter struct): the fields that
 *     lie within sz are the caller's, the rest take their defaults;
 *   - sz > the library's sizeof (a newer caller): accepted only when every
 *     byte past the library's sizeof is zero (the caller asked for nothing
 *     this library does not know), else -EINVAL.
 *
 * The same size_t-first rule makes caller-allocated out structs (struct
 * pk_event, struct pk_metric...) safe to grow: pk_opts__fill copies only the
 * bytes within the caller's sz.
 *
 * Use:
 *   if ((rc = PK_OPTS_CHECK(opts)))             // or PK_OPTS_LOAD(&copy, opts)
 *           return pk_opts__error(err, "pk_x_opts", opts->sz);
 *   int n = PK_OPTS_GET(opts, nr, 8);
 */
#ifndef PMUKIT_UTIL_OPTS_H
#define PMUKIT_UTIL_OPTS_H

#include <stdbool.h>
#include <stddef.h>

struct pk_error;

/* The oldest supported size: the sz field alone. */
#define PK_OPTS_MIN_SZ sizeof(size_t)

/* 0 when opts (user_sz bytes, the library knows lib_sz) may be used, else -EINVAL. NULL: 0. */
int pk_opts__check(const void *opts, size_t user_sz, size_t lib_sz);

/*
 * Check opts, then copy its first min(sz, lib_sz) bytes over dst (which holds
 * the defaults) and set dst's sz to lib_sz. NULL opts: dst is left as it is
 * (sz set). 0 or -EINVAL (dst untouched).
 */
int pk_opts__load(void *dst, size_t lib_sz, const void *opts);

/*
 * Fill a caller-allocated out struct: the first min(user_sz, lib_sz) bytes of
 * src (lib_sz bytes, sz first) into dst, then dst's sz is left as the caller
 * set it. -EINVAL when user_sz < PK_OPTS_MIN_SZ; nothing past user_sz is written.
 */
int pk_opts__fill(void *dst, const void *src, size_t lib_sz);

/* pk_error__set(err, -EINVAL, ...) with "<what>: bad sz N"; returns -EINVAL. */
int pk_opts__error(struct pk_error *err, const char *what, size_t sz);

/* opts is a pointer to a struct whose first field is size_t sz */
#define PK_OPTS_CHECK(opts) ((opts) ? pk_opts__check((opts), (opts)->sz, sizeof(*(opts))) : 0)
#define PK_OPTS_LOAD(dst, opts) pk_opts__load((dst), sizeof(*(dst)), (opts))
/* whether the caller's struct has field f (opts not NULL and f within sz) */
#define PK_OPTS_HAS(opts, f) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), f) + sizeof((opts)->f))
/* the caller's field f, or dflt when opts is NULL or older than f */
#define PK_OPTS_GET(opts, f, dflt) (PK_OPTS_HAS(opts, f) ? (opts)->f : (dflt))

#endif
