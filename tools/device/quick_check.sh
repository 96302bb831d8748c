#!/usr/bin/env bash
# The least device time that still checks a change to the backends' sessions on the GPU machine: builds
# there (build_here.sh), then CUDA's and Vulkan's (NVIDIA's driver) conformance on random frames and
# SPEC §14 (the frame pool with several slots), and xme compare of cpu, cuda:0 and vulkan:0 with two
# references. Carry [".device", ".gl"] as search_table_check.sh says.
#   tools/device/quick_check.sh [SECONDS_PER_DEVICE]
set -uo pipefail
limit=${1:-90}
root=$PWD
source "$(dirname "$0")/build_here.sh"  # build
B=build/device-head
build . "$B" xme xme_tests || { tail -n 30 "$OUT/build_device-head.log"; exit 1; }
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
source "$(dirname "$0")/vulkan_env.sh"
for device in cuda vulkan; do
    TAIL=3 step "conformance_$device" "$limit" env XME_TEST_DEVICE=$device "$tests" --test-suite=conformance \
        -tc="§14*,random*"
done
TAIL=5 step compare_refs 60 "$xme" compare "$clip" --backends cpu,cuda:0,vulkan:0 --frames 6 --refs=-1,+1 \
    --algo hex+qpel --qp 28
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
