# mk/sim.mk — the trace library (sim/trace/), the trace tools (gasim, gaconv), their tests and the
# fuzzer. Included by the top Makefile and run from the repository root; every path is relative to it.
#
# sim/trace/*.c build into $(BUILD)/<rel|san>/libgatrace.a (plain and ASan/UBSan, like the model). It
# reads gzip through zlib (Debian zlib1g-dev, in scripts/deps.sh), so whatever links it adds -lz.
# Programs that use it include "trace/ga_trace.h" etc. (sim/ is on the include path of sim/*.c) or get
# -Isim as below. docs/traces.md documents the format, the replay and the tools.

GATRACE_SRC   := $(sort $(wildcard sim/trace/*.c))
GATRACE_H     := $(wildcard sim/trace/*.h cmodel/*.h)
GATRACE_TOOLS := gasim gaconv garun
GATRACE_LIBS  := -lz -lm

define gatrace_build
$(BUILD)/$(1)/gatrace/%.o: sim/trace/%.c $(GATRACE_H) | $(BUILD)/$(1)/gatrace
	$$(CC) $$(CFLAGS_BASE) -Isim/trace $(2) -c $$< -o $$@
$(BUILD)/$(1)/gatrace:
	mkdir -p $$@
$(BUILD)/$(1)/libgatrace.a: $(patsubst sim/trace/%.c,$(BUILD)/$(1)/gatrace/%.o,$(GATRACE_SRC))
	rm -f $$@ && ar rcs $$@ $$^
# The tools: sim/<tool>.c (compiled by the top Makefile's rule) + the trace library + the model.
$(foreach t,$(GATRACE_TOOLS),$(BUILD)/$(1)/sim/$(t).o): $(GATRACE_H)
$(foreach t,$(GATRACE_TOOLS),$(BUILD)/$(1)/sim/$(t)): $(BUILD)/$(1)/sim/%: $(BUILD)/$(1)/sim/%.o $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ $(GATRACE_LIBS) -o $$@
# The trace tests link the trace library too.
$(BUILD)/$(1)/tests/test_trace.o $(BUILD)/$(1)/tests/test_accelsim.o: CFLAGS_BASE += -Isim
$(BUILD)/$(1)/tests/test_trace.o $(BUILD)/$(1)/tests/test_accelsim.o: $(GATRACE_H)
$(BUILD)/$(1)/tests/test_trace $(BUILD)/$(1)/tests/test_accelsim: $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_COMMON)) $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) $(GATRACE_LIBS) -o $$@
endef
$(eval $(call gatrace_build,rel,$(OPT)))
$(eval $(call gatrace_build,san,-O1 -g $(SAN)))

# ---------------------------------------------------------------------------------------------------
# The fuzzer: clang's libFuzzer with ASan + UBSan (Debian: clang, libclang-rt-14-dev). The model and
# the trace library are compiled again with the fuzzer's instrumentation into $(BUILD)/fuzz/, through
# ccache as the other C builds are (the Makefile's CC).
FUZZ_CC       ?= $(call ccache_or,clang)
FUZZ_SECONDS  ?= 60
FUZZ_SMOKE_SECONDS ?= 25
FUZZ_JOBS     ?= 1
FUZZ_FLAGS    := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_DIR      := $(BUILD)/fuzz
FUZZ_TARGETS  := fuzz_trace fuzz_accelsim
# seed corpora (read only): fuzz_trace -> tests/fuzz/corpus, fuzz_accelsim -> tests/fuzz/corpus-accelsim
fuzz_seeds_fuzz_trace    := tests/fuzz/corpus
fuzz_seeds_fuzz_accelsim := tests/fuzz/corpus-accelsim

$(FUZZ_DIR)/obj/%.o: cmodel/%.c $(wildcard cmodel/*.h) | $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(CFLAGS_BASE) $(FUZZ_FLAGS) -c $< -o $@
$(FUZZ_DIR)/tobj/%.o: sim/trace/%.c $(GATRACE_H) | $(FUZZ_DIR)/tobj
	$(FUZZ_CC) $(CFLAGS_BASE) -Isim/trace $(FUZZ_FLAGS) -c $< -o $@
$(FUZZ_DIR)/%.o: tests/fuzz/%.c $(GATRACE_H) | $(FUZZ_DIR)
	$(FUZZ_CC) $(CFLAGS_BASE) -Isim $(FUZZ_FLAGS) -c $< -o $@
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/fuzz_%.o $(patsubst sim/trace/%.c,$(FUZZ_DIR)/tobj/%.o,$(GATRACE_SRC)) \
                    $(patsubst cmodel/%.c,$(FUZZ_DIR)/obj/%.o,$(MODEL_SRC))
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $^ $(GATRACE_LIBS) -o $@
$(FUZZ_DIR) $(FUZZ_DIR)/obj $(FUZZ_DIR)/tobj:
	mkdir -p $@

# ---------------------------------------------------------------------------------------------------
##@ Traces (docs/traces.md)
.PHONY: gasim replay test-traces fuzz fuzz-smoke fuzz-deps

gasim: $(BUILD)/rel/sim/gasim $(BUILD)/rel/sim/gaconv ## Build the trace tools gasim (replay) and gaconv (convert)

TRACE ?= sim/traces/basic.gatrace
REPLAY_ARGS ?=
# Both modes run with the same REPLAY_ARGS, so an output file named there would be written twice, the
# HWOnly report over the compiler-mode one: such a name must hold gasim's %m (the mode) or be '-'.
replay: $(BUILD)/rel/sim/gasim ## Replay TRACE=file (default sim/traces/basic.gatrace) in both modes; REPLAY_ARGS=... (output names need %m)
	@set -- $(REPLAY_ARGS); while [ $$# -gt 0 ]; do \
	  case "$$1" in --json|--csv|--log-file|--wave-file) f=$${2:-}; [ $$# -gt 1 ] && shift;; \
	    --json=*|--csv=*|--log-file=*|--wave-file=*) f=$${1#*=};; *) f=;; esac; \
	  case "$$f" in ""|-|*%m*) ;; *) echo "make replay: REPLAY_ARGS writes $$f in both modes, so the HWOnly report would" \
	    "overwrite the compiler-mode one: put %m (the mode) in the name, e.g. REPLAY_ARGS='--json report-%m.json'" \
	    "writes report-compiler.json and report-hwonly.json"; exit 2;; esac; shift; done
	@for m in compiler hwonly; do $(BUILD)/rel/sim/gasim --trace $(TRACE) --mode $$m $(REPLAY_ARGS) || exit $$?; echo; done

test-traces: $(BUILD)/rel/tests/test_trace $(BUILD)/san/tests/test_trace $(BUILD)/rel/tests/test_accelsim $(BUILD)/san/tests/test_accelsim $(BUILD)/rel/sim/gasim $(BUILD)/rel/sim/gaconv ## Trace parser, replay, importer and gasim tests (plain and ASan/UBSan)
	@bash scripts/run_tests.sh $(BUILD)/rel/tests/test_trace $(BUILD)/rel/tests/test_accelsim
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run_tests.sh $(BUILD)/san/tests/test_trace $(BUILD)/san/tests/test_accelsim

# The libFuzzer runtime ships in Debian's libclang-rt-14-dev: probe that a fuzzer links before building.
fuzz-deps:
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: $(FUZZ_CC) not found: run 'make deps'"; exit 1; }
	@mkdir -p $(FUZZ_DIR)
	@printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	  > $(FUZZ_DIR)/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $(FUZZ_DIR)/probe.c -o $(FUZZ_DIR)/probe 2>$(FUZZ_DIR)/probe.log || \
	  { cat $(FUZZ_DIR)/probe.log; echo "fuzz: $(FUZZ_CC) cannot link a libFuzzer target: the runtime is missing (Debian: libclang-rt-14-dev; run 'make deps')"; exit 1; }

fuzz: fuzz-deps $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS)) ## Fuzz parser + replay, then the Accel-Sim importer, FUZZ_SECONDS each (default 60)
	@rc=0; $(foreach t,$(FUZZ_TARGETS),bash tests/fuzz/run_fuzz.sh $(FUZZ_DIR)/$(t) $(fuzz_seeds_$(t)) \
	  $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_JOBS) || rc=1;) exit $$rc

fuzz-smoke: fuzz-deps $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS)) ## A short fuzz run for CI: FUZZ_SMOKE_SECONDS (default 25) split over both targets
	@rc=0; \
	bash tests/fuzz/run_fuzz.sh $(FUZZ_DIR)/fuzz_trace $(fuzz_seeds_fuzz_trace) $(FUZZ_DIR) $$(( $(FUZZ_SMOKE_SECONDS) * 3 / 5 )) 1 || rc=1; \
	bash tests/fuzz/run_fuzz.sh $(FUZZ_DIR)/fuzz_accelsim $(fuzz_seeds_fuzz_accelsim) $(FUZZ_DIR) $$(( $(FUZZ_SMOKE_SECONDS) * 2 / 5 )) 1 || rc=1; \
	exit $$rc
