/* SPDX-License-Identifier: MIT */
/*
 * test_evspec_encode.c — pk_evlist__add: the perf_event_attr of every grammar
 * form, modifier, group rule and command default, checked against what perf
 * 6.1 itself opens; the seed rules (arm64 thresholds, Intel ACR, TopDown)
 * and every refusal, with the bytes it points at.
 *
 * Where the expected attrs come from: the oracle table below was produced by
 * running perf 6.1 (Debian's linux-perf 6.1.187) under the project's oracle,
 *   tests/oracle/perf_attr.sh --sysfs tests/fixtures/sysfs/FIXTURE \
 *       --cpuid CPUID --mode stat|record [-a|-i|-g|-c N|-F N] -e SPEC
 * (perf with an LD_PRELOAD shim that logs each perf_event_open, in a private
 * mount namespace with the fixture on /sys/bus/event_source/devices; the
 * options column was passed to perf as is), one run per row, each event as
 * "LEADER|field=value ..." (non-zero fields, struct order, from the shared
 * JSON serializer). Two filters were applied to perf's log: opens of size 0
 * (the fd perf's is_event_supported() probe leaks on hybrid) are probes, and
 * perf's side-band/tracking dummies are not events of the spec.
 * Cases perf 6.1 cannot check (ACR, threshold_max, refusals of what the
 * kernel refuses) take their expected values from the seed documents and
 * say so.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include <pmukit/pmukit.h>
#include <pmukit/spec.h>

#include "evspec/attr_json.h"

struct oracle_case {
	const char *fixture, *mode, *opts, *spec;
	size_t nr;
	const char *ev[8];
};

/* perf 6.1's attrs (see the header comment for the command). */
static const struct oracle_case oracle_cases[] = {
// duplicate terms: perf 6.1 takes them (format terms OR into their bits, config words and
// config terms: the last one wins)
	{ "x86-skl", "stat", "", "cpu/event=1,event=2/", 1,
	  { "0|type=4 size=128 config=0x3 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/event=0x3c,umask=1,umask=0/", 1,
	  { "0|type=4 size=128 config=0x13c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/event=0x3c,config1=5,config1=7/", 1,
	  { "0|type=4 size=128 config=0x3c config1=0x7 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/event=0x3c,name=a,name=b/", 1,
	  { "0|type=4 size=128 config=0x3c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "software/config=1,config=2/", 1,
	  { "0|type=1 size=128 config=0x2 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "software/config=1,config=2,config=3/", 1,
	  { "0|type=1 size=128 config=0x3 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,period=1000,period=2000/", 1,
	  { "0|type=4 size=128 config=0x3c sample_period=2000 sample_type=7 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,freq=100,freq=200/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=200 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,call-graph=fp,call-graph=dwarf/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=45359 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 mmap_data=1 sample_id_all=1 exclude_guest=1 exclude_callchain_user=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 sample_regs_user=16715775 sample_stack_user=8192" } },
	{ "x86-skl", "record", "", "software/config=0,period=1000,period=3000/", 1,
	  { "0|type=1 size=128 sample_period=3000 sample_type=7 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
// grammar forms
	{ "x86-skl", "stat", "", "cycles", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/event=0x3c,umask=0x1,inv,cmask=3/", 1,
	  { "0|type=4 size=128 config=0x380013c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/event=0x3c,umask/", 1,
	  { "0|type=4 size=128 config=0x13c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "r3c:u", 1,
	  { "0|type=4 size=128 config=0x3c sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "4:0x3c", 1,
	  { "0|type=4 size=128 config=0x3c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "L1-dcache-load-misses", 1,
	  { "0|type=3 size=128 config=0x10000 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "l1d.replacement", 1,
	  { "0|type=4 size=128 config=0x151 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/l1d.replacement,umask=0x2/", 1,
	  { "0|type=4 size=128 config=0x351 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "l1d.replacement/umask=2/", 1,
	  { "0|type=4 size=128 config=0x351 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu/inst_retired.any/k", 1,
	  { "0|type=4 size=128 config=0xc0 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_user=1 exclude_hv=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cpu/event=inst_retired.any/", 1,
	  { "0|type=4 size=128 config=0xc0 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cas_count_read", 1,
	  { "0|type=12 size=128 config=0x304 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cha/event=1/", 2,
	  { "0|type=11 size=128 config=0x1 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1",
	    "1|type=10 size=128 config=0x1 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "mem-loads", 1,
	  { "0|type=4 size=128 config=0x1cd config1=0x3 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "mem:0x1000", 1,
	  { "0|type=5 size=128 config1=0x1000 config2=0x4 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1 bp_type=3" } },
	{ "x86-skl", "stat", "", "mem:0x1000/8:w", 1,
	  { "0|type=5 size=128 config1=0x1000 config2=0x8 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1 bp_type=2" } },
	{ "x86-skl", "stat", "", "mem:0x1000:w:u", 1,
	  { "0|type=5 size=128 config1=0x1000 config2=0x4 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1 bp_type=2" } },
	{ "x86-skl", "stat", "", "task-clock", 1,
	  { "0|type=1 size=128 config=0x1 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "duration_time", 1,
	  { "0|type=1 size=128 config=0x9 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cpu//u", 1,
	  { "0|type=4 size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-icl", "stat", "", "uncore_cha/event=1,umask=0x3ffffffff/", 2,
	  { "0|type=11 size=128 config=0x3ffffff0000ff01 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1",
	    "1|type=10 size=128 config=0x3ffffff0000ff01 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "cycles", 2,
	  { "0|size=128 config=0x400000000 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "1|size=128 config=0xa00000000 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "cpu_core/cycles/", 1,
	  { "0|size=128 config=0x400000000 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "cpu_atom/instructions/u", 1,
	  { "0|type=10 size=128 config=0xc0 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "cpu_core/task-clock/", 1,
	  { "0|type=1 size=128 config=0x1 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "r1234", 2,
	  { "0|type=4 size=128 config=0x1234 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "1|type=10 size=128 config=0x1234 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "4:0x3c", 2,
	  { "0|type=4 size=128 config=0x3c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "1|type=10 size=128 config=0x3c sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "cpu_core/event=0xcd,umask=0x1,ldlat=32/", 1,
	  { "0|type=4 size=128 config=0x1cd config1=0x20 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-hybrid", "stat", "", "{cpu_core/slots/,cpu_core/topdown-retiring/}", 2,
	  { "0|type=4 size=128 config=0x400 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|type=4 size=128 config=0x8000 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
	{ "arm64-het", "stat", "", "armv8_pmuv3_1/stall_slot,threshold=2,threshold_compare=2/", 1,
	  { "0|type=9 size=128 config=0x3f config1=0x48 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "arm64-het", "stat", "", "armv8_pmuv3_1/event=0x11,threshold=0xfff,threshold_compare=3,threshold_count=1/", 1,
	  { "0|type=9 size=128 config=0x11 config1=0x1fffc sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "arm64-het", "stat", "", "armv8_pmuv3/event=0x11/", 2,
	  { "0|type=8 size=128 config=0x11 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "1|type=9 size=128 config=0x11 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "arm64-het", "stat", "", "r11", 1,
	  { "0|type=4 size=128 config=0x11 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "arm64-het", "stat", "", "hnf_cache_miss", 1,
	  { "0|type=10 size=128 config=0x10005 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1" } },
// modifiers
	{ "x86-skl", "stat", "", "cycles:u", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cycles:k", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_user=1 exclude_hv=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:h", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_user=1 exclude_kernel=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:G", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_host=1" } },
	{ "x86-skl", "stat", "", "cycles:H", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cycles:Gu", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_host=1" } },
	{ "x86-skl", "stat", "", "cycles:I", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_idle=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:p", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 precise_ip=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cycles:ppp", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 precise_ip=3 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "cycles:P", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:S", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:D", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 pinned=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:e", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclusive=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:W", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "cycles:b", 1,
	  { "0|size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1" } },
	{ "x86-skl", "stat", "", "task-clock:u", 1,
	  { "0|type=1 size=128 config=0x1 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "task-clock:p", 1,
	  { "0|type=1 size=128 config=0x1 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 precise_ip=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "cycles:P", 1,
	  { "0|size=128 sample_freq=4000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 precise_ip=3 sample_id_all=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "{cycles,instructions}:P", 2,
	  { "0|size=128 sample_freq=4000 sample_type=327 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 precise_ip=3 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "0|size=128 config=0x1 sample_freq=4000 sample_type=327 read_format=20 inherit=1 freq=1 precise_ip=3 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "task-clock:P", 1,
	  { "0|type=1 size=128 config=0x1 sample_freq=4000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 precise_ip=3 sample_id_all=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
// groups
	{ "x86-skl", "stat", "", "{cycles,instructions}", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{cycles,instructions}:k", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 exclude_user=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 exclude_user=1 exclude_hv=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{cycles:u,instructions}:k", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 exclude_user=1 exclude_hv=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{cycles,instructions:D}", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 pinned=1" } },
	{ "x86-skl", "stat", "", "{cycles,instructions}:D", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 pinned=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{cycles,instructions}:S", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{cycles:p,instructions:pp}:p", 2,
	  { "0|size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 precise_ip=2 exclude_guest=1",
	    "0|size=128 config=0x1 sample_type=65536 read_format=15 inherit=1 precise_ip=3 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{unc_cha_clockticks,unc_cha_tor_inserts.ia_miss}", 4,
	  { "0|type=11 size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 exclude_guest=1",
	    "0|type=11 size=128 config=0x2135 sample_type=65536 read_format=15 inherit=1 exclude_guest=1",
	    "2|type=10 size=128 sample_type=65536 read_format=15 disabled=1 inherit=1 exclude_guest=1",
	    "2|type=10 size=128 config=0x2135 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "{unc_cha_clockticks}", 2,
	  { "0|type=11 size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1",
	    "1|type=10 size=128 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_guest=1" } },
	{ "x86-icl", "stat", "", "{topdown-retiring,slots}", 2,
	  { "0|type=4 size=128 config=0x400 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|type=4 size=128 config=0x8000 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
	{ "x86-icl", "stat", "", "{cycles,topdown-be-bound,slots,topdown-retiring}", 4,
	  { "0|type=4 size=128 config=0x400 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|size=128 sample_type=65536 read_format=15 inherit=1 exclude_guest=1",
	    "0|type=4 size=128 config=0x8300 sample_type=65536 read_format=15 inherit=1 exclude_guest=1",
	    "0|type=4 size=128 config=0x8000 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
// record defaults and options
	{ "x86-skl", "record", "", "cycles", 1,
	  { "0|size=128 sample_freq=4000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cycles,l1d.replacement", 2,
	  { "0|size=128 sample_freq=4000 sample_type=65799 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "1|type=4 size=128 config=0x151 sample_period=2000003 sample_type=65543 read_format=20 disabled=1 inherit=1 enable_on_exec=1 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "{cycles,instructions}:S", 2,
	  { "0|size=128 sample_freq=4000 sample_type=343 read_format=28 disabled=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "0|size=128 config=0x1 sample_type=343 read_format=28 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "{cycles,l1d.replacement}:S", 2,
	  { "0|size=128 sample_freq=4000 sample_type=343 read_format=28 disabled=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "0|type=4 size=128 config=0x151 sample_period=2000003 sample_type=343 read_format=28 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "{cycles,cpu/event=0xc0,period=1000/}:S", 2,
	  { "0|size=128 sample_freq=4000 sample_type=343 read_format=28 disabled=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "0|type=4 size=128 config=0xc0 sample_period=1000 sample_type=343 read_format=28 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "-a", "cycles", 1,
	  { "0|size=128 sample_freq=4000 sample_type=65927 read_format=20 disabled=1 inherit=1 freq=1 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "-i", "cycles", 1,
	  { "0|size=128 sample_freq=4000 sample_type=263 read_format=20 disabled=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "-g", "cycles", 1,
	  { "0|size=128 sample_freq=4000 sample_type=295 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "-c 10000", "cycles,l1d.replacement", 2,
	  { "0|size=128 sample_period=10000 sample_type=71 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "1|type=4 size=128 config=0x151 sample_period=10000 sample_type=71 read_format=20 disabled=1 inherit=1 enable_on_exec=1 sample_id_all=1 exclude_guest=1" } },
	{ "x86-skl", "record", "-F 1000", "l1d.replacement", 1,
	  { "0|type=4 size=128 config=0x151 sample_period=2000003 sample_type=7 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/period=5,l1d.replacement/", 1,
	  { "0|type=4 size=128 config=0x151 sample_period=2000003 sample_type=7 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "l1d.replacement/period=5/", 1,
	  { "0|type=4 size=128 config=0x151 sample_period=2000003 sample_type=7 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,call-graph=fp/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=295 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,call-graph=dwarf/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=45359 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 mmap_data=1 sample_id_all=1 exclude_guest=1 exclude_callchain_user=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 sample_regs_user=16715775 sample_stack_user=8192" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,call-graph=lbr/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=2343 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 branch_sample_type=182273" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,max-stack=10/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=295 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 sample_max_stack=10" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,branch_type=u/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=2311 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 branch_sample_type=9" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,time=0/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=259 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,no-inherit/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=263 read_format=20 disabled=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,overwrite/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 write_backward=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,freq=1000/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=1000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "record", "", "cpu/event=0x3c,aux-output/", 1,
	  { "0|type=4 size=128 config=0x3c sample_freq=4000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 aux_output=1" } },
	{ "x86-skl", "record", "", "mem:0x1000", 1,
	  { "0|type=5 size=128 config1=0x1000 config2=0x4 sample_period=1 sample_type=7 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1 bp_type=3" } },
	{ "x86-icl", "record", "", "{slots,cycles,topdown-retiring}:S", 3,
	  { "0|type=4 size=128 config=0x400 sample_type=343 read_format=28 disabled=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1",
	    "0|size=128 sample_freq=4000 sample_type=343 read_format=28 freq=1 sample_id_all=1 exclude_guest=1",
	    "0|type=4 size=128 config=0x8000 sample_type=343 read_format=28 sample_id_all=1 exclude_guest=1" } },
	{ "x86-hybrid", "record", "", "cycles", 2,
	  { "0|size=128 config=0x400000000 sample_freq=4000 sample_type=65799 read_format=20 disabled=1 inherit=1 freq=1 enable_on_exec=1 sample_id_all=1 exclude_guest=1",
	    "1|size=128 config=0xa00000000 sample_freq=4000 sample_type=65799 read_format=20 disabled=1 inherit=1 freq=1 enable_on_exec=1 sample_id_all=1 exclude_guest=1" } },
	{ "x86-hybrid", "record", "", "cpu_atom/instructions,period=10000/", 1,
	  { "0|type=10 size=128 config=0xc0 sample_period=10000 sample_type=71 read_format=20 disabled=1 inherit=1 enable_on_exec=1 sample_id_all=1 exclude_guest=1" } },
	{ "arm64-het", "record", "", "armv8_pmuv3_0/cpu_cycles/", 1,
	  { "0|type=8 size=128 config=0x11 sample_freq=4000 sample_type=263 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 freq=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "stat", "", "{sched:sched_switch,sched:sched_wakeup}", 2,
	  { "0|type=2 size=128 config=0x174 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|type=2 size=128 config=0x176 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
};

/* Tracepoints, perf 6.1 on the real tracefs (same command); the tests give
 * their fake tracefs the ids this machine had (sched_switch 372, sched_wakeup 374). */
static const struct oracle_case tracepoint_cases[] = {
	{ "x86-skl", "stat", "", "sched:sched_switch", 1,
	  { "0|type=2 size=128 config=0x174 sample_type=65536 read_format=3 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "stat", "", "sched:sched_switch:u", 1,
	  { "0|type=2 size=128 config=0x174 sample_type=65536 read_format=3 disabled=1 inherit=1 exclude_kernel=1 exclude_hv=1 enable_on_exec=1 exclude_guest=1" } },
	{ "x86-skl", "record", "", "sched:sched_switch", 1,
	  { "0|type=2 size=128 config=0x174 sample_period=1 sample_type=1415 read_format=20 disabled=1 inherit=1 mmap=1 comm=1 enable_on_exec=1 task=1 sample_id_all=1 exclude_guest=1 mmap2=1 comm_exec=1 ksymbol=1 bpf_event=1" } },
	{ "x86-skl", "stat", "", "{sched:sched_switch,sched:sched_wakeup}", 2,
	  { "0|type=2 size=128 config=0x174 sample_type=65536 read_format=15 disabled=1 inherit=1 enable_on_exec=1 exclude_guest=1",
	    "0|type=2 size=128 config=0x176 sample_type=65536 read_format=15 inherit=1 exclude_guest=1" } },
};

/* --- fixtures --------------------------------------------------------------------------- */

struct tree {
	const char *name;	/* under tests/fixtures/sysfs, or a tree this test writes */
	const char *cpuid;	/* NULL: no tables */
	struct pk_pmu_tree *t;
	size_t model;
};

struct st {
	struct pk_catalog *cat;
	char tmp[64];
	struct tree trees[8];
	size_t nr;
};

static void mkfile(const char *root, const char *rel, const char *content)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

/* A hybrid tree with the Intel ACR format term of Linux 6.16 (acr_mask, config2:0-63). */
static void write_acr_tree(const char *root)
{
	static const char *const pmus[] = { "cpu_atom", "cpu_core" };
	char rel[128];
	for (int i = 0; i < 2; i++) {
		const char *p = pmus[i];
		snprintf(rel, sizeof(rel), "%s/type", p);
		mkfile(root, rel, i ? "4\n" : "10\n");
		snprintf(rel, sizeof(rel), "%s/cpus", p);
		mkfile(root, rel, i ? "0-7\n" : "8-15\n");
		snprintf(rel, sizeof(rel), "%s/format/event", p);
		mkfile(root, rel, "config:0-7\n");
		snprintf(rel, sizeof(rel), "%s/format/umask", p);
		mkfile(root, rel, "config:8-15\n");
		snprintf(rel, sizeof(rel), "%s/format/acr_mask", p);
		mkfile(root, rel, "config2:0-63\n");
		snprintf(rel, sizeof(rel), "%s/events/instructions", p);
		mkfile(root, rel, "event=0xc0\n");
		snprintf(rel, sizeof(rel), "%s/events/cpu-cycles", p);
		mkfile(root, rel, "event=0x3c\n");
	}
	mkfile(root, "software/type", "1\n");
}

/* One PMUv3 with an 8-bit threshold (caps/threshold_max 0x000000ff). */
static void write_threshold_tree(const char *root)
{
	mkfile(root, "armv8_pmuv3_0/type", "8\n");
	mkfile(root, "armv8_pmuv3_0/cpus", "0-3\n");
	mkfile(root, "armv8_pmuv3_0/format/event", "config:0-15\n");
	mkfile(root, "armv8_pmuv3_0/format/threshold", "config1:5-16\n");
	mkfile(root, "armv8_pmuv3_0/format/threshold_compare", "config1:2-3\n");
	mkfile(root, "armv8_pmuv3_0/format/threshold_count", "config1:4\n");
	mkfile(root, "armv8_pmuv3_0/caps/threshold_max", "0x000000ff\n");
	mkfile(root, "armv8_pmuv3_0/events/stall_slot", "event=0x003f\n");
}

static int setup(void **state)
{
	struct st *st = calloc(1, sizeof(*st));
	const char *src = getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
	static const struct { const char *name, *cpuid; } fx[] = {
		{ "x86-skl", "GenuineIntel-6-55-4" },	{ "x86-icl", "GenuineIntel-6-6A-6" },
		{ "x86-hybrid", "GenuineIntel-6-97-2" }, { "arm64-het", "0x00000000410fd0c0" },
		{ "amd-zen3", "AuthenticAMD-25-1-0" },	{ "acr", NULL },
		{ "threshold", NULL },
	};
	char path[512];
	struct pk_error err;
	if (!st || pk_catalog__open_builtin(&st->cat))
		return -1;
	strcpy(st->tmp, "/tmp/pmukit-test-spec-XXXXXX");
	if (!mkdtemp(st->tmp))
		return -1;
	snprintf(path, sizeof(path), "%s/acr", st->tmp);
	write_acr_tree(path);
	snprintf(path, sizeof(path), "%s/threshold", st->tmp);
	write_threshold_tree(path);
	snprintf(path, sizeof(path), "%s/tracefs", st->tmp);
	mkfile(path, "events/sched/sched_switch/id", "372\n");
	mkfile(path, "events/sched/sched_wakeup/id", "374\n");
	setenv("PMUKIT_TRACEFS", path, 1);
	setenv("PMUKIT_PERF_PARANOID", "-1", 1);	/* the privileged attrs, as the oracle ran */
	for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		struct tree *t = &st->trees[st->nr++];
		t->name = fx[i].name;
		t->cpuid = fx[i].cpuid;
		if (t->cpuid)
			snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/%s", src, t->name);
		else
			snprintf(path, sizeof(path), "%s/%s", st->tmp, t->name);
		if (pk_pmu_tree__open(&t->t, path, &err))
			return -1;
		size_t map;
		struct pk_map_entry me;
		t->model = PK_NO_MODEL;
		if (t->cpuid && !pk_catalog__match_cpuid(st->cat, NULL, t->cpuid, &map) &&
		    !pk_catalog__map(st->cat, map, &me))
			t->model = me.model;
	}
	*state = st;
	return 0;
}

static int teardown(void **state)
{
	struct st *st = *state;
	char cmd[128];
	if (!st)
		return 0;
	for (size_t i = 0; i < st->nr; i++)
		pk_pmu_tree__free(st->trees[i].t);
	pk_catalog__free(st->cat);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", st->tmp);
	if (system(cmd))
		return -1;
	free(st);
	return 0;
}

static void opts_for(struct st *st, const char *fixture, const char *mode, const char *opts,
		     struct pk_spec_opts *o)
{
	const struct tree *t = NULL;
	for (size_t i = 0; i < st->nr; i++)
		if (!strcmp(st->trees[i].name, fixture))
			t = &st->trees[i];
	assert_non_null(t);
	*o = (struct pk_spec_opts){ .sz = sizeof(*o), .cat = st->cat, .model = t->model,
				    .pmus = t->t, .workload = true,
				    .mode = strcmp(mode, "record") ? PK_SPEC_STAT : PK_SPEC_RECORD };
	for (const char *p = opts; p && *p; p++) {
		if (p[0] != '-')
			continue;
		if (p[1] == 'a')
			o->system_wide = true;
		else if (p[1] == 'i')
			o->no_inherit = true;
		else if (p[1] == 'g')
			o->call_graph = true;
		else if (p[1] == 'c')
			o->period = strtoull(p + 3, NULL, 0);
		else if (p[1] == 'F')
			o->freq = strtoull(p + 3, NULL, 0);
	}
}

static int encode(struct st *st, const char *fixture, const char *mode, const char *opts,
		  const char *spec, struct pk_evlist **el, struct pk_spec_error *err)
{
	struct pk_spec_opts o;
	opts_for(st, fixture, mode, opts, &o);
	*el = pk_evlist__new();
	assert_non_null(*el);
	return pk_evlist__add(*el, spec, &o, err);
}

/* "LEADER|field=value ..." with the non-zero fields, as the oracle table. */
static const char *compact(const struct pk_evsel *e, char *buf, size_t len)
{
	struct json_object *j;
	size_t used = (size_t)snprintf(buf, len, "%zu|", e->leader);
	assert_int_equal(attr_json__to_object(&e->attr, &j), 0);
	bool first = true;
	json_object_object_foreach(j, key, val)
	{
		const char *s = json_object_get_string(val);
		if (!strcmp(s, "0") || !strcmp(s, "0x0"))
			continue;
		int w = snprintf(buf + used, len - used, "%s%s=%s", first ? "" : " ", key, s);
		used += w > 0 ? (size_t)w : 0;
		first = false;
	}
	json_object_put(j);
	return buf;
}

static void check_cases(struct st *st, const struct oracle_case *cases, size_t n)
{
	char got[1024];
	for (size_t k = 0; k < n; k++) {
		const struct oracle_case *c = &cases[k];
		struct pk_evlist *el;
		struct pk_spec_error err;
		if (encode(st, c->fixture, c->mode, c->opts, c->spec, &el, &err))
			fail_msg("%s %s %s: refused: %s", c->fixture, c->mode, c->spec, err.msg);
		if (pk_evlist__nr(el) != c->nr)
			fail_msg("%s %s %s: %zu events, perf opened %zu", c->fixture, c->mode, c->spec,
				 pk_evlist__nr(el), c->nr);
		for (size_t i = 0; i < c->nr; i++) {
			compact(pk_evlist__evsel(el, i), got, sizeof(got));
			if (strcmp(got, c->ev[i]))
				fail_msg("%s %s %s %s, event %zu:\n  perf:   %s\n  pmukit: %s",
					 c->fixture, c->mode, c->opts, c->spec, i, c->ev[i], got);
		}
		pk_evlist__free(el);
	}
}

static void test_perf_oracle(void **state)
{
	check_cases(*state, oracle_cases, sizeof(oracle_cases) / sizeof(oracle_cases[0]));
}

static void test_tracepoints(void **state)
{
	check_cases(*state, tracepoint_cases, sizeof(tracepoint_cases) / sizeof(tracepoint_cases[0]));
}

/* A refusal: where it points and what it says. */
static void refuse(struct st *st, const char *fixture, const char *mode, const char *opts,
		   const char *spec, unsigned off, unsigned len, const char *msg, const char *hint)
{
	struct pk_evlist *el;
	struct pk_spec_error err;
	int r = encode(st, fixture, mode, opts, spec, &el, &err);
	if (!r)
		fail_msg("%s: accepted, expected \"%s\"", spec, msg);
	assert_true(r < 0);
	assert_int_equal(err.code, r);
	assert_int_equal(pk_evlist__nr(el), 0);
	if (err.off != off || err.len != len || !strstr(err.msg, msg) ||
	    (hint && !strstr(err.hint, hint)))
		fail_msg("%s: got %u+%u \"%s\" (%s), expected %u+%u \"%s\" (%s)", spec, err.off,
			 err.len, err.msg, err.hint, off, len, msg, hint ? hint : "");
	pk_evlist__free(el);
}

/* The same, pointing at the last occurrence of at in spec. */
static void refuse_at(struct st *st, const char *fixture, const char *mode, const char *opts,
		      const char *spec, const char *at, const char *msg, const char *hint)
{
	const char *p = NULL;
	for (const char *q = spec; (q = strstr(q, at)); q++)
		p = q;
	assert_non_null(p);
	refuse(st, fixture, mode, opts, spec, (unsigned)(p - spec), (unsigned)strlen(at), msg, hint);
}

static void test_refusals(void **state)
{
	struct st *st = *state;
	refuse(st, "x86-skl", "stat", "", "nosuchevent", 0, 11, "unknown event 'nosuchevent'", NULL);
	refuse(st, "x86-skl", "stat", "", "cycles,cycels", 7, 6, "unknown event 'cycels'",
	       "did you mean 'cycles'?");
	refuse(st, "x86-skl", "stat", "", "nosuch/event=1/", 0, 6, "unknown PMU or event 'nosuch'", NULL);
	refuse(st, "x86-skl", "stat", "", "cpu/evnt=0x3c/", 4, 4, "unknown term 'evnt' for PMU 'cpu'",
	       "did you mean 'event'?");
	/* perf 6.1 takes terms given twice, but not a second event alias (tests/oracle/corpus/dup_terms.txt) */
	refuse(st, "x86-skl", "stat", "", "cpu/instructions,cpu-cycles/", 17, 10,
	       "'cpu-cycles' is a second event alias in one event (after 'instructions')", NULL);
	refuse_at(st, "x86-skl", "stat", "", "cpu/cpu-cycles,event=cpu-cycles/", "event=cpu-cycles",
		  "Attempt to set event's scale twice", NULL);
	refuse(st, "x86-skl", "stat", "", "cpu/event=0x3c,umask=0x100/", 21, 5,
	       "umask=0x100: value needs 9 bits, umask is 8 bits (config:8-15)", NULL);
	refuse(st, "x86-icl", "stat", "", "uncore_cha/event=1,umask=0x400000000/", 25, 11,
	       "value needs 35 bits, umask is 34 bits (config:8-15,32-57)", NULL);
	refuse(st, "x86-skl", "stat", "", "cpu/event=0x3c,freq=100/", 15, 4,
	       "'freq' is not usable with stat", NULL);
	refuse(st, "x86-skl", "stat", "", "cycles/umask=1/", 7, 5, "unknown term 'umask'", NULL);
	refuse(st, "x86-skl", "stat", "", "sched:sched_switch/name=x/", 19, 4,
	       "term 'name' does not apply to tracepoints", NULL);
	refuse(st, "x86-skl", "stat", "", "sched:nosuch", 0, 12, "unknown tracepoint sched:nosuch", NULL);
	refuse(st, "x86-skl", "stat", "", "L1-icache-stores", 0, 16, "not a valid cache event", NULL);
	refuse(st, "x86-skl", "stat", "", "{cycles:pp,instructions}:pp", 25, 2, "too many 'p'", NULL);
	/* a 100k-character name: quoted short with an ellipsis, the quote closed */
	{
		char *huge = malloc(100001), want[128];
		struct pk_evlist *el;
		struct pk_spec_error err;
		assert_non_null(huge);
		memset(huge, 'a', 100000);
		huge[100000] = '\0';
		assert_int_equal(encode(st, "x86-skl", "stat", "", huge, &el, &err), -EINVAL);
		snprintf(want, sizeof(want), "unknown event '%.45s...'", huge);
		assert_string_equal(err.msg, want);
		pk_evlist__free(el);
		free(huge);
	}
	refuse(st, "x86-skl", "record", "", "cpu/event=0x3c,aux-sample-size=4096/", 15, 20,
	       "aux-sample-size needs an AUX area event", NULL);
	/* amd-zen3: caps/max_precise 0 — the PMU (and perf's oracle shim) refuse any 'p' */
	refuse(st, "amd-zen3", "stat", "", "cycles:p", 0, 8,
	       "precise_ip=1: the PMU supports at most 0", NULL);
	/* perf record opens per CPU: a cpu_atom member finds no cpu_core leader (perf 6.1
	 * itself fails: "Invalid event (cpu_atom/cycles/) in per-thread mode") */
	refuse(st, "x86-hybrid", "record", "", "{cycles,instructions}", 1, 6,
	       "this group mixes cpu_core and cpu_atom events", NULL);
}

/* --- seed: arm64 FEAT_PMUv3_TH (perf.rst) ---------------------------------------------------------- */

static void test_arm64_threshold(void **state)
{
	struct st *st = *state;
	struct pk_evlist *el;
	struct pk_spec_error err;
	/* perf.rst's examples; config1 = threshold << 5 | compare << 2 | count << 4 (format files) */
	assert_int_equal(encode(st, "arm64-het", "stat", "", "stall_slot/threshold=2,threshold_compare=2/",
				&el, &err), 0);
	/* cluster 0 (armv8_pmuv3_0) reads threshold_max 0: only cluster 1 takes the event */
	assert_int_equal(pk_evlist__nr(el), 1);
	assert_string_equal(pk_evlist__evsel(el, 0)->pmu, "armv8_pmuv3_1");
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.type, 9);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config, 0x3f);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config1, 2 << 5 | 2 << 2);
	pk_evlist__free(el);
	assert_int_equal(encode(st, "arm64-het", "stat", "",
				"armv8_pmuv3_1/dtlb_walk,threshold=10,threshold_compare=3,threshold_count/",
				&el, &err), 0);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config, 0x34);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config1, 10 << 5 | 3 << 2 | 1 << 4);
	assert_string_equal(pk_evlist__evsel(el, 0)->table_event, "dtlb_walk");
	pk_evlist__free(el);
	refuse(st, "arm64-het", "stat", "", "armv8_pmuv3_1/stall_slot,threshold=4096/", 35, 4,
	       "threshold=4096: value needs 13 bits, threshold is 12 bits (config1:5-16)", NULL);
	refuse(st, "arm64-het", "stat", "", "armv8_pmuv3_0/stall_slot,threshold=2/", 25, 11,
	       "armv8_pmuv3_0 has no FEAT_PMUv3_TH: caps/threshold_max is 0", NULL);
	refuse(st, "arm64-het", "stat", "", "armv8_pmuv3_0/event=0x3f,threshold_count/", 25, 15,
	       "has no FEAT_PMUv3_TH", NULL);
	refuse(st, "threshold", "stat", "", "stall_slot/threshold=256/", 21, 3,
	       "threshold=256 is above armv8_pmuv3_0's caps/threshold_max 0x000000ff (255)", NULL);
	assert_int_equal(encode(st, "threshold", "stat", "", "stall_slot/threshold=255,threshold_compare=1/",
				&el, &err), 0);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config1, 255 << 5 | 1 << 2);
	pk_evlist__free(el);
}

/* --- seed: Intel Auto Counter Reload -------------------------------------------------------------- */

static void same_attrs(struct st *st, const char *opts, const char *a, const char *b)
{
	struct pk_evlist *ea, *eb;
	struct pk_spec_error err;
	if (encode(st, "acr", "record", opts, a, &ea, &err))
		fail_msg("%s: %s", a, err.msg);
	if (encode(st, "acr", "record", opts, b, &eb, &err))
		fail_msg("%s: %s", b, err.msg);
	assert_int_equal(pk_evlist__nr(ea), pk_evlist__nr(eb));
	for (size_t i = 0; i < pk_evlist__nr(ea); i++) {
		const struct pk_evsel *x = pk_evlist__evsel(ea, i), *y = pk_evlist__evsel(eb, i);
		assert_memory_equal(&x->attr, &y->attr, sizeof(x->attr));
		assert_int_equal(x->acr_mask, y->acr_mask);
	}
	pk_evlist__free(ea);
	pk_evlist__free(eb);
}

static void test_acr(void **state)
{
	struct st *st = *state;
	struct pk_evlist *el;
	struct pk_spec_error err;
	/* intel-acr.txt: ratio-to-prev=0.5 is the IPC > 2 group written with masks */
	same_attrs(st, "", "{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}",
		   "{cpu_atom/instructions,period=200000,acr_mask=0x2/,"
		   "cpu_atom/cycles,period=100000,acr_mask=0x3/}");
	/* and the IPC < 2 variant, reordered */
	same_attrs(st, "", "{cpu_atom/cycles/,cpu_atom/instructions,period=200000,ratio-to-prev=2.0/}",
		   "{cpu_atom/cycles,period=100000,acr_mask=0x2/,"
		   "cpu_atom/instructions,period=200000,acr_mask=0x3/}");
	/* record -c N gives the period when the event has none */
	same_attrs(st, "-c 100000", "{cpu_atom/instructions/,cpu_atom/cycles,ratio-to-prev=0.5/}",
		   "{cpu_atom/instructions,period=200000,acr_mask=0x2/,cpu_atom/cycles,acr_mask=0x3/}");

	assert_int_equal(encode(st, "acr", "record", "",
				"{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}",
				&el, &err), 0);
	const struct pk_evsel *ins = pk_evlist__evsel(el, 0), *cyc = pk_evlist__evsel(el, 1);
	assert_int_equal(ins->acr_mask, 0x2);
	assert_int_equal(cyc->acr_mask, 0x3);
	assert_int_equal(ins->attr.sample_period, 200000);
	assert_int_equal(cyc->attr.sample_period, 100000);
	assert_int_equal(ins->attr.config2, 0x2);
	assert_int_equal(cyc->attr.config2, 0x3);
	assert_int_equal(ins->attr.type, 10);
	/* cycles among cpu_atom's terms: the hardware event on cpu_atom (type 10 << 32) */
	assert_int_equal(cyc->attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(cyc->attr.config, UINT64_C(10) << 32);
	assert_int_equal(cyc->leader, 0);
	pk_evlist__free(el);

	refuse_at(st, "acr", "record", "", "cpu_atom/instructions,period=1000,ratio-to-prev=2/",
		  "ratio-to-prev=2", "ratio-to-prev needs a group", NULL);
	refuse_at(st, "acr", "record", "", "{cpu_atom/instructions,period=1000,ratio-to-prev=2/,cpu_atom/cycles/}",
		  "ratio-to-prev=2", "no previous event", NULL);
	refuse_at(st, "acr", "record", "", "{cpu_core/instructions/,cpu_atom/cycles,period=1000,ratio-to-prev=2/}",
		  "ratio-to-prev=2", "ratio-to-prev compares events of one PMU", NULL);
	refuse_at(st, "acr", "record", "", "{cpu_atom/instructions/,cpu_atom/cycles,ratio-to-prev=2/}",
		  "ratio-to-prev=2", "ratio-to-prev needs this event's sample period", NULL);
	refuse_at(st, "acr", "record", "", "{cpu_atom/instructions/,cpu_atom/cycles,period=10,ratio-to-prev=0/}",
		  "0", "ratio-to-prev must be above 0", NULL);
	refuse_at(st, "acr", "record", "", "{cpu_atom/instructions,acr_mask=0x4/,cpu_atom/cycles/}",
		  "cpu_atom/instructions,acr_mask=0x4/", "acr_mask=0x4 names events beyond this group of 2",
		  NULL);
	/* perf refuses to merge a written acr_mask with the one ratio-to-prev sets */
	refuse_at(st, "acr", "record", "",
		  "{cpu_atom/instructions,acr_mask=0x2/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}",
		  "ratio-to-prev=0.5", "ratio-to-prev sets the acr_mask of the previous event, which the spec sets already",
		  NULL);
	refuse_at(st, "acr", "record", "",
		  "{cpu_atom/instructions/,cpu_atom/cycles,period=100000,acr_mask=0x1,ratio-to-prev=0.5/}",
		  "ratio-to-prev=0.5", "ratio-to-prev sets the acr_mask of this event", NULL);
	/* perf stat leaves ratio-to-prev out (a record option): counting attrs, no masks */
	assert_int_equal(encode(st, "acr", "stat", "",
				"{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}",
				&el, &err), 0);
	assert_int_equal(pk_evlist__evsel(el, 0)->acr_mask, 0);
	assert_int_equal(pk_evlist__evsel(el, 1)->acr_mask, 0);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config2, 0);
	assert_int_equal(pk_evlist__evsel(el, 1)->attr.config2, 0);
	pk_evlist__free(el);
	/* the x86-hybrid fixture has no acr_mask format (a kernel before 6.16) */
	refuse_at(st, "x86-hybrid", "record", "",
		  "{cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}",
		  "ratio-to-prev=0.5", "PMU 'cpu_atom' has no acr_mask format", NULL);
}

/* --- seed: TopDown ------------------------------------------------------------------------------ */

static void test_topdown(void **state)
{
	struct st *st = *state;
	struct pk_evlist *el;
	struct pk_spec_error err;
	/* perf moves slots to the front and leads with it (values in the oracle table) */
	assert_int_equal(encode(st, "x86-icl", "stat", "", "{topdown-retiring,slots}", &el, &err), 0);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.config, 0x400);
	assert_int_equal(pk_evlist__evsel(el, 0)->nr_members, 2);
	assert_int_equal(pk_evlist__evsel(el, 1)->leader, 0);
	assert_int_equal(pk_evlist__evsel(el, 1)->spec_off, 1);
	pk_evlist__free(el);
	/* {slots,$sampling_event,topdown-retiring}:S: the event after slots samples */
	assert_int_equal(encode(st, "x86-icl", "record", "", "{slots,cycles,topdown-retiring}:S", &el, &err), 0);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.sample_period, 0);
	assert_int_equal(pk_evlist__evsel(el, 1)->attr.sample_freq, 4000);
	assert_true(pk_evlist__evsel(el, 2)->attr.read_format & PERF_FORMAT_GROUP);
	pk_evlist__free(el);
	/* what the kernel refuses: metric events outside a slots group, or sampling */
	refuse(st, "x86-icl", "stat", "", "topdown-retiring", 0, 16,
	       "topdown-retiring is a TopDown metric event: it must be in a group led by slots", NULL);
	refuse(st, "x86-icl", "stat", "", "cycles,{cycles,topdown-be-bound}", 15, 16,
	       "must be in a group led by slots", NULL);
	refuse(st, "x86-icl", "record", "", "{slots,topdown-retiring}", 7, 16,
	       "topdown-retiring cannot sample", NULL);
	refuse(st, "x86-icl", "record", "", "{slots,topdown-retiring,cycles}:S", 7, 16,
	       "cannot be the sampling event", NULL);
	/* Skylake's topdown-* are ordinary events (no perf metrics): no rule */
	assert_int_equal(encode(st, "x86-skl", "stat", "", "topdown-slots-retired", &el, &err), 0);
	pk_evlist__free(el);
}

/* --- the API ------------------------------------------------------------------------------------ */

static void test_api(void **state)
{
	struct st *st = *state;
	struct pk_spec_opts o;
	struct pk_spec_error err;
	opts_for(st, "x86-skl", "stat", "", &o);
	struct pk_evlist *el = pk_evlist__new();
	assert_int_equal(pk_evlist__add(el, "cycles:u,{instructions,l1d.replacement:R}", &o, &err), 0);
	assert_int_equal(pk_evlist__nr(el), 3);
	/* a refused spec appends nothing */
	assert_int_not_equal(pk_evlist__add(el, "cycles,nosuch", &o, &err), 0);
	assert_int_equal(pk_evlist__nr(el), 3);
	assert_int_equal(pk_evlist__add(el, "{cpu/event=0x3c,name=foo,metric-id=bar/,cs}", &o, &err), 0);
	assert_int_equal(pk_evlist__nr(el), 5);
	const struct pk_evsel *e = pk_evlist__evsel(el, 0);
	assert_string_equal(e->name, "cycles:u");
	assert_null(e->pmu);
	assert_int_equal(e->leader, 0);
	assert_int_equal(e->nr_members, 1);
	e = pk_evlist__evsel(el, 1);
	assert_int_equal(e->nr_members, 2);
	assert_int_equal(e->spec_off, 10);
	assert_int_equal(e->spec_len, 12);
	e = pk_evlist__evsel(el, 2);
	assert_int_equal(e->leader, 1);
	assert_int_equal(e->nr_members, 0);
	assert_true(e->tpebs);
	assert_int_equal(e->attr.config, 0x151);	/* no attr change for :R */
	assert_string_equal(e->pmu, "cpu");
	assert_string_equal(e->table_event, "l1d.replacement");
	assert_non_null(e->table_desc);
	e = pk_evlist__evsel(el, 3);
	assert_string_equal(e->name, "foo");
	assert_string_equal(e->metric_id, "bar");
	assert_int_equal(e->leader, 3);
	assert_int_equal(pk_evlist__evsel(el, 4)->leader, 3);
	assert_int_equal(pk_evlist__evsel(el, 4)->attr.type, PERF_TYPE_SOFTWARE);
	assert_null(pk_evlist__evsel(el, 5));
	assert_null(pk_evlist__evsel(el, 0)->unit);
	assert_true(pk_evlist__evsel(el, 0)->scale == 1.0);
	pk_evlist__free(el);

	/* an alias's .unit and .scale (sysfs) say what its counts mean */
	el = pk_evlist__new();
	assert_int_equal(pk_evlist__add(el, "uncore_imc_0/cas_count_read/,uncore_imc_0/event=4/", &o, &err), 0);
	e = pk_evlist__evsel(el, 0);
	assert_string_equal(e->unit, "MiB");
	assert_true(e->scale == 6.103515625e-5);
	assert_null(pk_evlist__evsel(el, 1)->unit);	/* raw terms: no alias, no unit */
	assert_true(pk_evlist__evsel(el, 1)->scale == 1.0);
	pk_evlist__free(el);

	/* no tables, no PMU tree: symbolic events only */
	el = pk_evlist__new();
	struct pk_spec_opts bare = { .sz = sizeof(bare), .mode = PK_SPEC_STAT, .workload = true };
	assert_int_equal(pk_evlist__add(el, "cycles:k,L1-dcache-loads,r1a8", &bare, &err), 0);
	assert_int_equal(pk_evlist__nr(el), 3);
	assert_int_equal(pk_evlist__evsel(el, 1)->attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(pk_evlist__evsel(el, 2)->attr.type, PERF_TYPE_RAW);
	assert_int_not_equal(pk_evlist__add(el, "cpu/event=1/", &bare, &err), 0);
	assert_int_equal(pk_evlist__add(el, "task-clock", NULL, &err), 0);
	pk_evlist__free(el);
	pk_evlist__free(NULL);
	assert_int_equal(pk_evlist__nr(NULL), 0);

	/* perf's EACCES fallback, for an unprivileged user with paranoid > 1 */
	if (geteuid() != 0) {
		setenv("PMUKIT_PERF_PARANOID", "2", 1);
		el = pk_evlist__new();
		assert_int_equal(pk_evlist__add(el, "cycles,instructions:u,cycles:k", &o, &err), 0);
		assert_int_equal(pk_evlist__evsel(el, 0)->attr.exclude_kernel, 1);
		assert_int_equal(pk_evlist__evsel(el, 0)->attr.exclude_hv, 1);
		assert_int_equal(pk_evlist__evsel(el, 2)->attr.exclude_kernel, 0);	/* excludes user */
		pk_evlist__free(el);
		setenv("PMUKIT_PERF_PARANOID", "-1", 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_oracle),
		cmocka_unit_test(test_tracepoints),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_arm64_threshold),
		cmocka_unit_test(test_acr),
		cmocka_unit_test(test_topdown),
		cmocka_unit_test(test_api),
	};
	return cmocka_run_group_tests_name("spec_encode", tests, setup, teardown);
}
