/*
 * ga_alloc.c — the first-fit allocator of ga_alloc.h. Block nodes are recycled through a chain
 * threaded through their `l` field while they are out of the tree.
 */
#include "ga_alloc.h"

#include <stdlib.h>
#include <string.h>

#define NIL GA_AVL_NIL

ga_err_t ga_alloc_reserve(ga_alloc_t *a, uint32_t k)
{
    if ((uint64_t)(a->bcap - a->btop) + a->nbfree >= k) return GA_OK;
    uint64_t ncap = a->bcap == 0u ? 64u : (uint64_t)a->bcap * 2u;
    while (ncap - a->btop + a->nbfree < k) ncap *= 2u;
    if (ncap >= NIL) ncap = NIL - 1u;
    if (ncap - a->btop + a->nbfree < k) return GA_ERR_NO_MEMORY;
    ga_avl_node_t *nb = realloc(a->bn, (size_t)ncap * sizeof *nb);
    if (nb == NULL) return GA_ERR_NO_MEMORY;
    a->bn = nb;
    a->bt.n = nb;
    a->bcap = (uint32_t)ncap;
    return GA_OK;
}

static uint32_t blk_new(ga_alloc_t *a)
{
    uint32_t id;
    if (a->bfree != NIL) {
        id = a->bfree;
        a->bfree = a->bn[id].l;
        a->nbfree--;
    } else {
        id = a->btop++;
    }
    return id;
}

static void blk_release(ga_alloc_t *a, uint32_t id)
{
    a->bn[id].l = a->bfree;
    a->bfree = id;
    a->nbfree++;
}

ga_err_t ga_alloc_init(ga_alloc_t *a, uint64_t base, uint64_t size)
{
    memset(a, 0, sizeof *a);
    a->bfree = NIL;
    ga_avl_init(&a->bt, NULL, true, NULL, NULL);
    ga_err_t err = ga_alloc_reserve(a, 1u);
    if (err != GA_OK) return err;
    uint32_t id = blk_new(a);
    a->bn[id].key = base;
    a->bn[id].val = size;
    ga_avl_insert(&a->bt, id);
    return GA_OK;
}

void ga_alloc_fini(ga_alloc_t *a)
{
    free(a->bn);
    memset(a, 0, sizeof *a);
}

bool ga_alloc_find(const ga_alloc_t *a, uint64_t need, uint64_t *base, uint32_t *blk)
{
    uint32_t id = ga_avl_first_fit(&a->bt, need);
    if (id == NIL) return false;
    *base = a->bn[id].key;
    *blk = id;
    return true;
}

void ga_alloc_take(ga_alloc_t *a, uint32_t blk, uint64_t need)
{
    ga_avl_remove(&a->bt, blk);
    if (a->bn[blk].val == need) {
        blk_release(a, blk);
        return;
    }
    a->bn[blk].key += need;
    a->bn[blk].val -= need;
    ga_avl_insert(&a->bt, blk);
}

void ga_alloc_give(ga_alloc_t *a, uint64_t base, uint64_t len)
{
    uint32_t p = ga_avl_floor(&a->bt, base);
    uint32_t s = ga_avl_above(&a->bt, base);
    bool ml = p != NIL && a->bn[p].key + a->bn[p].val == base;
    bool mr = s != NIL && base + len == a->bn[s].key;
    if (ml && mr) {
        ga_avl_remove(&a->bt, p);
        ga_avl_remove(&a->bt, s);
        a->bn[p].val += len + a->bn[s].val;
        blk_release(a, s);
        ga_avl_insert(&a->bt, p);
    } else if (ml) {
        ga_avl_remove(&a->bt, p);
        a->bn[p].val += len;
        ga_avl_insert(&a->bt, p);
    } else if (mr) {
        ga_avl_remove(&a->bt, s);
        a->bn[s].key = base;
        a->bn[s].val += len;
        ga_avl_insert(&a->bt, s);
    } else {
        uint32_t id = blk_new(a);
        a->bn[id].key = base;
        a->bn[id].val = len;
        ga_avl_insert(&a->bt, id);
    }
}
