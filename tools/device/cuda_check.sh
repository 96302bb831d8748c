#!/usr/bin/env bash
# The CUDA backend on a GPU machine, in one go: devices, conformance, extra checks, sanitizers, timings.
# Build here first (cmake --preset portable && cmake --build --preset portable), then run this on the
# GPU machine from the repository root. The whole build/portable is over the 64 MiB a run may carry:
# carry build/portable/tools/xme, build/portable/tests/xme_tests, build/portable/backends/cuda/xme_cuda_bench
# and build/portable/runtime-libs (a copy of this machine's libgomp.so.1, in case the GPU machine lacks
# it: mkdir -p build/portable/runtime-libs && cp -L /lib/x86_64-linux-gnu/libgomp.so.1 build/portable/runtime-libs/).
# Logs go to $OUT (or ./cuda-check).
# Each step is bounded in time; the most important come first.
set -uo pipefail
B=${XME_BUILD:-build/portable}
# The carried build may need the OpenMP runtime it was linked with (build/portable/runtime-libs).
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$B/runtime-libs"
OUT=${OUT:-cuda-check}
mkdir -p "$OUT"
bench=$B/backends/cuda/xme_cuda_bench
tests=$B/tests/xme_tests
source "$(dirname "$0")/step.sh"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
step devices 30 "$B/tools/xme" devices
step conformance 150 env XME_TEST_DEVICE=cuda "$tests" --test-suite=conformance
step check 90 "$bench" check
TAIL=20 step dct 60 "$bench" dct
TAIL=40 step time 150 "$bench" time 1920 1080 16 16
# What the fast kernel compiled to, and where its time goes.
if command -v cuobjdump >/dev/null; then
    cuobjdump -sass -arch sm_90 "$bench" >"$OUT/sass_all.txt" 2>&1
    awk '/Function : /{on = /search_fast_kernelILi16ELi11ELi1E/} on' "$OUT/sass_all.txt" >"$OUT/sass_fast16.txt"
    echo "=== opcode counts, fast kernel B=16 K=11 (sm_90)"
    grep -oE '^ +/\*[0-9a-f]+\*/ +[A-Z0-9_.]+' "$OUT/sass_fast16.txt" | awk '{print $2}' | sed 's/\..*//' |
        sort | uniq -c | sort -rn | head -15
    rm -f "$OUT/sass_all.txt"
fi
if command -v ncu >/dev/null; then
    TAIL=70 step ncu 60 ncu --kernel-name regex:full_search_fast_kernel --launch-skip 3 --launch-count 1 \
        --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section WarpStateStats \
        --section InstructionStats "$bench" time 1920 1080 16 16 fast
fi
# Sanitizers over the reduced conformance run (random frames only).
step memcheck 100 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda "$tests" --test-suite=conformance -tc="random*"
# racecheck is slow: only the kernels that use shared memory (variants shared, candidate), small frames.
step racecheck 150 compute-sanitizer --tool racecheck --error-exitcode 9 "$bench" race
TAIL=12 step time_b8 40 "$bench" time 1920 1080 8 16 fast
TAIL=12 step time_b32 40 "$bench" time 1920 1080 32 16 fast
TAIL=12 step time_r15 40 "$bench" time 1920 1080 16 15 fast
TAIL=12 step time_b4 40 "$bench" time 1920 1080 4 16 fast
# The same measurement through the command line, for comparison with the other devices.
TAIL=20 step xme_bench 90 "$B/tools/xme" bench --backends cuda:0 --sizes 1920x1080 --blocks 16 --ranges 16 --algos fs,fs+hpel
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
