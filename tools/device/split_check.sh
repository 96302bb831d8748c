#!/usr/bin/env bash
# Issue 16 on a machine with two GPUs: whole jobs on each GPU alone and split over both, three runs
# per range (docs/scheduler.md, "Split: who takes a pair"). Carry [".device"]; run as: export OUT;
# tools/device/split_check.sh
set -uo pipefail
export XME_BUILD=${XME_BUILD:-build/device}
source tools/device/build_on_device.sh || { tail -30 "$OUT/build.log"; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
for range in ${RANGES:-16 64}; do
  for run in 1 2 3; do
    echo "== range $range, run $run"
    "$B/tools/xme" bench --backends cuda:0,cuda:1 --variants fast --sizes 1920x1080 --blocks 16 \
      --ranges "$range" --algos fs --pairs 200 --split --no-sad-peak 2>&1 | grep -E "^(single|split)"
  done
done
