/*
 * gab_mirror.h — the golden model beside the board (docs/fpga.md §7). Every command gaprobe sends to
 * the board is applied to a mirror: a ga_mem_t holding the board's metadata window and one atomic
 * ga_mlu_t (cmodel/ga_mlu.h) of the board's parameters per SM (a system board, protocol version 2, has
 * NumSms of them on the one memory, as the model's ga_system: cmodel/ga_system.h; a command for every SM
 * is applied to each in turn). Because the board runs one command at a time, the atomic models predict
 * every response field, the halt flag and every counter exactly.
 */
#ifndef GAB_MIRROR_H
#define GAB_MIRROR_H

#include "ga_mem.h"
#include "ga_mlu.h"
#include "gab_proto.h"

typedef struct {
    gab_info_t info;
    ga_mem_t *mem;          /* the board's metadata window [0, win) */
    uint64_t win;           /* window bytes: 32 << mem_lines_log2 */
    ga_mlu_t sm[GAB_SMS_MAX]; /* info.num_sms of them */
    unsigned cur;             /* the board's selected SM (response block, halt flag, INFO registers) */
    /* this operation's oracle answer (TABLE walks) */
    bool orc_found;
    uint64_t orc_idx;
    /* narrow builds: the bits the board keeps (gab_mirror_fits) */
    uint64_t keep_addr, va_mask, keep_ptr, keep_md, keep_mds;
    /* expected counters, modulo 2^cnt_bits when compared */
    uint64_t cnt[GAB_NCNT];
} gab_mirror_t;

/* Set up for a board described by info (from INFO). 0, or -1 with err. */
int gab_mirror_init(gab_mirror_t *m, const gab_info_t *info, char *err, size_t errlen);
void gab_mirror_free(gab_mirror_t *m);

/* The board's RESET: MLU state and counters back to reset; memory kept. */
void gab_mirror_reset(gab_mirror_t *m);

/* MEM_WRITE of one line (line < 2^mem_lines_log2). */
void gab_mirror_mem_write(gab_mirror_t *m, unsigned line, const uint8_t data[32]);

/* Does the request fit the build (narrow builds keep only some bits)? false with a reason in why. */
bool gab_mirror_req_fits(const gab_mirror_t *m, const gab_req_t *r, char *why, size_t n);
/* Does a memory line fit (entry base, size, node pointers)? layout decides where pointers are. */
bool gab_mirror_line_fits(const gab_mirror_t *m, const uint8_t data[32], char *why, size_t n);

/* Apply one MLU_OP to the model and write the response block the board must send (bstatus OK, the
 * MLU_RSP flag set, cycles 0: the board's cycle count is not modelled). r->sm names the SM (version 2;
 * GAB_SM_ALL: every SM, the response block is SM 0's); a version-1 board has SM 0 only. */
void gab_mirror_op(gab_mirror_t *m, const gab_req_t *r, gab_rsp_t *exp);

/* Compare a board response with the expected one (cycles and the link flags ignored). Returns the
 * number of differing fields and describes the first ones in msg. */
unsigned gab_mirror_compare(const gab_mirror_t *m, const gab_rsp_t *exp, const gab_rsp_t *got, char *msg,
                            size_t n);

/* Compare counters (COUNTERS trailer) and the configuration registers (INFO trailer). */
unsigned gab_mirror_compare_counters(const gab_mirror_t *m, const uint32_t got[GAB_NCNT], char *msg, size_t n);
unsigned gab_mirror_compare_info(const gab_mirror_t *m, const gab_info_t *got, char *msg, size_t n);
void gab_mirror_clear_counters(gab_mirror_t *m);
/* INFO with an SM byte selected SM sm (version 2). */
void gab_mirror_select(gab_mirror_t *m, unsigned sm);

extern const char *const gab_counter_names[GAB_NCNT];

#endif /* GAB_MIRROR_H */
