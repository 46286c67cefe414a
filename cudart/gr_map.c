/*
 * gr_map.c — the uint64_t hash map of gr_map.h.
 */
#include "gr_map.h"

#include <stdlib.h>
#include <string.h>

/* A 64-bit mixer (the finaliser of SplitMix64): pointers are 16- or 256-byte aligned, so the low
 * bits alone would cluster. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

void gr_map_init(gr_map_t *m) { memset(m, 0, sizeof *m); }

void gr_map_free(gr_map_t *m)
{
    free(m->keys);
    free(m->vals);
    gr_map_init(m);
}

void gr_map_clear(gr_map_t *m)
{
    if (m->cap)
        memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->live = m->dead = 0;
}

static size_t slot_of(const gr_map_t *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = (size_t)mix(key) & mask;
    while (m->keys[i] != 0 && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static bool rebuild(gr_map_t *m, size_t cap)
{
    uint64_t *k = calloc(cap, sizeof *k), *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return false;
    }
    gr_map_t n = {k, v, cap, 0, 0};
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] != 0 && m->keys[i] != GR_MAP_DEAD) {
            size_t s = slot_of(&n, m->keys[i]);
            n.keys[s] = m->keys[i];
            n.vals[s] = m->vals[i];
            n.live++;
        }
    free(m->keys);
    free(m->vals);
    *m = n;
    return true;
}

bool gr_map_put(gr_map_t *m, uint64_t key, uint64_t val)
{
    if (key == 0 || key == GR_MAP_DEAD)
        return false;
    if (m->cap) {
        /* An existing key is overwritten in place (it may sit behind tombstones). */
        size_t mask = m->cap - 1, i = (size_t)mix(key) & mask;
        while (m->keys[i] != 0) {
            if (m->keys[i] == key) {
                m->vals[i] = val;
                return true;
            }
            i = (i + 1) & mask;
        }
    }
    if ((m->live + m->dead + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap : 16;
        while ((m->live + 1) * 2 > cap)
            cap *= 2;
        if ((m->live + 1) * 4 > cap)
            cap *= 2; /* grow, do not only drop tombstones, when more than 1/4 is live */
        if (!rebuild(m, cap))
            return false;
    }
    /* Reuse the first tombstone on the probe path, else the empty slot that ends it. */
    size_t mask = m->cap - 1, i = (size_t)mix(key) & mask;
    while (m->keys[i] != 0 && m->keys[i] != GR_MAP_DEAD)
        i = (i + 1) & mask;
    if (m->keys[i] == GR_MAP_DEAD)
        m->dead--;
    m->keys[i] = key;
    m->vals[i] = val;
    m->live++;
    return true;
}

bool gr_map_get(const gr_map_t *m, uint64_t key, uint64_t *val)
{
    if (!m->cap || key == 0 || key == GR_MAP_DEAD)
        return false;
    size_t i = slot_of(m, key);
    if (m->keys[i] != key)
        return false;
    if (val)
        *val = m->vals[i];
    return true;
}

bool gr_map_del(gr_map_t *m, uint64_t key)
{
    if (!m->cap || key == 0 || key == GR_MAP_DEAD)
        return false;
    size_t i = slot_of(m, key);
    if (m->keys[i] != key)
        return false;
    m->keys[i] = GR_MAP_DEAD;
    m->live--;
    m->dead++;
    return true;
}

bool gr_map_next(const gr_map_t *m, size_t *pos, uint64_t *key, uint64_t *val)
{
    for (size_t i = *pos; i < m->cap; i++)
        if (m->keys[i] != 0 && m->keys[i] != GR_MAP_DEAD) {
            *pos = i + 1;
            if (key)
                *key = m->keys[i];
            if (val)
                *val = m->vals[i];
            return true;
        }
    *pos = m->cap;
    return false;
}
