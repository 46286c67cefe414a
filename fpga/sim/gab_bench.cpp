// gab_bench.cpp — Verilator bench of the FPGA board core (fpga/rtl/ga_board_core.sv) behind a
// pseudo-terminal: a host program (gaprobe) opens the terminal as if it were the board's USB UART and
// its bytes are driven bit-serially into the core's RX pin; the core's TX pin is decoded back into
// bytes for the host (docs/fpga.md §9). Nothing here checks results: gaprobe compares every response
// with the golden model, exactly as it does with a real board.
//
// Compiled with -DGAB_VTOP=<model class> -DGAB_VTOP_H='"<class>.h"' -DGAB_CPB=<ClksPerBit of the build>,
// and for an ECP5 board top instead of the core (make fpga-sim-sys) -DGAB_TOP_ULX3S or
// -DGAB_TOP_ORANGECRAB: the board's clock pin, its own power-on reset, "busy" from its LED.
//
//   gab_bench --pty-link FILE [--exit-on-hup] [--max-cycles N] [--quiet]
//
// FILE receives the terminal's path once it is ready. With --exit-on-hup the bench ends (status 0)
// when the host closes the terminal after having sent something. The bench does not spend simulated
// cycles while the line is idle and the board waits for the host (the board's state does not change
// then), so a slow host costs wall time, not cycles.

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <memory>
#include <string>
#include <poll.h>
#include <unistd.h>

#include "verilated.h"
#include GAB_VTOP_H

#if defined(GAB_TOP_ULX3S)
#define GAB_CLK clk_25mhz_i                                   // through the EHXPLLL stand-in
#define GAB_BUSY(t) (((t)->led_o & 2u) != 0u)                 // led 1: MLU busy
#elif defined(GAB_TOP_ORANGECRAB)
#define GAB_CLK clk48_i
#define GAB_BUSY(t) (((t)->rgb_led_o & 2u) == 0u)             // green, active low: MLU busy
#else
#define GAB_CLK clk_i
#define GAB_BUSY(t) (((t)->status_o & 2u) != 0u)
#define GAB_HAS_RST 1
#endif

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// Host-to-board line driver: one 8N1 character at a time, GAB_CPB cycles per bit.
struct LineOut {
    std::deque<uint8_t> q;
    int bit = -1;          // -1 idle; 0 start; 1..8 data; 9 stop
    uint32_t cnt = 0;
    uint8_t cur = 0;
    bool level() const
    {
        if (bit < 0) return true;
        if (bit == 0) return false;
        if (bit <= 8) return ((cur >> (bit - 1)) & 1u) != 0u;
        return true;
    }
    bool busy() const { return bit >= 0 || !q.empty(); }
    void tick()
    {
        if (bit < 0) {
            if (q.empty()) return;
            cur = q.front();
            q.pop_front();
            bit = 0;
            cnt = 0;
            return;
        }
        if (++cnt == GAB_CPB) {
            cnt = 0;
            if (++bit == 10) bit = -1;
        }
    }
};

// Board-to-host line receiver: samples the middle of each bit.
struct LineIn {
    int bit = -1;
    uint32_t cnt = 0;
    uint8_t sh = 0;
    bool prev = true;
    uint64_t framing_errors = 0;
    // Returns 1 and the byte when a character completes.
    int sample(bool v, uint8_t *out)
    {
        int got = 0;
        if (bit < 0) {
            if (prev && !v) {
                bit = 0;
                cnt = 0;
            }
        } else if (++cnt == (bit == 0 ? GAB_CPB / 2 : GAB_CPB)) {
            cnt = 0;
            if (bit == 0) {
                if (v) bit = -1;        // glitch
                else bit = 1;
            } else if (bit <= 8) {
                sh = static_cast<uint8_t>((sh >> 1) | (v ? 0x80u : 0u));
                bit++;
            } else {
                if (v) {
                    *out = sh;
                    got = 1;
                } else {
                    framing_errors++;
                }
                bit = -1;
            }
        }
        prev = v;
        return got;
    }
    bool busy() const { return bit >= 0; }
};

} // namespace

int main(int argc, char **argv)
{
    const char *link = nullptr;
    bool exit_on_hup = false, quiet = false;
    uint64_t max_cycles = 0;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--pty-link") && i + 1 < argc) link = argv[++i];
        else if (!std::strcmp(argv[i], "--exit-on-hup")) exit_on_hup = true;
        else if (!std::strcmp(argv[i], "--quiet")) quiet = true;
        else if (!std::strcmp(argv[i], "--max-cycles") && i + 1 < argc) max_cycles = std::strtoull(argv[++i], nullptr, 0);
        else {
            std::fprintf(stderr, "usage: %s --pty-link FILE [--exit-on-hup] [--max-cycles N] [--quiet]\n", argv[0]);
            return 2;
        }
    }
    if (link == nullptr) {
        std::fprintf(stderr, "gab_bench: --pty-link FILE is required\n");
        return 2;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);

    int master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        std::fprintf(stderr, "gab_bench: cannot create a pseudo-terminal: %s\n", std::strerror(errno));
        return 3;
    }
    const char *slave_name = ptsname(master);
    // Hold the slave open until the host has sent something, so that the master does not report a
    // hang-up before the host has opened it.
    int hold = open(slave_name, O_RDWR | O_NOCTTY);
    {
        std::string tmp = std::string(link) + ".tmp";
        FILE *f = std::fopen(tmp.c_str(), "w");
        if (f == nullptr || std::fprintf(f, "%s\n", slave_name) < 0 || std::fclose(f) != 0 ||
            std::rename(tmp.c_str(), link) != 0) {
            std::fprintf(stderr, "gab_bench: cannot write %s\n", link);
            return 3;
        }
    }

    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<GAB_VTOP>(ctx.get(), "TOP");
    top->GAB_CLK = 0;
#ifdef GAB_HAS_RST
    top->rst_ni = 0;
#endif
    top->uart_rx_i = 1;
    top->eval();
    for (int i = 0; i < 40; i++) {   // a board top's power-on reset takes 17 cycles
        top->GAB_CLK = 1;
        top->eval();
        top->GAB_CLK = 0;
        top->eval();
    }
#ifdef GAB_HAS_RST
    top->rst_ni = 1;
#endif
    top->eval();

    LineOut tx_host;
    LineIn rx_host;
    uint64_t cycles = 0, idle_run = 0, bytes_in = 0, bytes_out = 0;
    bool seen = false;
    std::deque<uint8_t> out_q;
    auto t0 = std::chrono::steady_clock::now();
    double sim_secs = 0.0;
    const uint64_t idle_thresh = 24u * GAB_CPB;   // two characters of silence on both lines
    int rc = 0;

    while (!g_stop) {
        // Host -> bench.
        uint8_t buf[4096];
        ssize_t n = read(master, buf, sizeof buf);
        if (n > 0) {
            for (ssize_t i = 0; i < n; i++) tx_host.q.push_back(buf[i]);
            bytes_in += static_cast<uint64_t>(n);
            if (!seen && hold >= 0) {
                close(hold);
                hold = -1;
            }
            seen = true;
        } else if (n < 0 && errno == EIO) {
            if (seen && exit_on_hup && out_q.empty()) break;
        }
        // Bench -> host.
        while (!out_q.empty()) {
            uint8_t b = out_q.front();
            ssize_t w = write(master, &b, 1);
            if (w != 1) break;
            out_q.pop_front();
        }

        bool quiet_lines = !tx_host.busy() && !rx_host.busy() && top->uart_tx_o && out_q.empty();
        bool board_waits = !GAB_BUSY(top);
        if (quiet_lines && board_waits && idle_run >= idle_thresh) {
            // The board waits for the host: block instead of simulating.
            struct pollfd pf = {master, POLLIN, 0};
            int pr = poll(&pf, 1, 100);
            if (pr > 0 && (pf.revents & POLLHUP) && seen && exit_on_hup) break;
            if (pr > 0 && (pf.revents & POLLHUP)) {
                struct timespec ts = {0, 20000000};
                nanosleep(&ts, nullptr);
            }
            continue;
        }

        // Simulate a slice of cycles.
        auto s0 = std::chrono::steady_clock::now();
        for (int k = 0; k < 4096 && !g_stop; k++) {
            top->uart_rx_i = tx_host.level() ? 1 : 0;
            top->GAB_CLK = 1;
            top->eval();
            top->GAB_CLK = 0;
            top->eval();
            cycles++;
            tx_host.tick();
            uint8_t b;
            if (rx_host.sample(top->uart_tx_o != 0, &b)) {
                out_q.push_back(b);
                bytes_out++;
            }
            // Quiet: both lines idle and no operation running. A busy board restarts the count, so an
            // operation longer than the threshold cannot end with the count already past it: the
            // bench would then block in the cycle the board leaves E_WAIT, before its UART has
            // pulled the line low for the response (seen with 32-lane HWOnly operations of ~1 000
            // cycles: the host timed out and resent).
            bool q = !tx_host.busy() && !rx_host.busy() && top->uart_tx_o && !GAB_BUSY(top);
            idle_run = q ? idle_run + 1 : 0;
            if (!out_q.empty() || (q && idle_run >= idle_thresh)) break;
        }
        sim_secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
        if (max_cycles && cycles >= max_cycles) {
            std::fprintf(stderr, "gab_bench: stopped at --max-cycles %" PRIu64 "\n", max_cycles);
            rc = 1;
            break;
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!quiet)
        std::printf("gab_bench: %" PRIu64 " cycles, %" PRIu64 " bytes in, %" PRIu64 " bytes out, %" PRIu64
                    " framing errors, %.1f s wall, %.2f M cycles/s while simulating\n",
                    cycles, bytes_in, bytes_out, rx_host.framing_errors, secs,
                    sim_secs > 0 ? static_cast<double>(cycles) / sim_secs / 1e6 : 0.0);
    if (rx_host.framing_errors) rc = 1;
    top->final();
    if (hold >= 0) close(hold);
    close(master);
    return rc;
}
