/*
 * tb_memsys.c — memory and oracle port models of the co-simulation (see tb_memsys.h).
 */
#include "tb_memsys.h"

#include <string.h>

static bool pct(ga_rng_t *r, unsigned p) { return p != 0u && ga_rng_below(r, 100) < p; }
static bool ppm(ga_rng_t *r, uint32_t p) { return p != 0u && ga_rng_below(r, 1000000) < p; }

void tb_memsys_init(tb_memsys_t *m, const tb_mem_knobs_t *k, ga_mem_t *mem, ga_rt_t *rt, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->k = *k;
    if (m->k.lat_max < m->k.lat_min) m->k.lat_max = m->k.lat_min;
    m->mem = mem;
    m->rt = rt;
    ga_rng_seed(&m->rng, seed ^ UINT64_C(0x6d656d7379730000)); /* its own stream: "memsys" */
}

static uint64_t latency(tb_memsys_t *m)
{
    uint64_t lat = m->k.lat_min + ga_rng_below(&m->rng, m->k.lat_max - m->k.lat_min + 1u);
    if (pct(&m->rng, m->k.slow_pct)) lat += ga_rng_below(&m->rng, m->k.slow_lat + 1u);
    return lat;
}

void tb_memsys_drive(tb_memsys_t *m, uint64_t cycle, tb_dut_in_t *in)
{
    m->now = cycle;
    in->mem_req_ready = (m->qn < TB_MEMSYS_Q && !pct(&m->rng, m->k.req_stall_pct)) ? 1u : 0u;
    in->mem_rsp_valid = 0;
    in->mem_rsp_err = 0;
    if (m->qn > 0u) {
        const tb_mread_t *r = &m->q[m->qh];
        /* once offered, a response stays valid until the DUT takes it (handshake rule, §1) */
        if (m->offered || (cycle >= r->due && !pct(&m->rng, m->k.rsp_stall_pct))) {
            m->offered = true;
            in->mem_rsp_valid = 1;
            in->mem_rsp_err = r->err[r->beat] ? 1u : 0u;
            memcpy(in->mem_rsp_data, r->data + 32u * r->beat, 32);
        }
    }
    if (!in->mem_rsp_valid) /* idle data: garbage, never looked at */
        for (unsigned i = 0; i < 32u; i += 8u) ga_put_le64(in->mem_rsp_data + i, UINT64_C(0xDEADBEEFBAADF00D) ^ cycle);
    in->orc_req_ready = (m->on < TB_MEMSYS_Q && !pct(&m->rng, m->k.orc_stall_pct)) ? 1u : 0u;
    in->orc_rsp_valid = 0;
    in->orc_rsp_found = 0;
    in->orc_rsp_idx = 0;
    if (m->on > 0u && cycle >= m->oq[m->oh].due) {
        in->orc_rsp_valid = 1;
        in->orc_rsp_found = m->oq[m->oh].found ? 1u : 0u;
        in->orc_rsp_idx = m->oq[m->oh].idx;
    }
}

unsigned tb_mem_len_bytes(unsigned len_code)
{
    static const unsigned bytes[4] = { 16u, 32u, 128u, 0u };
    return bytes[len_code & 3u];
}

bool tb_memsys_accept_read(tb_memsys_t *m, uint64_t cycle, uint64_t addr, unsigned len_code)
{
    unsigned len = tb_mem_len_bytes(len_code);
    if (m->qn == TB_MEMSYS_Q || len == 0u) return false;
    tb_mread_t *r = &m->q[(m->qh + m->qn) % TB_MEMSYS_Q];
    m->qn++;
    r->addr = addr;
    r->len_code = (uint8_t)len_code;
    r->beats = (uint8_t)(len > 32u ? len / 32u : 1u);
    r->beat = 0;
    bool any = false;
    for (unsigned b = 0; b < r->beats; b++) {
        uint8_t *d = r->data + 32u * b;
        unsigned n = len < 32u ? len : 32u;
        for (unsigned i = 0; i < 32u; i += 8u) ga_put_le64(d + i, ga_rng_next(&m->rng));
        int st = ga_mem_read(m->mem, addr + 32u * b, d, n);
        r->inj[b] = st == GA_MEM_OK && ppm(&m->rng, m->k.err_ppm);
        r->err[b] = st != GA_MEM_OK || r->inj[b];
        if (r->err[b]) /* the data of an error beat is meaningless: make it garbage */
            for (unsigned i = 0; i < 32u; i += 8u) ga_put_le64(d + i, ga_rng_next(&m->rng));
        any = any || r->err[b];
        if (r->inj[b]) m->st.injected++;
    }
    r->due = cycle + 1u + latency(m);
    m->st.reads++;
    if (any) m->st.errors++;
    return true;
}

void tb_memsys_rsp_taken(tb_memsys_t *m)
{
    if (m->qn == 0u) return;
    m->offered = false;
    tb_mread_t *r = &m->q[m->qh];
    if (++r->beat < r->beats) { /* the next beat: back to back, or after a short random gap */
        r->due = m->now + 1u + (pct(&m->rng, 50) ? ga_rng_below(&m->rng, 4) : 0u);
        return;
    }
    m->qh = (m->qh + 1u) % TB_MEMSYS_Q;
    m->qn--;
}

bool tb_memsys_rsp_injected(const tb_memsys_t *m) { return m->qn > 0u && m->q[m->qh].inj[m->q[m->qh].beat]; }

void tb_memsys_accept_oracle(tb_memsys_t *m, uint64_t cycle, uint64_t va)
{
    if (m->on == TB_MEMSYS_Q) return;
    tb_orc_ans_t *a = &m->oq[(m->oh + m->on) % TB_MEMSYS_Q];
    m->on++;
    uint64_t idx = 0;
    a->found = m->rt != NULL && ga_rt_oracle(m->rt, va, &idx) != 0;
    a->idx = a->found ? idx : 0u;
    a->lie = ppm(&m->rng, m->k.orc_lie_ppm);
    if (a->lie) {
        switch (ga_rng_below(&m->rng, 4)) {
        case 0: a->found = false; a->idx = 0; break;                            /* "none" */
        case 1: a->found = true; a->idx = idx + 1u; break;                     /* the neighbour */
        case 2: a->found = true; a->idx = idx - 1u; break;                     /* (wraps for 0) */
        default: a->found = true; a->idx = ga_rng_next(&m->rng); break;        /* anywhere */
        }
        m->st.lies++;
    }
    a->due = cycle + 1u + (m->k.orc_lat_max ? ga_rng_below(&m->rng, m->k.orc_lat_max + 1u) : 0u);
    m->st.oracle++;
}

bool tb_memsys_orc_lie(const tb_memsys_t *m) { return m->on > 0u && m->oq[m->oh].lie; }

void tb_memsys_orc_delivered(tb_memsys_t *m)
{
    if (m->on == 0u) return;
    m->oh = (m->oh + 1u) % TB_MEMSYS_Q;
    m->on--;
}

bool tb_memsys_idle(const tb_memsys_t *m) { return m->qn == 0u && m->on == 0u; }
