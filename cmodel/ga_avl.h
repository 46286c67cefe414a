/*
 * ga_avl.h — an AVL tree over an array of nodes addressed by index: the ordering structure of the
 * runtime (spec §7). The runtime keys its entries, its live allocations and the allocator's free blocks
 * with it, and the BST layout (ga_layout_bst.c) builds the device tree of spec §2.3 with it.
 *
 * The tree does not own its node array: the owner allocates it, indexes it by its own ids, and
 * re-points `n` when it grows it. Keys are unique within a tree (the callers' keys are base
 * addresses of disjoint ranges). Deleting a node with two children relinks its in-order successor
 * node into its place: no key or payload ever moves between nodes, which is what lets the BST layout
 * keep every node at its location (spec §2.4). An augmented tree also keeps, per node, the largest
 * `val` in its subtree, so a first-fit search is one descent. Every operation is O(log n).
 */
#ifndef GA_AVL_H
#define GA_AVL_H

#include <stdbool.h>
#include <stdint.h>

#define GA_AVL_NIL UINT32_MAX

typedef struct {
    uint64_t key;  /* ordering key, unique within a tree */
    uint64_t val;  /* augmented tree: the value first fit searches (a block length); else unused */
    uint64_t agg;  /* augmented tree: the largest val in the subtree */
    uint32_t l, r; /* children, GA_AVL_NIL if none */
    uint32_t h;    /* height of the subtree, 1 for a leaf */
} ga_avl_node_t;

typedef struct {
    ga_avl_node_t *n; /* node array, owned by the caller (re-pointed when it grows) */
    uint32_t root;    /* GA_AVL_NIL when empty */
    bool aug;         /* maintain agg */
    void (*touch)(void *ctx, uint32_t id); /* called whenever id's l or r changes; may be NULL */
    void *ctx;
} ga_avl_t;

/* An empty tree over node array n (may be NULL until the first insert). */
void ga_avl_init(ga_avl_t *t, ga_avl_node_t *n, bool aug, void (*touch)(void *ctx, uint32_t id), void *ctx);

/* Insert node x: its key (and val, augmented) already set; x must not be in the tree. */
void ga_avl_insert(ga_avl_t *t, uint32_t x);

/* Remove node x, which must be in the tree (a node not in it leaves the tree as it was, rebalanced
 * along the search path). */
void ga_avl_remove(ga_avl_t *t, uint32_t x);

/* The node with the largest key <= k, or GA_AVL_NIL. */
uint32_t ga_avl_floor(const ga_avl_t *t, uint64_t k);

/* The node with the smallest key > k, or GA_AVL_NIL. */
uint32_t ga_avl_above(const ga_avl_t *t, uint64_t k);

/* Augmented tree: the lowest-keyed node with val >= need, or GA_AVL_NIL. */
uint32_t ga_avl_first_fit(const ga_avl_t *t, uint64_t need);

/* Height: 0 for an empty tree, 1 for a single node. */
uint32_t ga_avl_height(const ga_avl_t *t);

#endif /* GA_AVL_H */
