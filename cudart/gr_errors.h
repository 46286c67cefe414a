/*
 * gr_errors.h — cudaError_t names and messages, and the mapping from the emulator's results
 * (emu_status_t) to cudaError_t (docs/emulator.md §3.3).
 *
 * Written without the CUDA headers (codes are plain ints) so that the unit tests build on a machine
 * without the toolkit; the runtime checks every GR_E_* below against NVIDIA's enumerator with a
 * static assertion. The table (gr_errtab.inc) is generated from the toolkit by gen_errtab.sh.
 */
#ifndef GR_ERRORS_H
#define GR_ERRORS_H

#include "emu.h"

#include <stdbool.h>
#include <stddef.h>

/* The cudaError_t values the runtime returns itself (driver_types.h, CUDA 13.0). */
enum {
    GR_E_SUCCESS = 0,
    GR_E_INVALID_VALUE = 1,
    GR_E_MEMORY_ALLOCATION = 2,
    GR_E_CUDART_UNLOADING = 4,
    GR_E_INVALID_CONFIGURATION = 9,
    GR_E_INVALID_SYMBOL = 13,
    GR_E_INVALID_MEMCPY_DIRECTION = 21,
    GR_E_MISSING_CONFIGURATION = 52,
    GR_E_INVALID_DEVICE_FUNCTION = 98,
    GR_E_INVALID_DEVICE = 101,
    GR_E_INVALID_PTX = 218,
    GR_E_INVALID_RESOURCE_HANDLE = 400,
    GR_E_NOT_READY = 600,
    GR_E_ILLEGAL_ADDRESS = 700,
    GR_E_ASSERT = 710,
    GR_E_LAUNCH_TIMEOUT = 702,
    GR_E_HARDWARE_STACK_ERROR = 714,
    GR_E_LAUNCH_FAILURE = 719,
    GR_E_NOT_SUPPORTED = 801,
    GR_E_UNKNOWN = 999
};

/* cudaGetErrorName / cudaGetErrorString: the toolkit's exact text for every value of the enum;
 * "unrecognized error code" for any other value (what NVIDIA's runtime 13.0 returns, measured). */
const char *gr_error_name(int code);
const char *gr_error_string(int code);
/* Number of values in the table, and the i-th value (i < count), for tests and docs. */
size_t gr_error_count(void);
int gr_error_value(size_t i);

/* What a device operation's result means to the program. */
typedef enum {
    GR_OP_MEMORY, /* malloc, free, copies, memset */
    GR_OP_LAUNCH, /* a kernel launch */
    GR_OP_SYMBOL  /* a module variable (cudaMemcpyToSymbol ...) */
} gr_op_t;

typedef struct {
    int err;     /* the cudaError_t to return */
    bool sticky; /* the device is unusable: every later call returns err (CUDA's "sticky" errors) */
    bool stop;   /* a limit of the emulator or a bug: the runtime stops the program (exit 125) */
} gr_mapped_t;

/* The mapping (docs/emulator.md §3.3):
 *   EMU_OK -> cudaSuccess; EMU_ERR_INVALID_VALUE, EMU_ERR_INVALID_POINTER, EMU_ERR_BAD_FREE ->
 *   cudaErrorInvalidValue; EMU_ERR_NO_MEMORY -> cudaErrorMemoryAllocation; EMU_ERR_INVALID_CONFIG ->
 *   cudaErrorInvalidConfiguration; EMU_ERR_NOT_FOUND -> cudaErrorInvalidSymbol (GR_OP_SYMBOL) or
 *   cudaErrorInvalidDeviceFunction (otherwise); all of these are not sticky.
 *   EMU_ERR_LAUNCH_FAILED -> cudaErrorIllegalAddress when bad_access (the launch made an access
 *   outside every allocation, or GPUArmor stopped it under --policy terminate), else
 *   cudaErrorLaunchFailure (a trap); EMU_ERR_TIMEOUT -> cudaErrorLaunchTimeout;
 *   EMU_ERR_STACK_OVERFLOW -> cudaErrorHardwareStackError; EMU_ERR_ASSERT (a device-side assert) ->
 *   cudaErrorAssert: sticky.
 *   EMU_ERR_UNSUPPORTED (cudaErrorNotSupported), EMU_ERR_INVALID_PTX (cudaErrorInvalidPtx),
 *   EMU_ERR_INTERNAL and any unknown value (cudaErrorUnknown): stop. */
gr_mapped_t gr_map_status(emu_status_t s, gr_op_t op, bool bad_access);

#endif /* GR_ERRORS_H */
