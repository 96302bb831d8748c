#!/usr/bin/env bash
# Every GPU check of xme in two device calls, from the repository root, with .gl and .device carried:
#   tools/device/gpu_check.sh correctness   devices; CUDA and Vulkan conformance (real clip frames
#                                           included), CUDA memcheck, estimate and compare on a clip
#   tools/device/gpu_check.sh performance   xme bench: CPU, CUDA and Vulkan on the same frames; block
#                                           sizes; split over CPU+CUDA; the peak of each SAD formulation
#                                           in Vulkan; the legacy passes' times
# Made here first:
#   cmake --preset portable && cmake --build --preset portable
#   mkdir -p .device/build/{tools,tests,backends/cuda,backends/vulkan,runtime-libs}
#   cp build/portable/tools/{xme,estimate_two_frames} .device/build/tools/
#   cp build/portable/tests/xme_tests .device/build/tests/
#   cp build/portable/backends/cuda/xme_cuda_bench .device/build/backends/cuda/
#   cp build/portable/backends/vulkan/xme_vulkan_{bench,forms} .device/build/backends/vulkan/
#   cp -L /lib/x86_64-linux-gnu/libgomp.so.1 .device/build/runtime-libs/
#   tools/make_test_clips.sh .device/clips 10
# Logs and the bench's CSV, JSON and chart go to $OUT.
set -uo pipefail
mode=${1:?usage: tools/device/gpu_check.sh correctness|performance}
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step

source "$(dirname "$0")/vulkan_env.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

if [ "$mode" = correctness ]; then
    TAIL=16 step devices 60 "$xme" devices
    step conformance_cuda 200 env XME_TEST_DEVICE=cuda "$tests" --test-suite=conformance
    step conformance_vulkan 240 env XME_TEST_DEVICE=vulkan XME_VULKAN_VALIDATION=$validation "$tests" --test-suite=conformance
    step memcheck_cuda 120 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda "$tests" \
        --test-suite=conformance -tc="random*"
    step estimate_vulkan 60 "$xme" estimate "$clip" --backend vulkan:0 --algo fs+hpel
    TAIL=8 step compare 90 "$xme" compare "$clip" --backends cpu,cuda:0,vulkan:0 --algo fs+hpel --json "$OUT/compare.json"
    TAIL=8 step compare_legacy 90 "$xme" compare "$clip" --backends cpu,cuda:0,vulkan:0 --variant legacy --algo fs+hpel \
        --json "$OUT/compare_legacy.json"
    step scheduler 120 "$tests" --test-suite=scheduler
else
    TAIL=30 step bench 240 "$xme" bench --backends cpu,cuda:0,vulkan:0 --sizes 1920x1080 --blocks 16 --ranges 16 \
        --algos fs,fs+hpel --pairs 20 --csv "$OUT/bench.csv" --json "$OUT/bench.json" --chart "$OUT/bench.svg"
    TAIL=12 step bench_blocks 120 "$xme" bench --backends cuda:0,vulkan:0 --variants fast --sizes 1920x1080 --blocks 4,8,32 \
        --ranges 16 --pairs 20 --no-sad-peak
    TAIL=12 step split 150 "$xme" bench --backends cpu,cuda:0 --variants fast,avx512bw,avx2 --sizes 1920x1080 \
        --blocks 16 --ranges 16 --pairs 60 --split --no-sad-peak
    # The README's performance table: its chains at 1080p on the clip the CPU rows used, made here by
    #   ffmpeg -i /usr/share/doc/opencv-doc/examples/data/vtest.avi -vf scale=1920:1080 -frames:v 10 \
    #     -pix_fmt gray .device/clips/vtest_1080p.y4m
    # then tools/perf_table.py on the JSON (docs/perf/ keeps each machine's JSON).
    table_clip=$XME_TEST_CLIP_DIR/vtest_1080p.y4m
    if [ -f "$table_clip" ]; then
        TAIL=16 step perf_bench 300 "$xme" bench "$table_clip" --backends cuda:0,vulkan:0 --variants fast \
            --algos fs,fs+hpel,fs+qpel,dia,hex,ehds,tz,tz+qpel,umh,fs+p41 --blocks 16 --ranges 16 --pairs 8 \
            --rounds 5 --json "$OUT/perf_gpu.json"
        TAIL=30 step perf_table 30 python3 tools/perf_table.py "$OUT/perf_gpu.json"
    else
        echo "=== perf_bench skipped: $table_clip is missing (see the comment above it)"
    fi
    TAIL=12 step sad_forms 60 "$B/backends/vulkan/xme_vulkan_forms"
    TAIL=30 step legacy_passes 90 env XME_VULKAN_LOG=1 "$B/backends/vulkan/xme_vulkan_bench" 1920 1080 16 16 10
fi
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
