/*
 * ga_mem.c — simulated device memory (see ga_mem.h).
 *
 * Pages of 4 KiB live in an open-addressing hash table (linear probing, power-of-two capacity, load
 * factor at most 1/2) keyed by page number. Pages are never removed, so probing needs no tombstones.
 * The last page found is cached: the walker reads node after node from the same few pages, so most
 * lookups skip the hash. Poisoned ranges are a small array scanned linearly (error injection is rare
 * and uses few ranges).
 */
#include "ga_mem.h"

#include <stdlib.h>
#include <string.h>

#define PAGE_SHIFT 12u
#define PAGE_BYTES (1u << PAGE_SHIFT)
#define PAGE_MASK ((uint64_t)PAGE_BYTES - 1u)
#define HASH_MIN_CAP 64u
/* Fibonacci hashing multiplier (2^64 / golden ratio): spreads consecutive page numbers. */
#define HASH_MUL UINT64_C(0x9E3779B97F4A7C15)

typedef struct {
    uint64_t lo, hi; /* inclusive: [lo, hi] */
} mem_range_t;

struct ga_mem {
    uint64_t *keys;   /* page number of slot i (meaningful when pages[i] != NULL) */
    uint8_t **pages;  /* PAGE_BYTES bytes each; NULL marks an empty slot */
    size_t cap;       /* slots, a power of two */
    unsigned shift;   /* 64 - log2(cap) */
    size_t count;     /* pages mapped */
    uint64_t last_pn; /* cache: page number of last_page */
    uint8_t *last_page; /* NULL: cache empty */
    mem_range_t *poison;
    size_t npoison, poison_cap;
    ga_mem_stats_t st;
};

static size_t hash_slot(const ga_mem_t *m, uint64_t pn)
{
    return (size_t)((pn * HASH_MUL) >> m->shift);
}

/* The page holding page number pn, or NULL if it was never written. */
static uint8_t *page_find(ga_mem_t *m, uint64_t pn)
{
    if (m->last_page != NULL && m->last_pn == pn) return m->last_page;
    size_t mask = m->cap - 1u;
    for (size_t i = hash_slot(m, pn);; i = (i + 1u) & mask) {
        uint8_t *pg = m->pages[i];
        if (pg == NULL) return NULL;
        if (m->keys[i] == pn) {
            m->last_pn = pn;
            m->last_page = pg;
            return pg;
        }
    }
}

/* Same as page_find without touching the cache (for const paths and the write planner). */
static uint8_t *page_peek(const ga_mem_t *m, uint64_t pn)
{
    if (m->last_page != NULL && m->last_pn == pn) return m->last_page;
    size_t mask = m->cap - 1u;
    for (size_t i = hash_slot(m, pn);; i = (i + 1u) & mask) {
        if (m->pages[i] == NULL) return NULL;
        if (m->keys[i] == pn) return m->pages[i];
    }
}

/* Insert a page known to be absent; capacity must already allow it (load <= 1/2). */
static void page_insert(ga_mem_t *m, uint64_t pn, uint8_t *pg)
{
    size_t mask = m->cap - 1u;
    size_t i = hash_slot(m, pn);
    while (m->pages[i] != NULL) i = (i + 1u) & mask;
    m->keys[i] = pn;
    m->pages[i] = pg;
    m->count++;
}

static unsigned log2_size(size_t v)
{
    unsigned k = 0;
    while (((size_t)1 << k) < v) k++;
    return k;
}

/* Make room for `more` additional pages at load factor <= 1/2. On failure nothing changes. */
static ga_err_t table_reserve(ga_mem_t *m, size_t more)
{
    if (more > SIZE_MAX / 4u - m->count) return GA_ERR_NO_MEMORY;
    size_t need = m->count + more;
    if (need <= m->cap / 2u) return GA_OK;
    size_t ncap = m->cap;
    while (need > ncap / 2u) ncap *= 2u;
    uint64_t *nkeys = calloc(ncap, sizeof *nkeys);
    uint8_t **npages = calloc(ncap, sizeof *npages);
    if (nkeys == NULL || npages == NULL) {
        free(nkeys);
        free(npages);
        return GA_ERR_NO_MEMORY;
    }
    uint64_t *okeys = m->keys;
    uint8_t **opages = m->pages;
    size_t ocap = m->cap;
    m->keys = nkeys;
    m->pages = npages;
    m->cap = ncap;
    m->shift = 64u - log2_size(ncap);
    m->count = 0;
    for (size_t i = 0; i < ocap; i++)
        if (opages[i] != NULL) page_insert(m, okeys[i], opages[i]);
    free(okeys);
    free(opages);
    return GA_OK;
}

ga_err_t ga_mem_create(ga_mem_t **out)
{
    if (out == NULL) return GA_ERR_BAD_PARAM;
    *out = NULL;
    ga_mem_t *m = calloc(1, sizeof *m);
    if (m == NULL) return GA_ERR_NO_MEMORY;
    m->cap = HASH_MIN_CAP;
    m->shift = 64u - log2_size(HASH_MIN_CAP);
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->pages = calloc(m->cap, sizeof *m->pages);
    if (m->keys == NULL || m->pages == NULL) {
        ga_mem_destroy(m);
        return GA_ERR_NO_MEMORY;
    }
    *out = m;
    return GA_OK;
}

void ga_mem_destroy(ga_mem_t *m)
{
    if (m == NULL) return;
    if (m->pages != NULL)
        for (size_t i = 0; i < m->cap; i++) free(m->pages[i]);
    free(m->pages);
    free(m->keys);
    free(m->poison);
    free(m);
}

/* len - 1 > UINT64_MAX - addr <=> addr + len > 2^64 (for len >= 1), without overflow. */
static bool range_wraps(uint64_t addr, uint64_t len)
{
    return len != 0u && len - 1u > UINT64_MAX - addr;
}

ga_err_t ga_mem_write(ga_mem_t *m, uint64_t addr, const void *buf, size_t len)
{
    if (m == NULL) return GA_ERR_BAD_PARAM;
    m->st.writes++;
    if (len == 0u) return GA_OK;
    if (buf == NULL || range_wraps(addr, (uint64_t)len)) return GA_ERR_BAD_PARAM;
    uint64_t last = addr + ((uint64_t)len - 1u);
    uint64_t pn0 = addr >> PAGE_SHIFT, pn1 = last >> PAGE_SHIFT;

    /* Fast path: one page, already mapped (every metadata node write after the first). */
    if (pn0 == pn1) {
        uint8_t *pg = page_find(m, pn0);
        if (pg != NULL) {
            memcpy(pg + (addr & PAGE_MASK), buf, len);
            m->st.bytes_written += len;
            return GA_OK;
        }
    }

    /* Plan: allocate every missing page before changing anything, so a failure writes nothing. */
    size_t missing = 0;
    for (uint64_t pn = pn0;; pn++) {
        if (page_peek(m, pn) == NULL) missing++;
        if (pn == pn1) break;
    }
    uint8_t *local[4];
    uint8_t **fresh = local;
    if (missing > 0u) {
        if (table_reserve(m, missing) != GA_OK) return GA_ERR_NO_MEMORY;
        if (missing > sizeof local / sizeof local[0]) {
            fresh = malloc(missing * sizeof *fresh);
            if (fresh == NULL) return GA_ERR_NO_MEMORY;
        }
        for (size_t k = 0; k < missing; k++) {
            fresh[k] = calloc(1, PAGE_BYTES);
            if (fresh[k] == NULL) {
                for (size_t j = 0; j < k; j++) free(fresh[j]);
                if (fresh != local) free(fresh);
                return GA_ERR_NO_MEMORY;
            }
        }
        size_t k = 0;
        for (uint64_t pn = pn0;; pn++) {
            if (page_peek(m, pn) == NULL) page_insert(m, pn, fresh[k++]);
            if (pn == pn1) break;
        }
        if (fresh != local) free(fresh);
    }

    /* Copy page by page. */
    const uint8_t *src = buf;
    uint64_t a = addr;
    size_t rem = len;
    while (rem > 0u) {
        size_t off = (size_t)(a & PAGE_MASK);
        size_t chunk = PAGE_BYTES - off;
        if (chunk > rem) chunk = rem;
        uint8_t *pg = page_find(m, a >> PAGE_SHIFT);
        memcpy(pg + off, src, chunk);
        src += chunk;
        rem -= chunk;
        a += chunk; /* may wrap to 0 only when rem has reached 0 (write ending at 2^64) */
    }
    m->st.bytes_written += len;
    return GA_OK;
}

static bool is_poisoned(const ga_mem_t *m, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < m->npoison; i++)
        if (m->poison[i].lo <= hi && m->poison[i].hi >= lo) return true;
    return false;
}

int ga_mem_read(ga_mem_t *m, uint64_t addr, void *buf, size_t len)
{
    if (len == 0u) {
        if (m != NULL) m->st.reads++;
        return GA_MEM_OK;
    }
    if (m == NULL) {
        if (buf != NULL) memset(buf, 0, len);
        return GA_MEM_UNMAPPED;
    }
    m->st.reads++;
    m->st.bytes_read += len;
    if (range_wraps(addr, (uint64_t)len)) {
        memset(buf, 0, len);
        return GA_MEM_WRAP;
    }
    uint64_t last = addr + ((uint64_t)len - 1u);
    if (m->npoison != 0u && is_poisoned(m, addr, last)) {
        memset(buf, 0, len);
        return GA_MEM_POISONED;
    }
    uint8_t *dst = buf;
    /* Fast path: the whole read inside one page (every node read: nodes are 32-byte aligned). */
    if ((addr >> PAGE_SHIFT) == (last >> PAGE_SHIFT)) {
        const uint8_t *pg = page_find(m, addr >> PAGE_SHIFT);
        if (pg == NULL) {
            memset(buf, 0, len);
            return GA_MEM_UNMAPPED;
        }
        memcpy(dst, pg + (addr & PAGE_MASK), len);
        return GA_MEM_OK;
    }
    uint64_t a = addr;
    size_t rem = len;
    while (rem > 0u) {
        size_t off = (size_t)(a & PAGE_MASK);
        size_t chunk = PAGE_BYTES - off;
        if (chunk > rem) chunk = rem;
        const uint8_t *pg = page_find(m, a >> PAGE_SHIFT);
        if (pg == NULL) {
            memset(buf, 0, len);
            return GA_MEM_UNMAPPED;
        }
        memcpy(dst, pg + off, chunk);
        dst += chunk;
        rem -= chunk;
        a += chunk; /* may wrap to 0 only when rem has reached 0 */
    }
    return GA_MEM_OK;
}

ga_err_t ga_mem_poison(ga_mem_t *m, uint64_t addr, uint64_t len)
{
    if (m == NULL) return GA_ERR_BAD_PARAM;
    if (len == 0u) return GA_OK;
    if (range_wraps(addr, len)) return GA_ERR_BAD_PARAM;
    if (m->npoison == m->poison_cap) {
        size_t ncap = m->poison_cap == 0u ? 4u : m->poison_cap * 2u;
        mem_range_t *np = realloc(m->poison, ncap * sizeof *np);
        if (np == NULL) return GA_ERR_NO_MEMORY;
        m->poison = np;
        m->poison_cap = ncap;
    }
    m->poison[m->npoison].lo = addr;
    m->poison[m->npoison].hi = addr + (len - 1u);
    m->npoison++;
    return GA_OK;
}

void ga_mem_unpoison_all(ga_mem_t *m)
{
    if (m != NULL) m->npoison = 0;
}

ga_mem_stats_t ga_mem_stats(const ga_mem_t *m)
{
    ga_mem_stats_t s = {0};
    if (m == NULL) return s;
    s = m->st;
    s.pages = (uint64_t)m->count;
    return s;
}

static int memif_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    return ga_mem_read(ctx, addr, buf, len);
}

ga_memif_t ga_mem_memif(ga_mem_t *m)
{
    ga_memif_t mi;
    mi.read = memif_read;
    mi.read_ctx = m;
    mi.oracle = NULL;
    mi.oracle_ctx = NULL;
    return mi;
}
