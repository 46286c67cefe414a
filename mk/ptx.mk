# mk/ptx.mk — the PTX front end and compiler pass (ptx/): the library libgaptx.a, its tests and its
# fuzzer. Included by the top Makefile and run from the repository root; every path is relative to it.
#
# ptx/*.c except the tool ptx/gaptx.c build into $(BUILD)/<rel|san>/libgaptx.a (plain -O3 -flto and
# ASan/UBSan, like the model) and, for the fuzzer, into $(BUILD)/fuzz/ptxobj/ with libFuzzer's
# instrumentation. Programs that use it add -Iptx and link the library.

PTX_LIB_SRC := $(sort $(filter-out ptx/gaptx.c,$(wildcard ptx/*.c)))
PTX_H       := $(wildcard ptx/*.h)

# ---------------------------------------------------------------------------------------------------
# The library, plain and sanitized.
define ptx_build
$(BUILD)/$(1)/ptx/%.o: ptx/%.c $(PTX_H) | $(BUILD)/$(1)/ptx
	$$(CC) $$(CFLAGS_BASE) -Iptx $(2) -c $$< -o $$@
$(BUILD)/$(1)/ptx:
	mkdir -p $$@
$(BUILD)/$(1)/libgaptx.a: $(patsubst ptx/%.c,$(BUILD)/$(1)/ptx/%.o,$(PTX_LIB_SRC))
	rm -f $$@ && ar rcs $$@ $$^
endef
$(eval $(call ptx_build,rel,$(OPT)))
$(eval $(call ptx_build,san,-O1 -g $(SAN)))

# ---------------------------------------------------------------------------------------------------
# Tests: tests/test_ptx_parse.c (compiled by the top Makefile's rule, with -Iptx) links libgaptx.a.
# It reads its fixtures from tests/ptx/ relative to the current directory (the repository root) and
# compiles tests/ptx/src/*.cu with nvcc at test time when nvcc is on the PATH.
PTX_TESTS := test_ptx_parse

define ptx_test_build
$(foreach t,$(PTX_TESTS),$(BUILD)/$(1)/tests/$(t).o): CFLAGS_BASE += -Iptx
$(foreach t,$(PTX_TESTS),$(BUILD)/$(1)/tests/$(t).o): $(PTX_H)
$(foreach t,$(PTX_TESTS),$(BUILD)/$(1)/tests/$(t)): $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o $(BUILD)/$(1)/libgaptx.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) -lm -o $$@
endef
$(eval $(call ptx_test_build,rel,$(OPT)))
$(eval $(call ptx_test_build,san,-O1 -g $(SAN)))

##@ PTX front end (ptx/)
.PHONY: ptx test-ptx fuzz-ptx fuzz-ptx-smoke

ptx: $(BUILD)/rel/libgaptx.a $(BUILD)/san/libgaptx.a ## Build the PTX library libgaptx.a (plain and ASan/UBSan)

test-ptx: $(foreach t,$(PTX_TESTS),$(BUILD)/rel/tests/$(t) $(BUILD)/san/tests/$(t)) ## PTX parser/printer tests, plain and under ASan/UBSan (nvcc/ptxas cases skip without them)
	@bash scripts/run_tests.sh $(foreach t,$(PTX_TESTS),$(BUILD)/rel/tests/$(t))
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run_tests.sh $(foreach t,$(PTX_TESTS),$(BUILD)/san/tests/$(t))

# ---------------------------------------------------------------------------------------------------
# The fuzzer (libFuzzer + ASan/UBSan; FUZZ_CC, FUZZ_FLAGS, FUZZ_SECONDS, FUZZ_JOBS and fuzz-deps come
# from mk/sim.mk): parse arbitrary bytes; whatever parses must print, parse again and print the same.
# mk/*.mk are read in name order, so this file is read before mk/sim.mk: target names use
# PTX_FUZZ_DIR (the same directory as sim.mk's FUZZ_DIR), recipes may use sim.mk's variables.
PTX_FUZZ_DIR := $(BUILD)/fuzz
PTX_FUZZ_SMOKE_SECONDS ?= 15
PTX_FUZZ_MAX_LEN ?= 16384

$(PTX_FUZZ_DIR)/ptxobj/%.o: ptx/%.c $(PTX_H) | $(PTX_FUZZ_DIR)/ptxobj
	$(FUZZ_CC) $(CFLAGS_BASE) -Iptx $(FUZZ_FLAGS) -c $< -o $@
$(PTX_FUZZ_DIR)/ptxobj:
	mkdir -p $@
$(PTX_FUZZ_DIR)/fuzz_ptx.o: CFLAGS_BASE += -Iptx
$(PTX_FUZZ_DIR)/fuzz_ptx.o: $(PTX_H)
$(PTX_FUZZ_DIR)/fuzz_ptx: $(PTX_FUZZ_DIR)/fuzz_ptx.o $(patsubst ptx/%.c,$(PTX_FUZZ_DIR)/ptxobj/%.o,$(PTX_LIB_SRC))
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $^ -lm -o $@

fuzz-ptx: fuzz-deps $(PTX_FUZZ_DIR)/fuzz_ptx ## Fuzz the PTX parser + printer round trip for FUZZ_SECONDS (default 60)
	@FUZZ_MAX_LEN=$(PTX_FUZZ_MAX_LEN) bash tests/fuzz/run_fuzz.sh $(PTX_FUZZ_DIR)/fuzz_ptx tests/fuzz/corpus-ptx \
	  $(PTX_FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_JOBS)

fuzz-ptx-smoke: fuzz-deps $(PTX_FUZZ_DIR)/fuzz_ptx ## A short PTX fuzz run for CI (PTX_FUZZ_SMOKE_SECONDS, default 15)
	@FUZZ_MAX_LEN=$(PTX_FUZZ_MAX_LEN) bash tests/fuzz/run_fuzz.sh $(PTX_FUZZ_DIR)/fuzz_ptx tests/fuzz/corpus-ptx \
	  $(PTX_FUZZ_DIR) $(PTX_FUZZ_SMOKE_SECONDS) 1

# ===================================================================================================
# The compiler pass (docs/compiler.md): the tool gaptx, the root-analysis and instrumentation tests,
# the CLI checks and the corpus check. This section belongs to the compiler pass; the rest of this
# file to the front end.
#
#   $(BUILD)/<rel|san>/ptx/gaptx             ptx/gaptx.c + libgaptx.a
#   $(BUILD)/<rel|san>/tests/test_ptx_root   reaching definitions + root analysis vs tests/ptx/roots/
#   $(BUILD)/<rel|san>/tests/test_ptx_instr  instrumentation, strip equivalence, ptxas acceptance
# The tests read tests/ptx/roots/ relative to the repository root (make runs them from there).
GAPTX_TESTS := test_ptx_root test_ptx_instr
GAPTX_CORPUS_EXPECT := tests/ptx/roots/corpus_expect.tsv

define gaptx_build
$(BUILD)/$(1)/ptx/gaptx: $(BUILD)/$(1)/ptx/gaptx.o $(BUILD)/$(1)/libgaptx.a
	$$(CC) $(2) $$^ -lm -o $$@
$(foreach t,$(GAPTX_TESTS),$(BUILD)/$(1)/tests/$(t).o): CFLAGS_BASE += -Iptx
$(foreach t,$(GAPTX_TESTS),$(BUILD)/$(1)/tests/$(t).o): $(PTX_H) tests/ptx_fixture.h
$(foreach t,$(GAPTX_TESTS),$(BUILD)/$(1)/tests/$(t)): $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o $(BUILD)/$(1)/libgaptx.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) -lm -o $$@
endef
$(eval $(call gaptx_build,rel,$(OPT)))
$(eval $(call gaptx_build,san,-O1 -g $(SAN)))

##@ Compiler pass (docs/compiler.md)
.PHONY: gaptx test-gaptx test-ptx-corpus

gaptx: $(BUILD)/rel/ptx/gaptx ## Build gaptx: report, instrument, strip, cfg on PTX (build/rel/ptx/gaptx --help)

test-gaptx: $(foreach t,$(GAPTX_TESTS),$(BUILD)/rel/tests/$(t) $(BUILD)/san/tests/$(t)) $(BUILD)/rel/ptx/gaptx $(BUILD)/san/ptx/gaptx ## Root analysis + instrumentation tests (plain, ASan/UBSan; ptxas cases skip without it), gaptx CLI checks
	@bash scripts/run_tests.sh $(foreach t,$(GAPTX_TESTS),$(BUILD)/rel/tests/$(t))
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run_tests.sh $(foreach t,$(GAPTX_TESTS),$(BUILD)/san/tests/$(t))
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash tests/ptx/roots/cli.sh $(BUILD)/san/ptx/gaptx $(BUILD)/tmp/gaptx-cli

# The corpus (mk/apps.mk builds its PTX with nvcc): every program analysed with its counts checked
# against $(GAPTX_CORPUS_EXPECT), instrumented, assembled by ptxas, stripped back to the input.
# update-ptx-corpus rewrites the expectations from the measured counts (after a change to the corpus,
# to nvcc or to the pass: review `git diff` of the file, and docs/compiler.md §7 from the table it
# leaves in $(BUILD)/tmp/gaptx-corpus/table.md).
.PHONY: update-ptx-corpus
ifeq ($(APPS_HAVE_NVCC),)
test-ptx-corpus: ## Every corpus program: counts vs tests/ptx/roots/corpus_expect.tsv, ptxas, strip equivalence (needs nvcc)
	@echo "test-ptx-corpus: SKIPPED: nvcc is not on the PATH, so the corpus PTX cannot be built (mk/apps.mk)"
update-ptx-corpus: ## Rewrite tests/ptx/roots/corpus_expect.tsv from the current corpus (review the diff)
	@echo "update-ptx-corpus: nvcc is not on the PATH, so the corpus PTX cannot be built (mk/apps.mk)"; exit 1
else
test-ptx-corpus: $(BUILD)/rel/ptx/gaptx $(APPS_PTX) $(GAPTX_CORPUS_EXPECT)
	@bash tests/ptx/roots/corpus.sh $(BUILD)/rel/ptx/gaptx $(GAPTX_CORPUS_EXPECT) $(BUILD)/tmp/gaptx-corpus $(APPS_PTX)
update-ptx-corpus: $(BUILD)/rel/ptx/gaptx $(APPS_PTX)
	@bash tests/ptx/roots/corpus.sh --update $(BUILD)/rel/ptx/gaptx $(GAPTX_CORPUS_EXPECT) $(BUILD)/tmp/gaptx-corpus $(APPS_PTX)
endif
