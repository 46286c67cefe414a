# GPUArmor — the front door. `make help` lists every target; README.md says what each part is.
#
# Layout: cmodel/ (C11 golden model + runtime), tests/ (Check unit tests), sim/ (tools: garun, gabench,
# the trace tools gasim / gaconv and their library sim/trace/, the workloads and gaeval), rtl/
# (SystemVerilog), tb/ (Verilator co-simulation), fpga/ and constraints/ (the iCE40 prototype and its
# host tool gaprobe), scripts/ (deps, plots, doc checks, formal jobs), docs/ (specification, results).
# Build outputs go to build/ (build/rel optimised, build/san ASan + UBSan); area-specific targets live
# in mk/*.mk.

SHELL := /bin/bash
.DEFAULT_GOAL := help

BUILD   ?= build
# C and C++ compile through ccache (make deps installs it; Debian's /usr/lib/ccache holds the compiler
# names linked to it) unless CC or CXX is given: a clean clone on a machine that built the same sources
# before (CI after a developer's run) compiles from the cache. The cache is keyed on the sources and
# flags, not on the clone's directory (CCACHE_BASEDIR, CCACHE_NOHASHDIR: objects' debug information
# then names the directory of the clone that first compiled them). The Verilated models use ccache
# through Verilator's OBJCACHE (mk/tb.mk).
# $(call ccache_or,NAME): ccache's NAME where Debian's ccache package installed it, else NAME itself.
ccache_or = $(if $(wildcard /usr/lib/ccache/$(1)),/usr/lib/ccache/$(1),$(1))
ifeq ($(origin CC),default)
CC      := $(call ccache_or,cc)
endif
ifeq ($(origin CXX),default)
CXX     := $(call ccache_or,c++)
endif
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
# Warnings are errors (developers' brief).
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L
# The optimised build's objects carry both LTO bytecode and machine code (-ffat-lto-objects): the tools
# (gasim, garun, gaeval, gaptx, ...) link with LTO; the unit-test binaries link the machine code
# without it (TEST_LINK_rel), since an LTO link of the interpreter alone took 34 s of CPU and the 25
# test binaries' links 177 s of test-model's (measured 2026-11-28, one at a time on the 2-core
# machine). The LTO code is exercised by every step that runs the tools (test-run, test-docs,
# eval-smoke, test-sw); the sanitized build (-O1, no LTO) links its tests as before.
OPT     ?= -O3 -g -flto -ffat-lto-objects
TEST_LINK_rel := -fno-lto
CFLAGS_BASE := $(CSTD) $(WARN) -Icmodel
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

MODEL_SRC := $(sort $(wildcard cmodel/*.c))
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_COMMON := $(sort $(wildcard tests/common_*.c))
SIM_TOOLS := garun gabench

# Two builds of everything C: plain (optimised) and sanitized (ASan + UBSan). Header dependencies: each
# object's own .d file, written by the compile (-MMD -MP in CFLAGS_BASE) and read back by mk/deps.mk.
define c_build
$(BUILD)/$(1)/cmodel/%.o: cmodel/%.c | $(BUILD)/$(1)/cmodel
	$$(CC) $$(CFLAGS_BASE) $(2) -c $$< -o $$@
$(BUILD)/$(1)/tests/%.o: tests/%.c | $(BUILD)/$(1)/tests
	$$(CC) $$(CFLAGS_BASE) $$(CHECK_CFLAGS) -Itests $(2) -c $$< -o $$@
$(BUILD)/$(1)/sim/%.o: sim/%.c | $(BUILD)/$(1)/sim
	$$(CC) $$(CFLAGS_BASE) -Isim $(2) -c $$< -o $$@
$(BUILD)/$(1)/libgamodel.a: $$(patsubst cmodel/%.c,$(BUILD)/$(1)/cmodel/%.o,$$(MODEL_SRC))
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/tests/test_%: $(BUILD)/$(1)/tests/test_%.o $$(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$$(TEST_COMMON)) $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) -lm -o $$@
$(BUILD)/$(1)/sim/%: $(BUILD)/$(1)/sim/%.o $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ -lm -o $$@
$(BUILD)/$(1)/cmodel $(BUILD)/$(1)/tests $(BUILD)/$(1)/sim:
	mkdir -p $$@
endef
$(eval $(call c_build,rel,$(OPT)))
$(eval $(call c_build,san,-O1 -g $(SAN)))

TESTS_REL := $(patsubst tests/%.c,$(BUILD)/rel/tests/%,$(TEST_SRC))
TESTS_SAN := $(patsubst tests/%.c,$(BUILD)/san/tests/%,$(TEST_SRC))
.SECONDARY:

# ---------------------------------------------------------------------------------------------------
##@ Front door
.PHONY: help deps run test test-hw test-full test-full-hw fuzz-smokes bench clean model

help: ## List every target
	@awk 'BEGIN {FS = ":.*## "} /^##@/ {printf "\n%s\n", substr($$0, 5)} \
	     /^[a-zA-Z0-9_-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

deps: ## Install missing Debian packages (apt-get, as root or with sudo), then the pinned ECP5 tools (deps-ecp5), simulation Verilator (deps-vl) and Yices (deps-fv)
	@bash scripts/deps.sh
	@$(MAKE) --no-print-directory -j3 --output-sync=target deps-ecp5 deps-vl deps-fv

run: deps model $(BUILD)/rel/sim/garun ## Replay the default workload (report), then co-simulate it through the RTL
	$(BUILD)/rel/sim/garun
	@$(MAKE) --no-print-directory run-rtl

# What `make test` (and so CI) runs, in order: the model's unit tests plain and sanitized, the default
# workload, the commands shown in the docs (mk/docs.mk), short fuzz runs of the trace and Accel-Sim
# parsers, the PTX front end and the interpreter (fuzz-smokes: two at a time), the evaluation at smoke
# scale, the shared encodings against their copies (mk/isa.mk), every RTL flow (Verilator lint, Yosys
# read + synth, Icarus compile + smoke), the trace replays on every configuration, the default
# workload and a trace replayed through the RTL lockstep backend, and >= 10 M random requests in
# lockstep between the RTL and the model (mk/tb.mk), then the software half of test-sw and the
# hardware flows of test-hw.
TEST_STEPS := test-model test-san test-run test-docs fuzz-smokes eval-smoke isa-check rtl-check \
              cosim-traces test-rtl-replay cosim test-sw test-hw

# test-sw: the compiler pass and the CUDA-on-CPU half (docs/compiler.md, docs/emulator.md): the corpus
# built with nvcc (mk/apps.mk), gaptx's CLI checks and every corpus program's static counts, ptxas
# acceptance and strip equivalence (mk/ptx.mk), the runtime's unit and integration tests
# (mk/cudart.mk), the corpus under gpuarmor-run in both modes x every layout (4), six programs captured,
# replayed by gasim and through the RTL and run live with --rtl, and the corpus against the runtime
# built with ASan + UBSan (mk/emu.mk), and the corpus against the H100's recorded run (apps/native/h100.tsv,
# mk/native.mk). The builds run two at a time first, then the checks. Without
# nvcc the corpus steps say so and skip. (The Check tests of ptx/, emu/ and cudart/ run in test-model
# and test-san with every other tests/test_*.c.)
TEST_SW_BUILD = apps cudart cudart-rtl gaptx $(BUILD)/san/ptx/gaptx $(BUILD)/cosim/$(EMU_RTL_CFG)/gasim-rtl \
                 $(BUILD)/rel/sim/gasim $(CUDART_DIR)/san/real/libcudart.so.13
TEST_SW := test-gaptx test-ptx-corpus test-cudart test-corpus corpus-san corpus-native-check

# test-hw: the formal proofs (mk/formal.mk), the lockstep runs of ga_mlu's FPGA options (RegLookup,
# EndForm; mk/tb.mk), the 4-SM system in lockstep (cosim-sys-ci: >= 10^6 random LSU requests, two
# Verilator builds, the default options and the ECP5 system builds'; mk/tb.mk), the FPGA RTL's lint
# and the smallest ECP5 build through place and route to a bitstream (fpga-ecp5-quick, mk/fpga.mk:
# the pinned YoWASP tools from PyPI, then 128 s in CI).
# Most are single-threaded, so they run two at a time (-j2, output grouped per target), after the
# libraries they share are built.
# test-full-hw (make test-full, not CI: make test must stay under 35 minutes on an idle 2-core machine,
# and with these it took 58 minutes measured): the gate-level co-simulation (mk/synth.mk; about 8 CPU minutes),
# the board core and the ECP5 system board tops (fpga-sim-sys, about 4.5 min after its three Verilator
# builds of 1, 1 and 3 min) driven by gaprobe behind a pty and the hx8k_m8 bitstream (mk/fpga.mk), the system RTL
# checks and its co-simulation over all 5 system configurations (mk/system.mk, mk/tb.mk). Also not in
# CI (minutes each, documented where they live): formal-full, formal-mutants, fpga-equiv, synth, fpga,
# cosim-mutant, coverage.
TEST_HW := formal cosim-opt cosim-sys-ci fpga-lint fpga-ecp5-quick
TEST_FULL_HW := gatesim fpga-sim fpga-sim-sys fpga-quick sys-rtl-check cosim-sys rtl-yosys-big

# make test is a prerequisite list: one target test-step/<step> per step, each running `make <step>`
# between timing banners. Each step is an order-only prerequisite of the next (deps first), so make
# test runs the same steps in the same order at any -j: the steps share build products (libgamodel.a,
# the Verilated models of verilate) that two recursive makes side by side would build at the same time,
# and the parallelism is inside the steps (test-sw, test-hw and the Verilator builds run two at a time).
# The first failing step stops make test (make -k test too: no step runs after a failed one). The chain
# is drawn only when test or test-full is a goal, so make test-step/<step> runs that step alone.
TEST_RUN := $(addprefix test-step/,$(TEST_STEPS))
# Steps whose own make builds several independent files (the unit tests' objects, the corpus's nvcc
# builds, the RTL flows' Yosys runs, the tools test-run, test-docs and test-rtl-replay run, each an
# LTO link or a Verilated model) run with -j$(TEST_JOBS), since `make test` itself is given no -j
# (CI runs plain `make test`): their prerequisites have every dependency stated, so the order does not
# matter. The other steps are serial or run two at a time inside. scripts/run_tests.sh runs the unit
# test binaries TEST_JOBS at a time too.
TEST_JOBS ?= 2
TEST_STEPS_PAR := test-model test-san test-run test-docs eval-smoke rtl-check test-rtl-replay
test: deps $(TEST_RUN) ## What CI runs (see TEST_STEPS); its time from clean clones on 2 idle cores: README.md, How long make test takes (make test-full: the rest)
	@echo "make test: all suites passed"

.PHONY: $(TEST_RUN)
$(TEST_RUN): test-step/%:
	@echo "=== make $*"; start=$$(date +%s); \
	  $(MAKE) --no-print-directory $(if $(filter $*,$(TEST_STEPS_PAR)),-j$(TEST_JOBS)) $* || \
	    { echo "make test: FAILED in $*"; exit 1; }; \
	  echo "=== make $*: passed in $$(( $$(date +%s) - start )) s"
# the chain: deps, then each step after the one before it
test_chain = $(if $(word 2,$(1)),$(eval $(word 2,$(1)): | $(word 1,$(1)))$(call test_chain,$(wordlist 2,$(words $(1)),$(1))))
$(if $(filter test test-full,$(MAKECMDGOALS)),$(call test_chain,deps $(TEST_RUN)))

test-sw: ## The software half of make test, two at a time: test-gaptx test-ptx-corpus test-cudart test-corpus corpus-san corpus-native-check
	@$(MAKE) --no-print-directory -j2 $(TEST_SW_BUILD)
	@$(MAKE) --no-print-directory -j2 --output-sync=target $(TEST_SW)

test-hw: ## The hardware flows of make test, two at a time: formal cosim-opt cosim-sys-ci fpga-lint fpga-ecp5-quick
	@$(MAKE) --no-print-directory $(BUILD)/rel/libgamodel.a $(BUILD)/rel/libgatrace.a
	@$(MAKE) --no-print-directory -j2 --output-sync=target $(TEST_HW)

# The three short fuzz runs of make test (25 + 15 + 15 s of fuzzing after their builds), two at a time.
fuzz-smokes: ## make test's short fuzz runs, two at a time: fuzz-smoke fuzz-ptx-smoke fuzz-emu-smoke
	@$(MAKE) --no-print-directory -j2 --output-sync=target fuzz-smoke fuzz-ptx-smoke fuzz-emu-smoke

test-full: test ## make test, then the slower hardware flows (test-full-hw): about an hour on 2 cores
	@$(MAKE) --no-print-directory test-full-hw
	@echo "make test-full: all suites passed"

test-full-hw: ## The hardware flows only make test-full runs, two at a time: gatesim fpga-sim fpga-sim-sys fpga-quick sys-rtl-check cosim-sys rtl-yosys-big
	@$(MAKE) --no-print-directory $(BUILD)/rel/libgamodel.a $(BUILD)/rel/libgatrace.a $(GAPROBE) $(GS_TB_OBJ)
	@$(MAKE) --no-print-directory -j2 --output-sync=target $(TEST_FULL_HW)

bench: deps $(BUILD)/rel/sim/gabench ## Model throughput and walk cost per layout, the RTL's cycle counts (bench-rtl), the PTX interpreter's speed (bench-emu)
	$(BUILD)/rel/sim/gabench
	@$(MAKE) --no-print-directory bench-rtl
	@$(MAKE) --no-print-directory bench-emu

model: $(BUILD)/rel/libgamodel.a ## Build the C golden model library

clean: ## Remove every build product
	rm -rf $(BUILD)

# ---------------------------------------------------------------------------------------------------
##@ Tests
.PHONY: test-model test-san test-run

test-model: $(TESTS_REL) ## Check unit tests of the golden model (optimised build)
	@bash scripts/run_tests.sh $(TESTS_REL)

test-san: $(TESTS_SAN) ## The same tests under AddressSanitizer + UndefinedBehaviorSanitizer
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run_tests.sh $(TESTS_SAN)

# RTL and co-simulation targets live in their own files (mk/rtl.mk, mk/tb.mk). mk/rtl.mk comes first:
# it reads the RTL file lists (rtl/*.f) into the variables the others use.
-include mk/rtl.mk $(filter-out mk/rtl.mk,$(sort $(wildcard mk/*.mk)))

test-run: $(BUILD)/rel/sim/garun $(BUILD)/san/sim/garun ## The default workload must finish clean (plain and sanitized)
	@for g in $^; do \
	  $$g > $(BUILD)/garun.out 2>&1 || { cat $(BUILD)/garun.out; echo "FAILED: $$g"; exit 1; }; \
	  echo "[$$g] $$(grep '^RESULT' $(BUILD)/garun.out)"; \
	done
