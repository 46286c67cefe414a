# mk/cudart.mk — the replacement CUDA runtime libcudart.so.13 and the launcher gpuarmor-run (cudart/,
# docs/emulator.md §3), their unit tests (tests/test_cudart.c) and the integration test
# (tests/cudart/run.sh). Included by the top Makefile and run from the repository root.
#
# The library is compiled against the CUDA toolkit's own headers (CUDA_HOME, default /usr/local/cuda),
# so every signature and struct layout is NVIDIA's; without them `make cudart` says so and builds
# nothing. It links the emulator: the real one (build/pic/libgaemu.a, libgaptx.a, libgatrace.a, libgamodel.a,
# position-independent builds provided by the emulator's own make file) once emu/ has sources, else the
# stand-in tests/emu_fake.c; CUDART_EMU=fake|real overrides the choice. The integration test always
# uses a second copy of the library linked with the fake (build/cudart/fake/), which fails kernels on
# purpose by name; with the real emulator it also runs the programs that compute for real.

CUDA_HOME   ?= /usr/local/cuda
CUDA_INC    := $(CUDA_HOME)/include
NVCC        ?= $(if $(wildcard $(CUDA_HOME)/bin/nvcc),$(CUDA_HOME)/bin/nvcc,nvcc)
CUDART_EMU  ?= $(if $(wildcard emu/*.c),real,fake)
CUDART_DIR  := $(BUILD)/cudart
CUDART_OPT  ?= -O2 -g
CUDART_HAVE_CUDA := $(if $(wildcard $(CUDA_INC)/cuda_runtime_api.h),yes,)
# What the real emulator needs from the system (zlib: gzip traces; libm; pthreads for our lock).
CUDART_LIBS ?= -lz -lm -lpthread
# (mk/emu.mk names them EMU_PIC_LIBS, but is included after this file, so they are listed here.)
CUDART_EMU_LIBS_real := $(BUILD)/pic/libgaemu.a $(BUILD)/pic/libgaptx.a $(BUILD)/pic/libgatrace.a $(BUILD)/pic/libgamodel.a
CUDART_EMU_LIBS_fake := $(CUDART_DIR)/obj/emu_fake.o

CUDART_H       := $(wildcard cudart/*.h emu/*.h cmodel/*.h) cudart/gr_errtab.inc
CUDART_LIB_OBJ := $(addprefix $(CUDART_DIR)/obj/,gr_rt.o gr_reg.o gr_mem.o gr_dev.o gr_sync.o gr_pt.o \
                    gr_errors.o gr_fatbin.o gr_opts.o gr_map.o gr_backends.o)
CUDART_GEN_OBJ := $(addprefix $(CUDART_DIR)/gen/,gr_stubs.o gr_stubs_pt.o gr_stubs_interop.o)
CUDART_RUN_OBJ := $(addprefix $(CUDART_DIR)/obj/,gr_run.o gr_elf.o gr_opts.o gr_fatbin.o)
# -fPIC: everything here goes into a shared library; the version script exports cuda* / __cuda* in
# the node libcudart.so.13 and hides the rest (emulator, model, our internals).
# -MMD -MP: a .d file beside each object (read by mk/deps.mk, which is included after this file).
CUDART_CFLAGS  := $(CSTD) $(WARN) -MMD -MP $(CUDART_OPT) -fPIC -Icmodel -Iemu -Icudart -I$(CUDA_INC)
CUDART_LDFLAGS := -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=cudart/libcudart.map -Wl,-z,defs

$(CUDART_DIR)/obj $(CUDART_DIR)/gen $(CUDART_DIR)/fake $(CUDART_DIR)/tests:
	mkdir -p $@
$(CUDART_DIR)/obj/%.o: cudart/%.c $(CUDART_H) | $(CUDART_DIR)/obj
	$(CC) $(CUDART_CFLAGS) -c $< -o $@
$(CUDART_DIR)/obj/emu_fake.o: tests/emu_fake.c $(CUDART_H) | $(CUDART_DIR)/obj
	$(CC) $(CUDART_CFLAGS) -c $< -o $@
# The unsupported-call stubs, generated from the toolkit's declarations (cudart/gen_stubs.sh).
$(CUDART_DIR)/gen/gr_stubs.c $(CUDART_DIR)/gen/gr_stubs_pt.c $(CUDART_DIR)/gen/gr_stubs_interop.c &: \
		cudart/gen_stubs.sh $(CUDA_INC)/cuda_runtime_api.h | $(CUDART_DIR)/gen
	sh cudart/gen_stubs.sh $(CC) $(CUDA_INC) $(CUDART_DIR)/gen
$(CUDART_DIR)/gen/%.o: $(CUDART_DIR)/gen/%.c
	$(CC) $(CUDART_CFLAGS) -c $< -o $@
# The enumerators of cudaError_t, for the unit test's comparison with the committed table; empty
# without the toolkit (the test then says it could not compare).
$(CUDART_DIR)/gen/gr_errenum.inc: | $(CUDART_DIR)/gen
	@if [ -r $(CUDA_INC)/driver_types.h ]; then \
	  awk '/^enum __device_builtin__ cudaError$$/ {on = 1} on && /^};/ {exit} \
	       on && match($$0, /^[ \t]+cuda[A-Za-z0-9_]+[ \t]*=[ \t]*[0-9]+/) { \
	         s = substr($$0, RSTART, RLENGTH); gsub(/[ \t]/, "", s); split(s, a, "="); \
	         printf "GR_ENUM(%s, %s)\n", a[2], a[1] }' $(CUDA_INC)/driver_types.h > $@.tmp && mv $@.tmp $@; \
	else echo "/* no CUDA toolkit at build time */" > $@; fi

$(CUDART_DIR)/libcudart.so.13: $(CUDART_LIB_OBJ) $(CUDART_GEN_OBJ) $(CUDART_EMU_LIBS_$(CUDART_EMU)) cudart/libcudart.map
	$(CC) $(CUDART_LDFLAGS) -o $@ $(CUDART_LIB_OBJ) $(CUDART_GEN_OBJ) $(CUDART_EMU_LIBS_$(CUDART_EMU)) $(CUDART_LIBS)
$(CUDART_DIR)/fake/libcudart.so.13: $(CUDART_LIB_OBJ) $(CUDART_GEN_OBJ) $(CUDART_EMU_LIBS_fake) cudart/libcudart.map | $(CUDART_DIR)/fake
	$(CC) $(CUDART_LDFLAGS) -o $@ $(CUDART_LIB_OBJ) $(CUDART_GEN_OBJ) $(CUDART_EMU_LIBS_fake) -lpthread
$(CUDART_DIR)/gpuarmor-run: $(CUDART_RUN_OBJ)
	$(CC) -o $@ $^

# The fake-linked library once more under ASan + UBSan: the integration test runs programs with it
# (the sanitizer runtimes preloaded), so the runtime's own code is checked on real calls too.
CUDART_SAN_OBJ := $(patsubst $(CUDART_DIR)/%,$(CUDART_DIR)/san/%,$(CUDART_LIB_OBJ) $(CUDART_GEN_OBJ) $(CUDART_EMU_LIBS_fake))
$(CUDART_DIR)/san/obj/%.o: cudart/%.c $(CUDART_H)
	@mkdir -p $(@D)
	$(CC) $(CUDART_CFLAGS) -O1 $(SAN) -c $< -o $@
$(CUDART_DIR)/san/obj/emu_fake.o: tests/emu_fake.c $(CUDART_H)
	@mkdir -p $(@D)
	$(CC) $(CUDART_CFLAGS) -O1 $(SAN) -c $< -o $@
$(CUDART_DIR)/san/gen/%.o: $(CUDART_DIR)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(CUDART_CFLAGS) -O1 $(SAN) -c $< -o $@
$(CUDART_DIR)/san/fake/libcudart.so.13: $(CUDART_SAN_OBJ) cudart/libcudart.map
	@mkdir -p $(@D)
	$(CC) $(CUDART_LDFLAGS) $(SAN) -o $@ $(CUDART_SAN_OBJ) -lpthread

# Non-PIC builds of the pure parts for the unit tests, plain and sanitized (the top Makefile builds
# and runs tests/test_cudart.c in test-model / test-san with these link rules).
CUDART_UNIT := gr_fatbin gr_opts gr_errors gr_map
define cudart_unit_build
$(BUILD)/$(1)/cudart/%.o: cudart/%.c $(CUDART_H) | $(BUILD)/$(1)/cudart
	$$(CC) $$(CFLAGS_BASE) -Iemu -Icudart $(2) -c $$< -o $$@
$(BUILD)/$(1)/cudart:
	mkdir -p $$@
$(BUILD)/$(1)/tests/test_cudart.o: CFLAGS_BASE += -Iemu -Icudart -I$(CUDART_DIR)/gen
$(BUILD)/$(1)/tests/test_cudart.o: $(CUDART_H) $(CUDART_DIR)/gen/gr_errenum.inc
$(BUILD)/$(1)/tests/test_cudart: $(BUILD)/$(1)/tests/test_cudart.o $(patsubst %,$(BUILD)/$(1)/cudart/%.o,$(CUDART_UNIT))
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) -o $$@
endef
$(eval $(call cudart_unit_build,rel,$(OPT)))
$(eval $(call cudart_unit_build,san,-O1 -g $(SAN)))

# ---------------------------------------------------------------------------------------------------
##@ CUDA runtime (docs/emulator.md §3)
.PHONY: cudart test-cudart test-cudart-unit

ifeq ($(CUDART_HAVE_CUDA),yes)
cudart: $(CUDART_DIR)/libcudart.so.13 $(CUDART_DIR)/gpuarmor-run ## Build build/cudart/libcudart.so.13 and the launcher build/cudart/gpuarmor-run
	@echo "cudart: built $(CUDART_DIR)/libcudart.so.13 (emulator: $(CUDART_EMU)) and $(CUDART_DIR)/gpuarmor-run"
else
cudart:
	@echo "cudart: skipped: the CUDA toolkit headers ($(CUDA_INC)/cuda_runtime_api.h) are not there; set CUDA_HOME"
endif

test-cudart-unit: $(BUILD)/rel/tests/test_cudart $(BUILD)/san/tests/test_cudart ## Unit tests of the runtime's fatbinary walk, options and error table (plain and ASan/UBSan)
	@bash scripts/run_tests.sh $(BUILD)/rel/tests/test_cudart
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run_tests.sh $(BUILD)/san/tests/test_cudart

ifeq ($(CUDART_HAVE_CUDA),yes)
test-cudart: test-cudart-unit $(CUDART_DIR)/fake/libcudart.so.13 $(CUDART_DIR)/san/fake/libcudart.so.13 $(CUDART_DIR)/gpuarmor-run $(if $(filter real,$(CUDART_EMU)),$(CUDART_DIR)/libcudart.so.13) ## Runtime unit tests, then CUDA programs built with nvcc run under gpuarmor-run (tests/cudart/run.sh)
	@CUDART_EMU=$(CUDART_EMU) NVCC=$(NVCC) CC=$(CC) bash tests/cudart/run.sh $(CUDART_DIR)
else
test-cudart: test-cudart-unit
	@echo "test-cudart: integration skipped: the CUDA toolkit headers ($(CUDA_INC)) are not there; set CUDA_HOME"
endif
