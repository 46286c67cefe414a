# mk/system.mk — the RTL flows of the multi-SM system (issue 14: rtl/ga_system.sv, rtl/ga_arb.sv;
# docs/microarchitecture.md §10): Verilator -Wall lint at several parameter sets, a Yosys 0.23 generic
# synthesis (no latch) and an Icarus 11 compile, as mk/rtl.mk does for the single-MLU blocks. The
# co-simulation targets are in mk/tb.mk (cosim-sys), the proofs in scripts/formal/ (arb_*, sys_glue).

# rtl/ga_mlu.f + rtl/ga_system.f, read by mk/rtl.mk
SYS_RTL := $(RTL_SYS_SRC)
SYS_LINT_CFGS := ga_arb:N=1,PayW=3 ga_arb:N=5,PayW=65 ga_arb:N=8,PayW=64 \
  ga_system:NumSms=1,Lanes=1,IdW=1 ga_system:NumSms=2,Lanes=32,TagBits=16 ga_system:NumSms=3 \
  ga_system:NumSms=4,MlbEntries=16,Lanes=4,RegLookup=1,EndForm=1,HwOnly=0 \
  ga_system:NumSms=8,MlbEntries=2,Lanes=2,IdW=15,RegLookup=1,EndForm=1 \
  ga_system:NumSms=4,MlbEntries=16,Lanes=4,RegLookup=1,EndForm=2,ReadForm=1,FillPort=2,ReqSlice=1 \
  ga_system:NumSms=1,Lanes=32,ReqSlice=1 ga_req_slice:PayW=1 ga_req_slice:PayW=200

.PHONY: sys-rtl-check
sys-rtl-check: ## Lint (Verilator), synthesis (Yosys 0.23, no latch) and Icarus compile of ga_system and ga_arb
	@set -e; for c in $(SYS_LINT_CFGS); do \
	  top=$${c%%:*}; pars=$${c#*:}; gs=""; for p in $${pars//,/ }; do gs="$$gs -G$$p"; done; \
	  echo "lint   $$top $$pars"; \
	  $(VERILATOR) --lint-only -Wall --assert $(RTL_INC) $(RTL_WAIVER) $(SYS_RTL) --top-module $$top $$gs; done
	@mkdir -p $(BUILD)/sysrtl
	@set -e; for rs in 0 1; do \
	  echo "yosys  ga_system NumSms 2, MlbEntries 2, Lanes 1, ReqSlice $$rs (generic synth)"; \
	  $(YOSYS) -q -l $(BUILD)/sysrtl/yosys-rs$$rs.log -p "read_verilog -sv $(SYS_RTL); \
	    chparam -set NumSms 2 -set MlbEntries 2 -set Lanes 1 -set ReqSlice $$rs ga_system; synth -top ga_system; \
	    select -assert-none t:\$$dlatch t:\$$_DLATCH_*; tee -q -o $(BUILD)/sysrtl/sys-rs$$rs.stat stat" >/dev/null; \
	  grep 'Number of cells' $(BUILD)/sysrtl/sys-rs$$rs.stat | tail -1; done
	@set -e; for c in 3:0 2:1; do n=$${c%:*}; rs=$${c#*:}; \
	  echo "icarus ga_system NumSms $$n, ReqSlice $$rs"; rm -f $(BUILD)/sysrtl/sys-rs$$rs.vvp; \
	  $(IVERILOG) -g2012 $(RTL_INC) -o $(BUILD)/sysrtl/sys-rs$$rs.vvp -s ga_system -Pga_system.NumSms=$$n \
	    -Pga_system.ReqSlice=$$rs $(SYS_RTL) 2>&1 | grep -v 'sorry: constant selects' || true; \
	  test -s $(BUILD)/sysrtl/sys-rs$$rs.vvp; done
	@echo "sys-rtl-check: clean"
