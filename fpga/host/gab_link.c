/*
 * gab_link.c — serial link to the board over termios (gab_link.h).
 */
#define _DEFAULT_SOURCE /* the Linux baud-rate constants above 38400 and cfmakeraw-like flags */
#include "gab_link.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

struct gab_link {
    int fd;
    FILE *dump;
    uint64_t tx, rx;
};

static speed_t baud_code(unsigned baud)
{
    switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 1500000: return B1500000;
    case 2000000: return B2000000;
    case 3000000: return B3000000;
    case 4000000: return B4000000;
    default: return 0;
    }
}

/* See gab_link.h. */
bool gab_link_baud_ok(unsigned baud) { return baud_code(baud) != 0; }

int gab_link_open(gab_link_t **out, const char *port, unsigned baud, const char *dump, char *err, size_t errlen)
{
    *out = NULL;
    speed_t sp = baud_code(baud);
    if (sp == 0) {
        snprintf(err, errlen, "baud rate %u is not one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, "
                 "500000, 921600, 1000000, 1500000, 2000000, 3000000, 4000000", baud);
        return -1;
    }
    int fd = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open serial port %s: %s%s", port, strerror(errno),
                 errno == EACCES ? " (add yourself to the 'dialout' group, or check the device's permissions)"
                 : errno == ENOENT ? " (is the board plugged in? FTDI boards appear as /dev/ttyUSB<n>; the "
                                     "HX8K breakout's UART is its second interface)" : "");
        return -1;
    }
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        snprintf(err, errlen, "%s is not a serial device (tcgetattr: %s)", port, strerror(errno));
        close(fd);
        return -1;
    }
    /* Raw 8N1: no echo, no canonical mode, no signals, no translation, no flow control. */
    t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF | IXANY);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB | CRTSCTS);
    t.c_cflag |= CS8 | CLOCAL | CREAD;
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    if (cfsetispeed(&t, sp) != 0 || cfsetospeed(&t, sp) != 0 || tcsetattr(fd, TCSANOW, &t) != 0) {
        snprintf(err, errlen, "cannot set %s to %u baud 8N1: %s", port, baud, strerror(errno));
        close(fd);
        return -1;
    }
    tcflush(fd, TCIOFLUSH);
    gab_link_t *l = calloc(1, sizeof *l);
    if (l == NULL) {
        snprintf(err, errlen, "out of memory");
        close(fd);
        return -1;
    }
    l->fd = fd;
    if (dump != NULL) {
        l->dump = fopen(dump, "wb");
        if (l->dump == NULL) {
            snprintf(err, errlen, "cannot write %s: %s", dump, strerror(errno));
            gab_link_close(l);
            return -1;
        }
    }
    *out = l;
    return 0;
}

void gab_link_close(gab_link_t *l)
{
    if (l == NULL) return;
    if (l->fd >= 0) {
        tcdrain(l->fd);
        close(l->fd);
    }
    if (l->dump != NULL) fclose(l->dump);
    free(l);
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gab_link_write(gab_link_t *l, const uint8_t *p, size_t n, unsigned timeout_ms, char *err, size_t errlen)
{
    long long end = now_ms() + timeout_ms;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(l->fd, p + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            snprintf(err, errlen, "write to the serial port failed: %s", strerror(errno));
            return -1;
        }
        long long left = end - now_ms();
        if (left <= 0) {
            snprintf(err, errlen, "timeout: the serial port took %zu of %zu bytes in %u ms", done, n, timeout_ms);
            return -1;
        }
        struct pollfd pf = {.fd = l->fd, .events = POLLOUT};
        (void)poll(&pf, 1, (int)left);
    }
    if (l->dump != NULL && fwrite(p, 1, n, l->dump) != n) {
        snprintf(err, errlen, "writing the dump file failed");
        return -1;
    }
    l->tx += n;
    return 0;
}

long gab_link_read(gab_link_t *l, uint8_t *p, size_t max, unsigned timeout_ms, char *err, size_t errlen)
{
    long long end = now_ms() + timeout_ms;
    for (;;) {
        ssize_t r = read(l->fd, p, max);
        if (r > 0) {
            l->rx += (uint64_t)r;
            return (long)r;
        }
        if (r < 0 && errno != EAGAIN && errno != EINTR) {
            snprintf(err, errlen, "read from the serial port failed: %s%s", strerror(errno),
                     errno == EIO ? " (device unplugged, or the other end closed)" : "");
            return -1;
        }
        long long left = end - now_ms();
        if (left <= 0) return 0;
        struct pollfd pf = {.fd = l->fd, .events = POLLIN};
        int pr = poll(&pf, 1, (int)left);
        if (pr < 0 && errno != EINTR) {
            snprintf(err, errlen, "poll on the serial port failed: %s", strerror(errno));
            return -1;
        }
        if (pr > 0 && (pf.revents & (POLLERR | POLLNVAL))) {
            snprintf(err, errlen, "the serial port reported an error (device gone?)");
            return -1;
        }
    }
}

int gab_link_break(gab_link_t *l, char *err, size_t errlen)
{
    /* A pseudo-terminal (the Verilator bench) cannot send a break: that is not an error, the frame
     * parser of the bench's board resynchronises on the retried frame's CRC instead. */
    int rc = 0;
    if (tcsendbreak(l->fd, 0) != 0) {
        snprintf(err, errlen, "tcsendbreak: %s", strerror(errno));
        rc = -1;
    }
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
    tcflush(l->fd, TCIFLUSH);
    return rc;
}

void gab_link_counts(const gab_link_t *l, uint64_t *tx, uint64_t *rx)
{
    *tx = l->tx;
    *rx = l->rx;
}
