/*
 * ga_trace.h — the gatrace format (docs/traces.md): a strict streaming parser and a canonical writer.
 *
 * The reader turns a trace into a stream of records (ga_tev_t), one per ga_trace_next() call, each
 * fully checked against docs/traces.md §2–§5 (syntax, ranges, allocation IDs, kernel nesting). It
 * reads format versions 1 and 2; a version-2 trace must end with the end-of-trace record `eof`, so a
 * truncated file is always an error (a version-1 file has no such record: a cut between two records
 * reads as a shorter valid trace). The first error stops it: the message is "FILE:LINE: what was
 * expected" (with ":COL" when a token is at fault) and every later call returns the same error. Memory is bounded by the number of allocation
 * IDs; a line is never read past GA_TRACE_LINE_MAX bytes. All state lives in the reader: there are no
 * globals, and readers are independent of each other.
 *
 * Lines come from a ga_line_src_t: a file (plain or gzip, through zlib), a memory buffer, or any
 * generator (the Accel-Sim importer produces gatrace lines this way).
 */
#ifndef GA_TRACE_H
#define GA_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GA_TRACE_FORMAT "gatrace"
#define GA_TRACE_VERSION 2u      /* the version the writer writes by default */
#define GA_TRACE_VERSION_MIN 1u  /* the oldest version the reader reads */
#define GA_TRACE_LINE_MAX 4096u  /* bytes of a line buffer: at most 4095 before the newline */
#define GA_TRACE_NAME_MAX 255u   /* kernel name bytes */
#define GA_TRACE_LANES 32u       /* lanes of a warp */
#define GA_TRACE_ERR_MAX 512u    /* bytes of an error message, NUL included */

/* An error: one line, "FILE:LINE[:COL]: message", NUL-terminated, never longer than the buffer. */
typedef struct {
    char msg[GA_TRACE_ERR_MAX];
} ga_trace_err_t;

/* ---------------------------------------------------------------------------------------------------
 * Line sources. */

/* A source of lines. next() stores the next line (without its '\n'; a '\r' before it removed) in
 * buf[0..*len) and returns 1; returns 0 at the end of input; returns -1 on an error after writing a
 * message to err (for a line longer than cap - 1 bytes: the source's own message). buf has cap bytes;
 * a line may contain any byte including NUL (the parser rejects NUL). close() frees the source (may be
 * NULL). name is used in messages ("FILE" of FILE:LINE). */
typedef struct {
    void *ctx;
    int (*next)(void *ctx, char *buf, size_t cap, size_t *len, ga_trace_err_t *err);
    void (*close)(void *ctx);
    /* Optional (may be NULL): input consumed so far and its total, in bytes (*total 0 if unknown), for
     * progress display. */
    void (*progress)(void *ctx, uint64_t *done, uint64_t *total);
    /* Optional (may be NULL): for a source that generates lines from other files (the Accel-Sim
     * importer), the file and line the last returned line came from; returns false when it cannot
     * tell. The string stays valid until the source is closed. */
    bool (*origin)(void *ctx, const char **file, uint64_t *line);
    const char *name;
} ga_line_src_t;

/* A line source reading path: "-" is standard input. A stream that starts with the gzip magic (1f 8b)
 * is decompressed (zlib), anything else read as it is. Lines longer than cap - 1 bytes, read errors and
 * corrupt or truncated gzip data are errors "path:LINE: ...". Returns 0, or -1 with err set ("path:
 * cannot open: <strerror>"). */
int ga_line_src_file(ga_line_src_t *src, const char *path, ga_trace_err_t *err);

/* A line source over len bytes at buf (not copied: buf must outlive the source). name is borrowed.
 * Same line rules as the file source. Never fails. */
void ga_line_src_mem(ga_line_src_t *src, const char *name, const void *buf, size_t len);

/* ---------------------------------------------------------------------------------------------------
 * Records. */

typedef enum {
    GA_TEV_ALLOC = 0, /* alloc ID SIZE [at ADDR] */
    GA_TEV_FREE,      /* free ID */
    GA_TEV_KERNEL,    /* kernel NAME */
    GA_TEV_END,       /* end */
    GA_TEV_LOADMETA,  /* loadmeta SM WARP PTR */
    GA_TEV_LD,        /* ld SM WARP SIZE MASK ROOT ADDRS */
    GA_TEV_ST,        /* st ... */
    GA_TEV_LDS,       /* lds SM WARP SIZE MASK SBASE SSIZE SADDRS */
    GA_TEV_STS,       /* sts ... */
    GA_TEV_FREEP,     /* freep PTR (version 2): cudaFree of an arbitrary pointer */
    GA_TEV_KINDS
} ga_tev_kind_t;

/* A pointer expression (docs/traces.md §4). value = (base + off) mod 2^64 where base is the runtime's
 * pointer of allocation `slot` (is_alloc) or 0 (raw: off holds the raw value); then, when set_tag, the
 * tag field is replaced by tag. A negative offset "a3-16" is stored as its two's complement (off =
 * 2^64 - 16) with neg set, so that the writer can print it back as written. */
typedef struct {
    bool is_alloc;
    bool neg;      /* written with '-' (off is the two's complement) */
    bool set_tag;  /* ":tTAG" given */
    uint16_t tag;
    uint32_t slot; /* is_alloc: dense allocation index (0, 1, ... in order of the alloc lines) */
    uint64_t id;   /* is_alloc: the trace ID (the N of aN) */
    uint64_t off;  /* is_alloc: offset; raw: the value */
} ga_tptr_t;

typedef enum { GA_ROOT_PTR = 0, GA_ROOT_LANE = 1, GA_ROOT_NONE = 2 } ga_troot_t;

/* One record. Fields not listed for a kind are zero. */
typedef struct {
    ga_tev_kind_t kind;
    uint64_t line;              /* 1-based line number in the source */
    /* ALLOC, FREE */
    uint64_t id;                /* the trace ID */
    uint32_t slot;              /* dense index of the ID (ALLOC: the next free index) */
    bool again;                 /* FREE (version 2 only): the ID was freed before: an intentional
                                   double free, replayed as a runtime error (docs/traces.md §6.1) */
    uint64_t bytes;             /* ALLOC: size */
    bool fixed;                 /* ALLOC: "at" given */
    uint64_t at;                /* ALLOC: fixed address */
    /* KERNEL */
    char name[GA_TRACE_NAME_MAX + 1];
    /* LOADMETA and accesses */
    uint16_t sm, warp;
    uint32_t size;              /* access size: 1, 2, 4, 8, 16 */
    uint32_t mask;              /* active lanes, non-zero */
    ga_troot_t root_kind;       /* LD, ST */
    ga_tptr_t root;             /* LD, ST with GA_ROOT_PTR; LOADMETA, FREEP: the pointer */
    uint32_t sbase, ssize;      /* LDS, STS */
    bool strided;               /* ADDRS form: stride (true) or list */
    int64_t stride;             /* strided form */
    ga_tptr_t lane[GA_TRACE_LANES]; /* strided: lane[0] is the base PTR (shared: raw SA);
                                       list: lane[l] for every active l (shared: raw values) */
} ga_tev_t;

const char *ga_tev_name(ga_tev_kind_t kind); /* "alloc", "ld", ...; "?" for an unknown value */

/* The header (docs/traces.md §3). Initialise it with designated initialisers or memset: fields may be
 * added at the end. */
typedef struct {
    unsigned version;  /* 1 or 2; for the writer 0 means GA_TRACE_VERSION */
    uint32_t sms;      /* declared SM count (1 .. 65 536), 0 if not given */
    bool fixed;        /* alloc=fixed: every alloc has "at" */
    unsigned tag_bits; /* version 2: tag_bits=7|16, the tag width the trace's raw pointers were written
                          for (gasim refuses another --tag-bits); 0 if not given */
} ga_trace_header_t;

/* ---------------------------------------------------------------------------------------------------
 * The reader. */

typedef struct ga_trace_reader ga_trace_reader_t; /* opaque */

/* A reader over src; it takes ownership of src (closed by ga_trace_close, also on failure here).
 * Returns 0, or -1 with err set (out of memory). Nothing is read yet. */
int ga_trace_open_src(ga_trace_reader_t **out, const ga_line_src_t *src, ga_trace_err_t *err);

/* ga_trace_open_src over ga_line_src_file(path). */
int ga_trace_open(ga_trace_reader_t **out, const char *path, ga_trace_err_t *err);

/* ga_trace_open_src over ga_line_src_mem(name, buf, len). */
int ga_trace_open_mem(ga_trace_reader_t **out, const char *name, const void *buf, size_t len,
                      ga_trace_err_t *err);

/* The next record: returns 1 and fills *ev; 0 at a correct end of input (the whole-file checks of
 * docs/traces.md §5 passed: for version 2 the `eof` record was read and only blank or comment lines
 * follow it); -1 on the first error, with err set. After 0 or -1 every later call returns the same
 * value (and the same message). The header and the `eof` record are consumed by the reader and never
 * returned as records. */
int ga_trace_next(ga_trace_reader_t *r, ga_tev_t *ev, ga_trace_err_t *err);

/* True once the reader has read a version-2 `eof` record (the trace is known complete). A version-1
 * trace never has one: a caller may say that its completeness is not guaranteed. */
bool ga_trace_ended(const ga_trace_reader_t *r);

/* The header; valid after the first ga_trace_next() that did not fail on it (version 0 before). */
const ga_trace_header_t *ga_trace_header(const ga_trace_reader_t *r);

/* Allocation IDs seen so far (slots 0 .. n-1). ga_trace_slot_id(r, slot) is the trace ID of a slot
 * (0 for slot >= count). */
uint32_t ga_trace_slots(const ga_trace_reader_t *r);
uint64_t ga_trace_slot_id(const ga_trace_reader_t *r, uint32_t slot);

/* The source's name, for messages. */
const char *ga_trace_name(const ga_trace_reader_t *r);

/* Lines read so far (the line number of the last line read). */
uint64_t ga_trace_lines(const ga_trace_reader_t *r);

/* Where the last line read came from: the source's origin hook when it has one and answers, else
 * (ga_trace_name(r), ga_trace_lines(r)). *file stays valid until ga_trace_close. */
void ga_trace_origin(const ga_trace_reader_t *r, const char **file, uint64_t *line);

/* The source's progress in bytes (*total 0 when unknown; both 0 when the source cannot tell). */
void ga_trace_progress(const ga_trace_reader_t *r, uint64_t *done, uint64_t *total);

/* Free the reader and close its source. NULL is a no-op. */
void ga_trace_close(ga_trace_reader_t *r);

/* ---------------------------------------------------------------------------------------------------
 * The writer: canonical text (docs/traces.md). Numbers are written in hexadecimal where they are
 * addresses, masks or tags and in decimal otherwise; pointers as written (aID+off, aID-off, raw hex,
 * :t0xTAG). Allocation pointers use ptr.id (slot is ignored). Parsing the output gives back equal
 * records (ga_tev_equal), line numbers and slots aside.
 *
 * A complete trace is: ga_trace_write_header(), one ga_trace_write_event() per record, then
 * ga_trace_write_end(). The end record is what lets a reader tell a complete version-2 trace from a
 * truncated one: a program that stops early (a crash, a full disk) leaves a trace that every reader
 * rejects, which is the point. Records that need version 2 (FREEP, a FREE with `again`) are
 * formatted whatever the header said; writing them under a version-1 header gives a file that
 * readers refuse. Example:
 *     ga_trace_header_t h = {.version = 0, .sms = 4};          (0: the current version, 2)
 *     ga_trace_write_header(f, &h);
 *     ... ga_trace_write_event(f, &ev) for every record ...
 *     ga_trace_write_end(f);  then fclose(f) and check its result */

/* Format ev as one line (without '\n') into buf[cap]. Returns the line's length, or -1 when ev is not a
 * valid record (a field out of its range; nothing useful is in buf) or when it does not fit cap
 * (GA_TRACE_LINE_MAX always suffices for a valid record). */
int ga_trace_format_event(const ga_tev_t *ev, char *buf, size_t cap);

/* The header line "gatrace V[ sms=N][ alloc=fixed][ tag_bits=T]" into buf[cap] (sms 0 and tag_bits 0:
 * no attribute). V is h->version, GA_TRACE_VERSION when 0. Returns the length, or -1 when the version
 * is not 1 or 2, sms is above 65 536, tag_bits is not 0, 7 or 16, tag_bits is given with version 1,
 * or cap is too small. */
int ga_trace_format_header(const ga_trace_header_t *h, char *buf, size_t cap);

/* The end-of-trace record "eof" (version 2) into buf[cap]; its length, or -1 when cap is too small. */
int ga_trace_format_end(char *buf, size_t cap);

/* fputs of the formatted line and '\n'. Returns 0, or -1 for an invalid record or a write error. */
int ga_trace_write_event(FILE *f, const ga_tev_t *ev);
int ga_trace_write_header(FILE *f, const ga_trace_header_t *h);
int ga_trace_write_end(FILE *f);

/* Two records are equal in everything the text carries (line, slot and FREE's `again`, which the
 * reader derives from earlier lines, ignored; unused lanes of the list form and fields of other kinds
 * ignored). */
bool ga_tev_equal(const ga_tev_t *a, const ga_tev_t *b);

/* Evaluate a pointer expression with `ptrs[slot]` the runtime's pointer of each allocation slot
 * (nslots of them). Returns false if the slot is out of range or the tag override does not fit
 * tag_bits (7 or 16). */
bool ga_tptr_eval(const ga_tptr_t *p, const uint64_t *ptrs, uint32_t nslots, unsigned tag_bits,
                  uint64_t *value);

/* ---------------------------------------------------------------------------------------------------
 * Number parsing shared with the importer: the whole of s[0..n) must be a UINT of docs/traces.md §2
 * (decimal, or 0x-prefixed hexadecimal), at most max. Returns 0, or -1 (syntax or overflow). */
int ga_parse_uint(const char *s, size_t n, uint64_t max, uint64_t *out);

/* s[0..n) must be hexadecimal digits only (no prefix; 1..16 of them). Returns 0 or -1. */
int ga_parse_hex_bare(const char *s, size_t n, uint64_t *out);

/* s[0..n) a SINT: optional '-' then a UINT, in -2^63 .. 2^63-1. Returns 0 or -1. */
int ga_parse_sint(const char *s, size_t n, int64_t *out);

#endif /* GA_TRACE_H */
