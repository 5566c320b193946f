/* SPDX-License-Identifier: MIT */
/*
 * events/builtin.c — the tables compiled into the library: the image eventc
 * generated into build/pmu-events.c, opened in place without copying.
 */
#include <pmukit/events.h>

#include <stddef.h>

#include "events/image.h"

extern const unsigned char pk_builtin_image[];
extern const size_t pk_builtin_image_size;

int pk_catalog__open_builtin(struct pk_catalog **out)
{
	return pk_catalog__open_trusted(pk_builtin_image, pk_builtin_image_size, out);
}

const void *pk_builtin__image(size_t *size)
{
	*size = pk_builtin_image_size;
	return pk_builtin_image;
}
