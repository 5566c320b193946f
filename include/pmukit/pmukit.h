/* SPDX-License-Identifier: MIT */
/*
 * pmukit/pmukit.h — the whole public API of libpmukit: every header of
 * include/pmukit/ (tests/integration/headers.sh checks that none is missing).
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
#include <pmukit/profile.h>
#include <pmukit/export.h>
#include <pmukit/symbol.h>
#include <pmukit/cpumap.h>
#include <pmukit/cpuid.h>
#include <pmukit/events.h>
#include <pmukit/explain.h>
#include <pmukit/metric.h>
#include <pmukit/metricgroup.h>
#include <pmukit/pmu.h>
#include <pmukit/selfmon.h>
#include <pmukit/spec.h>
#include <pmukit/symbols.h>
#include <pmukit/topology.h>

#endif
