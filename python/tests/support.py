"""Shared by the Python module's tests: the seed, the clip, the xme program, field checks.

Random frames come from a seed printed at the start (XME_TEST_SEED=N replays one). Without numpy
the process exits 77, which CTest reports as skipped, after saying why.
"""
import os
import random
import subprocess
import sys
import tempfile
import unittest

try:
    import numpy
except ImportError:
    print(f"skipped: {sys.executable} has no numpy (install python3-numpy, or configure with "
          "-DPython3_EXECUTABLE= naming a Python that has it)")
    sys.exit(77)  # CTest's skip

import xme

SEED = int(os.environ.get("XME_TEST_SEED", random.randrange(2**32)))
print(f"xme python tests: seed {SEED} (XME_TEST_SEED={SEED} replays it)", flush=True)
CLIP_DIR = os.environ.get("XME_TEST_CLIP_DIR", "/usr/share/doc/opencv-doc/examples/data")
CLIP = os.path.join(CLIP_DIR, "vtest.avi")
# The program beside the package in a build tree (build/<preset>/tools/xme), unless named.
XME = os.environ.get("XME_BINARY",
                     os.path.join(os.path.dirname(os.path.abspath(xme.__file__)), "..", "..", "tools", "xme"))
COST_KINDS = ["sad", "cost4", "satd", "sad+rate", "cost4+rate", "satd+rate"]  # the NPY's codes


def rng(name):
    return numpy.random.default_rng([SEED, *name.encode()])


def run_cli(*arguments):
    """Runs `xme estimate ...` writing its vectors as NPY; returns the (rows, columns) int32 array."""
    with tempfile.TemporaryDirectory() as folder:
        output = os.path.join(folder, "vectors.npy")
        done = subprocess.run([XME, "estimate", *map(str, arguments), "-o", output, "--quiet"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise AssertionError(f"xme estimate {' '.join(map(str, arguments))}: exit "
                                 f"{done.returncode}: {done.stderr}")
        return numpy.load(output)


def write_gray_y4m(path, frames):
    height, width = frames[0].shape
    with open(path, "wb") as file:
        file.write(f"YUV4MPEG2 W{width} H{height} F25:1 Ip A1:1 Cmono\n".encode())
        for frame in frames:
            file.write(b"FRAME\n" + numpy.ascontiguousarray(frame).tobytes())


class FieldChecks(unittest.TestCase):
    def assert_field_equals_rows(self, field, rows, frame, where):
        """The CLI's rows of one frame (frame, x, y, mv_x, mv_y, cost, scale, kind, candidates)."""
        rows = rows[rows[:, 0] == frame]
        by, bx = field.cost.shape
        self.assertEqual(len(rows), by * bx, f"{where}: blocks of frame {frame}")
        grid = rows.reshape(by, bx, rows.shape[1])
        numpy.testing.assert_array_equal(grid[:, :, 2] // field.block_size,
                                         numpy.arange(by)[:, None].repeat(bx, 1), where)
        numpy.testing.assert_array_equal(field.vectors, grid[:, :, 3:5], f"{where}: vectors")
        numpy.testing.assert_array_equal(field.cost, grid[:, :, 5], f"{where}: cost")
        numpy.testing.assert_array_equal(field.candidates, grid[:, :, 8], f"{where}: candidates")
        self.assertEqual(field.cost_scale, grid[0, 0, 6], where)
        self.assertEqual(field.cost_kind, COST_KINDS[grid[0, 0, 7]], where)

    def assert_fields_equal(self, expected, actual, where):
        numpy.testing.assert_array_equal(expected.vectors, actual.vectors, f"{where}: vectors")
        numpy.testing.assert_array_equal(expected.cost, actual.cost, f"{where}: cost")
        numpy.testing.assert_array_equal(expected.candidates, actual.candidates, f"{where}: candidates")
