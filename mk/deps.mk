# mk/deps.mk — header dependencies of the C objects. Every C compile of the tree passes $(CFLAGS_BASE)
# (the Makefile's c_build and mk/*.mk rules), so adding -MMD -MP to it makes gcc (and clang, for the
# fuzzers) write a .d file beside each object listing the headers *and* .def files it included
# (cmodel/ga_layouts.def, cmodel/ga_isa.def: a wildcard over *.h misses those), with a phony target per
# header (-MP) so that a removed header does not stop the build. They are read back here, from the C
# build directories only (Verilator's obj_dir .d files hold paths relative to their own directory and
# must not be read by this make).
DEPFLAGS    := -MMD -MP
CFLAGS_BASE += $(DEPFLAGS)
DEP_DIRS    := $(addprefix $(BUILD)/,rel/* san/* pic/* picsan/* fuzz fuzz/* cudart/obj cudart/san/obj cudart/rtl/obj)
# and the harness objects of tb/ (mk/tb.mk, TB_CFLAGS) and the per-configuration shims
# (build/cosim/<cfg>/shim.o, TB_CXXFLAGS; the Verilator output lives apart, in build/verilator/<cfg>/).
DEP_DIRS    += $(addprefix $(BUILD)/,tb/rel tb/san tb/rel/* tb/san/* cosim/*)
-include $(wildcard $(addsuffix /*.d,$(DEP_DIRS)))
# An object without its .d file (compiled before its rule passed -MMD) is rebuilt once, in the
# directories whose rules all pass DEPFLAGS (the Makefile's c_build relies on the .d files alone).
DEP_FORCE_DIRS := $(addprefix $(BUILD)/,rel/* san/* pic/* picsan/* tb/rel tb/san tb/rel/* tb/san/* cosim/*)
$(foreach o,$(wildcard $(addsuffix /*.o,$(DEP_FORCE_DIRS))),$(if $(wildcard $(o:.o=.d)),,$(eval $(o): FORCE)))

# Command stamps. $(STAMP_DIR)/NAME.cmd holds the text of the variable stamp_NAME (the exact command
# line that builds something: a Verilator invocation and its make flags) and is rewritten only when
# that text changes (FORCE, then cmp). A target lists the stamp instead of the makefile that holds its
# rule: it rebuilds when its own command changes and not when an unrelated makefile line does.
STAMP_DIR   := $(BUILD)/stamps
.PHONY: FORCE
FORCE:
$(STAMP_DIR)/%.cmd: FORCE | $(STAMP_DIR)
	@t=$@.$$$$.new; printf '%s\n' '$(subst ','\'',$(stamp_$*))' >$$t; \
	  if cmp -s $$t $@; then rm -f $$t; else mv -f $$t $@; fi
$(STAMP_DIR):
	mkdir -p $@
