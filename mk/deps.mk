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
-include $(wildcard $(addsuffix /*.d,$(DEP_DIRS)))
