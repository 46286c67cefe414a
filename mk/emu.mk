# mk/emu.mk — the PTX interpreter / simulated GPU (emu/, docs/emulator.md): the library libgaemu.a in
# the rel and san builds, position-independent builds of every library the CUDA runtime (cudart/,
# a shared object) links, and the interpreter's tests. Included by the top Makefile and run from the
# repository root.
#
#   $(BUILD)/<rel|san>/libgaemu.a     emu/*.c (links libgaptx.a, libgatrace.a, libgamodel.a, -lz -lm)
#   $(BUILD)/pic/lib{gamodel,gatrace,gaptx,gaemu}.a   the same sources with -fPIC (for libcudart.so.13)
#
# emu/emu_fp.c changes the floating-point rounding mode around single operations: it is compiled with
# -frounding-math so the compiler does not move operations across the fesetround() calls.

EMU_SRC  := $(sort $(wildcard emu/*.c))
EMU_H    := $(wildcard emu/*.h ptx/*.h cmodel/*.h sim/trace/*.h)
EMU_INC  := -Iemu -Iptx -Isim -Isim/trace
EMU_LIBS := -lz -lm

define emu_build
$(BUILD)/$(1)/emu/%.o: emu/%.c $(EMU_H) | $(BUILD)/$(1)/emu
	$$(CC) $$(CFLAGS_BASE) $(EMU_INC) $(2) -c $$< -o $$@
$(BUILD)/$(1)/emu/emu_fp.o: emu/emu_fp.c $(EMU_H) | $(BUILD)/$(1)/emu
	$$(CC) $$(CFLAGS_BASE) $(EMU_INC) $(2) -frounding-math -c $$< -o $$@
$(BUILD)/$(1)/emu:
	mkdir -p $$@
$(BUILD)/$(1)/libgaemu.a: $(patsubst emu/%.c,$(BUILD)/$(1)/emu/%.o,$(EMU_SRC))
	rm -f $$@ && ar rcs $$@ $$^
endef
$(eval $(call emu_build,rel,$(OPT)))
$(eval $(call emu_build,san,-O1 -g $(SAN)))

# ---------------------------------------------------------------------------------------------------
# Position-independent builds for the shared CUDA runtime. -O3 without LTO: the archive members are
# linked into a shared object by another makefile (mk/cudart.mk).
PIC_OPT := -O3 -g -fPIC -fvisibility=hidden
PIC_GATRACE_SRC := $(sort $(wildcard sim/trace/*.c))
PIC_PTX_SRC := $(sort $(filter-out ptx/gaptx.c,$(wildcard ptx/*.c)))

$(BUILD)/pic/cmodel/%.o: cmodel/%.c $(wildcard cmodel/*.h) | $(BUILD)/pic/cmodel
	$(CC) $(CFLAGS_BASE) $(PIC_OPT) -c $< -o $@
$(BUILD)/pic/gatrace/%.o: sim/trace/%.c $(wildcard sim/trace/*.h cmodel/*.h) | $(BUILD)/pic/gatrace
	$(CC) $(CFLAGS_BASE) -Isim/trace $(PIC_OPT) -c $< -o $@
$(BUILD)/pic/ptx/%.o: ptx/%.c $(wildcard ptx/*.h) | $(BUILD)/pic/ptx
	$(CC) $(CFLAGS_BASE) -Iptx $(PIC_OPT) -c $< -o $@
$(BUILD)/pic/emu/%.o: emu/%.c $(EMU_H) | $(BUILD)/pic/emu
	$(CC) $(CFLAGS_BASE) $(EMU_INC) $(PIC_OPT) -c $< -o $@
$(BUILD)/pic/emu/emu_fp.o: emu/emu_fp.c $(EMU_H) | $(BUILD)/pic/emu
	$(CC) $(CFLAGS_BASE) $(EMU_INC) $(PIC_OPT) -frounding-math -c $< -o $@
$(BUILD)/pic/cmodel $(BUILD)/pic/gatrace $(BUILD)/pic/ptx $(BUILD)/pic/emu:
	mkdir -p $@
$(BUILD)/pic/libgamodel.a: $(patsubst cmodel/%.c,$(BUILD)/pic/cmodel/%.o,$(MODEL_SRC))
	rm -f $@ && ar rcs $@ $^
$(BUILD)/pic/libgatrace.a: $(patsubst sim/trace/%.c,$(BUILD)/pic/gatrace/%.o,$(PIC_GATRACE_SRC))
	rm -f $@ && ar rcs $@ $^
$(BUILD)/pic/libgaptx.a: $(patsubst ptx/%.c,$(BUILD)/pic/ptx/%.o,$(PIC_PTX_SRC))
	rm -f $@ && ar rcs $@ $^
$(BUILD)/pic/libgaemu.a: $(patsubst emu/%.c,$(BUILD)/pic/emu/%.o,$(EMU_SRC))
	rm -f $@ && ar rcs $@ $^
EMU_PIC_LIBS := $(BUILD)/pic/libgaemu.a $(BUILD)/pic/libgaptx.a $(BUILD)/pic/libgatrace.a $(BUILD)/pic/libgamodel.a

# ---------------------------------------------------------------------------------------------------
# Tests: tests/test_emu.c runs hand-written PTX kernels on the interpreter and checks every result
# against a host computation (compiled by the top Makefile's rule with the include paths below).
EMU_TESTS := test_emu test_garuntime

define emu_test_build
$(foreach t,$(EMU_TESTS),$(BUILD)/$(1)/tests/$(t).o): CFLAGS_BASE += $(EMU_INC)
$(foreach t,$(EMU_TESTS),$(BUILD)/$(1)/tests/$(t).o): $(EMU_H)
$(foreach t,$(EMU_TESTS),$(BUILD)/$(1)/tests/$(t)): $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o \
    $(BUILD)/$(1)/libgaemu.a $(BUILD)/$(1)/libgaptx.a $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) $(EMU_LIBS) -o $$@
endef
$(eval $(call emu_test_build,rel,$(OPT)))
$(eval $(call emu_test_build,san,-O1 -g $(SAN)))

##@ PTX interpreter (emu/)
.PHONY: emu emu-pic test-emu

emu: $(BUILD)/rel/libgaemu.a $(BUILD)/san/libgaemu.a ## Build the PTX interpreter library libgaemu.a (plain and ASan/UBSan)

emu-pic: $(EMU_PIC_LIBS) ## Position-independent builds of the libraries libcudart.so.13 links

test-emu: $(foreach t,$(EMU_TESTS),$(BUILD)/rel/tests/$(t) $(BUILD)/san/tests/$(t)) ## Interpreter tests (ISA semantics, SIMT, barriers, GPUArmor requests), plain and ASan/UBSan
	@bash scripts/run_tests.sh $(foreach t,$(EMU_TESTS),$(BUILD)/rel/tests/$(t))
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run_tests.sh $(foreach t,$(EMU_TESTS),$(BUILD)/san/tests/$(t))

# ---------------------------------------------------------------------------------------------------
# The RTL build of the runtime (gpuarmor-run --rtl, docs/emulator.md §8): build/cudart/rtl/
# libcudart.so.13, the same runtime with the lockstep backend of tb/replay/tb_backend.c linked in and
# named in its backend registry (cudart/gr_backends.c -DGA_WITH_RTL), so that every MLU operation of a
# running CUDA program also runs on one Verilated ga_mlu per simulated SM and is checked against the
# model. One configuration,
# EMU_RTL_CFG (default t7_m8_l32: 7-bit tags, 8-entry MLB, 32 lanes), Verilated with -fPIC into
# build/verilator/<cfg>-pic/; the harness objects are compiled with -fPIC too; the library is linked
# by g++ (the model is C++).
EMU_RTL_CFG   ?= t7_m8_l32
EMU_RTL_DIR   := $(BUILD)/cudart/rtl
EMU_RTL_VDIR  := $(BUILD)/verilator/$(EMU_RTL_CFG)-pic
EMU_RTL_CLASS := Vga_mlu_$(subst -,_,$(EMU_RTL_CFG))_pic
emu_rtl_w = $(word $(1),$(subst _, ,$(EMU_RTL_CFG)))
# the files of rtl/ga_mlu.f (read by mk/rtl.mk)
EMU_RTL_SV    := $(RTL_SRC)
EMU_RTL_VLT   := $(wildcard rtl/*.vlt)

# The model depends on its command stamp ($(STAMP_DIR)/vl-emu.cmd, mk/deps.mk), not on this makefile.
EMU_RTL_VL    = $(VL_SIM) --cc -Wall --assert --top-module ga_mlu -MAKEFLAGS OPT_FAST=-O3 -MAKEFLAGS OBJCACHE=ccache \
  -CFLAGS -fPIC --prefix $(EMU_RTL_CLASS) \
  -GTagBits=$(patsubst t%,%,$(call emu_rtl_w,1)) -GMlbEntries=$(patsubst m%,%,$(call emu_rtl_w,2)) \
  -GLanes=$(patsubst l%,%,$(call emu_rtl_w,3)) -Mdir $(abspath $(EMU_RTL_VDIR)) --build \
  $(RTL_INC) $(EMU_RTL_VLT) $(EMU_RTL_SV)
EMU_RTL_VLMK  = -f $(EMU_RTL_CLASS).mk OPT_FAST=-O3 OBJCACHE=ccache verilated.o verilated_threads.o
stamp_vl-emu  = $(EMU_RTL_VL) && make $(EMU_RTL_VLMK)
$(EMU_RTL_VDIR)/$(EMU_RTL_CLASS)__ALL.a: $(EMU_RTL_SV) $(RTL_DEPS) $(EMU_RTL_VLT) $(STAMP_DIR)/vl-emu.cmd $(VL_SIM_STAMP)
	@mkdir -p $(@D)
	$(EMU_RTL_VL) > $(EMU_RTL_VDIR)/build.log 2>&1 || { cat $(EMU_RTL_VDIR)/build.log; exit 1; }
	$(MAKE) --no-print-directory -s -C $(EMU_RTL_VDIR) $(EMU_RTL_VLMK) >> $(EMU_RTL_VDIR)/build.log 2>&1 \
	  || { cat $(EMU_RTL_VDIR)/build.log; exit 1; }
	@grep -n '%Warning\|%Error' $(EMU_RTL_VDIR)/build.log && exit 1 || true

$(EMU_RTL_DIR)/obj/shim.o: tb/shim/ga_mlu_shim.cpp tb/shim/tb_dut.h $(EMU_RTL_VDIR)/$(EMU_RTL_CLASS)__ALL.a
	@mkdir -p $(@D)
	$(CXX) -O2 -g -fPIC -Wall -Wextra -Werror -Itb/shim -isystem $(TB_VL_INC) -isystem $(TB_VL_INC)/vltstd \
	  -faligned-new -DVM_COVERAGE=0 -DVM_TRACE=0 -DVM_TRACE_FST=0 -I$(EMU_RTL_VDIR) -DTB_VTOP=$(EMU_RTL_CLASS) \
	  '-DTB_VTOP_H="$(EMU_RTL_CLASS).h"' -DTB_TAG_BITS=$(patsubst t%,%,$(call emu_rtl_w,1)) \
	  -DTB_MLB_ENTRIES=$(patsubst m%,%,$(call emu_rtl_w,2)) -DTB_LANES=$(patsubst l%,%,$(call emu_rtl_w,3)) \
	  -DTB_ID_BITS=4 '-DTB_CFG_NAME="$(EMU_RTL_CFG)"' -c $< -o $@
$(EMU_RTL_DIR)/obj/tb_%.o: tb/cosim/tb_%.c $(wildcard tb/cosim/*.h tb/shim/*.h cmodel/*.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(DEPFLAGS) -Icmodel -Itb/cosim -Itb/shim -O2 -g -fPIC -fvisibility=hidden -c $< -o $@
$(EMU_RTL_DIR)/obj/tb_backend.o: tb/replay/tb_backend.c $(wildcard tb/cosim/*.h tb/shim/*.h cmodel/*.h sim/trace/*.h sim/eval/*.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(DEPFLAGS) -Icmodel -Itb/cosim -Itb/shim -Isim/trace -Isim/eval -O2 -g -fPIC -fvisibility=hidden -c $< -o $@

# The library's backend registry (cudart/gr_backends.c) with "rtl" (-DGA_WITH_RTL), in place of the plain
# library's model-only one: the RTL backend is chosen by name from it, never by link order.
$(EMU_RTL_DIR)/obj/gr_backends_rtl.o: cudart/gr_backends.c $(CUDART_H)
	@mkdir -p $(@D)
	$(CC) $(CUDART_CFLAGS) -DGA_WITH_RTL -c $< -o $@
EMU_RTL_CUDART_OBJ := $(filter-out $(CUDART_DIR)/obj/gr_backends.o,$(CUDART_LIB_OBJ)) $(EMU_RTL_DIR)/obj/gr_backends_rtl.o

EMU_RTL_OBJ := $(EMU_RTL_DIR)/obj/tb_backend.o $(EMU_RTL_DIR)/obj/tb_chk.o $(EMU_RTL_DIR)/obj/tb_memsys.o \
               $(EMU_RTL_DIR)/obj/shim.o
$(EMU_RTL_DIR)/libcudart.so.13: $(EMU_RTL_OBJ) $(EMU_RTL_CUDART_OBJ) $(CUDART_GEN_OBJ) $(EMU_PIC_LIBS) \
    $(EMU_RTL_VDIR)/$(EMU_RTL_CLASS)__ALL.a cudart/libcudart.map
	$(CXX) $(CUDART_LDFLAGS) -o $@ $(EMU_RTL_OBJ) $(EMU_RTL_CUDART_OBJ) $(CUDART_GEN_OBJ) $(EMU_PIC_LIBS) \
	  $(EMU_RTL_VDIR)/$(EMU_RTL_CLASS)__ALL.a $(EMU_RTL_VDIR)/verilated.o $(EMU_RTL_VDIR)/verilated_threads.o \
	  $(CUDART_LIBS)

.PHONY: cudart-rtl
cudart-rtl: tb-deps cudart $(EMU_RTL_DIR)/libcudart.so.13 ## The RTL build of the runtime: gpuarmor-run --rtl runs every MLU operation on Verilated RTL too (EMU_RTL_CFG)
	@echo "cudart-rtl: built $(EMU_RTL_DIR)/libcudart.so.13 ($(EMU_RTL_CFG)); gpuarmor-run --rtl uses it"

# ---------------------------------------------------------------------------------------------------
# The interpreter's speed (make bench runs it; docs/emulator.md §10): emubench runs four corpus kernels
# (build/apps/*.ptx) in each mode and the same computations in plain C, in thread CPU time.
$(BUILD)/rel/emu/emubench.o: emu/bench/emubench.c $(EMU_H) | $(BUILD)/rel/emu
	$(CC) $(CFLAGS_BASE) $(EMU_INC) $(OPT) -c $< -o $@
$(BUILD)/rel/emu/emubench: $(BUILD)/rel/emu/emubench.o $(BUILD)/rel/libgaemu.a $(BUILD)/rel/libgaptx.a \
    $(BUILD)/rel/libgatrace.a $(BUILD)/rel/libgamodel.a
	$(CC) $(OPT) $^ $(EMU_LIBS) -o $@

.PHONY: bench-emu bench-emu-callgrind
bench-emu: apps $(BUILD)/rel/emu/emubench ## Interpreter speed: thread instructions per CPU second per mode, and the slowdown against plain C
	@if [ -z "$$(ls $(BUILD)/apps/*.ptx 2>/dev/null)" ]; then echo "bench-emu: skipped: no corpus PTX (nvcc missing: see make apps)"; \
	else $(BUILD)/rel/emu/emubench --ptx-dir $(BUILD)/apps; fi

# Instruction counts do not drift with the machine's load: callgrind counts the instructions of the
# launch alone (--toggle-collect=emu_run_launch: the interpreter loop, LTO inlines emu_launch) for the small inputs, one repetition per mode.
bench-emu-callgrind: apps $(BUILD)/rel/emu/emubench ## Instructions per thread instruction of the interpreter, counted by callgrind (small inputs)
	@command -v valgrind >/dev/null || { echo "bench-emu-callgrind: valgrind not found"; exit 1; }
	@mkdir -p $(BUILD)/bench
	@for k in vector_add gemm; do for m in off compiler hwonly; do \
	  valgrind --tool=callgrind --toggle-collect=emu_run_launch --callgrind-out-file=$(BUILD)/bench/cg.$$k.$$m.out \
	    $(BUILD)/rel/emu/emubench --ptx-dir $(BUILD)/apps --small --reps 1 --only $$k --modes $$m 2>&1 | \
	    awk -v k=$$k -v m=$$m '/^==.*Collected/ {ir = $$NF} $$1 == k && $$2 == m {ti = $$3} \
	      END {printf "%-11s %-9s %14s thread insns, %14s host instructions: %.1f per thread instruction\n", k, m, ti, ir, ir / ti}'; \
	done; done

# ---------------------------------------------------------------------------------------------------
# The corpus under the emulator (docs/emulator.md §9), run by make test: every program of apps/ in both
# modes and every layout, checked against apps/manifest.tsv (scripts/corpus.py); then six programs
# captured as traces whose replay by gasim must give the emulator's own MLU counters and whose replay
# through the Verilated RTL must give 0 mismatches, and the same programs run live under --rtl.
CORPUS_TRACE_PROGS ?= linked_list ptr_select reduction bug_adjacent_oob_256 bug_double_free bug_uaf
.PHONY: test-corpus corpus corpus-trace
corpus: apps cudart ## Run the corpus under gpuarmor-run in both modes x every layout (cmodel/ga_layouts.def); check the manifest (build/corpus/table.md)
	@if [ -z "$$(ls $(BUILD)/apps 2>/dev/null)" ]; then echo "corpus: skipped: no corpus was built (nvcc missing: see make apps)"; \
	else python3 scripts/corpus.py --runner $(BUILD)/cudart/gpuarmor-run --apps $(BUILD)/apps --out $(BUILD)/corpus --jobs 2; fi

corpus-trace: apps cudart cudart-rtl gasim $(BUILD)/cosim/$(EMU_RTL_CFG)/gasim-rtl ## Capture CORPUS_TRACE_PROGS as traces; replay them in gasim and through the RTL; run them live with --rtl
	@if [ -z "$$(ls $(BUILD)/apps 2>/dev/null)" ]; then echo "corpus-trace: skipped: no corpus was built (nvcc missing)"; \
	else bash scripts/corpus_trace.sh $(BUILD) $(EMU_RTL_CFG) --live $(CORPUS_TRACE_PROGS); fi

test-corpus: corpus corpus-trace ## make test's corpus step: corpus + corpus-trace

# ---------------------------------------------------------------------------------------------------
# The real runtime under ASan + UBSan (make corpus-san, in make test): the emulator, the compiler pass,
# the trace library and the model compiled with the sanitizers and -fPIC into
# build/cudart/san/real/libcudart.so.13; the corpus programs (not instrumented themselves) run against
# it with the sanitizer runtimes preloaded, so every line of emu/ and ptx/ that the corpus reaches runs
# checked on real PTX.
PICSAN_OPT := -O1 -g -fPIC $(SAN)
$(BUILD)/picsan/cmodel/%.o: cmodel/%.c $(wildcard cmodel/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(PICSAN_OPT) -c $< -o $@
$(BUILD)/picsan/gatrace/%.o: sim/trace/%.c $(wildcard sim/trace/*.h cmodel/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) -Isim/trace $(PICSAN_OPT) -c $< -o $@
$(BUILD)/picsan/ptx/%.o: ptx/%.c $(wildcard ptx/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) -Iptx $(PICSAN_OPT) -c $< -o $@
$(BUILD)/picsan/emu/%.o: emu/%.c $(EMU_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(EMU_INC) $(PICSAN_OPT) -c $< -o $@
$(BUILD)/picsan/emu/emu_fp.o: emu/emu_fp.c $(EMU_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(EMU_INC) $(PICSAN_OPT) -frounding-math -c $< -o $@
EMU_PICSAN_OBJ := $(patsubst emu/%.c,$(BUILD)/picsan/emu/%.o,$(EMU_SRC)) \
                  $(patsubst ptx/%.c,$(BUILD)/picsan/ptx/%.o,$(PIC_PTX_SRC)) \
                  $(patsubst sim/trace/%.c,$(BUILD)/picsan/gatrace/%.o,$(PIC_GATRACE_SRC)) \
                  $(patsubst cmodel/%.c,$(BUILD)/picsan/cmodel/%.o,$(MODEL_SRC))
CUDART_SAN_REAL_OBJ := $(patsubst $(CUDART_DIR)/%,$(CUDART_DIR)/san/%,$(CUDART_LIB_OBJ) $(CUDART_GEN_OBJ))
$(CUDART_DIR)/san/real/libcudart.so.13: $(CUDART_SAN_REAL_OBJ) $(EMU_PICSAN_OBJ) cudart/libcudart.map
	@mkdir -p $(@D)
	$(CC) $(CUDART_LDFLAGS) $(SAN) -o $@ $(CUDART_SAN_REAL_OBJ) $(EMU_PICSAN_OBJ) $(CUDART_LIBS)

.PHONY: corpus-san
corpus-san: apps cudart $(CUDART_DIR)/san/real/libcudart.so.13 ## The corpus (both modes, bst) against the runtime built with ASan + UBSan
	@if [ -z "$$(ls $(BUILD)/apps 2>/dev/null)" ]; then echo "corpus-san: skipped: no corpus was built (nvcc missing)"; else \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0:verbosity=1 GPUARMOR_LIB=$(CUDART_DIR)/san/real \
	    $(CUDART_DIR)/gpuarmor-run --quiet $(BUILD)/apps/vector_add 2>&1 | grep -q 'AddressSanitizer' || \
	    { echo "corpus-san: the sanitized runtime did not start ASan"; exit 1; }; \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  GPUARMOR_LIB=$(CUDART_DIR)/san/real python3 scripts/corpus.py --runner $(CUDART_DIR)/gpuarmor-run \
	    --apps $(BUILD)/apps --out $(BUILD)/corpus-san --layouts bst --jobs 2 --timeout 600; fi

# ---------------------------------------------------------------------------------------------------
# The interpreter's fuzzer (libFuzzer + ASan/UBSan; FUZZ_* variables from mk/sim.mk): arbitrary bytes as a
# module, loaded and every kernel launched under a small instruction budget (tests/fuzz/fuzz_emu.c). Seeds:
# the PTX fuzzer's corpus (tests/fuzz/corpus-ptx) and the interpreter's own (tests/fuzz/corpus-emu).
EMU_FUZZ_SMOKE_SECONDS ?= 15
# mk/sim.mk (FUZZ_DIR) is read after this file: the directory is named here for the targets.
EMU_FUZZ_DIR := $(BUILD)/fuzz
$(EMU_FUZZ_DIR)/emuobj/%.o: emu/%.c $(EMU_H)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CFLAGS_BASE) $(EMU_INC) $(FUZZ_FLAGS) $(if $(filter emu_fp.c,$(notdir $<)),-frounding-math) -c $< -o $@
$(EMU_FUZZ_DIR)/fuzz_emu.o: tests/fuzz/fuzz_emu.c $(EMU_H)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CFLAGS_BASE) $(EMU_INC) $(FUZZ_FLAGS) -c $< -o $@
$(EMU_FUZZ_DIR)/fuzz_emu: $(EMU_FUZZ_DIR)/fuzz_emu.o $(patsubst emu/%.c,$(EMU_FUZZ_DIR)/emuobj/%.o,$(EMU_SRC)) \
    $(patsubst ptx/%.c,$(EMU_FUZZ_DIR)/ptxobj/%.o,$(PIC_PTX_SRC)) $(patsubst sim/trace/%.c,$(EMU_FUZZ_DIR)/tobj/%.o,$(PIC_GATRACE_SRC)) \
    $(patsubst cmodel/%.c,$(EMU_FUZZ_DIR)/obj/%.o,$(MODEL_SRC))
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $^ -lz -lm -o $@

.PHONY: fuzz-emu fuzz-emu-smoke
fuzz-emu: fuzz-deps $(EMU_FUZZ_DIR)/fuzz_emu ## Fuzz the interpreter (load + launch every kernel) for FUZZ_SECONDS (default 60)
	@mkdir -p $(EMU_FUZZ_DIR)/seeds-emu && cp tests/fuzz/corpus-ptx/* tests/fuzz/corpus-emu/* $(EMU_FUZZ_DIR)/seeds-emu/ 2>/dev/null; \
	FUZZ_MAX_LEN=16384 bash tests/fuzz/run_fuzz.sh $(EMU_FUZZ_DIR)/fuzz_emu $(EMU_FUZZ_DIR)/seeds-emu $(EMU_FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_JOBS)

fuzz-emu-smoke: fuzz-deps $(EMU_FUZZ_DIR)/fuzz_emu ## A short interpreter fuzz run for CI (EMU_FUZZ_SMOKE_SECONDS, default 15)
	@mkdir -p $(EMU_FUZZ_DIR)/seeds-emu && cp tests/fuzz/corpus-ptx/* tests/fuzz/corpus-emu/* $(EMU_FUZZ_DIR)/seeds-emu/ 2>/dev/null; \
	FUZZ_MAX_LEN=16384 bash tests/fuzz/run_fuzz.sh $(EMU_FUZZ_DIR)/fuzz_emu $(EMU_FUZZ_DIR)/seeds-emu $(EMU_FUZZ_DIR) $(EMU_FUZZ_SMOKE_SECONDS) 1
