# mk/synth.mk — technology-independent area and logic depth (Yosys generic synthesis), and the gate-level
# co-simulation of synthesized netlists. Included by the top Makefile, run from the repository root.
# Method and results: docs/area.md. The FPGA flow is in mk/fpga.mk.
#
#   build/synth/<run>.res   one run's figures (key=value), written by fpga/synth/area.sh
#   build/synth/<run>.log   its Yosys log
# <run> names the block and its parameters: mlu_t<TagBits>_m<MlbEntries>_l<Lanes>, mlb_t<T>_m<Entries>,
# check_t<T>_l<Lanes>, walker_t<T>.

SYN_DIR    := $(BUILD)/synth
# rtl/ga_mlu.f, read by mk/rtl.mk (RTL_DEPS: the generated rtl/ga_isa.svh and the lists)
SYN_RTL    := $(RTL_SRC)
# The matrix of the brief: every block and the whole unit at TagBits {7,16} x MLB {8,16} x Lanes {1,32}
# (each block only over the parameters it has). The Lanes=32 units take 17-31 minutes each.
SYN_MLU    := $(foreach t,7 16,$(foreach m,8 16,$(foreach l,1 32,mlu_t$(t)_m$(m)_l$(l))))
SYN_BLOCKS := $(foreach t,7 16,$(foreach m,8 16,mlb_t$(t)_m$(m))) \
              $(foreach t,7 16,$(foreach l,1 32,check_t$(t)_l$(l))) walker_t7 walker_t16
SYN_ALL    := $(SYN_BLOCKS) $(SYN_MLU)
# A quick subset (about two minutes on the project machine), compared with docs/area.md.
SYN_QUICK  := walker_t7 check_t7_l1 mlb_t7_m8 mlu_t7_m8_l1
SYN_REPORT := python3 fpga/synth/report.py

# name -> top module and chparam arguments
syn_w      = $(subst _, ,$(1))
syn_top    = ga_$(word 1,$(call syn_w,$(1)))
syn_num    = $(patsubst $(2)%,%,$(filter $(2)%,$(wordlist 2,9,$(call syn_w,$(1)))))
syn_mlbpar = $(if $(filter mlu,$(word 1,$(call syn_w,$(1)))),MlbEntries,Entries)
syn_par    = -set TagBits $(call syn_num,$(1),t) \
             $(if $(call syn_num,$(1),m),-set $(call syn_mlbpar,$(1)) $(call syn_num,$(1),m)) \
             $(if $(call syn_num,$(1),l),-set Lanes $(call syn_num,$(1),l))

$(SYN_DIR)/%.res: $(SYN_RTL) $(RTL_DEPS) fpga/synth/area.sh
	@mkdir -p $(SYN_DIR)
	@bash fpga/synth/area.sh $* $(call syn_top,$*) "$(strip $(call syn_par,$*))" $(SYN_DIR) $(SYN_RTL)

.PHONY: synth synth-quick synth-report

##@ Area, timing and gate-level checks (docs/area.md, docs/fpga.md)

synth: ## Generic synthesis of every block and ga_mlu over the matrix (~2.5 CPU-hours cold, cached); rewrites docs/area.md and the README table
	@$(MAKE) --no-print-directory $(addprefix $(SYN_DIR)/,$(addsuffix .res,$(SYN_ALL)))
	@$(SYN_REPORT) --dir $(SYN_DIR) --write docs/area.md README.md $(SYN_ALL)

synth-quick: ## The small synthesis runs only; compares them with docs/area.md (drift is a warning; not in CI)
	@$(MAKE) --no-print-directory $(addprefix $(SYN_DIR)/,$(addsuffix .res,$(SYN_QUICK)))
	@$(SYN_REPORT) --dir $(SYN_DIR) --compare docs/area.md $(SYN_QUICK)

synth-report: ## Rewrite docs/area.md and the README table from the cached runs in build/synth (no synthesis)
	@$(SYN_REPORT) --dir $(SYN_DIR) --write docs/area.md README.md $(SYN_ALL)

# ---------------------------------------------------------------------------------------------------
# Gate-level co-simulation: the synthesized netlist of ga_mlu replaces the RTL under tb/'s lockstep
# harness (the same shim, harness objects and golden model as `make cosim`). Two netlists per
# configuration:
#   generic  Yosys `synth -flatten`, written with `write_verilog -noattr` (Yosys's internal gate cells
#            become plain Verilog expressions and always blocks)
#   ice40    `synth_ice40` (SB_LUT4, SB_CARRY, SB_DFF*), kept as written in <kind>_<cfg>.cells.v; a
#            second Yosys run reads it with Yosys's own iCE40 cell models (ice40/cells_sim.v) as
#            ordinary modules and flattens every cell instance into its model, so Verilator simulates
#            the mapped LUT contents, carry chains and flip-flops through the models' own code.
#            Why not the cell instances directly: Verilator 5.006 computes wrong values on the
#            cell-instance netlist (first divergence from the RTL at cycle 127 of `ga_cosim --seed 0x65
#            --layout list`, a MLB range lookup that misses), while Icarus 11 on the same netlist and the
#            same recorded stimulus agrees with the RTL, and so does Verilator on the flattened netlist
#            (docs/area.md §5).
# The netlists have no assertions (Yosys drops them); the harness's protocol checks and the lockstep
# comparison stay on. <cfg> is t<TagBits>_m<MlbEntries>_l<Lanes> as in mk/tb.mk; IdW is ga_mlu's
# default (4), which the harness expects.
GATESIM_CFGS  ?= t7_m8_l1
GATESIM_KINDS := generic ice40
GATESIM_OPS   ?= 2500
GATESIM_SEED  ?= 1
GS_DIR        := $(BUILD)/gatesim
GS_YOSYS_DATA := $(shell $(YOSYS)-config --datdir 2>/dev/null || echo /usr/share/yosys)
GS_CELLS      := $(GS_YOSYS_DATA)/ice40/cells_sim.v
GS_VL_ROOT    := $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)
GS_CXXFLAGS   := -O2 -g -Wall -Wextra -Werror -Itb/shim -isystem $(GS_VL_ROOT)/include \
                 -isystem $(GS_VL_ROOT)/include/vltstd -faligned-new
GS_TB_OBJ     := $(patsubst tb/cosim/%.c,$(BUILD)/tb/rel/%.o,$(sort $(wildcard tb/cosim/*.c)))
gs_t = $(patsubst t%,%,$(word 1,$(subst _, ,$(1))))
gs_m = $(patsubst m%,%,$(word 2,$(subst _, ,$(1))))
gs_l = $(patsubst l%,%,$(word 3,$(subst _, ,$(1))))
gs_synth_generic = synth -flatten -top ga_mlu
gs_synth_ice40   = synth_ice40 -top ga_mlu
# ice40: inline the cell models (the cell-instance netlist stays in $(GS_DIR)/ice40_<cfg>.cells.v)
gs_post_generic  =
gs_post_ice40    = mv $$@.tmp $$(basename $$@).cells.v && $(YOSYS) -q -l $$(basename $$@).flat.ylog -p \
                   'read_verilog -DNO_ICE40_DEFAULT_ASSIGNMENTS -lib $(GS_CELLS); \
                    read_verilog $$(basename $$@).cells.v; hierarchy -top ga_mlu; \
                    read_verilog -DNO_ICE40_DEFAULT_ASSIGNMENTS -overwrite $(GS_CELLS); \
                    hierarchy -top ga_mlu; proc; flatten; opt_clean; write_verilog -noattr $$@.tmp' >/dev/null 2>&1 \
                   || { tail -20 $$(basename $$@).flat.ylog; exit 1; }

# $(1) kind, $(2) cfg
define gs_model
$(GS_DIR)/$(1)_$(2).v: $(SYN_RTL) $(RTL_DEPS)
	@mkdir -p $(GS_DIR)
	@echo "gatesim: synthesising the $(1) netlist of ga_mlu $(2)"
	@$(YOSYS) -q -l $(GS_DIR)/$(1)_$(2).ylog -p 'read_verilog -sv $(SYN_RTL); \
	  chparam -set TagBits $(call gs_t,$(2)) -set MlbEntries $(call gs_m,$(2)) -set Lanes $(call gs_l,$(2)) ga_mlu; \
	  $(gs_synth_$(1)); tee -q -o $(GS_DIR)/$(1)_$(2).stat stat; write_verilog -noattr $$@.tmp' >/dev/null \
	  || { tail -20 $(GS_DIR)/$(1)_$(2).ylog; exit 1; }
	@$(gs_post_$(1))
	@mv $$@.tmp $$@

# The model depends on its command stamp ($(STAMP_DIR)/vl-gs-<kind>_<cfg>.cmd, mk/deps.mk).
gs_vl_$(1)_$(2) = verilator --cc -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN -Wno-UNOPTFLAT --top-module ga_mlu \
  --prefix Vgl_$(1)_$(2) -Mdir $(abspath $(GS_DIR)/$(1)_$(2)) --build -MAKEFLAGS OPT_FAST=-O1 \
  -MAKEFLAGS OBJCACHE=ccache $(abspath $(GS_DIR)/$(1)_$(2).v)
gs_vlmk_$(1)_$(2) = -f Vgl_$(1)_$(2).mk OPT_FAST=-O1 OBJCACHE=ccache verilated.o verilated_threads.o
stamp_vl-gs-$(1)_$(2) = $$(gs_vl_$(1)_$(2)) && make $$(gs_vlmk_$(1)_$(2))
$(GS_DIR)/$(1)_$(2)/Vgl_$(1)_$(2)__ALL.a: $(GS_DIR)/$(1)_$(2).v $(STAMP_DIR)/vl-gs-$(1)_$(2).cmd
	@mkdir -p $(GS_DIR)/$(1)_$(2)
	@echo "gatesim: verilating the $(1) netlist $(2)"
	@$$(gs_vl_$(1)_$(2)) \
	  > $(GS_DIR)/$(1)_$(2)/build.log 2>&1 || { tail -30 $(GS_DIR)/$(1)_$(2)/build.log; exit 1; }
	@$(MAKE) --no-print-directory -s -C $(GS_DIR)/$(1)_$(2) $$(gs_vlmk_$(1)_$(2)) >> $(GS_DIR)/$(1)_$(2)/build.log 2>&1 \
	  || { tail -30 $(GS_DIR)/$(1)_$(2)/build.log; exit 1; }

$(GS_DIR)/$(1)_$(2)/shim.o: tb/shim/ga_mlu_shim.cpp tb/shim/tb_dut.h $(GS_DIR)/$(1)_$(2)/Vgl_$(1)_$(2)__ALL.a
	$(CXX) $(GS_CXXFLAGS) -DVM_COVERAGE=0 -DVM_TRACE=0 -DVM_TRACE_FST=0 -I$(GS_DIR)/$(1)_$(2) \
	  -DTB_VTOP=Vgl_$(1)_$(2) '-DTB_VTOP_H="Vgl_$(1)_$(2).h"' -DTB_TAG_BITS=$(call gs_t,$(2)) \
	  -DTB_MLB_ENTRIES=$(call gs_m,$(2)) -DTB_LANES=$(call gs_l,$(2)) -DTB_ID_BITS=4 \
	  '-DTB_CFG_NAME="$(1)-$(2)"' -c $$< -o $$@

$(GS_DIR)/$(1)_$(2)/ga_cosim: $(GS_DIR)/$(1)_$(2)/shim.o $(GS_TB_OBJ) $(BUILD)/rel/libgamodel.a $(GS_DIR)/$(1)_$(2)/Vgl_$(1)_$(2)__ALL.a
	$(CXX) -o $$@ $$^ $(GS_DIR)/$(1)_$(2)/verilated.o $(GS_DIR)/$(1)_$(2)/verilated_threads.o -pthread -lz
endef
$(foreach k,$(GATESIM_KINDS),$(foreach c,$(GATESIM_CFGS),$(eval $(call gs_model,$(k),$(c)))))

.PHONY: gatesim
gatesim: ## Synthesized ga_mlu netlists (generic and iCE40 cells) in tb/'s lockstep harness, short random runs
	@$(MAKE) --no-print-directory $(foreach k,$(GATESIM_KINDS),$(foreach c,$(GATESIM_CFGS),$(GS_DIR)/$(k)_$(c)/ga_cosim))
	@bash fpga/synth/gatesim.sh --build $(BUILD) --ops $(GATESIM_OPS) --seed $(GATESIM_SEED) \
	  $(foreach k,$(GATESIM_KINDS),$(foreach c,$(GATESIM_CFGS),$(k)_$(c)))
