/*
 * ga_mem.h — simulated device memory: sparse, byte-addressable, 64-bit addresses, little-endian.
 *
 * Memory is made of 4 KiB pages created on first write (a write of zeros maps pages too). Pages are
 * never unmapped. Shared by the runtime (which writes metadata) and the walker (which reads it through
 * a ga_memif_t). Counts every read and write. All state is in the ga_mem_t: no globals. Not
 * thread-safe (a read updates the last-page cache and the counters).
 */
#ifndef GA_MEM_H
#define GA_MEM_H

#include "ga_types.h"

typedef struct ga_mem ga_mem_t; /* opaque */

/* Read status (also the memif read result). When several apply, the first in this order wins:
 * GA_MEM_WRAP, GA_MEM_POISONED, GA_MEM_UNMAPPED. */
enum { GA_MEM_OK = 0, GA_MEM_UNMAPPED = 1, GA_MEM_POISONED = 2, GA_MEM_WRAP = 3 };

typedef struct {
    uint64_t reads, writes;           /* calls that succeeded or failed (len 0 included) */
    uint64_t bytes_read;              /* bytes requested by every read call, failed ones included */
    uint64_t bytes_written;           /* bytes actually written (a failed write writes none) */
    uint64_t pages;                   /* pages currently mapped */
} ga_mem_stats_t;

/* A new, empty memory (no page mapped, nothing poisoned, counters zero). GA_ERR_BAD_PARAM for a NULL
 * out, GA_ERR_NO_MEMORY if the host is out of memory. */
ga_err_t ga_mem_create(ga_mem_t **out);
void ga_mem_destroy(ga_mem_t *m); /* NULL is a no-op */

/* Write len bytes at addr, mapping pages as needed. addr + len must not pass 2^64 (a write ending
 * exactly at 2^64 is allowed): otherwise GA_ERR_BAD_PARAM, nothing written. GA_ERR_NO_MEMORY if a page
 * cannot be allocated (nothing written, no page mapped). len 0 is a no-op (GA_OK). GA_ERR_BAD_PARAM for
 * m NULL or buf NULL with len > 0. Poisoning does not affect writes. */
ga_err_t ga_mem_write(ga_mem_t *m, uint64_t addr, const void *buf, size_t len);

/* Read len bytes at addr into buf. Returns GA_MEM_OK; GA_MEM_WRAP if addr + len passes 2^64;
 * GA_MEM_POISONED if any byte is in a poisoned range; GA_MEM_UNMAPPED if any byte's page was never
 * written. On any error buf is filled with zeros (all len bytes, also the ones that were readable).
 * Counted in stats either way. len 0 returns GA_MEM_OK and touches nothing in buf. m must not be NULL
 * (a NULL m returns GA_MEM_UNMAPPED with buf zeroed, counted nowhere). */
int ga_mem_read(ga_mem_t *m, uint64_t addr, void *buf, size_t len);

/* Mark [addr, addr + len) poisoned: later reads touching it fail (error injection). Ranges add up
 * (their union is poisoned). len 0 is a no-op; a range passing 2^64 is GA_ERR_BAD_PARAM (nothing
 * changes); GA_ERR_NO_MEMORY if the host is out of memory. */
ga_err_t ga_mem_poison(ga_mem_t *m, uint64_t addr, uint64_t len);
/* Forget every poisoned range. Page contents are unchanged. */
void ga_mem_unpoison_all(ga_mem_t *m);

ga_mem_stats_t ga_mem_stats(const ga_mem_t *m);

/* The walker's view of memory (spec §3.3): a read callback and the table oracle. */
typedef struct {
    /* Read len (16, 32 or 128) bytes at addr into buf; 0 on success, nonzero for an error response.
     * One call is one read request (spec §3.3). */
    int (*read)(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf);
    void *read_ctx;
    /* TABLE layout oracle (spec §2.3): 1 and *idx for the slot whose range contains va (tags ignored),
     * 0 for none. May be NULL: every TABLE walk then ends NOT_FOUND. */
    int (*oracle)(void *ctx, uint64_t va, uint64_t *idx);
    void *oracle_ctx;
} ga_memif_t;

/* A memif reading m directly: read calls ga_mem_read(m, ...) and returns its status (so every memif
 * read is counted in m's stats). oracle and oracle_ctx are NULL: set them to the runtime's. */
ga_memif_t ga_mem_memif(ga_mem_t *m);

#endif /* GA_MEM_H */
