/*
 * gr_errors.c — the cudaError_t table (generated: gr_errtab.inc) and the emu_status_t mapping of
 * gr_errors.h.
 */
#include "gr_errors.h"

typedef struct {
    int value;
    const char *name;
    const char *text;
} gr_errrow_t;

static const gr_errrow_t errtab[] = {
#define GR_ERR(v, n, s) {v, n, s},
#include "gr_errtab.inc"
#undef GR_ERR
};

#define ERRTAB_N (sizeof errtab / sizeof errtab[0])

/* NVIDIA's runtime 13.0 answers both calls with this for a value outside the enum (measured with
 * the toolkit's libcudart, values 1000 and 1099). */
static const char unrecognized[] = "unrecognized error code";

static const gr_errrow_t *find(int code)
{
    for (size_t i = 0; i < ERRTAB_N; i++)
        if (errtab[i].value == code)
            return &errtab[i];
    return NULL;
}

const char *gr_error_name(int code)
{
    const gr_errrow_t *r = find(code);
    return r ? r->name : unrecognized;
}

const char *gr_error_string(int code)
{
    const gr_errrow_t *r = find(code);
    return r ? r->text : unrecognized;
}

size_t gr_error_count(void) { return ERRTAB_N; }

int gr_error_value(size_t i) { return i < ERRTAB_N ? errtab[i].value : -1; }

gr_mapped_t gr_map_status(emu_status_t s, gr_op_t op, bool bad_access)
{
    gr_mapped_t m = {GR_E_SUCCESS, false, false};
    switch (s) {
    case EMU_OK: break;
    case EMU_ERR_INVALID_VALUE:
    case EMU_ERR_INVALID_POINTER:
    case EMU_ERR_BAD_FREE: m.err = GR_E_INVALID_VALUE; break;
    case EMU_ERR_NO_MEMORY: m.err = GR_E_MEMORY_ALLOCATION; break;
    case EMU_ERR_INVALID_CONFIG: m.err = GR_E_INVALID_CONFIGURATION; break;
    case EMU_ERR_NOT_FOUND: m.err = op == GR_OP_SYMBOL ? GR_E_INVALID_SYMBOL : GR_E_INVALID_DEVICE_FUNCTION; break;
    case EMU_ERR_LAUNCH_FAILED:
        m.err = bad_access ? GR_E_ILLEGAL_ADDRESS : GR_E_LAUNCH_FAILURE;
        m.sticky = true;
        break;
    case EMU_ERR_TIMEOUT:
        m.err = GR_E_LAUNCH_TIMEOUT;
        m.sticky = true;
        break;
    case EMU_ERR_STACK_OVERFLOW:
        m.err = GR_E_HARDWARE_STACK_ERROR;
        m.sticky = true;
        break;
    case EMU_ERR_ASSERT:
        m.err = GR_E_ASSERT;
        m.sticky = true;
        break;
    case EMU_ERR_UNSUPPORTED:
        m.err = GR_E_NOT_SUPPORTED;
        m.stop = true;
        break;
    case EMU_ERR_INVALID_PTX:
        m.err = GR_E_INVALID_PTX;
        m.stop = true;
        break;
    case EMU_ERR_INTERNAL:
    default:
        m.err = GR_E_UNKNOWN;
        m.stop = true;
        break;
    }
    return m;
}
