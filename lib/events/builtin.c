/* SPDX-License-Identifier: MIT */
/*
 * events/builtin.c — the tables compiled into the library: the image eventc
 * generated into build/pmu-events.c, opened without copying.
 */
#include <pmukit/events.h>

#include <stddef.h>

extern const unsigned char pk_builtin_image[];
extern const size_t pk_builtin_image_size;

int pk_catalog__open_builtin(struct pk_catalog **out)
{
	return pk_catalog__open_image((void *)pk_builtin_image, pk_builtin_image_size, false, out,
				      NULL);
}
