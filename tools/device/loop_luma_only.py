#!/usr/bin/env python3
"""Writes a 4:2:0 Y4M's frames as luma-only Y4M (Cmono: 2 MB a 1080p frame, what xme reads of a C420 clip),
looped LOOPS times: the long inputs of issue 16's device checks (long_job_check.sh, split_estimate_check.sh).
Usage: loop_luma_only.py SOURCE.y4m LOOPS OUTPUT.y4m"""
import sys

source, loops, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(source, 'rb').read()
end = data.index(b'\n') + 1
header = [t for t in data[:end].decode().split() if not t.startswith('C')] + ['Cmono']
width = int(next(t for t in header if t.startswith('W'))[1:])
height = int(next(t for t in header if t.startswith('H'))[1:])
luma, frame = width * height, 6 + width * height * 3 // 2
frames = [data[end + i * frame + 6:end + i * frame + 6 + luma] for i in range((len(data) - end) // frame)]
with open(path, 'wb', buffering=64 << 20) as out:
    out.write((' '.join(header) + '\n').encode())
    for _ in range(loops):
        for f in frames:
            out.write(b'FRAME\n')
            out.write(f)
print(len(frames) * loops, 'frames of luma-only Y4M in', path)
