#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset: clang, ASan + UBSan) and runs each for the given
# seconds (default 30, what CI runs), from its seed corpus in fuzz/corpus/<target>/. Prints each
# target's executions per second and coverage; exits 1 when any target finds a crash, a sanitizer
# report or a broken invariant (the input is saved as build/fuzz/findings/<target>/crash-*), and
# when a reproducer fuzz/corpus/<target>/crash-* still fails.
#   tools/fuzz.sh 600          # a longer run: ten minutes per target
#   tools/fuzz.sh 30 cli y4m   # only some targets (CI: y4m field_io, which need no CLI built)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(y4m raw_size cli cli_files field_io)

cmake --preset fuzz >/dev/null
# Only the targets asked for: the cli target alone needs the whole CLI compiled under the sanitizers.
cmake --build --preset fuzz --target "${targets[@]/#/fuzz_}"

build=build/fuzz
# The field-writer target writes files on every run: in memory (/dev/shm) where there is one.
scratch=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/xme-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
# Each target in its own process, as many at once as there are processors (a target is one thread):
# results go to files, since the targets run in background subshells.
results="$scratch/results"
mkdir -p "$results"
fuzz_target() {
  local target=$1 work findings log reproducer replay status execs rate coverage features line
  # New inputs go to a scratch corpus, never into the repository's seeds.
  work="$build/corpus/$target"
  findings="$build/findings/$target"
  log="$build/fuzz_$target.log"
  mkdir -p "$work" "$findings"
  # crash-* seeds reproduce defects found before: each is replayed on its own (it fails until the
  # defect is fixed) and kept out of the fuzzing corpus, so that one open defect does not stop
  # the search for others.
  for reproducer in "fuzz/corpus/$target"/crash-*; do
    [ -e "$reproducer" ] || continue
    replay="$build/replay_$(basename "$reproducer").log"
    if ! "$build/fuzz/fuzz_$target" -rss_limit_mb=2048 -artifact_prefix="$findings/replay-" "$reproducer" \
      >"$replay" 2>&1; then
      echo "fuzz: $reproducer still fails (log: $replay):" >&2
      grep -E -m3 'xme fuzz finding|ERROR: |SUMMARY' "$replay" >&2 || true
      echo "$target:$(basename "$reproducer")" >>"$results/failed"
    fi
  done
  find "fuzz/corpus/$target" -maxdepth 1 -type f ! -name 'crash-*' -exec cp {} "$work/" \;
  status=0
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$findings/" "$work" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  coverage=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
  features=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
  line="$target: ${execs:-?} runs, ${rate:-?} exec/s, cov ${coverage:-?} edges, ft ${features:-?}"
  if [ "$status" -ne 0 ]; then
    line+=" FAILED (exit $status)"
    echo "$target" >>"$results/failed"
    grep -E -A30 '^==[0-9]+==|xme fuzz finding|ERROR: libFuzzer|SUMMARY' "$log" | head -60 >&2 || true
    ls "$findings" >&2
  fi
  echo "$line" >"$results/summary_$target"
}
parallel=$(nproc 2>/dev/null || echo 1)
for target in "${targets[@]}"; do
  echo "fuzz: $target for ${seconds}s (log: $build/fuzz_$target.log)"
  fuzz_target "$target" &
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
done
wait
summary=()
for target in "${targets[@]}"; do summary+=("$(cat "$results/summary_$target" 2>/dev/null || echo "$target: no result")"); done
failed=()
[ -f "$results/failed" ] && mapfile -t failed <"$results/failed"

echo "fuzz summary (${seconds}s per target):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}: inputs under $build/findings/; replay one with $build/fuzz/fuzz_TARGET FILE" >&2
  exit 1
fi
