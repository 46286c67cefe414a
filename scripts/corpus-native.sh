#!/usr/bin/env bash
# corpus-native.sh — run the CUDA corpus (apps/, apps/manifest.tsv) natively on a machine with an NVIDIA
# GPU, as the reference that the interpreter and GPUArmor are compared with (docs/emulator.md, "Against a
# real GPU"; scripts/corpus_native_check.py reads the result where no GPU is present).
#
#   scripts/corpus-native.sh [--out DIR] [--jobs N] [--timeout S] [--san-timeout S] [--no-extra-tools]
#                            [--only a,b,...]
#
# Every apps/<name>.cu is built twice with nvcc:
#   ptx   mk/apps.mk's flags (-O3 -cudart shared -no-compress -gencode arch=compute_80,code=compute_80
#         -lineinfo): the fatbinary holds only the compute_80 PTX that gpuarmor-run interprets, so the
#         driver JIT-compiles that very PTX (CUDA_CACHE_DISABLE=1: compiled afresh on every run);
#   sass  the same but -gencode arch=compute_90,code=sm_90: ptxas's machine code for Hopper, no JIT.
# nvcc's -Werror flags of mk/apps.mk are left out: they change no code, and the host compiler here may
# warn differently from the one the corpus is checked with.
# Each build of each program runs once plainly (stdout, exit status, seconds) and once under
# `compute-sanitizer --tool memcheck`; the sass build also runs under racecheck and initcheck (cheap on
# this corpus: every program is small), and the sass build of each bug program under memcheck with
# --padding 1048576 (stray accesses then land in padding rather than in a neighbouring allocation).
# Each correct program is also built both ways with apps/native/probe.h pre-included and run once: the
# bytes of every synchronous device-to-host copy are recorded (sha256 per copy in the d2h column), so
# the interpreter's results can be compared bit for bit, not only through the program's PASS line.
# Each run has a time limit (a timeout is recorded, not fatal).
#
# Output, in DIR (default build/native): native.tsv (one row per program and build; '#' header lines name
# the date, GPU, driver, CUDA and sanitizer versions and the flags), logs/<name>.<build>.<run>.log (raw
# stdout+stderr of every run, the repository's path replaced by '.'), d2h/<name>.probe_<build>/<n>.bin
# (the recorded copies), and native.tar.gz holding all of them.
# Exit: 0 done (whatever the programs did), 2 usage error, 3 no GPU / nvcc / compute-sanitizer here
# (the message says which), 1 a build failed or the tool itself failed.
set -u
set -o pipefail

usage() {
    echo "usage: scripts/corpus-native.sh [--out DIR] [--jobs N] [--timeout S] [--san-timeout S]" \
         "[--no-extra-tools] [--only a,b,...]" >&2
    exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$here/build/native
jobs=6
tmo=60
san_tmo=240
extra=1
only=""
while [ $# -gt 0 ]; do
    case $1 in
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --jobs) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]?$ ]] || usage; jobs=$2; shift 2 ;;
    --timeout) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]{0,3}$ ]] || usage; tmo=$2; shift 2 ;;
    --san-timeout) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]{0,3}$ ]] || usage; san_tmo=$2; shift 2 ;;
    --no-extra-tools) extra=0; shift ;;
    --only) [[ $# -ge 2 && $2 =~ ^[a-z0-9_,]+$ ]] || usage; only=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "corpus-native: unknown argument '$1'" >&2; usage ;;
    esac
done

# --- What this machine has: a GPU, nvcc and compute-sanitizer, or a clear refusal. ---
cuda_home=${CUDA_HOME:-/usr/local/cuda}
PATH=$PATH:$cuda_home/bin:$cuda_home/compute-sanitizer
export PATH
if ! command -v nvcc >/dev/null 2>&1; then
    echo "corpus-native: no nvcc on PATH or in $cuda_home/bin: this script needs the CUDA Toolkit 13" >&2
    exit 3
fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    echo "corpus-native: no NVIDIA GPU here (nvidia-smi missing or lists no GPU): run it on a GPU machine;" \
         "scripts/corpus_native_check.py compares a stored result without one" >&2
    exit 3
fi
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "corpus-native: no compute-sanitizer on PATH or in $cuda_home/compute-sanitizer" >&2
    exit 3
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "corpus-native: python3 is needed to write native.tsv" >&2
    exit 3
fi
manifest=$here/apps/manifest.tsv
[ -r "$manifest" ] || { echo "corpus-native: $manifest not found" >&2; exit 1; }

# The repository's programs, in manifest order (name, kind, class, args).
names=$(awk -F'\t' '!/^#/ && NF && $1 != "name" { print $1 }' "$manifest")
if [ -n "$only" ]; then
    keep=" ${only//,/ } "
    names=$(for n in $names; do case $keep in *" $n "*) echo "$n" ;; esac; done)
    [ -n "$names" ] || { echo "corpus-native: --only names no program of the manifest" >&2; exit 2; }
fi
for n in $names; do
    [ -r "$here/apps/$n.cu" ] || { echo "corpus-native: apps/$n.cu (in the manifest) not found" >&2; exit 1; }
done

# The output directory is replaced as a whole: refuse one that holds anything but an earlier run.
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ ! -e "$out/versions.tsv" ]; then
    echo "corpus-native: --out $out exists and is not an earlier output of this script: not replacing it" >&2
    exit 2
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/logs" "$out/res" || exit 1
export LD_LIBRARY_PATH=$cuda_home/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# --- Versions, for the TSV header. ---
{
    echo "date	$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "gpu	$(nvidia-smi --query-gpu=name,memory.total,compute_cap --format=csv,noheader | head -1)"
    echo "driver	$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    echo "cuda_driver_api	$(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1)"
    echo "nvcc	$(nvcc --version | grep -o 'release [0-9.]*, V[0-9.]*' | head -1)"
    echo "compute_sanitizer	$(compute-sanitizer --version | grep -o 'Version [0-9.]*' | head -1)"
    echo "host_compiler	$(${CXX:-g++} --version 2>/dev/null | head -1)"
} >"$out/versions.tsv"

common="-O3 -cudart shared -lineinfo"
flags_ptx="$common -no-compress -gencode arch=compute_80,code=compute_80"
flags_sass="$common -gencode arch=compute_90,code=sm_90"
echo "flags_ptx	nvcc $flags_ptx" >>"$out/versions.tsv"
echo "flags_sass	nvcc $flags_sass" >>"$out/versions.tsv"

# --- Builds (in parallel; a failed build is fatal: the comparison would be meaningless). ---
build_one() { # name build flags...
    local n=$1 b=$2
    shift 2
    # shellcheck disable=SC2068
    if ! (cd "$here" && nvcc $@ "apps/$n.cu" -o "$out/bin/$n.$b") >"$out/logs/$n.$b.build.log" 2>&1; then
        echo "corpus-native: building apps/$n.cu ($b) failed:" >&2
        tail -5 "$out/logs/$n.$b.build.log" >&2
        return 1
    fi
}
export -f build_one
export here out
t0=$(date +%s)
probe="-include apps/native/probe.h"
for n in $names; do
    echo "$n ptx $flags_ptx"
    echo "$n sass $flags_sass"
    if [ "$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$manifest")" = ok ]; then
        echo "$n probe_ptx $flags_ptx $probe"
        echo "$n probe_sass $flags_sass $probe"
    fi
done | xargs -P "$jobs" -L 1 bash -c 'build_one "$@"' _ || { echo "corpus-native: a build failed" >&2; exit 1; }
echo "corpus-native: built $(echo "$names" | wc -w) programs (and the probe builds) in $(( $(date +%s) - t0 )) s"
# The ptx build must carry no machine code, or the driver would not JIT-compile the PTX.
if command -v cuobjdump >/dev/null 2>&1; then
    for n in $names; do
        if cuobjdump --list-elf "$out/bin/$n.ptx" 2>/dev/null | grep -q 'ELF file'; then
            echo "corpus-native: $out/bin/$n.ptx holds SASS: the ptx build would not be JIT-compiled" >&2
            exit 1
        fi
    done
fi

# --- Runs. One job: NAME BUILD TOOL (plain|memcheck|mempad|racecheck|initcheck). ---
run_one() {
    local n=$1 b=$2 tool=$3 args lim rc s0 s1 pd=""
    args=$(awk -F'\t' -v n="$n" '$1 == n { print $6 }' "$here/apps/manifest.tsv")
    [ "$args" = "-" ] && args=""
    local log=$out/logs/$n.$b.$tool.log so=$out/res/$n.$b.$tool.stdout
    case $b in probe_*) pd=$out/d2h/$n.$b; mkdir -p "$pd" ;; esac
    if [ "$tool" = plain ]; then
        lim=$tmo
        set -- "$out/bin/$n.$b"
    elif [ "$tool" = mempad ]; then
        # memcheck with 1 MiB of padding after every allocation: a stray access that would land in a
        # neighbouring allocation (the bug programs' strays reach at most 128 KiB, apps/README.md)
        # lands in padding instead, where memcheck sees it
        lim=$san_tmo
        set -- compute-sanitizer --tool memcheck --padding 1048576 --print-limit 20 "$out/bin/$n.$b"
    else
        lim=$san_tmo
        set -- compute-sanitizer --tool "$tool" --print-limit 20 "$out/bin/$n.$b"
    fi
    s0=$(date +%s.%N)
    # shellcheck disable=SC2086
    (cd "$here" && PROBE_DIR=$pd CUDA_CACHE_DISABLE=1 timeout -k 5 "$lim" "$@" $args) >"$so" 2>"$log.err"
    rc=$?
    s1=$(date +%s.%N)
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && rc=timeout
    { cat "$so"; echo "--- stderr"; cat "$log.err"; } | sed "s#$here/#./#g; s#$here#.#g" >"$log"
    rm -f "$log.err"
    awk -v rc="$rc" -v a="$s0" -v z="$s1" 'BEGIN { printf "%s\t%.2f\n", rc, z - a }' >"$out/res/$n.$b.$tool.rc"
}
export -f run_one
export tmo san_tmo
t0=$(date +%s)
for n in $names; do
    for b in ptx sass; do
        echo "$n $b plain"
        echo "$n $b memcheck"
    done
    if [ "$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$manifest")" = ok ]; then
        echo "$n probe_ptx plain"
        echo "$n probe_sass plain"
    else
        echo "$n sass mempad"
    fi
    if [ $extra -eq 1 ]; then
        echo "$n sass racecheck"
        echo "$n sass initcheck"
    fi
done | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _ || { echo "corpus-native: a run job failed" >&2; exit 1; }
echo "corpus-native: ran everything in $(( $(date +%s) - t0 )) s"

# --- native.tsv: one row per program and build, parsed from the runs. ---
# shellcheck disable=SC2086 # one argument per program name
python3 - "$out" "$manifest" "$extra" $names <<'PY' || { echo "corpus-native: writing native.tsv failed" >&2; exit 1; }
import glob, hashlib, os, re, sys
out, manifest, extra, names = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
apps = os.path.dirname(manifest)

def src_sha(n):
    """The program's source identity: sha256 of apps/<n>.cu and every apps/*.h (the same function as
    scripts/corpus_native_check.py's, which uses it to tell a stale row from a disagreement)."""
    h = hashlib.sha256()
    for f in [os.path.join(apps, n + ".cu")] + sorted(glob.glob(os.path.join(apps, "*.h"))):
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]
man = {}
hdr = None
for line in open(manifest):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    cols = line.split("\t")
    if hdr is None:
        hdr = cols
        continue
    man[cols[0]] = dict(zip(hdr, cols))

def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")

def rd(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None

SAN = re.compile(r"^========= ?(.*)$")
def sanitizer(n, b, tool):
    """(exit, errors, first kind, first detail) of one sanitizer run; '-' where it did not run."""
    rc = rd(os.path.join(out, "res", "%s.%s.%s.rc" % (n, b, tool)))
    log = rd(os.path.join(out, "logs", "%s.%s.%s.log" % (n, b, tool)))
    if rc is None or log is None:
        return ["-"] * 4
    status = rc.split("\t")[0]
    lines = [m.group(1).strip() for m in map(SAN.match, log.splitlines()) if m]
    errors = "?"
    for l in lines:
        m = re.match(r"(ERROR SUMMARY|RACECHECK SUMMARY): (\d+) (error|hazard)", l)
        if m and errors == "?":  # the first summary line; a second one counts the reports not printed
            errors = m.group(2)
            if tool == "racecheck":
                m2 = re.search(r"\((\d+) errors?, (\d+) warnings?\)", l)
                if m2:
                    errors = m2.group(1)
    kind, detail = "", []
    for i, l in enumerate(lines):
        if re.match(r"(Invalid|Uninitialized|Program hit|Error:|Malloc/Free|Misaligned|Out-of-range|"
                    r"Cuda Error|Barrier|Warning:|Race reported|Leaked)", l):
            kind = l
            for d in lines[i + 1:i + 8]:
                if not d or re.match(r"(Invalid|Uninitialized|Program hit|Saved host backtrace|ERROR SUMMARY)", d):
                    break
                if re.match(r"(at |by thread|Address|Access|and is|is |Host Frame|Device Frame)", d):
                    if d.startswith("Host Frame"):
                        break
                    detail.append(re.sub(r"\s+", " ", d))
            break
    return [status, errors, kind or "-", "; ".join(detail) or "-"]

def d2h(n, b):
    """The probe run's copies: 'index:bytes:sha256/16' for each, in order; '-' without a probe run."""
    d = os.path.join(out, "d2h", "%s.probe_%s" % (n, b))
    rc = rd(os.path.join(out, "res", "%s.probe_%s.plain.rc" % (n, b)))
    if rc is None or not os.path.isdir(d):
        return "-"
    files = sorted((int(f[:-4]), f) for f in os.listdir(d) if f.endswith(".bin"))
    parts = []
    for i, f in files:
        with open(os.path.join(d, f), "rb") as fh:
            data = fh.read()
        parts.append("%d:%d:%s" % (i, len(data), hashlib.sha256(data).hexdigest()[:16]))
    return " ".join(parts) or "none"

cols = ["program", "kind", "class", "src_sha", "build", "exit", "seconds", "stdout",
        "memcheck_exit", "memcheck_errors", "memcheck_first", "memcheck_detail", "memcheck_stdout",
        "mempad_errors", "mempad_first", "mempad_detail", "racecheck_errors", "racecheck_first", "initcheck_errors", "initcheck_first", "d2h"]
rows = []
for n in names:
    m = man[n]
    for b in ("ptx", "sass"):
        rc = rd(os.path.join(out, "res", "%s.%s.plain.rc" % (n, b))) or "-\t0"
        status, secs = (rc.strip().split("\t") + ["0"])[:2]
        so = rd(os.path.join(out, "res", "%s.%s.plain.stdout" % (n, b))) or ""
        mc = sanitizer(n, b, "memcheck")
        mso = rd(os.path.join(out, "res", "%s.%s.memcheck.stdout" % (n, b))) or ""
        mso = "\n".join(l for l in mso.splitlines() if not l.startswith("========="))
        mp = sanitizer(n, b, "mempad") if b == "sass" and m["kind"] != "ok" else ["-"] * 4
        rc_ = sanitizer(n, b, "racecheck") if extra and b == "sass" else ["-"] * 4
        ic = sanitizer(n, b, "initcheck") if extra and b == "sass" else ["-"] * 4
        rows.append([n, m["kind"], m["class"], src_sha(n), b, status, "%.2f" % float(secs or 0), esc(so)] + mc[:4] + [esc(mso)] +
                    [mp[1], mp[2], mp[3], rc_[1], rc_[2], ic[1], ic[2], d2h(n, b)])
with open(os.path.join(out, "native.tsv.tmp"), "w") as f:
    f.write("# apps/ corpus run natively (scripts/corpus-native.sh); docs/emulator.md, 'Against a real GPU'.\n")
    for line in open(os.path.join(out, "versions.tsv")):
        k, _, v = line.rstrip("\n").partition("\t")
        f.write("# %s: %s\n" % (k, v))
    f.write("# src_sha: sha256 (16 hex digits) of apps/<program>.cu followed by every apps/*.h, as built;\n")
    f.write("# stdout columns: the program's stdout with \\n, \\t, \\\\ escaped; exit 'timeout' = over the limit;\n"
            "# *_errors: the sanitizer's summary count (racecheck: errors, not warnings); *_first: its first report;\n"
            "# mempad_*: memcheck with --padding 1048576 (bug programs, sass build only);\n"
            "# d2h: the device-to-host copies of the probe build (apps/native/probe.h), index:bytes:sha256[:16];\n"
            "# '-': not run (racecheck and initcheck run on the sass build only).\n")
    f.write("\t".join(cols) + "\n")
    for r in rows:
        f.write("\t".join(str(c).replace("\t", " ") for c in r) + "\n")
os.replace(os.path.join(out, "native.tsv.tmp"), os.path.join(out, "native.tsv"))
print("corpus-native: %d rows in %s" % (len(rows), os.path.join(out, "native.tsv")))
PY

tar -C "$out" -czf "$out/native.tar.gz" native.tsv versions.tsv logs d2h || { echo "corpus-native: tar failed" >&2; exit 1; }
echo "corpus-native: $out/native.tsv, logs in $out/native.tar.gz"
