# mk/docs.mk — checks that the documentation says what the tools do (included by the top Makefile, run
# from the repository root). scripts/check_doc_commands.sh runs every command shown in the code blocks
# of README.md and docs/*.md with --dry-run (or checks its options against --help), so a renamed or
# removed option, or a make target that no longer exists, fails here instead of in a user's shell.
# New tools are registered in the script's TOOLS table; a tool that is not built yet is skipped with a
# message naming its make target.

DOC_FILES := README.md $(sort $(wildcard docs/*.md))
# The tools the docs show that build in seconds (the RTL and FPGA ones are checked when present).
DOC_TOOLS := $(BUILD)/rel/sim/gasim $(BUILD)/rel/sim/gaconv $(BUILD)/rel/sim/garun $(BUILD)/rel/eval/gaeval \
             $(BUILD)/rel/eval/gawl $(BUILD)/rel/fpga/gaprobe

.PHONY: test-docs

##@ Documentation

test-docs: $(DOC_TOOLS) ## Every command in README.md and docs/*.md code blocks parses its options (tools not built are skipped)
	@BUILD=$(BUILD) bash scripts/check_doc_commands.sh $(DOC_FILES)
	@# the checker must be able to fail: a fixture of wrong commands has to be rejected, every one of them
	@out=$$(BUILD=$(BUILD) bash scripts/check_doc_commands.sh tests/docs/bad_commands.md 2>&1); rc=$$?; \
	  n=$$(printf '%s\n' "$$out" | grep -c '^FAIL'); \
	  if [ $$rc -eq 0 ] || [ $$n -ne 4 ]; then printf '%s\n' "$$out"; \
	    echo "test-docs: the checker accepted wrong commands of tests/docs/bad_commands.md ($$n of 4 rejected)"; exit 1; fi; \
	  echo "test-docs: the checker rejects the 4 wrong commands of tests/docs/bad_commands.md"
