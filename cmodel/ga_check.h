/*
 * ga_check.h — the check logic (spec §3.1, §4; RTL rtl/ga_check.sv): the match rule, MEMCHECK.G and
 * MEMCHECK.S per lane and per warp. Pure functions of their inputs.
 */
#ifndef GA_CHECK_H
#define GA_CHECK_H

#include "ga_types.h"

/* M3 (spec §3.1): va >= ebase and va - ebase < size. Tags are ignored. */
bool ga_entry_covers(ga_entry_t e, uint64_t p, unsigned tag_bits);

/* M1..M3 (spec §3.1): the entry matches tagged pointer p. */
bool ga_entry_matches(ga_entry_t e, uint64_t p, unsigned tag_bits);

/* G6 (spec §4.2): the whole access of size bytes at va(p) lies in the entry's range and below 2^V,
 * i.e. on exact integers ebase <= a, a + S <= ebase + e.size and a + S <= 2^V (computed wrap-free).
 * Tags are ignored. S = 0 (never legal) gives ga_entry_covers(). */
bool ga_access_in_bounds(ga_entry_t e, uint64_t p, uint32_t size, unsigned tag_bits);

/* How the warp's metadata entry was obtained (spec §4.2): ga_md_state_t of ga_isa.h (GA_MD_NONE Rb == 0,
 * GA_MD_FAULT misaligned Rb or an error response, GA_MD_OK entry valid). */

/* One lane of MEMCHECK.G (rules G1..G7 of spec §4.2). entry is ignored unless md_state == GA_MD_OK. */
ga_exc_kind_t ga_check_g_lane(uint64_t p, uint32_t size, ga_md_state_t md_state, ga_entry_t entry,
                              unsigned tag_bits);

/* One lane of MEMCHECK.S (spec §4.3). */
ga_exc_kind_t ga_check_s_lane(uint32_t a, uint32_t size, uint32_t base, uint32_t ssize);

/* A warp request (spec §4.4). addr[l] for l < lanes; lanes 1..32. size in bytes. */
typedef struct {
    unsigned lanes;
    uint32_t active; /* bit l: lane l active; bits at or above lanes must be 0 */
    uint16_t warp;
    uint32_t size;
    uint64_t addr[GA_LANES_MAX]; /* global: tagged address; shared: low 32 bits used */
} ga_warp_req_t;

/* A warp response (spec §4.4). */
typedef struct {
    uint64_t addr[GA_LANES_MAX]; /* strip(Ra) for every lane < lanes (shared: zero) */
    uint32_t fault;              /* bit l: lane l failed */
    ga_exc_t rec;                /* the lowest failing lane's record, zero if fault == 0 */
} ga_warp_rsp_t;

/* MEMCHECK.G on every active lane against one entry (the RTL ga_check block): fills rsp->addr,
 * rsp->fault and rsp->rec (sm, md copied into the record). The response is rewritten completely:
 * addr[l] = strip(Ra_l) for every l < lanes (active or not), 0 above; the record is the lowest failing
 * lane's, with entry = the entry when md_state is GA_MD_OK and zero otherwise, and md as given: 0 for
 * G2, the Rb whose fetch failed for G3 [decision, see ga_check.c], Rb for G4..G6. */
void ga_check_g(const ga_warp_req_t *req, uint64_t md, ga_md_state_t md_state, ga_entry_t entry,
                uint16_t sm, unsigned tag_bits, ga_warp_rsp_t *rsp);

/* MEMCHECK.S on every active lane (the RTL ga_check block, shared path). MEMCHECK.S returns no value:
 * every rsp->addr[l] is 0. The record has md 0 and entry { tb = base, size = ssize } (spec §4.5). */
void ga_check_s(const ga_warp_req_t *req, uint32_t base, uint32_t ssize, uint16_t sm,
                ga_warp_rsp_t *rsp);

#endif /* GA_CHECK_H */
