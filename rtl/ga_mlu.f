rtl/ga_pkg.sv
rtl/ga_mlb.sv
rtl/ga_check.sv
rtl/ga_walker.sv
rtl/ga_mlu_cfg.sv
rtl/ga_mlu_hwseq.sv
rtl/ga_mlu_rsp.sv
rtl/ga_mlu.sv
