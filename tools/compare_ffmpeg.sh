#!/usr/bin/env bash
# Side by side on the same frames and machine: FFmpeg's own exhaustive search (mestimate, esa) and
# xme's CPU backend, one thread each, block 16, range 16, restricted to the frame as mestimate is.
# mestimate searches every frame twice (against the previous and the next frame), so both are
# compared per search, i.e. per frame pair. Also checks that xme's vectors are the exhaustive
# optimum: equal to the scalar reference's on the first pairs.
#
# usage: tools/compare_ffmpeg.sh [VIDEO] [FRAMES] [XME]
set -euo pipefail
video=${1:-/usr/share/doc/opencv-doc/examples/data/vtest.avi}
frames=${2:-21}
xme=${3:-build/default/tools/xme}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { date +%s.%N; }

# Seconds FFmpeg takes for the first N frames with the given filter chain.
ffmpeg_time() {
  local start
  start=$(seconds)
  ffmpeg -nostdin -hide_banner -loglevel error -threads 1 -i "$video" -frames:v "$1" -vf "$2" -f null -
  echo "$(seconds) - $start" | bc -l
}

# FFmpeg's steady-state time per frame, free of start-up and of the first and last frames (which
# search one direction only): the difference between a long and a short run, less decoding.
short=$(( frames / 3 > 2 ? frames / 3 : 2 ))
search="format=gray,mestimate=method=esa:mb_size=16:search_param=16"
me_long=$(ffmpeg_time "$frames" "$search")
me_short=$(ffmpeg_time "$short" "$search")
decode_long=$(ffmpeg_time "$frames" format=gray)
decode_short=$(ffmpeg_time "$short" format=gray)
ffmpeg_per_frame=$(echo "(($me_long - $me_short) - ($decode_long - $decode_short)) / ($frames - $short)" | bc -l)

"$xme" estimate "$video" --backend cpu --threads 1 --frames "$frames" --block 16 --range 16 --border restrict \
  --json "$work/xme.json" --quiet
xme_device_seconds=$(python3 -c "import json; print(json.load(open('$work/xme.json'))['timing']['device_seconds'])")
pairs=$(( frames - 1 ))

check=3
"$xme" estimate "$video" --backend cpu --frames "$check" --block 16 --range 16 --border restrict -o "$work/cpu.csv" --quiet
"$xme" estimate "$video" --backend reference --frames "$check" --block 16 --range 16 --border restrict -o "$work/ref.csv" --quiet
if cmp -s "$work/cpu.csv" "$work/ref.csv"; then optimum="yes (first $((check - 1)) pairs equal the reference)"; else optimum="NO: differs from the reference"; fi

python3 - "$ffmpeg_per_frame" "$xme_device_seconds" "$pairs" "$optimum" "$video" <<'PY'
import sys
per_frame, xme, pairs, optimum, video = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
per_ffmpeg = per_frame / 2  # two searches per frame: previous and next
per_xme = xme / pairs
print(f"{video}: block 16, range 16, border restrict")
print(f"FFmpeg mestimate esa, 1 thread: {per_ffmpeg*1e3:9.2f} ms per search (steady state, decoding taken out)")
print(f"xme cpu backend,      1 thread: {per_xme*1e3:9.2f} ms per search ({pairs} pairs, device time)")
print(f"speed-up per thread: {per_ffmpeg/per_xme:.1f}x")
print(f"xme result is the exhaustive optimum: {optimum}")
PY
