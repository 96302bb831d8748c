#!/usr/bin/env bash
# Issue 16 on the H100 machine: one GPU's whole job on a long 1080p input against the device's own time
# in the same job (docs/scheduler-notes.md, "three pairs in flight"). The testsrc2 clip (carried gzipped
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
python3 - "$loops" "$clip" <<'PY'
import sys
loops, path = int(sys.argv[1]), sys.argv[2]
data = open('/tmp/one.y4m', 'rb').read()
end = data.index(b'\n') + 1
header = [t for t in data[:end].decode().split() if not t.startswith('C')] + ['Cmono']
width = int(next(t for t in header if t.startswith('W'))[1:])
height = int(next(t for t in header if t.startswith('H'))[1:])
luma, frame = width * height, 6 + width * height * 3 // 2
frames = [data[end + i * frame + 6:end + i * frame + 6 + luma] for i in range((len(data) - end) // frame)]
with open(path, 'wb', buffering=64 << 20) as out:
    out.write((' '.join(header) + '\n').encode())
    for _ in range(loops):
        for f in frames:
            out.write(b'FRAME\n')
            out.write(f)
print(len(frames) * loops, 'frames of luma-only Y4M in', path)
PY
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
