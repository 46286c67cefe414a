#!/usr/bin/env bash
# Install the Debian packages the project needs, only those that are missing. Debian packages only;
# apt-get as root, or through sudo. Exits non-zero with a clear message if something cannot be had.
set -eu
# zlib1g-dev: gzip traces (sim/trace/); clang + libclang-rt-14-dev: the libFuzzer runtime (make fuzz);
# xvfb: headless GTKWave (make wave); python3: coverage summary (make coverage); python3-venv: the
# project-local virtual environment of the ECP5 tools (make deps-ecp5, mk/fpga.mk).
PKGS=(build-essential pkg-config check verilator yosys iverilog gtkwave z3 gnuplot ccache zlib1g-dev clang
      libclang-rt-14-dev nextpnr-ice40 fpga-icestorm xvfb python3 python3-venv)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
