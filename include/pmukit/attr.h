/* SPDX-License-Identifier: MIT */
/*
 * pmukit/attr.h — struct perf_event_attr to and from the project's JSON form,
 * the one `pmukit explain --json` prints and the perf oracle
 * (tests/oracle/perf_shim.c) writes, so both sides share one serializer. The
 * API takes and gives JSON text: no JSON library's types are part of it.
 *
 * The object has the field names of <linux/perf_event.h>, in struct order:
 *   "type", "size", "config", "config1", "config2", "config3"
 *       (config* as "0x..." lower-case hex strings; config1/config2 are
 *       always named so, never bp_addr/bp_len/kprobe_func/...),
 *   "sample_period" or "sample_freq" (the one the freq bit selects),
 *   "sample_type", "read_format",
 *   every bitfield by name (disabled ... sigtrap), as a number,
 *   "wakeup_events" (also when the watermark bit makes it wakeup_watermark),
 *   "bp_type", "branch_sample_type", "sample_regs_user", "sample_stack_user",
 *   "clockid", "sample_regs_intr", "aux_watermark", "sample_max_stack",
 *   "aux_sample_size", "sig_data" — numbers.
 * Reserved fields are not printed. Headers older than PERF_ATTR_SIZE_VER8
 * have no config3: it is printed as "0x0" and only "0x0" is accepted back.
 */
#ifndef PMUKIT_ATTR_H
#define PMUKIT_ATTR_H

#include <linux/perf_event.h>

#include <pmukit/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * attr as the text of one JSON object, without spaces or newlines
 * ({"type":0,"size":136,"config":"0x0",...}), in *out: a string the caller
 * frees with free(). 0, or -ENOMEM (*out NULL).
 */
PK_API int pk_attr__to_json(const struct perf_event_attr *attr, char **out);

/*
 * The inverse, from the text of one JSON object (whitespace around it is
 * allowed): attr is zeroed, then every member is stored. Missing keys stay 0;
 * sample_period and sample_freq share storage (giving both with different
 * values is an error). 0, -ENOMEM, or -EINVAL for json NULL, text that is not
 * exactly one JSON object, an unknown key, a value of the wrong JSON type
 * (config* must be "0x" + 1..16 hex digits, the others integers), or a value
 * that does not fit its field (bitfield width, u32, negative where unsigned).
 */
PK_API int pk_attr__from_json(const char *json, struct perf_event_attr *attr);

#ifdef __cplusplus
}
#endif
#endif
