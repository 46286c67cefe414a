rtl/ga_arb.sv
rtl/ga_system.sv
