#!/usr/bin/env bash
# Makes .y4m copies of the first frames of the test clips, for builds without FFmpeg (the portable
# build that runs on the GPU machine): the tests read DIR/<clip>.y4m there instead of <clip>.avi.
# Frames are kept as decoded (no duplication to a constant rate), so they match the .avi.
# usage: tools/make_test_clips.sh DIR [FRAMES]
set -euo pipefail
dir=${1:?usage: tools/make_test_clips.sh DIR [FRAMES]}
frames=${2:-12}
data=/usr/share/doc/opencv-doc/examples/data
mkdir -p "$dir"
for clip in vtest tree; do
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$data/$clip.avi" -frames:v "$frames" -fps_mode passthrough -pix_fmt yuv420p "$dir/$clip.y4m"
done
ls -l "$dir"
