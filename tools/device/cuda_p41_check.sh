#!/usr/bin/env bash
# SPEC §9's 41 partitions on CUDA (partition_search.cuh, partition_search.cu, partition_runner.cpp) on the
# GPU machine, from the repository root with .device carried (binaries staged as
# tools/device/cuda_ops_check.sh says, or built there: source tools/device/build_on_device.sh).
#   tools/device/cuda_p41_check.sh correctness   the conformance rows of fs+p41 and fs+p41+qpel (random
#                                                and clip frames, variants fast and p41-positions, every
#                                                predictor), memcheck on them, racecheck on one row per
#                                                kernel (the spatial row walk included), compare against
#                                                the CPU on the clip with --qp 28
#   tools/device/cuda_p41_check.sh performance   xme bench of fs and fs+p41 (1080p, range 32, both
#                                                variants), fs+qpel and fs+p41+qpel, and fs+p41 with the
#                                                spatial predictor (the row walk) beside no predictor
set -uo pipefail
mode=${1:?usage: tools/device/cuda_p41_check.sh correctness|performance}
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"

if [ "$mode" = correctness ]; then
    TAIL=30 step conformance_p41 300 env XME_TEST_DEVICE=cuda XME_TEST_OPERATION=fs+p41 \
        "$tests" --test-suite=conformance
    step memcheck_p41 300 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_OPERATION=fs+p41 "$tests" --test-suite=conformance -tc="operations*"
    # The shared minima (fast: warp mins then atomicMin; 002: the binary reduction) and the record.
    for variant in fast p41-positions; do
        step "racecheck_$variant" 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
            XME_TEST_VARIANTS=$variant XME_TEST_OPERATION="fs+p41 lambda 6" "$tests" --test-suite=conformance \
            -tc="operations*"
    done
    # The refinement kernel's per-warp scratch and the record it decides on, with the temporal predictor
    # read from the last pair's records.
    step racecheck_qpel 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast XME_TEST_OPERATION="fs+p41+qpel lambda 40 temporal" "$tests" \
        --test-suite=conformance -tc="operations*"
    # The spatial predictor's row walk: each macroblock's record, refined, then the row counter.
    for variant in fast p41-positions; do
        step "racecheck_spatial_$variant" 300 compute-sanitizer --tool racecheck --error-exitcode 9 env \
            XME_TEST_DEVICE=cuda XME_TEST_VARIANTS=$variant XME_TEST_OPERATION="lambda 4 spatial" "$tests" \
            --test-suite=conformance -tc="operations*"
    done
    TAIL=4 step compare_p41_spatial 300 "$xme" compare "$clip" --backends cpu,cuda:0 --algo fs+p41+qpel --qp 28 \
        --predictor spatial --frames 6
    for variant in fast p41-positions; do
        TAIL=4 step "compare_p41_$variant" 120 "$xme" compare "$clip" --backends cpu,cuda:0 --variant $variant \
            --algo fs+p41 --qp 28 --frames 12
    done
    TAIL=4 step compare_p41_qpel 300 "$xme" compare "$clip" --backends cpu,cuda:0 --algo fs+p41+qpel --qp 28 \
        --predictor temporal --frames 6
    TAIL=4 step compare_p41_centred 300 "$xme" compare "$clip" --backends cpu,cuda:0 --algo fs+p41 --qp 28 \
        --predictor temporal --center predictor --border restrict --frames 12
else
    TAIL=12 step bench_p41_r32 300 "$xme" bench --backends cuda:0 --variants fast,p41-positions --algos fs,fs+p41 \
        --sizes 1920x1080 --blocks 16 --ranges 32 --pairs 10
    TAIL=12 step bench_p41_qpel 300 "$xme" bench --backends cuda:0 --variants fast --algos fs+qpel,fs+p41+qpel \
        --sizes 1920x1080 --blocks 16 --ranges 16,32 --pairs 10 --no-sad-peak
    TAIL=12 step bench_p41_r16_qp28 300 "$xme" bench --backends cuda:0 --variants fast,p41-positions --algos fs,fs+p41 \
        --sizes 1920x1080 --blocks 16 --ranges 16 --pairs 10 --qp 28 --no-sad-peak
    TAIL=12 step bench_p41_spatial 300 "$xme" bench --backends cuda:0 --variants fast,p41-positions --algos fs+p41,fs+p41+qpel \
        --sizes 1920x1080 --blocks 16 --ranges 16 --pairs 10 --qp 28 --predictor spatial --no-sad-peak
fi
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
