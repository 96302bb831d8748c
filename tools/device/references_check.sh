#!/usr/bin/env bash
# Issue 52 (SPEC §14) on the GPU machine: the §14 conformance case on CUDA and on Vulkan (NVIDIA's
# driver), xme compare of cpu, cuda:0 and vulkan:0 on the real clip for each setting and several chains;
# then the speed targets on a long 1080p input
# (vtest_1080p.y4m looped LOOPS times, readme_table.sh says how it is made): device seconds and wall
# rate of one reference (the default path) against --refs -1,-2,-3,-4 and -1,+1, per GPU backend.
#   tools/device/references_check.sh [LOOPS]     carry [".device", ".gl"] as search_table_check.sh says
set -uo pipefail
loops=${1:-30}
root=$PWD
source "$(dirname "$0")/build_here.sh"  # build
B=build/device-head
build . "$B" xme xme_tests || { tail -n 30 "$OUT/build_device-head.log"; exit 1; }
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, step
source "$(dirname "$0")/vulkan_env.sh"
for device in cuda vulkan; do
    TAIL=4 step "references_$device" 300 env XME_TEST_DEVICE=$device XME_VULKAN_VALIDATION=$validation \
        "$tests" -tc="§14*"
done
for setting in "--refs=-1,-2,-3,-4" "--refs=-1,+1" "--direction both"; do
    for chain in "fs" "hex+qpel --qp 28" "umh --qp 28 --predictor temporal" "tz+qpel --qp 28 --predictor spatial"; do
        name="compare_$(echo "$setting $chain" | tr -c 'a-z0-9' '_')"
        TAIL=4 step "$name" 120 "$xme" compare "$clip" --backends cpu,cuda:0,vulkan:0 --frames 8 $setting --algo $chain \
            --json "$OUT/$name.json"
    done
done
clip=/tmp/long_1080p.y4m
python3 - "$XME_TEST_CLIP_DIR/vtest_1080p.y4m" "$loops" "$clip" <<'PY'
import sys
source, loops, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(source, 'rb').read()
end = data.index(b'\n') + 1
with open(path, 'wb') as out:
    out.write(data[:end])
    for _ in range(loops):
        out.write(data[end:])
PY
run() {  # NAME, then estimate's options
    local name=$1; shift
    "$xme" estimate "$clip" --block 16 --range 16 --quiet --json /tmp/refs.json "$@" || return
    python3 - "$name" <<'PY'
import json, sys
j = json.load(open('/tmp/refs.json')); t = j['timing']
frames = len(j['frames'])
device = t['device_seconds']
uploaded = t.get('bytes_uploaded_per_frame')
print('%-34s %4d frames: device %.4f s (%.1f us a frame), wall %.3f s (setup %.3f s): %.1f%% of the device-bound '
      'rate after setup%s' % (sys.argv[1], frames, device, 1e6 * device / frames, t['wall_seconds'],
      t.get('setup_seconds', t.get('stages', {}).get('setup_seconds', 0)),
      100 * device / (t['wall_seconds'] - t.get('setup_seconds', t.get('stages', {}).get('setup_seconds', 0))),
      '' if uploaded is None else ', %.0f bytes uploaded a frame' % uploaded))
PY
}
for device in cuda:0 vulkan:0; do
    for algo in fs hex+qpel; do
        for round in 1 2; do
            run "$device $algo -1 ($round)" --backend $device --algo $algo
            run "$device $algo -1,-2,-3,-4 ($round)" --backend $device --algo $algo --refs=-1,-2,-3,-4
            run "$device $algo -1,+1 ($round)" --backend $device --algo $algo --refs=-1,+1
        done
    done
done 2>&1 | tee "$OUT/references_speed.txt"
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
