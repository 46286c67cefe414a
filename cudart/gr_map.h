/*
 * gr_map.h — a small open-addressing hash map from uint64_t keys to uint64_t values, used by the
 * runtime to know its own handles and allocations (device and host pointers, events, streams,
 * kernel handles) so that a foreign or stale handle is answered with an error, never dereferenced.
 *
 * Linear probing with tombstones; the table doubles when live + dead entries pass 1/2 of it and is
 * rebuilt without tombstones then. Key 0 is not storable (it marks an empty slot): callers never
 * store NULL handles. Not thread-safe (the runtime's lock protects it).
 */
#ifndef GR_MAP_H
#define GR_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys; /* 0 empty, GR_MAP_DEAD removed */
    uint64_t *vals;
    size_t cap;     /* a power of two, or 0 before the first insertion */
    size_t live;
    size_t dead;
} gr_map_t;

#define GR_MAP_DEAD UINT64_MAX /* also not storable */

void gr_map_init(gr_map_t *m);
void gr_map_free(gr_map_t *m);
/* Insert or overwrite. false (map unchanged) for key 0 or GR_MAP_DEAD, or when the host is out of
 * memory. */
bool gr_map_put(gr_map_t *m, uint64_t key, uint64_t val);
/* true and *val (val may be NULL) if key is present. */
bool gr_map_get(const gr_map_t *m, uint64_t key, uint64_t *val);
/* Remove; true if it was present. */
bool gr_map_del(gr_map_t *m, uint64_t key);
/* Iterate: start with *pos = 0; returns false when done. Removing the returned key during the
 * iteration is allowed; inserting is not. */
bool gr_map_next(const gr_map_t *m, size_t *pos, uint64_t *key, uint64_t *val);
/* Remove everything (keeps the storage). */
void gr_map_clear(gr_map_t *m);

#endif /* GR_MAP_H */
