/* SPDX-License-Identifier: MIT */
/*
 * fuzz_symbol_elf.c — libFuzzer target for what the symbolizer reads from
 * ELF files it did not make (profiles come from other machines): the input
 * as an ELF image in memory — symbol tables with perf's rules, the @plt
 * entries, build-id note, .gnu_debuglink, MiniDebugInfo (xz) — and as a
 * .debug_line section (binutils-compatible line program decoder, lookups
 * at a few addresses). No crash, no hang, no unbounded allocation.
 *   build/fuzz/bin/fuzz_symbol_elf -max_total_time=300 CORPUS
 * Seeds: any small ELF files (e.g. the fixture programs of tests/fixtures/symbol).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/linetab.h"
#include "symbol/symbol_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* as a .debug_line section (with the input doubling as the string sections) */
	struct linetab_src src = { .line = { data, size }, .line_str = { data, size }, .str = { data, size } };
	struct linetab *lt = NULL;
	if (linetab__parse(&lt, &src, 0, size > 4 ? "/comp/dir" : NULL) == 0) {
		const char *f;
		unsigned line;
		for (uint64_t a = 0; a < 64; a += 7)
			(void)linetab__lookup(lt, a, &f, &line, NULL);
		for (uint64_t i = 0; i < 4; i++)
			(void)linetab__file(lt, i);
		linetab__free(lt);
	}
	/* as an ELF image */
	void *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	struct pk_elf e;
	if (pkelf__open_mem(&e, copy, size, "fuzz") != 0)
		return 0;	/* (freed by open_mem on failure) */
	uint8_t bid[PK_BUILD_ID_MAX];
	(void)pkelf__build_id(e.elf, bid);
	free(pkelf__debuglink(e.elf));
	(void)pkelf__text_offset(&e);
	struct pk_sym_table t;
	symtab__init(&t);
	if (pkelf__load_syms(&t, &e, &e, 0) >= 0)
		for (size_t i = 0; i < t.nr; i++)
			(void)symtab__find(&t, t.syms[i].start);
	symtab__fini(&t);
	struct pk_elf mini;
	if (pkelf__minidebuginfo(&e, &mini) == 0) {
		symtab__init(&t);
		(void)pkelf__load_syms(&t, &mini, &e, 0);
		symtab__fini(&t);
		pkelf__close(&mini);
	}
	pkelf__close(&e);
	return 0;
}
