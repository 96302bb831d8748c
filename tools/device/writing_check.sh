#!/usr/bin/env bash
# Issue 56's first target on the GPU machine: the whole job of `xme estimate --backend cuda:0` on a
# long 1080p input with the vectors written, against the same job writing nothing, alternated in one
# call (docs/scheduler.md, "Writing the fields"). The 10-frame vtest_1080p.y4m (readme_table.sh says
# how it is made) is looped LOOPS times into /tmp; each job's wall rate and device rate come from its
# --json summary.
#   tools/device/writing_check.sh [LOOPS] [ROUNDS]     carry [".device", ".gl"]
set -uo pipefail
loops=${1:-96}
rounds=${2:-2}
root=$PWD
source "$(dirname "$0")/build_here.sh"  # build
B=build/device-head
build . "$B" xme || { tail -n 30 "$OUT/build_device-head.log"; exit 1; }
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, step
clip=/tmp/long_1080p.y4m
python3 - "$XME_TEST_CLIP_DIR/vtest_1080p.y4m" "$loops" "$clip" <<'PY'
import sys
source, loops, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(source, 'rb').read()
end = data.index(b'\n') + 1
frames = data[end:]
with open(path, 'wb') as out:
    out.write(data[:end])
    for _ in range(loops):
        out.write(frames)
PY
run() {  # NAME, then estimate's options
    local name=$1; shift
    rm -f /tmp/out.*
    "$xme" estimate "$clip" --block 16 --range 16 --backend cuda:0 --quiet --json /tmp/long.json "$@" || return
    python3 - "$name" <<'PY'
import json, sys
j = json.load(open('/tmp/long.json')); t = j['timing']; s = t['stages']; d = s['devices'][0]
pairs = len(j['frames']); device_rate = pairs / d['device_seconds']
print('%-22s %5d pairs: wall %.3f s = %6.0f pairs/s (setup %.3f s, writing %.3f s); device %.3f s = %6.0f pairs/s; '
      'wall after setup %6.0f pairs/s' % (sys.argv[1], pairs, t['wall_seconds'], t['wall_frames_per_second'],
      s['setup_seconds'], s.get('deliver_seconds', float('nan')), d['device_seconds'], device_rate,
      pairs / (t['wall_seconds'] - s['setup_seconds'])))
PY
}
for ((round = 1; round <= rounds; ++round)); do
    run "no output $round"
    run "--vector-array $round" --vector-array /tmp/out.v.npy
    run "-o v.npy $round" -o /tmp/out.npy
    run "-o v.csv $round" -o /tmp/out.csv
done 2>&1 | tee "$OUT/writing.txt"
ls -la /tmp/out.* 2>/dev/null
