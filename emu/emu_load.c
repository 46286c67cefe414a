/*
 * emu_load.c — loading a PTX module into the device (emu.h: emu_module_load): parse, instrument in
 * compiler mode, allocate and initialise module variables through the GPUArmor runtime, lay out
 * static shared memory, decode (emu_decode.c), and list the kernels (docs/emulator.md §4.1).
 */
#include "emu_internal.h"
#include "emu_fp.h"
#include "emu_instr_hook.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void emu_free_var_region(emu_dev_t *d, uint64_t ptr);

static void set_msg(char *msg, size_t cap, const char *fmt, ...)
{
    if (msg == NULL || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

static void module_free(emu_module_t *m)
{
    if (m == NULL) return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        emu_func_t *f = &m->funcs[i];
        free(f->const_val);
        free(f->sregs);
        free(f->locals);
        free(f->param_off);
        free(f->param_size);
        free(f->ret_off);
        free(f->ret_size);
        free(f->kparam_off);
        free(f->kparam_size);
        free(f->kparam_align);
    }
    free(m->funcs);
    free(m->code);
    free(m->pool);
    free(m->vars);
    free(m->sym_value);
    free(m->sym_has_value);
    free(m->kernels);
    ptx_module_free(m->ir);
    free(m->name);
    free(m);
}

/* Write an initializer into buf (the variable's bytes). Element size from the variable's type. */
static void write_init(emu_module_t *m, const ptx_sym_t *s, uint8_t *buf, uint64_t size)
{
    unsigned es = ptx_type_bytes((ptx_type_t)s->type);
    if (es == 0) es = 1;
    uint64_t pos = 0;
    for (uint32_t k = 0; k < s->ninit && pos + es <= size; k++) {
        const ptx_init_t *in = &m->ir->inits[s->first_init + k];
        uint64_t v = 0;
        unsigned n = es;
        switch (in->kind) {
        case PTX_INIT_INT: v = (uint64_t)in->ival; break;
        case PTX_INIT_FLOAT:
            if (s->type == PTX_T_F32 && in->fwidth == 64) {
                float f = (float)emu_as_f64(in->fbits);
                uint32_t u;
                memcpy(&u, &f, 4);
                v = u;
            } else if (s->type == PTX_T_F64 && in->fwidth == 32) {
                uint32_t u = (uint32_t)in->fbits;
                float f;
                memcpy(&f, &u, 4);
                double dd = f;
                memcpy(&v, &dd, 8);
            } else {
                v = in->fbits;
            }
            break;
        case PTX_INIT_SYM:
        case PTX_INIT_GENERIC:
            v = (in->sym < m->ir->nsyms && m->sym_has_value[in->sym]) ? m->sym_value[in->sym] + (uint64_t)in->ival
                                                                     : 0;
            if (n < 8) n = 8 < size - pos ? 8 : (unsigned)(size - pos);
            break;
        }
        for (unsigned b = 0; b < n && pos + b < size; b++) buf[pos + b] = (uint8_t)(v >> (8 * b));
        pos += n;
    }
}

static int dump_text(const char *dir, const char *name, const char *suffix, const char *text, size_t len)
{
    char path[4096];
    char clean[256];
    size_t k = 0;
    for (const char *c = name; *c && k + 1 < sizeof clean; c++)
        clean[k++] = (char)((*c == '/' || *c == ' ' || *c == ':' || *c == '#') ? '_' : *c);
    clean[k] = 0;
    snprintf(path, sizeof path, "%s/%s.%s.ptx", dir, clean, suffix);
    FILE *f = fopen(path, "w");
    if (f == NULL) return -1;
    size_t w = fwrite(text, 1, len, f);
    int rc = (w == len) ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

emu_status_t emu_module_load(emu_dev_t *d, const char *name, const char *ptx, size_t len, emu_module_t **out,
                             char *msg, size_t cap)
{
    if (d == NULL || ptx == NULL || out == NULL) return EMU_ERR_INVALID_VALUE;
    *out = NULL;
    emu_module_t *m = calloc(1, sizeof *m);
    if (m == NULL) return EMU_ERR_NO_MEMORY;
    m->dev = d;
    m->name = strdup(name ? name : "module");
    ptx_err_t pe;
    memset(&pe, 0, sizeof pe);
    m->ir = ptx_parse(m->name, ptx, len, &pe);
    if (m->ir == NULL) {
        set_msg(msg, cap, "%s", pe.msg);
        module_free(m);
        return EMU_ERR_INVALID_PTX;
    }
    if (d->cfg.ptx_dump_dir) {
        mkdir(d->cfg.ptx_dump_dir, 0777);
        if (dump_text(d->cfg.ptx_dump_dir, m->name, "loaded", ptx, len) != 0)
            fprintf(d->log, "========= GPUArmor: warning: cannot write the PTX dump into %s: %s\n",
                    d->cfg.ptx_dump_dir, strerror(errno));
    }
    bool pre = ptx_find_func(m->ir, "__ga_loadmeta") >= 0;
    if (d->cfg.armor == EMU_ARMOR_COMPILER && !pre) {
        if (emu_instrument_module(m->ir, msg, cap) != 0) {
            module_free(m);
            return EMU_ERR_INVALID_PTX;
        }
    }
    m->instrumented = (d->cfg.armor == EMU_ARMOR_COMPILER);
    if (d->cfg.ptx_dump_dir) {
        size_t n;
        char *txt = ptx_print_str(m->ir, &n);
        if (txt) {
            dump_text(d->cfg.ptx_dump_dir, m->name, "executed", txt, n);
            free(txt);
        }
    }
    const ptx_module_t *ir = m->ir;
    m->sym_value = calloc((size_t)ir->nsyms + 1, sizeof *m->sym_value);
    m->sym_has_value = calloc((size_t)ir->nsyms + 1, 1);
    m->vars = calloc((size_t)ir->nsyms + 1, sizeof *m->vars);
    if (!m->sym_value || !m->sym_has_value || !m->vars) {
        module_free(m);
        return EMU_ERR_NO_MEMORY;
    }
    /* Module variables in .global / .const: allocations of the runtime (tagged, with metadata). */
    for (uint32_t s = 0; s < ir->nsyms; s++) {
        const ptx_sym_t *sy = &ir->syms[s];
        if (sy->kind != PTX_SYM_VAR) continue;
        if (sy->space != PTX_SPACE_GLOBAL && sy->space != PTX_SPACE_CONST) continue;
        const char *vn = ptx_sym_name(ir, s);
        if (sy->link == PTX_LINK_EXTERN) {
            set_msg(msg, cap, "%s:%u:%u: the module uses the external variable '%s', defined in another "
                    "module (separate compilation, -rdc, is not supported: docs/emulator.md §4.1)",
                    m->name, sy->pos.line, sy->pos.col, vn);
            module_free(m);
            return EMU_ERR_UNSUPPORTED;
        }
        uint64_t size = sy->size ? sy->size : 1;
        uint64_t p;
        emu_status_t st = emu_alloc_region(d, size, REG_VAR, vn, &p);
        if (st != EMU_OK) {
            set_msg(msg, cap, "%s: cannot allocate the module variable '%s' (%" PRIu64 " bytes): %s", m->name, vn,
                    size, emu_status_name(st));
            module_free(m);
            return st;
        }
        m->sym_value[s] = p;
        m->sym_has_value[s] = 1;
        emu_var_t *v = &m->vars[m->nvars++];
        v->sym = s;
        v->addr = p;
        v->size = size;
        v->space = sy->space;
    }
    /* Initialisers (after every address is known: an initializer may name another variable). */
    for (uint32_t k = 0; k < m->nvars; k++) {
        const ptx_sym_t *sy = &ir->syms[m->vars[k].sym];
        if (sy->ninit == 0) continue;
        emu_region_t *r = emu_region_find(d, emu_strip(d, m->vars[k].addr));
        if (r) write_init(m, sy, r->host, r->size);
    }
    /* Static shared memory: every .shared variable of the module (module scope and function scope)
     * gets an offset in one CTA layout; extern unsized arrays alias the dynamic area after it. */
    uint64_t soff = 0;
    uint32_t dyn_align = 16;
    for (uint32_t s = 0; s < ir->nsyms; s++) {
        const ptx_sym_t *sy = &ir->syms[s];
        if (sy->kind != PTX_SYM_VAR || sy->space != PTX_SPACE_SHARED) continue;
        if (sy->unsized || sy->size == 0) {
            if (sy->align > dyn_align) dyn_align = sy->align;
            continue;
        }
        uint32_t al = sy->align ? sy->align : ptx_type_bytes((ptx_type_t)sy->type);
        if (al == 0) al = 1;
        soff = (soff + al - 1) / al * al;
        m->sym_value[s] = soff;
        m->sym_has_value[s] = 1;
        soff += sy->size;
        if (soff > (UINT64_C(1) << 24)) {
            set_msg(msg, cap, "%s: static shared memory exceeds 16 MiB", m->name);
            module_free(m);
            return EMU_ERR_UNSUPPORTED;
        }
    }
    m->shared_static = (uint32_t)soff;
    m->shared_dyn_align = dyn_align;
    uint64_t dyn_base = (soff + dyn_align - 1) / dyn_align * dyn_align;
    for (uint32_t s = 0; s < ir->nsyms; s++) {
        const ptx_sym_t *sy = &ir->syms[s];
        if (sy->kind == PTX_SYM_VAR && sy->space == PTX_SPACE_SHARED && (sy->unsized || sy->size == 0)) {
            m->sym_value[s] = dyn_base;
            m->sym_has_value[s] = 1;
        }
    }
    emu_status_t st = emu_decode_module(m, msg, cap);
    if (st != EMU_OK) {
        for (uint32_t k = 0; k < m->nvars; k++) emu_free_var_region(d, m->vars[k].addr);
        module_free(m);
        return st;
    }
    /* Kernels. */
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && m->funcs[i].defined) m->nkernels++;
    m->kernels = calloc((size_t)m->nkernels + 1, sizeof *m->kernels);
    if (m->kernels == NULL) {
        for (uint32_t k = 0; k < m->nvars; k++) emu_free_var_region(d, m->vars[k].addr);
        module_free(m);
        return EMU_ERR_NO_MEMORY;
    }
    uint32_t nk = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && m->funcs[i].defined) {
            m->kernels[nk].mod = m;
            m->kernels[nk].fn = i;
            m->kernels[nk].name = m->funcs[i].name;
            nk++;
        }
    m->loaded = true;
    m->next = d->modules;
    d->modules = m;
    *out = m;
    return EMU_OK;
}

void emu_module_unload(emu_dev_t *d, emu_module_t *m)
{
    if (d == NULL || m == NULL) return;
    for (emu_module_t **pp = &d->modules; *pp; pp = &(*pp)->next)
        if (*pp == m) {
            *pp = m->next;
            break;
        }
    for (uint32_t k = 0; k < m->nvars; k++)
        if (m->vars[k].space == PTX_SPACE_GLOBAL || m->vars[k].space == PTX_SPACE_CONST)
            emu_free_var_region(d, m->vars[k].addr);
    m->loaded = false;
    module_free(m);
}

unsigned emu_module_nkernels(const emu_module_t *m) { return m ? m->nkernels : 0; }

emu_kernel_t *emu_module_kernel(emu_module_t *m, unsigned i)
{
    return (m && i < m->nkernels) ? &m->kernels[i] : NULL;
}

emu_kernel_t *emu_kernel_find(emu_module_t *m, const char *name)
{
    if (m == NULL || name == NULL) return NULL;
    for (uint32_t k = 0; k < m->nkernels; k++)
        if (strcmp(m->kernels[k].name, name) == 0) return &m->kernels[k];
    return NULL;
}

const char *emu_kernel_name(const emu_kernel_t *k) { return k ? k->name : ""; }

unsigned emu_kernel_nparams(const emu_kernel_t *k) { return k ? k->mod->funcs[k->fn].nparams : 0; }

void emu_kernel_param(const emu_kernel_t *k, unsigned i, uint32_t *size, uint32_t *align)
{
    const emu_func_t *f = &k->mod->funcs[k->fn];
    if (i >= f->nparams) {
        if (size) *size = 0;
        if (align) *align = 0;
        return;
    }
    if (size) *size = f->kparam_size[i];
    if (align) *align = f->kparam_align[i];
}

emu_status_t emu_var_find(emu_module_t *m, const char *name, uint64_t *addr, uint64_t *size)
{
    if (m == NULL || name == NULL) return EMU_ERR_INVALID_VALUE;
    for (uint32_t k = 0; k < m->nvars; k++)
        if (strcmp(ptx_sym_name(m->ir, m->vars[k].sym), name) == 0) {
            if (addr) *addr = m->vars[k].addr;
            if (size) *size = m->vars[k].size;
            return EMU_OK;
        }
    return EMU_ERR_NOT_FOUND;
}
