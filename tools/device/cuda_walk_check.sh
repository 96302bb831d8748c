#!/usr/bin/env bash
# SPEC §11's tz and ehds on CUDA (walk_search_kernel.cuh, tz_walk.cuh, ehds_walk.cuh, mean_pyramid.cu)
# on the GPU machine, from the repository root with .device carried (binaries staged as
# tools/device/cuda_ops_check.sh says: correctness needs xme_tests, xme and the clips from a build for
# -DCMAKE_CUDA_ARCHITECTURES=90 only; performance needs xme).
#   tools/device/cuda_walk_check.sh correctness   the conformance rows of tz and ehds (every chain and
#                                                 §8 setting, random and clip frames), memcheck on them,
#                                                 racecheck on a tz+hpel and an ehds+qpel row, compare
#                                                 against the CPU on a clip
#   tools/device/cuda_walk_check.sh performance   xme bench of fs, tz and ehds side by side
set -uo pipefail
mode=${1:?usage: tools/device/cuda_walk_check.sh correctness|performance}
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"

if [ "$mode" = correctness ]; then
    for operation in tz ehds; do
        TAIL=30 step "conformance_$operation" 300 env XME_TEST_DEVICE=cuda XME_TEST_OPERATION=$operation \
            "$tests" --test-suite=conformance
        step "memcheck_$operation" 300 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
            XME_TEST_OPERATION=$operation "$tests" --test-suite=conformance -tc="operations*"
    done
    # The wavefront's flags and the warps' shared words (and qpel's scratch): one spatial row each.
    step racecheck_tz_hpel 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast XME_TEST_OPERATION="tz+hpel lambda 4 spatial" "$tests" --test-suite=conformance \
        -tc="operations*"
    step racecheck_ehds_qpel 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast XME_TEST_OPERATION="ehds+qpel lambda 4 spatial" "$tests" --test-suite=conformance \
        -tc="operations*"
    TAIL=4 step compare_tz_qpel 120 "$xme" compare "$clip" --backends cpu,cuda:0 --algo tz+qpel --lambda 4 \
        --predictor spatial --center predictor --frames 12
    TAIL=4 step compare_ehds 120 "$xme" compare "$clip" --backends cpu,cuda:0 --algo ehds --qp 28 \
        --predictor temporal --frames 12
else
    for r in 16 32; do
        TAIL=14 step "bench_walks_r$r" 300 "$xme" bench --backends cuda:0 --variants fast --sizes 1920x1080 \
            --blocks 16 --ranges $r --algos fs,tz,ehds --pairs 30 --no-sad-peak
    done
    TAIL=10 step bench_walks_uhd 300 "$xme" bench --backends cuda:0 --variants fast --sizes 3840x2160 --blocks 16 \
        --ranges 32 --algos fs,tz,ehds --pairs 10 --no-sad-peak
fi
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
