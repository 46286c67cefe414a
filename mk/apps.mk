# mk/apps.mk — the project's CUDA corpus (apps/, described in apps/README.md, listed in
# apps/manifest.tsv). Included by the top Makefile and run from the repository root.
#
# For each apps/<name>.cu:
#   $(APPS_DIR)/<name>      the program, built so that the project's replacement runtime can run it:
#                           -cudart shared links every runtime call to libcudart.so.13 (resolved at
#                           load time), -no-compress with a compute_80 PTX target leaves the PTX as
#                           plain text in the fatbinary (nvcc 13 compresses device code by default:
#                           apps/README.md, "Building");
#   $(APPS_DIR)/<name>.ptx  the same device code as PTX, the compiler pass's input.
# Outputs are rebuilt when their .cu, apps/app.h or this file (the flags) change. Each output is
# written to a temporary name and renamed only when complete and checked, so an
# interrupted or failed build leaves nothing half-written, and `make -j` is safe (one nvcc per
# output; nvcc's own temporaries are per process). Without nvcc, `make apps` says where to get it and
# succeeds without building; other targets can test $(APPS_HAVE_NVCC) or the stamp $(APPS_STAMP).

NVCC            ?= nvcc
APPS_DIR        := $(BUILD)/apps
APPS_SRC        := $(sort $(wildcard apps/*.cu))
APPS_NAMES      := $(patsubst apps/%.cu,%,$(APPS_SRC))
APPS_BIN        := $(addprefix $(APPS_DIR)/,$(APPS_NAMES))
APPS_PTX        := $(addsuffix .ptx,$(APPS_BIN))
APPS_HDR        := $(wildcard apps/*.h)
APPS_STAMP      := $(APPS_DIR)/.checked
# The flags issue 11's runtime needs (APPS_NEEDED; the build checks their effect and names them when
# it is missing) and the whole command line, fixed: do not add optimisation or architecture flags.
APPS_NEEDED     := -cudart shared -no-compress -gencode arch=compute_80,code=compute_80
APPS_BIN_FLAGS  := -O3 $(APPS_NEEDED) -lineinfo
APPS_PTX_FLAGS  := -O3 -arch=sm_80 -ptx -lineinfo
# Warnings are errors, nvcc's own (front end and device code) and the host compiler's.
APPS_WARN       := -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
APPS_HAVE_NVCC  := $(shell command -v $(NVCC) 2>/dev/null)

##@ CUDA corpus (apps/README.md)
.PHONY: apps apps-list apps-check

ifeq ($(APPS_HAVE_NVCC),)
apps: ## Build every apps/<name>.cu into build/apps/<name> and build/apps/<name>.ptx (needs nvcc 13)
	@echo "make apps: '$(NVCC)' not found: the corpus needs nvcc from the NVIDIA CUDA Toolkit 13"
	@echo "  (NVIDIA's package cuda-toolkit-13-0, installed under /usr/local/cuda/bin): put it on PATH"
	@echo "  or run make with NVCC=/path/to/nvcc. Skipping the corpus; targets that need it skip too."

apps-check: apps
else
apps: $(APPS_STAMP)
	@echo "make apps: $(words $(APPS_NAMES)) programs in $(APPS_DIR) (apps-list shows the manifest)"

apps-check: $(APPS_BIN) $(APPS_PTX) ## Check the manifest against apps/, and each PTX against apps/ptx_expect.tsv
	@bash apps/check_corpus.sh $(APPS_DIR)
endif

apps-list: ## Print apps/manifest.tsv as a table (name, kind, class, expected reports, notes)
	@awk -F'\t' '/^#/ || NF == 0 { next } \
	  { for (i = 1; i <= 6; i++) { row[NR, i] = $$i; if (length($$i) > w[i]) w[i] = length($$i) } \
	    row[NR, 7] = $$7; n[++rows] = NR } \
	  END { for (r = 1; r <= rows; r++) { line = ""; \
	          for (i = 1; i <= 6; i++) line = line sprintf("%-*s  ", w[i], row[n[r], i]); \
	          print line row[n[r], 7] } }' apps/manifest.tsv

$(APPS_DIR):
	mkdir -p $@

# The program. After linking: the fatbinary must hold the PTX as text (.version and .target lines)
# and the program must import libcudart.so.13, or the replacement runtime cannot run it. (Not through
# ccache as the C builds are: with -lineinfo nvcc writes the source's absolute path into the PTX's
# .file lines, so an object cached from another clone carries that clone's path; check_corpus.sh's
# comparison with the .ptx caught it.)
$(APPS_BIN): $(APPS_DIR)/%: apps/%.cu $(APPS_HDR) mk/apps.mk | $(APPS_DIR)
	@rm -f $@.tmp
	$(NVCC) $(APPS_BIN_FLAGS) $(APPS_WARN) $< -o $@.tmp || { rm -f $@.tmp; exit 1; }
	@if ! grep -a -q '^\.version [0-9]' $@.tmp || ! grep -a -q '^\.target sm_' $@.tmp; then \
	  echo "$@: the fatbinary holds no plain PTX text: build with $(APPS_NEEDED)" \
	       "(nvcc 13 compresses device code unless -no-compress and a compute_XX PTX target are given)"; \
	  rm -f $@.tmp; exit 1; fi
	@if ! readelf -d $@.tmp | grep -q 'NEEDED.*\[libcudart\.so\.13\]'; then \
	  echo "$@: does not load libcudart.so.13: build with nvcc 13 and $(APPS_NEEDED)"; \
	  rm -f $@.tmp; exit 1; fi
	@mv -f $@.tmp $@

$(APPS_PTX): $(APPS_DIR)/%.ptx: apps/%.cu $(APPS_HDR) mk/apps.mk | $(APPS_DIR)
	@rm -f $@.tmp
	$(NVCC) $(APPS_PTX_FLAGS) $(APPS_WARN) $< -o $@.tmp || { rm -f $@.tmp; exit 1; }
	@mv -f $@.tmp $@

# The corpus checks (apps/check_corpus.sh) rerun only when an output, the manifest or the PTX
# expectations change.
$(APPS_STAMP): $(APPS_BIN) $(APPS_PTX) apps/manifest.tsv apps/ptx_expect.tsv apps/check_corpus.sh
	@bash apps/check_corpus.sh $(APPS_DIR)
	@touch $@
