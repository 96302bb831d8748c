# Sourced by the GPU-machine scripts: runs one named, time-bounded step, logs it under $OUT, shows its
# tail and notes its exit code in $OUT/summary.txt; a failing step sets status=1.
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
