#!/usr/bin/env bash
# Issue 15: the CUDA backend's out-of-memory path provoked for real on the GPU machine. A helper holds
# all but a little of the GPU's memory (tools/device/fill_gpu_memory.cu, built here and carried in
# .device/build/tools/), then xme runs: a clip, and a frame far too large for what is left. Each run
# must exit 5 with a message that names the call, the size and what to do; nothing written is lost.
# Run from the repository root with .device carried; logs go to $OUT.
set -uo pipefail
B=${XME_BUILD:-.device/build}
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$B/runtime-libs"
OUT=${OUT:-oom-check}
mkdir -p "$OUT"
xme=$B/tools/xme
clip=$PWD/.device/clips/vtest.y4m
status=0

expect_exit() {  # expect_exit NAME CODE COMMAND...
    local name=$1 code=$2; shift 2
    "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    echo "=== $name: exit $rc (expected $code)"
    tail -n 6 "$OUT/$name.log"
    [ "$rc" -eq "$code" ] || status=1
}

hold() {  # hold KEEP_MIB: fills the GPU but KEEP_MIB, until `release`
    "$B/tools/fill_gpu_memory" "$1" 600 >"$OUT/fill.log" 2>&1 &
    filler=$!
    for _ in $(seq 100); do grep -q holding "$OUT/fill.log" && break; sleep 0.2; done
    cat "$OUT/fill.log"
}
release() { kill "$filler" 2>/dev/null; wait "$filler" 2>/dev/null; }

# 1. Almost nothing left: not even a CUDA context can start.
hold 8
expect_exit clip_no_memory 5 "$xme" estimate "$clip" --backend cuda:0 --frames 4 -o "$OUT/none.csv"
release

# 2. A frame too large for what is left (16384x16384 gray, 256 MiB a plane) with 1500 MiB free: the
#    context starts (a few hundred MiB), the session's buffers (two stages of two raw frames, the
#    padded frames) do not fit, and the message names the allocation, its size and what is free.
head -c $((16384 * 16384 * 2)) /dev/urandom >/tmp/big.yuv
hold 1500
expect_exit frame_too_large 5 "$xme" estimate /tmp/big.yuv --size 16384x16384 --pix-fmt gray --backend cuda:0 \
    -o "$OUT/big.csv" --json "$OUT/big.json"
release
rm -f /tmp/big.yuv

# 3. The same clip with the memory back: it runs, so the failures above were the memory's.
expect_exit clip_with_memory 0 "$xme" estimate "$clip" --backend cuda:0 --frames 4 -o "$OUT/ok.csv"
echo "=== oom_check status $status"
exit $status
