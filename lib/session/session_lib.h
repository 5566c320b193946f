/* SPDX-License-Identifier: MIT */
/*
 * session/session_lib.h — what the library's other modules (not its users)
 * call on a session beyond pmukit/session.h: pk_session__next in its two
 * halves, for a loop that must act on an event before the event changes
 * the session's threads and maps (annotate sums its samples per address
 * and resolves them in bulk, just before such an event). Not exported.
 */
#ifndef PMUKIT_SESSION_LIB_H
#define PMUKIT_SESSION_LIB_H

#include <stdbool.h>
#include <stdint.h>

#include <pmukit/session.h>

/* The next event, read and not yet applied: 1, 0 at the end, or a negative error. */
int session__read(struct pk_session *s, const struct pk_data_event **ev, struct pk_error *err);
/* Apply it (threads, maps, lost samples, the on_event hook): 0 or a negative error. */
int session__apply(struct pk_session *s, const struct pk_data_event *ev, struct pk_error *err);
/* Whether applying an event of this type may change how a sample resolves. */
bool session__changes_maps(uint32_t type);

#endif
