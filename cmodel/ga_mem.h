/*
 * ga_mem.h — simulated device memory: sparse, byte-addressable, 64-bit addresses, little-endian.
 *
 * Memory is made of 4 KiB pages created on first write. Shared by the runtime (which writes metadata)
 * and the walker (which reads it through a ga_memif_t). Counts every read and write.
 */
#ifndef GA_MEM_H
#define GA_MEM_H

#include "ga_types.h"

typedef struct ga_mem ga_mem_t; /* opaque */

/* Read status (also the memif read result). */
enum { GA_MEM_OK = 0, GA_MEM_UNMAPPED = 1, GA_MEM_POISONED = 2, GA_MEM_WRAP = 3 };

typedef struct {
    uint64_t reads, writes;           /* calls that succeeded or failed */
    uint64_t bytes_read, bytes_written;
    uint64_t pages;                   /* pages currently mapped */
} ga_mem_stats_t;

ga_err_t ga_mem_create(ga_mem_t **out);
void ga_mem_destroy(ga_mem_t *m); /* NULL is a no-op */

/* Write len bytes at addr, mapping pages as needed. addr + len must not pass 2^64
 * (GA_ERR_BAD_PARAM, nothing written). GA_ERR_NO_MEMORY if a page cannot be allocated (nothing
 * written). len 0 is a no-op. */
ga_err_t ga_mem_write(ga_mem_t *m, uint64_t addr, const void *buf, size_t len);

/* Read len bytes at addr into buf. Returns GA_MEM_OK; GA_MEM_WRAP if addr + len passes 2^64;
 * GA_MEM_POISONED if any byte is in a poisoned range; GA_MEM_UNMAPPED if any byte's page was never
 * written. On any error buf is filled with zeros. Counted in stats either way. */
int ga_mem_read(ga_mem_t *m, uint64_t addr, void *buf, size_t len);

/* Mark [addr, addr + len) poisoned: later reads touching it fail (error injection). Ranges add up. */
ga_err_t ga_mem_poison(ga_mem_t *m, uint64_t addr, uint64_t len);
void ga_mem_unpoison_all(ga_mem_t *m);

ga_mem_stats_t ga_mem_stats(const ga_mem_t *m);

/* The walker's view of memory (spec §3.3): a read callback and the table oracle. */
typedef struct {
    /* Read len (16 or 32) bytes at addr into buf; 0 on success, nonzero for an error response. */
    int (*read)(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf);
    void *read_ctx;
    /* TABLE layout oracle (spec §2.3): 1 and *idx for the slot whose range contains va (tags ignored),
     * 0 for none. May be NULL: every TABLE walk then ends NOT_FOUND. */
    int (*oracle)(void *ctx, uint64_t va, uint64_t *idx);
    void *oracle_ctx;
} ga_memif_t;

/* A memif reading m directly (oracle left NULL: set it to the runtime's). */
ga_memif_t ga_mem_memif(ga_mem_t *m);

#endif /* GA_MEM_H */
