/* SPDX-License-Identifier: MIT */
/*
 * pmukit/api.h — PK_API, the mark on every function libpmukit.so exports.
 * The library is compiled with -fvisibility=hidden, so a function is visible
 * to programs only when its declaration in include/pmukit/ carries PK_API;
 * libpmukit.map lists the same names under the version node PMUKIT_0.1.
 */
#ifndef PMUKIT_API_H
#define PMUKIT_API_H

#if defined(__GNUC__) && __GNUC__ >= 4
#define PK_API __attribute__((visibility("default")))
#else
#define PK_API
#endif

#endif
