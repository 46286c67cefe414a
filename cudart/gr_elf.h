/*
 * gr_elf.h — what gpuarmor-run checks in a program before it starts it (docs/emulator.md §3.6): is it
 * a 64-bit little-endian ELF file, does it load libcudart.so.13 dynamically (nvcc -cudart shared),
 * does it carry device code (.nv_fatbin) and is that code usable (gr_fatbin_find_ptx on every
 * fatbinary of the section; relocatable device code, in __nv_relfatbin, is refused), and does it
 * have a DT_RPATH (which the loader searches before
 * LD_LIBRARY_PATH, so the launcher must preload the library instead).
 *
 * Reads the file with bounded pread calls; a file that is not such an ELF file, or whose headers
 * are inconsistent, is reported as not ELF (the launcher then just runs it: scripts are allowed).
 */
#ifndef GR_ELF_H
#define GR_ELF_H

#include "gr_fatbin.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    bool elf;              /* a 64-bit little-endian ELF file whose section headers were read */
    bool needs_cudart;     /* DT_NEEDED names libcudart.so.13 */
    bool needs_cudart_other; /* DT_NEEDED names another libcudart.so.N */
    bool has_rpath;        /* a DT_RPATH entry (DT_RUNPATH does not count: LD_LIBRARY_PATH wins) */
    bool has_fatbin;       /* a non-empty .nv_fatbin section (or __nv_relfatbin) */
    bool has_relfatbin;    /* a non-empty __nv_relfatbin section: relocatable device code (-rdc) */
    unsigned fatbins;      /* fatbinaries with entries in it */
    gr_fb_status_t fb;     /* GR_FB_OK when at least one fatbinary has usable PTX, else the most
                              telling failure of gr_fatbin_find_ptx over them (gr_elf.c says which) */
    char fb_msg[512];      /* its message, prefixed with "fatbinary #n: " */
} gr_elf_info_t;

/* Fill *info from the file at path. Returns false only when the file cannot be opened or read
 * (errno set); a file that is not a 64-bit ELF gives true with info->elf false. */
bool gr_elf_scan(const char *path, gr_elf_info_t *info);

#endif /* GR_ELF_H */
