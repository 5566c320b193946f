/* SPDX-License-Identifier: MIT */
/*
 * pager.h — perf's pager for text on a terminal (src/pager.c): `pmukit
 * report` pipes its stdout (and stderr, when a terminal) through
 * PERF_PAGER, else PAGER, else /usr/bin/pager or /usr/bin/less, with
 * LESS=FRSX unless LESS is set; never when stdout is not a terminal, nor
 * after `pmukit --no-pager`, nor when the pager is "" or "cat".
 */
#ifndef PMUKIT_PAGER_H
#define PMUKIT_PAGER_H

/* `pmukit --no-pager`: pager_setup starts nothing afterwards */
void pager_disable(void);
/* start the pager when stdout is a terminal; waited for at exit (and on fatal signals) */
void pager_setup(void);

#endif
