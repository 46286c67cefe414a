# mk/tb.mk — Verilator co-simulation of rtl/ against the C golden model (included by the top Makefile).
#
# Every configuration of the CI matrix {TagBits 7,16} x {MlbEntries 8,16} x {Lanes 1,32} is one
# Verilated model class (named with --prefix) and one harness binary:
#   build/verilator/<cfg>[-fst|-cov]/   Verilator output (plain, FST-traced, coverage)
#   build/cosim/<cfg>[-fst|-cov|-san]/ga_cosim
# <cfg> is t<TagBits>_m<MlbEntries>_l<Lanes>, e.g. t7_m8_l1. The harness (tb/cosim/*.c) is C11
# compiled by gcc; the thin extern "C" shim (tb/shim/ga_mlu_shim.cpp) is the only C++ and is compiled
# once per configuration. Layout of the harness and the lockstep scheme: docs/microarchitecture.md,
# section "Co-simulation", and tb/README.md.

TB_CFGS      := t7_m8_l1 t7_m8_l32 t7_m16_l1 t7_m16_l32 t16_m8_l1 t16_m8_l32 t16_m16_l1 t16_m16_l32
TB_LAYOUTS   := $(shell bash scripts/layouts.sh --rtl)
# Optional ga_mlu parameters, co-simulated as extra configurations <cfg>_<suffix> (tb_gx_<cfg>: the extra
# -G flags): rl = RegLookup 1 and EndForm 1, the accept stage on registered lookups (the FPGA builds'
# setting; docs/microarchitecture.md §6); rc = rl and RegCheck 3, the check's three register stages
# (the 32-lane ECP5 build, docs/fpga.md §11.3), and rc1 = rl and RegCheck 1. t16_m16_l32_rc also has
# EndForm 2 (the MLB stores each entry's end bound at fill; EndForm 1 stays in the other four). Both rc
# have ReadForm 1 (the MLB returns a hit's fields from copies in RAM read by the hit's index; the other
# configurations keep ReadForm 0, its multiplexers). t16_m16_l32_rc has FillPort 1 (the MLB's FILL and
# INVAL locations on ports of their own), rc1, t16_m16_l32_rl and fp2 (rl's options on one lane, the
# cosim mutant fp2_no_settle's configuration) FillPort 2 (as 1, with the FILL's compares registered a
# cycle early and a walker result taken from its second cycle: with RegCheck 1 and 0); t7_m16_l1_fp3
# FillPort 3 (as 2, and an INVAL names its entry by the location lookup made at its acceptance: one
# MLU of the 4-SM ECP5 board ulx3s_sys4_m16_l1_fp3, with its EndForm 2, ReadForm 1 and RegCheck 1);
# t7_m8_l1_fp4 FillPort 4 (as 3, and the fill victim registered a cycle early: fp2's options otherwise,
# RegCheck 0, where a walker result can arrive in a cycle the accept stage commands the MLB and must
# wait one more; the cosim mutant fp4_settle's configuration); the others keep FillPort 0, one
# select for both. cl: CheckLanes, the check's lane compares serving the lanes in beats (docs/fpga.md
# §11.3): t16_m16_l32_cl is the 32-lane ECP5 unit ulx3s_m16_l32_cl8 (8 lane checks, 4 beats, RegCheck
# 3, EndForm 2, ReadForm 2, FillPort 4), t7_m8_l4_cl one lane check over 4 beats with RegCheck 2.
# Run by cosim-quick and cosim-opt (make test: test-hw).
TB_CFGS_OPT  := t7_m8_l1_rl t16_m16_l32_rl t7_m8_l1_rc t16_m16_l32_rc t16_m8_l1_rc1 t7_m8_l1_fp2 t7_m16_l1_fp3 t7_m8_l1_fp4 \
                t16_m16_l32_cl t7_m8_l4_cl
tb_gx_t7_m8_l1_rl    := -GRegLookup=1 -GEndForm=1
tb_gx_t16_m16_l32_rl := -GRegLookup=1 -GEndForm=1 -GFillPort=2
tb_gx_t7_m8_l1_rc    := -GRegLookup=1 -GEndForm=1 -GRegCheck=3 -GReadForm=1
tb_gx_t16_m16_l32_rc := -GRegLookup=1 -GEndForm=2 -GRegCheck=3 -GReadForm=1 -GFillPort=1
tb_gx_t16_m8_l1_rc1  := -GRegLookup=1 -GEndForm=1 -GRegCheck=1 -GFillPort=2
tb_gx_t7_m8_l1_fp2   := -GRegLookup=1 -GEndForm=1 -GFillPort=2
tb_gx_t7_m16_l1_fp3  := -GRegLookup=1 -GEndForm=2 -GReadForm=1 -GRegCheck=1 -GFillPort=3
tb_gx_t7_m8_l1_fp4   := -GRegLookup=1 -GEndForm=1 -GFillPort=4
tb_gx_t16_m16_l32_cl := -GRegLookup=1 -GEndForm=2 -GRegCheck=3 -GReadForm=2 -GFillPort=4 -GCheckLanes=8
tb_gx_t7_m8_l4_cl    := -GRegLookup=1 -GEndForm=1 -GRegCheck=2 -GCheckLanes=1
TB_JOBS      ?= 2
# make cosim: random requests per (configuration x layout) run, 32 runs (4 layouts): COSIM_OPS for
# each of the 16 runs of a 1-lane configuration, COSIM_OPS_WIDE for each of the 16 runs of a 32-lane
# one (about 10 to 40 times slower to simulate per request): 16 x 440 000 + 16 x 190 000 = 10.08
# million, the total it had with 3 layouts (12 x 500 000 + 12 x 340 000). The 32-lane runs are about
# 96 % of the CPU time, so the split sets make test's time: 375 000 / 255 000 until 2026-11-25 (669 s
# of make test's 39.7 minutes on the idle machine that day), then this one, about a quarter less.
COSIM_OPS      ?= 440000
COSIM_OPS_WIDE ?= 190000
COSIM_SEED     ?= 1
QUICK_OPS      ?= 20000
QUICK_OPS_WIDE ?= 2500
COV_OPS      ?= 30000
COV_OPS_WIDE ?= 3000
CFG          ?= t7_m8_l32
SEED         ?= 1
LAYOUT       ?= bst
OPS          ?= 20000
WINDOW       ?=

VERILATOR    ?= verilator
# Two Verilators (mk/rtl.mk): the models are built with the pinned VL_SIM, except the variants in
# TB_VL_DEB_VARIANTS, which keep Debian's $(VERILATOR): the coverage builds (-cov) for its
# verilator_coverage, and the FST-traced builds (-fst), whose FST writer in 5.048 needs lz4 (liblz4-dev)
# where 5.006's needs only zlib. A shim is compiled against the runtime headers of the Verilator that
# built its model.
TB_VL_DEB_VARIANTS := -cov -fst
TB_VL_DEB_INC   := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
TB_VL_INC       := $(VL_SIM_INC)
tb_vl_deb       = $(filter $(TB_VL_DEB_VARIANTS),$(1))
tb_vl_tool      = $(if $(call tb_vl_deb,$(1)),$(VERILATOR),$(VL_SIM))
tb_vl_isys      = $(foreach d,$(if $(call tb_vl_deb,$(1)),$(TB_VL_DEB_INC),$(TB_VL_INC)),-isystem $(d) -isystem $(d)/vltstd)
# What a model of variant $(1) needs installed first (the sys models: variant empty).
tb_vl_pre       = $(if $(call tb_vl_deb,$(1)),,$(VL_SIM_STAMP) $(TB_VL_ICO))
# The VL_SIM models skip the input region of the clock-edge evaluation (tb/scripts/vl_skip_ico.py;
# tb/README.md "The clock edge skips the input region": 1.32x fewer instructions over make cosim's
# mix, the same cycles and results). The generated C++ is patched before it is compiled, so Verilator
# generates and make compiles in two steps (no --build). The Debian variants are left as generated.
# $(1) Mdir, $(2) class, $(3) variant.
TB_VL_ICO       := tb/scripts/vl_skip_ico.py
tb_vl_ico       = $(if $(call tb_vl_deb,$(3)),,python3 $(TB_VL_ICO) $(1) $(2) >>$(1)/build.log 2>&1 \
                    || { cat $(1)/build.log; exit 1; })
CXX          ?= g++
# Lint: -Wall and warnings are errors (Verilator's default); --assert keeps the RTL's assertions live.
TB_VL_FLAGS     := --cc -Wall --assert --top-module ga_mlu -MAKEFLAGS OPT_FAST=-O3 -MAKEFLAGS OBJCACHE=ccache
# TB_RTL: the RTL directory (the mutation demo points it at a mutated copy).
TB_RTL       ?= rtl
# The files of rtl/ga_mlu.f (ga_mlu models) and of rtl/ga_mlu.f + rtl/ga_system.f (ga_system models),
# taken from TB_RTL, with its include directory (ga_pkg.sv includes the generated ga_isa.svh). Named
# relative to the repository root, where Verilator runs: it writes the names into the C++ it generates
# (assertion messages), so with absolute names every clone's C++ differed and ccache (OBJCACHE) never
# hit in a fresh clone.
TB_RTL_SRC      := $(patsubst $(RTL_DIR)/%,$(TB_RTL)/%,$(RTL_SRC))
TB_SYS_RTL_SRC  := $(patsubst $(RTL_DIR)/%,$(TB_RTL)/%,$(RTL_SYS_SRC))
TB_RTL_INC      := -I$(TB_RTL)
TB_RTL_DEPS     := $(TB_RTL)/ga_isa.svh $(RTL_F) $(RTL_SYS_F)
TB_RTL_VLT      := $(wildcard $(TB_RTL)/*.vlt)
TB_C_SRC     := $(sort $(wildcard tb/cosim/*.c))
TB_H         := $(wildcard tb/cosim/*.h tb/shim/*.h cmodel/*.h)
# -MMD -MP (DEPFLAGS, mk/deps.mk): each object's .d lists the headers it includes, read back by mk/deps.mk.
TB_CFLAGS    := $(CSTD) $(WARN) $(DEPFLAGS) -Icmodel -Itb/cosim -Itb/shim
TB_CXXFLAGS  := -O2 -g -Wall -Wextra -Werror $(DEPFLAGS) -Itb/shim -faligned-new

tb_tag   = $(patsubst t%,%,$(word 1,$(subst _, ,$(1))))
tb_mlb   = $(patsubst m%,%,$(word 2,$(subst _, ,$(1))))
tb_lanes = $(patsubst l%,%,$(word 3,$(subst _, ,$(1))))
tb_class = Vga_mlu_$(subst -,_,$(1))

# ---------------------------------------------------------------------------------------------------
# Harness objects: optimised (rel) and sanitized (san), linked with the model library of that build.
# Header dependencies: the object's own .d file (written by -MMD, read by mk/deps.mk).
$(BUILD)/tb/rel/%.o: tb/cosim/%.c | $(BUILD)/tb/rel
	$(CC) $(TB_CFLAGS) -O2 -g -c $< -o $@
$(BUILD)/tb/san/%.o: tb/cosim/%.c | $(BUILD)/tb/san
	$(CC) $(TB_CFLAGS) -O1 -g $(SAN) -c $< -o $@
$(BUILD)/tb/rel $(BUILD)/tb/san:
	mkdir -p $@
TB_OBJ_REL := $(patsubst tb/cosim/%.c,$(BUILD)/tb/rel/%.o,$(TB_C_SRC))
TB_OBJ_SAN := $(patsubst tb/cosim/%.c,$(BUILD)/tb/san/%.o,$(TB_C_SRC))

# ---------------------------------------------------------------------------------------------------
# One Verilated model + shim + binary per (configuration, variant).
#   $(1) cfg, $(2) variant suffix ("", -fst, -cov, -san), $(3) extra Verilator flags,
#   $(4) VM_* defines and shim defines, $(5) runtime objects, $(6) harness objects + model lib,
#   $(7) extra link flags
#   The model depends on its command stamp (mk/deps.mk: $(STAMP_DIR)/vl-<cfg><variant>.cmd holds the
#   Verilator command and the flags of the make that compiles its output), not on this makefile; the
#   shim on the headers its .d file lists (-MMD) and on the model (whose header it includes).
define tb_model
tb_vl_$(1)$(2) = $(call tb_vl_tool,$(2)) $(TB_VL_FLAGS) $(3) --prefix $(call tb_class,$(1)$(2)) \
  -GTagBits=$(call tb_tag,$(1)) -GMlbEntries=$(call tb_mlb,$(1)) -GLanes=$(call tb_lanes,$(1)) $(tb_gx_$(1)) \
  -Mdir $(abspath $(BUILD)/verilator/$(1)$(2)) $(TB_RTL_INC) $(TB_RTL_VLT) $(TB_RTL_SRC)
tb_vlmk_$(1)$(2) = -f $(call tb_class,$(1)$(2)).mk OPT_FAST=-O3 OBJCACHE=ccache $(call tb_class,$(1)$(2))__ALL.a $(5)
stamp_vl-$(1)$(2) = $$(tb_vl_$(1)$(2)) && make $$(tb_vlmk_$(1)$(2))
$(BUILD)/verilator/$(1)$(2)/$(call tb_class,$(1)$(2))__ALL.a: $(TB_RTL_SRC) $(TB_RTL_DEPS) $(TB_RTL_VLT) $(STAMP_DIR)/vl-$(1)$(2).cmd \
    $(call tb_vl_pre,$(2))
	@mkdir -p $$(@D)
	$$(tb_vl_$(1)$(2)) >$(BUILD)/verilator/$(1)$(2)/build.log 2>&1 \
	  || { cat $(BUILD)/verilator/$(1)$(2)/build.log; exit 1; }
	$(call tb_vl_ico,$(BUILD)/verilator/$(1)$(2),$(call tb_class,$(1)$(2)),$(2))
	$(MAKE) --no-print-directory -s -C $(BUILD)/verilator/$(1)$(2) $$(tb_vlmk_$(1)$(2)) >>$(BUILD)/verilator/$(1)$(2)/build.log 2>&1 \
	  || { cat $(BUILD)/verilator/$(1)$(2)/build.log; exit 1; }
	@grep -n '%Warning\|%Error' $(BUILD)/verilator/$(1)$(2)/build.log && exit 1 || true

$(BUILD)/cosim/$(1)$(2)/shim.o: tb/shim/ga_mlu_shim.cpp $(BUILD)/verilator/$(1)$(2)/$(call tb_class,$(1)$(2))__ALL.a
	@mkdir -p $$(@D)
	$(CXX) $(TB_CXXFLAGS) $(call tb_vl_isys,$(2)) $(4) -I$(BUILD)/verilator/$(1)$(2) -DTB_VTOP=$(call tb_class,$(1)$(2)) \
	  '-DTB_VTOP_H="$(call tb_class,$(1)$(2)).h"' -DTB_TAG_BITS=$(call tb_tag,$(1)) \
	  -DTB_MLB_ENTRIES=$(call tb_mlb,$(1)) -DTB_LANES=$(call tb_lanes,$(1)) -DTB_ID_BITS=4 \
	  '-DTB_CFG_NAME="$(1)$(2)"' -c $$< -o $$@

$(BUILD)/cosim/$(1)$(2)/ga_cosim: $(BUILD)/cosim/$(1)$(2)/shim.o $(6) $(BUILD)/verilator/$(1)$(2)/$(call tb_class,$(1)$(2))__ALL.a
	$(CXX) -o $$@ $$^ $(addprefix $(BUILD)/verilator/$(1)$(2)/,$(5)) $(7) -pthread -lz
endef

TB_VL_RT_PLAIN := verilated.o verilated_threads.o
TB_VL_RT_FST   := verilated.o verilated_threads.o verilated_fst_c.o
TB_VL_RT_COV   := verilated.o verilated_threads.o verilated_cov.o
TB_VM_PLAIN    := -DVM_COVERAGE=0 -DVM_TRACE=0 -DVM_TRACE_FST=0
TB_VM_FST      := -DVM_COVERAGE=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DTB_TRACE
TB_VM_COV      := -DVM_COVERAGE=1 -DVM_TRACE=0 -DVM_TRACE_FST=0 -DTB_COVERAGE

$(foreach c,$(TB_CFGS) $(TB_CFGS_OPT),$(eval $(call tb_model,$(c),,,$(TB_VM_PLAIN),$(TB_VL_RT_PLAIN),$(TB_OBJ_REL) $(BUILD)/rel/libgamodel.a,)))
$(foreach c,$(TB_CFGS) $(TB_CFGS_OPT),$(eval $(call tb_model,$(c),-fst,--trace-fst,$(TB_VM_FST),$(TB_VL_RT_FST),$(TB_OBJ_REL) $(BUILD)/rel/libgamodel.a,)))
$(foreach c,$(TB_CFGS),$(eval $(call tb_model,$(c),-cov,--coverage,$(TB_VM_COV),$(TB_VL_RT_COV),$(TB_OBJ_REL) $(BUILD)/rel/libgamodel.a,)))
$(foreach c,$(TB_CFGS),$(eval $(call tb_model,$(c),-san,,$(TB_VM_PLAIN),$(TB_VL_RT_PLAIN),$(TB_OBJ_SAN) $(BUILD)/san/libgamodel.a,$(SAN))))

TB_BINS     := $(foreach c,$(TB_CFGS),$(BUILD)/cosim/$(c)/ga_cosim)
TB_BINS_OPT := $(foreach c,$(TB_CFGS_OPT),$(BUILD)/cosim/$(c)/ga_cosim)
TB_BINS_COV := $(foreach c,$(TB_CFGS),$(BUILD)/cosim/$(c)-cov/ga_cosim)

# ---------------------------------------------------------------------------------------------------
##@ RTL co-simulation (Verilator, lockstep with the C model)
.PHONY: cosim-opt verilate cosim cosim-quick test-rtl cosim-traces cosim-san cosim-wave cosim-mutant wave coverage tb-deps

tb-deps:
	@command -v $(VERILATOR) >/dev/null || { echo "verilator not found: run 'make deps'"; exit 1; }

verilate: tb-deps ## Verilate and build every configuration (8 models, in parallel: TB_JOBS=2)
	@$(MAKE) --no-print-directory -j$(TB_JOBS) $(TB_BINS)
	@echo "verilate: built $(words $(TB_BINS)) configurations: $(TB_CFGS)"

cosim: verilate ## >= 10 M random requests in lockstep: 8 configs x 4 layouts (under 3 min wall on 2 idle cores: 172 s on 2026-11-30)
	@bash tb/scripts/cosim.sh --jobs $(TB_JOBS) --ops $(COSIM_OPS) --ops-wide $(COSIM_OPS_WIDE) \
	  --seed $(COSIM_SEED) --build $(BUILD) --out $(BUILD)/cosim/full $(TB_CFGS)

cosim-quick: verilate ## About a minute of lockstep random requests over all 24 combinations (+ the optional-parameter configurations)
	@$(MAKE) --no-print-directory -j$(TB_JOBS) $(TB_BINS_OPT)
	@bash tb/scripts/cosim.sh --jobs $(TB_JOBS) --ops $(QUICK_OPS) --ops-wide $(QUICK_OPS_WIDE) \
	  --seed $(COSIM_SEED) --build $(BUILD) --out $(BUILD)/cosim/quick $(TB_CFGS) $(TB_CFGS_OPT)

cosim-opt: tb-deps ## Lockstep runs of the optional ga_mlu parameters only (TB_CFGS_OPT: RegLookup, EndForm, RegCheck)
	@$(MAKE) --no-print-directory -j$(TB_JOBS) $(TB_BINS_OPT)
	@bash tb/scripts/cosim.sh --jobs $(TB_JOBS) --ops $(QUICK_OPS) --ops-wide $(QUICK_OPS_WIDE) \
	  --seed $(COSIM_SEED) --build $(BUILD) --out $(BUILD)/cosim/opt $(TB_CFGS_OPT)

cosim-traces: verilate ## Replay tb/traces/*.trace on every configuration, and the malformed-trace checks (and vl_skip_ico.py's self-test)
	@python3 $(TB_VL_ICO) --selftest
	@bash tb/scripts/traces.sh $(BUILD) $(TB_CFGS)

test-rtl: ## What `make test` runs for the RTL: build, traces, quick lockstep run
	@$(MAKE) --no-print-directory cosim-traces
	@$(MAKE) --no-print-directory cosim-quick
	@echo "test-rtl: all passed"

SAN_CFGS ?= t7_m8_l1 t16_m16_l32
cosim-san: tb-deps $(foreach c,$(SAN_CFGS),$(BUILD)/cosim/$(c)-san/ga_cosim) ## Quick runs with the harness under ASan+UBSan
	@for c in $(SAN_CFGS); do for l in $(TB_LAYOUTS); do \
	  n=3000; case $$c in *_l1) ;; *) n=400;; esac; \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(BUILD)/cosim/$$c-san/ga_cosim --seed $(SEED) --layout $$l --ops $$n --quiet --no-assert || exit 1; \
	  for t in tb/traces/*.trace; do \
	    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    $(BUILD)/cosim/$$c-san/ga_cosim --trace $$t --layout $$l --quiet --no-assert >/dev/null 2>&1; \
	    rc=$$?; [ $$rc -le 2 ] || { echo "cosim-san: $$c $$t crashed ($$rc)"; exit 1; }; done; \
	done; done
	@echo "cosim-san: $(SAN_CFGS): harness clean under ASan/UBSan (RTL assertions off: they are checked by cosim)"

cosim-wave: tb-deps $(BUILD)/cosim/$(CFG)-fst/ga_cosim ## Re-run CFG/SEED/LAYOUT/OPS traced (WINDOW=a:b) -> build/cosim/last.fst
	@mkdir -p $(BUILD)/cosim
	$(BUILD)/cosim/$(CFG)-fst/ga_cosim --seed $(SEED) --layout $(LAYOUT) --ops $(OPS) \
	  --fst $(BUILD)/cosim/last.fst $(if $(WINDOW),--fst-window $(WINDOW)) || true
	@echo "waveform: $(BUILD)/cosim/last.fst (make wave)"

cosim-mutant: tb-deps $(BUILD)/rel/libgamodel.a $(TB_OBJ_REL) ## Mutate a copy of rtl/ and show that the cosim catches it
	@bash tb/scripts/mutate.sh $(BUILD)

wave: ## Open GTKWave on the last waveform with tb/waves/ga_mlu.gtkw (headless: prints the command)
	@bash tb/scripts/wave.sh $(BUILD)

coverage: tb-deps ## Line/branch/toggle coverage of rtl/ from a short run of every config (build/coverage/)
	@$(MAKE) --no-print-directory -j$(TB_JOBS) $(TB_BINS_COV)
	@bash tb/scripts/coverage.sh --build $(BUILD) --ops $(COV_OPS) --ops-wide $(COV_OPS_WIDE) --jobs $(TB_JOBS) $(TB_CFGS)

# ---------------------------------------------------------------------------------------------------
# The RTL lockstep backend of the trace replay and of the evaluation (tb/replay/tb_backend.c): gasim
# and gaeval linked with one Verilated configuration (RTL_CFG, 32 lanes so any warp fits) as
#   build/cosim/<cfg>/gasim-rtl    (gasim --rtl --trace X: every MLU op also runs on the RTL, checked)
#   build/cosim/<cfg>/gaeval-rtl   (gaeval table4 --backend rtl: Table 4's GPUArmor rows on the RTL)
# Each links the backend object and a main compiled with -DGA_WITH_RTL, whose backend registry names
# "rtl" (cmodel/ga_backend.h); plain gasim / gaeval are the same mains without it.
RTL_CFG      ?= t7_m8_l32
RTL_TRIALS   ?= 2000
RTL_LAYOUTS  ?= $(TB_LAYOUTS)
TB_BE_OBJ    := $(BUILD)/tb/rel/replay/tb_backend.o
TB_BE_DEPS   := $(BUILD)/tb/rel/tb_chk.o $(BUILD)/tb/rel/tb_memsys.o

$(TB_BE_OBJ): tb/replay/tb_backend.c
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -Isim/trace -Isim/eval -O2 -g -c $< -o $@
# The mains with the "rtl" backend in their registry.
TB_RTL_MAINS := $(BUILD)/tb/rel/replay/gasim_rtl.o $(BUILD)/tb/rel/replay/gaeval_rtl.o
$(BUILD)/tb/rel/replay/gasim_rtl.o: sim/gasim.c $(wildcard cmodel/*.h sim/*.h sim/trace/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) -Isim -Isim/trace $(OPT) -DGA_WITH_RTL -c $< -o $@
$(BUILD)/tb/rel/replay/gaeval_rtl.o: sim/eval/gaeval.c $(EVAL_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(EVAL_INC) $(OPT) -DGA_WITH_RTL -c $< -o $@

define tb_rtl_tools
$(BUILD)/cosim/$(1)/gasim-rtl: $(BUILD)/tb/rel/replay/gasim_rtl.o $(TB_BE_OBJ) $(TB_BE_DEPS) $(BUILD)/cosim/$(1)/shim.o \
    $(BUILD)/rel/libgatrace.a $(BUILD)/rel/libgamodel.a $(BUILD)/verilator/$(1)/$(call tb_class,$(1))__ALL.a
	$(CXX) -O2 -flto -o $$@ $$^ $(addprefix $(BUILD)/verilator/$(1)/,$(TB_VL_RT_PLAIN)) -pthread -lz -lm
$(BUILD)/cosim/$(1)/gaeval-rtl: $(BUILD)/tb/rel/replay/gaeval_rtl.o $(TB_BE_OBJ) $(TB_BE_DEPS) $(BUILD)/cosim/$(1)/shim.o \
    $(BUILD)/rel/libgaeval.a $(BUILD)/rel/libgamodel.a $(BUILD)/verilator/$(1)/$(call tb_class,$(1))__ALL.a
	$(CXX) -O2 -flto -o $$@ $$^ $(addprefix $(BUILD)/verilator/$(1)/,$(TB_VL_RT_PLAIN)) -pthread -lm
endef
$(foreach c,$(TB_CFGS),$(eval $(call tb_rtl_tools,$(c))))

# gasim --rtl --wave FROM:TO: the same gasim-rtl on the FST-traced model, with the backend compiled
# with TB_TRACE (its wave hook) -> build/cosim/<cfg>-fst/gasim-rtl; plain gasim starts it for --wave.
TB_BE_OBJ_FST := $(BUILD)/tb/rel/replay/tb_backend_fst.o
$(TB_BE_OBJ_FST): tb/replay/tb_backend.c
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -Isim/trace -Isim/eval -DTB_TRACE -O2 -g -c $< -o $@

define tb_rtl_wave
$(BUILD)/cosim/$(1)-fst/gasim-rtl: $(BUILD)/tb/rel/replay/gasim_rtl.o $(TB_BE_OBJ_FST) $(TB_BE_DEPS) $(BUILD)/cosim/$(1)-fst/shim.o \
    $(BUILD)/rel/libgatrace.a $(BUILD)/rel/libgamodel.a $(BUILD)/verilator/$(1)-fst/$(call tb_class,$(1)-fst)__ALL.a
	$(CXX) -O2 -flto -o $$@ $$^ $(addprefix $(BUILD)/verilator/$(1)-fst/,$(TB_VL_RT_FST)) -pthread -lz -lm
endef
$(foreach c,$(TB_CFGS),$(eval $(call tb_rtl_wave,$(c))))

.PHONY: gasim-rtl gaeval-rtl test-rtl-replay eval-rtl run-rtl gasim-rtl-wave test-rtl-wave
run-rtl: tb-deps $(BUILD)/cosim/$(RTL_CFG)/gasim-rtl $(BUILD)/rel/sim/garun ## make run's second part: the default workload (garun --write-trace) through the RTL, every RTL layout x 2 modes
	@echo; echo "Co-simulating the default workload through the RTL ($(RTL_CFG), Verilator) in lockstep with the model:"
	@bash tb/scripts/rtl_replay.sh $(BUILD) $(RTL_CFG) "$(RTL_LAYOUTS)"

gasim-rtl: tb-deps $(BUILD)/cosim/$(RTL_CFG)/gasim-rtl ## gasim with the RTL lockstep backend (RTL_CFG, default t7_m8_l32): gasim-rtl --rtl --trace X
gaeval-rtl: tb-deps $(BUILD)/cosim/$(RTL_CFG)/gaeval-rtl ## gaeval with the RTL lockstep backend (RTL_CFG)
gasim-rtl-wave: tb-deps $(BUILD)/cosim/$(RTL_CFG)-fst/gasim-rtl ## gasim-rtl on the FST-traced model (RTL_CFG): gasim --rtl --wave FROM:TO uses it

# test-rtl-replay also runs test-rtl-wave's checks: they add the FST-traced model's build (about 50 s
# cold, measured with ccache off on the shared 2-core machine at load 4) and 2 s of replays.
test-rtl-replay: tb-deps $(BUILD)/cosim/$(RTL_CFG)/gasim-rtl $(BUILD)/cosim/$(RTL_CFG)-fst/gasim-rtl $(BUILD)/rel/sim/gasim $(BUILD)/rel/sim/garun ## RTL replay of basic.gatrace and a garun-written trace: 0 mismatches; then test-rtl-wave's checks
	@bash tb/scripts/rtl_replay.sh $(BUILD) $(RTL_CFG) "$(RTL_LAYOUTS)" sim/traces/basic.gatrace
	@bash tb/scripts/rtl_wave.sh $(BUILD) $(RTL_CFG)

test-rtl-wave: tb-deps $(BUILD)/cosim/$(RTL_CFG)-fst/gasim-rtl $(BUILD)/cosim/$(RTL_CFG)/gasim-rtl $(BUILD)/rel/sim/gasim ## gasim --rtl --wave: the FST holds exactly the window's requests; bad windows refused
	@bash tb/scripts/rtl_wave.sh $(BUILD) $(RTL_CFG)

eval-rtl: tb-deps $(BUILD)/cosim/$(RTL_CFG)/gaeval-rtl ## Table 4's GPUArmor rows on the RTL in lockstep (RTL_TRIALS per class) -> build/eval/rtl/table4.csv
	@mkdir -p $(BUILD)/eval/rtl
	$(BUILD)/cosim/$(RTL_CFG)/gaeval-rtl table4 --backend rtl --trials $(RTL_TRIALS) --out $(BUILD)/eval/rtl
	$(BUILD)/rel/eval/gaeval table4 --backend model --trials $(RTL_TRIALS) --out $(BUILD)/eval/rtl-model
	@cmp -s $(BUILD)/eval/rtl/table4.csv $(BUILD)/eval/rtl-model/table4.csv && \
	  echo "eval-rtl: RTL and model give the same Table 4 rows ($(BUILD)/eval/rtl/table4.csv)" || \
	  { echo "eval-rtl: the RTL's table4.csv differs from the model's"; exit 1; }

# ---------------------------------------------------------------------------------------------------
# Cycle benchmark of the RTL (tb/bench/tb_rtlbench.c): directed stimulus on one Verilated
# configuration, latencies and throughput counted in clock edges at the ports -> build/cosim/<cfg>/ga_rtlbench.
# Its configuration is RTL_CFG when given on the command line or in the environment, else t7_m8_l1.
TB_BENCH_CFG := $(if $(filter command line environment,$(origin RTL_CFG)),$(RTL_CFG),t7_m8_l1)
TB_BENCH_OBJ := $(BUILD)/tb/rel/bench/tb_rtlbench.o

$(TB_BENCH_OBJ): tb/bench/tb_rtlbench.c
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -O2 -g -c $< -o $@

define tb_bench_bin
$(BUILD)/cosim/$(1)/ga_rtlbench: $(TB_BENCH_OBJ) $(BUILD)/cosim/$(1)/shim.o $(BUILD)/rel/libgamodel.a \
    $(BUILD)/verilator/$(1)/$(call tb_class,$(1))__ALL.a
	$(CXX) -O2 -o $$@ $$^ $(addprefix $(BUILD)/verilator/$(1)/,$(TB_VL_RT_PLAIN)) -pthread -lm
endef
$(foreach c,$(TB_CFGS) $(TB_CFGS_OPT),$(eval $(call tb_bench_bin,$(c))))

.PHONY: bench-rtl
bench-rtl: tb-deps $(BUILD)/cosim/$(TB_BENCH_CFG)/ga_rtlbench ## Cycle latencies/throughput of the RTL (RTL_CFG, default t7_m8_l1): hits, walks, fetch, hit-under-miss
	$(BUILD)/cosim/$(TB_BENCH_CFG)/ga_rtlbench

# ---------------------------------------------------------------------------------------------------
# System co-simulation (issue 14): ga_system, NumSms MLUs sharing one metadata memory port and one
# runtime port, in lockstep with one golden-model checker per SM (tb/sys/tb_sys.c; the checker,
# stimulus and memory models of tb/cosim/ are reused per SM). Configurations
# s<NumSms>_t<TagBits>_m<MlbEntries>_l<Lanes>[_rl|_rc|_fp|_fs|_fc|_f3|_lr|_vr] (rl: RegLookup 1 and EndForm 1, the FPGA
# options; rc: and RegCheck 3, ReadForm 1 and FillPort 1; fp: RegLookup 1, EndForm 2, ReadForm 1 and FillPort 2,
# the MLU options of the 16-entry ECP5 system builds, docs/fpga.md §11.3; fs: fp and ga_system's ReqSlice 1,
# the register stage in front of each MLU; fc: fs and RegCheck 1, the check's inputs registered, as the
# 4-SM builds ulx3s_sys4_m16_l1_rsc and _rsc_an; f3: fc with FillPort 3, an INVAL by the location lookup
# of its acceptance, as ulx3s_sys4_m16_l1_fp3; lr: f3 with ReadForm 2, the location hit's fields read
# late from the registered index, as ulx3s_sys4_m16_l1_lr; vr: lr with FillPort 4, the fill victim
# registered a cycle early, as ulx3s_sys4_m16_l1_vr); LSU ids of 4 bits (each MLU has 5: the runtime port's id).
#   build/verilator/sys-<cfg>/   Verilator output      build/cosim/sys-<cfg>/ga_syscosim   harness
TB_SYS_CFGS  := s4_t7_m16_l1 s2_t16_m8_l32 s3_t16_m16_l1_rl s8_t7_m4_l1 s4_t7_m16_l1_rc s4_t7_m16_l4_fp s4_t7_m16_l4_fs \
                s4_t7_m16_l4_fc s4_t7_m16_l4_f3 s4_t7_m16_l4_lr s4_t7_m16_l4_vr
tb_sys_n     = $(patsubst s%,%,$(word 1,$(subst _, ,$(1))))
tb_sys_t     = $(patsubst t%,%,$(word 2,$(subst _, ,$(1))))
tb_sys_m     = $(patsubst m%,%,$(word 3,$(subst _, ,$(1))))
tb_sys_l     = $(patsubst l%,%,$(word 4,$(subst _, ,$(1))))
tb_sys_rd_g  := -GRegLookup=1 -GEndForm=2 -GReadForm=1
tb_sys_r2_g  := -GRegLookup=1 -GEndForm=2 -GReadForm=2
tb_sys_fp_g  := $(tb_sys_rd_g) -GFillPort=2
tb_sys_gx    = $(if $(filter rl,$(word 5,$(subst _, ,$(1)))),-GRegLookup=1 -GEndForm=1)$(if \
               $(filter rc,$(word 5,$(subst _, ,$(1)))),-GRegLookup=1 -GEndForm=1 -GRegCheck=3 -GReadForm=1 -GFillPort=1)$(if \
               $(filter fp,$(word 5,$(subst _, ,$(1)))),$(tb_sys_fp_g))$(if \
               $(filter fs,$(word 5,$(subst _, ,$(1)))),$(tb_sys_fp_g) -GReqSlice=1)$(if \
               $(filter fc,$(word 5,$(subst _, ,$(1)))),$(tb_sys_fp_g) -GReqSlice=1 -GRegCheck=1)$(if \
               $(filter f3,$(word 5,$(subst _, ,$(1)))),$(tb_sys_rd_g) -GFillPort=3 -GReqSlice=1 -GRegCheck=1)$(if \
               $(filter lr,$(word 5,$(subst _, ,$(1)))),$(tb_sys_r2_g) -GFillPort=3 -GReqSlice=1 -GRegCheck=1)$(if \
               $(filter vr,$(word 5,$(subst _, ,$(1)))),$(tb_sys_r2_g) -GFillPort=4 -GReqSlice=1 -GRegCheck=1)
tb_sys_class = Vga_system_$(1)
TB_SYS_OBJ   := $(BUILD)/tb/rel/sys/tb_sys.o
TB_SYS_LIBO  := $(filter-out $(BUILD)/tb/rel/tb_main.o,$(TB_OBJ_REL))
# make cosim-sys: random LSU requests per (configuration x layout) run; 44 runs. 1-lane runs take
# SYS_OPS, the 32- and 4-lane ones SYS_OPS_WIDE: 16 x 120 000 + 28 x 40 000 = 3.04 million (plus the
# runtime port's requests, counted once per SM).
SYS_OPS      ?= 120000
SYS_OPS_WIDE ?= 40000
SYS_QUICK_OPS      ?= 8000
SYS_QUICK_OPS_WIDE ?= 1500
# make cosim-sys-ci (make test: test-hw): the goal system of issue 14 (4 SMs, 16-entry MLBs) in two
# builds, s4_t7_m16_l1 (1 lane, the default options) and s4_t7_m16_l4_vr (4 lanes, the options of the
# 4-SM board that meets 50 MHz: RegLookup 1, EndForm 2, ReadForm 2, FillPort 4, RegCheck 1 and
# ga_system's ReqSlice 1), 2 x 4 layouts x 130 000 = 1.04 million random LSU requests (the run fails
# under 10^6). The other system configurations: make cosim-sys.
TB_SYS_CI_CFGS ?= s4_t7_m16_l1 s4_t7_m16_l4_vr
SYS_CI_OPS     ?= 130000
SYS_CI_MIN_LSU ?= 1000000

$(TB_SYS_OBJ): tb/sys/tb_sys.c
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -O2 -g -c $< -o $@

# The model depends on its command stamp ($(STAMP_DIR)/vl-sys-<cfg>.cmd, mk/deps.mk), not on this makefile.
define tb_sys_model
tb_vl_sys-$(1) = $(VL_SIM) --cc -Wall --assert --top-module ga_system -MAKEFLAGS OPT_FAST=-O3 -MAKEFLAGS OBJCACHE=ccache \
  --prefix $(call tb_sys_class,$(1)) -GNumSms=$(call tb_sys_n,$(1)) -GTagBits=$(call tb_sys_t,$(1)) \
  -GMlbEntries=$(call tb_sys_m,$(1)) -GLanes=$(call tb_sys_l,$(1)) -GIdW=4 $(call tb_sys_gx,$(1)) \
  -Mdir $(abspath $(BUILD)/verilator/sys-$(1)) $(TB_RTL_INC) $(TB_RTL_VLT) $(TB_SYS_RTL_SRC)
tb_vlmk_sys-$(1) = -f $(call tb_sys_class,$(1)).mk OPT_FAST=-O3 OBJCACHE=ccache $(call tb_sys_class,$(1))__ALL.a $(TB_VL_RT_PLAIN)
stamp_vl-sys-$(1) = $$(tb_vl_sys-$(1)) && make $$(tb_vlmk_sys-$(1))
$(BUILD)/verilator/sys-$(1)/$(call tb_sys_class,$(1))__ALL.a: $(TB_SYS_RTL_SRC) $(TB_RTL_DEPS) $(TB_RTL_VLT) $(STAMP_DIR)/vl-sys-$(1).cmd \
    $(call tb_vl_pre,)
	@mkdir -p $$(@D)
	$$(tb_vl_sys-$(1)) \
	  >$(BUILD)/verilator/sys-$(1)/build.log 2>&1 || { cat $(BUILD)/verilator/sys-$(1)/build.log; exit 1; }
	$(call tb_vl_ico,$(BUILD)/verilator/sys-$(1),$(call tb_sys_class,$(1)),)
	$(MAKE) --no-print-directory -s -C $(BUILD)/verilator/sys-$(1) $$(tb_vlmk_sys-$(1)) >>$(BUILD)/verilator/sys-$(1)/build.log 2>&1 \
	  || { cat $(BUILD)/verilator/sys-$(1)/build.log; exit 1; }
	@grep -n '%Warning\|%Error' $(BUILD)/verilator/sys-$(1)/build.log && exit 1 || true

$(BUILD)/cosim/sys-$(1)/shim.o: tb/shim/ga_system_shim.cpp \
    $(BUILD)/verilator/sys-$(1)/$(call tb_sys_class,$(1))__ALL.a
	@mkdir -p $$(@D)
	$(CXX) $(TB_CXXFLAGS) $(call tb_vl_isys,) $(TB_VM_PLAIN) -I$(BUILD)/verilator/sys-$(1) -DTB_VTOP=$(call tb_sys_class,$(1)) \
	  '-DTB_VTOP_H="$(call tb_sys_class,$(1)).h"' -DTB_SMS=$(call tb_sys_n,$(1)) -DTB_TAG_BITS=$(call tb_sys_t,$(1)) \
	  -DTB_MLB_ENTRIES=$(call tb_sys_m,$(1)) -DTB_LANES=$(call tb_sys_l,$(1)) -DTB_ID_BITS=4 \
	  '-DTB_CFG_NAME="$(1)"' -c $$< -o $$@

$(BUILD)/cosim/sys-$(1)/ga_syscosim: $(BUILD)/cosim/sys-$(1)/shim.o $(TB_SYS_OBJ) $(TB_SYS_LIBO) $(BUILD)/rel/libgamodel.a \
    $(BUILD)/verilator/sys-$(1)/$(call tb_sys_class,$(1))__ALL.a
	$(CXX) -o $$@ $$^ $(addprefix $(BUILD)/verilator/sys-$(1)/,$(TB_VL_RT_PLAIN)) -pthread -lz
endef
$(foreach c,$(TB_SYS_CFGS),$(eval $(call tb_sys_model,$(c))))
TB_SYS_BINS := $(foreach c,$(TB_SYS_CFGS),$(BUILD)/cosim/sys-$(c)/ga_syscosim)

.PHONY: verilate-sys cosim-sys cosim-sys-quick cosim-sys-ci
verilate-sys: tb-deps ## Build the ga_system co-simulation configurations (TB_SYS_CFGS: 2..8 SMs)
	@$(MAKE) --no-print-directory -j$(TB_JOBS) $(TB_SYS_BINS)

cosim-sys: verilate-sys ## ga_system (several SMs, shared memory port, runtime port) in lockstep with a model per SM: >= 1 M requests
	@bash tb/scripts/cosim_sys.sh --jobs $(TB_JOBS) --ops $(SYS_OPS) --ops-wide $(SYS_OPS_WIDE) \
	  --seed $(COSIM_SEED) --build $(BUILD) --out $(BUILD)/cosim/sys $(TB_SYS_CFGS)

cosim-sys-quick: verilate-sys ## A short ga_system lockstep run over every system configuration and layout
	@bash tb/scripts/cosim_sys.sh --jobs $(TB_JOBS) --ops $(SYS_QUICK_OPS) --ops-wide $(SYS_QUICK_OPS_WIDE) \
	  --seed $(COSIM_SEED) --build $(BUILD) --out $(BUILD)/cosim/sys-quick $(TB_SYS_CFGS)

cosim-sys-ci: tb-deps $(foreach c,$(TB_SYS_CI_CFGS),$(BUILD)/cosim/sys-$(c)/ga_syscosim) ## make test's system lockstep run: 4 SMs x 16-entry MLBs, >= 10^6 random LSU requests, 0 mismatches
	@bash tb/scripts/cosim_sys.sh --jobs $(TB_JOBS) --ops $(SYS_CI_OPS) --min-lsu $(SYS_CI_MIN_LSU) \
	  --seed $(COSIM_SEED) --build $(BUILD) --out $(BUILD)/cosim/sys-ci $(TB_SYS_CI_CFGS)

.PHONY: cosim-sys-mutant
cosim-sys-mutant: tb-deps ## Mutate a copy of ga_system / ga_arb / ga_req_slice / ga_mlu (8 bugs) and show that the system co-simulation catches each
	@bash tb/scripts/mutate_sys.sh $(BUILD)

# The system harness under ASan + UBSan (the C objects sanitized, the Verilated model as built).
TB_SYS_OBJ_SAN := $(BUILD)/tb/san/sys/tb_sys.o
$(TB_SYS_OBJ_SAN): tb/sys/tb_sys.c
	@mkdir -p $(@D)
	$(CC) $(TB_CFLAGS) -O1 -g $(SAN) -c $< -o $@
$(BUILD)/cosim/sys-s4_t7_m16_l1/ga_syscosim-san: $(BUILD)/cosim/sys-s4_t7_m16_l1/shim.o $(TB_SYS_OBJ_SAN) \
    $(filter-out $(BUILD)/tb/san/tb_main.o,$(TB_OBJ_SAN)) $(BUILD)/san/libgamodel.a \
    $(BUILD)/verilator/sys-s4_t7_m16_l1/Vga_system_s4_t7_m16_l1__ALL.a
	$(CXX) $(SAN) -o $@ $^ $(addprefix $(BUILD)/verilator/sys-s4_t7_m16_l1/,$(TB_VL_RT_PLAIN)) -pthread -lz

.PHONY: cosim-sys-san
cosim-sys-san: tb-deps $(BUILD)/cosim/sys-s4_t7_m16_l1/ga_syscosim-san ## The system harness under ASan+UBSan: s4_t7_m16_l1, 3 layouts
	@for l in $(TB_LAYOUTS); do \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(BUILD)/cosim/sys-s4_t7_m16_l1/ga_syscosim-san --seed $(SEED) --layout $$l --ops 4000 --quiet || exit 1; done
	@echo "cosim-sys-san: the system harness is clean under ASan/UBSan"
