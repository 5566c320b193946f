# pmukit — top-level build. See README.md for the targets and docs/ARCHITECTURE.md for the layout.
#
#   make                 build/pmukit, build/libpmukit.{a,so}, build/eventc
#   make check           install deps, build, run every test (SANITIZE=1: ASan+UBSan build)
#   make demo            install deps, build, run the main job
#   make check-cross     the library, self-monitoring and unwinder tests for aarch64 (qemu-user)
#   make check-threads   the library's threads under ThreadSanitizer (build/tsan)
#   make check-arm64     pmukit against perf 6.1 on an emulated arm64 PMU (qemu-system-aarch64)
#   make bench           build/bench/* and run them (name value lines)
#   make fuzz            libFuzzer targets (clang)
#   make install         the CLI, the libraries, the headers and pmukit.pc under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall
#   make analyze         cppcheck and scan-build; any finding fails
#   PMU_EVENTS_DIR=DIR   compile the tables from another arch/ tree
#   V=1                  print every command in full
#   WERROR=0             warnings are not errors (for packagers; the default is -Werror)

CC       ?= gcc
SANITIZE ?=
ifeq ($(SANITIZE),1)
O        ?= build/asan
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
STATIC   := 0
else ifeq ($(SANITIZE),thread)
# ThreadSanitizer (make check-threads); it has no model of atomic_thread_fence (selfmon)
O        ?= build/tsan
SANFLAGS := -fsanitize=thread -Wno-tsan
STATIC   := 0
else
O        ?= build
SANFLAGS :=
endif
# The CLI is linked statically: no dynamic loader work at start-up (stat_startup_pmukit_ms
# of `make bench` against `make bench STATIC=0`, which links the shared libraries).
STATIC   ?= 1
ifeq ($(STATIC),1)
CLI_LDFLAGS := -static
endif

OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WERROR   ?= 1
WARN     := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wshadow -Wstrict-prototypes \
	    -Wno-overlength-strings
BASEFLAGS := -std=c11 -D_GNU_SOURCE -fPIC -MMD -MP $(WARN) -Iinclude -Ilib $(SANFLAGS)
# The library's objects: libpmukit.so exports only what include/pmukit/ marks PK_API.
# (Not the CLI's, tests' and workloads' objects: their code and symbols stay as they were.)
LIB_VISFLAGS := -fvisibility=hidden
# libdw/libelf: symbols; libiberty: demangling; protobuf-c + zlib: pprof; lzma: MiniDebugInfo
# libtraceevent: tracepoint fields printed as perf prints them (pmukit script)
# libopcodes/libbfd (binutils-dev): pmukit annotate's disassembly
BINUTILS_LIBS := -lopcodes -lbfd -lsframe
LDLIBS   := -ljson-c -ltraceevent $(BINUTILS_LIBS) -ldw -lelf -lprotobuf-c -liberty -lz -llzma -lbz2 -lzstd -lpthread -lm
LDFLAGS  += $(SANFLAGS)
# the CLI only: ncurses (wide: UTF-8 line drawing) draws report's interactive browser (src/tui-*.c)
CLI_LDLIBS := -lncursesw -ltinfo

# V=1: full commands; otherwise a short "  CC      file" line per step.
ifeq ($(V),1)
Q   :=
msg  =
else
Q   := @
msg  = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif

# Vendor JSON: extracted once from Debian's linux-source-6.12 into build/arch.
LINUX_SRC_TAR  ?= /usr/src/linux-source-6.12.tar.xz
VENDOR_ARCH    := build/arch
PMU_EVENTS_DIR ?= $(VENDOR_ARCH)

LIB_SRCS   := $(sort $(wildcard lib/*/*.c lib/data/*/*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(O)/obj/%.o)
# eventc links the library minus the built-in tables accessor.
CORE_OBJS  := $(filter-out $(O)/obj/lib/events/builtin.o,$(LIB_OBJS))
TABLES_OBJ := $(O)/pmu-events.o
# the generated tables: plain C, no warnings flags, hidden like the rest of the library
TABLES_CFLAGS := -std=c11 -fPIC $(LIB_VISFLAGS) -O0
CLI_SRCS   := $(sort $(wildcard src/*.c))
CLI_OBJS   := $(CLI_SRCS:%.c=$(O)/obj/%.o)
EVENTC_SRCS := $(sort $(wildcard tools/eventc/*.c))
EVENTC_OBJS := $(EVENTC_SRCS:%.c=$(O)/obj/%.o)
TEST_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS  := $(TEST_SRCS:tests/unit/%.c=$(O)/tests/%)
TEST_SUPPORT := $(sort $(wildcard tests/unit/support/*.c))
TEST_SUPPORT_OBJS := $(TEST_SUPPORT:%.c=$(O)/obj/%.o)
INTEG_TESTS := $(sort $(wildcard tests/integration/*.sh))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(EXAMPLE_SRCS:examples/%.c=$(O)/examples/%)
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(O)/bench/%)

.PHONY: all deps check check-cross check-arm64 check-threads demo bench fuzz fuzz-smoke clean tests data linux61-tree analyze
.DEFAULT_GOAL := all

# libpmukit.so is a link to the soname's link to the file of this version. The version
# script gives the exported functions (those marked PK_API) their version node.
VERSION    := 0.1.0
SONAME     := libpmukit.so.0
SOFILE     := libpmukit.so.$(VERSION)
LIB_MAP    := lib/libpmukit.map
SO_LDFLAGS := -shared -Wl,-soname,$(SONAME) -Wl,--version-script=$(LIB_MAP)

all: $(O)/pmukit $(O)/libpmukit.a $(O)/libpmukit.so $(O)/eventc

deps:
	$(Q)sh scripts/deps.sh

# --- vendor data -----------------------------------------------------------
$(VENDOR_ARCH)/.stamp:
	$(Q)test -f $(LINUX_SRC_TAR) || sh scripts/deps.sh
	$(call msg,EXTRACT,$(LINUX_SRC_TAR) tools/perf/pmu-events/arch -> $(VENDOR_ARCH))
	$(Q)rm -rf $(VENDOR_ARCH) && mkdir -p $(VENDOR_ARCH)
	$(Q)rm -rf build/perf-py && mkdir -p build/perf-py
	$(Q)tar -xJf $(LINUX_SRC_TAR) -C build/perf-py --strip-components=4 --wildcards \
		'linux-source-6.12/tools/perf/pmu-events/arch/*' \
		'linux-source-6.12/tools/perf/pmu-events/jevents.py' \
		'linux-source-6.12/tools/perf/pmu-events/metric.py'
	$(Q)mv build/perf-py/arch/* $(VENDOR_ARCH)/ && rmdir build/perf-py/arch
	$(Q)touch $@

# perf 6.1's JSON tree (Debian's linux-source-6.1, fetched with apt-get download):
# tests/integration/perf61_tree_oracle.sh compares pmukit with perf 6.1 over it
# (the test fetches it too when missing).
LINUX61_CACHE := build/cache/linux-source-6.1
linux61-tree: $(LINUX61_CACHE)/.stamp
$(LINUX61_CACHE)/.stamp:
	@sh scripts/linux61-tree.sh $(abspath $(LINUX61_CACHE)) > /dev/null

DATA_STAMP := $(if $(filter $(VENDOR_ARCH),$(PMU_EVENTS_DIR)),$(VENDOR_ARCH)/.stamp)
data: $(DATA_STAMP)

# Rebuild the tables when PMU_EVENTS_DIR changes.
$(O)/.events-dir: FORCE
	$(Q)mkdir -p $(O)
	$(Q)echo '$(abspath $(PMU_EVENTS_DIR))' | cmp -s - $@ || echo '$(abspath $(PMU_EVENTS_DIR))' > $@
FORCE:

# --- objects ----------------------------------------------------------------
$(O)/obj/lib/%.o $(O)/obj/gen/%.o: BASEFLAGS += $(LIB_VISFLAGS)

$(O)/obj/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -c $< -o $@

# An archive, so eventc pulls in only the objects it uses.
$(O)/libpmukit-core.a: $(CORE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(O)/eventc: $(EVENTC_OBJS) $(O)/libpmukit-core.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# (the stamp, not the phony `data`: a phony prerequisite would remake the tables every time)
$(O)/pmu-events.c: $(O)/eventc $(O)/.events-dir $(DATA_STAMP)
	$(call msg,EVENTC,$(PMU_EVENTS_DIR) -> $@)
	$(Q)$(O)/eventc -o $@.tmp $(PMU_EVENTS_DIR) && mv $@.tmp $@

$(TABLES_OBJ): $(O)/pmu-events.c
	$(call msg,CC,$<)
	$(Q)$(CC) $(TABLES_CFLAGS) -c $< -o $@

# Two archives of the same objects. libpmukit.a, the one installed, defines only the public
# API: its objects are linked into one (ld -r) whose hidden symbols are then made local, so a
# program that defines its own maps__find or links another pprof writer still links statically.
# libpmukit-int.a keeps every global symbol, for what links the internals: the CLI, the unit
# tests, the test tools and benches.
LIBINT := $(O)/libpmukit-int.a

$(LIBINT): $(LIB_OBJS) $(TABLES_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(O)/libpmukit.a: $(LIB_OBJS) $(TABLES_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ $(O)/obj/libpmukit-all.o && \
		$(LD) -r -o $(O)/obj/libpmukit-all.o $(filter %.o,$^) && \
		objcopy --localize-hidden $(O)/obj/libpmukit-all.o && \
		ar rcs $@ $(O)/obj/libpmukit-all.o

$(O)/$(SOFILE): $(LIB_OBJS) $(TABLES_OBJ) $(LIB_MAP)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(SO_LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(O)/$(SONAME): $(O)/$(SOFILE)
	$(call msg,LN,$@)
	$(Q)ln -sf $(SOFILE) $@

$(O)/libpmukit.so: $(O)/$(SONAME)
	$(call msg,LN,$@)
	$(Q)ln -sf $(SONAME) $@

$(O)/pmukit: $(CLI_OBJS) $(LIBINT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(CLI_LDFLAGS) -o $@ $(CLI_OBJS) $(LIBINT) $(LDLIBS) $(CLI_LDLIBS)

# stat --serve's exporter: the CLI plus libmicrohttpd, linked dynamically (src/serve/http.h
# says why); the static pmukit runs it for --serve.
SERVE_OBJS := $(O)/obj/src/serve/http.o
all: $(O)/pmukit-serve
$(O)/pmukit-serve: $(CLI_OBJS) $(SERVE_OBJS) $(LIBINT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(SERVE_OBJS) $(LIBINT) $(LDLIBS) $(CLI_LDLIBS) -lmicrohttpd

# --- tests ------------------------------------------------------------------
$(O)/tests/%: tests/unit/%.c $(TEST_SUPPORT_OBJS) $(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,TEST-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(TEST_CLI_OBJS) $(TEST_SUPPORT_OBJS) $(LIBINT) $(LDFLAGS) $(LDLIBS) -lcmocka

# unit tests of CLI modules link those objects too
$(O)/tests/test_cli_opts: TEST_CLI_OBJS := $(O)/obj/src/cli-opts.o
$(O)/tests/test_cli_opts: $(O)/obj/src/cli-opts.o
$(O)/tests/test_stat_serve_ratio: TEST_CLI_OBJS := $(O)/obj/src/stat-serve-ratio.o
$(O)/tests/test_stat_serve_ratio: $(O)/obj/src/stat-serve-ratio.o

# The jevents oracle's dumper (tests/integration/jevents_oracle.sh).
$(O)/tests/ir_dump: tests/oracle/ir_dump.c $(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,TEST-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -o $@ $< $(LIBINT) $(LDFLAGS) $(LDLIBS)

# perf 6.1 oracle: an LD_PRELOAD shim that records every attr perf opens. Plain flags on
# purpose: an ASan shim can not be preloaded into perf.
$(O)/oracle/perf_shim.so: tests/oracle/perf_shim.c lib/evspec/attr_json.c lib/evspec/attr_json.h \
			  include/pmukit/attr.h
	$(Q)mkdir -p $(dir $@)
	$(call msg,SHIM,$@)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -fPIC $(WARN) -Iinclude -Ilib $(OPT) -g -shared -o $@ \
		tests/oracle/perf_shim.c lib/evspec/attr_json.c -ldl -ljson-c -lpthread

tests: all $(TEST_BINS) $(O)/tests/ir_dump $(O)/oracle/perf_shim.so $(EXAMPLE_BINS) $(O)/tests/data_dump

# One runner (perl's prove) over the cmocka binaries (TAP output) and the CLI scripts.
check: deps
	$(Q)$(MAKE) --no-print-directory tests
	$(call msg,RUN,$(words $(TEST_BINS)) unit + $(words $(INTEG_TESTS)) integration test files)
	$(Q)for t in $(INTEG_TESTS); do [ -x $$t ] || { \
		echo "$$t is not executable: prove runs it directly (git update-index --chmod=+x $$t)"; \
		exit 1; }; done
	$(Q)PMUKIT_BUILD=$(abspath $(O)) PMUKIT_SRC=$(CURDIR) PMUKIT_ARCH_DIR=$(abspath $(PMU_EVENTS_DIR)) \
		PERF_PMU_EVENTS_PY=$(abspath build/perf-py) \
		CMOCKA_MESSAGE_OUTPUT=TAP sh scripts/prove-log.sh $(O)/check-failures.log \
		prove --exec '' $(TEST_BINS) $(INTEG_TESTS)

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/demo.sh $(O)

# --- examples: built by `tests`, run by `check` (tests/integration/examples.sh) ---------
# They use the public API only and link as a program outside the tree would: the public
# headers and the shared library (found next to build/ through the rpath).
EXAMPLE_CFLAGS := -std=c11 -MMD -MP $(WARN) -Iinclude $(SANFLAGS)

$(O)/examples/%: examples/%.c $(O)/libpmukit.so
	$(Q)mkdir -p $(dir $@)
	$(call msg,EXAMPLE-CC,$<)
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(CFLAGS) -o $@ $< -L$(O) -lpmukit -Wl,-rpath,'$$ORIGIN/..' $(LDFLAGS)

# --- make install / uninstall: what a package of pmukit holds ------------------------------
# The CLI, libpmukit.a, libpmukit.so with its links, the public headers and pmukit.pc, under
# $(DESTDIR) (a staging root) and $(PREFIX). uninstall removes exactly these files (and
# include/pmukit/, which is ours alone). install builds nothing that `make` would not.
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL      ?= install
PUBLIC_HDRS  := $(sort $(wildcard include/pmukit/*.h))
# the directories as pkg-config variables (relative to ${prefix} where they are under it)
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
INSTALLED    := $(BINDIR)/pmukit $(BINDIR)/pmukit-serve $(LIBDIR)/libpmukit.a $(LIBDIR)/$(SOFILE) $(LIBDIR)/$(SONAME) \
		$(LIBDIR)/libpmukit.so $(PKGCONFIGDIR)/pmukit.pc \
		$(PUBLIC_HDRS:include/%=$(INCLUDEDIR)/%)

.PHONY: install uninstall
# rewritten every time: it holds PREFIX and the directories of this command line
$(O)/pmukit.pc: lib/pmukit.pc.in FORCE
	$(Q)mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_dir,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' $< > $@

install: all $(O)/pmukit.pc
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)$(INSTALL) -d -m 755 $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/pmukit
	$(Q)$(INSTALL) -m 755 $(O)/pmukit $(DESTDIR)$(BINDIR)/pmukit
	$(Q)$(INSTALL) -m 755 $(O)/pmukit-serve $(DESTDIR)$(BINDIR)/pmukit-serve
	$(Q)$(INSTALL) -m 644 $(O)/libpmukit.a $(DESTDIR)$(LIBDIR)/libpmukit.a
	$(Q)$(INSTALL) -m 755 $(O)/$(SOFILE) $(DESTDIR)$(LIBDIR)/$(SOFILE)
	$(Q)ln -sf $(SOFILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libpmukit.so
	$(Q)$(INSTALL) -m 644 $(PUBLIC_HDRS) $(DESTDIR)$(INCLUDEDIR)/pmukit/
	$(Q)$(INSTALL) -m 644 $(O)/pmukit.pc $(DESTDIR)$(PKGCONFIGDIR)/pmukit.pc

uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	$(Q)if [ -d $(DESTDIR)$(INCLUDEDIR)/pmukit ]; then rmdir $(DESTDIR)$(INCLUDEDIR)/pmukit; fi

# --- make check-cross: the library + the self-monitoring and unwinder tests for aarch64, under qemu-user
CROSS      ?= aarch64-linux-gnu-
XO         ?= build/aarch64
QEMU       ?= qemu-aarch64
X_LIB_OBJS := $(LIB_SRCS:%.c=$(XO)/obj/%.o)
X_TESTS    := $(patsubst tests/unit/%.c,$(XO)/tests/%,$(sort $(wildcard tests/unit/test_selfmon*.c))) \
	      $(XO)/tests/test_unwind $(XO)/tests/test_annotate_cross
X_EXAMPLES := $(EXAMPLE_SRCS:examples/%.c=$(XO)/examples/%)
# the self-monitoring tests and examples need none of the symbol/export libraries
X_LDLIBS   := -ljson-c -lzstd -lpthread -lm
# the unwinder's and annotate's tests need all of them. binutils-dev:arm64 cannot be installed
# beside amd64's (it needs binutils:arm64, which replaces binutils): its .deb is fetched with
# apt-get download and unpacked under $(XO)/binutils, for its headers and static libraries
X_BINUTILS   := $(XO)/binutils/usr
X_ALL_LDLIBS := $(subst $(BINUTILS_LIBS),$(patsubst -l%,$(X_BINUTILS)/lib/aarch64-linux-gnu/lib%.a,$(BINUTILS_LIBS)),$(LDLIBS))
$(X_BINUTILS)/.stamp:
	$(call msg,FETCH,binutils-dev:arm64 -> $(XO)/binutils)
	$(Q)rm -rf $(XO)/binutils && mkdir -p $(XO)/binutils
	$(Q)cd $(XO)/binutils && apt-get download -q binutils-dev:arm64 >/dev/null && dpkg -x binutils-dev_*_arm64.deb .
	$(Q)touch $@
$(XO)/obj/lib/annotate/objfile.o: BASEFLAGS += -I$(X_BINUTILS)/include
$(XO)/obj/lib/annotate/objfile.o: | $(X_BINUTILS)/.stamp
$(XO)/tests/test_unwind $(XO)/tests/test_annotate_cross: X_LDLIBS := $(X_ALL_LDLIBS)

$(XO)/obj/lib/%.o $(XO)/obj/gen/%.o: BASEFLAGS += $(LIB_VISFLAGS)

$(XO)/obj/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,XCC,$<)
	$(Q)$(CROSS)gcc $(BASEFLAGS) $(CFLAGS) -c $< -o $@

# The generated tables are plain C: the native eventc's output, cross-compiled.
$(XO)/pmu-events.o: $(O)/pmu-events.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,XCC,$<)
	$(Q)$(CROSS)gcc $(TABLES_CFLAGS) -c $< -o $@

$(XO)/libpmukit.a: $(X_LIB_OBJS) $(XO)/pmu-events.o
	$(call msg,XAR,$@)
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

$(XO)/tests/%: tests/unit/%.c $(XO)/libpmukit.a
	$(Q)mkdir -p $(dir $@)
	$(call msg,XTEST-CC,$<)
	$(Q)$(CROSS)gcc $(BASEFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(XO)/libpmukit.a $(X_LDLIBS) -lcmocka

$(XO)/examples/%: examples/%.c $(XO)/libpmukit.a
	$(Q)mkdir -p $(dir $@)
	$(call msg,XCC,$<)
	$(Q)$(CROSS)gcc $(BASEFLAGS) $(CFLAGS) -o $@ $< $(XO)/libpmukit.a $(X_LDLIBS)

# The library's threads (the reader's read-ahead, the session's workers, the kallsyms
# reader) under ThreadSanitizer: the unit tests that run them, and report/script/diff/
# export on a recording (scripts/check-threads.sh). Any report fails it.
TSAN_TESTS := test_data_read_corrupt test_data_read_order test_symbol test_session test_report_threads
check-threads: deps
	$(Q)$(MAKE) --no-print-directory SANITIZE=thread $(addprefix build/tsan/tests/,$(TSAN_TESTS)) \
		build/tsan/pmukit build/tsan/tests/workloads/report_many
	$(call msg,RUN,$(words $(TSAN_TESTS)) unit test files and the CLI under ThreadSanitizer)
	$(Q)TSAN_OPTIONS="halt_on_error=1 exitcode=66" PMUKIT_SRC=$(CURDIR) CMOCKA_MESSAGE_OUTPUT=TAP \
		prove --exec '' $(addprefix build/tsan/tests/,$(TSAN_TESTS)) scripts/check-threads.sh

# qemu-aarch64 without -L: the arm64 libc comes with the multiarch libraries
# (with -L /usr/aarch64-linux-gnu, qemu 7.2 hangs in the tests' pthread_create).
check-cross:
	$(Q)PMUKIT_EXTRA_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libcmocka-dev:arm64 libjson-c-dev:arm64 libzstd-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 libtraceevent-dev:arm64 libprotobuf-c-dev:arm64 libiberty-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64 libbz2-dev:arm64" sh scripts/deps.sh
	$(Q)$(MAKE) --no-print-directory SANITIZE= $(O)/pmu-events.c
	$(Q)$(MAKE) --no-print-directory SANITIZE= $(X_TESTS) $(X_EXAMPLES)
	$(call msg,RUN,$(words $(X_TESTS)) aarch64 unit test files under $(QEMU))
	$(Q)PMUKIT_SRC=$(CURDIR) PMUKIT_STRESS_READS=1000000 CMOCKA_MESSAGE_OUTPUT=TAP \
		OBJDUMP=$(CROSS)objdump prove --exec '$(QEMU)' $(X_TESTS)

-include $(shell find $(XO)/obj -name '*.d' 2>/dev/null)

# --- benchmarks ---------------------------------------------------------------
$(O)/bench/%: bench/%.c $(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,BENCH-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -o $@ $< $(LIBINT) $(LDFLAGS) $(LDLIBS)

# the yardstick bench/stat.c compares start-up with, static like the CLI
$(O)/bench/stat_floor: bench/support/stat_floor.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,BENCH-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $(CLI_LDFLAGS)

bench: all $(BENCH_BINS) $(O)/bench/stat_floor $(O)/tests/test_count
	$(Q)PMUKIT_BUILD=$(abspath $(O)) PMUKIT_SRC=$(CURDIR) PMU_EVENTS_DIR=$(abspath $(PMU_EVENTS_DIR)) \
		sh bench/run.sh $(BENCH_BINS)

# --- fuzzing (clang libFuzzer) ----------------------------------------------------
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz_*.c))
fuzz:
	$(Q)command -v clang >/dev/null || PMUKIT_EXTRA_PKGS="clang" sh scripts/deps.sh
	$(Q)$(MAKE) --no-print-directory O=build/fuzz CC=clang \
		SANFLAGS="-fsanitize=fuzzer-no-link,address,undefined" build/fuzz/libpmukit-int.a
	$(Q)mkdir -p build/fuzz/bin
	$(Q)for f in $(FUZZ_SRCS); do n=$$(basename $$f .c); echo "  FUZZ-CC $$f"; \
		clang -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -Ilib -fsanitize=fuzzer,address,undefined \
		-o build/fuzz/bin/$$n $$f build/fuzz/libpmukit-int.a $(LDLIBS) || exit 1; done

# CI's short run: every target builds with clang and runs 20 s from its seeds
fuzz-smoke: fuzz
	$(Q)for f in build/fuzz/bin/*; do n=$$(basename $$f); echo "  FUZZ    $$n (20 s)"; \
		rm -rf build/fuzz/corpus-$$n && mkdir -p build/fuzz/corpus-$$n && \
		seeds=; [ $$n = fuzz_counts_file ] && seeds=tests/fixtures/counts; \
		[ $$n = fuzz_session ] && seeds=fuzz/corpus/session; \
		[ $$n = fuzz_symbol_text ] && seeds=fuzz/corpus/symbol_text; \
		[ $$n = fuzz_data_read ] && $(MAKE) --no-print-directory build/fuzz/seeds-data_read && \
			seeds=build/fuzz/seeds-data_read; \
		$$f -max_total_time=20 -print_final_stats=1 build/fuzz/corpus-$$n $$seeds \
			> build/fuzz/$$n.log 2>&1 || { tail -30 build/fuzz/$$n.log; exit 1; }; \
		grep -E "stat::number_of_executed_units" build/fuzz/$$n.log; done

# --- make analyze: cppcheck and clang's scan-build; a finding of either fails -------------
# A false positive is said so next to the code: `/* cppcheck-suppress id ; why */`, and for
# scan-build code it can follow (or, rarely, an assert). cppcheck reads all the C code, with
# cmocka's never-returning calls declared (tests/unit/cppcheck-cmocka.cfg). scan-build
# analyzes a build of its own (build/scan, rebuilt each time: it sees only what gets
# compiled) of the library, the CLI, eventc, the examples and the benchmarks, at -O0 (the
# analysis does not depend on it); not the tests, whose cmocka assertions return to the
# analyzer on failure. Its generated sources (build/scan) are not ours to fix. The HTML
# reports stay in build/scan/report.
CPPCHECK_FLAGS := --enable=warning,performance,portability --std=c11 -D_GNU_SOURCE \
	-Iinclude -Ilib -Itests/unit --library=tests/unit/cppcheck-cmocka.cfg \
	--error-exitcode=1 --inline-suppr --quiet -j2 \
	--template='{file}:{line}: {severity} [{id}] {message}'
SCAN_O := build/scan
SCAN_TARGETS := all $(EXAMPLE_SRCS:examples/%.c=$(SCAN_O)/examples/%) \
	$(BENCH_SRCS:bench/%.c=$(SCAN_O)/bench/%)
analyze:
	@PMUKIT_EXTRA_PKGS="cppcheck clang-tools-14" sh scripts/deps.sh
	@echo "  CPPCHECK lib src tools tests bench fuzz examples"
	@cppcheck $(CPPCHECK_FLAGS) lib src tools tests bench fuzz examples
	@$(MAKE) --no-print-directory data
	@rm -rf $(SCAN_O)
	@echo "  SCAN-BUILD $(SCAN_O): the library, the CLI, eventc, examples, benchmarks"
	@scan-build-14 -o $(SCAN_O)/report --status-bugs --exclude $(SCAN_O) \
		$(MAKE) --no-print-directory O=$(SCAN_O) SANITIZE= OPT=-O0 $(SCAN_TARGETS)

clean:
	rm -rf $(O)

-include $(shell find $(O)/obj -name '*.d' 2>/dev/null)

# --- perf.data writer: the synthetic-file tool of tests/integration/data_write*.sh ------
$(O)/tests/data_gen: tests/oracle/data_gen.c $(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,TEST-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -fno-inline -o $@ $< $(LIBINT) $(LDFLAGS) $(LDLIBS)

tests: $(O)/tests/data_gen

# --- make check-arm64: pmukit against perf 6.1 on an emulated arm64 PMU -------------------
# qemu-system-aarch64 (TCG, -icount) boots Debian's arm64 cloud kernel with an initramfs of
# busybox, Debian's arm64 perf and the aarch64 builds below; tests/arm64/guest.sh compares
# them inside (scripts/arm64/run.sh boots non-VHE, VHE and a Cortex-A72).
A64        ?= build/arm64
X_CLI_OBJS := $(CLI_SRCS:%.c=$(XO)/obj/%.o)
# the workloads (no C library) and a program of the shared library
X_WORKLOADS := $(XO)/arm64/loop $(XO)/arm64/sysloop
X_GUEST_PROGS := $(X_WORKLOADS) $(XO)/arm64/selfmon_agree

$(XO)/pmukit: $(X_CLI_OBJS) $(XO)/libpmukit.a
	$(call msg,XLD,$@)
	$(Q)$(CROSS)gcc -static -o $@ $(X_CLI_OBJS) $(XO)/libpmukit.a $(X_ALL_LDLIBS) $(CLI_LDLIBS)

# the same soname, version script and links as the native library
$(XO)/$(SOFILE): $(X_LIB_OBJS) $(XO)/pmu-events.o $(LIB_MAP)
	$(call msg,XLD,$@)
	$(Q)$(CROSS)gcc $(SO_LDFLAGS) -o $@ $(filter %.o,$^) $(X_ALL_LDLIBS)

$(XO)/$(SONAME): $(XO)/$(SOFILE)
	$(Q)ln -sf $(SOFILE) $@

$(XO)/libpmukit.so: $(XO)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

$(X_WORKLOADS): $(XO)/arm64/%: tests/arm64/%.c tests/arm64/workload.h
	$(Q)mkdir -p $(dir $@)
	$(call msg,XCC,$<)
	$(Q)$(CROSS)gcc -std=c11 $(WARN) -O1 -static -nostdlib -ffreestanding -fno-stack-protector -o $@ $<

$(XO)/arm64/selfmon_agree: tests/arm64/selfmon_agree.c $(XO)/libpmukit.so
	$(Q)mkdir -p $(dir $@)
	$(call msg,XCC,$<)
	$(Q)$(CROSS)gcc $(BASEFLAGS) $(CFLAGS) -o $@ $< -L$(XO) -lpmukit $(X_LDLIBS)

check-arm64:
	$(Q)PMUKIT_EXTRA_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm cpio libcmocka-dev:arm64 libjson-c-dev:arm64 libzstd-dev:arm64 libelf-dev:arm64 libdw-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64 libbz2-dev:arm64 libiberty-dev:arm64 libprotobuf-c-dev:arm64 libtraceevent-dev:arm64 libncurses-dev:arm64" sh scripts/deps.sh
	$(Q)$(MAKE) --no-print-directory SANITIZE= $(O)/pmu-events.c
	$(Q)$(MAKE) --no-print-directory SANITIZE= $(XO)/pmukit $(XO)/libpmukit.so $(X_TESTS) $(X_EXAMPLES) $(X_GUEST_PROGS)
	$(Q)sh scripts/arm64/fetch.sh $(A64)
	$(Q)sh scripts/arm64/run.sh $(A64) $(XO)

# --- symbolizer: the command-line driver the symbol integration tests compare with perf/addr2line
$(O)/tests/symq: tests/fixtures/symbol/symq.c $(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,TEST-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -o $@ $< $(LIBINT) $(LDFLAGS) $(LDLIBS)

tests: $(O)/tests/symq

# --- lib/export: generated sources (in $(O)/gen, never committed) ----------------------
# pprof's profile.proto through protoc-c, and the flame graph page's style and script as C
# strings; their objects go into libpmukit.{a,so} with the rest of the library.
EXPORT_GEN      := $(O)/gen/export
EXPORT_GEN_OBJS := $(O)/obj/gen/export/profile.pb-c.o $(O)/obj/gen/export/flame_assets.o

$(EXPORT_GEN)/profile.pb-c.c: lib/export/profile.proto
	$(Q)mkdir -p $(EXPORT_GEN)
	$(call msg,PROTOC,$<)
	$(Q)protoc-c --c_out=$(EXPORT_GEN) -Ilib/export $<
$(EXPORT_GEN)/profile.pb-c.h: $(EXPORT_GEN)/profile.pb-c.c ;

$(EXPORT_GEN)/flame_assets.c: lib/export/flamegraph.css lib/export/flamegraph.js lib/export/embed.awk
	$(Q)mkdir -p $(EXPORT_GEN)
	$(call msg,EMBED,$@)
	$(Q)awk -f lib/export/embed.awk lib/export/flamegraph.css lib/export/flamegraph.js > $@.tmp && mv $@.tmp $@

$(O)/obj/gen/export/%.o: $(EXPORT_GEN)/%.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -I$(EXPORT_GEN) -c $< -o $@

# pprof.c includes the generated header (native and aarch64 objects alike)
$(O)/obj/lib/export/pprof.o $(XO)/obj/lib/export/pprof.o: $(EXPORT_GEN)/profile.pb-c.h
$(O)/obj/lib/export/pprof.o $(XO)/obj/lib/export/pprof.o: BASEFLAGS += -I$(EXPORT_GEN)

$(O)/libpmukit.a $(LIBINT) $(O)/$(SOFILE): $(EXPORT_GEN_OBJS)

# the pprof test decodes what it wrote with the same generated code
$(O)/tests/test_export_pprof: $(EXPORT_GEN)/profile.pb-c.h
$(O)/tests/test_export_pprof: BASEFLAGS += -I$(EXPORT_GEN)

# --- perf.data reader: the dump tool of tests/integration/data_read.sh, fuzz seeds ---------
# The perf.data reader's dump tool (tests/integration/data_read*.sh).
$(O)/tests/data_dump: tests/oracle/data_dump.c $(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,TEST-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -o $@ $< $(LIBINT) $(LDFLAGS) $(LDLIBS)

# Seeds for fuzz_data_read, recorded at fuzz time with perf (none without it); the first
# byte of a seed picks how the target reads it (0: mapped file, 1: pipe).
build/fuzz/seeds-data_read:
	$(Q)mkdir -p $@.tmp
	$(Q)-cd $@.tmp && for a in "-e cpu-clock" "-e cpu-clock -g" "-z -e cpu-clock -g" \
		"-e sched:sched_switch -a" "-e {task-clock,page-faults}:S"; do \
		n=$$(echo "$$a" | tr -c 'a-z0-9' _); \
		perf record -q -F 5000 $$a -o $$n.data -- ls / >/dev/null 2>&1 && \
		{ printf '\000'; cat $$n.data; } > seed-$$n && rm -f $$n.data; \
		perf record -q -F 5000 $$a -o - -- ls / 2>/dev/null | head -c 60000 > $$n.pipe && \
		{ printf '\001'; cat $$n.pipe; } > seed-pipe-$$n; rm -f $$n.pipe; done; true
	$(Q)mv $@.tmp $@

# --- deterministic workloads for the sampling tests (frame pointers, not inlined) ---------
WORKLOAD_SRCS := $(sort $(wildcard tests/workloads/*.c))
WORKLOAD_BINS := $(WORKLOAD_SRCS:tests/workloads/%.c=$(O)/workloads/%)
$(O)/workloads/%: tests/workloads/%.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,WORKLOAD,$<)
	$(Q)$(CC) -std=c11 -O1 -g -fno-omit-frame-pointer -fno-inline -fno-optimize-sibling-calls -o $@ $<
tests: $(WORKLOAD_BINS)

# the yardstick bench/record.c compares record's start-up with, static like the CLI
$(O)/bench/record_floor: bench/support/record_floor.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,BENCH-CC,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $(CLI_LDFLAGS)
bench: $(O)/bench/record_floor $(WORKLOAD_BINS)

# --- check-arm64: the generated export sources (above) in the aarch64 library too --------
X_EXPORT_GEN_OBJS := $(XO)/obj/gen/export/profile.pb-c.o $(XO)/obj/gen/export/flame_assets.o

$(XO)/obj/gen/export/%.o: $(EXPORT_GEN)/%.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,XCC,$<)
	$(Q)$(CROSS)gcc $(BASEFLAGS) $(CFLAGS) -I$(EXPORT_GEN) -c $< -o $@

$(XO)/libpmukit.a $(XO)/$(SOFILE): $(X_EXPORT_GEN_OBJS)


# --- report/diff: a workload with many functions (tests/integration/report*.sh, bench/report.c)
# Frame pointers and -g, so callchains and srclines are full; never sanitized (it is profiled,
# not tested).
$(O)/tests/workloads/report_many: tests/workloads/report_many.c
	$(Q)mkdir -p $(dir $@)
	$(call msg,WORKLOAD,$<)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
		-fno-inline-functions -fno-optimize-sibling-calls $(WARN) -pthread -o $@ $<
tests: $(O)/tests/workloads/report_many

# perf.data files this machine cannot record (weights, TopDown groups): tests/integration/report_values.sh
$(O)/tests/workloads/report_mkdata: tests/workloads/report_mkdata.c tests/workloads/report_mkdata_old.h \
		tests/workloads/report_mkdata_foreign.h tests/workloads/report_mkdata_annotate.h \
		tests/workloads/report_mkdata_chain.h \
		$(LIBINT)
	$(Q)mkdir -p $(dir $@)
	$(call msg,WORKLOAD,$<)
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS) -DPMUKIT_MKDATA -O0 -o $@ $< $(LIBINT) $(LDFLAGS) $(LDLIBS)
tests: $(O)/tests/workloads/report_mkdata
# bench/report.c profiles the report workload
bench: $(O)/tests/workloads/report_many
