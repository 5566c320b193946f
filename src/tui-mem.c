/* SPDX-License-Identifier: MIT */
/*
 * tui-mem.c — what the browser gives back before it builds its screen: the
 * report is finished and the browser stays up on it for long, so what
 * reading the file left resident and no longer needed goes back to the
 * system: the heap's freed pages (the reader's and the symbol workers'
 * scratch) and the pages of the input file's mapping (madvise DONTNEED: a
 * later read faults them in again from the page cache, so the session's
 * reader stays usable). With them, the first screen needs no more memory
 * than `report --stdio` printing the same report (bench/tui.c).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tui.h"

/* the mappings of the file (dev, ino) in this process, DONTNEED */
static void drop_file_pages(dev_t dev, ino_t ino)
{
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;
		unsigned maj, min;
		unsigned long long inode;
		char perms[8];
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*x %x:%x %llu", &lo, &hi, perms, &maj, &min,
			   &inode) != 6)
			continue;
		if (inode == (unsigned long long)ino && makedev(maj, min) == dev && perms[3] == 's')
			madvise((void *)lo, hi - lo, MADV_DONTNEED);	/* (shared: no data lost) */
	}
	fclose(f);
}

void tui_release_input(const char *input)
{
	struct stat st;
	if (input && stat(input, &st) == 0 && S_ISREG(st.st_mode))
		drop_file_pages(st.st_dev, st.st_ino);
	malloc_trim(0);
}
