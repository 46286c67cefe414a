/*
 * gab_link.h — the byte link to the board: a serial device (a USB UART such as the FT2232H of the
 * iCE40-HX8K breakout or the iCEBreaker, or the pseudo-terminal of the Verilator board bench) set to
 * raw 8N1 at a given baud rate with termios, with timeouts and clear error messages.
 */
#ifndef GAB_LINK_H
#define GAB_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gab_link gab_link_t;

/* Open port at baud (one of the standard rates 9600 .. 4000000), raw 8N1, no flow control. dump, if
 * not NULL, names a file that receives a copy of every byte written (the command stream). Returns 0,
 * or -1 with a message in err. */
int gab_link_open(gab_link_t **out, const char *port, unsigned baud, const char *dump, char *err, size_t errlen);
void gab_link_close(gab_link_t *l);

/* True when baud is one of the rates gab_link_open accepts, so that a tool can refuse a bad rate as a
 * usage error before it opens anything. */
bool gab_link_baud_ok(unsigned baud);

/* Write all n bytes (waiting up to timeout_ms for the device to take them). 0, or -1 with err. */
int gab_link_write(gab_link_t *l, const uint8_t *p, size_t n, unsigned timeout_ms, char *err, size_t errlen);

/* Read at most max bytes, waiting up to timeout_ms for the first. Returns the count (> 0), 0 on a
 * timeout, -1 on an error (message in err). */
long gab_link_read(gab_link_t *l, uint8_t *p, size_t max, unsigned timeout_ms, char *err, size_t errlen);

/* Send a UART break (the board drops a half-received frame) and discard pending input. */
int gab_link_break(gab_link_t *l, char *err, size_t errlen);

/* Bytes written and read since open. */
void gab_link_counts(const gab_link_t *l, uint64_t *tx, uint64_t *rx);

#endif /* GAB_LINK_H */
