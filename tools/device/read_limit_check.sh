#!/usr/bin/env bash
# Issue 16 on the GPU machine: a long whole job against the input's own limit (docs/scheduler.md, "Reading").
#   Makes a 1080p Y4M of LOOPS x 120 frames (testsrc2, carried gzipped in .device/clips), then for each
#   T in THREADS: reading the luma planes alone with T threads (pread into reused buffers, no device:
#   the input's limit), and `xme estimate --backend DEVICE --read-threads T` twice, with the JSON's stages.
# Carry [".device"]; run as: export OUT; tools/device/read_limit_check.sh [LOOPS] ["THREADS"] [DEVICE]
set -uo pipefail
loops=${1:-32}
threads=${2:-"4 8"}
device=${3:-cuda:0}
export XME_BUILD=${XME_BUILD:-build/device}
source tools/device/build_on_device.sh || { tail -30 "$OUT/build.log"; exit 1; }
xme=$B/tools/xme
nproc; nvidia-smi --query-gpu=name --format=csv,noheader; free -g | head -2
clip=/tmp/long_1080p.y4m
gunzip -c .device/clips/testsrc2_1080p.y4m.gz > /tmp/one.y4m
header=$(head -1 /tmp/one.y4m | wc -c)
tail -c +$((header + 1)) /tmp/one.y4m > /tmp/body
{ cat /tmp/one.y4m; for ((i = 1; i < loops; ++i)); do cat /tmp/body; done; } > "$clip"
ls -l "$clip"
for t in $threads; do
  "$xme" estimate "$clip" --backend "$device" --read-only --read-threads "$t" --json "$OUT/read_only_$t.json" | tail -2
  for run in 1 2; do
    "$xme" estimate "$clip" --backend "$device" --block 16 --range 16 --read-threads "$t" --quiet \
      --json "$OUT/estimate_read${t}_$run.json"
    python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['timing']; print('read-threads $t run $run:',
      {k: t[k] for k in ('pairs', 'wall_seconds', 'device_seconds', 'wall_frames_per_second')}, t['stages'])" \
      "$OUT/estimate_read${t}_$run.json" 2>/dev/null || tail -c 900 "$OUT/estimate_read${t}_$run.json"
  done
done
