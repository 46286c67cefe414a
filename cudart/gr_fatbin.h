/*
 * gr_fatbin.h — find the PTX that the GPUArmor runtime can run inside an nvcc fatbinary
 * (docs/emulator.md §3.4).
 *
 * nvcc embeds the device code of each translation unit as a fatbinary (section .nv_fatbin) and hands
 * the runtime a wrapper (section .nvFatBinSegment, layout in the toolkit's fatbinary_section.h) at
 * start-up through __cudaRegisterFatBinary. The layouts below were measured on nvcc 13.0 output
 * (TOOLCHAIN.md "CUDA 13 on a machine without a GPU"); every integer is little-endian:
 *
 *   wrapper (24 bytes):   u32 magic 0x466243B1, u32 version (1; 2 = relocatable device code),
 *                         u64 pointer to the fatbinary, u64 pointer (unused here)
 *   fatbinary header:     u32 magic 0xBA55ED50, u16 version 1, u16 header size (16),
 *                         u64 size of the entries that follow the header
 *   entry header (>= 64): +0 u16 kind (1 PTX, 2 ELF/SASS), +4 u32 header size, +8 u64 payload
 *                         size, +16 u32 compressed size, +24 u16 PTX ISA minor, +26 u16 major,
 *                         +28 u32 arch (compute capability x 10: 80), +40 u64 flags (0x2000 and
 *                         0x8000 mark a compressed payload; nvcc 13 compresses with zstd),
 *                         +56 u64 uncompressed size; the payload follows the entry header and
 *                         the next entry follows the payload.
 *
 * The parser never reads outside [data, data + avail): every size is checked against what is left
 * before it is used, with overflow-free arithmetic, so a hostile or truncated fatbinary gets a
 * message, never a crash. Pure functions: no allocation, no globals.
 */
#ifndef GR_FATBIN_H
#define GR_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GR_WRAPPER_MAGIC 0x466243B1u
#define GR_FATBIN_MAGIC 0xBA55ED50u
#define GR_FATBIN_HEADER_BYTES 16u
#define GR_ENTRY_MIN_BYTES 64u
#define GR_ENTRY_MAX_BYTES 4096u     /* nvcc 13 writes 64, 80 or 112; anything this big is garbage */
#define GR_ENTRY_KIND_PTX 1u
#define GR_ENTRY_KIND_ELF 2u
#define GR_FLAG_COMPRESSED_LZ4 0x2000u  /* nvcc <= 12 */
#define GR_FLAG_COMPRESSED_ZSTD 0x8000u /* nvcc 13 (measured: flags 0x8011 on a compressed PTX entry) */
#define GR_ARCH_SUPPORTED 80u         /* the emulated GPU is sm_80 (emu.h emu_props_t: 8.0) */

/* The build line every message recommends (docs/emulator.md §3.1). */
#define GR_NVCC_FLAGS "-cudart shared -no-compress -gencode arch=compute_80,code=compute_80"

typedef enum {
    GR_FB_OK = 0,
    GR_FB_NO_DATA,      /* NULL wrapper, NULL fatbinary pointer, or avail 0 */
    GR_FB_BAD_WRAPPER,  /* the wrapper's magic is not 0x466243B1 or its version is unknown */
    GR_FB_RDC,          /* wrapper version 2: relocatable device code (-rdc=true) */
    GR_FB_MALFORMED,    /* bad magic or version, truncated, sizes that overflow or do not add up */
    GR_FB_EMPTY,        /* a well-formed fatbinary without entries */
    GR_FB_COMPRESSED,   /* PTX exists but every usable PTX entry is compressed */
    GR_FB_SASS_ONLY,    /* only ELF (SASS) entries: no PTX at all */
    GR_FB_PTX_TOO_NEW   /* PTX only for architectures above GR_ARCH_SUPPORTED */
} gr_fb_status_t;

/* The PTX entry chosen. ptx points into the fatbinary (not copied, not NUL-terminated). */
typedef struct {
    const char *ptx;
    size_t len;         /* payload bytes up to the first NUL (nvcc pads the text with NULs) */
    uint32_t arch;      /* 80 for compute_80 */
    uint32_t ptx_major; /* PTX ISA version from the entry header (9.0 for nvcc 13.0) */
    uint32_t ptx_minor;
    uint64_t total;     /* bytes of the whole fatbinary: header + entries */
    unsigned entries;   /* entries walked */
} gr_ptx_t;

/* Read the wrapper at `wrapper` (24 bytes, as __cudaRegisterFatBinary receives it). On GR_FB_OK
 * *fatbin is the fatbinary's address. GR_FB_NO_DATA for wrapper NULL or a NULL fatbinary pointer;
 * GR_FB_BAD_WRAPPER for a wrong magic or a version other than 1 and 2; GR_FB_RDC for version 2.
 * msg[cap] (cap may be 0) gets a one-line reason on error, starting with what was found. */
gr_fb_status_t gr_wrapper_fatbin(const void *wrapper, const void **fatbin, char *msg, size_t cap);

/* Walk one fatbinary at data, of which avail bytes may be read (SIZE_MAX: trust the header's own
 * size, as the runtime must: the wrapper carries no length). Choose the uncompressed PTX entry with
 * the highest arch <= max_arch (ties: the first). Errors, in this order: GR_FB_NO_DATA (data NULL or
 * avail 0), GR_FB_MALFORMED (magic not 0xBA55ED50, version not 1, header size < 16, header or any
 * entry header or payload running past avail or past the fatbinary's own end, an entry header size
 * outside [64, 4096], sizes whose sum overflows), then, for a well-formed fatbinary without a usable
 * entry: GR_FB_EMPTY (no entries), GR_FB_COMPRESSED (some PTX entry <= max_arch exists but all such
 * are compressed), GR_FB_PTX_TOO_NEW (uncompressed PTX exists, all above max_arch), GR_FB_SASS_ONLY
 * (no PTX entry at all). Every entry is validated before one is chosen, so a malformed tail is
 * reported even after a good entry. On error out is zeroed and msg says exactly what was found
 * (offsets are from data, archs as sm_XX / compute_XX) and names the nvcc flags to use. */
gr_fb_status_t gr_fatbin_find_ptx(const void *data, size_t avail, uint32_t max_arch, gr_ptx_t *out,
                                  char *msg, size_t cap);

/* One-word name of a status ("GR_FB_COMPRESSED"); "?" for an unknown value. */
const char *gr_fb_status_name(gr_fb_status_t s);

#endif /* GR_FATBIN_H */
