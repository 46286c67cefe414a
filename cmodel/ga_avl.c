/*
 * ga_avl.c — the index-addressed AVL tree of ga_avl.h.
 *
 * Rebalancing is the textbook single and double rotation; every change of a child link goes through
 * set_l / set_r, which call the owner's touch hook, so a tree whose links are mirrored in device
 * memory (the BST layout) learns exactly which nodes to rewrite.
 */
#include "ga_avl.h"
#include <stddef.h>

#define NIL GA_AVL_NIL

static uint32_t h_of(const ga_avl_t *t, uint32_t i) { return i == NIL ? 0u : t->n[i].h; }
static uint64_t agg_of(const ga_avl_t *t, uint32_t i) { return i == NIL ? 0u : t->n[i].agg; }

static void set_l(ga_avl_t *t, uint32_t i, uint32_t c)
{
    if (t->n[i].l == c) return;
    t->n[i].l = c;
    if (t->touch != NULL) t->touch(t->ctx, i);
}

static void set_r(ga_avl_t *t, uint32_t i, uint32_t c)
{
    if (t->n[i].r == c) return;
    t->n[i].r = c;
    if (t->touch != NULL) t->touch(t->ctx, i);
}

/* Recompute i's height (and agg) from its children. */
static void fix(ga_avl_t *t, uint32_t i)
{
    uint32_t l = t->n[i].l, r = t->n[i].r;
    uint32_t hl = h_of(t, l), hr = h_of(t, r);
    t->n[i].h = 1u + (hl > hr ? hl : hr);
    if (t->aug) {
        uint64_t m = t->n[i].val;
        if (agg_of(t, l) > m) m = agg_of(t, l);
        if (agg_of(t, r) > m) m = agg_of(t, r);
        t->n[i].agg = m;
    }
}

static uint32_t rot_right(ga_avl_t *t, uint32_t y)
{
    uint32_t x = t->n[y].l;
    set_l(t, y, t->n[x].r);
    set_r(t, x, y);
    fix(t, y);
    fix(t, x);
    return x;
}

static uint32_t rot_left(ga_avl_t *t, uint32_t x)
{
    uint32_t y = t->n[x].r;
    set_r(t, x, t->n[y].l);
    set_l(t, y, x);
    fix(t, x);
    fix(t, y);
    return y;
}

/* Restore the AVL property at i (its subtrees are AVL trees whose heights differ by at most 2);
 * returns the subtree's new root. */
static uint32_t balance(ga_avl_t *t, uint32_t i)
{
    fix(t, i);
    uint32_t l = t->n[i].l, r = t->n[i].r;
    uint32_t hl = h_of(t, l), hr = h_of(t, r);
    if (hl > hr + 1u) {
        if (h_of(t, t->n[l].l) < h_of(t, t->n[l].r)) set_l(t, i, rot_left(t, l));
        return rot_right(t, i);
    }
    if (hr > hl + 1u) {
        if (h_of(t, t->n[r].r) < h_of(t, t->n[r].l)) set_r(t, i, rot_right(t, r));
        return rot_left(t, i);
    }
    return i;
}

static uint32_t ins(ga_avl_t *t, uint32_t i, uint32_t x)
{
    if (i == NIL) return x;
    if (t->n[x].key < t->n[i].key)
        set_l(t, i, ins(t, t->n[i].l, x));
    else
        set_r(t, i, ins(t, t->n[i].r, x));
    return balance(t, i);
}

void ga_avl_init(ga_avl_t *t, ga_avl_node_t *n, bool aug, void (*touch)(void *ctx, uint32_t id), void *ctx)
{
    t->n = n;
    t->root = NIL;
    t->aug = aug;
    t->touch = touch;
    t->ctx = ctx;
}

void ga_avl_insert(ga_avl_t *t, uint32_t x)
{
    t->n[x].l = NIL;
    t->n[x].r = NIL;
    fix(t, x);
    t->root = ins(t, t->root, x);
}

/* Unlink the leftmost node of subtree i into *min; returns the subtree's new root. */
static uint32_t del_min(ga_avl_t *t, uint32_t i, uint32_t *min)
{
    if (t->n[i].l == NIL) {
        *min = i;
        return t->n[i].r;
    }
    set_l(t, i, del_min(t, t->n[i].l, min));
    return balance(t, i);
}

/* Remove node x from subtree i; a node with two children is replaced by its successor node. */
static uint32_t del(ga_avl_t *t, uint32_t i, uint32_t x)
{
    if (i == NIL) return NIL;
    if (i == x) {
        uint32_t l = t->n[i].l, r = t->n[i].r;
        if (l == NIL) return r;
        if (r == NIL) return l;
        uint32_t m = NIL;
        uint32_t nr = del_min(t, r, &m);
        set_l(t, m, l);
        set_r(t, m, nr);
        return balance(t, m);
    }
    if (t->n[x].key < t->n[i].key)
        set_l(t, i, del(t, t->n[i].l, x));
    else
        set_r(t, i, del(t, t->n[i].r, x));
    return balance(t, i);
}

void ga_avl_remove(ga_avl_t *t, uint32_t x) { t->root = del(t, t->root, x); }

uint32_t ga_avl_floor(const ga_avl_t *t, uint64_t k)
{
    uint32_t i = t->root, best = NIL;
    while (i != NIL) {
        if (t->n[i].key <= k) {
            best = i;
            i = t->n[i].r;
        } else {
            i = t->n[i].l;
        }
    }
    return best;
}

uint32_t ga_avl_above(const ga_avl_t *t, uint64_t k)
{
    uint32_t i = t->root, best = NIL;
    while (i != NIL) {
        if (t->n[i].key > k) {
            best = i;
            i = t->n[i].l;
        } else {
            i = t->n[i].r;
        }
    }
    return best;
}

uint32_t ga_avl_first_fit(const ga_avl_t *t, uint64_t need)
{
    uint32_t i = t->root;
    if (i == NIL || t->n[i].agg < need) return NIL;
    for (;;) {
        uint32_t l = t->n[i].l;
        if (l != NIL && t->n[l].agg >= need)
            i = l;
        else if (t->n[i].val >= need)
            return i;
        else
            i = t->n[i].r; /* agg(i) >= need forces a fit on the right */
    }
}

uint32_t ga_avl_height(const ga_avl_t *t) { return h_of(t, t->root); }
