#!/usr/bin/env bash
# The Vulkan backend's SPEC §13 transforms and §8 rate-constrained chains on the GPU machine (the
# H100's Vulkan driver, reached as tools/device/vulkan_check.sh says: carry .gl with the loader and
# the validation layer). Binaries: the portable build (XME_BUILD, default build/portable), or a
# staged one as tools/device/cuda_ops_check.sh stages it (XME_BUILD=.device/build), with the clips in
# .device/clips (XME_TEST_CLIP_DIR) or tools/make_test_clips.sh's output.
#   OUT=$OUT tools/device/vulkan_ops_check.sh
# XME_BENCH_BACKENDS (default cuda:0,vulkan:0) names the bench's devices: vulkan:0 alone for a build
# without CUDA (the build made here with Vulkan, carried; CUDA's rows then come from a build made there).
# Steps: the conformance rows for vulkan under the validation layer (transforms with IEEE 1180, every
# operation row: §8's settings, +qpel, dia, hex, ehds and tz), `xme compare` against the CPU for the §8
# settings and for fs+qpel, dia, hex+qpel, ehds, tz and the 41 partitions, then a bench of fs and fs+hpel
# with and without `--qp 28 --predictor temporal`, of fs, fs+hpel, fs+qpel, dia, hex, ehds and tz, and of
# fs+p41 (+qpel) at range 32, cuda:0 beside vulkan:0.
set -uo pipefail
bench_backends=${XME_BENCH_BACKENDS:-cuda:0,vulkan:0}
B=build/portable
OUT=${OUT:-vulkan-ops-check}
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
source "$(dirname "$0")/vulkan_env.sh"
echo "driver: $nvidia_egl; validation layer: $validation"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"

step devices 60 "$xme" devices
TAIL=30 step conformance_transforms 300 env XME_TEST_DEVICE=vulkan XME_VULKAN_VALIDATION=$validation \
    "$tests" --test-suite=conformance -tc="transforms*,vulkan: every float*"
TAIL=30 step conformance_ops 300 env XME_TEST_DEVICE=vulkan XME_VULKAN_VALIDATION=$validation \
    "$tests" --test-suite=conformance -tc="operations*,real frames*,vulkan*,compensation*"
for settings in "--algo fs --qp 28 --predictor temporal" \
    "--algo fs+hpel --lambda 4 --predictor spatial --center predictor" \
    "--algo fs --lambda 3 --predictor temporal --refresh 3" \
    "--algo fs+hpel --lambda 3 --predictor temporal --refresh 3" \
    "--algo fs+qpel --qp 28 --predictor temporal" \
    "--algo dia --lambda 4 --predictor spatial" \
    "--algo hex+qpel --qp 28" \
    "--algo ehds --qp 28 --predictor temporal" \
    "--algo ehds+qpel --lambda 4 --predictor spatial --center predictor" \
    "--algo tz --qp 28 --predictor temporal --range 32" \
    "--algo tz+qpel --lambda 4 --predictor spatial --border restrict" \
    "--algo fs+p41 --qp 28 --predictor temporal" \
    "--algo fs+p41+qpel --lambda 4 --predictor temporal --center predictor --border restrict"; do
    name="compare_$(echo "$settings" | tr -c 'a-z0-9' '_')"
    TAIL=4 step "$name" 200 "$xme" compare "$clip" --backends cpu,vulkan:0 $settings --frames 4
done
# SPEC §12-§13 on the device after the search: the files and figures equal the CPU's, byte for byte.
for chain in "--algo fs+qpel --transform loeffler" "--algo tz --qp 28 --predictor temporal --transform matrix"; do
    name="compensation_$(echo "$chain" | tr -c 'a-z0-9' '_')"
    for device in cpu vulkan:0; do
        "$xme" estimate "$clip" --frames 4 --backend $device $chain --residual "/tmp/${name}_${device/:/}.y4m" \
            --json "/tmp/${name}_${device/:/}.json" --quiet
    done
    step "$name" 60 cmp "/tmp/${name}_cpu.y4m" "/tmp/${name}_vulkan0.y4m"
done
TAIL=14 step bench_compensate 240 "$xme" bench --backends "$bench_backends" --variants fast --sizes 1920x1080 \
    --blocks 16 --ranges 16 --algos fs --compensate loeffler --pairs 10 --no-sad-peak
for rate in "" "--qp 28 --predictor temporal"; do
    name="bench_$(echo "fs $rate" | tr -c 'a-z0-9' '_')"
    TAIL=14 step "$name" 240 "$xme" bench --backends "$bench_backends" --variants fast --sizes 1920x1080 \
        --blocks 16 --ranges 16 --algos fs,fs+hpel $rate --pairs 10 --no-sad-peak
done
TAIL=14 step bench_fs_spatial 240 "$xme" bench --backends "$bench_backends" --variants fast --sizes 1920x1080 \
    --blocks 16 --ranges 16 --algos fs --qp 28 --predictor spatial --pairs 5 --no-sad-peak
TAIL=20 step bench_qpel_walks 300 "$xme" bench --backends "$bench_backends" --variants fast --sizes 1920x1080 \
    --blocks 16 --ranges 16 --algos fs,fs+hpel,fs+qpel,dia,hex,ehds,tz --pairs 10 --no-sad-peak
# SPEC §9's partitions at 002's setting (1080p, range 32) beside fs.
TAIL=14 step bench_p41 300 "$xme" bench --backends "$bench_backends" --variants fast --sizes 1920x1080 \
    --blocks 16 --ranges 32 --algos fs,fs+p41,fs+p41+qpel --pairs 5 --no-sad-peak
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
