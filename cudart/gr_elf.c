/*
 * gr_elf.c — the pre-start ELF check of gr_elf.h (section headers, .dynamic, .nv_fatbin).
 */
#include "gr_elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sections larger than this are not read (a real .nv_fatbin of a PTX-only program is kilobytes to a
 * few megabytes; libraries with thousands of SASS images reach hundreds of megabytes). */
#define GR_ELF_MAX_SECTION (UINT64_C(1) << 30)

/* Read len bytes at off into a new buffer; NULL when out of the file or out of memory. */
static void *read_at(int fd, uint64_t fsize, uint64_t off, uint64_t len)
{
    if (len == 0 || len > GR_ELF_MAX_SECTION || off > fsize || len > fsize - off)
        return NULL;
    uint8_t *b = malloc((size_t)len + 1);
    if (!b)
        return NULL;
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, b + got, (size_t)len - got, (off_t)(off + got));
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            free(b);
            return NULL;
        }
        got += (size_t)r;
    }
    b[len] = 0; /* string tables are then always terminated */
    return b;
}

/* How much a failure tells the user, to pick the message when no fatbinary is usable: a compressed
 * or too new PTX says more than "no PTX", which says more than a damaged header. */
static int rank(gr_fb_status_t s)
{
    switch (s) {
    case GR_FB_COMPRESSED: return 5;
    case GR_FB_PTX_TOO_NEW: return 4;
    case GR_FB_SASS_ONLY: return 3;
    case GR_FB_MALFORMED: return 2;
    default: return 1;
    }
}

/* nvcc puts several fatbinaries in one section: one per translation unit, and beside each the
 * device-link image of a version-2 wrapper (empty for PTX-only builds, SASS when SASS was asked
 * for), which the runtime never receives. So the program is refused only when no fatbinary of the
 * section has usable PTX; which ones the runtime gets, it checks itself at registration. */
static void scan_fatbins(const uint8_t *sec, size_t size, gr_elf_info_t *info)
{
    size_t off = 0;
    unsigned usable = 0;
    gr_fb_status_t worst = GR_FB_EMPTY;
    char worst_msg[sizeof info->fb_msg] = "the .nv_fatbin section holds no fatbinary with device code";
    while (off + GR_FATBIN_HEADER_BYTES <= size) {
        uint32_t magic = (uint32_t)sec[off] | (uint32_t)sec[off + 1] << 8 | (uint32_t)sec[off + 2] << 16 |
                         (uint32_t)sec[off + 3] << 24;
        if (magic != GR_FATBIN_MAGIC) {
            off += 8; /* nvcc aligns the fatbinaries of one section to 8 bytes */
            continue;
        }
        gr_ptx_t ptx;
        char msg[400];
        gr_fb_status_t s = gr_fatbin_find_ptx(sec + off, size - off, GR_ARCH_SUPPORTED, &ptx, msg, sizeof msg);
        if (s == GR_FB_OK) {
            usable++;
        } else if (s != GR_FB_EMPTY && rank(s) > rank(worst)) {
            worst = s;
            snprintf(worst_msg, sizeof worst_msg, "fatbinary #%u: %s", info->fatbins, msg);
        }
        if (s == GR_FB_MALFORMED)
            break; /* its size cannot be trusted to find the next one */
        if (s != GR_FB_EMPTY)
            info->fatbins++;
        /* Header size (u16 at +6) plus entries size (u64 at +8): validated against size above. */
        uint64_t total = (uint64_t)sec[off + 6] | (uint64_t)sec[off + 7] << 8;
        uint64_t fsize = 0;
        for (int i = 7; i >= 0; i--)
            fsize = fsize << 8 | sec[off + 8 + (size_t)i];
        total += fsize;
        off += (size_t)((total + 7u) & ~UINT64_C(7));
    }
    info->fb = usable > 0 ? GR_FB_OK : worst;
    if (usable == 0)
        snprintf(info->fb_msg, sizeof info->fb_msg, "%s", worst_msg);
}

bool gr_elf_scan(const char *path, gr_elf_info_t *info)
{
    memset(info, 0, sizeof *info);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return false;
    }
    uint64_t fsize = (uint64_t)st.st_size;
    Elf64_Ehdr *eh = read_at(fd, fsize, 0, sizeof *eh);
    if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
        eh->e_shstrndx >= eh->e_shnum) {
        free(eh);
        close(fd);
        return true;
    }
    Elf64_Shdr *sh = read_at(fd, fsize, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof *sh);
    char *names = sh ? read_at(fd, fsize, sh[eh->e_shstrndx].sh_offset, sh[eh->e_shstrndx].sh_size) : NULL;
    if (!sh || !names) {
        free(eh);
        free(sh);
        free(names);
        close(fd);
        return true;
    }
    info->elf = true;
    uint64_t names_size = sh[eh->e_shstrndx].sh_size;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *s = &sh[i];
        const char *name = s->sh_name < names_size ? names + s->sh_name : "";
        if (strcmp(name, ".nv_fatbin") == 0 && s->sh_type != SHT_NOBITS && s->sh_size > 0) {
            uint8_t *sec = read_at(fd, fsize, s->sh_offset, s->sh_size);
            if (sec) {
                info->has_fatbin = true;
                scan_fatbins(sec, (size_t)s->sh_size, info);
                free(sec);
            }
        } else if (strcmp(name, "__nv_relfatbin") == 0 && s->sh_size > 0) {
            info->has_relfatbin = true;
        } else if (s->sh_type == SHT_DYNAMIC && s->sh_link < eh->e_shnum) {
            Elf64_Dyn *dyn = read_at(fd, fsize, s->sh_offset, s->sh_size);
            const Elf64_Shdr *strsh = &sh[s->sh_link];
            char *str = read_at(fd, fsize, strsh->sh_offset, strsh->sh_size);
            size_t n = dyn ? (size_t)(s->sh_size / sizeof *dyn) : 0;
            for (size_t k = 0; k < n && dyn[k].d_tag != DT_NULL; k++) {
                if (dyn[k].d_tag == DT_RPATH)
                    info->has_rpath = true;
                if (dyn[k].d_tag == DT_NEEDED && str && dyn[k].d_un.d_val < strsh->sh_size) {
                    const char *lib = str + dyn[k].d_un.d_val;
                    if (strcmp(lib, "libcudart.so.13") == 0)
                        info->needs_cudart = true;
                    else if (strncmp(lib, "libcudart.so", 12) == 0)
                        info->needs_cudart_other = true;
                }
            }
            free(dyn);
            free(str);
        }
    }
    if (info->has_relfatbin && info->fb != GR_FB_OK) {
        info->has_fatbin = true;
        info->fb = GR_FB_RDC;
        snprintf(info->fb_msg, sizeof info->fb_msg, "the device code is relocatable (nvcc -rdc=true / -dc), which "
                 "needs a device link the GPUArmor runtime does not do; rebuild without -rdc, with nvcc " GR_NVCC_FLAGS);
    }
    free(eh);
    free(sh);
    free(names);
    close(fd);
    return true;
}
