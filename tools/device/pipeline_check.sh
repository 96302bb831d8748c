#!/usr/bin/env bash
# Issue 16 on the GPU machine: where a whole job's time goes
# (docs/scheduler.md, "The pipeline: reading, devices, delivery").
#   bench: each CUDA device alone and split, 1080p block 16, ranges 16 and 64, 200 pairs;
#   estimate: a 1080p Y4M made of testsrc2 (carried gzipped in .device/clips, looped to LOOPS x 120
#   frames) through the scheduler, with the JSON's stages.
# Carry [".device"]; run as: export OUT; tools/device/pipeline_check.sh [DEVICES] [LOOPS]
set -uo pipefail
devices=${1:-cuda:0}
loops=${2:-8}
export XME_BUILD=${XME_BUILD:-build/device}
source tools/device/build_on_device.sh || { tail -30 "$OUT/build.log"; exit 1; }
xme=$B/tools/xme
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
for range in 16 64; do
  "$xme" bench --backends "$devices" --variants fast --sizes 1920x1080 --blocks 16 --ranges $range \
    --algos fs --pairs 200 --split --no-sad-peak
done
clip=/tmp/testsrc2_1080p.y4m
gunzip -c .device/clips/testsrc2_1080p.y4m.gz > /tmp/one.y4m
header=$(head -1 /tmp/one.y4m | wc -c)
{ cat /tmp/one.y4m; for ((i = 1; i < loops; ++i)); do tail -c +$((header + 1)) /tmp/one.y4m; done; } > "$clip"
ls -l "$clip"
for device in ${devices//,/ }; do
  for threads in 0 2; do  # the scheduler's reader alone, then two threads reading ahead
    "$xme" estimate "$clip" --backend "$device" --block 16 --range 16 --read-threads $threads \
      --json "$OUT/estimate_${device/:/}_read$threads.json" | tail -2
  done
done
