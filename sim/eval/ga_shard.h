/*
 * ga_shard.h — campaigns split into independent shards, each writing its own CSV file, resumable and
 * merged into one canonical file (docs/eval.md, "Shards").
 *
 * A campaign is a fixed, ordered list of *units* numbered 0 .. units-1 (an injection block, a trace
 * replay, a program run); each unit's result depends only on the unit (its own seed), never on which
 * other units ran before it in the same process. Shard i of N owns the units u with u mod N == i, so
 * any N gives the same set of rows. A shard file is
 *
 *     # gaeval-shard 1 campaign=NAME units=N spec=HHHHHHHHHHHHHHHH
 *     unit,COLUMN,COLUMN,...
 *     U,CELL,CELL,...            (one line per finished unit, in the order they finished)
 *
 * where spec is a 64-bit hash of everything that determines the rows (the campaign's parameters and
 * unit list), so files of different campaigns or parameters are never mixed. Rows are appended and
 * flushed one at a time: a killed shard leaves complete rows and at most one torn last line, and
 * running the same command again keeps the complete rows, drops the torn line and runs only the
 * units that are missing. ga_shard_merge() takes any set of shard files of one campaign and writes
 * the canonical file: the two header lines, then every unit's row in unit order. Merging the shards
 * of any split gives the same bytes as merging the file of a single run, which CI checks.
 */
#ifndef GA_SHARD_H
#define GA_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Shard `index` of `count` (0 <= index < count). {0, 1} is the whole campaign. */
typedef struct {
    uint32_t index, count;
} ga_shard_t;

/* Parse "I/N" (decimal, 0 <= I < N <= 1 000 000, nothing else in the string) into *sh. Returns 0, or -1
 * with a message in msg[cap] saying what was expected. */
int ga_shard_parse(const char *s, ga_shard_t *sh, char *msg, size_t cap);

/* True when shard sh runs unit u (u mod count == index). */
bool ga_shard_owns(const ga_shard_t *sh, uint64_t u);

/* 64-bit FNV-1a hash of the n bytes at p, continuing from h (start with GA_SHARD_HASH0). */
#define GA_SHARD_HASH0 UINT64_C(0xcbf29ce484222325)
uint64_t ga_shard_hash(uint64_t h, const void *p, size_t n);

/* The most units a campaign may have: the merge keeps one row pointer per unit in memory. */
#define GA_SHARD_MAX_UNITS UINT64_C(100000000)

typedef struct ga_shard_out ga_shard_out_t; /* opaque */

/* Open shard file path for campaign `campaign` (letters, digits, '_', '-') of `units` units (1 ..
 * GA_SHARD_MAX_UNITS) with parameter hash spec and CSV columns `columns` (without the leading "unit,"; no
 * newline). A missing file is created with the two header lines. An existing file must have exactly
 * those two header lines (else -1: another campaign or other parameters wrote it); its complete rows
 * are kept (ga_shard_done says which units they hold), a torn last line is cut off, and new rows are
 * appended. A row naming a unit outside 0 .. units-1, a unit twice, or a line that is not a row is an
 * error (-1, "path:LINE: ..."). Returns 0 with *out set, or -1 with a message and *out NULL. */
int ga_shard_open(ga_shard_out_t **out, const char *path, const char *campaign, uint64_t units, uint64_t spec,
                  const char *columns, char *msg, size_t cap);

/* True when unit u already has a row in the file (from an earlier, interrupted run). */
bool ga_shard_done(const ga_shard_out_t *o, uint64_t u);

/* Rows that were already in the file when it was opened. */
uint64_t ga_shard_kept(const ga_shard_out_t *o);

/* Append the row "u,cells\n" and flush it. cells must hold no newline. Returns 0, or -1 with a
 * message (a write error, a unit already written or out of range). */
int ga_shard_row(ga_shard_out_t *o, uint64_t u, const char *cells, char *msg, size_t cap);

/* Close the file; returns 0, or -1 with a message on a write error. o may be NULL (returns 0). */
int ga_shard_close(ga_shard_out_t *o, char *msg, size_t cap);

/* Merge shard files in[0 .. n) (n >= 1) of one campaign into path out: the header lines of every
 * input must be identical; every unit may appear in at most one input; unless `partial`, every unit
 * 0 .. units-1 must be present. The result (the header lines, then the rows sorted by unit) is
 * written to out.tmp and renamed to out, so a failed merge leaves no output; out must not be one of
 * the inputs. A torn last line of an input is an error here (finish or resume that shard first).
 * Returns 0, or -1 with a message ("path:LINE: ...", or the missing units). *rows_out (may be NULL)
 * gets the number of rows written. */
int ga_shard_merge(const char *out, const char *const *in, size_t n, bool partial, uint64_t *rows_out, char *msg,
                   size_t cap);

#endif /* GA_SHARD_H */
