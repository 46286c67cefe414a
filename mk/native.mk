# mk/native.mk — the corpus against a real GPU (docs/emulator.md, "Against a real GPU"). Included by
# the top Makefile after mk/apps.mk and mk/cudart.mk (it uses their NVCC, APPS_* and CUDART_DIR) and
# run from the repository root.
#
# corpus-native        on a machine with an NVIDIA GPU, nvcc and compute-sanitizer: scripts/corpus-native.sh
#                      builds and runs every apps/ program natively (compute_80 PTX JIT-compiled by the
#                      driver, and sm_90 SASS), plainly, under memcheck (also with padding for the bug
#                      programs), racecheck and initcheck, and with apps/native/probe.h recording the
#                      device-to-host copies; it writes $(NATIVE_DIR)/run/native.tsv and a tarball of the
#                      logs. Copy native.tsv to apps/native/<gpu>.tsv to keep it (it exits 3 without a GPU).
# corpus-native-check  anywhere: scripts/corpus_native_check.py runs the corpus under gpuarmor-run and
#                      compares it with apps/native/h100.tsv (stdout, the copies' bytes, and GPUArmor's
#                      detections against compute-sanitizer's). It needs the probe builds below: each
#                      correct program built with mk/apps.mk's flags and apps/native/probe.h pre-included.
#                      Without nvcc it says so and skips, like the other corpus targets.

NATIVE_TSV   ?= apps/native/h100.tsv
NATIVE_DIR   := $(BUILD)/native
NATIVE_OK    := $(shell awk -F'\t' '!/^\#/ && NF && $$1 != "name" && $$2 == "ok" { print $$1 }' apps/manifest.tsv 2>/dev/null)
NATIVE_PROBE := $(addprefix $(NATIVE_DIR)/probe/,$(NATIVE_OK))

##@ The corpus on a real GPU (docs/emulator.md, "Against a real GPU")
.PHONY: corpus-native corpus-native-check

corpus-native: ## On a GPU machine: run the corpus natively and under compute-sanitizer (build/native/run/native.tsv)
	bash scripts/corpus-native.sh --out $(NATIVE_DIR)/run

ifeq ($(APPS_HAVE_NVCC),)
corpus-native-check: ## Compare the interpreter with apps/native/h100.tsv: stdout, copied-back bytes, GPUArmor vs compute-sanitizer
	@echo "corpus-native-check: skipped: no corpus was built (nvcc missing: see make apps)"
else
corpus-native-check: apps cudart $(NATIVE_PROBE)
	python3 scripts/corpus_native_check.py --native $(NATIVE_TSV) --runner $(CUDART_DIR)/gpuarmor-run \
	  --apps $(APPS_DIR) --probe $(NATIVE_DIR)/probe --out $(NATIVE_DIR)/check
endif

$(NATIVE_DIR)/probe:
	mkdir -p $@

# A probe build: the program exactly as mk/apps.mk builds it, plus apps/native/probe.h. Written to a
# temporary name and renamed when complete, like the corpus itself.
$(NATIVE_PROBE): $(NATIVE_DIR)/probe/%: apps/%.cu $(APPS_HDR) apps/native/probe.h mk/native.mk mk/apps.mk | $(NATIVE_DIR)/probe
	@rm -f $@.tmp
	$(NVCC) $(APPS_BIN_FLAGS) $(APPS_WARN) -include apps/native/probe.h $< -o $@.tmp || { rm -f $@.tmp; exit 1; }
	@mv -f $@.tmp $@
