/*
 * emu_internal.h — the emulator's internal structures (docs/emulator.md §4-§6), shared by the files of
 * emu/. Nothing here is part of the public API (emu.h).
 *
 * Decoded form. A module's functions are decoded once into one array of emu_insn_t (the "code"); a
 * function occupies code[start, end) and code[end] is a FUNC_EXIT sentinel that every `ret` branches
 * to. Every operand is a *slot* of the executing frame's register file: the function's registers first
 * (IR register ids), then constant slots (immediates, symbol addresses) filled once per frame from a
 * template, then special-register slots (%tid.x, ...) filled per frame, then a hidden carry slot. A
 * slot holds 32 lanes of uint64_t, lane-major within the slot (rf[slot * 32 + lane]). A register of
 * width w bytes keeps its value zero-extended to 64 bits.
 *
 * Execution. A warp has a stack of call frames; each frame has its own register file and local memory
 * window, and a SIMT reconvergence stack of (pc, rpc, mask) entries whose bottom entry is the frame's
 * base. Divergent branches push the taken and not-taken paths with the branch block's immediate
 * post-dominator as their reconvergence pc; an entry is popped when its pc reaches its rpc.
 */
#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H

#include "emu.h"
#include "ptx_cfg.h"
#include "ptx_ir.h"
#include "trace/ga_replay.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define EMU_LANES 32u
#define EMU_NONE UINT32_MAX

/* Generic-address windows (tag 0, below the runtime's metadata region at 0x6000_0000_0000 and heap at
 * 0x7000_0000_0000): a generic address in [WIN, WIN + 2^32) is shared / local space [decision, docs/
 * emulator.md §4.2]. */
#define EMU_SHARED_WIN UINT64_C(0x100000000000)
#define EMU_LOCAL_WIN UINT64_C(0x200000000000)
#define EMU_WIN_SIZE UINT64_C(0x100000000)

/* ---------------------------------------------------------------------------------------------------
 * Decoded instructions. */

typedef enum {
    EOP_NOP = 0,
    /* data movement */
    EOP_MOV, EOP_MOV_PACK, EOP_MOV_UNPACK, EOP_CLOCK,
    /* integer */
    EOP_ADD, EOP_SUB, EOP_ADDC, EOP_SUBC, EOP_MUL_LO, EOP_MUL_HI, EOP_MUL_WIDE, EOP_MUL24_LO, EOP_MUL24_HI,
    EOP_MAD_LO, EOP_MAD_HI, EOP_MAD_WIDE, EOP_MADC_LO, EOP_MADC_HI, EOP_MAD24_LO, EOP_SAD,
    EOP_DIV, EOP_REM, EOP_ABS, EOP_NEG, EOP_MIN, EOP_MAX, EOP_POPC, EOP_CLZ, EOP_BFIND, EOP_BREV,
    EOP_BFE, EOP_BFI, EOP_FNS, EOP_BMSK, EOP_SZEXT, EOP_AND, EOP_OR, EOP_XOR, EOP_NOT, EOP_CNOT,
    EOP_LOP3, EOP_SHL, EOP_SHR, EOP_SHF_L, EOP_SHF_R, EOP_PRMT, EOP_DP4A, EOP_DP2A,
    /* floating point */
    EOP_FADD, EOP_FSUB, EOP_FMUL, EOP_FFMA, EOP_FDIV, EOP_FABS, EOP_FNEG, EOP_FMIN, EOP_FMAX, EOP_FRCP,
    EOP_FSQRT, EOP_FRSQRT, EOP_FSIN, EOP_FCOS, EOP_FLG2, EOP_FEX2, EOP_FTANH, EOP_TESTP, EOP_COPYSIGN,
    /* comparison and selection */
    EOP_SETP, EOP_SET, EOP_SELP, EOP_SLCT, EOP_CVT, EOP_CVTA, EOP_ISSPACEP,
    /* memory */
    EOP_LD, EOP_ST, EOP_ATOM, EOP_RED,
    /* control */
    EOP_BRA, EOP_CALL, EOP_RET, EOP_EXIT, EOP_TRAP, EOP_FUNC_EXIT,
    /* synchronisation and warp-wide */
    EOP_BAR, EOP_BAR_ARRIVE, EOP_BAR_RED, EOP_WARPSYNC, EOP_SHFL, EOP_VOTE, EOP_ACTIVEMASK, EOP_MATCH,
    EOP_REDUX, EOP_ELECT,
    /* native functions: the GPUArmor instructions and the CUDA device runtime */
    EOP_GA_LOADMETA, EOP_GA_MEMCHECK_G, EOP_GA_MEMCHECK_S, EOP_VPRINTF, EOP_ASSERTFAIL,
    EOP_COUNT
} emu_op_t;

/* emu_insn_t.flags */
enum {
    EF_GUARD = 1u << 0,    /* guarded by slot `guard` */
    EF_GUARD_NEG = 1u << 1,/* ... negated */
    EF_SAT = 1u << 2,
    EF_FTZ = 1u << 3,
    EF_CC = 1u << 4,       /* writes the carry flag (.cc) */
    EF_APPROX = 1u << 5,
    EF_UNI = 1u << 6,
    EF_NEGA = 1u << 7      /* setp/selp: first predicate operand negated (`!%p`) */
};

/* Memory operand base kinds (emu_insn_t.mbase). */
enum {
    MB_SLOT = 0,       /* address = slot value + off (register or constant slot) */
    MB_PARAM_FRAME,    /* per-lane parameter area of the frame at offset off */
    MB_PARAM_KERNEL    /* the launch's kernel parameter buffer at offset off (uniform) */
};

/* GPUArmor classification of an instruction (docs/compiler.md §5): counted apart. */
enum { GA_NO = 0, GA_INSN = 1, GA_MOV = 2, GA_OVERHEAD = 3 };

typedef struct {
    uint16_t op;      /* emu_op_t */
    uint8_t t;        /* ptx_type_t of the operation (cvt: destination) */
    uint8_t t2;       /* cvt: source type; mul.wide/mad.wide: the source type */
    uint16_t flags;   /* EF_* */
    uint8_t rnd;      /* rounding: 0 none, else the PTX_MOD_RN.. value's index (see emu_fp.h) */
    uint8_t vec;      /* vector elements of ld/st/mov pack (1, 2, 4) */
    uint8_t space;    /* ptx_space_t of a memory instruction (NONE = generic) */
    uint8_t sub;      /* compare op / bool op / atom op / shfl mode / vote mode / testp class ... */
    uint8_t ga;       /* GA_* */
    uint8_t size;     /* memory access bytes per lane (all elements) */
    uint8_t elem;     /* memory element bytes */
    uint8_t dwidth;   /* destination register width in bytes (load/cvt extension target) */
    uint8_t mbase;    /* MB_* of the memory operand */
    uint8_t nsrc;     /* bookkeeping */
    uint32_t guard;   /* guard slot */
    uint32_t d, d2;   /* destination slot(s) (d2: second half of a PAIR, or the predicate of shfl) */
    uint32_t a, b, c, e; /* source slots */
    uint32_t v[8];    /* vector element slots (ld/st destinations or sources, mov pack) */
    int64_t off;      /* memory offset */
    uint32_t target;  /* BRA: target pc; CALL: callee function index; native ops: call-scope info */
    uint32_t rpc;     /* BRA: reconvergence pc */
    uint32_t ir;      /* IR instruction id (positions for reports) */
    uint32_t fn;      /* owning emu_func_t index */
    /* CALL: the caller's param-area offsets of the arguments and return values (in pool) */
    uint32_t arg_first, nargs, ret_first, nrets;
} emu_insn_t;

/* A special-register slot filled per frame. */
typedef struct {
    uint32_t slot;
    uint8_t sreg, comp;
} emu_sreg_slot_t;

typedef struct {
    uint32_t slot;
    uint32_t local_off; /* the variable's offset in the frame's local window */
} emu_local_slot_t;

typedef struct {
    const ptx_func_t *f;
    uint32_t fn_index;       /* in the module */
    uint32_t start, end;     /* code[start, end) and the sentinel code[end] */
    bool is_entry, defined, native;
    uint32_t native_op;      /* EOP_VPRINTF, ... for extern functions we implement */
    uint32_t nslots;         /* registers + constants + sregs + carry */
    uint32_t nregs;
    uint32_t const_first, nconst;
    uint64_t *const_val;     /* [nconst] */
    emu_sreg_slot_t *sregs;
    uint32_t nsregs;
    emu_local_slot_t *locals;
    uint32_t nlocals;
    uint32_t local_bytes;    /* the frame's .local size */
    uint32_t local_align;
    uint32_t cc_slot;
    uint32_t param_bytes;    /* per-lane parameter area: own params, return params, call scopes */
    uint32_t *param_off;     /* own params: offset in the callee frame's param area (.func) */
    uint32_t *param_size;
    uint32_t nparams;
    uint32_t *ret_off, *ret_size;
    uint32_t nrets;
    /* .entry only: the kernel parameter buffer layout */
    uint32_t *kparam_off, *kparam_size, *kparam_align;
    uint32_t kparam_bytes;
    const char *name;
} emu_func_t;

typedef struct {
    uint32_t sym;        /* IR symbol */
    uint64_t addr;       /* device address (tagged) for .global/.const; shared offset for .shared */
    uint64_t size;
    uint8_t space;
    bool dynamic_shared; /* extern .shared [] */
} emu_var_t;

struct emu_module {
    emu_dev_t *dev;
    char *name;
    ptx_module_t *ir;
    bool instrumented;    /* compiler mode: the pass ran (or the input was already instrumented) */
    emu_func_t *funcs;
    uint32_t nfuncs;
    emu_insn_t *code;
    uint32_t ncode;
    uint32_t *pool;       /* call argument / return offsets */
    uint32_t npool;
    emu_var_t *vars;      /* module-scope and function-scope .global/.const/.shared variables */
    uint32_t nvars;
    uint64_t *sym_value;  /* per IR symbol: its address (what `mov %rd, sym` gives) */
    uint8_t *sym_has_value;
    uint32_t shared_static; /* bytes of static shared memory of every CTA of this module */
    uint32_t shared_dyn_align;
    struct emu_kernel *kernels;
    uint32_t nkernels;
    bool loaded;
    struct emu_module *next;
};

struct emu_kernel {
    emu_module_t *mod;
    uint32_t fn;          /* emu_func_t index */
    const char *name;
};

/* ---------------------------------------------------------------------------------------------------
 * Device memory. */

typedef enum { REG_MALLOC = 0, REG_VAR = 1 } emu_region_kind_t;

typedef struct {
    uint64_t lo, hi;      /* VA range [lo, hi): the block the runtime reserved (size rounded to 256) */
    uint64_t size;        /* requested size */
    uint64_t ptr;         /* the tagged pointer the program got */
    uint8_t *host;        /* backing store, hi - lo bytes */
    uint64_t id;          /* allocation id (order of creation; the trace's aID) */
    uint8_t kind;         /* emu_region_kind_t */
    const char *var_name; /* REG_VAR: the variable */
} emu_region_t;

/* ---------------------------------------------------------------------------------------------------
 * Warps, CTAs, SMs. */

typedef struct {
    uint32_t pc, rpc;
    uint32_t mask;
} emu_simt_t;

typedef struct {
    const emu_func_t *fn;
    uint64_t *rf;          /* nslots * 32 */
    uint8_t *params;       /* param_bytes * 32, lane-major: params[lane * param_bytes + off] */
    uint32_t *pinit;       /* per parameter-area byte: the lanes that wrote it (st.param, a call's copy) */
    uint32_t local_base;   /* this frame's local window offset */
    uint32_t ret_pc;       /* where the caller resumes */
    uint32_t caller_insn;  /* the CALL instruction (for copying return values back) */
    uint32_t simt_base;    /* index of this frame's base entry in the warp's SIMT stack */
} emu_frame_t;

typedef enum { W_READY = 0, W_BAR, W_DONE } emu_wstate_t;

typedef struct {
    uint32_t id;           /* warp index in its CTA */
    uint32_t nthreads;     /* threads of this warp (last warp of a CTA may have fewer) */
    uint32_t exited;       /* lanes that executed exit / finished */
    emu_wstate_t state;
    uint32_t bar_id;
    emu_simt_t *simt;
    uint32_t nsimt, cap_simt;
    emu_frame_t *frames;
    uint32_t nframes, cap_frames;
    uint8_t *local;        /* per-lane local memory: local[lane * stack_bytes + addr] */
    uint32_t local_sp;     /* next free byte of the local windows (uniform) */
    uint32_t tid[EMU_LANES][3];
    uint32_t ga_flagged;   /* lanes a GPUArmor check just reported (their access is not reported twice) */
    uint32_t bar_red_d;    /* bar.red: destination slot written when the barrier releases (EMU_NONE) */
    uint32_t bar_red_mask; /* ... for these lanes */
    /* root values of this warp's LOADMETAs in this CTA, per returned location (for the trace's root) */
    uint64_t *lm_loc, *lm_root;
    uint32_t nlm, cap_lm;
    uint64_t arena_used;   /* frame storage */
} emu_warp_t;

typedef struct {
    uint32_t ctaid[3];
    uint64_t linear;
    emu_warp_t *warps;
    uint32_t nwarps;
    uint8_t *shared;
    uint32_t shared_bytes;
    uint32_t live;         /* warps not done */
} emu_cta_t;

typedef struct {
    unsigned index;
    emu_cta_t cta;         /* the resident CTA */
    bool busy;
    uint64_t clock;        /* warp instructions issued on this SM (the %clock source) */
} emu_sm_t;

/* The launch in flight. */
typedef struct {
    emu_dev_t *dev;
    emu_module_t *mod;
    const emu_func_t *kfn;
    emu_dim3_t grid, block;
    uint32_t threads_per_cta, warps_per_cta;
    uint64_t ncta, next_cta;
    uint8_t *kparams;
    uint32_t shared_bytes, dyn_shared;
    uint64_t warp_insns;
    emu_status_t status;   /* first fatal condition */
    char msg[512];
    uint64_t gridid;
} emu_launch_t;

/* ---------------------------------------------------------------------------------------------------
 * The device. */

struct emu_dev {
    emu_cfg_t cfg;
    FILE *log;
    bool own_log;
    ga_system_t sys;
    ga_backend_t be;
    bool be_open;
    emu_region_t *regions; /* sorted by lo */
    uint32_t nregions, cap_regions;
    uint64_t next_alloc_id;
    emu_module_t *modules;
    emu_sm_t *sm;
    emu_launch_t *launch;   /* during emu_launch */
    uint64_t launches;
    emu_counters_t total, last;
    uint64_t errors;        /* reported errors (threads) */
    uint64_t reports;       /* detection reports printed */
    uint64_t suppressed;
    uint64_t bad_frees;
    bool sticky;            /* a launch failed: later launches refused */
    bool finished;          /* emu_finish ran */
    /* trace capture */
    void *trace;            /* emu_trace_t */
    /* JSON collection */
    void *json;
    void *json_launches;
    /* scratch */
    char scratch[1024];
};

/* ---------------------------------------------------------------------------------------------------
 * Internal API between the files. */

/* emu_dev.c: region lookup by VA (tags stripped by the caller); NULL if none. */
emu_region_t *emu_region_find(emu_dev_t *d, uint64_t va);
uint64_t emu_strip(const emu_dev_t *d, uint64_t p);
emu_status_t emu_alloc_region(emu_dev_t *d, uint64_t size, uint8_t kind, const char *var_name, uint64_t *ptr);
void emu_runtime_changed(emu_dev_t *d);

/* emu_decode.c */
emu_status_t emu_decode_module(emu_module_t *m, char *msg, size_t cap);

/* emu_exec.c */
emu_status_t emu_run_launch(emu_launch_t *L);

/* emu_report.c */
void emu_report_mlu(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, const emu_insn_t *in,
                    const char *what, const ga_warp_req_t *req, const ga_warp_rsp_t *rsp, int root_class);
void emu_report_illegal(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, const emu_insn_t *in,
                        unsigned lane, uint64_t addr, unsigned size, bool write, const char *why);
void emu_report_host(emu_dev_t *d, const char *kind, const char *fmt, ...);
void emu_report_fatal(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, const emu_insn_t *in,
                      const char *fmt, ...);
void emu_report_summary(emu_dev_t *d);
/* One launch's counters for the JSON report's "launches" list (kept for the first 10 000 launches). */
void emu_report_launch(emu_dev_t *d, const char *kernel, emu_status_t st, const emu_counters_t *c);
void emu_insn_where(const emu_module_t *m, const emu_insn_t *in, char *buf, size_t cap);

/* emu_trace.c: capture (no-ops when no trace is open). */
int emu_trace_open(emu_dev_t *d, const char *path, char *msg, size_t cap);
void emu_trace_close(emu_dev_t *d);
void emu_trace_alloc(emu_dev_t *d, uint64_t id, uint64_t size);
void emu_trace_free(emu_dev_t *d, uint64_t id);
void emu_trace_bad_free(emu_dev_t *d, uint64_t ptr); /* a free the runtime refused: freep PTR */
void emu_trace_kernel(emu_dev_t *d, const char *name);
void emu_trace_end(emu_dev_t *d);
void emu_trace_loadmeta(emu_dev_t *d, unsigned sm, unsigned warp, uint64_t root);
void emu_trace_global(emu_dev_t *d, bool store, unsigned sm, unsigned warp, const ga_warp_req_t *req,
                      int root_kind, uint64_t root);
void emu_trace_shared(emu_dev_t *d, bool store, unsigned sm, unsigned warp, const ga_warp_req_t *req,
                      uint32_t base, uint32_t ssize);
void emu_trace_comment(emu_dev_t *d, const char *fmt, ...);

/* emu_printf.c: device printf (vprintf) with arguments read through rd (generic addresses of one
 * lane). Writes at most cap - 1 bytes and a NUL; returns the number of bytes written, or -1 when the
 * format string cannot be read. Every conversion of CUDA's printf is handled; a bad argument pointer
 * prints "<bad>" for the argument. */
typedef bool (*emu_reader_fn)(void *ctx, uint64_t addr, void *buf, size_t n);
int emu_format_printf(emu_reader_fn rd, void *ctx, uint64_t fmt, uint64_t args, char *out, size_t cap);
/* A NUL-terminated string at addr into buf[cap] (truncated; "<unreadable>" when addr is bad). */
void emu_read_cstr(emu_reader_fn rd, void *ctx, uint64_t addr, char *buf, size_t cap);

#endif /* EMU_INTERNAL_H */
