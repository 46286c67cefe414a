/*
 * ga_isa.c — the tables of ga_isa.h, built from cmodel/ga_isa.def.
 */
#include "ga_isa.h"

static const ga_cfg_reg_t ga_regs[] = {
#define GA_WIDTH(name, bits)
#define GA_ENC(fam, name, value)
#define GA_WALK_EXC(walk, live, freed)
#define GA_REG(name, addr, bits, reset, lo, hi) [addr] = {#name, bits, UINT64_C(reset), UINT64_C(lo), UINT64_C(hi)},
#include "ga_isa.def"
#undef GA_REG
#undef GA_WALK_EXC
#undef GA_ENC
#undef GA_WIDTH
};
_Static_assert(sizeof ga_regs / sizeof ga_regs[0] == (size_t)GA_CFG_REGS, "register addresses are dense");

bool ga_cfg_reg(unsigned addr, ga_cfg_reg_t *r)
{
    if (addr >= (unsigned)GA_CFG_REGS) return false;
    if (r != NULL) *r = ga_regs[addr];
    return true;
}

bool ga_cfg_legal(unsigned addr, uint64_t value)
{
    return addr < (unsigned)GA_CFG_REGS && value >= ga_regs[addr].lo && value <= ga_regs[addr].hi;
}

ga_exc_kind_t ga_walk_exc(ga_walk_status_t s, bool freed)
{
    switch (s) {
#define GA_WIDTH(name, bits)
#define GA_ENC(fam, name, value)
#define GA_REG(name, addr, bits, reset, lo, hi)
#define GA_WALK_EXC(walk, live, freed_kind)                                                           \
    case GA_WALK_##walk: return freed ? GA_EXC_##freed_kind : GA_EXC_##live;
#include "ga_isa.def"
#undef GA_WALK_EXC
#undef GA_REG
#undef GA_ENC
#undef GA_WIDTH
    case GA_WALK_ENDS: break;
    }
    return GA_EXC_NONE;
}

static const ga_isa_entry_t ga_entries[] = {
#define GA_WIDTH(name, bits) {"W", #name, bits},
#define GA_ENC(fam, name, value) {#fam, #name, value},
#define GA_REG(name, addr, bits, reset, lo, hi)
#define GA_WALK_EXC(walk, live, freed)
#include "ga_isa.def"
#undef GA_WALK_EXC
#undef GA_REG
#undef GA_ENC
#undef GA_WIDTH
};

size_t ga_isa_entries(const ga_isa_entry_t **out)
{
    if (out != NULL) *out = ga_entries;
    return sizeof ga_entries / sizeof ga_entries[0];
}
