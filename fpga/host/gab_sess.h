/*
 * gab_sess.h — one gaprobe session with a board: the link, the board's build (INFO), the golden-model
 * mirror (gab_mirror.h) and the retry / resynchronisation rules of docs/fpga.md §3.6.
 */
#ifndef GAB_SESS_H
#define GAB_SESS_H

#include <stdio.h>

#include "gab_link.h"
#include "gab_mirror.h"
#include "gab_proto.h"

typedef struct {
    gab_link_t *link;
    gab_info_t info;
    unsigned lanes;
    gab_mirror_t mirror;
    bool mirror_ok;      /* the mirror knows the board's state (after gab_sess_begin) */
    bool check;          /* compare responses with the mirror */
    unsigned timeout_ms;
    unsigned retries;
    int verbose;         /* 0 quiet, 1 mismatches and summaries, 2 every command */
    FILE *out;
    /* statistics */
    uint64_t frames, resent, breaks, ops, mismatches, board_errors;
    unsigned mismatch_print; /* print at most this many mismatch lines */
    /* System boards (protocol version 2): the SM of operations that name none (gab_sess_op):
     * 0 .. NumSms-1, or GAB_SESS_SM_RR: round robin over the SMs, one operation each. */
    int sm;
    unsigned rr;
    char err[512];
} gab_sess_t;

/* Open the port, send a break (resynchronise) and INFO; set up the mirror. 0 or -1 (err set). */
int gab_sess_open(gab_sess_t *s, const char *port, unsigned baud, const char *dump);
void gab_sess_close(gab_sess_t *s);

/* Put board and mirror in a known state: RESET, and (clear_mem) zero every memory line. 0 or -1. */
int gab_sess_begin(gab_sess_t *s, bool clear_mem);

/* One command frame and its response: resent after a timeout, a CRC error or BAD_CRC (with a break
 * first). The response payload (len bytes) goes to pay. 0, or -1 (err set) when retries ran out. */
int gab_sess_xfer(gab_sess_t *s, uint8_t cmd, const uint8_t *payload, uint8_t len, uint8_t *pay, uint8_t *plen);

/* Commands; each checks the board status and, when s->check && s->mirror_ok, the mirror.
 * Return 0 on success (a mismatch is counted, not an error), -1 on a link or board error. */
int gab_sess_info(gab_sess_t *s, gab_info_t *info);
/* INFO naming an SM (version 2; sm < 0: no SM byte): its registers, and it becomes the selected SM. */
int gab_sess_info_sm(gab_sess_t *s, int sm, gab_info_t *info);
#define GAB_SESS_SM_RR (-1)
int gab_sess_reset(gab_sess_t *s);
int gab_sess_mem_write(gab_sess_t *s, unsigned line, const uint8_t data[32]);
int gab_sess_op(gab_sess_t *s, const gab_req_t *r, gab_rsp_t *rsp);
int gab_sess_counters(gab_sess_t *s, bool clear, uint32_t cnt[GAB_NCNT]);
/* INFO, comparing the configuration registers with the mirror (every SM's on a system board). */
int gab_sess_check_regs(gab_sess_t *s);

/* Report a mismatch (counted; printed up to mismatch_print times). */
void gab_sess_mismatch(gab_sess_t *s, const char *what, const char *detail);

/* Print one response in a line. */
void gab_print_rsp(FILE *f, const gab_rsp_t *r, unsigned lanes);

/* Trace replay through the board (gab_replay.c) and the random lockstep test (gab_selftest.c). */
typedef struct {
    const char *trace;
    int mode;            /* 0 compiler, 1 hwonly */
    int layout;          /* 0 list, 1 bst, 2 table */
    uint64_t seed;
    uint32_t step_limit; /* 0: reset value */
} gab_replay_opts_t;
/* Returns 0 after a complete replay (differences are counted in s->mismatches), -4 when the trace
 * cannot be opened, -3 for a malformed trace, a refused replay or a link/board failure (a message on
 * stderr each time). */
int gab_replay(gab_sess_t *s, const gab_replay_opts_t *o);

typedef struct {
    uint64_t ops;        /* random operations */
    uint64_t seed;
    unsigned phases;     /* each: a fresh runtime with the next layout */
    unsigned gen_cases;  /* ga_gen boundary check cases per phase */
} gab_selftest_opts_t;
int gab_selftest(gab_sess_t *s, const gab_selftest_opts_t *o);

#endif /* GAB_SESS_H */
