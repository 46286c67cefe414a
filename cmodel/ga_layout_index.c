/*
 * ga_layout_index.c — the index layout: a B+-tree index over a table of stable 16-byte slots (spec
 * §2.3 "Index", §3.3, §7.7). Not in the paper: it makes the paper's speed-of-light table realizable
 * by replacing the oracle with an index whose nodes are one 128-byte L1 line [paper §8: GA100 L1
 * lines of 128 bytes in four 32-byte sectors].
 *
 * Region (md_base 128-aligned; ROOT = md_base + 128; every reference is a 32-bit count of 16-byte
 * units from ROOT, so location = ROOT + 16 * ref):
 *   [ROOT - 128, +128)                        the freed index's root node (it never moves)
 *   [ROOT, +128)                              the live index's root node (it never moves)
 *   [ROOT + 128, +16 * capacity)              the slots: slot s at ROOT + 128 + 16 * s (ref 8 + s)
 *   [pool = ROOT + 128 + roundup(16 * capacity, 128), +128 * (capacity / 5 + 64))   the other nodes
 * A node (128 bytes, little-endian): byte 0 count c (0 .. 11), byte 1 kind (0 leaf, 1 inner), bytes
 * 2..3 zero, bytes 4 + 4j the 32-bit ref[j] (j < 11), bytes 48 + 8(i - 1) the 64-bit key[i] (1 <= i
 * <= 10); fields at and beyond c are zero. An inner node's ref[j] is a child node, a leaf's is a slot.
 * key[i] is the smallest base in the subtree (inner) or the base of the entry (leaf) of ref[i]; key[0]
 * is not stored: the parent already knows it.
 *
 * The walk reads one node per level and then the slot: the node's 11 refs and 10 keys make the
 * fan-out 11, so 3 node levels hold 1 331 entries and 4 hold 14 641 (the goals of issue 13: at most
 * 3 + 1 reads at the paper's 1 184 live allocations and 4 + 1 at 10 000, when nodes are full).
 *
 * The runtime's writer keeps a host copy of every node (with key[0]) and rewrites the changed ones at
 * the end of each operation. Balance (spec §7.7): every node but the root holds 6 .. 11 refs; an
 * insert into a full node first moves one ref to the left sibling, else to the right one, if it has
 * room, and only then splits the node 6 + 6; a remove from a node left with 5 borrows from the left
 * sibling, else the right one, if it holds more than 6, else merges with it; a full root splits into
 * two new nodes and an inner root with a single child takes the child's content. Slots never move.
 * Random inserts (a program that frees and allocates at random) split full nodes 6 + 6 and leave many
 * nodes part-full, so the root would split long before the height is full; while the entries would fill no more than 90 %
 * of the current height (10 n <= 9 * 11^h), a full root instead repacks the whole index at that height,
 * every level evenly filled (spec §7.7 "Repack"): it rewrites only index nodes, never a slot.
 *
 * Two indexes share the slots and the pool (spec §2.3, 1.3): the live index (root at ROOT) holds the
 * live entries and those freed since the last malloc; the freed index (root at ROOT - 128) the other
 * freed entries. A free changes neither (frees race walks, spec §8); a malloc first moves the entries
 * freed since the previous one from the live index to the freed one, oldest free first. The walk
 * reads the live index and, only when no entry there covers the address, the freed one: so up to
 * reclaim_threshold freed entries cost a live pointer's walk nothing.
 */
#include "ga_layout.h"

#include <stdlib.h>
#include <string.h>

#define IX_FAN 11u      /* refs per node (spec §2.3) */
#define IX_MIN 6u       /* refs of every node but the root after each operation (spec §7.7) */
#define IX_SLOT0 128u   /* offset of slot 0 from ROOT */
#define IX_FROOT 128u   /* the freed root sits at ROOT - 128 = md_base */
#define IX_SLACK 64u    /* pool nodes beyond capacity / 5 (see ix_pool_cap) */
#define IX_MAX_UNITS (UINT64_C(1) << 32) /* a 32-bit ref addresses 2^32 16-byte units */
#define NIL UINT32_MAX
#define IX_HMAX 16u     /* heights a repack handles (n < 2^32 entries need at most 13 levels) */
#define BN_LIMBS 16u    /* 512-bit integers: n^e and m^h for n, m < 2^32 and e, h <= IX_HMAX */

/* --- geometry ------------------------------------------------------------------------------------- */

static uint64_t ix_pool_off(uint32_t capacity)
{
    uint64_t s = (uint64_t)capacity * GA_ENTRY_BYTES;
    return IX_SLOT0 + ((s + GA_INODE_BYTES - 1u) / GA_INODE_BYTES) * GA_INODE_BYTES;
}

/* Pool nodes: every node but the root holds at least 6 refs, so with n <= capacity entries there are at
 * most n/6 leaves under an inner root, n/36 nodes above them, ... : fewer than n/5 in all. The slack
 * covers the nodes an operation may need before it frees any (ix_reserve's bound). */
static uint64_t ix_pool_cap(uint32_t capacity) { return (uint64_t)capacity / 5u + IX_SLACK; }

/* The region's size; 0 (refused) when the part above ROOT would not fit the 32-bit refs. */
static uint64_t ix_md_bytes(uint32_t capacity)
{
    uint64_t len = ix_pool_off(capacity) + ix_pool_cap(capacity) * GA_INODE_BYTES;
    return len / 16u > IX_MAX_UNITS ? 0u : IX_FROOT + len;
}

/* A slot's location minus md_base. */
static uint64_t ix_slot_offset(uint32_t capacity, uint32_t slot)
{
    (void)capacity;
    return IX_FROOT + IX_SLOT0 + (uint64_t)slot * GA_ENTRY_BYTES;
}

/* --- the walk ------------------------------------------------------------------------------------- */

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/*
 * n = ROOT, live phase, steps = 0, repeat (spec §3.3, INDEX):
 *   1. n mod 128 != 0                         -> FAULT, no read
 *   2. steps = step_limit                     -> STEP_LIMIT, no read
 *   3. read 128 bytes at n, steps++; error    -> FAULT
 *   4. c = byte 0, kind = byte 1; c > 11, kind > 1 or bytes 2..3 not zero -> FAULT
 *   5. c = 0                                  -> none
 *   6. j = the largest i in 1 .. c-1 with key[i] <= a, else 0
 *   7. L = ROOT + 16 * ref[j] (modulo 2^64)
 *   8. inner: n = L, repeat from 1.
 *   9. leaf: steps = step_limit -> STEP_LIMIT, no read; read 16 bytes at L, steps++; error -> FAULT;
 *      the entry range-covers a -> FOUND (L, e) or RANGE_ONLY (L, e), else none.
 * none: in the live phase n = ROOT - 128 (the freed index), freed phase, repeat from 1 (steps go on
 * counting); in the freed phase NOT_FOUND. Refs stay offsets from ROOT in both phases. A key equal to a selects its own ref (the entry at that base); keys out of order (only in corrupt
 * metadata) still pick one ref by the same rule. ROOT mod 128 != 0 ends FAULT before any read, like a
 * misaligned child. bytes counts 128 per node and 16 for the slot.
 */
static ga_walk_result_t index_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    unsigned tb = cfg->tag_bits;
    uint64_t a = ga_va_of(p, tb);
    uint8_t buf[GA_INODE_BYTES];
    uint64_t n = cfg->root, bytes = 0;
    uint32_t steps = 0;
    bool live = true;
    for (;;) {
        if (n % GA_INODE_BYTES != 0u) return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        if (steps == cfg->step_limit) return ga_walk_end_empty(GA_WALK_STEP_LIMIT, steps, bytes);
        steps++;
        bytes += GA_INODE_BYTES;
        if (mem->read(mem->read_ctx, n, GA_INODE_BYTES, buf) != 0) return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        unsigned c = buf[0], kind = buf[1];
        if (c > IX_FAN || kind > 1u || buf[2] != 0u || buf[3] != 0u)
            return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        if (c == 0u) {
            if (!live) return ga_walk_end_empty(GA_WALK_NOT_FOUND, steps, bytes);
            live = false;
            n = cfg->root - IX_FROOT; /* modulo 2^64 */
            continue;
        }
        unsigned j = 0;
        for (unsigned i = c - 1u; i >= 1u; i--)
            if (ga_le64(buf + 48u + 8u * (i - 1u)) <= a) {
                j = i;
                break;
            }
        uint64_t loc = cfg->root + GA_ENTRY_BYTES * (uint64_t)le32(buf + 4u + 4u * j); /* modulo 2^64 */
        if (kind == 1u) {
            n = loc;
            continue;
        }
        if (steps == cfg->step_limit) return ga_walk_end_empty(GA_WALK_STEP_LIMIT, steps, bytes);
        steps++;
        bytes += GA_ENTRY_BYTES;
        if (mem->read(mem->read_ctx, loc, GA_ENTRY_BYTES, buf) != 0)
            return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        ga_entry_t e = { ga_le64(buf), ga_le64(buf + 8) };
        if (ga_entry_covers(e, p, tb)) return ga_walk_end_covered(loc, e, p, steps, bytes, tb);
        if (!live) return ga_walk_end_empty(GA_WALK_NOT_FOUND, steps, bytes);
        live = false;
        n = cfg->root - IX_FROOT;
    }
}

/* --- the reference search (no code shared with the walk; see ga_refsearch.h) ----------------------
 *
 * Keys are not used at all: the search visits the whole index depth first, every ref of every node
 * in order, and reads every slot a leaf names, until an entry's range contains the address. So a key
 * the runtime got wrong (a separator that sends the walk to the wrong child) is caught by comparing
 * the walk with this search. Gives up on a node the walk would refuse (count, kind, reserved bytes),
 * a misaligned node, a failed read, more than max_nodes reads in all (nodes and slots), or a depth
 * beyond 32 levels (a fan-out-11 tree of 2^32 entries is 10 deep). */

#define REF_DEPTH 32u

static uint64_t ref_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8u; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

static uint64_t ref_le32(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 4u; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

/* One index whose root node is at `top`, refs counted from `root`: 1 and *loc (0 unless the entry
 * matches) when an entry's range contains the address, 0 when none does, -1 when it gives up. *count
 * counts reads (nodes and slots) across both indexes. */
static int ref_tree(ga_mem_t *mem, uint64_t root, uint64_t top, unsigned tag_bits, uint64_t p, uint64_t max_nodes,
                    uint64_t *count, ga_entry_t *e_out, uint64_t *loc_out)
{
    const unsigned vbits = 64u - tag_bits;
    const uint64_t va_mask = UINT64_MAX >> tag_bits;
    const uint64_t a = p & va_mask, t = p >> vbits;
    struct {
        uint8_t node[128];
        unsigned next; /* the next ref to visit */
    } stack[REF_DEPTH];
    unsigned depth = 0;

    if (top % 128u != 0u || *count == max_nodes) return -1;
    if (ga_mem_read(mem, top, stack[0].node, 128) != GA_MEM_OK) return -1;
    (*count)++;
    stack[0].next = 0;
    depth = 1;
    while (depth > 0u) {
        uint8_t *nd = stack[depth - 1u].node;
        unsigned c = nd[0];
        if (c > 11u || nd[1] > 1u || nd[2] != 0u || nd[3] != 0u) return -1;
        unsigned j = stack[depth - 1u].next;
        if (j >= c) {
            depth--;
            continue;
        }
        stack[depth - 1u].next = j + 1u;
        uint64_t loc = root + 16u * ref_le32(nd + 4u + 4u * j);
        if (*count == max_nodes) return -1;
        (*count)++;
        if (nd[1] == 1u) { /* inner: descend */
            if (loc % 128u != 0u || depth == REF_DEPTH) return -1;
            if (ga_mem_read(mem, loc, stack[depth].node, 128) != GA_MEM_OK) return -1;
            stack[depth].next = 0;
            depth++;
            continue;
        }
        uint8_t slot[16]; /* leaf: the slot */
        if (ga_mem_read(mem, loc, slot, 16) != GA_MEM_OK) return -1;
        uint64_t tb = ref_le64(slot), size = ref_le64(slot + 8), ebase = tb & va_mask;
        if (a >= ebase && a - ebase < size) {
            e_out->tb = tb;
            e_out->size = size;
            uint64_t etag = tb >> vbits;
            *loc_out = t == etag && t != 0u && t != (UINT64_MAX >> vbits) ? loc : 0u;
            return 1;
        }
    }
    return 0;
}

/* The live index at ROOT, then the freed one at ROOT - 128 (spec §2.3): between them they hold every
 * entry once, so the search looks in the second only when the first holds no covering entry. */
static uint64_t index_ref_search(ga_mem_t *mem, uint64_t root, uint64_t slots, unsigned tag_bits, uint64_t p,
                                 uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    (void)slots;
    uint64_t count = 0, loc = 0;
    int r = ref_tree(mem, root, root, tag_bits, p, max_nodes, &count, e_out, &loc);
    if (r == 0) r = ref_tree(mem, root, root - 128u, tag_bits, p, max_nodes, &count, e_out, &loc);
    if (r < 0) return 0;
    *ok = true;
    return loc;
}

/* --- the runtime writer ----------------------------------------------------------------------------- */

/* A host node. key[0] is the smallest base of the subtree (leaf: of the first entry); device keys are
 * key[1 .. n-1]. One spare position holds the 12th ref of a node that is about to be rebalanced. */
typedef struct {
    uint32_t n;                 /* refs in use, 0 .. 12 (12 only inside an insert) */
    bool leaf, used, dirty;
    uint32_t dnext;             /* dirty chain */
    uint64_t key[IX_FAN + 1u];
    uint32_t child[IX_FAN + 1u]; /* inner: node id; leaf: record id */
} ixn_t;

/* The two indexes (spec §2.3): tree t's root is node id t. */
#define IX_LIVE 0u
#define IX_DEAD 1u
#define IX_ROOTS 2u

typedef struct {
    ga_lw_env_t env;
    uint64_t pool_off;   /* pool base - ROOT */
    uint64_t pool_cap;   /* pool nodes */
    ixn_t *nd;           /* node ids: 0 the live root, 1 the freed root, k >= 2 pool node k - 2 */
    uint32_t ncap;       /* ids nd holds */
    uint32_t bump;       /* ids ever used (the roots included) */
    uint32_t *freed;     /* released ids, most recent last */
    uint32_t nfreed;
    uint32_t dhead;
    uint32_t cur;        /* the tree the current insert or remove works on */
    uint32_t height[IX_ROOTS];  /* node levels: 1 while the root is a leaf */
    uint64_t entries[IX_ROOTS]; /* (base, slot) pairs in each index */
    uint32_t pnodes[IX_ROOTS];  /* pool nodes each index uses */
    uint32_t in_use;     /* nodes in use, the roots included */
    uint32_t mapped;     /* ids below this one have their device pages mapped (ix_reserve) */
    uint64_t repacks, repack_nodes, node_writes;
    uint8_t *where;      /* per record id: 0 in no index, 1 + t in tree t; rcap of them */
    uint32_t *pend;      /* records freed since the last malloc, oldest first (still live-indexed) */
    uint32_t npend, rcap;
    uint64_t *sk;        /* repack scratch: one level's keys (smallest bases) ... */
    uint32_t *sr;        /* ... and refs (records, then node ids), entries_cap of each */
    uint32_t *su;        /* ... and the pool nodes in use, ncap */
    uint64_t entries_cap;
} ix_t;

/* A node's location minus md_base (= ROOT - 128). */
static uint64_t ix_node_off(const ix_t *x, uint32_t id)
{
    if (id == IX_LIVE) return IX_FROOT;
    if (id == IX_DEAD) return 0u;
    return IX_FROOT + x->pool_off + (uint64_t)(id - IX_ROOTS) * GA_INODE_BYTES;
}

static void ix_dirty(ix_t *x, uint32_t id)
{
    if (x->nd[id].dirty) return;
    x->nd[id].dirty = true;
    x->nd[id].dnext = x->dhead;
    x->dhead = id;
}

/* A new node: the most recently released, else the next never-used one (reserved by ix_reserve). */
static uint32_t ix_take(ix_t *x, bool leaf)
{
    uint32_t id = x->nfreed > 0u ? x->freed[--x->nfreed] : x->bump++;
    ixn_t *d = &x->nd[id];
    bool dirty = d->dirty; /* the id may still be on this operation's dirty chain */
    uint32_t dn = d->dnext;
    memset(d, 0, sizeof *d);
    d->dirty = dirty;
    d->dnext = dn;
    d->used = true;
    d->leaf = leaf;
    x->in_use++;
    x->pnodes[x->cur]++;
    ix_dirty(x, id);
    return id;
}

/* Release a node: zeroed in device memory at once (its page is mapped), reusable in this operation. */
static void ix_release(ix_t *x, uint32_t id)
{
    static const uint8_t zero[GA_INODE_BYTES];
    x->nd[id].used = false;
    x->nd[id].n = 0;
    (void)ga_mem_write(x->env.mem, x->env.md_base + ix_node_off(x, id), zero, sizeof zero);
    x->freed[x->nfreed++] = id;
    x->in_use--;
    x->pnodes[x->cur]--;
}

/* Move refs [from, from + k) of node s to position at of node d (d's refs at and above `at` shift up;
 * s's refs above the range shift down). */
static void ix_move(ix_t *x, uint32_t s, uint32_t from, uint32_t k, uint32_t d, uint32_t at)
{
    ixn_t *S = &x->nd[s], *D = &x->nd[d];
    memmove(D->key + at + k, D->key + at, (D->n - at) * sizeof D->key[0]);
    memmove(D->child + at + k, D->child + at, (D->n - at) * sizeof D->child[0]);
    memcpy(D->key + at, S->key + from, k * sizeof D->key[0]);
    memcpy(D->child + at, S->child + from, k * sizeof D->child[0]);
    D->n += k;
    memmove(S->key + from, S->key + from + k, (S->n - from - k) * sizeof S->key[0]);
    memmove(S->child + from, S->child + from + k, (S->n - from - k) * sizeof S->child[0]);
    S->n -= k;
    ix_dirty(x, s);
    ix_dirty(x, d);
}

/* Drop ref i of inner node p (its child was merged away). */
static void ix_drop(ix_t *x, uint32_t p, uint32_t i)
{
    ixn_t *P = &x->nd[p];
    memmove(P->key + i, P->key + i + 1u, (P->n - i - 1u) * sizeof P->key[0]);
    memmove(P->child + i, P->child + i + 1u, (P->n - i - 1u) * sizeof P->child[0]);
    P->n--;
    ix_dirty(x, p);
}

/* Inner node p's keys from its children's smallest bases (the separators stay exact, spec §7.7). */
static void ix_refresh(ix_t *x, uint32_t p)
{
    ixn_t *P = &x->nd[p];
    for (uint32_t j = 0; j < P->n; j++) {
        uint64_t k = x->nd[P->child[j]].key[0];
        if (P->key[j] != k) {
            P->key[j] = k;
            if (j > 0u) ix_dirty(x, p);
        }
    }
}

/* Inner node p's child i holds 12 refs: give one to the left sibling, else to the right one, if it has
 * room, else split the child 6 + 6 (p gains a ref and may hold 12 itself). */
static void ix_overflow(ix_t *x, uint32_t p, uint32_t i)
{
    uint32_t c = x->nd[p].child[i];
    if (i > 0u && x->nd[x->nd[p].child[i - 1u]].n < IX_FAN) {
        uint32_t l = x->nd[p].child[i - 1u];
        ix_move(x, c, 0, 1, l, x->nd[l].n);
        return;
    }
    if (i + 1u < x->nd[p].n && x->nd[x->nd[p].child[i + 1u]].n < IX_FAN) {
        ix_move(x, c, x->nd[c].n - 1u, 1, x->nd[p].child[i + 1u], 0);
        return;
    }
    uint32_t m = ix_take(x, x->nd[c].leaf);
    ix_move(x, c, IX_MIN, x->nd[c].n - IX_MIN, m, 0);
    ixn_t *P = &x->nd[p];
    memmove(P->key + i + 2u, P->key + i + 1u, (P->n - i - 1u) * sizeof P->key[0]);
    memmove(P->child + i + 2u, P->child + i + 1u, (P->n - i - 1u) * sizeof P->child[0]);
    P->child[i + 1u] = m;
    P->key[i + 1u] = x->nd[m].key[0];
    P->n++;
    ix_dirty(x, p);
}

/* Inner node p's child i holds 5 refs: borrow from the left sibling, else the right one, if it holds
 * more than 6, else merge with the left sibling (or, for child 0, with the right one). */
static void ix_underflow(ix_t *x, uint32_t p, uint32_t i)
{
    uint32_t c = x->nd[p].child[i];
    uint32_t l = i > 0u ? x->nd[p].child[i - 1u] : NIL;
    uint32_t r = i + 1u < x->nd[p].n ? x->nd[p].child[i + 1u] : NIL;
    if (l != NIL && x->nd[l].n > IX_MIN) {
        ix_move(x, l, x->nd[l].n - 1u, 1, c, 0);
        return;
    }
    if (r != NIL && x->nd[r].n > IX_MIN) {
        ix_move(x, r, 0, 1, c, x->nd[c].n);
        return;
    }
    if (l != NIL) {
        ix_move(x, c, 0, x->nd[c].n, l, x->nd[l].n);
        ix_drop(x, p, i);
        ix_release(x, c);
    } else if (r != NIL) {
        ix_move(x, r, 0, x->nd[r].n, c, x->nd[c].n);
        ix_drop(x, p, i + 1u);
        ix_release(x, r);
    }
}

/* The ref of inner node p to follow for key k: the largest i >= 1 with key[i] <= k, else 0 (the walk's
 * rule, spec §3.3). */
static uint32_t ix_route(const ixn_t *P, uint64_t k)
{
    uint32_t i = P->n - 1u;
    while (i > 0u && P->key[i] > k) i--;
    return i;
}

static void ix_ins(ix_t *x, uint32_t id, uint64_t k, uint32_t rid)
{
    if (x->nd[id].leaf) {
        ixn_t *L = &x->nd[id];
        uint32_t pos = 0;
        while (pos < L->n && L->key[pos] < k) pos++;
        memmove(L->key + pos + 1u, L->key + pos, (L->n - pos) * sizeof L->key[0]);
        memmove(L->child + pos + 1u, L->child + pos, (L->n - pos) * sizeof L->child[0]);
        L->key[pos] = k;
        L->child[pos] = rid;
        L->n++;
        ix_dirty(x, id);
        return;
    }
    uint32_t i = ix_route(&x->nd[id], k);
    uint32_t c = x->nd[id].child[i];
    ix_ins(x, c, k, rid);
    if (x->nd[c].n > IX_FAN) ix_overflow(x, id, i);
    ix_refresh(x, id);
}

static void ix_rem(ix_t *x, uint32_t id, uint64_t k, uint32_t rid)
{
    if (x->nd[id].leaf) {
        ixn_t *L = &x->nd[id];
        for (uint32_t pos = 0; pos < L->n; pos++) {
            if (L->child[pos] != rid) continue;
            memmove(L->key + pos, L->key + pos + 1u, (L->n - pos - 1u) * sizeof L->key[0]);
            memmove(L->child + pos, L->child + pos + 1u, (L->n - pos - 1u) * sizeof L->child[0]);
            L->n--;
            ix_dirty(x, id);
            return;
        }
        return; /* not here: cannot happen for the runtime's own calls (separators are exact) */
    }
    uint32_t i = ix_route(&x->nd[id], k);
    uint32_t c = x->nd[id].child[i];
    ix_rem(x, c, k, rid);
    if (x->nd[c].n < IX_MIN) ix_underflow(x, id, i);
    ix_refresh(x, id);
}

/* --- repack (spec §7.7) ------------------------------------------------------------------------ */

/* a = b^e, as BN_LIMBS little-endian 32-bit limbs (b < 2^32, e <= IX_HMAX: it fits). */
static void bn_pow(uint32_t *a, uint64_t b, unsigned e)
{
    memset(a, 0, BN_LIMBS * sizeof a[0]);
    a[0] = 1;
    for (unsigned k = 0; k < e; k++) {
        uint64_t carry = 0;
        for (unsigned i = 0; i < BN_LIMBS; i++) {
            uint64_t t = (uint64_t)a[i] * b + carry;
            a[i] = (uint32_t)t;
            carry = t >> 32;
        }
    }
}

static int bn_cmp(const uint32_t *a, const uint32_t *b)
{
    for (unsigned i = BN_LIMBS; i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Level sizes of a repack of n entries at height h (spec §7.7): cnt[j] = the least m with
 * m^h >= n^(h - j), j = 0 .. h (cnt[0] = n entries, cnt[h] = 1 root). Exact integer arithmetic; a binary
 * search over m in [1, cnt[j - 1]] (the sizes shrink going up). */
static void ix_plan(uint64_t n, uint32_t h, uint64_t *cnt)
{
    uint32_t want[BN_LIMBS], have[BN_LIMBS];
    cnt[0] = n;
    for (uint32_t j = 1; j <= h; j++) {
        bn_pow(want, n, h - j);
        uint64_t lo = 1, hi = cnt[j - 1] > 1u ? cnt[j - 1] : 1u;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2u;
            bn_pow(have, mid, h);
            if (bn_cmp(have, want) >= 0) hi = mid;
            else lo = mid + 1u;
        }
        cnt[j] = lo;
    }
}

/* Whether n entries at height h repack (spec §7.7): h >= 2, 10 n <= 9 * 11^h, and the plan gives every
 * node but the root 6 .. 11 refs and the root 2 .. 11. */
static bool ix_plan_ok(uint64_t n, uint32_t h, uint64_t *cnt)
{
    if (h < 2u || h > IX_HMAX) return false;
    uint64_t cap = 1;
    for (uint32_t j = 0; j < h; j++) cap *= IX_FAN;
    if (10u * n > 9u * cap) return false;
    ix_plan(n, h, cnt);
    for (uint32_t j = 1; j <= h; j++) {
        uint64_t most = (cnt[j - 1] + cnt[j] - 1u) / cnt[j], least = cnt[j - 1] / cnt[j];
        if (most > IX_FAN || least < (j < h ? IX_MIN : 2u)) return false;
    }
    return true;
}

/* A plan's non-root nodes: the sum of cnt[1 .. h-1]. */
static uint64_t ix_plan_sum(const uint64_t *cnt, uint32_t h)
{
    uint64_t t = 0;
    for (uint32_t j = 1; j < h; j++) t += cnt[j];
    return t;
}

/* Non-root nodes of a repack of n entries at height h. */
static uint64_t ix_plan_nodes(uint64_t n, uint32_t h)
{
    if (h < 2u || h > IX_HMAX || n == 0u) return 0;
    uint64_t cnt[IX_HMAX + 1u];
    ix_plan(n, h, cnt);
    return ix_plan_sum(cnt, h);
}

/* The leaves' pairs in base order into sk / sr, and the pool nodes below id into su (nu of them);
 * returns how many pairs. */
static uint64_t ix_collect(ix_t *x, uint32_t id, uint64_t k, uint32_t *nu)
{
    const ixn_t *d = &x->nd[id];
    for (uint32_t j = 0; j < d->n; j++) {
        if (d->leaf) {
            x->sk[k] = d->key[j];
            x->sr[k] = d->child[j];
            k++;
        } else {
            x->su[(*nu)++] = d->child[j];
            k = ix_collect(x, d->child[j], k, nu);
        }
    }
    return k;
}

static int ix_id_cmp(const void *a, const void *b)
{
    uint32_t u = *(const uint32_t *)a, v = *(const uint32_t *)b;
    return (u > v) - (u < v);
}

/* The root of tree x->cur holds 12 refs after an insert: repack that index at its height if spec
 * §7.7 allows it. Level by level from the leaves, the level's items (pairs, then the nodes just built)
 * are cut into cnt[j] runs, run q taking items [floor(q L / m), floor((q + 1) L / m)); the k-th new
 * node takes the k-th pool node this index uses (ascending location), then a node by §7.5's rule;
 * its pool nodes left over are released in ascending location order. The root keeps its location
 * and takes the top level. */
static bool ix_repack(ix_t *x)
{
    uint64_t cnt[IX_HMAX + 1u];
    uint32_t t = x->cur, h = x->height[t];
    if (!ix_plan_ok(x->entries[t], h, cnt)) return false;
    uint64_t nodes = ix_plan_sum(cnt, h);
    uint64_t avail = (uint64_t)x->pnodes[t] + x->nfreed + (x->mapped > x->bump ? x->mapped - x->bump : 0u);
    if (nodes > avail || x->entries[t] > x->entries_cap) return false; /* ix_reserve's guarantee */
    uint32_t nu = 0, ui = 0;
    uint64_t L = ix_collect(x, t, 0, &nu);
    qsort(x->su, nu, sizeof x->su[0], ix_id_cmp); /* ids ascend with locations */
    for (uint32_t j = 1; j < h; j++) {
        uint64_t m = cnt[j];
        for (uint64_t q = 0; q < m; q++) {
            uint64_t a = q * L / m, b = (q + 1u) * L / m;
            uint32_t id;
            if (ui < nu) {
                id = x->su[ui++];
                ix_dirty(x, id);
            } else {
                id = ix_take(x, j == 1u);
            }
            ixn_t *d = &x->nd[id];
            d->leaf = j == 1u;
            d->n = (uint32_t)(b - a);
            memcpy(d->key, x->sk + a, d->n * sizeof d->key[0]);
            memcpy(d->child, x->sr + a, d->n * sizeof d->child[0]);
            x->sk[q] = d->key[0]; /* q <= a: this level's items are read before they are overwritten */
            x->sr[q] = id;
        }
        L = m;
    }
    ixn_t *R = &x->nd[t];
    R->leaf = false;
    R->n = (uint32_t)L;
    memcpy(R->key, x->sk, L * sizeof R->key[0]);
    memcpy(R->child, x->sr, L * sizeof R->child[0]);
    ix_dirty(x, t);
    while (ui < nu) ix_release(x, x->su[ui++]);
    x->repacks++;
    x->repack_nodes += nodes + 1u;
    return true;
}

static void ix_destroy(void *st)
{
    ix_t *x = st;
    if (x == NULL) return;
    free(x->nd);
    free(x->freed);
    free(x->su);
    free(x->sk);
    free(x->sr);
    free(x->where);
    free(x->pend);
    free(x);
}

static ga_err_t ix_create(void **st, const ga_lw_env_t *env)
{
    ix_t *x = calloc(1, sizeof *x);
    *st = x;
    if (x == NULL) return GA_ERR_NO_MEMORY;
    x->env = *env;
    x->pool_off = ix_pool_off(env->md_capacity);
    x->pool_cap = ix_pool_cap(env->md_capacity);
    x->dhead = NIL;
    x->ncap = 64;
    x->nd = calloc(x->ncap, sizeof *x->nd);
    x->freed = calloc(x->ncap, sizeof *x->freed);
    x->su = calloc(x->ncap, sizeof *x->su);
    if (x->nd == NULL || x->freed == NULL || x->su == NULL) {
        ix_destroy(x);
        *st = NULL;
        return GA_ERR_NO_MEMORY;
    }
    /* Two empty indexes: root leaves with no ref, all zero in memory (spec §2.3). */
    x->bump = IX_ROOTS;
    x->mapped = IX_ROOTS;
    x->in_use = IX_ROOTS;
    for (uint32_t t = 0; t < IX_ROOTS; t++) {
        x->height[t] = 1;
        x->nd[t].used = true;
        x->nd[t].leaf = true;
    }
    static const uint8_t zero[IX_ROOTS * GA_INODE_BYTES];
    ga_err_t err = ga_mem_write(env->mem, env->md_base, zero, sizeof zero);
    if (err != GA_OK) {
        ix_destroy(x);
        *st = NULL;
    }
    return err;
}

/* Room for `inserts` inserts, plus the moves of the records freed since the last malloc (each a
 * remove and an insert into the freed index, spec §7.7). Two bounds on the never-used nodes the
 * operation takes, the smaller one mapped:
 * - per insert: it may split one node per level and the root (two new nodes), and each raises a
 *   height by at most one, so it takes at most height + inserts + 1 new nodes; a repack of tree t
 *   reuses t's pool nodes and takes the rest by §7.5's rule, at most ix_plan_nodes of the largest entry
 *   count t can reach (level sizes grow with n); the other index may take released nodes first, so
 *   that is mapped on top of the inserts' own;
 * - by shape: after every insert, remove or repack every non-root node holds at least 6 refs, so the
 *   pool nodes in use never exceed (entries of both indexes) / 5, the entries never exceed their
 *   count after the operation (moves add none), and nodes are taken only when none is released.
 * The never-used ones must fit the pool (GA_ERR_NO_METADATA_SPACE: unreachable while the slots fit,
 * see ix_pool_cap) and get their device pages mapped now (zeros: what a never-used node holds).
 * Host memory: the node arrays, the repack's scratch for the largest index, and the per-record
 * bookkeeping for record ids below rec_cap. */
static ga_err_t ix_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    static const uint8_t zero[GA_INODE_BYTES];
    ix_t *x = st;
    if (rec_cap > x->rcap) {
        uint8_t *w = realloc(x->where, rec_cap);
        if (w == NULL) return GA_ERR_NO_MEMORY;
        memset(w + x->rcap, 0, rec_cap - x->rcap);
        x->where = w;
        uint32_t *pe = realloc(x->pend, (size_t)rec_cap * sizeof *pe);
        if (pe == NULL) return GA_ERR_NO_MEMORY;
        x->pend = pe;
        x->rcap = rec_cap;
    }
    uint64_t ins = inserts > 0u ? (uint64_t)inserts + x->npend : 0u;
    uint32_t hmax = x->height[IX_LIVE] > x->height[IX_DEAD] ? x->height[IX_LIVE] : x->height[IX_DEAD];
    uint64_t need = ins * (hmax + ins + 1u);
    uint64_t fresh = need > x->nfreed ? need - x->nfreed : 0u;
    uint64_t have = (uint64_t)x->bump - IX_ROOTS;
    uint64_t all = x->entries[IX_LIVE] + x->entries[IX_DEAD] + inserts;
    uint64_t peak = all / 5u + 1u, fresh_shape = peak > have ? peak - have : 0u;
    uint64_t nmax = 0;
    if (ins > 0u) {
        uint64_t rb = 0;
        for (uint32_t t = 0; t < IX_ROOTS; t++) {
            uint64_t n = x->entries[t] + ins < all ? x->entries[t] + ins : all;
            uint64_t r = ix_plan_nodes(n, x->height[t]);
            if (r > rb) rb = r;
            if (n > nmax) nmax = n;
        }
        if (rb > 0u) fresh += rb;
    }
    if (fresh_shape < fresh) fresh = fresh_shape;
    if (have + fresh > x->pool_cap) return GA_ERR_NO_METADATA_SPACE;
    if (nmax > x->entries_cap) {
        uint64_t nc = x->entries_cap ? x->entries_cap : 64u;
        while (nc < nmax) nc *= 2u;
        if (nc > UINT32_MAX) return GA_ERR_NO_MEMORY;
        uint64_t *sk = realloc(x->sk, (size_t)nc * sizeof *sk);
        if (sk == NULL) return GA_ERR_NO_MEMORY;
        x->sk = sk;
        uint32_t *sr = realloc(x->sr, (size_t)nc * sizeof *sr);
        if (sr == NULL) return GA_ERR_NO_MEMORY;
        x->sr = sr;
        x->entries_cap = nc;
    }
    uint64_t want = (uint64_t)x->bump + fresh;
    if (want > x->ncap) {
        uint64_t nc = x->ncap;
        while (nc < want) nc *= 2u;
        if (nc > UINT32_MAX) return GA_ERR_NO_MEMORY;
        ixn_t *nd = realloc(x->nd, (size_t)nc * sizeof *nd);
        if (nd == NULL) return GA_ERR_NO_MEMORY;
        memset(nd + x->ncap, 0, (size_t)(nc - x->ncap) * sizeof *nd);
        x->nd = nd;
        uint32_t *fr = realloc(x->freed, (size_t)nc * sizeof *fr);
        if (fr == NULL) return GA_ERR_NO_MEMORY;
        x->freed = fr;
        uint32_t *su = realloc(x->su, (size_t)nc * sizeof *su);
        if (su == NULL) return GA_ERR_NO_MEMORY;
        x->su = su;
        x->ncap = (uint32_t)nc;
    }
    /* Never-used nodes below `mapped` were mapped (zeroed) by an earlier call and nothing has written
     * them since: only the ones above it are written now. */
    for (uint64_t id = x->mapped > x->bump ? x->mapped : x->bump; id < want; id++) {
        ga_err_t err = ga_mem_write(x->env.mem, x->env.md_base + ix_node_off(x, (uint32_t)id), zero, sizeof zero);
        if (err != GA_OK) return err;
        x->mapped = (uint32_t)id + 1u;
    }
    return GA_OK;
}

/* Tree t gains record rid (key: its base). */
static void ix_add(ix_t *x, uint32_t t, const ga_rec_t *rec, uint32_t rid)
{
    x->cur = t;
    x->where[rid] = (uint8_t)(1u + t);
    ix_ins(x, t, rec[rid].base, rid);
    x->entries[t]++;
    ixn_t *R = &x->nd[t];
    if (R->n <= IX_FAN || ix_repack(x)) return;
    /* The root splits: its refs go to two new nodes, 6 + 6, and it becomes their parent. */
    uint32_t a = ix_take(x, R->leaf), b = ix_take(x, R->leaf);
    ix_move(x, t, 0, IX_MIN, a, 0);
    ix_move(x, t, 0, x->nd[t].n, b, 0);
    R = &x->nd[t];
    R->leaf = false;
    R->n = 2;
    R->child[0] = a;
    R->child[1] = b;
    R->key[0] = x->nd[a].key[0];
    R->key[1] = x->nd[b].key[0];
    x->height[t]++;
}

/* Record rid leaves the index that holds it. */
static void ix_sub(ix_t *x, const ga_rec_t *rec, uint32_t rid)
{
    uint32_t t = x->where[rid] - 1u;
    x->cur = t;
    x->where[rid] = 0;
    ix_rem(x, t, rec[rid].base, rid);
    x->entries[t]--;
    ixn_t *R = &x->nd[t];
    if (R->leaf || R->n != 1u) return;
    /* An inner root with one child takes the child's content; the child is released. */
    uint32_t c = R->child[0];
    R->n = 0;
    R->leaf = x->nd[c].leaf;
    ix_move(x, c, 0, x->nd[c].n, t, 0);
    ix_release(x, c);
    x->height[t]--;
}

/* A new entry enters the live index, a trimmed piece (already freed) the freed one. */
static void ix_insert(void *st, const ga_rec_t *rec, uint32_t rid)
{
    ix_add(st, rec[rid].freed ? IX_DEAD : IX_LIVE, rec, rid);
}

static void ix_remove(void *st, const ga_rec_t *rec, uint32_t rid) { ix_sub(st, rec, rid); }

/* A free: no index changes (spec §7.7); the record waits for the next malloc's moves. */
static void ix_freed(void *st, const ga_rec_t *rec, uint32_t rid)
{
    ix_t *x = st;
    (void)rec;
    x->pend[x->npend++] = rid; /* rid < rcap, and each record is freed once: room by ix_reserve */
}

/* A malloc commits: the records freed since the last one and not reclaimed move to the freed index,
 * oldest free first, each removed and then inserted (spec §7.7). */
static void ix_begin(void *st, const ga_rec_t *rec)
{
    ix_t *x = st;
    for (uint32_t k = 0; k < x->npend; k++) {
        uint32_t rid = x->pend[k];
        if (x->where[rid] != 1u + IX_LIVE || !rec[rid].freed) continue; /* reclaimed meanwhile */
        ix_sub(x, rec, rid);
        ix_add(x, IX_DEAD, rec, rid);
    }
    x->npend = 0;
}

/* A record's or a node's ref: its location's offset from ROOT in 16-byte units (< 2^32: the region
 * was checked by ix_md_bytes). */
static uint32_t ix_ref_of(const ix_t *x, const ga_rec_t *rec, bool leaf, uint32_t child)
{
    uint64_t off = leaf ? IX_SLOT0 + (uint64_t)rec[child].slot * GA_ENTRY_BYTES : ix_node_off(x, child) - IX_FROOT;
    return (uint32_t)(off / 16u);
}

static void ix_flush(void *st, const ga_rec_t *rec)
{
    ix_t *x = st;
    uint32_t id = x->dhead;
    x->dhead = NIL;
    while (id != NIL) {
        ixn_t *d = &x->nd[id];
        uint32_t nx = d->dnext;
        d->dirty = false;
        d->dnext = NIL;
        if (d->used) {
            uint8_t buf[GA_INODE_BYTES];
            memset(buf, 0, sizeof buf);
            uint32_t n = d->n <= IX_FAN ? d->n : IX_FAN; /* always d->n: overflows end inside the op */
            buf[0] = (uint8_t)n;
            buf[1] = d->leaf ? 0u : 1u;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t r = ix_ref_of(x, rec, d->leaf, d->child[j]);
                for (unsigned b = 0; b < 4u; b++) buf[4u + 4u * j + b] = (uint8_t)(r >> (8u * b));
            }
            for (uint32_t i = 1; i < n; i++) ga_put_le64(buf + 48u + 8u * (i - 1u), d->key[i]);
            (void)ga_mem_write(x->env.mem, x->env.md_base + ix_node_off(x, id), buf, sizeof buf); /* mapped */
            x->node_writes++;
        }
        id = nx;
    }
}

static uint64_t ix_root(const void *st, const ga_rec_t *rec)
{
    (void)rec;
    return ((const ix_t *)st)->env.md_base + IX_FROOT;
}

static void ix_stats(const void *st, ga_lw_stats_t *out)
{
    const ix_t *x = st;
    out->height = x->height[IX_LIVE];
    out->freed_height = x->height[IX_DEAD];
    out->extra_bytes = (uint64_t)x->in_use * GA_INODE_BYTES;
    out->repacks = x->repacks;
    out->repack_nodes = x->repack_nodes;
    out->node_writes = x->node_writes;
}

const ga_layout_ops_t ga_layout_index_ops = {
    .code = GA_LAYOUT_INDEX,
    .md_align = GA_INODE_BYTES,
    .slot_bytes = GA_ENTRY_BYTES,
    .lowest_slot = true,
    .zero_filled = false,
    .md_bytes = ix_md_bytes,
    .slot_offset = ix_slot_offset,
    .walk = index_walk,
    .ref_search = index_ref_search,
    .w_create = ix_create,
    .w_destroy = ix_destroy,
    .w_reserve = ix_reserve,
    .w_insert = ix_insert,
    .w_remove = ix_remove,
    .w_freed = ix_freed,
    .w_begin = ix_begin,
    .w_flush = ix_flush,
    .w_root = ix_root,
    .w_stats = ix_stats,
};
