#!/usr/bin/env bash
# The README's performance table's GPU rows (README "Performance", docs/perf/): builds xme on the GPU
# machine (build_here.sh), then one `xme bench --json` of the table's chains on CUDA and Vulkan
# (NVIDIA's driver) over the clip the CPU rows used, and tools/perf_table.py on it.
# Carry [".device", ".gl"] as search_table_check.sh says, with .device/clips/vtest_1080p.y4m:
#   ffmpeg -i /usr/share/doc/opencv-doc/examples/data/vtest.avi -vf scale=1920:1080 -frames:v 10 \
#     -pix_fmt gray .device/clips/vtest_1080p.y4m
# Writes $OUT/gpu.json (copy it to docs/perf/) and prints the table.
set -uo pipefail
root=$PWD
source "$(dirname "$0")/build_here.sh"  # build
B=build/device-head
build . "$B" xme || { tail -n 30 "$OUT/build_device-head.log"; exit 1; }
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, step
OUT=$(cd "$OUT" && pwd)
source "$(dirname "$0")/vulkan_env.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
# Run where the clip's name is the one the table cites.
cp "$XME_TEST_CLIP_DIR/vtest_1080p.y4m" /tmp/vtest_1080p.y4m
(cd /tmp && TAIL=24 step perf_bench 400 "$root/$xme" bench vtest_1080p.y4m --backends cuda:0,vulkan:0 --variants fast \
    --algos fs,fs+hpel,fs+qpel,dia,hex,ehds,tz,tz+qpel,umh,fs+p41 --blocks 16 --ranges 16 --pairs 8 --rounds 5 \
    --json gpu.json && cp gpu.json "$OUT/gpu.json")
TAIL=40 step perf_table 30 python3 tools/perf_table.py "$OUT/gpu.json"
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
