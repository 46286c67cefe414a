/*
 * gr_fatbin.c — the fatbinary walk of gr_fatbin.h: bounds-checked reads of the wrapper, the
 * fatbinary header and each entry header, then the choice of the PTX entry the emulator runs.
 */
#include "gr_fatbin.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Little-endian loads from a byte buffer (the formats are little-endian on every host nvcc
 * supports; reading byte by byte also avoids unaligned access). */
static uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | (uint16_t)p[1] << 8); }
static uint32_t ld32(const uint8_t *p) { return (uint32_t)ld16(p) | (uint32_t)ld16(p + 2) << 16; }
static uint64_t ld64(const uint8_t *p) { return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32; }

static void say(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *msg, size_t cap, const char *fmt, ...)
{
    if (!msg || cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

const char *gr_fb_status_name(gr_fb_status_t s)
{
    switch (s) {
    case GR_FB_OK: return "GR_FB_OK";
    case GR_FB_NO_DATA: return "GR_FB_NO_DATA";
    case GR_FB_BAD_WRAPPER: return "GR_FB_BAD_WRAPPER";
    case GR_FB_RDC: return "GR_FB_RDC";
    case GR_FB_MALFORMED: return "GR_FB_MALFORMED";
    case GR_FB_EMPTY: return "GR_FB_EMPTY";
    case GR_FB_COMPRESSED: return "GR_FB_COMPRESSED";
    case GR_FB_SASS_ONLY: return "GR_FB_SASS_ONLY";
    case GR_FB_PTX_TOO_NEW: return "GR_FB_PTX_TOO_NEW";
    }
    return "?";
}

gr_fb_status_t gr_wrapper_fatbin(const void *wrapper, const void **fatbin, char *msg, size_t cap)
{
    if (fatbin)
        *fatbin = NULL;
    if (!wrapper) {
        say(msg, cap, "no fatbinary wrapper (NULL); rebuild with nvcc " GR_NVCC_FLAGS);
        return GR_FB_NO_DATA;
    }
    const uint8_t *w = wrapper;
    uint32_t magic = ld32(w), version = ld32(w + 4);
    if (magic != GR_WRAPPER_MAGIC) {
        say(msg, cap, "fatbinary wrapper magic is 0x%08x, expected 0x%08x: not an nvcc fatbinary", magic,
            GR_WRAPPER_MAGIC);
        return GR_FB_BAD_WRAPPER;
    }
    if (version == 2) {
        say(msg, cap, "the device code is relocatable (nvcc -rdc=true / -dc, wrapper version 2), which needs a "
                      "device link the GPUArmor runtime does not do; rebuild without -rdc, with nvcc " GR_NVCC_FLAGS);
        return GR_FB_RDC;
    }
    if (version != 1) {
        say(msg, cap, "fatbinary wrapper version %u, expected 1", version);
        return GR_FB_BAD_WRAPPER;
    }
    const void *data;
    memcpy(&data, w + 8, sizeof data);
    if (!data) {
        say(msg, cap, "the fatbinary wrapper points to no fatbinary; rebuild with nvcc " GR_NVCC_FLAGS);
        return GR_FB_NO_DATA;
    }
    if (fatbin)
        *fatbin = data;
    return GR_FB_OK;
}

gr_fb_status_t gr_fatbin_find_ptx(const void *data, size_t avail, uint32_t max_arch, gr_ptx_t *out,
                                  char *msg, size_t cap)
{
    gr_ptx_t none;
    memset(&none, 0, sizeof none);
    if (out)
        *out = none;
    if (!data || avail == 0) {
        say(msg, cap, "no fatbinary; rebuild with nvcc " GR_NVCC_FLAGS);
        return GR_FB_NO_DATA;
    }
    const uint8_t *b = data;
    if (avail < GR_FATBIN_HEADER_BYTES) {
        say(msg, cap, "fatbinary truncated: %zu bytes, the header needs %u", avail, GR_FATBIN_HEADER_BYTES);
        return GR_FB_MALFORMED;
    }
    uint32_t magic = ld32(b);
    uint16_t version = ld16(b + 4), hsize = ld16(b + 6);
    uint64_t fsize = ld64(b + 8);
    if (magic != GR_FATBIN_MAGIC) {
        say(msg, cap, "fatbinary magic is 0x%08x, expected 0x%08x", magic, GR_FATBIN_MAGIC);
        return GR_FB_MALFORMED;
    }
    if (version != 1) {
        say(msg, cap, "fatbinary version %u, expected 1", version);
        return GR_FB_MALFORMED;
    }
    if (hsize < GR_FATBIN_HEADER_BYTES) {
        say(msg, cap, "fatbinary header size %u, expected at least %u", hsize, GR_FATBIN_HEADER_BYTES);
        return GR_FB_MALFORMED;
    }
    /* total = hsize + fsize must fit in avail (and in size_t) without overflow. */
    if (hsize > avail || fsize > (uint64_t)(avail - hsize)) {
        say(msg, cap, "fatbinary truncated: header says %u + %llu bytes, %zu available", hsize,
            (unsigned long long)fsize, avail);
        return GR_FB_MALFORMED;
    }
    size_t end = (size_t)hsize + (size_t)fsize;

    /* Pass 1 validates every entry; the best candidate is remembered as we go. */
    size_t off = hsize;
    unsigned n = 0, n_ptx = 0, n_ptx_low = 0;
    uint32_t sass_arch = 0, low_new = UINT32_MAX;
    gr_ptx_t best = none;
    bool have = false;
    while (off < end) {
        size_t left = end - off;
        if (left < GR_ENTRY_MIN_BYTES) {
            say(msg, cap, "fatbinary entry %u at offset %zu truncated: %zu bytes left, an entry header needs %u", n,
                off, left, GR_ENTRY_MIN_BYTES);
            return GR_FB_MALFORMED;
        }
        const uint8_t *e = b + off;
        uint16_t kind = ld16(e);
        uint32_t ehs = ld32(e + 4);
        uint64_t psize = ld64(e + 8);
        uint32_t csize = ld32(e + 16);
        uint16_t minor = ld16(e + 24), major = ld16(e + 26);
        uint32_t arch = ld32(e + 28);
        uint64_t flags = ld64(e + 40);
        if (ehs < GR_ENTRY_MIN_BYTES || ehs > GR_ENTRY_MAX_BYTES) {
            say(msg, cap, "fatbinary entry %u at offset %zu: header size %u outside [%u, %u]", n, off, ehs,
                GR_ENTRY_MIN_BYTES, GR_ENTRY_MAX_BYTES);
            return GR_FB_MALFORMED;
        }
        if (ehs > left || psize > (uint64_t)(left - ehs)) {
            say(msg, cap, "fatbinary entry %u at offset %zu: header %u + payload %llu bytes run past the end (%zu left)",
                n, off, ehs, (unsigned long long)psize, left);
            return GR_FB_MALFORMED;
        }
        const char *payload = (const char *)(e + ehs);
        bool compressed = (flags & (GR_FLAG_COMPRESSED_LZ4 | GR_FLAG_COMPRESSED_ZSTD)) != 0 || csize != 0;
        if (kind == GR_ENTRY_KIND_PTX) {
            n_ptx++;
            if (arch <= max_arch) {
                n_ptx_low++;
                if (!compressed && (!have || arch > best.arch)) {
                    const void *nul = memchr(payload, 0, (size_t)psize);
                    best.ptx = payload;
                    best.len = nul ? (size_t)((const char *)nul - payload) : (size_t)psize;
                    best.arch = arch;
                    best.ptx_major = major;
                    best.ptx_minor = minor;
                    have = true;
                }
            } else if (arch < low_new) {
                low_new = arch;
            }
        } else if (sass_arch == 0) { /* ELF (kind 2) and its variants */
            sass_arch = arch;
        }
        off += ehs + (size_t)psize;
        n++;
    }
    if (have) {
        best.total = end;
        best.entries = n;
        if (out)
            *out = best;
        return GR_FB_OK;
    }
    if (n == 0) {
        say(msg, cap, "the fatbinary is empty (no device code); rebuild with nvcc " GR_NVCC_FLAGS);
        return GR_FB_EMPTY;
    }
    if (n_ptx_low > 0) {
        say(msg, cap, "the device code is compressed (nvcc 13 compresses the fatbinary by default); rebuild with "
                      "nvcc " GR_NVCC_FLAGS);
        return GR_FB_COMPRESSED;
    }
    if (n_ptx > 0) {
        say(msg, cap, "the fatbinary holds PTX only for compute_%u, newer than the emulated GPU (sm_%u); rebuild with "
                      "nvcc " GR_NVCC_FLAGS, low_new, max_arch);
        return GR_FB_PTX_TOO_NEW;
    }
    say(msg, cap, "the fatbinary holds no PTX, only SASS (sm_%u), which the GPUArmor emulator cannot run; rebuild with "
                  "nvcc " GR_NVCC_FLAGS, sass_arch);
    return GR_FB_SASS_ONLY;
}
