#!/usr/bin/env bash
# Issue 16 on the H100 machine: one GPU's whole job on a long 1080p input against the device's own time
# in the same job (docs/scheduler.md, "Pairs in flight and the read-ahead window"). The testsrc2 clip
# (carried gzipped
# in .device/clips) is rewritten as luma-only Y4M (Cmono: 2 MB a frame, what the job reads of a C420 clip)
# and looped to as many frames as the disk holds (at most LOOPS x 120); then ROUNDS jobs of `xme estimate
# --block 16 --range 16 --backend DEVICE`, each on the first 7,680 frames and on all of them.
# Carry [".device"]; run as: export OUT; tools/device/long_job_check.sh [DEVICE] [LOOPS] [ROUNDS]
# (PREBUILT=1 uses the xme already built in $XME_BUILD).
set -uo pipefail
device=${1:-cuda:0}
loops=${2:-160}
rounds=${3:-2}
export XME_BUILD=${XME_BUILD:-build/device}
if [ "${PREBUILT:-0}" = 1 ]; then B=$XME_BUILD; else
  source tools/device/build_on_device.sh || { tail -30 "$OUT/build.log"; exit 1; }
fi
xme=$B/tools/xme
clip=/tmp/long_1080p_mono.y4m
gunzip -c .device/clips/testsrc2_1080p.y4m.gz > /tmp/one.y4m
avail=$(df --output=avail -B1 /tmp | tail -1)
fit=$(((avail - 4000000000) / (120 * 2073606)))
[ "$fit" -lt "$loops" ] && loops=$fit
python3 tools/device/loop_luma_only.py /tmp/one.y4m "$loops" "$clip"
rm /tmp/one.y4m
run() {  # NAME, then estimate's options
  local name=$1; shift
  "$xme" estimate "$clip" --block 16 --range 16 --backend "$device" --quiet --json /tmp/long.json "$@" || return
  python3 - "$name" <<'PY'
import json, sys
j = json.load(open('/tmp/long.json')); t = j['timing']; s = t['stages']; d = s['devices'][0]
pairs = len(j['frames']); device_rate = pairs / d['device_seconds']
print('%-16s %6d pairs: %6.0f pairs/s with setup (%.3f s, setup %.3f s); device %.3f s = %6.0f pairs/s: '
      '%.1f%% of it with setup, %.1f%% after' % (sys.argv[1], pairs, t['wall_frames_per_second'], t['wall_seconds'],
      s['setup_seconds'], d['device_seconds'], device_rate, 100 * pairs / t['wall_seconds'] / device_rate,
      100 * d['device_seconds'] / (t['wall_seconds'] - s['setup_seconds'])))
PY
}
for ((round = 1; round <= rounds; ++round)); do
  run "7680, round $round" --frames 7680
  run "all, round $round"
done
