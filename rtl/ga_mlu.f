rtl/ga_pkg.sv
rtl/ga_mlb.sv
rtl/ga_check.sv
rtl/ga_walker.sv
rtl/ga_mlu.sv
