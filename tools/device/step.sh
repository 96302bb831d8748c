# Sourced by the GPU-machine scripts: the binaries' folder B (XME_BUILD, or the B the script set, else
# .device/build) with its runtime libraries, the clips, $OUT, and `step`, which runs one named,
# time-bounded step, logs it under $OUT, shows its tail and notes its exit code in $OUT/summary.txt;
# a failing step sets status=1.
B=${XME_BUILD:-${B:-.device/build}}
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$B/runtime-libs"
export XME_TEST_CLIP_DIR=${XME_TEST_CLIP_DIR:-$PWD/.device/clips}
OUT=${OUT:-gpu-check}
mkdir -p "$OUT"
xme=$B/tools/xme
tests=$B/tests/xme_tests
clip=$XME_TEST_CLIP_DIR/vtest.y4m
status=0
step() {  # step NAME SECONDS COMMAND...
    local name=$1 limit=$2; shift 2
    echo "=== $name"
    local start=$SECONDS
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    tail -n "${TAIL:-15}" "$OUT/$name.log"
    echo "--- $name: exit $rc, $((SECONDS - start)) s"
    [ $rc -eq 0 ] || status=1
    echo "$name $rc $((SECONDS - start))s" >>"$OUT/summary.txt"
}
