# mk/eval.mk — the synthetic workloads (sim/workloads/), the evaluation (sim/eval/), their tests, and
# the targets that regenerate docs/results.md. Included by the top Makefile and run from the
# repository root; every path here is relative to it. Method: docs/eval.md; workloads: docs/workloads.md.
#
#   build/<rel|san>/libgaeval.a   workload generator + evaluation library (links before libgamodel.a)
#   build/<rel|san>/eval/gaeval   the evaluation driver
#   build/<rel|san>/eval/gawl     workload listing and gatrace writer (links libgatrace.a, -lz)

EVAL_SRC    := sim/workloads/ga_workloads.c sim/eval/ga_backend.c sim/eval/ga_backend_rtl_stub.c sim/eval/ga_perf.c \
               sim/eval/ga_campaign.c
EVAL_H      := $(wildcard sim/workloads/*.h sim/eval/*.h cmodel/*.h)
EVAL_INC    := -Isim/workloads -Isim/eval
EVAL_TESTS  := test_workloads test_campaign

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
$(BUILD)/$(1)/eval/gawl: $(BUILD)/$(1)/eval/gawl.o $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgatrace.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ -lz -lm -o $$@
# The workload and campaign tests link the evaluation library too.
$(foreach t,$(EVAL_TESTS),$(BUILD)/$(1)/tests/$(t).o): CFLAGS_BASE += $(EVAL_INC)
$(foreach t,$(EVAL_TESTS),$(BUILD)/$(1)/tests/$(t).o): $(EVAL_H)
$(foreach t,$(EVAL_TESTS),$(BUILD)/$(1)/tests/$(t)): $(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/tests/%.o $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_COMMON)) $(BUILD)/$(1)/libgaeval.a $(BUILD)/$(1)/libgamodel.a
	$$(CC) $(2) $$^ $$(CHECK_LIBS) -lm -o $$@
endef
$(eval $(call eval_build,rel,$(OPT)))
$(eval $(call eval_build,san,-O1 -g $(SAN)))

.PHONY: eval eval-smoke eval-plots workloads

##@ Evaluation

eval: $(BUILD)/rel/eval/gaeval ## Evaluation at EVAL_SCALE (smoke|full); full also rewrites docs/results.md and docs/results/
	@mkdir -p $(EVAL_OUT)
	$(BUILD)/rel/eval/gaeval run --scale $(EVAL_SCALE) --out $(EVAL_OUT) $(EVAL_ARGS)
	@$(MAKE) --no-print-directory eval-plots EVAL_SCALE=$(EVAL_SCALE)
	$(BUILD)/rel/eval/gaeval check $(EVAL_OUT)
	@for p in fig9 fig10 fig11 fig13; do test -s $(EVAL_OUT)/$$p.png || { echo "eval: $$p.png missing"; exit 1; }; done
	@if [ "$(EVAL_SCALE)" = full ]; then \
	  mkdir -p docs/results && cp $(EVAL_OUT)/*.csv $(EVAL_OUT)/*.png docs/results/ && \
	  cp $(EVAL_OUT)/results.md docs/results.md && echo "eval: docs/results.md and docs/results/ regenerated"; \
	else echo "eval: $(EVAL_SCALE) results in $(EVAL_OUT) (docs/ is only written by EVAL_SCALE=full)"; fi

eval-smoke: ## CI: the evaluation at smoke scale with its sanity checks (under two minutes)
	@$(MAKE) --no-print-directory eval EVAL_SCALE=smoke

eval-plots: ## Draw the PNG plots of an evaluation run from its CSV files (gnuplot)
	gnuplot -e "dir='$(EVAL_OUT)'" scripts/eval_plots.gp

workloads: $(BUILD)/rel/eval/gawl ## Write every synthetic workload as a gatrace file (WL_SCALE, WL_OUT) and read each back
	$(BUILD)/rel/eval/gawl trace all --scale $(WL_SCALE) --out $(WL_OUT) --verify
