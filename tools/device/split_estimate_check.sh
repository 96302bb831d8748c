#!/usr/bin/env bash
# Issue 16 on a machine with two GPUs: whole `xme estimate` jobs of a 1080p Y4M (testsrc2, carried gzipped
# in .device/clips, as luma-only Y4M looped to LOOPS x 120 frames: 160 fill 40 GB), each GPU alone and both
# under --policy split, REPS rounds, for fs at ranges 16 and 64, fs+qpel at 16 and 64, the 41 partitions
# at 32 and 64 (docs/scheduler.md, "Why: the measurements").
# Carry [".device"]; run on nvidia-h200-x2 as: export OUT; tools/device/split_estimate_check.sh [LOOPS] [REPS]
# [PATTERN] (only the chains whose name matches the grep pattern, e.g. 'fs r'). DEVICES="cpu cuda:0" on
# a one-GPU machine measures CPU plus GPU the same way (default: "cuda:0 cuda:1"), ALONE="cuda:0" runs only
# those of them alone (default: each; a CPU alone takes a minute a round at 1080p); EXTRA="--threads 6"
# adds options to every run; PREBUILT=1 uses the xme already built in $XME_BUILD; STAGES=1 prints each
# job's host stages (read, deliver, each device's submit and receive).
set -uo pipefail
loops=${1:-16}
reps=${2:-3}
only=${3:-.}
devices=${DEVICES:-cuda:0 cuda:1}
alone=${ALONE:-$devices}
export XME_BUILD=${XME_BUILD:-build/device}
if [ "${PREBUILT:-0}" = 1 ]; then B=$XME_BUILD; else
  source tools/device/build_on_device.sh || { tail -30 "$OUT/build.log"; exit 1; }
fi
xme=$B/tools/xme
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
clip=/tmp/split_1080p_mono.y4m
gunzip -c .device/clips/testsrc2_1080p.y4m.gz > /tmp/one.y4m
# Kept between calls of the same length: a long job's clip is tens of GB.
frames_wanted=$((loops * 120))
if [ "$(cat "$clip.frames" 2>/dev/null)" != "$frames_wanted" ]; then
  python3 tools/device/loop_luma_only.py /tmp/one.y4m "$loops" "$clip" && echo "$frames_wanted" > "$clip.frames"
fi
"$xme" estimate "$clip" --backend cuda:0 --read-only | tail -1
run() {  # NAME, then estimate's options
  local name=$1; shift
  "$xme" estimate "$clip" --block 16 --quiet --json /tmp/split.json "$@" ${EXTRA:-} || return
  python3 - "$name" <<'PY'
import json, sys
j = json.load(open('/tmp/split.json')); t = j['timing']; s = t['stages']
counts = {}
for f in j['frames']:
    for d in f['devices']: counts[d['device']] = counts.get(d['device'], 0) + 1
print('%-28s %7.0f pairs/s wall %.3f s setup %.3f s; device s %s; pairs %s' % (sys.argv[1], t['wall_frames_per_second'], t['wall_seconds'], s['setup_seconds'], [round(d['device_seconds'], 3) for d in s['devices']], counts))
if 'STAGES' in __import__('os').environ:  # where the host's time goes, per stage's own thread
    print('%-28s read %.3f s deliver %.3f s; submit %s receive %s; rates %s' % ('', s['read_seconds'], s['deliver_seconds'], [round(d['submit_seconds'], 3) for d in s['devices']], [round(d['receive_seconds'], 3) for d in s['devices']], [round(d.get('measured_pairs_per_second', 0)) for d in j['devices']]))
    if len(j['devices']) > 1:  # a device's first pairs: where it stopped getting any (starved splits)
        for d in j['devices']:
            own = [(f['frame'], round(e['device_ms'], 3)) for f in j['frames'] for e in f['devices'] if e['device'] == d['name']][:6]
            print('%-28s %s first pairs (frame, device ms): %s' % ('', d['name'], own))
PY
}
for config in "fs r16:--range 16" "fs r64:--range 64" "fs+qpel r16:--range 16 --subpel qpel" \
  "fs+qpel r64:--range 64 --subpel qpel" "fs+p41 r32:--range 32 --partitions all" \
  "fs+p41 r64:--range 64 --partitions all"; do
  name=${config%%:*}; options=${config#*:}
  grep -q -- "$only" <<<"$name" || continue
  for ((rep = 1; rep <= reps; ++rep)); do
    for device in $alone; do run "$name $device" $options --backend "$device"; done
    run "$name split" $options --backends "${devices// /,}" --policy split
  done
done
