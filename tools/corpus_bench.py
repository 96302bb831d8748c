#!/usr/bin/env python3
"""The corpus path against `xme estimate` run clip after clip, on the same clips, in one run (docs/corpus.md,
"Measured"): wall time and frames/s of each, where the time goes (the jobs' setup, reading, delivering,
device time, from their JSON summaries), and that both wrote the same vectors.

    tools/corpus_bench.py --xme build/ci/tools/xme --clips 8 --from CLIP.y4m --frames 30 \\
        [--corpus-option=--cpu-workers=2 ...] -- ESTIMATE OPTIONS...

--from cuts --clips clips of --frames frames each out of one Y4M (whole frames, rotating through it), in
plain Python: it runs where there is no ffmpeg (the GPU machine). The module must be importable
(PYTHONPATH=build/<preset>/python).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time


def y4m_frames(path):
    """(header line, [frame bytes with their FRAME line]) of a Y4M file whose FRAME lines carry no
    parameters."""
    with open(path, "rb") as stream:
        data = stream.read()
    header_end = data.index(b"\n") + 1
    second = data.find(b"FRAME", header_end + 1)
    frame = (second if second > 0 else len(data)) - header_end
    frames = [data[start:start + frame] for start in range(header_end, len(data) - frame + 1, frame)]
    return data[:header_end], frames


def cut_clips(source, folder, clips, frames):
    header, pool = y4m_frames(source)
    paths = []
    for index in range(clips):
        path = os.path.join(folder, "clip%03d.y4m" % index)
        with open(path, "wb") as out:
            out.write(header)
            for number in range(frames):
                # Forward then backward through the pool: no jump between neighbours.
                cycle = 2 * (len(pool) - 1) or 1
                position = (index * 3 + number) % cycle
                out.write(pool[position if position < len(pool) else cycle - position])
        paths.append(path)
    return paths


def stages(summary_paths):
    totals = {"setup": 0.0, "read": 0.0, "deliver": 0.0, "device": 0.0, "pairs": 0}
    for path in summary_paths:
        with open(path, encoding="utf-8") as stream:
            summary = json.load(stream)
        for part in summary.get("segments", [summary]):
            timing = part["timing"]
            totals["setup"] += timing["stages"]["setup_seconds"]
            totals["read"] += timing["stages"]["read_seconds"]
            totals["deliver"] += timing["stages"]["deliver_seconds"]
            totals["device"] += timing["device_seconds"]
            totals["pairs"] += timing["pairs"]
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--xme", required=True, help="the xme program")
    parser.add_argument("--from", dest="source", required=True, help="a Y4M file to cut the clips from")
    parser.add_argument("--clips", type=int, default=8)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--corpus-option", action="append", default=[], help="a word for xme.corpus (repeat)")
    parser.add_argument("--keep", help="a folder to keep the clips and outputs in")
    parser.add_argument("--array", action="store_true",
                        help="the vectors as --vector-array (the corpus's --format array), not -o's rows")
    parser.add_argument("options", nargs="*", help="xme estimate's options, after --")
    arguments = parser.parse_args()
    folder = arguments.keep or tempfile.mkdtemp(prefix="xme-corpus-bench-")
    os.makedirs(folder, exist_ok=True)
    clips = cut_clips(arguments.source, folder, arguments.clips, arguments.frames)
    frames = arguments.clips * arguments.frames
    sequential = os.path.join(folder, "sequential")
    os.makedirs(sequential, exist_ok=True)

    suffix, option = (".vectors.npy", "--vector-array") if arguments.array else (".npy", "-o")
    started = time.perf_counter()
    for clip in clips:
        name = os.path.splitext(os.path.basename(clip))[0]
        subprocess.run([arguments.xme, "estimate", clip, *arguments.options, "-q", option,
                        os.path.join(sequential, name + suffix), "--json", os.path.join(sequential, name + ".json")],
                       check=True)
    sequential_seconds = time.perf_counter() - started

    corpus_out = os.path.join(folder, "corpus")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "xme.corpus", *clips, "--out", corpus_out, "--no-progress",
                           *(["--format", "array"] if arguments.array else []),
                           *[word for option in arguments.corpus_option for word in option.split("=", 1)],
                           *arguments.options], capture_output=True, text=True)
    corpus_seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit("xme.corpus failed (exit %d): %s" % (done.returncode, done.stderr))

    same = all(open(os.path.join(sequential, os.path.basename(path)), "rb").read() == open(path, "rb").read()
               for path in glob.glob(os.path.join(corpus_out, "*.npy")))
    rows = [("xme estimate, clip after clip", sequential_seconds, stages(glob.glob(os.path.join(sequential, "*.json")))),
            ("python3 -m xme.corpus", corpus_seconds, stages(glob.glob(os.path.join(corpus_out, "*.json"))))]
    print("%d clips x %d frames (%s), options: %s" % (arguments.clips, arguments.frames, arguments.source,
                                                     " ".join(arguments.options) or "defaults"))
    print("| path | wall s | frames/s | jobs' setup s | read s | deliver s | device s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, seconds, totals in rows:
        print("| %s | %.2f | %.1f | %.2f | %.2f | %.2f | %.3f |" % (label, seconds, frames / seconds, totals["setup"],
                                                                 totals["read"], totals["deliver"], totals["device"]))
    print("corpus / sequential wall: %.2fx; vectors identical: %s" % (corpus_seconds / sequential_seconds, same))
    print(done.stdout.strip())
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
