/* SPDX-License-Identifier: MIT */
/*
 * pmukit/pmukit.h — the whole public API of libpmukit: every header of
 * include/pmukit/ (tests/integration/headers.sh checks that none is missing).
 *
 * The shape of the API (libperf's naming, libbpf's options):
 *
 * Names      pk_<object>__<verb>: pk_counter__read, pk_catalog__find_event.
 *
 * Constructors   int pk_<object>__new|open|read|parse(struct pk_<object> **out,
 *                      inputs..., const struct pk_<object>_opts *opts,
 *                      struct pk_error *err);
 *            The out pointer first, then the inputs, then the options (may be
 *            NULL), then the error report (may be NULL) last. Returns 0 and
 *            *out, or a negative errno with *out NULL. __new builds from
 *            memory, __open opens files or the kernel's counters, __read
 *            reads a file or /sys, __parse parses the caller's text. The
 *            error report is struct pk_spec_error for the parsers of an
 *            event spec, a metric list or a metric expression (pk_evlist__add,
 *            pk_metricgroup__new, pk_mexpr__parse) and struct pk_error
 *            elsewhere (see pmukit/error.h); constructors that can only fail
 *            with -ENOMEM/-EINVAL have no err (pk_catalog__open_builtin,
 *            pk_pmu_tree__new, pk_profile__new, pk_cpu_map__new,
 *            pk_metric_eval__new, pk_record_stats__new,
 *            pk_sym_table__parse_*). Exceptions, which take nothing to report
 *            on and return the object or NULL (out of memory):
 *            pk_evlist__new, pk_cpuid_cache__new, pk_cpu_map__dup.
 *
 * Destructors    void pk_<object>__free(struct pk_<object> *obj);
 *            One verb; NULL is accepted. (pk_workload__free also takes the
 *            signal a still-running workload is killed with.)
 *
 * Options    struct pk_<object>_opts begins with `size_t sz`, set by the
 *            caller to sizeof(the struct): `{ .sz = sizeof(o), ... }`.
 *            Fields past an older caller's sz take their defaults; a newer
 *            caller's larger struct is accepted only when the bytes this
 *            library does not know are zero; sz below sizeof(size_t) or a
 *            non-zero unknown tail is -EINVAL. NULL opts: every default.
 *
 * Out structs    Caller-allocated structs the library fills and that will
 *            grow (struct pk_event, struct pk_metric) begin with `size_t sz`
 *            set by the caller too; only the fields within it are written.
 *
 * Returns    int functions return 0 (or a documented count or status >= 0)
 *            on success and a negative errno on failure.
 */
#ifndef PMUKIT_PMUKIT_H
#define PMUKIT_PMUKIT_H

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/alias.h>
#include <pmukit/attr.h>
#include <pmukit/count.h>
#include <pmukit/countsfile.h>
#include <pmukit/perf_data.h>
#include <pmukit/data_write.h>
#include <pmukit/data_read.h>
#include <pmukit/record.h>
#include <pmukit/report.h>
#include <pmukit/session.h>
#include <pmukit/annotate.h>
#include <pmukit/profile.h>
#include <pmukit/export.h>
#include <pmukit/expose.h>
#include <pmukit/symbol.h>
#include <pmukit/cpumap.h>
#include <pmukit/cpuid.h>
#include <pmukit/events.h>
#include <pmukit/explain.h>
#include <pmukit/metric.h>
#include <pmukit/metricgroup.h>
#include <pmukit/pmu.h>
#include <pmukit/selfmon.h>
#include <pmukit/shadow.h>
#include <pmukit/spec.h>
#include <pmukit/event_names.h>
#include <pmukit/topology.h>

#endif
