rtl/ga_arb.sv
rtl/ga_req_slice.sv
rtl/ga_system.sv
