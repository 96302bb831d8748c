#!/usr/bin/env bash
# SPEC §12-§13 chained after the search on CUDA (compensation_kernels.cu, device_compensation.cpp) on the
# GPU machine, from the repository root with .device carried (binaries staged as
# tools/device/cuda_ops_check.sh says: correctness needs xme_tests, xme, xme_cuda_compensation_emulation
# and the clips from a build for -DCMAKE_CUDA_ARCHITECTURES=90 only; performance needs xme).
#   tools/device/cuda_compensation_check.sh correctness   the compensation conformance rows on cuda (every
#                       prediction kind, both transforms, random and clip frames), the host emulation,
#                       memcheck on the rows, racecheck on the H.264 prediction's shared scratch, and
#                       `xme estimate` on cpu and cuda:0 with every compensation output, byte for byte
#                       (xme compare checks the fields only)
#   tools/device/cuda_compensation_check.sh performance   003's UHD pipeline: ehds + compensation + residual +
#                       DCT, 3840x2160, 25 frames (24 timed pairs), loeffler and matrix, beside ehds alone
set -uo pipefail
mode=${1:?usage: tools/device/cuda_compensation_check.sh correctness|performance}
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"

# The figures of an estimate report, one per line, without the timings.
figures() {
    grep -oE '"(residual_abs_sum|coefficient_energy|zero_fraction|reconstruction_psnr_db|mc_psnr_db|zero_psnr_db)": ?[^,}]*' "$1"
}

# xme estimate on cpu and cuda:0 with every output; the files and the figures must be identical.
estimate_both() {  # estimate_both NAME ARGS...
    local name=$1; shift
    local d=$OUT/$name
    mkdir -p "$d"
    for device in cpu cuda:0; do
        local tag=${device%%:*}
        "$xme" estimate "$clip" --backend "$device" --frames 12 -q -o "$d/$tag.csv" --prediction "$d/$tag-pred.y4m" \
            --residual "$d/$tag-res.npy" --coefficients "$d/$tag-coef.npy" --json "$d/$tag.json" "$@" || return 1
    done
    for f in .csv -pred.y4m -res.npy -coef.npy; do cmp "$d/cpu$f" "$d/cuda$f" || return 1; done
    diff <(figures "$d/cpu.json") <(figures "$d/cuda.json") || return 1
    [ "$(figures "$d/cpu.json" | wc -l)" -gt 0 ] || { echo "no figures in $d/cpu.json"; return 1; }
    echo "$name: fields, prediction, residual, coefficients and figures identical ($(figures "$d/cpu.json" | wc -l) figures)"
}

# Without plane outputs the device returns only its sums (no prediction): the PSNRs must still match.
metrics_both() {  # metrics_both NAME ARGS...
    local name=$1; shift
    local d=$OUT/$name
    mkdir -p "$d"
    for device in cpu cuda:0; do
        "$xme" estimate "$clip" --backend "$device" --frames 12 -q --json "$d/${device%%:*}.json" "$@" || return 1
    done
    diff <(figures "$d/cpu.json") <(figures "$d/cuda.json") || return 1
    echo "$name: figures identical ($(figures "$d/cpu.json" | wc -l) figures)"
}

# `step` runs its command under timeout(1), which runs programs, not shell functions: export them.
export -f figures estimate_both metrics_both
export xme clip OUT

if [ "$mode" = correctness ]; then
    [ -x "$B/backends/cuda/xme_cuda_compensation_emulation" ] &&
        step emulation 120 "$B/backends/cuda/xme_cuda_compensation_emulation"
    TAIL=30 step conformance_compensation 300 env XME_TEST_DEVICE=cuda "$tests" --test-suite=conformance \
        -tc="compensation*" -s
    step memcheck_compensation 300 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast "$tests" --test-suite=conformance -tc="compensation*"
    step racecheck_compensation 300 compute-sanitizer --tool racecheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast "$tests" --test-suite=conformance -tc="compensation*"
    TAIL=4 step estimate_loeffler_hpel 200 bash -c 'estimate_both "$@"' _ loeffler_hpel --algo fs+hpel --transform loeffler
    TAIL=4 step estimate_matrix_ehds_qpel 200 bash -c 'estimate_both "$@"' _ matrix_ehds_qpel --algo ehds+qpel --lambda 4 \
        --transform matrix --qstep 10
    TAIL=4 step estimate_ehds_integer 200 bash -c 'estimate_both "$@"' _ loeffler_ehds --algo ehds --transform loeffler --block 8
    TAIL=4 step metrics_only_hpel 200 bash -c 'metrics_both "$@"' _ metrics_hpel --algo fs+hpel
    TAIL=4 step metrics_only_qpel 200 bash -c 'metrics_both "$@"' _ metrics_qpel --algo fs+qpel --block 8
    # The rate chain without refinement keeps keys, not records: compensation asks for the records.
    TAIL=4 step estimate_fs_temporal 200 bash -c 'estimate_both "$@"' _ fs_temporal --algo fs --qp 28 \
        --predictor temporal --transform loeffler
else
    for transform in loeffler matrix; do
        TAIL=8 step "pipeline_uhd_$transform" 300 "$xme" bench --backends cuda:0 --variants fast --sizes 3840x2160 \
            --blocks 16 --ranges 16,32 --algos ehds --pairs 24 --no-sad-peak --compensate $transform
    done
    TAIL=8 step pipeline_uhd_search_only 300 "$xme" bench --backends cuda:0 --variants fast --sizes 3840x2160 \
        --blocks 16 --ranges 16,32 --algos ehds --pairs 24 --no-sad-peak
fi
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
