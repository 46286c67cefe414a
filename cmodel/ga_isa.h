/*
 * ga_isa.h — the C form of cmodel/ga_isa.def: every shared encoding as an enumeration, the
 * configuration registers' rules, and the HWOnly walk-end -> exception mapping (spec §3.3, §4.5, §5.1,
 * §5.4; docs/microarchitecture.md §1). Included by ga_types.h, so every model file sees it.
 *
 * The enumerations are built from the .def with one family selector per enumeration; nothing here
 * repeats a value. tests/test_isa.c compares the .def with rtl/ga_pkg.sv and the other copies.
 */
#ifndef GA_ISA_H
#define GA_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every entry kind of the .def expands to nothing unless a block below selects it. */
#define GA_WIDTH(name, bits)
#define GA_REG(name, addr, bits, reset, lo, hi)
#define GA_WALK_EXC(walk, live, freed)
#define GA_ENC(fam, name, value) GA_ENC_##fam(name, value)
#define GA_ENC_OP(name, value)
#define GA_ENC_RSP(name, value)
#define GA_ENC_EXC(name, value)
#define GA_ENC_EV(name, value)
#define GA_ENC_MODE(name, value)
#define GA_ENC_POLICY(name, value)
#define GA_ENC_WALK(name, value)
#define GA_ENC_MD(name, value)

/* Request op codes (req_op_i). */
#undef GA_ENC_OP
#define GA_ENC_OP(name, value) GA_OP_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_OPS
} ga_op_t;
#undef GA_ENC_OP
#define GA_ENC_OP(name, value)

/* Response status (rsp_status_o). */
#undef GA_ENC_RSP
#define GA_ENC_RSP(name, value) GA_RSP_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_RSPS
} ga_rsp_status_t;
#undef GA_ENC_RSP
#define GA_ENC_RSP(name, value)

/* Exception kinds (spec §4.5); GA_EXC_KINDS is their number. */
#undef GA_ENC_EXC
#define GA_ENC_EXC(name, value) GA_EXC_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_EXC_KINDS
} ga_exc_kind_t;
#undef GA_ENC_EXC
#define GA_ENC_EXC(name, value)

/* MLB commit-log events (ev_kind_o, spec §8). */
#undef GA_ENC_EV
#define GA_ENC_EV(name, value) GA_EV_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_EVS
} ga_ev_kind_t;
#undef GA_ENC_EV
#define GA_ENC_EV(name, value)

/* Modes and exception policy (spec §5.1). */
#undef GA_ENC_MODE
#define GA_ENC_MODE(name, value) GA_MODE_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_MODES
} ga_mode_t;
#undef GA_ENC_MODE
#define GA_ENC_MODE(name, value)
#undef GA_ENC_POLICY
#define GA_ENC_POLICY(name, value) GA_POLICY_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_POLICIES
} ga_policy_t;
#undef GA_ENC_POLICY
#define GA_ENC_POLICY(name, value)

/* Walk results (spec §3.3); GA_WALK_ENDS is their number. */
#undef GA_ENC_WALK
#define GA_ENC_WALK(name, value) GA_WALK_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_WALK_ENDS
} ga_walk_status_t;
#undef GA_ENC_WALK
#define GA_ENC_WALK(name, value)

/* How MEMCHECK.G obtained its entry (spec §4.2): NONE Rb = 0, FAULT misaligned Rb or an error
 * response, OK the entry is valid. */
#undef GA_ENC_MD
#define GA_ENC_MD(name, value) GA_MD_##name = value,
typedef enum {
#include "ga_isa.def"
    GA_MD_STATES
} ga_md_state_t;
#undef GA_ENC_MD
#define GA_ENC_MD(name, value)

/* Configuration register addresses (req_cfg_addr_i, spec §5.1). */
#undef GA_REG
#define GA_REG(name, addr, bits, reset, lo, hi) GA_CFG_##name = addr,
typedef enum {
#include "ga_isa.def"
    GA_CFG_REGS
} ga_cfg_addr_t;
#undef GA_REG
#define GA_REG(name, addr, bits, reset, lo, hi)

#undef GA_WIDTH
#undef GA_REG
#undef GA_WALK_EXC
#undef GA_ENC
#undef GA_ENC_OP
#undef GA_ENC_RSP
#undef GA_ENC_EXC
#undef GA_ENC_EV
#undef GA_ENC_MODE
#undef GA_ENC_POLICY
#undef GA_ENC_WALK
#undef GA_ENC_MD

/* A configuration register's rules (spec §5.1): width in bits, reset value, legal values lo .. hi.
 * ga_cfg_reg: the rules of register addr; false (and *r untouched) for an address that names none.
 * ga_cfg_legal: a CFG_WRITE of value to addr is accepted (a register exists there and value lies in
 * lo .. hi); the RTL answers CFG_ERROR otherwise. */
typedef struct {
    const char *name; /* "MODE", "LAYOUT", ... */
    unsigned bits;
    uint64_t reset, lo, hi;
} ga_cfg_reg_t;
bool ga_cfg_reg(unsigned addr, ga_cfg_reg_t *r);
bool ga_cfg_legal(unsigned addr, uint64_t value);

/* The exception of a HWOnly lane whose LOADMETA walk ended s (spec §5.4) on an entry that is freed
 * (its tag is F) or live; GA_EXC_NONE for FOUND (the lane is then checked against the entry) and for
 * a status that names no walk end. */
ga_exc_kind_t ga_walk_exc(ga_walk_status_t s, bool freed);

/* Every GA_ENC and GA_WIDTH entry of the .def, in file order, for tools and tests that compare copies:
 * family ("OP", ... ; "W" for a width), name ("LOADMETA"; a width's "Op"), value. Returns the count. */
typedef struct {
    const char *family, *name;
    uint64_t value;
} ga_isa_entry_t;
size_t ga_isa_entries(const ga_isa_entry_t **out);

#endif /* GA_ISA_H */
