#!/usr/bin/env bash
# The CUDA backend's SPEC §8-§13 operations on the GPU machine, in one device call each (staged
# binaries as tools/device/gpu_check.sh says, stripped; carry .device). The portable build's xme and
# xme_tests are ~40 MB each with every CUDA architecture: with the clips they pass the 64 MiB a call
# may carry, so stage only what a mode runs (correctness: xme_tests, xme and the clips with a build for
# -DCMAKE_CUDA_ARCHITECTURES=90 only; performance: xme and xme_cuda_bench).
#   tools/device/cuda_ops_check.sh correctness   conformance of every operation row and the transforms,
#                                                memcheck and racecheck, compare against the CPU on a clip
#   tools/device/cuda_ops_check.sh performance   xme bench of each operation beside fs, one run
set -uo pipefail
mode=${1:?usage: tools/device/cuda_ops_check.sh correctness|performance}
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"

if [ "$mode" = correctness ]; then
    TAIL=40 step conformance_cuda 300 env XME_TEST_DEVICE=cuda "$tests" --test-suite=conformance
    [ -x "$B/backends/cuda/xme_cuda_bench" ] && step memcheck_dct 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/backends/cuda/xme_cuda_bench" dct --blocks 100
    [ -x "$B/backends/cuda/xme_cuda_bench" ] && step racecheck_dct 120 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/backends/cuda/xme_cuda_bench" dct --blocks 100
    # Shared memory and the wavefront's flags: memcheck over the operation rows, racecheck on a few.
    step memcheck_ops 300 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_OPERATION="fs" "$tests" --test-suite=conformance -tc="operations*"
    step racecheck_ops 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_OPERATION="lambda 4" "$tests" --test-suite=conformance -tc="operations*"
    step racecheck_qpel 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast XME_TEST_OPERATION="qpel" "$tests" --test-suite=conformance -tc="operations*"
    # Whole clips, against the CPU: each rate setting, the fallback of a huge lambda, spatial centred on 0.
    for settings in "--qp 28 --predictor temporal" "--lambda 4 --predictor spatial --center predictor" \
        "--lambda 65535 --predictor temporal" "--lambda 9 --predictor spatial" "--lambda 2 --predictor temporal --center predictor --refresh 3"; do
        for algo in fs fs+hpel fs+qpel dia+hpel hex+qpel; do
            name="compare_${algo}_$(echo "$settings" | tr -c 'a-z0-9' '_')"
            TAIL=4 step "$name" 120 "$xme" compare "$clip" --backends cpu,cuda:0 --algo "$algo" $settings --frames 12
        done
    done
else
    TAIL=20 step dct 120 "$B/backends/cuda/xme_cuda_bench" dct
    for r in 16 32; do
        TAIL=14 step "bench_chains_r$r" 200 "$xme" bench --backends cuda:0 --variants fast --sizes 1920x1080 \
            --blocks 16 --ranges $r --algos fs,fs+hpel,fs+qpel,dia,hex --pairs 30 --no-sad-peak
        TAIL=14 step "bench_rate_r$r" 200 "$xme" bench --backends cuda:0 --variants fast --sizes 1920x1080 \
            --blocks 16 --ranges $r --algos fs,fs+hpel --pairs 30 --no-sad-peak
        TAIL=14 step "bench_rate_temporal_r$r" 200 "$xme" bench --backends cuda:0 --variants fast --sizes 1920x1080 \
            --blocks 16 --ranges $r --algos fs,fs+hpel --qp 28 --predictor temporal --pairs 30 --no-sad-peak
        TAIL=14 step "bench_rate_spatial_r$r" 200 "$xme" bench --backends cuda:0 --variants fast --sizes 1920x1080 \
            --blocks 16 --ranges $r --algos fs --qp 28 --predictor spatial --pairs 10 --no-sad-peak
    done
    TAIL=8 step bench_uhd 200 "$xme" bench --backends cuda:0 --variants fast --sizes 3840x2160 --blocks 16 \
        --ranges 32 --algos fs,dia,hex --pairs 10 --no-sad-peak
fi
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
