# mk/eval.mk — the synthetic workloads (sim/workloads/), the evaluation (sim/eval/), their tests, and
# the targets that regenerate docs/results.md. Included by the top Makefile and run from the
# repository root; every path here is relative to it. Method: docs/eval.md; workloads: docs/workloads.md.
#
#   build/<rel|san>/libgaeval.a   workload generator + evaluation library (links before libgamodel.a)
#   build/<rel|san>/eval/gaeval   the evaluation driver
#   build/<rel|san>/eval/gawl     workload listing and gatrace writer (links libgatrace.a, -lz)
#   build/<rel|san>/eval/gasweep  the corpus traces through the Fig 9-13 sweeps (links libgatrace.a, -lz)

EVAL_SRC    := sim/workloads/ga_workloads.c sim/eval/ga_perf.c \
               sim/eval/ga_campaign.c sim/eval/ga_shard.c
EVAL_H      := $(wildcard sim/workloads/*.h sim/eval/*.h cmodel/*.h)
EVAL_INC    := -Isim/workloads -Isim/eval
EVAL_TESTS  := test_workloads test_campaign test_shard
# Tests that replay traces: the evaluation library, the sweep object and the trace library.
EVAL_TRACE_TESTS := test_sweep

# EVAL_SCALE: smoke (CI, under two minutes) or full (regenerates docs/results.md and docs/results/).
EVAL_SCALE  ?= smoke
EVAL_OUT    := $(BUILD)/eval/$(EVAL_SCALE)
EVAL_ARGS   ?=
# Traces written by `make workloads`: instruction scale and output directory.
WL_SCALE    ?= 1e-4
WL_OUT      ?= $(BUILD)/workloads

define eval_build
$(BUILD)/$(1)/eval/%.o: sim/eval/%.c $(EVAL_H) | $(BUILD)/$(1)/eval
	$$(CC) $$(CFLAGS_BASE) $(EVAL_INC) $(2) -c $$< -o $$@
$(BUILD)/$(1)/eval/ga_workloads.o: sim/workloads/ga_workloads.c $(EVAL_H) | $(BUILD)/$(1)/eval
	$$(CC) $$(CFLAGS_BASE) $(EVAL_INC) $(2) -c $$< -o $$@
$(BUILD)/$(1)/eval/gawl.o: sim/workloads/gawl.c $(EVAL_H) $(wildcard sim/trace/*.h) | $(BUILD)/$(1)/eval
	$$(CC) $$(CFLAGS_BASE) $(EVAL_INC) -Isim $(2) -c $$< -o $$@
$(BUILD)/$(1)/eval:
	mkdir -p $$@
$(BUILD)/$(1)/libgaeval.a: $(patsubst %.c,$(BUILD)/$(1)/eval/%.o,$(notdir $(EVAL_SRC)))
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/eval/gaeval: $(BUILD)/$(1)/eval/gaeval.o $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ -lm -o $$@
$(BUILD)/$(1)/eval/ga_sweep.o $(BUILD)/$(1)/eval/gasweep.o: $(BUILD)/$(1)/eval/%.o: sim/eval/%.c $(EVAL_H) $(wildcard sim/trace/*.h) | $(BUILD)/$(1)/eval
	$$(CC) $$(CFLAGS_BASE) $(EVAL_INC) -Isim/trace -Isim $(2) -c $$< -o $$@
$(BUILD)/$(1)/eval/gasweep: $(BUILD)/$(1)/eval/gasweep.o $(BUILD)/$(1)/eval/ga_sweep.o $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/eval/gawl: $(BUILD)/$(1)/eval/gawl.o $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ -lz -lm -o $$@
# The workload and campaign tests link the evaluation library too.
$(foreach t,$(EVAL_TESTS),$(BUILD)/$(1)/tests/$(t).o): CFLAGS_BASE += $(EVAL_INC)
$(foreach t,$(EVAL_TESTS),$(BUILD)/$(1)/tests/$(t).o): $(EVAL_H)
$(foreach t,$(EVAL_TESTS),$(BUILD)/$(1)/tests/$(t)): $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_COMMON)) $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) -lm -o $$@
$(foreach t,$(EVAL_TRACE_TESTS),$(BUILD)/$(1)/tests/$(t).o): CFLAGS_BASE += $(EVAL_INC) -Isim/trace -Isim
$(foreach t,$(EVAL_TRACE_TESTS),$(BUILD)/$(1)/tests/$(t).o): $(EVAL_H) $(wildcard sim/trace/*.h)
$(foreach t,$(EVAL_TRACE_TESTS),$(BUILD)/$(1)/tests/$(t)): $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_COMMON)) $(BUILD)/$(1)/eval/ga_sweep.o $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$(TEST_LINK_$(1)) $$^ $$(CHECK_LIBS) -lz -lm -o $$@
endef
$(eval $(call eval_build,rel,$(OPT)))
$(eval $(call eval_build,san,-O1 -g $(SAN)))

.PHONY: eval eval-smoke eval-full eval-plots eval-corpus eval-tools eval-shard-check workloads

# The corpus part (scripts/eval_corpus.py; docs/eval.md, "The corpus"): it needs nvcc (the programs),
# the CUDA runtime build and gaptx; its RTL replays need Verilator and both 32-lane configurations.
EVAL_JOBS     ?= 2
EVAL_CORPUS   := $(if $(APPS_HAVE_NVCC),$(if $(filter yes,$(CUDART_HAVE_CUDA)),yes))
EVAL_RTL_CFGS := t7_m8_l32 t16_m8_l32
EVAL_HAVE_VL  := $(shell command -v $(or $(VERILATOR),verilator) 2>/dev/null)
EVAL_RTL_BINS := $(if $(EVAL_HAVE_VL),$(foreach c,$(EVAL_RTL_CFGS),$(BUILD)/cosim/$(c)/gasim-rtl $(BUILD)/cosim/$(c)/gaeval-rtl))
EVAL_CORPUS_ARGS ?=

##@ Evaluation

eval-tools: $(BUILD)/rel/eval/gaeval $(BUILD)/rel/eval/gasweep
ifeq ($(EVAL_CORPUS),yes)
eval-tools: $(APPS_STAMP) cudart $(BUILD)/rel/ptx/gaptx $(EVAL_RTL_BINS)
endif

eval: eval-tools ## Evaluation at EVAL_SCALE (smoke|full): stand-ins and the corpus; full also rewrites docs/results.md and docs/results/
	@mkdir -p $(EVAL_OUT)
ifeq ($(EVAL_CORPUS),yes)
	python3 scripts/eval_corpus.py --jobs $(EVAL_JOBS) all --scale $(EVAL_SCALE) --out $(EVAL_OUT)/corpus $(EVAL_CORPUS_ARGS)
	$(BUILD)/rel/eval/gaeval run --scale $(EVAL_SCALE) --out $(EVAL_OUT) --corpus $(EVAL_OUT)/corpus/sweep.csv $(EVAL_ARGS)
	python3 scripts/eval_corpus.py report --corpus $(EVAL_OUT)/corpus --out $(EVAL_OUT)
else
	@echo "eval: the corpus part is skipped: it needs nvcc (CUDA Toolkit 13) and the CUDA headers (make apps cudart)"
	$(BUILD)/rel/eval/gaeval run --scale $(EVAL_SCALE) --out $(EVAL_OUT) $(EVAL_ARGS)
	python3 scripts/eval_corpus.py report --skipped "nvcc or the CUDA headers were not found" --out $(EVAL_OUT)
endif
	@$(MAKE) --no-print-directory eval-plots EVAL_SCALE=$(EVAL_SCALE)
	$(BUILD)/rel/eval/gaeval check $(EVAL_OUT)
	@for p in fig9 fig10 fig11 fig13 $(if $(EVAL_CORPUS),fig7 fig8); do test -s $(EVAL_OUT)/$$p.png || { echo "eval: $$p.png missing"; exit 1; }; done
	@if [ "$(EVAL_SCALE)" = full ]; then \
	  mkdir -p docs/results && rm -f docs/results/*.csv docs/results/*.png && \
	  cp $(EVAL_OUT)/*.csv $(EVAL_OUT)/*.png docs/results/ && \
	  cp $(EVAL_OUT)/results.md docs/results.md && echo "eval: docs/results.md and docs/results/ regenerated"; \
	else echo "eval: $(EVAL_SCALE) results in $(EVAL_OUT) (docs/ is only written by EVAL_SCALE=full)"; fi

eval-smoke: ## CI: the evaluation at smoke scale (stand-ins, corpus, RTL replays, shard check) with its sanity checks
	@$(MAKE) --no-print-directory eval EVAL_SCALE=smoke

eval-full: ## The evaluation at full scale: regenerates docs/results.md and docs/results/ (tens of minutes on 2 cores)
	@$(MAKE) --no-print-directory eval EVAL_SCALE=full

eval-corpus: eval-tools ## Only the corpus campaigns at EVAL_SCALE into build/eval/<scale>/corpus (shards: docs/eval.md)
	python3 scripts/eval_corpus.py --jobs $(EVAL_JOBS) all --scale $(EVAL_SCALE) --out $(EVAL_OUT)/corpus $(EVAL_CORPUS_ARGS)

eval-shard-check: $(BUILD)/rel/eval/gaeval ## The injection campaign as 1 and as 4 shards: merged, the same bytes
	@mkdir -p $(BUILD)/eval/shardcheck && rm -f $(BUILD)/eval/shardcheck/*.csv
	$(BUILD)/rel/eval/gaeval campaign -o $(BUILD)/eval/shardcheck/one.csv --trials 2500
	for i in 0 1 2 3; do $(BUILD)/rel/eval/gaeval campaign -o $(BUILD)/eval/shardcheck/s$$i.csv --trials 2500 --shard $$i/4 || exit 1; done
	$(BUILD)/rel/eval/gaeval merge -o $(BUILD)/eval/shardcheck/m1.csv $(BUILD)/eval/shardcheck/one.csv
	$(BUILD)/rel/eval/gaeval merge -o $(BUILD)/eval/shardcheck/m4.csv $(BUILD)/eval/shardcheck/s0.csv \
	  $(BUILD)/eval/shardcheck/s1.csv $(BUILD)/eval/shardcheck/s2.csv $(BUILD)/eval/shardcheck/s3.csv
	@cmp $(BUILD)/eval/shardcheck/m1.csv $(BUILD)/eval/shardcheck/m4.csv && \
	  echo "eval-shard-check: 4 shards merged are byte-identical to one run"

eval-plots: ## Draw the PNG plots of an evaluation run from its CSV files (gnuplot)
	gnuplot -e "dir='$(EVAL_OUT)'" scripts/eval_plots.gp

workloads: $(BUILD)/rel/eval/gawl ## Write every synthetic workload as a gatrace file (WL_SCALE, WL_OUT) and read each back
	$(BUILD)/rel/eval/gawl trace all --scale $(WL_SCALE) --out $(WL_OUT) --verify
