#!/usr/bin/env bash
# The Vulkan backend on the GPU machine, in one go: loader, NVIDIA ICD manifest, devices, conformance,
# timings of both variants (and of the fast kernel's tunings) at 1920x1080, block 16, range 16.
#
# Here, once (see /work/.library/device/README.md): download the loader into .gl/, adding the
# validation layer so that conformance runs under it there too, and build the portable binaries:
#   echo /.gl/ >>.git/info/exclude; mkdir -p .gl /tmp/amd64/partial
#   o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
#   apt-get $o update; (cd .gl && apt-get $o download libvulkan1 vulkan-validationlayers)
#   cmake --preset portable && cmake --build --preset portable
# There, from the repository root, with .gl and build/portable carried:
#   OUT=$OUT tools/device/vulkan_check.sh
# Logs go to $OUT (or ./vulkan-check). Each step is bounded in time; the most important come first.
set -uo pipefail
B=${XME_BUILD:-build/portable}
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$B/runtime-libs"
OUT=${OUT:-vulkan-check}
mkdir -p "$OUT"
tests=$B/tests/xme_tests
bench=$B/backends/vulkan/xme_vulkan_bench
source "$(dirname "$0")/step.sh"

source "$(dirname "$0")/vulkan_env.sh"
echo "loader: $(ldconfig -p | grep -m1 'libvulkan\.so\.1'); driver: $nvidia_egl; validation layer: $validation"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"

step devices 60 "$B/tools/xme" devices
step conformance 300 env XME_TEST_DEVICE=vulkan XME_VULKAN_VALIDATION=$validation "$tests" --test-suite=conformance
# Per variant and tuning: device ms per pair; XME_VULKAN_LOG adds per-pass times and what the driver
# says it compiled each pipeline to (registers, instructions: VK_KHR_pipeline_executable_properties).
TAIL=40 step time 240 env XME_VULKAN_LOG=1 "$bench" 1920 1080 16 16 30
# Against CUDA on the same frames and in the same run ("vs" column; the target: fast >= 0.5x CUDA fast).
TAIL=30 step versus_cuda 300 "$B/tools/xme" bench --backends cuda:0,vulkan:0 --sizes 1920x1080 --blocks 16 \
    --ranges 16 --algos fs,fs+hpel --pairs 30
TAIL=14 step time_b8 120 "$bench" 1920 1080 8 16 20
TAIL=14 step time_b32 120 "$bench" 1920 1080 32 16 20
TAIL=14 step time_r32 120 "$bench" 1920 1080 16 32 10
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
