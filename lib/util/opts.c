// SPDX-License-Identifier: MIT
/*
 * util/opts.c — the size check of every options struct and the bounded copy
 * into caller-allocated out structs (see opts.h).
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/opts.h"

int pk_opts__check(const void *opts, size_t user_sz, size_t lib_sz)
{
	if (!opts)
		return 0;
	if (user_sz < PK_OPTS_MIN_SZ)
		return -EINVAL;
	const unsigned char *p = opts;
	for (size_t i = lib_sz; i < user_sz; i++)
		if (p[i])
			return -EINVAL;
	return 0;
}

int pk_opts__load(void *dst, size_t lib_sz, const void *opts)
{
	size_t user_sz = 0;
	if (opts)
		memcpy(&user_sz, opts, sizeof(user_sz));
	int rc = pk_opts__check(opts, user_sz, lib_sz);
	if (rc)
		return rc;
	if (opts)
		memcpy(dst, opts, user_sz < lib_sz ? user_sz : lib_sz);
	memcpy(dst, &lib_sz, sizeof(lib_sz));
	return 0;
}

int pk_opts__fill(void *dst, const void *src, size_t lib_sz)
{
	size_t user_sz;
	memcpy(&user_sz, dst, sizeof(user_sz));
	if (user_sz < PK_OPTS_MIN_SZ)
		return -EINVAL;
	size_t n = user_sz < lib_sz ? user_sz : lib_sz;
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
	       n - sizeof(size_t));
	return 0;
}

int pk_opts__error(struct pk_error *err, const char *what, size_t sz)
{
	return pk_error__set(err, -EINVAL, NULL, 0, 0,
			     "%s: bad sz %zu (too small, or unknown non-zero fields past it)",
			     what, sz);
}
