/*
 * ga_layout_index.c — the index layout: a B+-tree index over a table of stable 16-byte slots (spec
 * §2.3 "Index", §3.3, §7.7). Not in the paper: it makes the paper's speed-of-light table realizable
 * by replacing the oracle with an index whose nodes are one 128-byte L1 line [paper §8: GA100 L1
 * lines of 128 bytes in four 32-byte sectors].
 *
 * Region (md_base 128-aligned; ROOT = md_base; every reference is a 32-bit count of 16-byte units
 * from ROOT, so location = ROOT + 16 * ref):
 *   [ROOT, +128)                              the root node (it never moves)
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
 */
#include "ga_layout.h"

#include <stdlib.h>
#include <string.h>

#define IX_FAN 11u      /* refs per node (spec §2.3) */
#define IX_MIN 6u       /* refs of every node but the root after each operation (spec §7.7) */
#define IX_SLOT0 128u   /* offset of slot 0 from ROOT */
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

/* The region's size; 0 (refused) when it would not fit the 32-bit refs. */
static uint64_t ix_md_bytes(uint32_t capacity)
{
    uint64_t len = ix_pool_off(capacity) + ix_pool_cap(capacity) * GA_INODE_BYTES;
    return len / 16u > IX_MAX_UNITS ? 0u : len;
}

static uint64_t ix_slot_offset(uint32_t capacity, uint32_t slot)
{
    (void)capacity;
    return IX_SLOT0 + (uint64_t)slot * GA_ENTRY_BYTES;
}

/* --- the walk ------------------------------------------------------------------------------------- */

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/*
 * n = ROOT, steps = 0, repeat (spec §3.3, INDEX):
 *   1. n mod 128 != 0                         -> FAULT, no read
 *   2. steps = step_limit                     -> STEP_LIMIT, no read
 *   3. read 128 bytes at n, steps++; error    -> FAULT
 *   4. c = byte 0, kind = byte 1; c > 11, kind > 1 or bytes 2..3 not zero -> FAULT
 *   5. c = 0                                  -> NOT_FOUND
 *   6. j = the largest i in 1 .. c-1 with key[i] <= a, else 0
 *   7. L = ROOT + 16 * ref[j] (modulo 2^64)
 *   8. inner: n = L, repeat from 1.
 *   9. leaf: steps = step_limit -> STEP_LIMIT, no read; read 16 bytes at L, steps++; error -> FAULT;
 *      the entry range-covers a -> FOUND (L, e) or RANGE_ONLY (L, e), else NOT_FOUND.
 * A key equal to a selects its own ref (the entry at that base); keys out of order (only in corrupt
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
    for (;;) {
        if (n % GA_INODE_BYTES != 0u) return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        if (steps == cfg->step_limit) return ga_walk_end_empty(GA_WALK_STEP_LIMIT, steps, bytes);
        steps++;
        bytes += GA_INODE_BYTES;
        if (mem->read(mem->read_ctx, n, GA_INODE_BYTES, buf) != 0) return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        unsigned c = buf[0], kind = buf[1];
        if (c > IX_FAN || kind > 1u || buf[2] != 0u || buf[3] != 0u)
            return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        if (c == 0u) return ga_walk_end_empty(GA_WALK_NOT_FOUND, steps, bytes);
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
        if (!ga_entry_covers(e, p, tb)) return ga_walk_end_empty(GA_WALK_NOT_FOUND, steps, bytes);
        return ga_walk_end_covered(loc, e, p, steps, bytes, tb);
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

static uint64_t index_ref_search(ga_mem_t *mem, uint64_t root, uint64_t slots, unsigned tag_bits, uint64_t p,
                                 uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    (void)slots;
    const unsigned vbits = 64u - tag_bits;
    const uint64_t va_mask = UINT64_MAX >> tag_bits;
    const uint64_t a = p & va_mask, t = p >> vbits;
    struct {
        uint8_t node[128];
        unsigned next; /* the next ref to visit */
    } stack[REF_DEPTH];
    unsigned depth = 0;
    uint64_t count = 0;

    if (root % 128u != 0u || max_nodes == 0u) return 0;
    if (ga_mem_read(mem, root, stack[0].node, 128) != GA_MEM_OK) return 0;
    count = 1;
    stack[0].next = 0;
    depth = 1;
    while (depth > 0u) {
        uint8_t *nd = stack[depth - 1u].node;
        unsigned c = nd[0];
        if (c > 11u || nd[1] > 1u || nd[2] != 0u || nd[3] != 0u) return 0;
        unsigned j = stack[depth - 1u].next;
        if (j >= c) {
            depth--;
            continue;
        }
        stack[depth - 1u].next = j + 1u;
        uint64_t loc = root + 16u * ref_le32(nd + 4u + 4u * j);
        if (count == max_nodes) return 0;
        count++;
        if (nd[1] == 1u) { /* inner: descend */
            if (loc % 128u != 0u || depth == REF_DEPTH) return 0;
            if (ga_mem_read(mem, loc, stack[depth].node, 128) != GA_MEM_OK) return 0;
            stack[depth].next = 0;
            depth++;
            continue;
        }
        uint8_t slot[16]; /* leaf: the slot */
        if (ga_mem_read(mem, loc, slot, 16) != GA_MEM_OK) return 0;
        uint64_t tb = ref_le64(slot), size = ref_le64(slot + 8), ebase = tb & va_mask;
        if (a >= ebase && a - ebase < size) {
            *ok = true;
            e_out->tb = tb;
            e_out->size = size;
            uint64_t etag = tb >> vbits;
            return t == etag && t != 0u && t != (UINT64_MAX >> vbits) ? loc : 0u;
        }
    }
    *ok = true;
    return 0;
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

typedef struct {
    ga_lw_env_t env;
    uint64_t pool_off;   /* pool base - ROOT */
    uint64_t pool_cap;   /* pool nodes */
    ixn_t *nd;           /* node ids: 0 the root, k >= 1 pool node k - 1 */
    uint32_t ncap;       /* ids nd holds */
    uint32_t bump;       /* ids ever used (the root included) */
    uint32_t *freed;     /* released ids, most recent last */
    uint32_t nfreed;
    uint32_t dhead;
    uint32_t height;     /* node levels: 1 while the root is a leaf */
    uint32_t in_use;     /* nodes in use, the root included */
    uint32_t mapped;     /* ids below this one have their device pages mapped (ix_reserve) */
    uint64_t entries;    /* (base, slot) pairs in the index */
    uint64_t repacks, repack_nodes;
    uint64_t *sk;        /* repack scratch: one level's keys (smallest bases) ... */
    uint32_t *sr;        /* ... and refs (records, then node ids), entries_cap of each */
    uint32_t *su;        /* ... and the pool nodes in use, ncap */
    uint64_t entries_cap;
} ix_t;

static uint64_t ix_node_off(const ix_t *x, uint32_t id)
{
    return id == 0u ? 0u : x->pool_off + (uint64_t)(id - 1u) * GA_INODE_BYTES;
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

/* The leaves' pairs in base order into sk / sr; returns how many. */
static uint64_t ix_collect(ix_t *x, uint32_t id, uint64_t k)
{
    const ixn_t *d = &x->nd[id];
    for (uint32_t j = 0; j < d->n; j++) {
        if (d->leaf) {
            x->sk[k] = d->key[j];
            x->sr[k] = d->child[j];
            k++;
        } else {
            k = ix_collect(x, d->child[j], k);
        }
    }
    return k;
}

/* The root holds 12 refs after an insert: repack the index at its height if spec §7.7 allows it.
 * Level by level from the leaves, the level's items (pairs, then the nodes just built) are cut into
 * cnt[j] runs, run q taking items [floor(q L / m), floor((q + 1) L / m)); the k-th new node takes the
 * k-th pool node in use (ascending location), then a node by §7.5's rule; pool nodes left over are
 * released in ascending location order. The root keeps its location and takes the top level. */
static bool ix_repack(ix_t *x)
{
    uint64_t cnt[IX_HMAX + 1u];
    uint32_t h = x->height;
    if (!ix_plan_ok(x->entries, h, cnt)) return false;
    uint64_t nodes = ix_plan_sum(cnt, h);
    if (nodes > (uint64_t)x->mapped - 1u || x->entries > x->entries_cap) return false; /* ix_reserve's guarantee */
    uint64_t L = ix_collect(x, 0, 0);
    uint32_t nu = 0, ui = 0;
    for (uint32_t id = 1; id < x->bump; id++)
        if (x->nd[id].used) x->su[nu++] = id;
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
    ixn_t *R = &x->nd[0];
    R->leaf = false;
    R->n = (uint32_t)L;
    memcpy(R->key, x->sk, L * sizeof R->key[0]);
    memcpy(R->child, x->sr, L * sizeof R->child[0]);
    ix_dirty(x, 0);
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
    /* The empty index: a root leaf with no ref, all zero in memory (spec §2.3). */
    x->bump = 1;
    x->mapped = 1;
    x->in_use = 1;
    x->height = 1;
    x->nd[0].used = true;
    x->nd[0].leaf = true;
    static const uint8_t zero[GA_INODE_BYTES];
    ga_err_t err = ga_mem_write(env->mem, env->md_base, zero, sizeof zero);
    if (err != GA_OK) {
        ix_destroy(x);
        *st = NULL;
    }
    return err;
}

/* Room for `inserts` inserts: each may split one node per level and the root (two new nodes), and
 * each raises the height by at most one, so it takes at most height + inserts + 1 new nodes. The
 * never-used ones must fit the pool (GA_ERR_NO_METADATA_SPACE: unreachable while the slots fit, see
 * ix_pool_cap) and get their device pages mapped now (zeros: what a never-used node holds). A repack
 * reuses every pool node ever taken (in use or released) and needs at most ix_plan_nodes of the
 * largest entry count the operation can reach (level sizes grow with n), so that many are mapped too;
 * an eligible repack (every non-root node at least 6 refs) needs fewer than n / 5 + h, within the pool.
 * Host memory: the node arrays, and the repack's scratch for that many pairs. */
static ga_err_t ix_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    static const uint8_t zero[GA_INODE_BYTES];
    ix_t *x = st;
    (void)rec_cap;
    uint64_t need = (uint64_t)inserts * (x->height + inserts + 1u);
    uint64_t fresh = need > x->nfreed ? need - x->nfreed : 0u;
    if ((uint64_t)(x->bump - 1u) + fresh > x->pool_cap) return GA_ERR_NO_METADATA_SPACE;
    uint64_t nmax = x->entries + inserts;
    if (inserts > 0u) {
        uint64_t rb = ix_plan_nodes(nmax, x->height), have = (uint64_t)x->bump - 1u;
        uint64_t rb_fresh = rb > have ? rb - have : 0u;
        if (have + rb_fresh > x->pool_cap) rb_fresh = x->pool_cap - have;
        if (rb_fresh > fresh) fresh = rb_fresh;
    }
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

static void ix_insert(void *st, const ga_rec_t *rec, uint32_t rid)
{
    ix_t *x = st;
    ix_ins(x, 0, rec[rid].base, rid);
    x->entries++;
    ixn_t *R = &x->nd[0];
    if (R->n <= IX_FAN || ix_repack(x)) return;
    /* The root splits: its refs go to two new nodes, 6 + 6, and it becomes their parent. */
    uint32_t a = ix_take(x, R->leaf), b = ix_take(x, R->leaf);
    ix_move(x, 0, 0, IX_MIN, a, 0);
    ix_move(x, 0, 0, x->nd[0].n, b, 0);
    R = &x->nd[0];
    R->leaf = false;
    R->n = 2;
    R->child[0] = a;
    R->child[1] = b;
    R->key[0] = x->nd[a].key[0];
    R->key[1] = x->nd[b].key[0];
    x->height++;
}

static void ix_remove(void *st, const ga_rec_t *rec, uint32_t rid)
{
    ix_t *x = st;
    ix_rem(x, 0, rec[rid].base, rid);
    x->entries--;
    ixn_t *R = &x->nd[0];
    if (R->leaf || R->n != 1u) return;
    /* An inner root with one child takes the child's content; the child is released. */
    uint32_t c = R->child[0];
    R->n = 0;
    R->leaf = x->nd[c].leaf;
    ix_move(x, c, 0, x->nd[c].n, 0, 0);
    ix_release(x, c);
    x->height--;
}

/* A record's or a node's ref: its location's offset from ROOT in 16-byte units (< 2^32: the region
 * was checked by ix_md_bytes). */
static uint32_t ix_ref_of(const ix_t *x, const ga_rec_t *rec, bool leaf, uint32_t child)
{
    uint64_t off = leaf ? IX_SLOT0 + (uint64_t)rec[child].slot * GA_ENTRY_BYTES : ix_node_off(x, child);
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
        }
        id = nx;
    }
}

static uint64_t ix_root(const void *st, const ga_rec_t *rec)
{
    (void)rec;
    return ((const ix_t *)st)->env.md_base;
}

static void ix_stats(const void *st, ga_lw_stats_t *out)
{
    const ix_t *x = st;
    out->height = x->height;
    out->extra_bytes = (uint64_t)x->in_use * GA_INODE_BYTES;
    out->repacks = x->repacks;
    out->repack_nodes = x->repack_nodes;
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
    .w_flush = ix_flush,
    .w_root = ix_root,
    .w_stats = ix_stats,
};
