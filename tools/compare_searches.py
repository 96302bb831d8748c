#!/usr/bin/python3
"""xme's integer searches and FFmpeg's mestimate methods scored the same way on the same frames.

For every search the xme program lists (`xme devices`, the CPU's row) and every method of FFmpeg's
mestimate filter: block 16, range 16, vectors restricted to the frame (`--border restrict`, the window
mestimate searches), each frame predicted from the one before it. One scorer computes the MC-PSNR of
every field, xme's and FFmpeg's alike, from the decoded luma; it is checked against the MC-PSNR xme
reports for its own fields. Candidates per block are xme's own count (SPEC §11); FFmpeg counts none.

usage: tools/compare_searches.py [VIDEO] [--frames N] [--xme PATH] [--block B] [--range R]
Needs Debian's python3-av and python3-numpy (run with /usr/bin/python3).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import av
import numpy as np

FFMPEG_METHODS = ["esa", "tss", "tdls", "ntss", "fss", "ds", "hexbs", "epzs", "umh"]


def has_luma_plane(frame):
    """Whether the decoded frame's first plane is its luma (YUV or grey), which xme reads as it is; other
    formats (RGB: tree.avi's Cinepak) xme converts to grey through swscale, and so does this."""
    return frame.format.name.startswith(("yuv", "gray"))


def luma_frames(video, count):
    """The first `count` frames' luma planes, as xme reads them (ffmpeg_video.cpp)."""
    frames = []
    with av.open(video) as container:
        for frame in container.decode(container.streams.video[0]):
            if not has_luma_plane(frame):
                frame = frame.reformat(format="gray")
            plane = frame.planes[0]
            rows = np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)
            frames.append(rows[:, : plane.width].copy())
            if len(frames) == count:
                break
    return frames


def mestimate_fields(video, count, method, block, search_range):
    """FFmpeg's vectors for frames 1..count-1, each against the frame before: {frame: {(x, y): (dx, dy)}},
    searched on the same luma as xme's (grey first where the video is not YUV)."""
    fields = {}
    with av.open(video) as container:
        stream = container.streams.video[0]
        graph = av.filter.Graph()
        source = graph.add_buffer(template=stream)
        estimate = graph.add("mestimate", f"method={method}:mb_size={block}:search_param={search_range}")
        sink = graph.add("buffersink")
        if stream.format.name.startswith(("yuv", "gray")):
            source.link_to(estimate)
        else:
            grey = graph.add("format", "gray")
            source.link_to(grey)
            grey.link_to(estimate)
        estimate.link_to(sink)
        graph.configure()
        index = 0
        for frame in container.decode(stream):
            if index >= count:
                break
            graph.push(frame)
            while True:
                try:
                    out = graph.pull()
                except (av.error.BlockingIOError, av.error.EOFError):
                    break
                vectors = {}
                for data in out.side_data:
                    if "MOTION" not in str(data.type).upper():
                        continue
                    for v in data.to_ndarray():
                        if v["source"] != -1:  # the vector into the previous frame
                            continue
                        x, y = int(v["dst_x"]) - v["w"] // 2, int(v["dst_y"]) - v["h"] // 2
                        vectors[(x, y)] = (int(v["src_x"]) - int(v["dst_x"]), int(v["src_y"]) - int(v["dst_y"]))
                if vectors:
                    fields[index] = vectors
                index += 1
    return fields


def xme_field(xme, video, count, search, block, search_range, work):
    """xme's vectors (integer pel) for frames 1..count-1 and its JSON summary."""
    vectors_path = os.path.join(work, f"{search}.csv")
    summary_path = os.path.join(work, f"{search}.json")
    subprocess.run([xme, "estimate", video, "--backend", "cpu", "--frames", str(count), "--block", str(block),
                    "--range", str(search_range), "--border", "restrict", "--search", search,
                    "-o", vectors_path, "--json", summary_path, "--quiet"], check=True)
    fields = {}
    with open(vectors_path, newline="") as rows:
        for row in csv.DictReader(rows):
            mv_x, mv_y = int(row["mv_x"]), int(row["mv_y"])
            if mv_x % 4 or mv_y % 4:
                sys.exit(f"{search}: a fractional vector in {vectors_path}: compare integer searches only")
            fields.setdefault(int(row["frame"]), {})[(int(row["x"]), int(row["y"]))] = (mv_x // 4, mv_y // 4)
    with open(summary_path) as summary:
        return fields, json.load(summary)


def mc_psnr(reference, current, vectors, block):
    """PSNR of the block-wise prediction of `current` from `reference` (edge-replicated reads, SPEC §1)."""
    height, width = current.shape
    prediction = np.empty_like(current)
    for (x, y), (dx, dy) in vectors.items():
        rows = np.clip(np.arange(y, min(y + block, height)) + dy, 0, height - 1)
        columns = np.clip(np.arange(x, min(x + block, width)) + dx, 0, width - 1)
        prediction[y : y + block, x : x + block] = reference[np.ix_(rows, columns)]
    error = np.mean((current.astype(np.int32) - prediction.astype(np.int32)) ** 2)
    return math.inf if error == 0 else 10 * math.log10(255 * 255 / error)


def mean_psnr(frames, fields, block):
    values = [mc_psnr(frames[f - 1], frames[f], fields[f], block) for f in sorted(fields)]
    return sum(values) / len(values), len(values)


def xme_searches(xme):
    """The searches the CPU device runs, as `xme devices` lists them (the table of operations' rows)."""
    listing = subprocess.run([xme, "devices"], check=True, capture_output=True, text=True).stdout.splitlines()
    for i, line in enumerate(listing):
        if line.startswith("cpu"):
            for detail in listing[i + 1 :]:
                if detail.strip().startswith("searches:"):
                    return detail.split(":", 1)[1].split(";")[0].split()
    sys.exit("xme devices lists no CPU device with its searches")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("video", nargs="?", default="/usr/share/doc/opencv-doc/examples/data/vtest.avi")
    parser.add_argument("--frames", type=int, default=61)
    parser.add_argument("--xme", default="build/default/tools/xme")
    parser.add_argument("--block", type=int, default=16)
    parser.add_argument("--range", type=int, default=16, dest="search_range")
    args = parser.parse_args()

    frames = luma_frames(args.video, args.frames)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for search in xme_searches(args.xme):
            fields, summary = xme_field(args.xme, args.video, len(frames), search, args.block, args.search_range, work)
            psnr, pairs = mean_psnr(frames, fields, args.block)
            reported = summary["totals"]["mean_mc_psnr_db"]
            if abs(psnr - reported) > 1e-6:
                sys.exit(f"the scorer's {psnr:.6f} dB differs from xme's own {reported:.6f} dB for {search}")
            rows.append(("xme", search, psnr, summary["totals"]["candidates_per_block"], pairs))
    for method in FFMPEG_METHODS:
        fields = mestimate_fields(args.video, len(frames), method, args.block, args.search_range)
        psnr, pairs = mean_psnr(frames, {f: v for f, v in fields.items() if f >= 1}, args.block)
        rows.append(("FFmpeg", method, psnr, None, pairs))

    exhaustive = {"xme": next(r[2] for r in rows if r[:2] == ("xme", "fs")),
                  "FFmpeg": next(r[2] for r in rows if r[:2] == ("FFmpeg", "esa"))}
    full = next(r[3] for r in rows if r[:2] == ("xme", "fs"))
    print(f"{args.video}: {len(frames) - 1} pairs, block {args.block}, range {args.search_range}, border restrict")
    print("| engine | search | MC-PSNR (dB) | vs its exhaustive (dB) | candidates / block | share of fs's |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for engine, search, psnr, candidates, _ in rows:
        count = f"{candidates:.1f}" if candidates is not None else "n/a"
        share = f"1/{full / candidates:.1f}" if candidates else "n/a"
        print(f"| {engine} | {search} | {psnr:.3f} | {psnr - exhaustive[engine]:+.3f} | {count} | {share} |")


if __name__ == "__main__":
    main()
